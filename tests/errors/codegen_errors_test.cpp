// Error tests of the code generator: every construct it refuses, and every user error it
// reports, yields a frontend::CompileError with the expected message at the expected
// line:col (1-based). Each program below numbers its lines in the comments where the
// location matters: lines 1-2 are the imports of kPrelude.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "frontend/codegen.h"
#include "frontend/parser.h"

namespace tritium::frontend {
namespace {

const std::string kPrelude = "import triton\nimport triton.language as tl\n";

struct Expected {
  uint32_t line, col;
  std::string message;
};

// Compiles `code` (kernel `kernel`, AOT signature `sig`) and checks the CompileError.
void expect_error(const std::string& code, const std::string& sig, const Expected& want, const std::string& kernel = "k",
                  std::vector<std::pair<std::string, ArgSpec>> named = {}) {
  SourceRef src = Source::from_string(code, "test.py");
  Module m = parse_module(src);
  Specialization spec;
  spec.args = parse_signature(sig);
  spec.named = std::move(named);
  try {
    generate_ir(m, kernel, spec);
    ADD_FAILURE() << "no error; expected: " << want.message;
  } catch (const CompileError& e) {
    EXPECT_EQ(e.message(), want.message);
    EXPECT_EQ(e.loc().line, want.line) << e.what();
    EXPECT_EQ(e.loc().col, want.col) << e.what();
  }
}

// A kernel `k(p)` (p: *fp32) with `body` (already indented) starting at line 5.
std::string kernel(const std::string& body, const std::string& params = "p") {
  return kPrelude + "@triton.jit\ndef k(" + params + "):\n" + body;
}

// ---- names and globals ------------------------------------------------------------------------

TEST(CodegenErrors, UndefinedName) {
  expect_error(kernel("    x = y + 1\n"), "*fp32", {5, 9, "name 'y' is not defined"});
}

TEST(CodegenErrors, CallingAnUndefinedFunction) {
  expect_error(kernel("    foo(1)\n"), "*fp32", {5, 5, "name 'foo' is not defined"});
}

TEST(CodegenErrors, CallingAPlainPythonFunction) {
  expect_error(kPrelude + "def host(x):\n    return x\n@triton.jit\ndef k(p):\n    host(1)\n", "*fp32",
               {7, 5, "'host' is not a @triton.jit function; only jit functions can be called from a kernel"});
}

TEST(CodegenErrors, UnsupportedModuleUsedInKernel) {
  expect_error("import torch\n" + kernel("    x = torch.zeros(4)\n"), "*fp32",
               {6, 9, "module 'torch' (imported at line 1) cannot be used inside a jit function"});
}

TEST(CodegenErrors, GlobalThatIsNotACompileTimeConstant) {
  expect_error(kPrelude + "X = tl.arange(0, 4)\n@triton.jit\ndef k(p):\n    y = X\n", "*fp32",
               {6, 9, "global 'X' (line 3) is not a compile-time constant (it is tensor<4xi32>)"});
}

TEST(CodegenErrors, GlobalComputedByHostCode) {
  expect_error("import torch\n" + kPrelude + "DEVICE = torch.device('cuda')\n@triton.jit\ndef k(p):\n    d = DEVICE\n",
               "*fp32",
               {7, 9,
                "global 'DEVICE' (line 4) cannot be evaluated at compile time: module 'torch' (imported at line 1) "
                "cannot be used inside a jit function"});
}

TEST(CodegenErrors, LoopVariableUsedAfterDynamicLoop) {
  expect_error(kernel("    for i in range(4):\n        pass\n    tl.store(p + i, 1.0)\n"), "*fp32",
               {7, 18,
                "name 'i' is not defined: it was the variable of a dynamic loop, which Triton does not keep after "
                "the loop"});
}

TEST(CodegenErrors, OuterVariableShadowedByANestedLoopVariable) {
  // Python would leave j = 2 here; Triton has no value for it (upstream reads a poison
  // placeholder), so tritium refuses instead of silently using the value from before.
  expect_error(kernel("    j = 0\n    for i in range(4):\n        for j in range(3):\n            pass\n"
                      "    tl.store(p + j, 1.0)\n"),
               "*fp32",
               {9, 18,
                "name 'j' is not defined: it was the variable of a dynamic loop, which Triton does not keep after "
                "the loop"});
}

// ---- kernel specialization ----------------------------------------------------------------------

TEST(CodegenErrors, SpecializationWithTooManyArguments) {
  expect_error(kernel("    pass\n"), "*fp32, i32",
               {4, 5, "kernel 'k' takes 1 positional parameter but the specialization gives 2"});
}

TEST(CodegenErrors, ConstexprParameterWithoutValue) {
  expect_error(kernel("    pass\n", "p, N: tl.constexpr"), "*fp32",
               {4, 10, "constexpr parameter 'N' of kernel 'k' has no value (no specialization entry and no default)"});
}

TEST(CodegenErrors, RuntimeParameterWithoutSpecialization) {
  expect_error(kernel("    pass\n", "p, n"), "*fp32",
               {4, 10, "parameter 'n' of kernel 'k' has no entry in the specialization"});
}

TEST(CodegenErrors, ConstexprGivenForRuntimeParameter) {
  expect_error(kernel("    pass\n", "p, n"), "*fp32, 4",
               {4, 10, "parameter 'n' of kernel 'k' is not tl.constexpr but the specialization gives the constant 4"});
}

TEST(CodegenErrors, RuntimeTypeGivenForConstexprParameter) {
  expect_error(kernel("    pass\n", "p, N: tl.constexpr"), "*fp32, i32",
               {4, 10, "parameter 'N' of kernel 'k' is tl.constexpr but the specialization gives the run-time type i32"});
}

TEST(CodegenErrors, UnknownNamedParameter) {
  expect_error(kernel("    pass\n"), "*fp32", {4, 5, "kernel 'k' has no parameter named 'M'"}, "k",
               {{"M", ArgSpec{ArgSpec::Kind::Constexpr, ir::ScalarType::I32, 1, false, int64_t{4}}}});
}

TEST(CodegenErrors, KernelNotFoundOrNotJit) {
  expect_error(kernel("    pass\n"), "*fp32", {0, 0, "no function named 'nope' in test.py"}, "nope");
  expect_error(kPrelude + "def host(p):\n    pass\n", "*fp32", {3, 5, "function 'host' is not decorated with @triton.jit"},
               "host");
}

TEST(CodegenErrors, GluonKernelsAreRefused) {
  // Gluon (triton.experimental.gluon) is a different language; its @gluon.jit is not Triton's.
  expect_error(kPrelude + "from triton.experimental import gluon\n@gluon.jit\ndef g(p):\n    pass\n", "*fp32",
               {4, 2,
                "'g' is a Gluon kernel (@triton.experimental.gluon.jit): Gluon, Triton's lower-level language with "
                "explicit layouts, is not supported"},
               "g");
  expect_error(kPrelude + "from triton.experimental.gluon import jit\n@jit\ndef g(p):\n    pass\n", "*fp32",
               {4, 2,
                "'g' is a Gluon kernel (@triton.experimental.gluon.jit): Gluon, Triton's lower-level language with "
                "explicit layouts, is not supported"},
               "g");
}

TEST(CodegenErrors, ParseErrorOfAFunctionIsReportedWhenUsed) {
  std::string code = kPrelude + "@triton.jit\ndef h(x):\n    return x +\n@triton.jit\ndef k(p):\n    h(1)\n";
  // The message is the parser's own, obtained independently by a strict parse of the def.
  std::string parser_message;
  try {
    parse_statements(Source::from_string("def h(x):\n    return x +\n"));
  } catch (const CompileError& e) {
    parser_message = e.message();
  }
  ASSERT_FALSE(parser_message.empty());
  SourceRef src = Source::from_string(code, "test.py");
  Module m = parse_module(src);
  Specialization spec;
  spec.args = parse_signature("*fp32");
  try {
    generate_ir(m, "k", spec);
    ADD_FAILURE() << "no error";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.message(), parser_message);
    EXPECT_EQ(e.loc().line, 5u) << e.what();
  }
  // An unused broken function is no error.
  EXPECT_NO_THROW(generate_ir(parse_module(Source::from_string(kPrelude +
                                                               "@triton.jit\ndef h(x):\n    return x +\n"
                                                               "@triton.jit\ndef k(p):\n    pass\n")),
                              "k", spec));
}

// ---- control flow -------------------------------------------------------------------------------

TEST(CodegenErrors, MismatchedTypesBetweenBranches) {
  expect_error(kernel("    if tl.program_id(0) > 0:\n        x = 1.0\n    else:\n        x = 1\n    tl.store(p, x)\n"),
               "*fp32", {5, 5, "Mismatched type for x between then block (fp32) and else block (i32)"});
}

TEST(CodegenErrors, NameDefinedInOneBranchOnly) {
  expect_error(kernel("    if tl.program_id(0) > 0:\n        x = 1.0\n    tl.store(p, x)\n"), "*fp32",
               {7, 17, "name 'x' is not defined"});
}

TEST(CodegenErrors, LiveInRedefinedWithAnotherTypeInABranch) {
  expect_error(kernel("    x = 0\n    if tl.program_id(0) > 0:\n        x = 1.5\n    tl.store(p, x)\n"), "*fp32",
               {6, 5, "initial value for `x` is of type i32, but the then block redefines it as fp32"});
}

TEST(CodegenErrors, LoopCarriedVariableChangesType) {
  expect_error(kernel("    acc = 0\n    for i in range(4):\n        acc = acc + 1.5\n    tl.store(p, acc)\n"), "*fp32",
               {6, 5,
                "Loop-carried variable acc has initial type i32 but is re-assigned to fp32 in loop! Please make sure "
                "that the type stays consistent."});
}

TEST(CodegenErrors, ConstexprReassignedInDynamicLoop) {
  expect_error(kernel("    for i in range(4):\n        N = N + 1\n", "p, N: tl.constexpr"), "*fp32, 4",
               {5, 5,
                "cannot reassign `N` in a dynamic loop: before the loop it is constexpr int 4, and a loop can only "
                "carry tensors (assign a tensor before the loop)"});
}

TEST(CodegenErrors, BreakAndContinue) {
  expect_error(kernel("    for i in range(4):\n        break\n"), "*fp32",
               {6, 9, "`break` is not supported in Triton (restructure the loop, e.g. as a while loop with a condition)"});
  expect_error(kernel("    for i in range(4):\n        continue\n"), "*fp32",
               {6, 9, "`continue` is not supported in Triton (guard the rest of the loop body with an if)"});
}

TEST(CodegenErrors, LoopElseClauses) {
  expect_error(kernel("    for i in range(4):\n        pass\n    else:\n        pass\n"), "*fp32",
               {5, 5, "`for ... else` is not supported in triton"});
  expect_error(kernel("    i = 0\n    while i < 4:\n        i += 1\n    else:\n        pass\n"), "*fp32",
               {6, 5, "`while ... else` is not supported in triton"});
}

TEST(CodegenErrors, ReturnInsideALoop) {
  expect_error(kernel("    for i in range(4):\n        if i > 2:\n            return\n"), "*fp32",
               {7, 13, "Cannot have `return` statements inside `while` or `for` statements in triton."});
}

TEST(CodegenErrors, KernelReturningAValue) {
  expect_error(kernel("    return 1\n"), "*fp32", {5, 5, "a kernel cannot return a value"});
}

TEST(CodegenErrors, InconsistentReturnTypes) {
  expect_error(kPrelude +
                   "@triton.jit\ndef h(x):\n    if x > 0:\n        return x\n    return 1.5\n"
                   "@triton.jit\ndef k(p):\n    tl.store(p, h(tl.load(p)))\n",
               "*i32", {5, 5, "Inconsistent return types: i32 and fp32"});
}

TEST(CodegenErrors, StaticRangeNeedsConstexprBounds) {
  expect_error(kernel("    for i in tl.static_range(n):\n        pass\n", "p, n"), "*fp32, i32",
               {5, 14, "i32 used as tl.static_range end value is not a constexpr int"});
}

TEST(CodegenErrors, RangeStepZero) {
  expect_error(kernel("    for i in range(0, 4, 0):\n        pass\n"), "*fp32", {5, 14, "range() arg 3 must not be zero"});
}

TEST(CodegenErrors, IfConditionOfUnsupportedType) {
  expect_error(kernel("    if 1.5:\n        pass\n"), "*fp32",
               {5, 8, "`if` conditionals can only accept values of type {bool, int, NoneType}, not objects of type float"});
}

TEST(CodegenErrors, WhileWithCompileTimeCondition) {
  expect_error(kernel("    while True:\n        pass\n"), "*fp32",
               {5, 11,
                "the condition of a while loop must be a run-time value (got constexpr True); a compile-time "
                "condition would make the loop static or infinite"});
}

TEST(CodegenErrors, TernaryWithInconsistentTypes) {
  expect_error(kernel("    y = 1.0 if tl.program_id(0) > 0 else 1\n"), "*fp32",
               {5, 9, "Ternary expression with dynamic condition has inconsistent types fp32 and i32"});
}

// ---- statements and expressions Triton refuses ------------------------------------------------

TEST(CodegenErrors, UnsupportedStatements) {
  struct Case {
    std::string body;
    Expected want;
  };
  const Case cases[] = {
      {"    with foo:\n        pass\n", {5, 5, "`with` statements are not supported inside jit functions"}},
      {"    try:\n        pass\n    except Exception:\n        pass\n",
       {5, 5, "`try` statements are not supported inside jit functions"}},
      {"    def inner():\n        pass\n", {5, 5, "nested function definition is not supported."}},
      {"    global G\n", {5, 5, "`global` statements are not supported inside jit functions"}},
      {"    x = 1\n    del x\n", {6, 5, "`del` is not supported inside jit functions"}},
      {"    raise ValueError('x')\n",
       {5, 5, "`raise` is not supported inside jit functions (use tl.static_assert or tl.device_assert)"}},
      {"    import math\n", {5, 5, "import statements are not supported inside jit functions (import at module level)"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.body);
    expect_error(kernel(c.body), "*fp32", c.want);
  }
}

TEST(CodegenErrors, UnsupportedExpressionsAndTargets) {
  struct Case {
    std::string body;
    Expected want;
  };
  const Case cases[] = {
      {"    f = lambda x: x\n", {5, 9, "lambda expressions are not supported inside jit functions"}},
      {"    s = {1, 2}\n", {5, 9, "set displays are not supported inside jit functions"}},
      {"    d = {1: 2}\n", {5, 9, "dict displays are not supported inside jit functions"}},
      {"    t = [x for x in (1, 2) if x]\n", {5, 31, "`if` clauses in comprehensions are not supported"}},
      {"    a, *b = (1, 2, 3)\n", {5, 8, "starred assignment targets are not supported inside jit functions"}},
      {"    x = tl.zeros([4], tl.float32)\n    x[0] = 1.0\n",
       {6, 5, "item assignment (x[...] = ...) is not supported in triton; tensors are immutable (use tl.where)"}},
      {"    b = 0 < tl.program_id(0) < 4\n",
       {5, 9,
        "chained comparisons (a < b < c) are only supported on compile-time values; write (a < b) & (b < c) for "
        "tensors"}},
      {"    a, b = (1, 2, 3)\n", {5, 5, "too many values to unpack (expected 2)"}},
      {"    a, b, c = (1, 2)\n", {5, 5, "not enough values to unpack (expected 3, got 2)"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.body);
    expect_error(kernel(c.body), "*fp32", c.want);
  }
}

// ---- compile-time assertions and constexprs -----------------------------------------------------

TEST(CodegenErrors, StaticAssertFailure) {
  expect_error(kernel("    tl.static_assert(N < 4, \"N too large\")\n", "p, N: tl.constexpr"), "*fp32, 8",
               {5, 5, "static_assert failed: N too large"});
  expect_error(kernel("    tl.static_assert(N < 4)\n", "p, N: tl.constexpr"), "*fp32, 8",
               {5, 5, "static_assert failed"});
}

TEST(CodegenErrors, StaticAssertOnARuntimeValue) {
  expect_error(kernel("    tl.static_assert(tl.program_id(0) == 0)\n"), "*fp32",
               {5, 5,
                "Assertion condition could not be determined at compile-time. Make sure that it depends only on "
                "`constexpr` values"});
}

TEST(CodegenErrors, ConstexprAnnotationOnARuntimeValue) {
  expect_error(kernel("    x: tl.constexpr = tl.program_id(0)\n"), "*fp32",
               {5, 23, "'x' is annotated tl.constexpr but its value is not a compile-time constant (i32)"});
}

TEST(CodegenErrors, ConstexprReassigned) {
  expect_error(kernel("    x: tl.constexpr = 1\n    x: tl.constexpr = 2\n"), "*fp32",
               {6, 5, "x is already defined. constexpr cannot be reassigned."});
}

// ---- jit helper calls ---------------------------------------------------------------------------

TEST(CodegenErrors, HelperArgumentBinding) {
  const std::string helper = kPrelude + "@triton.jit\ndef h(x):\n    return x\n@triton.jit\ndef k(p):\n";
  expect_error(helper + "    h(1, 2)\n", "*fp32", {8, 5, "h() takes 1 positional argument but 2 were given"});
  expect_error(helper + "    h(1, y=2)\n", "*fp32", {8, 5, "h() got an unexpected keyword argument 'y'"});
  expect_error(helper + "    h()\n", "*fp32", {8, 5, "h() missing required argument 'x'"});
  expect_error(helper + "    h(1, x=2)\n", "*fp32", {8, 5, "h() got multiple values for argument 'x'"});
}

TEST(CodegenErrors, RecursionWithTheSameSpecialization) {
  expect_error(kPrelude + "@triton.jit\ndef f(x):\n    return f(x)\n@triton.jit\ndef k(p):\n    tl.store(p, f(tl.load(p)))\n",
               "*fp32",
               {5, 12, "recursive call of jit function 'f' with the same argument types and constants is not supported"});
}

TEST(CodegenErrors, UnboundedCompileTimeRecursion) {
  expect_error(kPrelude +
                   "@triton.jit\ndef f(x, N: tl.constexpr):\n    return f(x, N + 1)\n"
                   "@triton.jit\ndef k(p):\n    tl.store(p, f(tl.load(p), 0))\n",
               "*fp32", {5, 12, "jit function calls nested more than 64 deep (unbounded recursion of 'f'?)"});
  // 70 distinct helpers, each calling the next: too deep, but no recursion to suggest.
  std::string chain;
  for (int i = 0; i < 70; ++i)
    chain += "@triton.jit\ndef f" + std::to_string(i) + "(x):\n    return f" + std::to_string(i + 1) + "(x) + 1\n";
  chain += "@triton.jit\ndef f70(x):\n    return x\n@triton.jit\ndef k(p):\n    tl.store(p, f0(tl.load(p)))\n";
  expect_error(kPrelude + chain, "*fp32", {194, 12, "jit function calls nested more than 64 deep"});  // f63 calls f64
}

TEST(CodegenErrors, ReturningANonValue) {
  expect_error(kPrelude + "@triton.jit\ndef h():\n    return tl.float32\n@triton.jit\ndef k(p):\n    h()\n", "*fp32",
               {5, 12, "cannot return dtype fp32 from a jit function (only tensors, scalars, tuples and None)"});
}

}  // namespace
}  // namespace tritium::frontend
