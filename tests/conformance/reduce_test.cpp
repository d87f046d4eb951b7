// Reductions along each axis, with and without keep_dims: sum/max/min/argmax/argmin/
// xor_sum and tl.reduce with a jit combine function, for fp32 and integers; sum of int8
// widens to int32; argmax/argmin ties pick the lowest index.
// Float sums: expected in float64; tolerance n * 2^-24 * sum|x| (any summation order of
// n fp32 additions is within that bound of the exact sum). max/min/arg* are exact.
#include "conformance_util.h"

#include <algorithm>

using namespace conformance;

namespace {

const char* kReduce2D = R"(
import triton
import triton.language as tl

@triton.jit
def red(x_ptr, s0, s1, mx0, mn1, am0, an1, sk, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    tl.store(s0 + c, tl.sum(x, axis=0))
    tl.store(s1 + r, x.sum(axis=1))
    tl.store(mx0 + c, tl.max(x, axis=0))
    tl.store(mn1 + r, tl.min(x, 1))
    tl.store(am0 + c, tl.argmax(x, axis=0))
    tl.store(an1 + r, tl.argmin(x, axis=1))
    k = tl.sum(x, axis=1, keep_dims=True)
    tl.static_assert(len(k.shape) == 2)
    tl.store(sk + r[:, None] * C + c[None, :], x - k)
)";

TEST(ConformanceReduce, Float2DEachAxis) {
  const int R = 16, C = 32;
  auto x = rand_f32(R * C);
  Case c(kReduce2D, "red", "*fp32, *fp32, *fp32, *fp32, *fp32, *i32, *i32, *fp32, 16, 32");
  c.in(x).out<float>(C).out<float>(R).out<float>(C).out<float>(R).out<int32_t>(C).out<int32_t>(R).out<float>(R * C);
  auto res = c.run({1});
  auto s0 = res.get<float>(1), s1 = res.get<float>(2), mx0 = res.get<float>(3), mn1 = res.get<float>(4);
  auto am0 = res.get<int32_t>(5), an1 = res.get<int32_t>(6);
  auto sk = res.get<float>(7);
  for (int j = 0; j < C; ++j) {
    double s = 0, a = 0;
    float mx = -INFINITY;
    int am = 0;
    for (int i = 0; i < R; ++i) {
      s += x[i * C + j];
      a += std::fabs(x[i * C + j]);
      if (x[i * C + j] > mx) mx = x[i * C + j], am = i;
    }
    EXPECT_NEAR(s0[j], s, R * 0x1p-24 * a) << j;
    EXPECT_EQ(mx0[j], mx) << j;
    EXPECT_EQ(am0[j], am) << j;
  }
  for (int i = 0; i < R; ++i) {
    double s = 0, a = 0;
    float mn = INFINITY;
    int an = 0;
    for (int j = 0; j < C; ++j) {
      s += x[i * C + j];
      a += std::fabs(x[i * C + j]);
      if (x[i * C + j] < mn) mn = x[i * C + j], an = j;
    }
    EXPECT_NEAR(s1[i], s, C * 0x1p-24 * a) << i;
    EXPECT_EQ(mn1[i], mn) << i;
    EXPECT_EQ(an1[i], an) << i;
    for (int j = 0; j < C; ++j) {
      // x - rowsum: the row sum is within C*eps*a, then one more rounding.
      double want = x[i * C + j] - s;
      EXPECT_NEAR(sk[i * C + j], want, C * 0x1p-24 * a + 0x1p-23 * std::fabs(want)) << i << "," << j;
    }
  }
}

TEST(ConformanceReduce, IntEachAxisAndTies) {
  const int R = 16, C = 32;
  // Small range so argmax/argmin ties are frequent: the lowest index must win.
  auto x = rand_int<int32_t>(R * C, -5, 5);
  Case c(kReduce2D, "red", "*i32, *i32, *i32, *i32, *i32, *i32, *i32, *i32, 16, 32");
  c.in(x).out<int32_t>(C).out<int32_t>(R).out<int32_t>(C).out<int32_t>(R).out<int32_t>(C).out<int32_t>(R).out<int32_t>(
      R * C);
  auto res = c.run({1});
  auto s0 = res.get<int32_t>(1), s1 = res.get<int32_t>(2), mx0 = res.get<int32_t>(3), mn1 = res.get<int32_t>(4);
  auto am0 = res.get<int32_t>(5), an1 = res.get<int32_t>(6), sk = res.get<int32_t>(7);
  for (int j = 0; j < C; ++j) {
    int s = 0, mx = INT32_MIN, am = 0;
    for (int i = 0; i < R; ++i) {
      s += x[i * C + j];
      if (x[i * C + j] > mx) mx = x[i * C + j], am = i;
    }
    EXPECT_EQ(s0[j], s);
    EXPECT_EQ(mx0[j], mx);
    EXPECT_EQ(am0[j], am) << "argmax tie must pick the lowest index, column " << j;
  }
  for (int i = 0; i < R; ++i) {
    int s = 0, mn = INT32_MAX, an = 0;
    for (int j = 0; j < C; ++j) {
      s += x[i * C + j];
      if (x[i * C + j] < mn) mn = x[i * C + j], an = j;
    }
    EXPECT_EQ(s1[i], s);
    EXPECT_EQ(mn1[i], mn);
    EXPECT_EQ(an1[i], an) << "argmin tie must pick the lowest index, row " << i;
    for (int j = 0; j < C; ++j) EXPECT_EQ(sk[i * C + j], x[i * C + j] - s);
  }
}

TEST(ConformanceReduce, Int8SumWidensXorSumAndFullReduce) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def red8(x_ptr, s_ptr, x_ptr2, t_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    s = tl.sum(x)
    tl.static_assert(s.dtype == tl.int32)
    tl.store(s_ptr, s)
    tl.store(s_ptr + 1, tl.xor_sum(x.to(tl.int32), axis=0))
    tl.store(s_ptr + 2, tl.max(x, axis=0).to(tl.int32))
    y = tl.load(x_ptr2 + tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(t_ptr, tl.sum(y, axis=None))
    tl.store(t_ptr + 1, tl.max(tl.max(y, axis=1), axis=0))
    m = tl.sum(y, axis=0, keep_dims=True)
    tl.static_assert(m.shape[0] == 1)
    tl.store(t_ptr + 2 + tl.arange(0, N)[None, :], m)
)";
  const int n = 32;
  auto x = rand_int<int8_t>(n, 60, 127);  // sum far exceeds int8
  auto y = rand_int<int64_t>(n * n, -(1LL << 40), 1LL << 40);
  Case c(src, "red8", "*i8, *i32, *i64, *i64, 32");
  c.in(x).out<int32_t>(3).in(y).out<int64_t>(2 + n);
  auto res = c.run({1});
  auto s = res.get<int32_t>(1);
  auto t = res.get<int64_t>(3);
  int32_t sum = 0, xr = 0, mx = -128;
  for (auto v : x) sum += v, xr ^= v, mx = std::max<int32_t>(mx, v);
  EXPECT_EQ(s[0], sum);
  EXPECT_EQ(s[1], xr);
  EXPECT_EQ(s[2], mx);
  int64_t ys = 0, ym = INT64_MIN;
  for (auto v : y) ys += v, ym = std::max(ym, v);
  EXPECT_EQ(t[0], ys);
  EXPECT_EQ(t[1], ym);
  for (int j = 0; j < n; ++j) {
    int64_t cs = 0;
    for (int i = 0; i < n; ++i) cs += y[i * n + j];
    EXPECT_EQ(t[2 + j], cs) << j;
  }
}

TEST(ConformanceReduce, CustomCombineFunction) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def _prod(a, b):
    return a * b

@triton.jit
def _absmax(a, b):
    return tl.maximum(tl.abs(a), tl.abs(b))

@triton.jit
def cred(x_ptr, i_ptr, o_ptr, p_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    tl.store(o_ptr + r, tl.reduce(x, 1, _absmax))
    tl.store(o_ptr + R + c, tl.reduce(x, axis=0, combine_fn=_absmax))
    k = tl.load(i_ptr + r[:, None] * C + c[None, :])
    tl.store(p_ptr + r, tl.reduce(k, 1, _prod))
    kk = tl.reduce(k, 1, _prod, keep_dims=True)
    tl.store(p_ptr + R + r[:, None] + c[None, :] * 0, kk)
)";
  const int R = 8, C = 4;
  auto x = rand_f32(R * C);
  auto k = rand_int<int32_t>(R * C, -3, 3);
  Case c(src, "cred", "*fp32, *i32, *fp32, *i32, 8, 4");
  c.in(x).in(k).out<float>(R + C).out<int32_t>(2 * R);
  auto res = c.run({1});
  auto o = res.get<float>(2);
  auto p = res.get<int32_t>(3);
  for (int i = 0; i < R; ++i) {
    float m = 0;
    int32_t pr = 1;
    for (int j = 0; j < C; ++j) m = std::max(m, std::fabs(x[i * C + j])), pr *= k[i * C + j];
    EXPECT_EQ(o[i], m);
    EXPECT_EQ(p[i], pr);
    EXPECT_EQ(p[R + i], pr);
  }
  for (int j = 0; j < C; ++j) {
    float m = 0;
    for (int i = 0; i < R; ++i) m = std::max(m, std::fabs(x[i * C + j]));
    EXPECT_EQ(o[R + j], m);
  }
}

}  // namespace
