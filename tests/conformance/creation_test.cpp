// Tensor creation and hints: tl.full / tl.zeros / tl.zeros_like / tl.arange with offsets,
// tl.multiple_of / tl.max_contiguous (hints must not change values), tl.static_print and
// tl.device_assert outside debug mode (no effect on results), .shape / .dtype attributes.
#include "conformance_util.h"

using namespace conformance;

namespace {

TEST(ConformanceCreation, FullZerosArangeHints) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def cr(x_ptr, o_ptr, f_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    offs = tl.max_contiguous(tl.multiple_of(offs, N), N)
    x = tl.load(x_ptr + offs)
    tl.static_print("x shape", x.shape)
    tl.device_assert(x == x, "never fires")
    tl.store(o_ptr + offs, tl.full((N,), 7, tl.int16) + x)
    z = tl.zeros((2, N), dtype=tl.int16)
    tl.static_assert(z.shape[0] == 2 and z.shape[1] == N)
    tl.store(o_ptr + N + offs, tl.sum(z, axis=0).to(tl.int16) + tl.zeros_like(x) - 1)
    tl.store(o_ptr + 2 * N + offs, (tl.arange(4, 4 + N) * 2).to(tl.int16))
    f = tl.full((N,), 0.5, tl.float32)
    tl.store(f_ptr + offs, f * x.to(tl.float32))
)";
  const int n = 16;
  auto x = rand_int<int16_t>(n, -1000, 1000);
  Case c(src, "cr", "*i16, *i16, *fp32, 16");
  c.in(x).out<int16_t>(3 * n).out<float>(n);
  auto r = c.run({1});
  auto o = r.get<int16_t>(1);
  auto f = r.get<float>(2);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(o[i], x[i] + 7);
    EXPECT_EQ(o[n + i], -1);
    EXPECT_EQ(o[2 * n + i], (4 + i) * 2);
    EXPECT_EQ(f[i], x[i] * 0.5f);
  }
}

TEST(ConformanceCreation, ArangeNonPowerOfTwoIsAnError) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def bad(o_ptr):
    offs = tl.arange(0, 12)
    tl.store(o_ptr + offs, offs)
)";
  auto e = expect_compile_error(src, "bad", "*i32", "");
  EXPECT_EQ(e.line(), 7);
}

}  // namespace
