// Control flow and Python-level language features: static and dynamic if/elif/else, for
// over range / tl.range / tl.static_range with loop-carried values, while, conditional expressions, and/or/not, min/max of constexprs,
// tl.static_assert. Expected values are computed with plain C++ loops.
#include "conformance_util.h"

using namespace conformance;

namespace {

TEST(ConformanceControl, StaticAndDynamicIf) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def branches(x_ptr, o_ptr, k, MODE: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if MODE == 0:
        y = x + 1
    elif MODE == 1:
        y = x * 2
    else:
        y = x - 3
    if k > 10:
        z = y * 10
    elif k > 5:
        z = y * 5
    else:
        z = y
    if k < 0:
        z = z + 1000
    tl.store(o_ptr + offs, z)
)";
  const int n = 32;
  auto x = rand_int<int32_t>(n, -100, 100);
  for (int mode = 0; mode < 3; ++mode) {
    for (int k : {-1, 3, 7, 20}) {
      Case c(src, "branches", "*i32, *i32, i32, " + std::to_string(mode) + ", 32");
      c.in(x).out<int32_t>(n).scalar(k);
      auto o = c.run({1}).get<int32_t>(1);
      for (int i = 0; i < n; ++i) {
        int y = mode == 0 ? x[i] + 1 : mode == 1 ? x[i] * 2 : x[i] - 3;
        int z = k > 10 ? y * 10 : k > 5 ? y * 5 : y;
        if (k < 0) z += 1000;
        ASSERT_EQ(o[i], z) << "mode " << mode << " k " << k;
      }
    }
  }
}

TEST(ConformanceControl, LoopsWithCarriedValues) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def loops(x_ptr, o_ptr, n_iter, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    acc = tl.zeros((N,), dtype=tl.int32)
    for i in range(n_iter):
        acc += x * i
    acc2 = tl.zeros_like(x)
    for j in tl.range(1, n_iter, 2):
        acc2 = acc2 + j
    s = 0
    for q in tl.static_range(4):
        s += q * q
    for q in range(0, 10, 3):
        acc2 += q
    w = 1
    cnt = 0
    while w < n_iter * 10:
        w = w * 2
        cnt += 1
    m = tl.full((N,), 0, tl.int32)
    for k in range(n_iter, 0, -1):
        m = tl.maximum(m, x - k)
    tl.store(o_ptr + offs, acc)
    tl.store(o_ptr + N + offs, acc2 + s)
    tl.store(o_ptr + 2 * N, w)
    tl.store(o_ptr + 2 * N + 1, cnt)
    tl.store(o_ptr + 3 * N + offs, m)
)";
  const int n = 16;
  auto x = rand_int<int32_t>(n, -50, 50);
  const int iters = 7;
  Case c(src, "loops", "*i32, *i32, i32, 16");
  c.in(x).out<int32_t>(4 * n).scalar(iters);
  auto o = c.run({1}).get<int32_t>(1);
  int w = 1, cnt = 0;
  while (w < iters * 10) w *= 2, ++cnt;
  int s2 = 0;
  for (int j = 1; j < iters; j += 2) s2 += j;
  for (int q = 0; q < 10; q += 3) s2 += q;
  for (int i = 0; i < n; ++i) {
    int acc = 0;
    for (int k = 0; k < iters; ++k) acc += x[i] * k;
    EXPECT_EQ(o[i], acc);
    EXPECT_EQ(o[n + i], s2 + 0 + 1 + 4 + 9);
    int m = 0;
    for (int k = iters; k > 0; --k) m = std::max(m, x[i] - k);
    EXPECT_EQ(o[3 * n + i], m);
  }
  EXPECT_EQ(o[2 * n], w);
  EXPECT_EQ(o[2 * n + 1], cnt);
  for (int i = 2; i < n; ++i) EXPECT_EQ(o[2 * n + i], poison<int32_t>());
}

TEST(ConformanceControl, ExpressionsAndConstexprLogic) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def exprs(x_ptr, o_ptr, k, A: tl.constexpr, B: tl.constexpr, FLAG: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    C: tl.constexpr = min(A, B) * 100 + max(A, B)
    tl.static_assert(C == 305)
    tl.static_assert(A < B and not FLAG, "constexpr logic")
    y = x * 2 if FLAG else x * 3
    tl.store(o_ptr + offs, y + C)
    big = (x > 0) & (x < 50)
    either = (x < -40) | (x > 40)
    tl.store(o_ptr + N + offs, big.to(tl.int32) + 2 * either.to(tl.int32) + 4 * (~big).to(tl.int32))
    r = 0
    if k > 0 and k < 10:
        r = 1
    if not (k > 0) or k == 5:
        r += 2
    tl.store(o_ptr + 2 * N, r)
    tl.store(o_ptr + 2 * N + 1, (k if k > 3 else -k) + (A if FLAG else B))
)";
  const int n = 16;
  auto x = rand_int<int32_t>(n, -60, 60);
  for (int k : {-2, 5, 12}) {
    Case c(src, "exprs", "*i32, *i32, i32, 3, 5, False, 16");
    c.in(x).out<int32_t>(2 * n + 2).scalar(k);
    auto o = c.run({1}).get<int32_t>(1);
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(o[i], x[i] * 3 + 305);
      bool big = x[i] > 0 && x[i] < 50, either = x[i] < -40 || x[i] > 40;
      EXPECT_EQ(o[n + i], int(big) + 2 * int(either) + 4 * int(!big));
    }
    int r = (k > 0 && k < 10) ? 1 : 0;
    if (!(k > 0) || k == 5) r += 2;
    EXPECT_EQ(o[2 * n], r) << k;
    EXPECT_EQ(o[2 * n + 1], (k > 3 ? k : -k) + 5) << k;
  }
}

TEST(ConformanceControl, StaticAssertFailureIsAnError) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def bad(o_ptr, N: tl.constexpr):
    tl.static_assert(N % 2 == 0, "N must be even")
    tl.store(o_ptr, N)
)";
  auto e = expect_compile_error(src, "bad", "*i32, 3", "N must be even");
  EXPECT_EQ(e.line(), 7);
}

}  // namespace
