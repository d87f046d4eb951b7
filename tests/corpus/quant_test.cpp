// Corpus: weight-only quantized GEMV / GEMM kernels (quant_*.py) on the CPU backend. The
// weights are packed here from random integers; the reference dequantizes them by the
// format's definition and multiplies in float64.
//
// Tolerances: products of an fp16 activation with an fp16 (or int8 / int4 times an fp16
// scale) weight are exact or round once in fp32; a K-term fp32 sum errs by at most
// (K + extra additions) * 2^-24 * sum |terms|; an fp16 result adds half an ulp (2^-11 |c|,
// 2^-25 below the normal range).
#include <algorithm>

#include "corpus_util.h"

using namespace corpus;

namespace {

constexpr double u = 0x1p-24;

std::vector<double> fp16_result_tol(const std::vector<double>& want, const std::vector<double>& abs_sum, double terms) {
  std::vector<double> tol(want.size());
  for (size_t i = 0; i < want.size(); ++i)
    tol[i] = terms * u * abs_sum[i] * 1.01 + 0x1p-11 * std::fabs(want[i]) * 1.01 + 0x1p-25;
  return tol;
}

}  // namespace

// int4 GEMV: N = 200 rows (BLOCK_N 32: a ragged last block), K = 1000 (BLOCK_K 128: a
// ragged K tail), groups of 40. Each term (q - 8) s x rounds once in fp32 ((q - 8) s is
// exact: 4 + 11 bits); BLOCK_K lanes accumulate K / BLOCK_K terms each and tl.sum adds
// BLOCK_K - 1 more: at most K + BLOCK_K + 1 roundings of the magnitude sum.
TEST(CorpusQuant, Int4GemvShiftsMasksAndGroupScales) {
  const int64_t N = 200, K = 1000, G = 40;
  auto q = uniform_int(N * K, 0, 15);
  Half x = uniform_half(K, -1.f, 1.f), s = uniform_half(N * (K / G), 0.001f, 0.05f);
  std::vector<uint8_t> packed(N * K / 2);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t k = 0; k < K; k += 2)
      packed[n * (K / 2) + k / 2] = uint8_t(q[n * K + k] | (q[n * K + k + 1] << 4));
  std::vector<double> want(N, 0), abs_sum(N, 0);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t k = 0; k < K; ++k) {
      double t = x.vals[k] * s.vals[n * (K / G) + k / G] * double(q[n * K + k] - 8);
      want[n] += t, abs_sum[n] += std::fabs(t);
    }
  auto kern = compile("quant_gemv_int4.py", "int4_gemv_kernel", "*fp16, *u8, *fp16, *fp16, i32, i32",
                      {{"GROUP", G}, {"BLOCK_N", int64_t{32}}, {"BLOCK_K", int64_t{128}}});
  auto bx = upload(x.bits), bw = upload(packed), bs = upload(s.bits);
  Output<uint16_t> y(N);
  kern.launch({cdiv(N, 32)}, {bx, bw, bs, y, N, K});
  expect_within(widen_half(y.get()), want, fp16_result_tol(want, abs_sum, K + 128 + 1), "int4 gemv");
}

// W8A16 with a bias, and without, on a transposed int8 W ([N, K] storage read through
// strides). fp16 x int8-as-fp16 products are exact in fp32 (11 + 8 bits); the K-term dot,
// then the scale (u) and the bias (u of |acc scale| + |bias|) in fp32, then fp16.
TEST(CorpusQuant, W8A16MatmulPerChannelScaleAndBias) {
  const int64_t M = 45, N = 70, K = 200;
  Half a = uniform_half(M * K);
  auto wq = uniform_int(K * N, -127, 127);
  std::vector<int8_t> w_nk(N * K);  // stored [N, K]
  for (int64_t k = 0; k < K; ++k)
    for (int64_t n = 0; n < N; ++n) w_nk[n * K + k] = int8_t(wq[k * N + n]);
  auto scale = uniform(N, 0.001f, 0.02f), bias = uniform(N, -1.f, 1.f);
  auto ba = upload(a.bits), bw = upload(w_nk), bsc = upload(scale), bb = upload(bias);
  for (bool has_bias : {true, false}) {
    auto kern = compile("quant_matmul_w8a16.py", "w8a16_matmul_kernel",
                        "*fp16, *i8, *fp32, *fp32, *fp16, i32, i32, i32, i32, i32, i32, i32, i32, i32",
                        {{"HAS_BIAS", has_bias}, {"BLOCK_M", int64_t{32}}, {"BLOCK_N", int64_t{32}}, {"BLOCK_K", int64_t{64}}});
    Output<uint16_t> c(M * N);
    kern.launch({cdiv(M, 32), cdiv(N, 32)}, {ba, bw, bsc, bb, c, M, N, K, K, 1, 1, K, N, 1});
    std::vector<double> want(M * N), tol(M * N);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double acc = 0, abs_acc = 0;
        for (int64_t k = 0; k < K; ++k) {
          double t = a.vals[m * K + k] * double(wq[k * N + n]);
          acc += t, abs_acc += std::fabs(t);
        }
        double v = acc * scale[n] + (has_bias ? bias[n] : 0.0);
        want[m * N + n] = v;
        tol[m * N + n] = (K * u * abs_acc + u * std::fabs(acc)) * scale[n] * 1.01 +
                         u * (std::fabs(v) + std::fabs(acc * scale[n])) + 0x1p-11 * std::fabs(v) * 1.01 + 0x1p-25;
      }
    expect_within(widen_half(c.get()), want, tol, has_bias ? "w8a16 with bias" : "w8a16");
  }
}

// GPTQ int4: K = 256 in groups of 64 (BLOCK_K 32 inside a group), N = 88 (11 words of
// zeros per group row; BLOCK_N 32: ragged), M = 19. The dequantized weight (q - z) s is an
// fp16 product: the reference rounds it the same way (that is the format's weight); then
// an fp16 dot with fp32 accumulation: K + K / BLOCK_K roundings (each tile's dot is added to
// the accumulator separately).
TEST(CorpusQuant, GptqInt4MatmulDequantInTheKLoop) {
  const int64_t M = 19, N = 88, K = 256, G = 64;
  auto q = uniform_int(K * N, 0, 15), z = uniform_int((K / G) * N, 0, 15);
  Half a = uniform_half(M * K), s = uniform_half((K / G) * N, 0.002f, 0.03f);
  std::vector<int32_t> qw((K / 8) * N, 0), qz((K / G) * (N / 8), 0);
  for (int64_t k = 0; k < K; ++k)
    for (int64_t n = 0; n < N; ++n) qw[(k / 8) * N + n] |= int32_t(uint32_t(q[k * N + n]) << (4 * (k % 8)));
  for (int64_t g = 0; g < K / G; ++g)
    for (int64_t n = 0; n < N; ++n) qz[g * (N / 8) + n / 8] |= int32_t(uint32_t(z[g * N + n]) << (4 * (n % 8)));
  std::vector<double> w(K * N);
  for (int64_t k = 0; k < K; ++k)
    for (int64_t n = 0; n < N; ++n)
      w[k * N + n] = half_value(to_half(double(q[k * N + n] - z[(k / G) * N + n]) * s.vals[(k / G) * N + n]));
  std::vector<double> want(M * N, 0), abs_sum(M * N, 0);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n)
      for (int64_t k = 0; k < K; ++k) {
        double t = a.vals[m * K + k] * w[k * N + n];
        want[m * N + n] += t, abs_sum[m * N + n] += std::fabs(t);
      }
  auto kern = compile("quant_matmul_int4_gptq.py", "gptq_int4_matmul_kernel", "*fp16, *i32, *fp16, *i32, *fp16, i32, i32, i32",
                      {{"GROUP", G}, {"BLOCK_M", int64_t{16}}, {"BLOCK_N", int64_t{32}}, {"BLOCK_K", int64_t{32}}});
  auto ba = upload(a.bits), bq = upload(qw), bs = upload(s.bits), bz = upload(qz);
  Output<uint16_t> c(M * N);
  kern.launch({cdiv(M, 16) * cdiv(N, 32)}, {ba, bq, bs, bz, c, M, N, K});
  expect_within(widen_half(c.get()), want, fp16_result_tol(want, abs_sum, K + K / 32), "gptq int4 matmul");
}

namespace {

// Value of an fp8e4nv (e4m3fn) code: bias 7, 3 mantissa bits, subnormals of 2^-9, no
// infinities, 0x7F / 0xFF NaN.
double e4m3_value(uint8_t c) {
  int s = c >> 7, e = (c >> 3) & 0xF, m = c & 7;
  if (e == 15 && m == 7) return NAN;
  double v = e == 0 ? std::ldexp(m, -9) : std::ldexp(8 + m, e - 10);
  return s ? -v : v;
}

}  // namespace

// Per-token quantization, int8 and fp8e4nv, rows of 1000 (BLOCK 1024). The scale is one
// fp32 division (2^-21). The quotient x / scale is another (2^-21) of a value r = x * 127 /
// absmax (or * 448): each code must be a correct rounding of some value within that error
// of r, i.e. |q - r| <= half a step of the format at q (int8: 0.5; e4m3: 2^-4 |q| in the
// normal range, 2^-10 below it) + r 2^-20; and within the format's range. Every row's
// maximum maps to +-127 / +-448 exactly up to that error.
TEST(CorpusQuant, PerTokenInt8AndFp8ActivationQuant) {
  const int64_t rows = 17, cols = 1000;
  Half x = uniform_half(rows * cols, -3.f, 3.f);
  for (int r = 0; r < rows; ++r) x.bits[r * cols + 7 * r] = to_half(10.0 + r), x.vals[r * cols + 7 * r] = 10.0 + r;
  auto bx = upload(x.bits);
  for (bool fp8 : {false, true}) {
    const double qmax = fp8 ? 448.0 : 127.0;
    auto k = compile("quant_per_token_act.py", fp8 ? "per_token_quant_fp8_kernel" : "per_token_quant_int8_kernel",
                     std::string("*fp16, ") + (fp8 ? "*fp8e4nv" : "*i8") + ", *fp32, i32", {{"BLOCK", int64_t{1024}}});
    Output<uint8_t> q(rows * cols);
    Output<float> scale(rows);
    k.launch({rows}, {bx, q, scale, cols});
    auto qv = q.get();
    std::vector<double> want_s(rows), tol_s(rows), got, want, tol;
    for (int64_t r = 0; r < rows; ++r) {
      double amax = 0;
      for (int64_t c = 0; c < cols; ++c) amax = std::max(amax, std::fabs(x.vals[r * cols + c]));
      want_s[r] = amax / qmax, tol_s[r] = 0x1p-21 * want_s[r];
      for (int64_t c = 0; c < cols; ++c) {
        double ratio = x.vals[r * cols + c] / want_s[r];
        double code = fp8 ? e4m3_value(qv[r * cols + c]) : double(int8_t(qv[r * cols + c]));
        double step = fp8 ? (std::fabs(code) >= 0x1p-6 ? 0x1p-4 * std::fabs(code) : 0x1p-10) : 0.5;
        got.push_back(code);
        want.push_back(ratio);
        tol.push_back(step + std::fabs(ratio) * 0x1p-20);
      }
    }
    std::string what = fp8 ? "per-token fp8" : "per-token int8";
    expect_within(widen(scale.get()), want_s, tol_s, what + " scales");
    expect_within(got, want, tol, what + " codes");
    for (double g : got) ASSERT_LE(std::fabs(g), qmax) << what << ": code outside the format's range";
  }
}
