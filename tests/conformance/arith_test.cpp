// Elementwise arithmetic: fp32 + - * / % (fmod semantics: remainder has the dividend's
// sign) and unary minus, all bit-exact against the same IEEE fp32 operation in C++;
// `/` of two int tensors gives fp32; Python scalar operands on either side; integer
// overflow wraps (int8 127 + 1 == -128, uint8 250 + 10 == 4, int32 products).
#include "conformance_util.h"

using namespace conformance;

namespace {

TEST(ConformanceArith, Fp32BinaryOpsExact) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def fops(x_ptr, y_ptr, o, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(o + 0 * N + offs, x + y)
    tl.store(o + 1 * N + offs, x - y)
    tl.store(o + 2 * N + offs, x * y)
    tl.store(o + 3 * N + offs, x / y)
    tl.store(o + 4 * N + offs, x % y)
    tl.store(o + 5 * N + offs, -x)
    tl.store(o + 6 * N + offs, 2 * x - 1)
    tl.store(o + 7 * N + offs, 1.5 / x)
    tl.store(o + 8 * N + offs, 3 - x * 0.25)
    tl.store(o + 9 * N + offs, +x)
)";
  const int n = 128;
  auto x = rand_f32(n, -100.f, 100.f), y = rand_f32(n, -10.f, 10.f);
  Case c(src, "fops", "*fp32, *fp32, *fp32, 128");
  c.in(x).in(y).out<float>(10 * n);
  auto o = c.run({1}).get<float>(2);
  for (int i = 0; i < n; ++i) {
    float a = x[i], b = y[i];
    EXPECT_EQ(bits(o[i]), bits(a + b));
    EXPECT_EQ(bits(o[n + i]), bits(a - b));
    EXPECT_EQ(bits(o[2 * n + i]), bits(a * b));
    EXPECT_EQ(bits(o[3 * n + i]), bits(a / b)) << a << "/" << b;
    EXPECT_EQ(bits(o[4 * n + i]), bits(std::fmod(a, b))) << a << "%" << b << " (fmod)";
    EXPECT_EQ(bits(o[5 * n + i]), bits(-a));
    EXPECT_EQ(bits(o[6 * n + i]), bits(2.0f * a - 1.0f));
    EXPECT_EQ(bits(o[7 * n + i]), bits(1.5f / a));
    float q = a * 0.25f;
    EXPECT_EQ(bits(o[8 * n + i]), bits(3.0f - q));
    EXPECT_EQ(bits(o[9 * n + i]), bits(a));
  }
}

TEST(ConformanceArith, IntTrueDivAndScalarsAndWrap) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def iops(a_ptr, b_ptr, c_ptr, u_ptr, of, oi, o8, ou, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    c = tl.load(c_ptr + offs)
    u = tl.load(u_ptr + offs)
    q = a / b
    tl.static_assert(q.dtype == tl.float32)
    tl.store(of + offs, q)
    tl.store(oi + offs, a * b * 12345)
    tl.store(oi + N + offs, 7 - a)
    tl.store(oi + 2 * N + offs, a // -3)
    tl.store(oi + 3 * N + offs, a % -3)
    tl.store(o8 + offs, c + 1)
    tl.store(o8 + N + offs, c * 2)
    tl.store(ou + offs, u + 10)
    tl.store(ou + N + offs, u - 200)
)";
  const int n = 64;
  auto a = rand_int<int32_t>(n, -100000, 100000), b = rand_int<int32_t>(n, -1000, 1000);
  auto c8 = rand_int<int8_t>(n, -128, 127);
  auto u = rand_int<uint8_t>(n, 1, 255);
  c8[0] = 127;
  u[0] = 250;
  Case c(src, "iops", "*i32, *i32, *i8, *u8, *fp32, *i32, *i8, *u8, 64");
  c.in(a).in(b).in(c8).in(u).out<float>(n).out<int32_t>(4 * n).out<int8_t>(2 * n).out<uint8_t>(2 * n);
  auto r = c.run({1});
  auto of = r.get<float>(4);
  auto oi = r.get<int32_t>(5);
  auto o8 = r.get<int8_t>(6);
  auto ou = r.get<uint8_t>(7);
  for (int i = 0; i < n; ++i) {
    // int32 -> fp32 is exact for |v| <= 2^24, then one IEEE division
    EXPECT_EQ(bits(of[i]), bits(static_cast<float>(a[i]) / static_cast<float>(b[i])));
    uint32_t p = static_cast<uint32_t>(a[i]) * static_cast<uint32_t>(b[i]) * 12345u;
    EXPECT_EQ(oi[i], static_cast<int32_t>(p)) << "int32 product wraps";
    EXPECT_EQ(oi[n + i], 7 - a[i]);
    EXPECT_EQ(oi[2 * n + i], a[i] / -3) << a[i] << " // -3 (C truncation)";
    EXPECT_EQ(oi[3 * n + i], a[i] % -3) << a[i] << " % -3 (sign of dividend)";
    EXPECT_EQ(o8[i], static_cast<int8_t>(static_cast<uint8_t>(c8[i] + 1)));
    EXPECT_EQ(o8[n + i], static_cast<int8_t>(static_cast<uint8_t>(c8[i] * 2)));
    EXPECT_EQ(ou[i], static_cast<uint8_t>(u[i] + 10));
    EXPECT_EQ(ou[n + i], static_cast<uint8_t>(u[i] - 200));
  }
  EXPECT_EQ(o8[0], -128);
  EXPECT_EQ(ou[0], 4);
}

TEST(ConformanceArith, BitwiseOps) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def bits_k(a_ptr, b_ptr, o, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(o + offs, a & b)
    tl.store(o + N + offs, a | b)
    tl.store(o + 2 * N + offs, a ^ b)
    tl.store(o + 3 * N + offs, ~a)
    tl.store(o + 4 * N + offs, a & 0xFF)
    tl.store(o + 5 * N + offs, (a >> (b & 31)) ^ (a << 1))
)";
  const int n = 64;
  auto a = rand_int<int64_t>(n, INT64_MIN, INT64_MAX), b = rand_int<int64_t>(n, INT64_MIN, INT64_MAX);
  Case c(src, "bits_k", "*i64, *i64, *i64, 64");
  c.in(a).in(b).out<int64_t>(6 * n);
  auto o = c.run({1}).get<int64_t>(2);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(o[i], a[i] & b[i]);
    EXPECT_EQ(o[n + i], a[i] | b[i]);
    EXPECT_EQ(o[2 * n + i], a[i] ^ b[i]);
    EXPECT_EQ(o[3 * n + i], ~a[i]);
    EXPECT_EQ(o[4 * n + i], a[i] & 0xFF);
    int s = static_cast<int>(b[i] & 31);
    int64_t sh = a[i] >= 0 ? a[i] >> s : ~((~a[i]) >> s);  // arithmetic shift, spelled out
    EXPECT_EQ(o[5 * n + i], sh ^ static_cast<int64_t>(static_cast<uint64_t>(a[i]) << 1));
  }
}

}  // namespace
