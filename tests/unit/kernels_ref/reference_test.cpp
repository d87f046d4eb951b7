// Tests of the float64 kernel references (kernels/ref/reference.h) against
// hand-computed small cases and mathematical invariants. The references are the
// yardstick for every kernel test, so they are checked on their own here.
#include "ref/reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace {

using namespace tritium::ref;
using Vec = std::vector<double>;

constexpr double kTight = 1e-12;

Vec random_vec(size_t n, uint64_t seed, double lo = -2.0, double hi = 2.0) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  Vec v(n);
  for (double& x : v) x = dist(gen);
  return v;
}

// ---------------------------------------------------------------- vector add

TEST(RefVectorAdd, HandValues) {
  const Vec x = {1.0, -2.5, 0.0, 1e308};
  const Vec y = {2.0, 2.5, -0.0, 1e308};
  Vec out(4, -7.0);
  ref_vector_add(x.data(), y.data(), out.data(), 4);
  EXPECT_EQ(out[0], 3.0);
  EXPECT_EQ(out[1], 0.0);
  EXPECT_EQ(out[2], 0.0);
  EXPECT_TRUE(std::isinf(out[3]));  // overflows: no hidden wider accumulator
}

TEST(RefVectorAdd, InPlaceAndZeroLength) {
  Vec x = {1.0, 2.0, 3.0};
  const Vec y = {10.0, 20.0, 30.0};
  ref_vector_add(x.data(), y.data(), x.data(), 3);
  EXPECT_EQ(x, (Vec{11.0, 22.0, 33.0}));
  ref_vector_add(x.data(), y.data(), x.data(), 0);  // touches nothing
  EXPECT_EQ(x, (Vec{11.0, 22.0, 33.0}));
}

// ---------------------------------------------------------------- swiglu

TEST(RefSwiglu, HandValues) {
  const Vec gate = {0.0, 1.0, -1.0, 40.0, -40.0};
  const Vec up = {5.0, 2.0, 3.0, 0.5, 1.0};
  Vec out(5);
  ref_swiglu(gate.data(), up.data(), out.data(), 5);
  EXPECT_EQ(out[0], 0.0);                                   // silu(0) = 0
  EXPECT_NEAR(out[1], 2.0 * 0.7310585786300049, kTight);    // sigmoid(1) = 0.73105857863
  EXPECT_NEAR(out[2], 3.0 * -0.2689414213699951, kTight);   // -1 * sigmoid(-1)
  EXPECT_NEAR(out[3], 20.0, 1e-12);                         // silu(g) -> g for large g
  EXPECT_NEAR(out[4], 0.0, 1e-15);                          // silu(g) -> 0 for very negative g
}

TEST(RefSwiglu, SiluIdentity) {
  // silu(g) - silu(-g) = g for every g, so out(g, u) - out(-g, u) = g * u.
  const Vec g = random_vec(64, 1, -6, 6);
  const Vec u = random_vec(64, 2);
  Vec neg_g(g.size()), a(g.size()), b(g.size());
  for (size_t i = 0; i < g.size(); ++i) neg_g[i] = -g[i];
  ref_swiglu(g.data(), u.data(), a.data(), 64);
  ref_swiglu(neg_g.data(), u.data(), b.data(), 64);
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(a[i] - b[i], g[i] * u[i], 1e-12) << i;
}

// ---------------------------------------------------------------- softmax

TEST(RefSoftmax, HandValues) {
  // exp of {0, ln 2, ln 3} is {1, 2, 3}: softmax = {1/6, 2/6, 3/6}.
  const Vec x = {0.0, std::log(2.0), std::log(3.0)};
  Vec y(3);
  ref_softmax(x.data(), y.data(), 1, 3);
  EXPECT_NEAR(y[0], 1.0 / 6.0, kTight);
  EXPECT_NEAR(y[1], 2.0 / 6.0, kTight);
  EXPECT_NEAR(y[2], 3.0 / 6.0, kTight);
}

TEST(RefSoftmax, RowsSumToOneAndAreIndependent) {
  const int64_t rows = 5, cols = 37;
  const Vec x = random_vec(rows * cols, 3, -10, 10);
  Vec y(x.size());
  ref_softmax(x.data(), y.data(), rows, cols);
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0.0;
    for (int64_t c = 0; c < cols; ++c) {
      EXPECT_GT(y[r * cols + c], 0.0);
      sum += y[r * cols + c];
    }
    EXPECT_NEAR(sum, 1.0, 1e-13) << "row " << r;
    // Each row alone gives the same result as within the batch.
    Vec one(cols);
    ref_softmax(x.data() + r * cols, one.data(), 1, cols);
    for (int64_t c = 0; c < cols; ++c) EXPECT_EQ(one[c], y[r * cols + c]);
  }
}

TEST(RefSoftmax, ShiftInvariantAndStableForLargeInputs) {
  const Vec x = {1.0, 2.0, 3.0, 4.0};
  Vec shifted(4);
  for (int i = 0; i < 4; ++i) shifted[i] = x[i] + 1000.0;  // exp(1004) overflows naively
  Vec a(4), b(4);
  ref_softmax(x.data(), a.data(), 1, 4);
  ref_softmax(shifted.data(), b.data(), 1, 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(std::isfinite(b[i]));
    EXPECT_NEAR(a[i], b[i], kTight);
  }
  EXPECT_LT(a[0], a[1]);  // monotone in the input
  EXPECT_LT(a[2], a[3]);
}

TEST(RefSoftmax, UniformRowAndSingleColumn) {
  const Vec x(8, 0.25);
  Vec y(8);
  ref_softmax(x.data(), y.data(), 1, 8);
  for (double v : y) EXPECT_NEAR(v, 0.125, kTight);
  const Vec s = {-3.0, 42.0};
  Vec t(2);
  ref_softmax(s.data(), t.data(), 2, 1);  // two rows of one column: each is 1
  EXPECT_EQ(t[0], 1.0);
  EXPECT_EQ(t[1], 1.0);
}

// ---------------------------------------------------------------- rmsnorm

TEST(RefRmsnorm, HandValues) {
  // Row {3, 4}: mean of squares 12.5; w = {1, 2}.
  const Vec x = {3.0, 4.0};
  const Vec w = {1.0, 2.0};
  Vec y(2);
  ref_rmsnorm(x.data(), w.data(), y.data(), 1, 2, 0.0);
  EXPECT_NEAR(y[0], 3.0 / std::sqrt(12.5), kTight);
  EXPECT_NEAR(y[1], 8.0 / std::sqrt(12.5), kTight);
  // eps enters under the square root: 12.5 + 3.5 = 16.
  ref_rmsnorm(x.data(), w.data(), y.data(), 1, 2, 3.5);
  EXPECT_NEAR(y[0], 0.75, kTight);
  EXPECT_NEAR(y[1], 2.0, kTight);
}

TEST(RefRmsnorm, UnitWeightGivesUnitRms) {
  const int64_t rows = 4, cols = 100;
  const Vec x = random_vec(rows * cols, 4, -3, 5);
  const Vec w(cols, 1.0);
  Vec y(x.size());
  ref_rmsnorm(x.data(), w.data(), y.data(), rows, cols, 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    double ss = 0.0;
    for (int64_t c = 0; c < cols; ++c) ss += y[r * cols + c] * y[r * cols + c];
    EXPECT_NEAR(ss / cols, 1.0, 1e-12) << "row " << r;
  }
}

TEST(RefRmsnorm, ScaleInvariant) {
  // With eps = 0, rmsnorm(a * x) == rmsnorm(x) for a > 0.
  const int64_t cols = 33;
  const Vec x = random_vec(cols, 5);
  const Vec w = random_vec(cols, 6);
  Vec x7(cols), a(cols), b(cols);
  for (int64_t c = 0; c < cols; ++c) x7[c] = 7.0 * x[c];
  ref_rmsnorm(x.data(), w.data(), a.data(), 1, cols, 0.0);
  ref_rmsnorm(x7.data(), w.data(), b.data(), 1, cols, 0.0);
  for (int64_t c = 0; c < cols; ++c) EXPECT_NEAR(a[c], b[c], 1e-12);
}

// ---------------------------------------------------------------- layernorm

TEST(RefLayernorm, HandValues) {
  // Row {1, 2, 3, 4}: mean 2.5, biased variance 1.25.
  const Vec x = {1.0, 2.0, 3.0, 4.0};
  const Vec w = {1.0, 1.0, 2.0, -1.0};
  const Vec b = {0.0, 10.0, 0.0, 1.0};
  Vec y(4), mean(1), rstd(1);
  ref_layernorm(x.data(), w.data(), b.data(), y.data(), mean.data(), rstd.data(), 1, 4, 0.0);
  const double rs = 1.0 / std::sqrt(1.25);
  EXPECT_NEAR(mean[0], 2.5, kTight);
  EXPECT_NEAR(rstd[0], rs, kTight);
  EXPECT_NEAR(y[0], -1.5 * rs, kTight);
  EXPECT_NEAR(y[1], -0.5 * rs + 10.0, kTight);
  EXPECT_NEAR(y[2], 2.0 * 0.5 * rs, kTight);
  EXPECT_NEAR(y[3], -1.5 * rs + 1.0, kTight);
}

TEST(RefLayernorm, UnitAffineGivesZeroMeanUnitVariance) {
  const int64_t rows = 3, cols = 250;
  Vec x = random_vec(rows * cols, 7, 100.0, 101.0);  // large offset: tests two-pass variance
  const Vec w(cols, 1.0), b(cols, 0.0);
  Vec y(x.size()), mean(rows), rstd(rows);
  ref_layernorm(x.data(), w.data(), b.data(), y.data(), mean.data(), rstd.data(), rows, cols,
                0.0);
  for (int64_t r = 0; r < rows; ++r) {
    double m = 0.0, v = 0.0;
    for (int64_t c = 0; c < cols; ++c) m += y[r * cols + c];
    m /= cols;
    for (int64_t c = 0; c < cols; ++c) v += (y[r * cols + c] - m) * (y[r * cols + c] - m);
    v /= cols;
    EXPECT_NEAR(m, 0.0, 1e-12) << "row " << r;
    EXPECT_NEAR(v, 1.0, 1e-12) << "row " << r;
    EXPECT_GT(mean[r], 100.0);
    EXPECT_LT(mean[r], 101.0);
  }
}

TEST(RefLayernorm, ConstantRowGivesBiasAndEpsRstd) {
  const Vec x(6, 3.25);
  const Vec w = random_vec(6, 8);
  const Vec b = random_vec(6, 9);
  Vec y(6), rstd(1);
  ref_layernorm(x.data(), w.data(), b.data(), y.data(), nullptr, rstd.data(), 1, 6, 1e-4);
  EXPECT_NEAR(rstd[0], 100.0, 1e-9);  // 1 / sqrt(0 + 1e-4)
  for (int i = 0; i < 6; ++i) EXPECT_EQ(y[i], b[i]);
}

// ---------------------------------------------------------------- matmul

TEST(RefMatmul, TwoByTwoByHand) {
  const Vec a = {1, 2, 3, 4};
  const Vec b = {5, 6, 7, 8};
  Vec c(4);
  ref_matmul(a.data(), b.data(), c.data(), 2, 2, 2);
  EXPECT_EQ(c, (Vec{19, 22, 43, 50}));
}

TEST(RefMatmul, RectangularRowMajor) {
  // [2x3] @ [3x1]: distinguishes row-major from column-major reading.
  const Vec a = {1, 2, 3, 4, 5, 6};
  const Vec b = {1, 0, -1};
  Vec c(2);
  ref_matmul(a.data(), b.data(), c.data(), 2, 1, 3);
  EXPECT_EQ(c, (Vec{-2, -2}));
  // [1x2] @ [2x3].
  const Vec a2 = {2, -1};
  const Vec b2 = {1, 2, 3, 4, 5, 6};
  Vec c2(3);
  ref_matmul(a2.data(), b2.data(), c2.data(), 1, 3, 2);
  EXPECT_EQ(c2, (Vec{-2, -1, 0}));
}

TEST(RefMatmul, IdentityAndEmptyK) {
  const int64_t n = 5;
  const Vec a = random_vec(n * n, 10);
  Vec eye(n * n, 0.0), c(n * n);
  for (int64_t i = 0; i < n; ++i) eye[i * n + i] = 1.0;
  ref_matmul(a.data(), eye.data(), c.data(), n, n, n);
  EXPECT_EQ(c, a);
  ref_matmul(eye.data(), a.data(), c.data(), n, n, n);
  EXPECT_EQ(c, a);
  Vec z(6, 9.0);
  ref_matmul(a.data(), a.data(), z.data(), 2, 3, 0);  // empty sum
  EXPECT_EQ(z, Vec(6, 0.0));
}

// ---------------------------------------------------------------- attention

TEST(RefAttention, OneKeyReturnsValue) {
  const int64_t D = 4;
  const Vec q = {0.3, -1.0, 2.0, 0.5};
  const Vec k = {1.0, 2.0, -0.5, 0.1};
  const Vec v = {7.0, -3.0, 0.25, 1.0};
  Vec o(D), lse(1);
  for (bool causal : {false, true}) {
    ref_attention(q.data(), k.data(), v.data(), o.data(), lse.data(), 1, 1, 1, D, 0.5, causal);
    for (int64_t d = 0; d < D; ++d) EXPECT_NEAR(o[d], v[d], kTight);
    double s = 0.0;
    for (int64_t d = 0; d < D; ++d) s += q[d] * k[d];
    EXPECT_NEAR(lse[0], 0.5 * s, kTight);  // log(exp(s)) = s
  }
}

TEST(RefAttention, ZeroQueryAveragesValuesAndLseIsLogCount) {
  const int64_t N = 6, D = 3;
  const Vec q(N * D, 0.0);
  const Vec k = random_vec(N * D, 11);
  const Vec v = random_vec(N * D, 12);
  Vec o(N * D), lse(N);
  ref_attention(q.data(), k.data(), v.data(), o.data(), lse.data(), 1, 1, N, D, 1.0, false);
  for (int64_t i = 0; i < N; ++i) {
    EXPECT_NEAR(lse[i], std::log(static_cast<double>(N)), kTight);
    for (int64_t d = 0; d < D; ++d) {
      double mean = 0.0;
      for (int64_t j = 0; j < N; ++j) mean += v[j * D + d];
      EXPECT_NEAR(o[i * D + d], mean / N, kTight);
    }
  }
  // Causal: row i averages v[0..i]; row 0 is exactly v[0].
  ref_attention(q.data(), k.data(), v.data(), o.data(), lse.data(), 1, 1, N, D, 1.0, true);
  for (int64_t i = 0; i < N; ++i) {
    EXPECT_NEAR(lse[i], std::log(static_cast<double>(i + 1)), kTight);
    for (int64_t d = 0; d < D; ++d) {
      double mean = 0.0;
      for (int64_t j = 0; j <= i; ++j) mean += v[j * D + d];
      EXPECT_NEAR(o[i * D + d], mean / (i + 1), kTight);
    }
  }
}

TEST(RefAttention, CausalFirstRowIsFirstValue) {
  const int64_t N = 9, D = 8;
  const Vec q = random_vec(N * D, 13, -3, 3);
  const Vec k = random_vec(N * D, 14, -3, 3);
  const Vec v = random_vec(N * D, 15);
  Vec o(N * D);
  ref_attention(q.data(), k.data(), v.data(), o.data(), nullptr, 1, 1, N, D, 0.35, true);
  for (int64_t d = 0; d < D; ++d) EXPECT_NEAR(o[d], v[d], kTight);
}

// Attention computed a second way from the other references:
// P = softmax(scale * Q K^T) with masked scores at -inf-like values, O = P V.
TEST(RefAttention, MatchesSoftmaxOfScoresTimesValues) {
  const int64_t Z = 2, H = 3, N = 7, D = 5;
  const double scale = 1.0 / std::sqrt(static_cast<double>(D));
  const Vec q = random_vec(Z * H * N * D, 16, -2, 2);
  const Vec k = random_vec(Z * H * N * D, 17, -2, 2);
  const Vec v = random_vec(Z * H * N * D, 18);
  for (bool causal : {false, true}) {
    Vec o(q.size()), lse(Z * H * N);
    ref_attention(q.data(), k.data(), v.data(), o.data(), lse.data(), Z, H, N, D, scale, causal);
    for (int64_t zh = 0; zh < Z * H; ++zh) {
      const int64_t base = zh * N * D;
      Vec kt(D * N);  // K^T: [D, N]
      for (int64_t j = 0; j < N; ++j)
        for (int64_t d = 0; d < D; ++d) kt[d * N + j] = k[base + j * D + d];
      Vec s(N * N), p(N * N), expect(N * D);
      ref_matmul(q.data() + base, kt.data(), s.data(), N, N, D);
      for (int64_t i = 0; i < N; ++i)
        for (int64_t j = 0; j < N; ++j)
          s[i * N + j] = (causal && j > i) ? -1e300 : s[i * N + j] * scale;
      ref_softmax(s.data(), p.data(), N, N);
      ref_matmul(p.data(), v.data() + base, expect.data(), N, D, N);
      for (int64_t i = 0; i < N * D; ++i)
        EXPECT_NEAR(o[base + i], expect[i], 1e-12) << "zh " << zh << " causal " << causal;
      for (int64_t i = 0; i < N; ++i) {
        double sum = 0.0;
        for (int64_t j = 0; j < (causal ? i + 1 : N); ++j) sum += std::exp(s[i * N + j]);
        EXPECT_NEAR(lse[zh * N + i], std::log(sum), 1e-12);
      }
    }
  }
}

TEST(RefAttention, HeadsAreIndependentAndLayoutIsZHND) {
  // Make head (z=1, h=0) differ from every other head; the others must not change.
  const int64_t Z = 2, H = 2, N = 4, D = 2;
  const Vec q = random_vec(Z * H * N * D, 19);
  const Vec k = random_vec(Z * H * N * D, 20);
  Vec v = random_vec(Z * H * N * D, 21);
  Vec o1(v.size()), o2(v.size());
  ref_attention(q.data(), k.data(), v.data(), o1.data(), nullptr, Z, H, N, D, 1.0, false);
  const int64_t changed = (1 * H + 0) * N * D;
  for (int64_t i = 0; i < N * D; ++i) v[changed + i] += 100.0;
  ref_attention(q.data(), k.data(), v.data(), o2.data(), nullptr, Z, H, N, D, 1.0, false);
  for (int64_t i = 0; i < Z * H * N * D; ++i) {
    if (i >= changed && i < changed + N * D)
      EXPECT_NEAR(o2[i], o1[i] + 100.0, 1e-10);  // rows of P sum to 1
    else
      EXPECT_EQ(o2[i], o1[i]);
  }
}

TEST(RefAttention, LargeScoresStayFinite) {
  const int64_t N = 3, D = 2;
  const Vec q = {400, 400, -400, 400, 0, 1};
  const Vec k = {400, 400, 400, -400, 1, 0};
  const Vec v = {1, 2, 3, 4, 5, 6};
  Vec o(N * D), lse(N);
  ref_attention(q.data(), k.data(), v.data(), o.data(), lse.data(), 1, 1, N, D, 1.0, false);
  for (double x : o) EXPECT_TRUE(std::isfinite(x));
  for (double x : lse) EXPECT_TRUE(std::isfinite(x));
  // Row 0 scores: {320000, 0, 800}: all weight on key 0.
  EXPECT_NEAR(o[0], 1.0, kTight);
  EXPECT_NEAR(o[1], 2.0, kTight);
  EXPECT_NEAR(lse[0], 320000.0, 1e-9);
}

}  // namespace
