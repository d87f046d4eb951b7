// tl.dot: shapes 16x16x16, 32x64x16, 64x32x128; fp32 (input_precision "ieee" and default),
// fp16, bf16 (fp32 accumulation), int8 -> int32 (exact), out_dtype=fp16, the acc argument.
// Expected values from a float64 / int64 triple loop. Tolerance for fp32 accumulation:
// K * 2^-24 * sum_k |a||b| (each of K roundings is at most 2^-24 relative of a partial sum,
// bounded by sum|a||b|); for the default precision ("tf32": on the GPU in native numerics,
// tf32 tensor cores) the inputs are rounded to 10 mantissa bits, 2^-11 each: 2^-10 *
// sum|a||b| more. fp16 inputs are exact in fp32. int8 runs on the int8 tensor cores on the
// GPU and must stay exact.
#include "conformance_util.h"
#include "halfbits.h"

using namespace conformance;

namespace {

const char* kDot = R"(
import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, IEEE: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    if IEEE:
        c = tl.dot(a, b, input_precision="ieee")
    else:
        c = tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)
)";

template <class T, class Cvt>
void reference(const std::vector<T>& a, const std::vector<T>& b, int M, int N, int K, Cvt cvt, std::vector<double>& c,
               std::vector<double>& absum) {
  c.assign(M * N, 0);
  absum.assign(M * N, 0);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        double p = static_cast<double>(cvt(a[i * K + k])) * cvt(b[k * N + j]);
        c[i * N + j] += p;
        absum[i * N + j] += std::fabs(p);
      }
}

void check_f32(const std::vector<float>& got, const std::vector<double>& want, const std::vector<double>& absum,
               int K, double extra_rel, const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  int bad = 0;
  for (size_t i = 0; i < got.size() && bad < 5; ++i) {
    double tol = (K * 0x1p-24 + extra_rel) * absum[i];
    if (std::isnan(got[i]) || std::fabs(got[i] - want[i]) > tol) {
      ++bad;
      ADD_FAILURE() << what << "[" << i << "]: got " << got[i] << " want " << want[i] << " tol " << tol;
    }
  }
}

struct Shape {
  int M, N, K;
};
const Shape kShapes[] = {{16, 16, 16}, {32, 64, 16}, {64, 32, 128}};

TEST(ConformanceDot, Fp32IeeeAllShapes) {
  for (auto s : kShapes) {
    auto a = rand_f32(s.M * s.K, -1, 1), b = rand_f32(s.K * s.N, -1, 1);
    std::string sig = "*fp32, *fp32, *fp32, " + std::to_string(s.M) + ", " + std::to_string(s.N) + ", " +
                      std::to_string(s.K) + ", True";
    Case c(kDot, "mm", sig);
    c.in(a).in(b).out<float>(s.M * s.N);
    auto got = c.run({1}).get<float>(2);
    std::vector<double> want, absum;
    reference(a, b, s.M, s.N, s.K, [](float v) { return v; }, want, absum);
    check_f32(got, want, absum, s.K, 0, "fp32 ieee " + sig);
  }
}

TEST(ConformanceDot, Fp32DefaultPrecision) {
  Shape s{32, 64, 16};
  auto a = rand_f32(s.M * s.K, -1, 1), b = rand_f32(s.K * s.N, -1, 1);
  Case c(kDot, "mm", "*fp32, *fp32, *fp32, 32, 64, 16, False");
  c.tf32_dot().in(a).in(b).out<float>(s.M * s.N);
  auto got = c.run({1}).get<float>(2);
  std::vector<double> want, absum;
  reference(a, b, s.M, s.N, s.K, [](float v) { return v; }, want, absum);
  check_f32(got, want, absum, s.K, 0x1p-10, "fp32 default");
  // On a GPU in native numerics: the tf32 tensor cores, against the same float64 bound.
  if (gpu_present()) check_f32(c.run_on("cuda", {1}).get<float>(2), want, absum, s.K, 0x1p-10, "fp32 default, cuda");
}

TEST(ConformanceDot, Fp16AndBf16Operands) {
  for (auto s : kShapes) {
    std::string dims = std::to_string(s.M) + ", " + std::to_string(s.N) + ", " + std::to_string(s.K) + ", True";
    // inputs k/64 with |k| <= 64: exact in fp16 and bf16, products exact in fp32
    auto ai = rand_int<int16_t>(s.M * s.K, -64, 64), bi = rand_int<int16_t>(s.K * s.N, -64, 64);
    std::vector<uint16_t> ah(ai.size()), bh(bi.size()), ab(ai.size()), bb(bi.size());
    for (size_t i = 0; i < ai.size(); ++i) ah[i] = exact_half(ai[i] / 64.0), ab[i] = bf16_rne(ai[i] / 64.0f);
    for (size_t i = 0; i < bi.size(); ++i) bh[i] = exact_half(bi[i] / 64.0), bb[i] = bf16_rne(bi[i] / 64.0f);
    {
      Case c(kDot, "mm", "*fp16, *fp16, *fp32, " + dims);
      c.in(ah).in(bh).out<float>(s.M * s.N);
      auto got = c.run({1}).get<float>(2);
      std::vector<double> want, absum;
      reference(ah, bh, s.M, s.N, s.K, half_to_float, want, absum);
      check_f32(got, want, absum, s.K, 0, "fp16 " + dims);
    }
    {
      Case c(kDot, "mm", "*bf16, *bf16, *fp32, " + dims);
      c.in(ab).in(bb).out<float>(s.M * s.N);
      auto got = c.run({1}).get<float>(2);
      std::vector<double> want, absum;
      reference(ab, bb, s.M, s.N, s.K, bf16_to_float, want, absum);
      check_f32(got, want, absum, s.K, 0, "bf16 " + dims);
    }
  }
}

TEST(ConformanceDot, Int8ToInt32Exact) {
  // upstream requires K >= 32 for int8 operands, so the K = 16 shapes use K = 32 here
  const Shape shapes[] = {{16, 16, 32}, {32, 64, 32}, {64, 32, 128}};
  for (auto s : shapes) {
    std::string dims = std::to_string(s.M) + ", " + std::to_string(s.N) + ", " + std::to_string(s.K) + ", True";
    auto a = rand_int<int8_t>(s.M * s.K, -128, 127), b = rand_int<int8_t>(s.K * s.N, -128, 127);
    Case c(kDot, "mm", "*i8, *i8, *i32, " + dims);
    c.in(a).in(b).out<int32_t>(s.M * s.N);
    auto got = c.run({1}).get<int32_t>(2);
    std::vector<int32_t> gpu;  // the int8 tensor cores (native numerics), exact as well
    if (gpu_present()) gpu = c.run_on("cuda", {1}).get<int32_t>(2);
    for (int i = 0; i < s.M; ++i)
      for (int j = 0; j < s.N; ++j) {
        int64_t acc = 0;
        for (int k = 0; k < s.K; ++k) acc += int64_t(a[i * s.K + k]) * b[k * s.N + j];
        ASSERT_EQ(got[i * s.N + j], acc) << dims << " at " << i << "," << j;
        if (!gpu.empty()) ASSERT_EQ(gpu[i * s.N + j], acc) << dims << " at " << i << "," << j << " (cuda)";
      }
  }
}

// The int8 and tf32 tensor-core paths at every warp split: 1, 2, 4 and 8 warps over tiles
// of one to several m- and n-tiles per warp (on a GPU: exact for int8; tf32 within the
// float64 bound of Fp32DefaultPrecision). Interpreter and CPU results are checked the same.
TEST(ConformanceDot, Int8AndTf32AtEveryWarpSplit) {
  const Shape shapes[] = {{16, 8, 32}, {16, 64, 32}, {64, 32, 64}, {128, 32, 32}};
  for (int warps : {1, 2, 4, 8})
    for (auto s : shapes) {
      const std::string dims = std::to_string(s.M) + ", " + std::to_string(s.N) + ", " + std::to_string(s.K);
      SCOPED_TRACE(dims + " at " + std::to_string(warps) + " warps");
      tritium::CompileOptions o;
      o.num_warps = warps;
      {
        auto a = rand_int<int8_t>(s.M * s.K, -128, 127), b = rand_int<int8_t>(s.K * s.N, -128, 127);
        Case c(kDot, "mm", "*i8, *i8, *i32, " + dims + ", True", o);
        c.in(a).in(b).out<int32_t>(s.M * s.N);
        auto got = c.run({1}).get<int32_t>(2);
        std::vector<int32_t> gpu;
        if (gpu_present()) gpu = c.run_on("cuda", {1}).get<int32_t>(2);
        for (int i = 0; i < s.M; ++i)
          for (int j = 0; j < s.N; ++j) {
            int64_t acc = 0;
            for (int k = 0; k < s.K; ++k) acc += int64_t(a[i * s.K + k]) * b[k * s.N + j];
            ASSERT_EQ(got[i * s.N + j], acc) << i << "," << j;
            if (!gpu.empty()) ASSERT_EQ(gpu[i * s.N + j], acc) << i << "," << j << " (cuda)";
          }
      }
      {
        auto a = rand_f32(s.M * s.K, -1, 1), b = rand_f32(s.K * s.N, -1, 1);
        Case c(kDot, "mm", "*fp32, *fp32, *fp32, " + dims + ", False", o);
        c.tf32_dot().in(a).in(b).out<float>(s.M * s.N);
        auto got = c.run({1}).get<float>(2);
        std::vector<double> want, absum;
        reference(a, b, s.M, s.N, s.K, [](float v) { return v; }, want, absum);
        check_f32(got, want, absum, s.K, 0x1p-10, "fp32 default " + dims);
        if (gpu_present())
          check_f32(c.run_on("cuda", {1}).get<float>(2), want, absum, s.K, 0x1p-10, "fp32 default, cuda " + dims);
      }
    }
}

TEST(ConformanceDot, AccArgumentOutDtypeFp16AndStatic) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def mmacc(a_ptr, b_ptr, c_ptr, h_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    acc = tl.full((M, N), 0.5, tl.float32)
    for kk in range(2):
        a = tl.load(a_ptr + rm[:, None] * (2 * K) + kk * K + rk[None, :])
        b = tl.load(b_ptr + (kk * K + rk[:, None]) * N + rn[None, :])
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
    a0 = tl.load(a_ptr + rm[:, None] * (2 * K) + rk[None, :])
    b0 = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    h = tl.dot(a0, b0, out_dtype=tl.float16)
    tl.static_assert(h.dtype == tl.float16)
    tl.store(h_ptr + rm[:, None] * N + rn[None, :], h)
)";
  const int M = 16, N = 32, K = 16;
  auto ai = rand_int<int16_t>(M * 2 * K, -16, 16), bi = rand_int<int16_t>(2 * K * N, -16, 16);
  std::vector<uint16_t> a(ai.size()), b(bi.size());
  for (size_t i = 0; i < a.size(); ++i) a[i] = exact_half(ai[i] / 16.0);
  for (size_t i = 0; i < b.size(); ++i) b[i] = exact_half(bi[i] / 16.0);
  Case c(src, "mmacc", "*fp16, *fp16, *fp32, *fp16, 16, 32, 16");
  c.in(a).in(b).out<float>(M * N).out<uint16_t>(M * N);
  auto res = c.run({1});
  auto acc = res.get<float>(2);
  auto h = res.get<uint16_t>(3);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      // inputs are multiples of 1/16 with |x| <= 1: every partial sum is a multiple of
      // 1/256 below 2^6, so fp32 accumulation is exact.
      double s = 0.5, s0 = 0;
      for (int k = 0; k < 2 * K; ++k) s += (ai[i * 2 * K + k] / 16.0) * (bi[k * N + j] / 16.0);
      for (int k = 0; k < K; ++k) s0 += (ai[i * 2 * K + k] / 16.0) * (bi[k * N + j] / 16.0);
      EXPECT_EQ(acc[i * N + j], s) << i << "," << j;
      // fp16 out: |s0| <= 16, multiple of 1/256 -> at most 13 significant bits; fp16 has 11,
      // so the result is s0 rounded once to fp16 (if accumulated in fp16 with rounding per
      // step it could differ by a few ulp; allow 4 ulp of fp16).
      double got = half_to_float(h[i * N + j]);
      double ulp = std::ldexp(1.0, std::max(-24, static_cast<int>(std::floor(std::log2(std::fabs(s0) + 1e-30))) - 10));
      EXPECT_NEAR(got, s0, 4 * ulp) << i << "," << j;
    }
}

TEST(ConformanceDot, MixedOperandDtypesIsAnError) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def bad(a_ptr, b_ptr, c_ptr):
    r = tl.arange(0, 16)
    a = tl.load(a_ptr + r[:, None] * 16 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 16 + r[None, :])
    tl.store(c_ptr + r[:, None] * 16 + r[None, :], tl.dot(a, b))
)";
  expect_compile_error(src, "bad", "*fp16, *fp32, *fp32", "");
}

}  // namespace
