// Corpus: Liger-style normalization kernels (liger_rmsnorm.py, liger_layernorm.py,
// liger_fused_add_rmsnorm.py) on the CPU backend, against float64 references.
//
// Error model used by the tolerances below (u = 2^-24, one fp32 rounding):
//  * a sum of n fp32 terms: n u * sum |terms| (one rounding per addition, any order);
//  * fp16 * fp16 is exact in fp32 (22 significant bits), fp32 * fp32 rounds once;
//  * rsqrt / sqrt / division: tritium's math functions are within 4 ulp (2^-21 relative,
//    tests/conformance/math_test.cpp); rsqrt halves the relative error of its argument;
//  * every cast to fp16 rounds once: 2^-11 relative (2^-25 absolute below 2^-14).
#include <algorithm>

#include "corpus_util.h"

using namespace corpus;

namespace {

constexpr double u = 0x1p-24;

struct RmsRef {
  std::vector<double> rstd, rstd_tol;
};

// rstd per row of x ([rows, cols] with row stride ld) and its tolerance: the sum of squares
// of positive terms has relative error (n + 1) u (n additions, and x*x rounded when x is
// fp32), then / n and + eps (2 u), then rsqrt (half of that, plus 2^-21).
RmsRef rms_ref(const std::vector<double>& x, int64_t rows, int64_t cols, int64_t ld, double eps) {
  RmsRef r;
  for (int64_t i = 0; i < rows; ++i) {
    double ss = 0;
    for (int64_t c = 0; c < cols; ++c) ss += x[i * ld + c] * x[i * ld + c];
    r.rstd.push_back(1.0 / std::sqrt(ss / cols + eps));
    r.rstd_tol.push_back(r.rstd.back() * ((cols + 3) / 2.0 * u + 0x1p-21) * 1.01);
  }
  return r;
}

// casting_mode -1 / 0 / 1 = none / llama / gemma (module constants of liger_rmsnorm.py),
// on fp16 or bf16 data: each cast rounds by `half_ulp` (2^-11 fp16, 2^-8 bf16) relative,
// `sub` absolute below the normal range (fp16 subnormals; bf16 has fp32's range).
void run_rms_forward_16(int64_t mode, double offset, bool bf16) {
  const int64_t rows = 37, cols = 300, ld = 320;  // padded rows; BLOCK_SIZE 512 > cols
  const double eps = 1e-6, half_ulp = bf16 ? 0x1p-8 : 0x1p-11, sub = bf16 ? 0.0 : 0x1p-25;
  Half x = bf16 ? uniform_bf16(rows * ld, -2.f, 2.f) : uniform_half(rows * ld, -2.f, 2.f);
  Half w = bf16 ? uniform_bf16(cols, -1.f, 1.f) : uniform_half(cols, -1.f, 1.f);
  std::string t = bf16 ? "*bf16" : "*fp16";
  auto k = compile("liger_rmsnorm.py", "_rms_norm_forward_kernel",
                   t + ", i32, " + t + ", i32, " + t + ", i32, *fp32, i32, i32, fp32, fp32",
                   {{"casting_mode", mode}, {"BLOCK_SIZE", int64_t{512}}});
  auto bx = upload(x.bits), bw = upload(w.bits);
  Output<uint16_t> y(rows * ld);
  Output<float> rstd(rows);
  k.launch({rows}, {y, ld, bx, ld, bw, 1, rstd, 1, cols, float(eps), float(offset)});
  RmsRef ref = rms_ref(x.vals, rows, cols, ld, eps);
  std::vector<double> want, tol;
  std::vector<uint16_t> got_bits;
  auto yv = y.get();
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t c = 0; c < ld; ++c) {
      if (c >= cols) {
        EXPECT_EQ(yv[i * ld + c], poison<uint16_t>()) << "padding written at row " << i;
        continue;
      }
      double scale = offset + w.vals[c];
      double v = x.vals[i * ld + c] * ref.rstd[i] * scale;
      want.push_back(v);
      got_bits.push_back(yv[i * ld + c]);
      // llama rounds x * rstd to the input dtype before the weight (one more rounding)
      double extra = mode == 0 ? half_ulp * std::fabs(v) + sub * std::fabs(scale) : 0.0;
      tol.push_back((half_ulp + (cols + 8) / 2.0 * u + 0x1p-21) * std::fabs(v) * 1.01 + extra + sub);
    }
  std::string what = std::string(mode == 0 ? "llama" : "gemma") + (bf16 ? " bf16" : " fp16");
  expect_within(bf16 ? widen_bf16(got_bits) : widen_half(got_bits), want, tol, "rmsnorm " + what + " y");
  expect_within(widen(rstd.get()), ref.rstd, ref.rstd_tol, "rmsnorm " + what + " rstd");
}

}  // namespace

TEST(CorpusNorms, LigerRmsNormForwardLlamaCasting) { run_rms_forward_16(0, 0.0, false); }
TEST(CorpusNorms, LigerRmsNormForwardGemmaCasting) { run_rms_forward_16(1, 1.0, false); }
TEST(CorpusNorms, LigerRmsNormForwardLlamaCastingBf16) { run_rms_forward_16(0, 0.0, true); }
TEST(CorpusNorms, LigerRmsNormForwardGemmaCastingBf16) { run_rms_forward_16(1, 1.0, true); }

// casting_mode "none" on fp32 data (the dtype rules alone; fp32 throughout): the y
// tolerance adds the fp32 products x*rstd and *(offset + w) and the addition offset + w.
TEST(CorpusNorms, LigerRmsNormForwardNoCastingFp32) {
  const int64_t rows = 9, cols = 1000;
  const double eps = 1e-5, offset = 0.5;
  auto x = uniform(rows * cols, -3.f, 3.f), w = uniform(cols);
  auto k = compile("liger_rmsnorm.py", "_rms_norm_forward_kernel",
                   "*fp32, i32, *fp32, i32, *fp32, i32, *fp32, i32, i32, fp32, fp32",
                   {{"casting_mode", int64_t{-1}}, {"BLOCK_SIZE", int64_t{1024}}});
  auto bx = upload(x), bw = upload(w);
  Output<float> y(rows * cols), rstd(rows);
  k.launch({rows}, {y, cols, bx, cols, bw, 1, rstd, 1, cols, float(eps), float(offset)});
  auto xd = widen(x);
  RmsRef ref = rms_ref(xd, rows, cols, cols, float(eps));
  std::vector<double> want(rows * cols), tol(rows * cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t c = 0; c < cols; ++c) {
      double scale = float(offset) + double(w[c]);
      want[i * cols + c] = xd[i * cols + c] * ref.rstd[i] * scale;
      tol[i * cols + c] = ((cols + 8) / 2.0 * u + 0x1p-21 + 3 * u) * std::fabs(want[i * cols + c]) * 1.01 +
                          u * std::fabs(xd[i * cols + c] * ref.rstd[i]) * float(offset);
    }
  expect_within(widen(y.get()), want, tol, "rmsnorm none y");
  expect_within(widen(rstd.get()), ref.rstd, ref.rstd_tol, "rmsnorm none rstd");
}

// Backward with several rows per program (the last program shorter) and Gemma's offset.
// Inputs: the reference rstd rounded to fp32 (what the forward stores). dx = rstd g -
// rstd^3 / n * S * x with g = dy (offset + w) and S = sum g x: each of the two terms is
// within 6 u of itself (products, rstd^3, / n), and S within (n + 1) u sum |g x|. dW of one
// program sums rows_per_program rows of dy x rstd: (rows + 3) u of the sum of magnitudes.
TEST(CorpusNorms, LigerRmsNormBackwardRowsPerProgram) {
  const int64_t rows = 50, cols = 130, per = 8, programs = cdiv(rows, per);
  const double offset = 1.0;
  auto x = uniform(rows * cols, -2.f, 2.f), w = uniform(cols), dy = uniform(rows * cols);
  RmsRef ref = rms_ref(widen(x), rows, cols, cols, 1e-6);
  std::vector<float> rstd32(ref.rstd.begin(), ref.rstd.end());
  auto k = compile("liger_rmsnorm.py", "_rms_norm_backward_kernel",
                   "*fp32, i32, *fp32, i32, *fp32, i32, *fp32, i32, *fp32, i32, *fp32, i32, i32, i32, fp32, i32",
                   {{"BLOCK_SIZE", int64_t{256}}});
  auto bdy = upload(dy), bx = upload(x), bw = upload(w), br = upload(rstd32);
  Output<float> dx(rows * cols), dw(programs * cols);
  k.launch({programs}, {bdy, cols, dx, cols, bx, cols, bw, 1, br, 1, dw, cols, rows, cols, float(offset), per});
  std::vector<double> want_dx(rows * cols), tol_dx(rows * cols), want_dw(programs * cols, 0.0),
      tol_dw(programs * cols, 0.0);
  for (int64_t i = 0; i < rows; ++i) {
    double r = rstd32[i], s = 0, s_abs = 0;
    for (int64_t c = 0; c < cols; ++c) {
      double g = double(dy[i * cols + c]) * (offset + w[c]);
      s += g * x[i * cols + c], s_abs += std::fabs(g * x[i * cols + c]);
    }
    for (int64_t c = 0; c < cols; ++c) {
      double g = double(dy[i * cols + c]) * (offset + w[c]), xv = x[i * cols + c];
      double t1 = r * g, t2 = r * r * r / cols * s * xv;
      want_dx[i * cols + c] = t1 - t2;
      tol_dx[i * cols + c] = 6 * u * (std::fabs(t1) + std::fabs(t2)) + r * r * r / cols * std::fabs(xv) * (cols + 1) * u * s_abs;
      double d = double(dy[i * cols + c]) * xv * r;
      want_dw[(i / per) * cols + c] += d;
      tol_dw[(i / per) * cols + c] += (per + 3) * u * std::fabs(d);
    }
  }
  expect_within(widen(dx.get()), want_dx, tol_dx, "rmsnorm backward dx");
  expect_within(widen(dw.get()), want_dw, tol_dw, "rmsnorm backward dw partials");
}

// LayerNorm forward, fp16 x and y, fp32 w and b, rows padded. Tolerances: mean within
// (n + 1) u of mean |x|; x - mean then carries |mean| (n + 1) u + u |x - mean|; the variance
// (two-pass, n positive terms) (n + 3) u relative, so rstd (n + 3) / 2 u + 2^-21; y =
// xc rstd w + b adds 3 u of the product and u of |y| + |b| in fp32, then 2^-11 |y| for fp16.
TEST(CorpusNorms, LigerLayerNormForwardFp16) {
  const int64_t rows = 23, cols = 777, ld = 800;
  const double eps = 1e-5;
  Half x = uniform_half(rows * ld, -3.f, 5.f);
  auto w = uniform(cols, 0.5f, 1.5f), b = uniform(cols, -0.5f, 0.5f);
  auto k = compile("liger_layernorm.py", "_layer_norm_forward_kernel",
                   "*fp16, i32, *fp16, i32, *fp32, i32, *fp32, i32, *fp32, i32, *fp32, i32, i32, fp32",
                   {{"BLOCK_SIZE", int64_t{1024}}});
  auto bx = upload(x.bits), bw = upload(w), bb = upload(b);
  Output<uint16_t> y(rows * ld);
  Output<float> mean(rows), rstd(rows);
  k.launch({rows}, {y, ld, bx, ld, bw, 1, bb, 1, mean, 1, rstd, 1, cols, float(eps)});
  std::vector<double> want_y, tol_y, got_y, want_m, tol_m, want_r, tol_r;
  auto yv = y.get();
  for (int64_t i = 0; i < rows; ++i) {
    double s = 0, sa = 0;
    for (int64_t c = 0; c < cols; ++c) s += x.vals[i * ld + c], sa += std::fabs(x.vals[i * ld + c]);
    double m = s / cols, var = 0;
    for (int64_t c = 0; c < cols; ++c) var += (x.vals[i * ld + c] - m) * (x.vals[i * ld + c] - m);
    var /= cols;
    double r = 1.0 / std::sqrt(var + eps), m_err = (cols + 1) * u * sa / cols;
    want_m.push_back(m), tol_m.push_back(m_err);
    want_r.push_back(r), tol_r.push_back(r * ((cols + 3) / 2.0 * u + 0x1p-21) * 1.01);
    for (int64_t c = 0; c < cols; ++c) {
      double xc = x.vals[i * ld + c] - m, v = xc * r * w[c] + b[c];
      want_y.push_back(v);
      got_y.push_back(half_value(yv[i * ld + c]));
      double prod = std::fabs(xc * r * w[c]);
      tol_y.push_back((m_err + u * std::fabs(xc)) * r * w[c] + prod * ((cols + 3) / 2.0 * u + 0x1p-21 + 3 * u) +
                      u * (std::fabs(v) + std::fabs(b[c])) + 0x1p-11 * std::fabs(v) * 1.01 + 0x1p-25);
    }
    for (int64_t c = cols; c < ld; ++c) EXPECT_EQ(yv[i * ld + c], poison<uint16_t>()) << "padding, row " << i;
  }
  expect_within(got_y, want_y, tol_y, "layernorm y");
  expect_within(widen(mean.get()), want_m, tol_m, "layernorm mean");
  expect_within(widen(rstd.get()), want_r, tol_r, "layernorm rstd");
}

// Fused residual add + RMSNorm with a column loop (n_cols > BLOCK_SIZE, ragged tail). The
// residual s = x + r is an fp16 addition: it must be exactly the correctly rounded sum. y
// is one fp32 chain from the fp16 s, rounded once to fp16.
TEST(CorpusNorms, FusedAddRmsNormTwoPassColumnLoop) {
  const int64_t rows = 11, cols = 1500, block = 256;
  const double eps = 1e-6;
  Half x = uniform_half(rows * cols, -2.f, 2.f), r = uniform_half(rows * cols, -2.f, 2.f),
       w = uniform_half(cols, -1.f, 1.f);
  auto k = compile("liger_fused_add_rmsnorm.py", "_fused_add_rms_norm_kernel",
                   "*fp16, *fp16, *fp16, *fp16, *fp16, *fp32, i32, i32, fp32", {{"BLOCK_SIZE", block}});
  auto bx = upload(x.bits), br = upload(r.bits), bw = upload(w.bits);
  Output<uint16_t> y(rows * cols), s(rows * cols);
  Output<float> rstd(rows);
  k.launch({rows}, {y, s, bx, br, bw, rstd, cols, cols, float(eps)});
  std::vector<uint16_t> want_s(rows * cols);
  std::vector<double> sv(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) {
    want_s[i] = to_half(x.vals[i] + r.vals[i]);
    sv[i] = half_value(want_s[i]);
  }
  expect_equal(s.get(), want_s, "fused add residual (fp16 bits)");
  RmsRef ref = rms_ref(sv, rows, cols, cols, eps);
  std::vector<double> want_y(rows * cols), tol_y(rows * cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t c = 0; c < cols; ++c) {
      double v = sv[i * cols + c] * ref.rstd[i] * w.vals[c];
      want_y[i * cols + c] = v;
      tol_y[i * cols + c] = (0x1p-11 + (cols + 8) / 2.0 * u + 0x1p-21 + 2 * u) * std::fabs(v) * 1.01 + 0x1p-25;
    }
  expect_within(widen_half(y.get()), want_y, tol_y, "fused add rmsnorm y");
  expect_within(widen(rstd.get()), ref.rstd, ref.rstd_tol, "fused add rmsnorm rstd");
}

// LayerNorm backward, tutorial style: 67 rows into GROUP_SIZE_M = 8 lock-protected fp32
// partial rows (poisoned: the first writer of each stores, by the count protocol), then a
// column-block reduction of the partials. The rows take the locks in whatever order the
// CPU's worker threads reach them, so the partial sums' order varies; the bounds below
// hold for any order. Inputs fp16; mean / rstd are the reference's, rounded to fp32.
// dx: xhat and w dy in fp32 (2 u), c1, c2 sums of N terms ((N + 1) u of their magnitude
// sums), then the combination (3 u) and the fp16 rounding. dw / db: each of the M terms
// rounds (2 u) and M + 8 additions (the partials, the 8-row stage-2 tree).
TEST(CorpusNorms, TutorialLayerNormBackwardWithSpinLock) {
  const int64_t M = 67, N = 300, G = 8;
  Half x = uniform_half(M * N, -2.f, 2.f), dy = uniform_half(M * N), w = uniform_half(N, 0.5f, 1.5f);
  std::vector<float> mean(M), rstd(M);
  for (int64_t r = 0; r < M; ++r) {
    double s = 0, v = 0;
    for (int64_t c = 0; c < N; ++c) s += x.vals[r * N + c];
    for (int64_t c = 0; c < N; ++c) v += (x.vals[r * N + c] - s / N) * (x.vals[r * N + c] - s / N);
    mean[r] = float(s / N), rstd[r] = float(1 / std::sqrt(v / N + 1e-5));
  }
  auto k1 = compile("layernorm_bwd_spinlock.py", "_layer_norm_bwd_dx_fused",
                    "*fp16, *fp16, *fp32, *fp32, *fp16, *fp16, *fp32, *fp32, *i32, i32, i32",
                    {{"GROUP_SIZE_M", G}, {"BLOCK_SIZE_N", int64_t{512}}});
  auto k2 = compile("layernorm_bwd_spinlock.py", "_layer_norm_bwd_dwdb", "*fp32, *fp32, *fp32, *fp32, i32, i32",
                    {{"BLOCK_SIZE_M", int64_t{8}}, {"BLOCK_SIZE_N", int64_t{64}}});
  auto bdy = upload(dy.bits), bx = upload(x.bits), bw = upload(w.bits), bm = upload(mean), br = upload(rstd);
  Output<int32_t> lock(std::vector<int32_t>(2 * G, 0));
  Output<uint16_t> dx(M * N);
  Output<float> pdw(G * N), pdb(G * N), dw(N), db(N);
  k1.launch({M}, {dx, bdy, pdw, pdb, bx, bw, bm, br, lock, N, N});
  k2.launch({cdiv(N, 64)}, {pdw, pdb, dw, db, G, N});
  std::vector<double> want_dx(M * N), tol_dx(M * N), want_dw(N, 0), want_db(N, 0), tol_dw(N, 0), tol_db(N, 0);
  for (int64_t r = 0; r < M; ++r) {
    double c1 = 0, c2 = 0, a1 = 0, a2 = 0;
    for (int64_t c = 0; c < N; ++c) {
      double xh = (x.vals[r * N + c] - mean[r]) * rstd[r], wdy = w.vals[c] * dy.vals[r * N + c];
      c1 += xh * wdy, c2 += wdy, a1 += std::fabs(xh * wdy), a2 += std::fabs(wdy);
    }
    c1 /= N, c2 /= N;
    for (int64_t c = 0; c < N; ++c) {
      double xh = (x.vals[r * N + c] - mean[r]) * rstd[r], wdy = w.vals[c] * dy.vals[r * N + c];
      double v = (wdy - (xh * c1 + c2)) * rstd[r];
      want_dx[r * N + c] = v;
      tol_dx[r * N + c] = (4 * u * (std::fabs(wdy) + std::fabs(xh * c1) + std::fabs(c2)) +
                           (N + 3) * u * (std::fabs(xh) * a1 + a2) / N) * rstd[r] + 0x1p-11 * std::fabs(v) * 1.01 + 0x1p-25;
      want_dw[c] += dy.vals[r * N + c] * xh, tol_dw[c] += std::fabs(dy.vals[r * N + c] * xh);
      want_db[c] += dy.vals[r * N + c], tol_db[c] += std::fabs(dy.vals[r * N + c]);
    }
  }
  for (int64_t c = 0; c < N; ++c) tol_dw[c] *= (M + 8 + 2) * u, tol_db[c] *= (M + 8) * u;
  expect_within(widen_half(dx.get()), want_dx, tol_dx, "layernorm backward dx");
  expect_within(widen(dw.get()), want_dw, tol_dw, "layernorm backward dw (spin-locked partials)");
  expect_within(widen(db.get()), want_db, tol_db, "layernorm backward db (spin-locked partials)");
  auto l = lock.get();  // every lock released, every count set
  for (int64_t i = 0; i < G; ++i) EXPECT_EQ(l[i], 0) << "lock " << i;
  for (int64_t i = G; i < 2 * G; ++i) EXPECT_EQ(l[i], 1) << "count " << i - G;
}
