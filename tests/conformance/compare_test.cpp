// Comparisons: fp32 (all six operators, exact), unsigned compares above 2^31, mixed
// int32/uint32 operands compare after C's usual conversion to uint32, int8 vs int32
// tensors, and comparisons with Python float scalars on int tensors (computed in fp32).
#include "conformance_util.h"

using namespace conformance;

namespace {

TEST(ConformanceCompare, AllOperatorsAndPromotion) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def cmp(x_ptr, y_ptr, u_ptr, v_ptr, s_ptr, c_ptr, o, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    u = tl.load(u_ptr + offs)
    v = tl.load(v_ptr + offs)
    s = tl.load(s_ptr + offs)
    c = tl.load(c_ptr + offs)
    f = (x < y).to(tl.int32) + 2 * (x <= y).to(tl.int32) + 4 * (x > y).to(tl.int32) + 8 * (x >= y).to(tl.int32) + 16 * (x == y).to(tl.int32) + 32 * (x != y).to(tl.int32)
    tl.store(o + offs, f)
    tl.store(o + N + offs, (u > v).to(tl.int32) + 2 * (u < 3000000000).to(tl.int32))
    tl.store(o + 2 * N + offs, (s < u).to(tl.int32))
    tl.store(o + 3 * N + offs, (c < s).to(tl.int32) + 2 * (c == s).to(tl.int32))
    tl.store(o + 4 * N + offs, (s > 0.5).to(tl.int32) + 2 * (x > 1).to(tl.int32))
)";
  const int n = 64;
  auto x = rand_f32(n, -3.f, 3.f), y = rand_f32(n, -3.f, 3.f);
  for (int i = 0; i < 8; ++i) y[i] = x[i];  // equal pairs
  auto u = rand_int<uint32_t>(n, 1, 4294967295LL), v = rand_int<uint32_t>(n, 1, 4294967295LL);
  auto s = rand_int<int32_t>(n, -5, 5);
  auto c8 = rand_int<int8_t>(n, -5, 5);
  Case c(src, "cmp", "*fp32, *fp32, *u32, *u32, *i32, *i8, *i32, 64");
  c.in(x).in(y).in(u).in(v).in(s).in(c8).out<int32_t>(5 * n);
  auto o = c.run({1}).get<int32_t>(6);
  for (int i = 0; i < n; ++i) {
    int f = (x[i] < y[i]) + 2 * (x[i] <= y[i]) + 4 * (x[i] > y[i]) + 8 * (x[i] >= y[i]) + 16 * (x[i] == y[i]) +
            32 * (x[i] != y[i]);
    EXPECT_EQ(o[i], f) << x[i] << " vs " << y[i];
    EXPECT_EQ(o[n + i], int(u[i] > v[i]) + 2 * int(u[i] < 3000000000u)) << u[i] << " vs " << v[i];
    // int32 vs uint32: both converted to uint32 (negative s becomes huge)
    EXPECT_EQ(o[2 * n + i], int(static_cast<uint32_t>(s[i]) < u[i])) << s[i] << " < " << u[i];
    EXPECT_EQ(o[3 * n + i], int(c8[i] < s[i]) + 2 * int(c8[i] == s[i]));
    EXPECT_EQ(o[4 * n + i], int(static_cast<float>(s[i]) > 0.5f) + 2 * int(x[i] > 1.0f));
  }
}

}  // namespace
