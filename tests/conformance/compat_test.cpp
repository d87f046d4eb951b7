// Spellings found in public kernel files (kernels/tools probe of Triton tutorials, Liger,
// unsloth, FLA, lightllm, Inductor dumps) that tritium accepts as upstream 3.6 does, on the
// interpreter and the CPU backend (bit-identical: the harness), against values computed
// here: tl.core.* and `from triton.language.standard import ...` (the modules tl's names
// live in), tl.core.get_int_dtype, cache_modifier / eviction_policy = None, the no-op
// programmatic-dependent-launch calls tl.extra.cuda.gdc_wait / gdc_launch_dependents, a
// kernel made with `k = triton.jit(k)`, and fp8 block pointers padded with zeros.
#include <cstring>

#include "conformance_util.h"

using namespace conformance;

namespace {

TEST(ConformanceCompat, ModuleSpellingsNoneModesAndGdc) {
  const char* src = R"(
import triton
import triton.language as tl
from triton.language.standard import sum as std_sum, zeros_like
from triton.language.core import static_range

def k(x_ptr, bits_ptr, s_ptr, BLOCK: tl.constexpr):
    tl.extra.cuda.gdc_wait()
    tl.core.static_assert(BLOCK % 16 == 0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, cache_modifier=None, eviction_policy=None)
    ix = x.to(tl.core.get_int_dtype(x.dtype.primitive_bitwidth, signed=False), bitcast=True)
    tl.static_assert(ix.dtype == tl.uint32)
    tl.store(bits_ptr + offs, ix.to(tl.int32, bitcast=True), cache_modifier=None)
    acc = zeros_like(x)
    for i in static_range(2):
        acc += x
    tl.store(s_ptr, std_sum(acc, 0))
    tl.extra.cuda.gdc_launch_dependents()

k = triton.jit(k)
)";
  const int n = 32;
  auto x = rand_int<int32_t>(n, -1000, 1000);
  std::vector<float> xf(n);
  for (int i = 0; i < n; ++i) xf[i] = static_cast<float>(x[i]) * 0.5f;  // exact sums
  Case c(src, "k", "*fp32, *i32, *fp32, 32");
  c.in(xf).out<int32_t>(n).out<float>(1);
  auto r = c.run({1});
  auto bits_out = r.get<int32_t>(1);
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    int32_t b;
    std::memcpy(&b, &xf[i], 4);
    ASSERT_EQ(bits_out[i], b) << i;
    sum += 2.0 * xf[i];
  }
  EXPECT_EQ(r.get<float>(2)[0], static_cast<float>(sum));
}

TEST(ConformanceCompat, Fp8BlockPointerPaddingIsZero) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def k(a_ptr, o_ptr, M, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(a_ptr, shape=(M,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))
    a = tl.load(p, boundary_check=(0,), padding_option="zero")
    tl.static_assert(a.dtype == tl.float8e4nv)
    tl.store(o_ptr + tl.arange(0, BLOCK), a.to(tl.float32))
)";
  const int M = 20, B = 32;
  std::vector<uint8_t> a(B, 0x7F);  // NaN beyond M: must not be read
  for (int i = 0; i < M; ++i) a[i] = static_cast<uint8_t>(0x38 + (i % 8));  // 1.0, 1.125, ...
  Case c(src, "k", "*fp8e4nv, *fp32, i32, 32");
  c.in(a).out<float>(B).scalar(tritium::Arg(M));
  auto r = c.run({1});
  auto o = r.get<float>(1);
  for (int i = 0; i < B; ++i) ASSERT_EQ(o[i], i < M ? 1.0f + 0.125f * (i % 8) : 0.0f) << i;
}

TEST(ConformanceCompat, ConstexprFunctionsRunAtCompileTime) {
  // @triton.constexpr_function (upstream 3.6): plain Python called on constexprs, its result
  // a constexpr (here a loop, a tuple result and keyword arguments).
  const char* src = R"(
import triton
import triton.language as tl

@triton.constexpr_function
def log2_of(i):
    n, r = i, 0
    while n > 1:
        n >>= 1
        r += 1
    return r

@triton.constexpr_function
def pair(a, b=2):
    return (a * b, a + b)

@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    L: tl.constexpr = log2_of(BLOCK)
    P = pair(L, b=3)
    tl.static_assert(L == 6)
    tl.store(x_ptr + tl.arange(0, BLOCK), tl.arange(0, BLOCK) * P[0] + P[1])

@triton.jit
def bad(x_ptr, n):
    tl.store(x_ptr, log2_of(n))
)";
  Case c(src, "k", "*i32, 64");
  c.out<int32_t>(64);
  auto y = c.run({1}).get<int32_t>(0);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(y[i], i * 18 + 9) << i;
  expect_compile_error(src, "bad", "*i32, i32",
                       "constexpr function log2_of() needs compile-time values (int, float, bool, str, None or tuples of "
                       "them), got i32");
}

}  // namespace
