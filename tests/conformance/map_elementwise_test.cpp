// tl.map_elementwise on the interpreter and the CPU backend (bit-identical: the harness):
// a scalar function with a branch on the value (upstream's selu example), one returning a
// tuple, one with a data-dependent while loop (a Collatz step count, so every element runs
// a different number of iterations), broadcast inputs of different shapes, and the errors.
// Expected values are computed here element by element; fp32 results are compared exactly
// where they are one correctly rounded operation, and within tritium's exp bound (1 ulp,
// src/common/tmath.inc) for selu's exp.
#include <cmath>

#include "conformance_util.h"

using namespace conformance;

namespace {

const char* kSrc = R"(
import triton
import triton.language as tl

@triton.jit
def selu_scalar(x, alpha):
    if x > 0:
        return x
    else:
        return alpha * (tl.exp(x) - 1)

@triton.jit
def divmod_scalar(a, b):
    return a // b, a % b

@triton.jit
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps

@triton.jit
def k(x_ptr, a_ptr, y_ptr, q_ptr, r_ptr, c_ptr, g_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R * C)
    x = tl.load(x_ptr + offs)
    alpha = tl.load(a_ptr)
    tl.store(y_ptr + offs, tl.map_elementwise(selu_scalar, x, alpha))
    v = tl.load(q_ptr + offs)
    q, r = tl.map_elementwise(divmod_scalar, v, 7)
    tl.store(q_ptr + offs, q)
    tl.store(r_ptr + offs, r)
    tl.store(c_ptr + offs, tl.map_elementwise(collatz_steps, offs + 1))
    rows = tl.arange(0, R)[:, None]
    cols = tl.arange(0, C)[None, :]
    g = tl.map_elementwise(divmod_scalar, rows * 100 + cols, cols + 1)[1] * 2
    tl.store(g_ptr + rows * C + cols, g)
)";

TEST(ConformanceMapElementwise, BranchesTuplesLoopsAndBroadcasting) {
  const int R = 4, C = 16, n = R * C;
  auto x = rand_f32(n, -3.f, 3.f);
  std::vector<float> alpha = {1.6732632f};
  auto v = rand_int<int32_t>(n, -1000, 1000);
  Case c(kSrc, "k", "*fp32, *fp32, *fp32, *i32, *i32, *i32, *i32, 4, 16");
  c.in(x).in(alpha).out<float>(n).in(v).out<int32_t>(n).out<int32_t>(n).out<int32_t>(n);
  auto res = c.run({1});
  auto y = res.get<float>(2);
  auto q = res.get<int32_t>(3), r = res.get<int32_t>(4), cs = res.get<int32_t>(5), g = res.get<int32_t>(6);
  for (int i = 0; i < n; ++i) {
    if (x[i] > 0) {
      ASSERT_EQ(y[i], x[i]) << i;
    } else {
      const double want = double(alpha[0]) * (std::exp(double(x[i])) - 1.0);
      ASSERT_NEAR(y[i], want, std::fabs(want) * 0x1p-21 + 0x1p-24) << i;  // exp (1 ulp) + sub + mul
    }
    // Triton's // and % truncate toward zero like C (interpreter.h).
    ASSERT_EQ(q[i], v[i] / 7) << i;
    ASSERT_EQ(r[i], v[i] % 7) << i;
    int64_t m = i + 1, steps = 0;
    while (m != 1) m = (m % 2 == 0) ? m / 2 : 3 * m + 1, ++steps;
    ASSERT_EQ(cs[i], steps) << i;
  }
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) ASSERT_EQ(g[i * C + j], ((i * 100 + j) % (j + 1)) * 2) << i << "," << j;
}

TEST(ConformanceMapElementwise, Errors) {
  const std::string pre = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef f(x):\n    return x\n\n"
                          "@triton.jit\ndef k(p):\n    x = tl.load(p + tl.arange(0, 4))\n";
  expect_compile_error(pre + "    tl.store(p + tl.arange(0, 4), tl.map_elementwise(f, x, pack=2))\n", "k", "*fp32",
                       "tl.map_elementwise with pack > 1 is not supported yet");
  expect_compile_error(pre + "    tl.store(p + tl.arange(0, 4), tl.map_elementwise(tl.exp, x))\n", "k", "*fp32",
                       "tl.map_elementwise scalar_fn must be a @triton.jit function");
  expect_compile_error(pre + "    tl.store(p + tl.arange(0, 4), tl.map_elementwise(f))\n", "k", "*fp32",
                       "map_elementwise must have at least 1 input tensor");
}

}  // namespace
