// Corpus: Inductor-style generated kernels (inductor_*.py) on the CPU backend, against
// float64 references of the PyTorch ops they implement.
//
// Error model (u = 2^-24): one fp32 rounding is u relative; erf, exp, rsqrt, sigmoid and
// fp32 division are within 4 ulp = 2^-21 (tritium's bound, math_test.cpp); an n-term fp32
// sum is within n u of the sum of magnitudes; a cast to fp16 is 2^-11 relative.
#include <algorithm>

#include "corpus_util.h"

using namespace corpus;

namespace {

constexpr double u = 0x1p-24;

}  // namespace

// Bias add + exact GELU in place over [53, 768] (xnumel = 40704; XBLOCK 1024: ragged last
// program). x = in + bias rounds once; gelu(x) = 0.5 x (1 + erf(x / sqrt(2))): the product x
// * 0.70710678f (u, plus 0.70710678f's own u), erf (2^-21, times erf' <= 1.13 for the
// argument's 2u), 1 + erf (u), two products (2u): within 0.5 |x| (2^-21 + 4u) + 4 u |y|,
// and the input rounding moves y by at most |gelu'(x)| u |x| <= 1.13 u |x|.
TEST(CorpusInductor, PointwiseFusedAddGeluInPlace) {
  const int64_t rows = 53, C = 768, n = rows * C;
  auto x = uniform(n, -4.f, 4.f), bias = uniform(C, -1.f, 1.f);
  auto k = compile("inductor_poi_fused_add_gelu.py", "triton_poi_fused_add_gelu_0", "*fp32, *fp32, i32",
                   {{"XBLOCK", int64_t{1024}}});
  Output<float> io(x);
  auto bb = upload(bias);
  k.launch({cdiv(n, 1024)}, {io, bb, n});
  std::vector<double> want(n), tol(n);
  for (int64_t i = 0; i < n; ++i) {
    double v = double(x[i]) + bias[i % C];
    want[i] = 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
    tol[i] = 0.5 * std::fabs(v) * (0x1p-21 + 4 * u) + 4 * u * std::fabs(want[i]) + 1.13 * u * std::fabs(v);
  }
  expect_within(widen(io.get()), want, tol, "inductor add+gelu");
}

// The tiled permute copy [3, 64, 196] -> [3, 196, 64] with * 0.125 (exact) and fp16
// conversion: exactly the fp16 rounding of each scaled input (checked bit for bit), with
// tiles ragged in x (196 = 6 * 32 + 4) and y (192 = 12 * 16).
TEST(CorpusInductor, TiledPointwiseTransposeToFp16) {
  const int64_t B = 3, Cc = 64, S = 196;
  auto x = uniform(B * Cc * S, -100.f, 100.f);
  auto k = compile("inductor_poi_transpose_tiled.py", "triton_poi_fused__to_copy_clone_mul_0", "*fp32, *fp16, i32, i32",
                   {{"YBLOCK", int64_t{16}}, {"XBLOCK", int64_t{32}}});
  auto bx = upload(x);
  Output<uint16_t> o(B * S * Cc);
  k.launch({cdiv(S, 32), cdiv(B * Cc, 16)}, {bx, o, B * Cc, S});
  std::vector<uint16_t> want(B * S * Cc);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t c = 0; c < Cc; ++c)
      for (int64_t s = 0; s < S; ++s) want[(b * S + s) * Cc + c] = to_half(double(x[(b * Cc + c) * S + s]) * 0.125);
  expect_equal(o.get(), want, "inductor transpose to fp16 (bits)");
}

// torch.cat([sigmoid(a), b * 2], dim=-1) over 37 rows: the b half is exact (fp16 * 2 in
// fp32); the sigmoid half within 2^-21 (upstream's tl.sigmoid tolerance here too).
TEST(CorpusInductor, PointwiseCatWithWhereIndexArithmetic) {
  const int64_t R = 37;
  Half a = uniform_half(R * 64, -6.f, 6.f), b = uniform_half(R * 32, -8.f, 8.f);
  auto k = compile("inductor_poi_fused_cat_sigmoid.py", "triton_poi_fused_cat_mul_sigmoid_0", "*fp16, *fp16, *fp32, i32",
                   {{"XBLOCK", int64_t{256}}});
  auto ba = upload(a.bits), bb = upload(b.bits);
  Output<float> o(R * 96);
  k.launch({cdiv(R * 96, 256)}, {ba, bb, o, R * 96});
  std::vector<double> want(R * 96), tol(R * 96);
  for (int64_t r = 0; r < R; ++r)
    for (int64_t j = 0; j < 96; ++j) {
      size_t i = r * 96 + j;
      if (j < 64) {
        want[i] = 1 / (1 + std::exp(-a.vals[r * 64 + j]));
        tol[i] = 0x1p-21 * want[i];
      } else {
        want[i] = 2 * b.vals[r * 32 + j - 64];
        tol[i] = 0;
      }
    }
  expect_within(widen(o.get()), want, tol, "inductor cat+sigmoid");
}

// mean and mean of squares over the middle dim of [5, 300, 16] fp16 (xnumel 80: XBLOCK 8,
// RBLOCK 64: a ragged last r block). Each lane sums ceil(300 / 64) = 5 terms, the lane
// tree adds 63 more: within (300 + 64) u of the magnitude sum; the square (exact: fp16 x
// fp16) and the division by 300 (2^-21 with tritium's division bound) add 2^-21 relative.
TEST(CorpusInductor, LoopedReductionOverAStridedMiddleDim) {
  const int64_t A = 5, R = 300;
  Half x = uniform_half(A * R * 16, -3.f, 3.f);
  auto k = compile("inductor_red_fused_mean_sumsq.py", "triton_red_fused_mean_pow_0", "*fp16, *fp32, *fp32, i32, i32",
                   {{"XBLOCK", int64_t{8}}, {"RBLOCK", int64_t{64}}});
  auto bx = upload(x.bits);
  Output<float> mean(A * 16), msq(A * 16);
  k.launch({cdiv(A * 16, 8)}, {bx, mean, msq, A * 16, R});
  std::vector<double> wm(A * 16), ws(A * 16), tm(A * 16), ts(A * 16);
  for (int64_t a = 0; a < A; ++a)
    for (int64_t c = 0; c < 16; ++c) {
      double s = 0, sa = 0, q = 0;
      for (int64_t r = 0; r < R; ++r) {
        double v = x.vals[(a * R + r) * 16 + c];
        s += v, sa += std::fabs(v), q += v * v;
      }
      wm[a * 16 + c] = s / R, ws[a * 16 + c] = q / R;
      tm[a * 16 + c] = ((R + 64) * u * sa + 0x1p-21 * std::fabs(s)) / R;
      ts[a * 16 + c] = ((R + 64) * u + 0x1p-21) * q / R;
    }
  expect_within(widen(mean.get()), wm, tm, "inductor mean");
  expect_within(widen(msq.get()), ws, ts, "inductor mean of squares");
}

// Persistent softmax over rows of 100 (RBLOCK 128 declared in the kernel) for 50 rows
// (XBLOCK 4: ragged last program). exp(x - max): the subtraction rounds (u |x - max| <=
// 16 u), exp 2^-21; the sum of 100 such terms adds 100 u; the division 2^-21.
TEST(CorpusInductor, PersistentSoftmaxWithInlineMax2) {
  const int64_t rows = 50, C = 100;
  auto x = uniform(rows * C, -8.f, 8.f);
  auto k = compile("inductor_per_fused_softmax.py", "triton_per_fused__softmax_0", "*fp32, *fp32, i32, i32",
                   {{"XBLOCK", int64_t{4}}});
  auto bx = upload(x);
  Output<float> o(rows * C);
  k.launch({cdiv(rows, 4)}, {bx, o, rows, C});
  std::vector<double> want(rows * C), tol(rows * C);
  for (int64_t r = 0; r < rows; ++r) {
    double mx = -INFINITY, s = 0;
    for (int64_t j = 0; j < C; ++j) mx = std::max(mx, double(x[r * C + j]));
    for (int64_t j = 0; j < C; ++j) s += std::exp(x[r * C + j] - mx);
    for (int64_t j = 0; j < C; ++j) {
      want[r * C + j] = std::exp(x[r * C + j] - mx) / s;
      tol[r * C + j] = want[r * C + j] * (2 * (16 * u + 0x1p-21) + 100 * u + 0x1p-21);
    }
  }
  expect_within(widen(o.get()), want, tol, "inductor softmax");
}

// LayerNorm through Welford over rows of 1000 (RBLOCK 128: 8 r blocks, the last ragged),
// XBLOCK 2 over 7 rows. Welford in fp32 over n values: mean within ~2 n u of max |x|, the
// m2 within ~4 n u of itself plus its mean error squared (negligible); rsqrt 2^-21 plus half
// the variance's error; y = (x - mean) rstd w + b: the products and the sum add 4 u.
TEST(CorpusInductor, WelfordLayerNormTwoLoops) {
  const int64_t rows = 7, C = 1000;
  auto x = uniform(rows * C, -2.f, 6.f), w = uniform(C, 0.5f, 1.5f), b = uniform(C, -1.f, 1.f);
  auto k = compile("inductor_red_welford_layernorm.py", "triton_red_fused_native_layer_norm_0",
                   "*fp32, *fp32, *fp32, *fp32, *fp32, *fp32, i32, i32", {{"XBLOCK", int64_t{2}}, {"RBLOCK", int64_t{128}}});
  auto bx = upload(x), bw = upload(w), bb = upload(b);
  Output<float> mean(rows), rstd(rows), y(rows * C);
  k.launch({cdiv(rows, 2)}, {bx, bw, bb, mean, rstd, y, rows, C});
  std::vector<double> wm(rows), tm(rows), wr(rows), tr(rows), wy(rows * C), ty(rows * C);
  for (int64_t r = 0; r < rows; ++r) {
    double s = 0, mx = 0;
    for (int64_t j = 0; j < C; ++j) s += x[r * C + j], mx = std::max(mx, std::fabs(double(x[r * C + j])));
    double m = s / C, var = 0;
    for (int64_t j = 0; j < C; ++j) var += (x[r * C + j] - m) * (x[r * C + j] - m);
    var /= C;
    double rs = 1 / std::sqrt(var + 1e-5);
    wm[r] = m, tm[r] = 2 * C * u * mx;
    wr[r] = rs, tr[r] = rs * (2 * C * u + 0x1p-21);
    for (int64_t j = 0; j < C; ++j) {
      double xc = x[r * C + j] - m;
      wy[r * C + j] = xc * rs * w[j] + b[j];
      ty[r * C + j] = (tm[r] + u * std::fabs(xc)) * rs * w[j] + std::fabs(xc * rs * w[j]) * (tr[r] / rs + 3 * u) +
                      u * std::fabs(wy[r * C + j]);
    }
  }
  expect_within(widen(mean.get()), wm, tm, "inductor welford mean");
  expect_within(widen(rstd.get()), wr, tr, "inductor welford rstd");
  expect_within(widen(y.get()), wy, ty, "inductor layernorm y");
}

// argmax over rows of 777 (RBLOCK 64) with planted ties (the first occurrence wins, also
// across lanes and r blocks) and a NaN row (the first NaN wins), exact int64 results.
TEST(CorpusInductor, LoopedArgmaxWithTiesAndNaN) {
  const int64_t rows = 9, C = 777;
  auto x = uniform(rows * C, -10.f, 10.f);
  // row 1: the maximum 50 at 700, 5 and 300 (5 first; different lanes and r blocks);
  // row 2: the maximum at the very last column; row 4: NaN at 400 and 600.
  x[1 * C + 700] = x[1 * C + 5] = x[1 * C + 300] = 50.f;
  x[2 * C + C - 1] = 99.f;
  x[4 * C + 600] = x[4 * C + 400] = NAN;
  auto k = compile("inductor_red_argmax.py", "triton_red_fused_argmax_0", "*fp32, *i64, i32, i32",
                   {{"XBLOCK", int64_t{4}}, {"RBLOCK", int64_t{64}}});
  auto bx = upload(x);
  Output<int64_t> o(rows);
  k.launch({cdiv(rows, 4)}, {bx, o, rows, C});
  std::vector<int64_t> want(rows);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t best = 0;
    for (int64_t j = 1; j < C; ++j) {
      float a = x[r * C + best], v = x[r * C + j];
      if (std::isnan(a)) break;
      if (std::isnan(v) || v > a) best = j;
    }
    want[r] = best;
  }
  EXPECT_EQ(want[1], 5);
  EXPECT_EQ(want[4], 400);
  expect_equal(o.get(), want, "inductor argmax");
}
