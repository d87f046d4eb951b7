// Helper jit functions (inlined calls with constexpr parameters, defaults, keyword
// arguments, tuple returns, nested helpers), constexpr kernel parameters with defaults,
// module-level constants in all three spellings and every import spelling.
#include "conformance_util.h"

using namespace conformance;

namespace {

TEST(ConformanceHelpers, JitHelpersTuplesKeywordsDefaults) {
  const char* src = R"(
import triton
import triton.language as tl

SCALE: tl.constexpr = 4
OFFSET = tl.constexpr(10)
PLAIN = 3
FPLAIN = 0.5
BPLAIN = True

@triton.jit
def _axpb(x, a, b: tl.constexpr = 1):
    return x * a + b

@triton.jit
def _divmod(x, d: tl.constexpr):
    return x // d, x % d

@triton.jit
def _nested(x, K: tl.constexpr):
    q, r = _divmod(x, K)
    return _axpb(q, 2, b=r.dtype.primitive_bitwidth) + r

@triton.jit
def helpers(x_ptr, o_ptr, N: tl.constexpr, D: tl.constexpr = 5, USE: tl.constexpr = True):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + offs, _axpb(x, 3))
    tl.store(o_ptr + N + offs, _axpb(x, a=2, b=7))
    q, r = _divmod(x, D)
    tl.store(o_ptr + 2 * N + offs, q * 100 + r)
    tl.store(o_ptr + 3 * N + offs, _nested(x, K=3))
    if USE:
        v = x * SCALE + OFFSET + PLAIN
    else:
        v = x
    if BPLAIN:
        v = v + (x.to(tl.float32) * FPLAIN).to(tl.int32)
    tl.store(o_ptr + 4 * N + offs, v)
    pair = (x, x + 1)
    a, b = pair
    tl.store(o_ptr + 5 * N + offs, a * b)
)";
  const int n = 32;
  auto x = rand_int<int32_t>(n, -1000, 1000);
  Case c(src, "helpers", "*i32, *i32, 32");
  c.in(x).out<int32_t>(6 * n);
  auto o = c.run({1}).get<int32_t>(1);
  for (int i = 0; i < n; ++i) {
    int v = x[i];
    EXPECT_EQ(o[i], v * 3 + 1);
    EXPECT_EQ(o[n + i], v * 2 + 7);
    EXPECT_EQ(o[2 * n + i], (v / 5) * 100 + v % 5);  // C semantics on tensors
    EXPECT_EQ(o[3 * n + i], (v / 3) * 2 + 32 + v % 3);
    EXPECT_EQ(o[4 * n + i], v * 4 + 10 + 3 + static_cast<int>(std::trunc(v * 0.5f)));
    EXPECT_EQ(o[5 * n + i], v * (v + 1));
  }
}

TEST(ConformanceHelpers, ImportSpellings) {
  const char* srcs[] = {
      R"(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, o_ptr):
    o = tl.arange(0, 16)
    tl.store(o_ptr + o, tl.load(x_ptr + o) + 1)
)",
      R"(
import triton
from triton import language as tl

@triton.jit
def k(x_ptr, o_ptr):
    o = tl.arange(0, 16)
    tl.store(o_ptr + o, tl.load(x_ptr + o) + 1)
)",
      R"(
import triton
import triton.language as language

@triton.jit
def k(x_ptr, o_ptr):
    o = language.arange(0, 16)
    language.store(o_ptr + o, language.load(x_ptr + o) + 1)
)",
      R"(
import triton
import triton.language as tl
from triton import jit

@jit
def k(x_ptr, o_ptr):
    o = tl.arange(0, 16)
    tl.store(o_ptr + o, tl.load(x_ptr + o) + 1)
)",
      R"(
import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit(do_not_specialize=["x_ptr"])
def k(x_ptr, o_ptr):
    o = tl.arange(0, 16)
    tl.store(o_ptr + o, tl.load(x_ptr + o) + 1)

class Host:
    pass

def host_fn(a):
    return a + 1

if __name__ == "__main__":
    host_fn(1)
)",
  };
  auto x = rand_int<int32_t>(16, -100, 100);
  int idx = 0;
  for (const char* s : srcs) {
    Case c(s, "k", "*i32, *i32");
    c.in(x).out<int32_t>(16);
    auto o = c.run({1}).get<int32_t>(1);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(o[i], x[i] + 1) << "spelling " << idx;
    ++idx;
  }
}

TEST(ConformanceHelpers, ConstexprOverrideOfDefault) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def d(o_ptr, N: tl.constexpr, D: tl.constexpr = 5):
    tl.store(o_ptr + tl.arange(0, N), tl.arange(0, N) * D)
)";
  Case c(src, "d", "*i32, 8, 9");
  c.out<int32_t>(8);
  auto o = c.run({1}).get<int32_t>(0);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(o[i], i * 9);
}

TEST(ConformanceHelpers, LibdeviceFunctions) {
  const char* src = R"(
import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def ld(x_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + offs, libdevice.floor(x))
    tl.store(o_ptr + N + offs, libdevice.exp(x))
)";
  const int n = 32;
  auto x = rand_f32(n, -3.f, 3.f);
  Case c(src, "ld", "*fp32, *fp32, 32");
  c.in(x).out<float>(2 * n);
  auto o = c.run({1}).get<float>(1);
  std::vector<double> w(n);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(o[i], std::floor(x[i]));
    w[i] = std::exp(double(x[i]));
  }
  // 4 ulp: as for tl.exp (math_test.cpp)
  expect_close(std::vector<float>(o.begin() + n, o.end()), w, 0x1p-21, 0, "libdevice.exp");
}

// Upstream binds a helper's arguments by value and ignores its parameter annotations, so a
// tensor or a run-time scalar passed to a parameter annotated tl.constexpr is an ordinary
// argument (the fused-attention tutorial's `offs_m: tl.constexpr, N_CTX: tl.constexpr`).
// A constexpr value reaching the same parameter still specializes (the second call).
TEST(ConformanceHelpers, RunTimeValueForAConstexprAnnotatedHelperParameter) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def _masked_scale(x, offs: tl.constexpr, n: tl.constexpr, SCALE: tl.constexpr):
    return tl.where(offs < n, x * SCALE, -1)

@triton.jit
def k(x_ptr, o_ptr, n, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + offs, _masked_scale(x, offs, n, 3))
    tl.store(o_ptr + N + offs, _masked_scale(x, offs, N // 2, 5))
)";
  const int n = 16, lim = 11;
  auto x = rand_int<int32_t>(n, -1000, 1000);
  Case c(src, "k", "*i32, *i32, i32, 16");
  c.in(x).out<int32_t>(2 * n).scalar(lim);
  auto o = c.run({1}).get<int32_t>(1);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(o[i], i < lim ? 3 * x[i] : -1) << i;
    EXPECT_EQ(o[n + i], i < n / 2 ? 5 * x[i] : -1) << i;
  }
}

// libdevice functions imported inside a top-level `try` / `if` (Liger-style headers) resolve
// to the `try` body's / first branch's import.
TEST(ConformanceHelpers, ImportsGuardedByTopLevelTryAndIf) {
  const char* src = R"(
import triton
import triton.language as tl

if tuple(int(v) for v in triton.__version__.split(".")[:2]) >= (3, 0):
    try:
        from triton.language.extra.libdevice import rsqrt
    except ModuleNotFoundError:
        from triton.language.extra.cuda.libdevice import rsqrt
else:
    from triton.language.math import rsqrt

try:
    from triton.language.extra.cuda.libdevice import floor as fl
except ImportError:
    fl = None

@triton.jit
def k(x_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + offs, rsqrt(x))
    tl.store(o_ptr + N + offs, fl(x))
)";
  const int n = 16;
  auto x = rand_f32(n, 0.5f, 8.f);
  Case c(src, "k", "*fp32, *fp32, 16");
  c.in(x).out<float>(2 * n);
  auto o = c.run({1}).get<float>(1);
  std::vector<double> w(n);
  for (int i = 0; i < n; ++i) {
    w[i] = 1.0 / std::sqrt(double(x[i]));
    EXPECT_EQ(o[n + i], std::floor(x[i]));
  }
  // 4 ulp: as for tl.rsqrt (math_test.cpp)
  expect_close(std::vector<float>(o.begin(), o.begin() + n), w, 0x1p-21, 0, "guarded rsqrt");
}

// isinstance on kernel values as upstream evaluates it (constexprs unwrapped first), and the
// fused-attention tutorial's `_maybe_make_tensor_desc` (a descriptor passes through, a
// pointer gets one).
TEST(ConformanceHelpers, IsInstanceAsUpstreamSeesKernelValues) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def _maybe_make_tensor_desc(desc_or_ptr, shape, strides, block_shape):
    if isinstance(desc_or_ptr, tl.tensor_descriptor):
        return desc_or_ptr
    else:
        return tl.make_tensor_descriptor(desc_or_ptr, shape, strides, block_shape)

@triton.jit
def k(x_ptr, o_ptr, f_ptr, n, N: tl.constexpr, F: tl.constexpr, D: tl.constexpr = tl.float16):
    d = _maybe_make_tensor_desc(x_ptr, [n], [1], [N])
    d = _maybe_make_tensor_desc(d, [n], [1], [N])
    tl.store(o_ptr + tl.arange(0, N), d.load([0]) * 2)
    bp = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (N,), (0,))
    flags = (isinstance(N, int), isinstance(True, int), isinstance(F, float), isinstance(F, int),
             isinstance(N, tl.constexpr), isinstance(n, tl.tensor), isinstance(bp, tl.tensor),
             isinstance(d, tl.tensor), isinstance(d, tl.tensor_descriptor), isinstance(D, tl.dtype),
             isinstance((1, 2), tl.tuple), isinstance((1, 2), list), isinstance(x_ptr, tl.tensor),
             isinstance(N, float))
    for i in tl.static_range(len(flags)):
        tl.store(f_ptr + i, flags[i])
)";
  const int n = 16;
  auto x = rand_int<int32_t>(n, -1000, 1000);
  Case c(src, "k", "*i32, *i32, *i32, i32, 16, 0.5");
  c.in(x).out<int32_t>(n).out<int32_t>(14).scalar(n);
  auto r = c.run({1});
  auto o = r.get<int32_t>(1), f = r.get<int32_t>(2);
  for (int i = 0; i < n; ++i) EXPECT_EQ(o[i], 2 * x[i]) << i;
  const std::vector<int32_t> want = {1, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1, 0, 1, 0};
  EXPECT_EQ(f, want);
}

}  // namespace
