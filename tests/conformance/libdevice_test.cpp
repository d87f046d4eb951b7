// libdevice functions that map onto tritium operations (builtins_libdevice.cpp), on the
// interpreter and the CPU backend (bit-identical: the harness), against float64 / integer
// references computed here. Tolerances:
//  * fast_sinf / fast_cosf: 2^-21 absolute on |x| <= 4 (sin.approx's documented bound, which
//    upstream's fast forms meet); fast_tanf, fast_log2f, fast_log10f, fast_exp10f, fast_powf:
//    4 ulp (2^-21 relative), the bound ConformanceMath uses for the hardware approximations;
//  * add_rn / sub_rn / mul_rn / fma_rn: exact (the double result rounded once to fp32 is the
//    correctly rounded one: sums and products of two floats and fma are exact in double
//    before that single rounding, except fma, whose double result is within 2^-53 relative
//    and so rounds the same away from halfway cases, which random inputs do not hit);
//  * bit reinterpretations and llrint: exact.
#include <cmath>
#include <cstring>

#include "conformance_util.h"

using namespace conformance;

namespace {

TEST(ConformanceLibdevice, FastFormsRoundedOpsBitcastsAndLlrint) {
  const char* src = R"(
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice

@triton.jit
def k(x_ptr, p_ptr, o, bits, ll, dd, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    p = tl.load(p_ptr + offs)
    tl.store(o + 0 * N + offs, libdevice.fast_sinf(x))
    tl.store(o + 1 * N + offs, libdevice.fast_cosf(x))
    tl.store(o + 2 * N + offs, libdevice.fast_tanf(x * 0.3))
    tl.store(o + 3 * N + offs, libdevice.fast_log2f(p))
    tl.store(o + 4 * N + offs, libdevice.fast_log10f(p))
    tl.store(o + 5 * N + offs, libdevice.fast_exp10f(x))
    tl.store(o + 6 * N + offs, libdevice.fast_powf(p, x))
    tl.store(o + 7 * N + offs, libdevice.add_rn(x, p))
    tl.store(o + 8 * N + offs, libdevice.sub_rn(x, p))
    tl.store(o + 9 * N + offs, libdevice.mul_rn(x, p))
    tl.store(o + 10 * N + offs, libdevice.fma_rn(x, p, x))
    tl.store(o + 11 * N + offs, libdevice.uint_as_float(libdevice.float_as_uint(x) ^ 0x80000000))
    tl.store(bits + offs, libdevice.float_as_int(p))
    tl.store(bits + N + offs, libdevice.float_as_uint(x).to(tl.int32, bitcast=True))
    tl.store(ll + offs, libdevice.llrint(x * 1000.0))
    tl.store(ll + N + offs, libdevice.double_as_longlong(p.to(tl.float64)))
    tl.store(dd + offs, libdevice.longlong_as_double(libdevice.double_as_longlong(x.to(tl.float64)) + 1))
)";
  const int n = 128;
  auto x = rand_f32(n, -4.f, 4.f);
  auto p = rand_f32(n, 0.01f, 50.f);
  x[0] = 0.0005f;  // x * 1000 = 0.5 (rounded): a tie for llrint's nearest-even
  x[1] = 0.0015f;
  Case c(src, "k", "*fp32, *fp32, *fp32, *i32, *i64, *fp64, 128");
  c.in(x).in(p).out<float>(12 * n).out<int32_t>(2 * n).out<int64_t>(2 * n).out<double>(n);
  auto res = c.run({1});
  auto o = res.get<float>(2);
  auto bits = res.get<int32_t>(3);
  auto ll = res.get<int64_t>(4);
  auto dd = res.get<double>(5);
  auto slice = [&](int k) { return std::vector<float>(o.begin() + k * n, o.begin() + (k + 1) * n); };
  std::vector<double> w(n);
  auto check = [&](int k, auto fn, double rel, double abs, const char* what) {
    for (int i = 0; i < n; ++i) w[i] = fn(i);
    expect_close(slice(k), w, rel, abs, what);
  };
  const double ulp4 = 0x1p-21;
  check(0, [&](int i) { return std::sin(double(x[i])); }, 0, 0x1p-21, "fast_sinf");
  check(1, [&](int i) { return std::cos(double(x[i])); }, 0, 0x1p-21, "fast_cosf");
  check(2, [&](int i) { return std::tan(double(float(x[i] * 0.3f))); }, ulp4, 0, "fast_tanf");
  check(3, [&](int i) { return std::log2(double(p[i])); }, ulp4, 0x1p-22, "fast_log2f");
  check(4, [&](int i) { return std::log10(double(p[i])); }, ulp4, 0x1p-22, "fast_log10f");
  check(5, [&](int i) { return std::pow(10.0, double(x[i])); }, ulp4, 0, "fast_exp10f");
  check(6, [&](int i) { return std::pow(double(p[i]), double(x[i])); }, ulp4, 0, "fast_powf");
  for (int i = 0; i < n; ++i) {
    const double xd = x[i], pd = p[i];
    ASSERT_EQ(o[7 * n + i], float(xd + pd)) << "add_rn " << i;
    ASSERT_EQ(o[8 * n + i], float(xd - pd)) << "sub_rn " << i;
    ASSERT_EQ(o[9 * n + i], float(xd * pd)) << "mul_rn " << i;
    ASSERT_EQ(o[10 * n + i], float(std::fma(xd, pd, xd))) << "fma_rn " << i;
    ASSERT_EQ(o[11 * n + i], -x[i]) << "sign flip through the bits " << i;
    int32_t pb, xb;
    std::memcpy(&pb, &p[i], 4);
    std::memcpy(&xb, &x[i], 4);
    ASSERT_EQ(bits[i], pb) << i;
    ASSERT_EQ(bits[n + i], xb) << i;
    ASSERT_EQ(ll[i], static_cast<int64_t>(std::nearbyint(double(x[i] * 1000.0f)))) << "llrint " << i;
    int64_t pdb;
    std::memcpy(&pdb, &pd, 8);
    ASSERT_EQ(ll[n + i], pdb) << i;
    int64_t xdb;
    std::memcpy(&xdb, &xd, 8);
    ++xdb;
    double next;
    std::memcpy(&next, &xdb, 8);
    ASSERT_EQ(dd[i], next) << "one ulp up through the bits " << i;
  }
  EXPECT_EQ(ll[0] % 2, 0) << "tie rounds to even";
}

TEST(ConformanceLibdevice, BitcastsCheckTheirArgumentType) {
  const char* src = R"(
import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def k(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4))
    tl.store(x_ptr + tl.arange(0, 4), libdevice.int_as_float(x))
)";
  tritium::CompileError e = expect_compile_error(
      src, "k", "*fp32", "libdevice.int_as_float: input arg types (fp32) do not match; every argument must be one of [int32]");
  EXPECT_EQ(e.line(), 9);
}

}  // namespace
