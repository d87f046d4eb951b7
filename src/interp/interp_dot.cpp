// dot: a sequential fma chain over k ascending per output element (semantics: interpreter.h).
#include <cmath>

#include "interp/interp_ops.h"

namespace tritium::interp {
namespace {

using ir::ScalarType;

struct DotShape {
  int64_t batch, m, n, k;
};

DotShape dot_shape(const ir::Op& op, const Val& a, const Val& b, const Val& acc) {
  const size_t r = a.shape.size();
  if ((r != 2 && r != 3) || b.shape.size() != r || acc.shape.size() != r) refuse(op, "operands must be 2-D or 3-D");
  const int64_t batch = r == 3 ? a.shape[0] : 1;
  if (r == 3 && (b.shape[0] != batch || acc.shape[0] != batch)) refuse(op, "batch sizes differ");
  const int64_t m = a.shape[r - 2], k = a.shape[r - 1], n = b.shape[r - 1];
  if (b.shape[r - 2] != k || acc.shape[r - 2] != m || acc.shape[r - 1] != n)
    refuse(op, "shapes " + describe(a) + " x " + describe(b) + " + " + describe(acc) + " do not match");
  return {batch, m, n, k};
}

// Converts every element of v exactly to C (float or double), or to int64 for integers.
template <class C> std::vector<C> widen(const Val& v) {
  std::vector<C> out(static_cast<size_t>(v.numel));
  if constexpr (std::is_same_v<C, int64_t>) {
    for (int64_t i = 0; i < v.numel; ++i) out[i] = load_int(v, i);
  } else if (v.scalar == ScalarType::F32) {
    const float* p = v.as<float>();
    for (int64_t i = 0; i < v.numel; ++i) out[i] = static_cast<C>(p[i]);
  } else if (v.scalar == ScalarType::F16) {
    const uint16_t* p = v.as<uint16_t>();
    for (int64_t i = 0; i < v.numel; ++i) out[i] = static_cast<C>(fp16_to_fp32(p[i]));
  } else {
    for (int64_t i = 0; i < v.numel; ++i) out[i] = static_cast<C>(load_double(v, i));
  }
  return out;
}

// b[batch][k][n] → bt[batch][n][k] so the k loop reads contiguously.
template <class C> std::vector<C> transpose_b(const std::vector<C>& b, const DotShape& s) {
  std::vector<C> bt(b.size());
  for (int64_t z = 0; z < s.batch; ++z)
    for (int64_t kk = 0; kk < s.k; ++kk)
      for (int64_t j = 0; j < s.n; ++j) bt[(z * s.n + j) * s.k + kk] = b[(z * s.k + kk) * s.n + j];
  return bt;
}

// For every output element: r = acc; for k ascending: r = step(a, b, r).
template <class C, class Step>
void chain(const std::vector<C>& a, const std::vector<C>& bt, const DotShape& s, Step step,
           const std::function<C(int64_t)>& acc_in, const std::function<void(int64_t, C)>& out) {
  for (int64_t z = 0; z < s.batch; ++z)
    for (int64_t i = 0; i < s.m; ++i) {
      const C* arow = &a[(z * s.m + i) * s.k];
      for (int64_t j = 0; j < s.n; ++j) {
        const C* bcol = &bt[(z * s.n + j) * s.k];
        const int64_t o = (z * s.m + i) * s.n + j;
        C r = acc_in(o);
        for (int64_t kk = 0; kk < s.k; ++kk) r = step(arow[kk], bcol[kk], r);
        out(o, r);
      }
    }
}

}  // namespace

Val eval_dot(const ir::Op& op, const Val& a, const Val& b, const Val& acc) {
  if (a.is_ptr || b.is_ptr || acc.is_ptr) refuse(op, "pointer operands");
  if (a.scalar != b.scalar) refuse(op, "operand dtypes differ: " + describe(a) + " and " + describe(b));
  const std::string prec = op.attr_str("input_precision", "ieee");
  if (prec != "ieee" && prec != "tf32" && prec != "tf32x3" && prec != "hf32" && !prec.empty())
    refuse(op, "unknown input_precision '" + prec + "'");
  const DotShape s = dot_shape(op, a, b, acc);
  const ScalarType in = a.scalar, out_t = acc.scalar;
  Val r = Val::make(out_t, false, acc.shape);
  if (ir::is_int(in) && ir::is_int(out_t) && out_t != ScalarType::I1) {
    const std::vector<int64_t> av = widen<int64_t>(a), bt = transpose_b(widen<int64_t>(b), s);
    chain<int64_t>(
        av, bt, s,
        [](int64_t x, int64_t y, int64_t r) {
          return static_cast<int64_t>(static_cast<uint64_t>(r) + static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
        },
        [&](int64_t o) { return load_int(acc, o); }, [&](int64_t o, int64_t v) { store_int(r, o, static_cast<uint64_t>(v)); });
    return r;
  }
  if (!ir::is_float(in) || !ir::is_float(out_t)) refuse(op, "unsupported dtypes " + describe(a) + " -> " + describe(acc));
  if (out_t == ScalarType::F32) {
    if (in == ScalarType::F64) refuse(op, "fp64 operands need an fp64 accumulator");
    const std::vector<float> av = widen<float>(a), bt = transpose_b(widen<float>(b), s);
    const float* pacc = acc.as<float>();
    float* pr = r.as<float>();
    chain<float>(
        av, bt, s, [](float x, float y, float r) { return std::fma(x, y, r); }, [&](int64_t o) { return pacc[o]; },
        [&](int64_t o, float v) { pr[o] = v; });
    return r;
  }
  if (out_t == ScalarType::F64) {
    const std::vector<double> av = widen<double>(a), bt = transpose_b(widen<double>(b), s);
    const double* pacc = acc.as<double>();
    double* pr = r.as<double>();
    chain<double>(
        av, bt, s, [](double x, double y, double r) { return std::fma(x, y, r); }, [&](int64_t o) { return pacc[o]; },
        [&](int64_t o, double v) { pr[o] = v; });
    return r;
  }
  if (out_t == ScalarType::F16 || out_t == ScalarType::BF16) {
    if (in == ScalarType::F64) refuse(op, "fp64 operands need an fp64 accumulator");
    // Each step is the exact a·b + r rounded once to the accumulator type; the running value
    // is kept as its exact double value.
    const FloatFormat f = float_format(out_t);
    const std::vector<double> av = widen<double>(a), bt = transpose_b(widen<double>(b), s);
    chain<double>(
        av, bt, s, [f](double x, double y, double r) { return fp_decode(f, fp_fma_narrow(f, x, y, r)); },
        [&](int64_t o) { return load_double(acc, o); },
        [&](int64_t o, double v) { store_bits(r, o, fp_encode(f, v)); });
    return r;
  }
  refuse(op, "unsupported accumulator type " + describe(acc));
}

}  // namespace tritium::interp
