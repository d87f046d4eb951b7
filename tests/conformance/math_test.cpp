// Elementwise math vs float64 std:: functions. Tolerances (relative to the exact result):
//  * exactly rounded ops (sqrt_rn, div_rn, fma, floor, ceil, abs, maximum, minimum, clamp,
//    where): bit-exact against the double result rounded once to fp32;
//  * exp, exp2, log, log2, rsqrt, erf, sigmoid, sqrt, fdiv: 4 ulp (2^-21 relative) — upstream
//    lowers these to hardware approximations of ~2 ulp, and a correct libm is within 1;
//  * log/log2 additionally 2^-22 absolute (results near 0 for inputs near 1);
//  * sin/cos: 2^-21 absolute on |x| <= 4 (sin.approx's documented absolute error bound);
//  * softmax: (N + 8) * 2^-24 relative (N-term sum plus exp and division error).
#include "conformance_util.h"

#include <algorithm>

using namespace conformance;

namespace {

TEST(ConformanceMath, TranscendentalsFp32) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def tr(x_ptr, p_ptr, o, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    p = tl.load(p_ptr + offs)
    tl.store(o + 0 * N + offs, tl.exp(x))
    tl.store(o + 1 * N + offs, tl.exp2(x))
    tl.store(o + 2 * N + offs, tl.log(p))
    tl.store(o + 3 * N + offs, tl.log2(p))
    tl.store(o + 4 * N + offs, tl.sqrt(p))
    tl.store(o + 5 * N + offs, tl.rsqrt(p))
    tl.store(o + 6 * N + offs, tl.sin(x))
    tl.store(o + 7 * N + offs, tl.cos(x))
    tl.store(o + 8 * N + offs, tl.erf(x))
    tl.store(o + 9 * N + offs, tl.sigmoid(x))
    tl.store(o + 10 * N + offs, tl.fdiv(x, p))
    tl.store(o + 11 * N + offs, x.exp() + 0.0)
)";
  const int n = 128;
  auto x = rand_f32(n, -4.f, 4.f);
  auto p = rand_f32(n, 0.01f, 50.f);
  Case c(src, "tr", "*fp32, *fp32, *fp32, 128");
  c.in(x).in(p).out<float>(12 * n);
  auto o = c.run({1}).get<float>(2);
  auto slice = [&](int k) { return std::vector<float>(o.begin() + k * n, o.begin() + (k + 1) * n); };
  std::vector<double> w(n);
  const double ulp4 = 0x1p-21;
  auto check = [&](int k, auto fn, double rel, double abs, const char* what) {
    for (int i = 0; i < n; ++i) w[i] = fn(i);
    expect_close(slice(k), w, rel, abs, what);
  };
  check(0, [&](int i) { return std::exp(double(x[i])); }, ulp4, 0, "exp");
  check(1, [&](int i) { return std::exp2(double(x[i])); }, ulp4, 0, "exp2");
  check(2, [&](int i) { return std::log(double(p[i])); }, ulp4, 0x1p-22, "log");
  check(3, [&](int i) { return std::log2(double(p[i])); }, ulp4, 0x1p-22, "log2");
  check(4, [&](int i) { return std::sqrt(double(p[i])); }, ulp4, 0, "sqrt");
  check(5, [&](int i) { return 1.0 / std::sqrt(double(p[i])); }, ulp4, 0, "rsqrt");
  check(6, [&](int i) { return std::sin(double(x[i])); }, 0, 0x1p-21, "sin");
  check(7, [&](int i) { return std::cos(double(x[i])); }, 0, 0x1p-21, "cos");
  check(8, [&](int i) { return std::erf(double(x[i])); }, ulp4, 0, "erf");
  check(9, [&](int i) { return 1.0 / (1.0 + std::exp(-double(x[i]))); }, ulp4, 0, "sigmoid");
  check(10, [&](int i) { return double(x[i]) / p[i]; }, ulp4, 0, "fdiv");
  check(11, [&](int i) { return std::exp(double(x[i])); }, ulp4, 0, "x.exp()");
}

TEST(ConformanceMath, ExactlyRoundedOps) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def ex(x_ptr, y_ptr, z_ptr, o, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = tl.load(z_ptr + offs)
    tl.store(o + 0 * N + offs, tl.sqrt_rn(tl.abs(x)))
    tl.store(o + 1 * N + offs, tl.div_rn(x, y))
    tl.store(o + 2 * N + offs, tl.fma(x, y, z))
    tl.store(o + 3 * N + offs, tl.floor(x))
    tl.store(o + 4 * N + offs, tl.ceil(x))
    tl.store(o + 5 * N + offs, tl.abs(x))
    tl.store(o + 6 * N + offs, tl.maximum(x, y))
    tl.store(o + 7 * N + offs, tl.minimum(x, y))
    tl.store(o + 8 * N + offs, tl.clamp(x, -1.5, 2.25))
    tl.store(o + 9 * N + offs, tl.where(x > y, x - y, z))
    tl.store(o + 10 * N + offs, x / y)
    tl.store(o + 11 * N + offs, x * y + z)
)";
  const int n = 128;
  auto x = rand_f32(n, -8.f, 8.f), y = rand_f32(n, -8.f, 8.f), z = rand_f32(n, -8.f, 8.f);
  x[0] = 2.0f, x[1] = -2.0f, x[2] = 0.5f;  // integral / half values for floor/ceil
  Case c(src, "ex", "*fp32, *fp32, *fp32, *fp32, 128");
  c.in(x).in(y).in(z).out<float>(12 * n);
  auto o = c.run({1}).get<float>(3);
  for (int i = 0; i < n; ++i) {
    double X = x[i], Y = y[i];
    EXPECT_EQ(bits(o[0 * n + i]), bits(static_cast<float>(std::sqrt(std::fabs(X))))) << "sqrt_rn " << X;
    EXPECT_EQ(bits(o[1 * n + i]), bits(static_cast<float>(X / Y))) << "div_rn " << X << "/" << Y;
    EXPECT_EQ(bits(o[2 * n + i]), bits(std::fma(x[i], y[i], z[i]))) << "fma";
    EXPECT_EQ(o[3 * n + i], std::floor(x[i])) << "floor " << X;
    EXPECT_EQ(o[4 * n + i], std::ceil(x[i])) << "ceil " << X;
    EXPECT_EQ(bits(o[5 * n + i]), bits(std::fabs(x[i])));
    EXPECT_EQ(o[6 * n + i], std::max(x[i], y[i]));
    EXPECT_EQ(o[7 * n + i], std::min(x[i], y[i]));
    EXPECT_EQ(o[8 * n + i], std::min(std::max(x[i], -1.5f), 2.25f));
    EXPECT_EQ(bits(o[9 * n + i]), bits(x[i] > y[i] ? x[i] - y[i] : z[i]));
    // `/` on fp32 tensors is the IEEE division (precise by default upstream)
    EXPECT_EQ(bits(o[10 * n + i]), bits(x[i] / y[i])) << "x / y";
    // contraction off: a*b rounded, then + c rounded
    float prod = x[i] * y[i];
    EXPECT_EQ(bits(o[11 * n + i]), bits(prod + z[i])) << "x * y + z must not be fused";
  }
}

TEST(ConformanceMath, SoftmaxAndFp64) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def smx(x_ptr, d_ptr, o_ptr, od_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + offs, tl.softmax(x))
    d = tl.load(d_ptr + offs)
    e = tl.exp(d)
    tl.static_assert(e.dtype == tl.float64)
    tl.store(od_ptr + offs, e)
    tl.store(od_ptr + N + offs, tl.sqrt(tl.abs(d)))
    tl.store(od_ptr + 2 * N + offs, tl.log(tl.abs(d)))
    tl.store(od_ptr + 3 * N + offs, tl.sin(d))
)";
  const int n = 64;
  auto x = rand_f32(n, -5.f, 5.f);
  auto d = rand_f64(n, -4., 4.);
  Case c(src, "smx", "*fp32, *fp64, *fp32, *fp64, 64");
  c.in(x).in(d).out<float>(n).out<double>(4 * n);
  auto r = c.run({1});
  auto o = r.get<float>(2);
  auto od = r.get<double>(3);
  double mx = -1e300, s = 0;
  for (auto v : x) mx = std::max<double>(mx, v);
  for (auto v : x) s += std::exp(v - mx);
  std::vector<double> w(n);
  for (int i = 0; i < n; ++i) w[i] = std::exp(x[i] - mx) / s;
  expect_close(o, w, (n + 8) * 0x1p-24, 0, "softmax");
  for (int i = 0; i < n; ++i) {
    // fp64: 4 ulp of double (2^-50 relative); sqrt_rn is fp32-only upstream, so tl.sqrt
    // (correctly rounded on fp64 upstream) is checked to 1 ulp.
    EXPECT_NEAR(od[i], std::exp(d[i]), 0x1p-50 * std::exp(d[i])) << "exp fp64";
    EXPECT_NEAR(od[n + i], std::sqrt(std::fabs(d[i])), 0x1p-52 * std::sqrt(std::fabs(d[i]))) << "sqrt fp64";
    EXPECT_NEAR(od[2 * n + i], std::log(std::fabs(d[i])), 0x1p-50 * std::fabs(std::log(std::fabs(d[i]))) + 0x1p-52);
    EXPECT_NEAR(od[3 * n + i], std::sin(d[i]), 0x1p-50);
    EXPECT_FALSE(std::isnan(od[i]));
  }
}

TEST(ConformanceMath, IntegerMinMaxAbsCdivWhere) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def imath(a_ptr, b_ptr, o, N: tl.constexpr, D: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(o + 0 * N + offs, tl.maximum(a, b))
    tl.store(o + 1 * N + offs, tl.minimum(a, b))
    tl.store(o + 2 * N + offs, tl.abs(a))
    tl.store(o + 3 * N + offs, tl.cdiv(tl.abs(a), D))
    tl.store(o + 4 * N + offs, tl.where(a > b, a, 7))
    tl.store(o + 5 * N + offs, offs * 0 + tl.cdiv(D, 3) + tl.cdiv(10, D))
    tl.store(o + 6 * N + offs, (a & b) ^ (a | 3))
    tl.store(o + 7 * N + offs, ~a)
    tl.store(o + 8 * N + offs, -a)
)";
  const int n = 64;
  const int D = 7;
  auto a = rand_int<int32_t>(n, -1000, 1000), b = rand_int<int32_t>(n, -1000, 1000);
  Case c(src, "imath", "*i32, *i32, *i32, 64, 7");
  c.in(a).in(b).out<int32_t>(9 * n);
  auto o = c.run({1}).get<int32_t>(2);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(o[0 * n + i], std::max(a[i], b[i]));
    EXPECT_EQ(o[1 * n + i], std::min(a[i], b[i]));
    EXPECT_EQ(o[2 * n + i], std::abs(a[i]));
    EXPECT_EQ(o[3 * n + i], (std::abs(a[i]) + D - 1) / D);
    EXPECT_EQ(o[4 * n + i], a[i] > b[i] ? a[i] : 7);
    EXPECT_EQ(o[5 * n + i], 3 + 2);  // cdiv(7, 3) = 3, cdiv(10, 7) = 2
    EXPECT_EQ(o[6 * n + i], (a[i] & b[i]) ^ (a[i] | 3));
    EXPECT_EQ(o[7 * n + i], ~a[i]);
    EXPECT_EQ(o[8 * n + i], -a[i]);
  }
}

TEST(ConformanceMath, ExpOfFp16IsAnError) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def bad(x_ptr, o_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(o_ptr + tl.arange(0, 16), tl.exp(x))
)";
  auto e = expect_compile_error(src, "bad", "*fp16, *fp16", "");
  EXPECT_EQ(e.line(), 8);
}

}  // namespace
