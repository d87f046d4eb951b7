// Integer semantics: C-style `//` and `%` on tensors (truncation; remainder takes the
// dividend's sign), Python-style on constexprs, wrap-around, shifts, comparisons with
// Python scalars. Expected values are computed here with int64 C++ arithmetic.
#include "conformance_util.h"

using namespace conformance;

namespace {

const char* kIntDiv = R"(
import triton
import triton.language as tl

@triton.jit
def intdiv(a_ptr, b_ptr, q_ptr, r_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(q_ptr + offs, a // b)
    tl.store(r_ptr + offs, a % b)
)";

TEST(ConformanceInt, DivModTruncateLikeC) {
  const int n = 256;
  auto a = rand_int<int32_t>(n, -1000, 1000);
  auto b = rand_int<int32_t>(n, -9, 9);
  Case c(kIntDiv, "intdiv", "*i32, *i32, *i32, *i32, 256");
  c.in(a).in(b).out<int32_t>(n).out<int32_t>(n);
  auto r = c.run({1});
  auto q = r.get<int32_t>(2), m = r.get<int32_t>(3);
  for (int i = 0; i < n; ++i) {
    int64_t want_q = static_cast<int64_t>(a[i]) / b[i];  // C++ truncates toward zero
    int64_t want_r = static_cast<int64_t>(a[i]) - want_q * b[i];
    ASSERT_EQ(q[i], want_q) << a[i] << " // " << b[i];
    ASSERT_EQ(m[i], want_r) << a[i] << " % " << b[i];
  }
}

TEST(ConformanceInt, UnsignedDivMod) {
  const int n = 128;
  auto a = rand_int<uint32_t>(n, 1, 4000000000LL);
  auto b = rand_int<uint32_t>(n, 1, 70000);
  Case c(kIntDiv, "intdiv", "*u32, *u32, *u32, *u32, 128");
  c.in(a).in(b).out<uint32_t>(n).out<uint32_t>(n);
  auto r = c.run({1});
  auto q = r.get<uint32_t>(2), m = r.get<uint32_t>(3);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(q[i], static_cast<uint64_t>(a[i]) / b[i]);
    ASSERT_EQ(m[i], static_cast<uint64_t>(a[i]) % b[i]);
  }
}

TEST(ConformanceInt, ConstexprArithmeticIsPython) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def constdiv(out_ptr):
    tl.store(out_ptr + 0, -7 // 2)
    tl.store(out_ptr + 1, -7 % 2)
    tl.store(out_ptr + 2, 7 // -2)
    tl.store(out_ptr + 3, 7 % -2)
    tl.store(out_ptr + 4, 2 ** 10)
    tl.store(out_ptr + 5, (1 << 20) >> 3)
)";
  Case c(src, "constdiv", "*i32");
  c.out<int32_t>(6);
  auto r = c.run({1});
  auto v = r.get<int32_t>(0);
  // Python: floor division and a remainder with the divisor's sign.
  EXPECT_EQ(v[0], -4);
  EXPECT_EQ(v[1], 1);
  EXPECT_EQ(v[2], -4);
  EXPECT_EQ(v[3], -1);
  EXPECT_EQ(v[4], 1024);
  EXPECT_EQ(v[5], 131072);
}

TEST(ConformanceInt, Int8WrapsAndWidensForSum) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def wrap(x_ptr, y_ptr, s_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.static_assert((x + 1).dtype == tl.int8)
    tl.store(y_ptr + offs, x + 100)
    total = tl.sum(x, axis=0)
    tl.static_assert(total.dtype == tl.int32)
    tl.store(s_ptr, total)
)";
  const int n = 64;
  auto x = rand_int<int8_t>(n, -128, 127);
  Case c(src, "wrap", "*i8, *i8, *i32, 64");
  c.in(x).out<int8_t>(n).out<int32_t>(1);
  auto r = c.run({1});
  auto y = r.get<int8_t>(1);
  int32_t want_sum = 0;
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(y[i], static_cast<int8_t>(static_cast<uint8_t>(x[i] + 100)));  // two's-complement wrap
    want_sum += x[i];
  }
  EXPECT_EQ(r.get<int32_t>(2)[0], want_sum);
}

TEST(ConformanceInt, ShiftsSignedArithmeticUnsignedLogical) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def shifts(a_ptr, u_ptr, o1, o2, o3, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    u = tl.load(u_ptr + offs)
    tl.store(o1 + offs, a >> 3)
    tl.store(o2 + offs, u >> 3)
    tl.store(o3 + offs, a << 2)
)";
  const int n = 64;
  auto a = rand_int<int32_t>(n, -100000, 100000);
  auto u = rand_int<uint32_t>(n, 1, 4294967295LL);
  Case c(src, "shifts", "*i32, *u32, *i32, *u32, *i32, 64");
  c.in(a).in(u).out<int32_t>(n).out<uint32_t>(n).out<int32_t>(n);
  auto r = c.run({1});
  auto s1 = r.get<int32_t>(2);
  auto s2 = r.get<uint32_t>(3);
  auto s3 = r.get<int32_t>(4);
  for (int i = 0; i < n; ++i) {
    int64_t fl = a[i] >= 0 ? a[i] / 8 : -((-static_cast<int64_t>(a[i]) + 7) / 8);  // floor(a / 8)
    EXPECT_EQ(s1[i], fl);
    EXPECT_EQ(s2[i], u[i] / 8u);
    EXPECT_EQ(s3[i], static_cast<int32_t>(static_cast<uint32_t>(a[i]) * 4u));
  }
}

TEST(ConformanceInt, ComparisonsWithPythonScalars) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def cmp(x_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    r = (x > 0).to(tl.int32) + 2 * (x == -3).to(tl.int32) + 4 * (x <= 100).to(tl.int32)
    tl.store(o_ptr + offs, r)
)";
  const int n = 128;
  auto x = rand_int<int8_t>(n, -128, 127);
  x[0] = -3;
  x[1] = 100;
  x[2] = 127;
  Case c(src, "cmp", "*i8, *i32, 128");
  c.in(x).out<int32_t>(n);
  auto r = c.run({1});
  auto o = r.get<int32_t>(1);
  for (int i = 0; i < n; ++i) {
    int want = (x[i] > 0) + 2 * (x[i] == -3) + 4 * (x[i] <= 100);
    EXPECT_EQ(o[i], want) << int(x[i]);
  }
}

TEST(ConformanceInt, SignedUnsignedFloorDivIsAnError) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def bad(a_ptr, b_ptr, o_ptr):
    a = tl.load(a_ptr)
    b = tl.load(b_ptr)
    tl.store(o_ptr, a // b)
)";
  auto e = expect_compile_error(src, "bad", "*i32, *u32, *i32", "");
  EXPECT_EQ(e.line(), 9);
}

}  // namespace
