// The `math` op: float functions from <cmath> (float versions for fp32 and narrow types,
// double versions for fp64; fp32 exp, exp2, log and log2 are tritium's own, from
// src/common/tmath.inc), fma with a single rounding, and the integer functions abs /
// umulhi / clz / popc (semantics: interpreter.h).
#include <bit>
#include <cmath>
#include <cstdint>

#include "interp/interp_ops.h"

namespace tritium::interp {
namespace {

// tr_expf, tr_exp2f, tr_logf, tr_log2f: the same text the CPU prelude embeds, so the
// interpreter and generated kernels give the same bits for fp32 (and narrow) exp/log.
#include "common/tmath.inc"

using ir::MathFn;

// exp / exp2 / log / log2 on float compute types use tritium's own functions, the double
// versions libm's.
float exp_of(float x) { return tr_expf(x); }
double exp_of(double x) { return std::exp(x); }
float exp2_of(float x) { return tr_exp2f(x); }
double exp2_of(double x) { return std::exp2(x); }
float log_of(float x) { return tr_logf(x); }
double log_of(double x) { return std::log(x); }
float log2_of(float x) { return tr_log2f(x); }
double log2_of(double x) { return std::log2(x); }

float exp10_of(float x) {
#if defined(__GLIBC__)
  return ::exp10f(x);
#else
  return std::pow(10.0f, x);
#endif
}
double exp10_of(double x) {
#if defined(__GLIBC__)
  return ::exp10(x);
#else
  return std::pow(10.0, x);
#endif
}

// One-operand float function on compute type C (float or double).
template <class C> C unary_fn(MathFn f, C x) {
  switch (f) {
    case MathFn::Exp: return exp_of(x);
    case MathFn::Exp2: return exp2_of(x);
    case MathFn::Log: return log_of(x);
    case MathFn::Log2: return log2_of(x);
    case MathFn::Sqrt: case MathFn::SqrtRn: return std::sqrt(x);
    case MathFn::Rsqrt: return C(1) / std::sqrt(x);
    case MathFn::Sin: return std::sin(x);
    case MathFn::Cos: return std::cos(x);
    case MathFn::Erf: return std::erf(x);
    case MathFn::Floor: return std::floor(x);
    case MathFn::Ceil: return std::ceil(x);
    case MathFn::Abs: return std::fabs(x);
    case MathFn::Tanh: return std::tanh(x);
    case MathFn::Log1p: return std::log1p(x);
    case MathFn::Expm1: return std::expm1(x);
    case MathFn::Trunc: return std::trunc(x);
    case MathFn::Round: return std::round(x);
    case MathFn::Rint: return std::rint(x);
    case MathFn::Erfc: return std::erfc(x);
    case MathFn::Tan: return std::tan(x);
    case MathFn::Atan: return std::atan(x);
    case MathFn::Asin: return std::asin(x);
    case MathFn::Acos: return std::acos(x);
    case MathFn::Sinh: return std::sinh(x);
    case MathFn::Cosh: return std::cosh(x);
    case MathFn::Exp10: return exp10_of(x);
    case MathFn::Log10: return std::log10(x);
    case MathFn::Cbrt: return std::cbrt(x);
    default: return x;  // not reached (checked by the caller)
  }
}

bool is_unary_float_fn(MathFn f) {
  switch (f) {
    case MathFn::Exp: case MathFn::Exp2: case MathFn::Log: case MathFn::Log2: case MathFn::Sqrt:
    case MathFn::SqrtRn: case MathFn::Rsqrt: case MathFn::Sin: case MathFn::Cos: case MathFn::Erf:
    case MathFn::Floor: case MathFn::Ceil: case MathFn::Abs: case MathFn::Tanh: case MathFn::Log1p:
    case MathFn::Expm1: case MathFn::Trunc: case MathFn::Round: case MathFn::Rint: case MathFn::Erfc:
    case MathFn::Tan: case MathFn::Atan: case MathFn::Asin: case MathFn::Acos: case MathFn::Sinh:
    case MathFn::Cosh: case MathFn::Exp10: case MathFn::Log10: case MathFn::Cbrt:
      return true;
    default:
      return false;
  }
}

template <class C> C binary_fn(MathFn f, C x, C y) {
  switch (f) {
    case MathFn::Pow: return std::pow(x, y);
    case MathFn::Atan2: return std::atan2(x, y);
    case MathFn::Hypot: return std::hypot(x, y);
    case MathFn::Copysign: return std::copysign(x, y);
    case MathFn::Fmod: return std::fmod(x, y);
    default: return x;  // not reached
  }
}

int64_t stride_of(const Val& v) { return v.numel == 1 ? 0 : 1; }

template <class FT>
void float_math(const ir::Op& op, FT ft, const std::vector<const Val*>& args, Val& r) {
  using S = typename FT::Storage;
  using C = typename FT::Compute;
  const MathFn f = op.math_fn();
  const int64_t n = r.numel;
  const S* a = args[0]->template as<S>();
  const int64_t sa = stride_of(*args[0]);
  if (f == MathFn::Isnan || f == MathFn::Isinf || f == MathFn::Signbit) {
    if (r.scalar != ir::ScalarType::I1) refuse(op, "result must be int1");
    uint8_t* pr = r.as<uint8_t>();
    for (int64_t i = 0; i < n; ++i) {
      const C x = ft.decode(a[i * sa]);
      pr[i] = f == MathFn::Isnan ? std::isnan(x) : f == MathFn::Isinf ? std::isinf(x) : std::signbit(x);
    }
    return;
  }
  if (r.scalar != args[0]->scalar) refuse(op, "result type differs from the operand type");
  S* pr = r.as<S>();
  if (f == MathFn::Abs) {  // clears the sign bit only (NaN payload kept)
    const uint64_t mask = ~(1ull << (ir::bitwidth(r.scalar) - 1));
    for (int64_t i = 0; i < n; ++i) store_bits(r, i, load_bits(*args[0], i * sa) & mask);
    return;
  }
  if (is_unary_float_fn(f)) {
    for (int64_t i = 0; i < n; ++i) pr[i] = ft.encode(unary_fn<C>(f, ft.decode(a[i * sa])));
    return;
  }
  const S* b = args.size() > 1 ? args[1]->template as<S>() : nullptr;
  const int64_t sb = args.size() > 1 ? stride_of(*args[1]) : 0;
  switch (f) {
    case MathFn::Pow: case MathFn::Atan2: case MathFn::Hypot: case MathFn::Copysign: case MathFn::Fmod:
      for (int64_t i = 0; i < n; ++i) pr[i] = ft.encode(binary_fn<C>(f, ft.decode(a[i * sa]), ft.decode(b[i * sb])));
      return;
    case MathFn::Fma: {
      const S* c = args[2]->template as<S>();
      const int64_t sc = stride_of(*args[2]);
      if constexpr (std::is_same_v<S, C>) {
        for (int64_t i = 0; i < n; ++i) pr[i] = std::fma(a[i * sa], b[i * sb], c[i * sc]);  // fmaf / fma
      } else {
        for (int64_t i = 0; i < n; ++i)
          pr[i] = static_cast<S>(fp_fma_narrow(ft.fmt, ft.decode(a[i * sa]), ft.decode(b[i * sb]), ft.decode(c[i * sc])));
      }
      return;
    }
    default: refuse(op, std::string("math function '") + ir::math_fn_name(f) + "' is not defined on float types");
  }
}

template <class TR>
void int_math(const ir::Op& op, TR, const std::vector<const Val*>& args, Val& r) {
  using T = typename TR::Storage;
  const MathFn f = op.math_fn();
  const int64_t n = r.numel;
  const T* a = args[0]->template as<T>();
  const int64_t sa = stride_of(*args[0]);
  constexpr int w = TR::kWidth;
  switch (f) {
    case MathFn::Abs:
      if (r.scalar != args[0]->scalar) refuse(op, "result type differs from the operand type");
      for (int64_t i = 0; i < n; ++i) {
        const T x = a[i * sa];
        r.as<T>()[i] = (TR::kSigned && x < T(0)) ? TR::wrap(0 - TR::ubits(x)) : x;
      }
      return;
    case MathFn::Umulhi: {
      if (r.scalar != args[0]->scalar) refuse(op, "result type differs from the operand type");
      const T* b = args[1]->template as<T>();
      const int64_t sb = stride_of(*args[1]);
      for (int64_t i = 0; i < n; ++i) {
        const unsigned __int128 p =
            static_cast<unsigned __int128>(TR::ubits(a[i * sa])) * static_cast<unsigned __int128>(TR::ubits(b[i * sb]));
        r.as<T>()[i] = TR::wrap(static_cast<uint64_t>(p >> w));
      }
      return;
    }
    case MathFn::Clz:
      for (int64_t i = 0; i < n; ++i)
        store_int(r, i, static_cast<uint64_t>(std::countl_zero(TR::ubits(a[i * sa])) - (64 - w)));
      return;
    case MathFn::Popc:
      for (int64_t i = 0; i < n; ++i) store_int(r, i, static_cast<uint64_t>(std::popcount(TR::ubits(a[i * sa]))));
      return;
    default: refuse(op, std::string("math function '") + ir::math_fn_name(f) + "' is not defined on integer types");
  }
}

}  // namespace

Val eval_math(const ir::Op& op, const std::vector<const Val*>& args) {
  const MathFn f = op.math_fn();
  if (static_cast<int>(args.size()) != ir::math_fn_arity(f)) refuse(op, "wrong operand count");
  int64_t n = 1;
  const Val* widest = args[0];
  for (const Val* v : args) {
    if (v->scalar != args[0]->scalar || v->is_ptr) refuse(op, "operand types differ or are pointers");
    if (v->numel > n) { n = v->numel; widest = v; }
  }
  for (const Val* v : args)
    if (v->numel != n && v->numel != 1) refuse(op, "operand shapes differ");
  const ir::Type& rt = op.results.at(0)->type;
  Val r = Val::make(rt.scalar, rt.is_ptr, widest->shape);
  if (visit_float(args[0]->scalar, [&](auto ft) { float_math(op, ft, args, r); })) return r;
  if (visit_int(args[0]->scalar, [&](auto tr) { int_math(op, tr, args, r); })) return r;
  refuse(op, "unsupported operand type");
}

}  // namespace tritium::interp
