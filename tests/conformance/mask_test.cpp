// Masked loads and stores: `other` values, masked-out stores leave the (poisoned) output
// untouched, scalar loads/stores, pointer arithmetic with int64 offsets, multi-program grids.
#include "conformance_util.h"

using namespace conformance;

namespace {

TEST(ConformanceMask, LoadOtherAndMaskedStore) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def masked(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=-7.5)
    tl.store(y_ptr + offs, x)
    tl.store(z_ptr + offs, x * 2.0, mask=m)
)";
  const int n = 100, block = 32, grid = 4;  // 128 lanes, 28 masked out
  auto x = rand_f32(128);
  Case c(src, "masked", "*fp32, *fp32, *fp32, i32, 32");
  c.in(x).out<float>(128).out<float>(128).scalar(n);
  auto r = c.run({grid});
  auto y = r.get<float>(1), z = r.get<float>(2);
  for (int i = 0; i < 128; ++i) {
    if (i < n) {
      EXPECT_EQ(bits(y[i]), bits(x[i])) << i;
      EXPECT_EQ(bits(z[i]), bits(x[i] * 2.0f)) << i;
    } else {
      EXPECT_EQ(y[i], -7.5f) << i;
      EXPECT_TRUE(std::isnan(z[i])) << "masked-out store wrote element " << i;
    }
  }
  (void)block;
}

TEST(ConformanceMask, IntOtherBroadcastMask2D) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def m2d(x_ptr, y_ptr, R, C, BR: tl.constexpr, BC: tl.constexpr):
    r = tl.arange(0, BR)[:, None]
    c = tl.arange(0, BC)[None, :]
    ptrs = x_ptr + r * C + c
    m = (r < R) & (c < C)
    x = tl.load(ptrs, mask=m, other=0)
    tl.store(y_ptr + r * BC + c, x + 1)
    tl.store(y_ptr + BR * BC + r * BC + c, x, mask=c < 3)
)";
  const int R = 5, C = 6, BR = 8, BC = 8;
  auto x = rand_int<int16_t>(R * C, -1000, 1000);
  Case c(src, "m2d", "*i16, *i16, i32, i32, 8, 8");
  c.in(x).out<int16_t>(2 * BR * BC).scalar(R).scalar(C);
  auto res = c.run({1});
  auto y = res.get<int16_t>(1);
  for (int i = 0; i < BR; ++i)
    for (int j = 0; j < BC; ++j) {
      int16_t v = (i < R && j < C) ? x[i * C + j] : 0;
      EXPECT_EQ(y[i * BC + j], v + 1) << i << "," << j;
      if (j < 3)
        EXPECT_EQ(y[BR * BC + i * BC + j], v);
      else
        EXPECT_EQ(y[BR * BC + i * BC + j], poison<int16_t>()) << "masked-out store wrote " << i << "," << j;
    }
}

TEST(ConformanceMask, ScalarLoadStoreAndScalarMask) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def scal(x_ptr, o_ptr, k):
    a = tl.load(x_ptr + k)
    b = tl.load(x_ptr)
    tl.store(o_ptr, a * b)
    tl.store(o_ptr + 1, a, mask=k > 100)
    tl.store(o_ptr + 2, b, mask=k < 100)
    c = tl.load(x_ptr + 1000, mask=k > 100, other=3.0)
    tl.store(o_ptr + 3, c)
)";
  auto x = rand_f32(16);
  Case c(src, "scal", "*fp32, *fp32, i32");
  c.in(x).out<float>(4).scalar(5);
  auto r = c.run({1});
  auto o = r.get<float>(1);
  EXPECT_EQ(bits(o[0]), bits(x[5] * x[0]));
  EXPECT_TRUE(std::isnan(o[1]));
  EXPECT_EQ(bits(o[2]), bits(x[0]));
  EXPECT_EQ(o[3], 3.0f);
}

TEST(ConformanceMask, Int64Offsets) {
  // Offsets computed in int64 (scalar i64 argument times a stride): the low part of the
  // pointer math must not be truncated to 32 bits before the add.
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def off64(x_ptr, o_ptr, base, stride, N: tl.constexpr):
    offs = tl.arange(0, N).to(tl.int64)
    big = base * stride
    tl.static_assert(big.dtype == tl.int64)
    p = x_ptr + (big - 4294967296 + offs)
    tl.store(o_ptr + offs, tl.load(p))
    q = o_ptr + N
    tl.store(q + offs * 2, tl.load(x_ptr + offs * 2 + 1))
)";
  const int n = 16;
  auto x = rand_f32(64);
  // base*stride = 2^32 + 8 -> p = x_ptr + 8 + offs
  int64_t base = 4294967304LL / 8, stride = 8;
  Case c(src, "off64", "*fp32, *fp32, i64, i64, 16");
  c.in(x).out<float>(3 * n).scalar(base).scalar(stride);
  auto r = c.run({1});
  auto o = r.get<float>(1);
  for (int i = 0; i < n; ++i) EXPECT_EQ(bits(o[i]), bits(x[8 + i])) << i;
  for (int i = 0; i < n; ++i) EXPECT_EQ(bits(o[n + 2 * i]), bits(x[2 * i + 1])) << i;
  for (int i = 0; i < n; ++i) EXPECT_TRUE(std::isnan(o[n + 2 * i + 1])) << i;
}

TEST(ConformanceMask, OtherWithoutMaskIsAnError) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def bad(x_ptr, o_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16), other=1.0)
    tl.store(o_ptr + tl.arange(0, 16), x)
)";
  auto e = expect_compile_error(src, "bad", "*fp32, *fp32", "mask");
  EXPECT_EQ(e.line(), 7);
}

}  // namespace
