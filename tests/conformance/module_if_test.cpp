// Module-level `if` statements, as kernel libraries write them (flash-linear-attention's
// `if os.environ.get('FLA_USE_FAST_OPS', '0') == '1': exp = ... else: @triton.jit def exp`,
// constants chosen by a flag): the condition is evaluated as host Python when tritium can
// (module constants, os.environ / os.getenv) and the branch taken binds the names; names
// under a condition it cannot evaluate are errors on use that name the condition. Run on
// the interpreter and the CPU backend (bit-identical: the harness); expected values are
// integer arithmetic.
#include <cstdlib>

#include "conformance_util.h"

using namespace conformance;

namespace {

const char* kSrc = R"(
import os
import triton
import triton.language as tl

SCALE = 3
if SCALE > 2:
    OFFSET: tl.constexpr = 100
elif SCALE > 1:
    OFFSET: tl.constexpr = 10
else:
    OFFSET: tl.constexpr = 1

if os.environ.get('TRITIUM_TEST_MODULE_IF', '0') == '1':
    @triton.jit
    def op(x):
        return x * 2
else:
    @triton.jit
    def op(x):
        return x + 1

if os.getenv('TRITIUM_TEST_MODULE_IF') == '1':
    BLOCKS = [32]
else:
    BLOCKS = [16, 64]

if some_host_function():
    HIDDEN: tl.constexpr = 5

@triton.autotune(configs=[triton.Config({'BLOCK': b}) for b in BLOCKS], key=['n'])
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, 16)
    tl.store(y_ptr + offs, op(tl.load(x_ptr + offs)) + OFFSET)

@triton.jit
def uses_hidden(x_ptr):
    tl.store(x_ptr, HIDDEN)
)";

TEST(ConformanceModuleIf, TheBranchTakenBindsTheNames) {
  auto x = rand_int<int32_t>(16, -1000, 1000);
  for (const char* flag : {"0", "1"}) {
    ::setenv("TRITIUM_TEST_MODULE_IF", flag, 1);
    const bool fast = flag[0] == '1';
    EXPECT_EQ(tritium::Module::from_string(kSrc, "mif.py").kernel("k").decorators().configs.size(), fast ? 1u : 2u);
    Case c(kSrc, "k", "*i32, *i32, i32, 16");
    c.in(x).out<int32_t>(16).scalar(tritium::Arg(16));
    auto y = c.run({1}).get<int32_t>(1);
    for (int i = 0; i < 16; ++i) ASSERT_EQ(y[i], (fast ? x[i] * 2 : x[i] + 1) + 100) << flag << " " << i;
  }
  ::unsetenv("TRITIUM_TEST_MODULE_IF");
}

TEST(ConformanceModuleIf, NamesUnderAConditionTritiumCannotEvaluateAreErrorsOnUse) {
  tritium::CompileError e = expect_compile_error(
      kSrc, "uses_hidden", "*i32",
      "'HIDDEN' is bound under the module-level `if` at line 28, whose condition tritium cannot evaluate: name "
      "'some_host_function' is not defined above the kernel at module level");
  EXPECT_EQ(e.line(), 39);
}

}  // namespace
