// Every storage dtype (int8..int64, uint8..uint64, fp16, bf16, fp32, fp64) through
// load, arithmetic (x * y + x - y, wrapping for integers), comparison/where, and store.
// Integer expectations use unsigned (modular) arithmetic truncated to the width; float
// inputs are small integers so every intermediate is exact in every float format.
#include "conformance_util.h"
#include "halfbits.h"

using namespace conformance;

namespace {

const char* kDt = R"(
import triton
import triton.language as tl

@triton.jit
def dt(x_ptr, y_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.static_assert((x * y).dtype == x.dtype)
    tl.store(o_ptr + offs, x * y + x - y)
    tl.store(o_ptr + N + offs, tl.where(x < y, x, y))
    tl.store(o_ptr + 2 * N + offs, -x if x.dtype.is_floating() or x.dtype.is_int_signed() else ~x)
    tl.store(o_ptr + 3 * N + offs, tl.zeros_like(x) + 1)
)";

template <class T>
void run_int(const char* sig) {
  const int n = 64;
  using U = std::make_unsigned_t<T>;
  int64_t lo = std::is_signed_v<T> ? static_cast<int64_t>(std::numeric_limits<T>::min()) : 1;
  int64_t hi = sizeof(T) == 8 ? INT64_MAX : static_cast<int64_t>(std::numeric_limits<T>::max());
  auto x = rand_int<T>(n, lo, hi), y = rand_int<T>(n, lo, hi);
  Case c(kDt, "dt", std::string("*") + sig + ", *" + sig + ", *" + sig + ", 64");
  c.in(x);
  c.in(y);
  c.out<T>(4 * n);
  auto o = c.run({1}).template get<T>(2);
  for (int i = 0; i < n; ++i) {
    U a = static_cast<U>(x[i]), b = static_cast<U>(y[i]);
    T want = static_cast<T>(static_cast<U>(static_cast<U>(a * b) + a - b));
    EXPECT_EQ(o[i], want) << sig << " " << +x[i] << "," << +y[i];
    EXPECT_EQ(o[n + i], std::min(x[i], y[i])) << sig;
    T neg = std::is_signed_v<T> ? static_cast<T>(static_cast<U>(U(0) - a)) : static_cast<T>(~a);
    EXPECT_EQ(o[2 * n + i], neg) << sig;
    EXPECT_EQ(o[3 * n + i], T(1)) << sig;
  }
}

TEST(ConformanceDtypes, Int8) { run_int<int8_t>("i8"); }
TEST(ConformanceDtypes, Int16) { run_int<int16_t>("i16"); }
TEST(ConformanceDtypes, Int32) { run_int<int32_t>("i32"); }
TEST(ConformanceDtypes, Int64) { run_int<int64_t>("i64"); }
TEST(ConformanceDtypes, Uint8) { run_int<uint8_t>("u8"); }
TEST(ConformanceDtypes, Uint16) { run_int<uint16_t>("u16"); }
TEST(ConformanceDtypes, Uint32) { run_int<uint32_t>("u32"); }
TEST(ConformanceDtypes, Uint64) { run_int<uint64_t>("u64"); }

// Floats: T is the storage type, enc/dec map small integers to/from its bits.
template <class T, class Enc, class Dec>
void run_float(const char* sig, Enc enc, Dec dec) {
  const int n = 64;
  auto xi = rand_int<int32_t>(n, -8, 8), yi = rand_int<int32_t>(n, -8, 8);
  std::vector<T> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = enc(xi[i]), y[i] = enc(yi[i]);
  Case c(kDt, "dt", std::string("*") + sig + ", *" + sig + ", *" + sig + ", 64");
  c.in(x);
  c.in(y);
  c.out<T>(4 * n);
  auto o = c.run({1}).template get<T>(2);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(dec(o[i]), xi[i] * yi[i] + xi[i] - yi[i]) << sig;
    EXPECT_EQ(dec(o[n + i]), std::min(xi[i], yi[i])) << sig;
    EXPECT_EQ(dec(o[2 * n + i]), -xi[i]) << sig;
    EXPECT_EQ(dec(o[3 * n + i]), 1.0) << sig;
  }
}

TEST(ConformanceDtypes, Fp16) {
  run_float<uint16_t>("fp16", [](int v) { return exact_half(v); }, [](uint16_t h) { return double(half_to_float(h)); });
}
TEST(ConformanceDtypes, Bf16) {
  run_float<uint16_t>("bf16", [](int v) { return bf16_rne(float(v)); }, [](uint16_t h) { return double(bf16_to_float(h)); });
}
TEST(ConformanceDtypes, Fp32) {
  run_float<float>("fp32", [](int v) { return float(v); }, [](float f) { return double(f); });
}
TEST(ConformanceDtypes, Fp64) {
  run_float<double>("fp64", [](int v) { return double(v); }, [](double f) { return f; });
}

TEST(ConformanceDtypes, Fp16ArithmeticRoundsToFp16) {
  // fp16 + fp16 is computed in fp16: the sum of random fp16 values must equal the fp32 sum
  // rounded once to fp16 (double rounding through fp32 is innocuous: 24 >= 2 * 11 + 2).
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def h(x_ptr, y_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(o_ptr + offs, x + y)
    tl.store(o_ptr + N + offs, x * y)
)";
  const int n = 128;
  auto xf = rand_f32(n, -100.f, 100.f), yf = rand_f32(n, -100.f, 100.f);
  std::vector<uint16_t> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = half_rne(xf[i]), y[i] = half_rne(yf[i]);
  Case c(src, "h", "*fp16, *fp16, *fp16, 128");
  c.in(x).in(y).out<uint16_t>(2 * n);
  auto o = c.run({1}).get<uint16_t>(2);
  for (int i = 0; i < n; ++i) {
    float a = half_to_float(x[i]), b = half_to_float(y[i]);
    EXPECT_EQ(o[i], half_rne(a + b)) << a << "+" << b;
    // fp32 product of two 11-bit significands is exact (22 bits)
    EXPECT_EQ(o[n + i], half_rne(a * b)) << a << "*" << b;
  }
}

}  // namespace
