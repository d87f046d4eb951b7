// Corpus: Liger-style activation, loss and embedding kernels (liger_swiglu.py,
// liger_geglu.py, liger_cross_entropy.py, liger_rope.py) on the CPU backend, against
// float64 references.
//
// Error model (u = 2^-24): one fp32 rounding is u relative; tl.sigmoid, tl.exp, tl.log,
// libdevice tanh / erf and fp32 division are within 4 ulp = 2^-21 relative (tritium's
// bound, tests/conformance/math_test.cpp); a cast to fp16 is 2^-11 relative (2^-25
// absolute in the subnormal range); fp16 * fp16 rounds once (exact in fp32 first).
#include <algorithm>

#include "corpus_util.h"

using namespace corpus;

namespace {

constexpr double u = 0x1p-24;

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

}  // namespace

// SwiGLU forward in fp16 and bf16 with a row stride wider than the row: silu(a) is fp32
// (sigmoid 4 ulp, one product), cast to the input dtype, times b in that dtype: two
// roundings of half an ulp (2^-11 fp16, 2^-8 bf16; fp16 also 2^-25 absolute when subnormal).
TEST(CorpusLiger, SwiGluForwardFp16AndBf16) {
  const int64_t rows = 19, cols = 700, ld = 704;
  for (bool bf16 : {false, true}) {
    const double half_ulp = bf16 ? 0x1p-8 : 0x1p-11, sub = bf16 ? 0.0 : 0x1p-25;
    Half a = bf16 ? uniform_bf16(rows * ld, -4.f, 4.f) : uniform_half(rows * ld, -4.f, 4.f);
    Half b = bf16 ? uniform_bf16(rows * ld, -2.f, 2.f) : uniform_half(rows * ld, -2.f, 2.f);
    std::string t = bf16 ? "*bf16" : "*fp16";
    auto k = compile("liger_swiglu.py", "_swiglu_forward_kernel", t + ", " + t + ", " + t + ", i32",
                     {{"n_cols", cols}, {"BLOCK_SIZE", int64_t{1024}}});
    auto ba = upload(a.bits), bb = upload(b.bits);
    Output<uint16_t> c(rows * ld);
    k.launch({rows}, {ba, bb, c, ld});
    auto cv = c.get();
    std::vector<uint16_t> got;
    std::vector<double> want, tol;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < ld; ++j) {
        size_t i = r * ld + j;
        if (j >= cols) {
          EXPECT_EQ(cv[i], poison<uint16_t>()) << "row padding written, row " << r;
          continue;
        }
        double silu = a.vals[i] * sigmoid(a.vals[i]), v = silu * b.vals[i];
        got.push_back(cv[i]);
        want.push_back(v);
        tol.push_back((2 * half_ulp + 0x1p-21 + 2 * u) * std::fabs(v) * 1.01 + sub * (std::fabs(b.vals[i]) + 1));
      }
    expect_within(bf16 ? widen_bf16(got) : widen_half(got), want, tol, bf16 ? "swiglu forward bf16" : "swiglu forward");
  }
}

// SwiGLU backward, in place over a and b (fp16): da = dc b (s + silu (1 - s)), db = dc silu,
// each an fp32 chain (da's dc b first an fp16 product) (sigmoid 4 ulp, a handful of roundings; 1 - s loses up to u absolute
// where s is near 1, which the |dc b silu| u term covers) rounded once to fp16.
TEST(CorpusLiger, SwiGluBackwardInPlaceFp16) {
  const int64_t rows = 7, cols = 333;
  Half a = uniform_half(rows * cols, -5.f, 5.f), b = uniform_half(rows * cols), dc = uniform_half(rows * cols);
  auto k = compile("liger_swiglu.py", "_swiglu_backward_kernel", "*fp16, *fp16, *fp16, i32",
                   {{"n_cols", cols}, {"BLOCK_SIZE", int64_t{512}}});
  auto bdc = upload(dc.bits);
  Output<uint16_t> ba(a.bits), bb(b.bits);
  k.launch({rows}, {bdc, ba, bb, cols});
  std::vector<double> want_a(rows * cols), want_b(rows * cols), tol_a(rows * cols), tol_b(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) {
    double s = sigmoid(a.vals[i]), silu = a.vals[i] * s;
    want_b[i] = dc.vals[i] * silu;
    want_a[i] = dc.vals[i] * b.vals[i] * (s + silu * (1 - s));
    tol_b[i] = (0x1p-11 + 0x1p-21 + 3 * u) * std::fabs(want_b[i]) * 1.01 + 0x1p-25;
    // dc * b is an fp16 product (rounded to fp16: 2^-11, 2^-25 absolute when subnormal)
    // before the fp32 factor (<= 1.1 in magnitude).
    tol_a[i] = (2 * 0x1p-11 + 0x1p-21 + 8 * u) * std::fabs(want_a[i]) * 1.01 +
               2 * u * std::fabs(dc.vals[i] * b.vals[i] * silu) + 0x1p-25 * 2.2;
  }
  expect_within(widen_half(ba.get()), want_a, tol_a, "swiglu backward da (in a)");
  expect_within(widen_half(bb.get()), want_b, tol_b, "swiglu backward db (in b)");
}

// GEGLU forward (tanh approximation and exact erf) and backward, fp32. t = tanh(inner):
// inner carries about 4 u |inner| (<= 14 u for |a| <= 3), tanh 2^-21 = 8 u, so 1 + t is
// within 24 u absolute and gelu within 0.5 |a| 24 u + 4 u |gelu|; the products with b and
// dc add u each. erf: 8 u + its argument's u scaled by erf' <= 1.13, + u for 1 + erf. The
// backward's 1 - t^2 doubles t's error and is scaled by 0.5 |a| sqrt(2/pi) (1 + 0.134 a^2).
TEST(CorpusLiger, GeGluForwardTanhAndErfAndBackward) {
  const int64_t rows = 13, cols = 500;
  auto a = uniform(rows * cols, -3.f, 3.f), b = uniform(rows * cols), dc = uniform(rows * cols);
  auto ba = upload(a), bb = upload(b), bdc = upload(dc);
  for (bool approx : {true, false}) {
    auto k = compile("liger_geglu.py", "_geglu_forward_kernel", "*fp32, *fp32, *fp32, i32",
                     {{"n_cols", cols}, {"BLOCK_SIZE", int64_t{512}}, {"APPROXIMATE", approx}});
    Output<float> c(rows * cols);
    k.launch({rows}, {ba, bb, c, cols});
    std::vector<double> want(rows * cols), tol(rows * cols);
    for (int64_t i = 0; i < rows * cols; ++i) {
      double x = a[i];
      double g = approx ? 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)))
                        : 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
      want[i] = g * b[i];
      tol[i] = 0.5 * std::fabs(x) * std::fabs(b[i]) * (approx ? 24 : 12) * u * 1.01 + 6 * u * std::fabs(want[i]);
    }
    expect_within(widen(c.get()), want, tol, approx ? "geglu forward (tanh)" : "geglu forward (erf)");
  }
  auto k = compile("liger_geglu.py", "_geglu_backward_kernel", "*fp32, *fp32, *fp32, *fp32, *fp32, i32",
                   {{"n_cols", cols}, {"BLOCK_SIZE", int64_t{512}}});
  Output<float> da(rows * cols), db(rows * cols);
  k.launch({rows}, {bdc, ba, bb, da, db, cols});
  std::vector<double> want_a(rows * cols), want_b(rows * cols), tol_a(rows * cols), tol_b(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) {
    double x = a[i], c0 = std::sqrt(2 / M_PI), t = std::tanh(c0 * (x + 0.044715 * x * x * x));
    double g = 0.5 * x * (1 + t), dg = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * c0 * (1 + 3 * 0.044715 * x * x);
    want_b[i] = dc[i] * g;
    want_a[i] = dc[i] * b[i] * dg;
    tol_b[i] = 0.5 * std::fabs(x * dc[i]) * 24 * u * 1.01 + 6 * u * std::fabs(want_b[i]);
    double sens = 0.5 + 0.5 * std::fabs(x) * 2 * c0 * (1 + 0.134 * x * x);  // d(dg)/dt bound
    tol_a[i] = std::fabs(dc[i] * b[i]) * sens * 24 * u * 1.01 + 12 * u * std::fabs(want_a[i]);
  }
  expect_within(widen(da.get()), want_a, tol_a, "geglu backward da");
  expect_within(widen(db.get()), want_b, tol_b, "geglu backward db");
}

namespace {

struct CeCase {
  double label_smoothing;
  std::string reduction;
  bool z_loss;
};

void run_cross_entropy(const CeCase& cc) {
  const int64_t rows = 12, V = 5000, block = 1024, ignore = -100;
  const double z = 1e-3;
  auto x = uniform(rows * V, -12.f, 12.f);
  auto targets = uniform_int(rows, 0, V - 1);
  targets[3] = ignore, targets[8] = ignore;  // two ignored rows
  int64_t n_non_ignore = rows - 2;
  auto k = compile("liger_cross_entropy.py", "cross_entropy_fwd_bwd_kernel",
                   "*fp32, i32, *i64, i32, *fp32, *fp32, i32, i32, i32, fp32",
                   {{"label_smoothing", cc.label_smoothing}, {"reduction", cc.reduction},
                    {"HAS_Z_LOSS", cc.z_loss}, {"BLOCK_SIZE", block}});
  Output<float> bx(x);  // logits in, gradient out
  auto by = upload(targets);
  Output<float> loss(rows), lse(rows);
  k.launch({rows}, {bx, V, by, 1, loss, lse, V, n_non_ignore, ignore, float(z)});
  const double ls = cc.label_smoothing, zs = cc.z_loss ? double(float(z)) : 0.0;
  const double div = cc.reduction == "mean" ? double(n_non_ignore) : 1.0;
  std::vector<double> want_g(rows * V), tol_g(rows * V), want_l(rows), tol_l(rows), want_s(rows), tol_s(rows);
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = &x[r * V];
    if (targets[r] == ignore) {  // zero row, zero loss and lse, exactly
      for (int64_t j = 0; j < V; ++j) want_g[r * V + j] = 0, tol_g[r * V + j] = 0;
      want_l[r] = tol_l[r] = want_s[r] = tol_s[r] = 0;
      continue;
    }
    double mx = -INFINITY, d = 0, sum_x = 0, sum_abs = 0;
    for (int64_t j = 0; j < V; ++j) mx = std::max(mx, double(xr[j]));
    for (int64_t j = 0; j < V; ++j) d += std::exp(xr[j] - mx), sum_x += xr[j], sum_abs += std::fabs(xr[j]);
    double s = mx + std::log(d);
    // The normaliser: exp 2^-21 per term, V additions, 2 per block for the rescaling;
    // x - m rounds (u |x - m|, |x - m| <= 24) before the exp.
    double d_rel = 0x1p-21 + (V + 2 * (V / block + 1)) * u + 24 * u;
    want_s[r] = s;
    tol_s[r] = d_rel + (0x1p-21 + u) * std::fabs(s);
    double eps = ls / V, xy = xr[targets[r]];
    double l = (1 - ls) * (s - xy) + ls * (s - sum_x / V) + zs * s * s;
    want_l[r] = l / div;
    tol_l[r] = (tol_s[r] * (1 + 2 * zs * std::fabs(s)) + V * u * eps * sum_abs + 8 * u * (std::fabs(l) + std::fabs(s))) / div;
    for (int64_t j = 0; j < V; ++j) {
      double p = std::exp(xr[j] - s);
      double g = p - eps + 2 * zs * s * p - (j == targets[r] ? 1 - ls : 0.0);
      want_g[r * V + j] = g / div;
      // p: exp and division 2 x 2^-21, the normaliser d_rel; then - eps, the z term, / n,
      // and the target's extra addition: a few u of |g| and of eps.
      tol_g[r * V + j] = (p * (2 * 0x1p-21 + d_rel) * (1 + 2 * zs * std::fabs(s)) + 6 * u * (std::fabs(g) + eps + p)) / div;
    }
  }
  std::string what = "cross-entropy (ls " + std::to_string(ls) + ", " + cc.reduction + (cc.z_loss ? ", z-loss)" : ")");
  expect_within(widen(bx.get()), want_g, tol_g, what + " gradient");
  expect_within(widen(loss.get()), want_l, tol_l, what + " loss");
  expect_within(widen(lse.get()), want_s, tol_s, what + " lse");
}

}  // namespace

// Online softmax over 5 blocks of a 5000-class row (ragged last block), two ignored rows
// (early return), label smoothing with z-loss and mean reduction, then plain sum reduction.
TEST(CorpusLiger, CrossEntropyLabelSmoothingZLossMean) { run_cross_entropy({0.1, "mean", true}); }
TEST(CorpusLiger, CrossEntropyPlainSum) { run_cross_entropy({0.0, "sum", false}); }

// RoPE on q (6 heads, padded to 8) and k (2 heads), head dim 80 (half 40, padded to 64),
// tables shared by the batch (cos_bs = 1) and then one per sequence (cos_bs = bs); then the
// backward pass applied to the forward's output gives back the input. Each output is
// x1 c - x2 s (two products and a subtraction: within 2 u (|x1 c| + |x2 s|)); the round
// trip adds the forward's error and c^2 + s^2 = 1 + O(u) (fp32 tables): 8 u (|x1| + |x2|).
TEST(CorpusLiger, RopeHalfSplitForwardAndBackward) {
  const int64_t bs = 2, sl = 37, nqh = 6, nkh = 2, hd = 80;
  for (int64_t cos_bs : {int64_t{1}, bs}) {
    auto q = uniform(bs * sl * nqh * hd, -2.f, 2.f), kk = uniform(bs * sl * nkh * hd, -2.f, 2.f);
    std::vector<float> cs(cos_bs * sl * hd), sn(cos_bs * sl * hd);
    for (int64_t b = 0; b < cos_bs; ++b)
      for (int64_t t = 0; t < sl; ++t)
        for (int64_t i = 0; i < hd; ++i) {
          double pos = t + 3 * b;  // the per-sequence tables differ (position offsets)
          double ang = pos * std::pow(10000.0, -2.0 * (i % (hd / 2)) / hd);
          cs[(b * sl + t) * hd + i] = float(std::cos(ang));
          sn[(b * sl + t) * hd + i] = float(std::sin(ang));
        }
    auto bc = upload(cs), bsn = upload(sn);
    Output<float> bq(q), bk(kk);
    const char* sig = "*fp32, i32, *fp32, i32, *fp32, i32, *fp32, i32, i32";
    std::map<std::string, tritium::ConstexprValue> cx = {{"bs", bs},   {"cos_bs", cos_bs}, {"n_qh", nqh},
                                                         {"n_kh", nkh}, {"hd", hd},         {"pad_n_qh", int64_t{8}},
                                                         {"pad_n_kh", int64_t{2}}, {"pad_hd", int64_t{128}}};
    auto fwd = compile("liger_rope.py", "_rope_qk_kernel", sig, cx);
    cx["BACKWARD_PASS"] = true;
    auto bwd = compile("liger_rope.py", "_rope_qk_kernel", sig, cx);
    fwd.launch({bs * sl}, {bq, nqh * hd, bk, nkh * hd, bc, hd, bsn, hd, sl});
    auto rotate = [&](const std::vector<float>& x, int64_t nh, std::vector<double>& want, std::vector<double>& tol) {
      want.assign(x.size(), 0), tol.assign(x.size(), 0);
      for (int64_t b = 0; b < bs; ++b)
        for (int64_t t = 0; t < sl; ++t)
          for (int64_t h = 0; h < nh; ++h)
            for (int64_t i = 0; i < hd / 2; ++i) {
              int64_t row = cos_bs == 1 ? t : b * sl + t;
              double c = cs[row * hd + i], s = sn[row * hd + i];
              size_t p1 = ((b * sl + t) * nh + h) * hd + i, p2 = p1 + hd / 2;
              want[p1] = x[p1] * c - x[p2] * s;
              want[p2] = x[p2] * c + x[p1] * s;
              tol[p1] = tol[p2] = 2 * u * (std::fabs(x[p1] * c) + std::fabs(x[p2] * s) + std::fabs(x[p2] * c) +
                                           std::fabs(x[p1] * s));
            }
    };
    std::vector<double> wq, tq, wk, tk;
    rotate(q, nqh, wq, tq);
    rotate(kk, nkh, wk, tk);
    std::string what = "rope (cos_bs " + std::to_string(cos_bs) + ")";
    expect_within(widen(bq.get()), wq, tq, what + " q");
    expect_within(widen(bk.get()), wk, tk, what + " k");
    bwd.launch({bs * sl}, {bq, nqh * hd, bk, nkh * hd, bc, hd, bsn, hd, sl});
    auto back = [&](const std::vector<float>& x) {
      std::vector<double> tol(x.size());
      for (size_t p = 0; p < x.size(); ++p) {
        size_t i = p % hd, p1 = i < size_t(hd / 2) ? p : p - hd / 2, p2 = p1 + hd / 2;
        tol[p] = 8 * u * (std::fabs(x[p1]) + std::fabs(x[p2]));
      }
      return tol;
    };
    expect_within(widen(bq.get()), widen(q), back(q), what + " q round trip");
    expect_within(widen(bk.get()), widen(kk), back(kk), what + " k round trip");
  }
}
