// Unit tests of the AST → IR code generator (src/frontend/codegen.h).
//
// Two kinds of checks:
//  * IR structure: the printed IR of small kernels contains (or lacks) the ops and types
//    the Triton semantics prescribe (static if leaves no `if`, static_range unrolls, loops
//    carry values, helpers become functions + `call`, imports resolve under every spelling).
//  * Semantics through the reference interpreter: control flow the code generator shapes
//    (negative-step loops, early returns, while loops, merges after dynamic ifs) is run on
//    random non-zero inputs and compared element-wise with results computed by plain C++
//    loops in the test. Outputs are poisoned before each run so unwritten elements show.
//    All values are integers, so the comparisons are exact (tolerance 0).
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "frontend/codegen.h"
#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/printer.h"
#include "runtime/kernel_abi.h"

namespace tritium::frontend {
namespace {

const char* kPrelude = "import triton\nimport triton.language as tl\n";

struct Compiled {
  SourceRef src;
  Module mod;
  ir::Module ir;
  std::string text;
};

Compiled compile(const std::string& code, const std::string& sig, const std::string& kernel = "k",
                 std::vector<std::pair<std::string, ArgSpec>> named = {}) {
  Compiled c;
  c.src = Source::from_string(code, "test.py");
  c.mod = parse_module(c.src);
  Specialization spec;
  spec.args = parse_signature(sig);
  spec.named = std::move(named);
  c.ir = generate_ir(c.mod, kernel, spec);
  c.text = ir::print(c.ir);
  return c;
}

int count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + needle.size())) ++n;
  return n;
}

tritium_arg ptr_arg(void* p) {
  tritium_arg a;
  a.ptr = p;
  return a;
}
tritium_arg int_arg(int64_t v) {
  tritium_arg a;
  a.i64 = v;
  return a;
}

std::vector<int32_t> random_ints(size_t n, int lo, int hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int32_t> v(n);
  for (auto& x : v) {
    do x = d(rng); while (x == 0);
  }
  return v;
}

constexpr int32_t kPoison = -777777;

// ---- module level ---------------------------------------------------------------------------

TEST(Codegen, JitFunctionNamesRecognizesDecorators) {
  auto src = Source::from_string(std::string(kPrelude) + R"(from triton import jit

@triton.jit
def a(x):
    pass

@jit
def b(x):
    pass

@triton.jit(do_not_specialize=["x"], debug=True, noinline=False)
def c(x):
    pass

@triton.autotune(configs=[], key=["n"])
@triton.heuristics({"B": lambda args: 4})
@triton.jit
def d(x):
    pass

def host(x):
    return x

class Helper:
    pass

if __name__ == "__main__":
    host(1)
)");
  Module m = parse_module(src);
  EXPECT_EQ(jit_function_names(m), (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(Codegen, ImportsResolveUnderEverySpelling) {
  struct Case {
    const char* imports;
    const char* deco;
    const char* body;
    const char* expect;
  };
  const Case cases[] = {
      {"import triton\nimport triton.language as tl\n", "@triton.jit", "x = tl.program_id(0)", "program_id"},
      {"import triton\nfrom triton import language as tl\n", "@triton.jit", "x = tl.program_id(0)", "program_id"},
      {"import triton\nimport triton.language as language\n", "@triton.jit", "x = language.program_id(0)",
       "program_id"},
      {"import triton\nimport triton.language\n", "@triton.jit", "x = triton.language.program_id(0)", "program_id"},
      {"from triton import jit\nimport triton.language as tl\n", "@jit", "x = tl.program_id(0)", "program_id"},
      {"import triton as tt\nimport triton.language as tl\n", "@tt.jit", "x = tl.program_id(0)", "program_id"},
      {"import triton\nfrom triton.language import program_id\n", "@triton.jit", "x = program_id(0)", "program_id"},
      {"import triton\nfrom triton.language import program_id as pid_of\n", "@triton.jit", "x = pid_of(0)",
       "program_id"},
      {"import triton\nfrom triton.language import *\n", "@triton.jit", "x = program_id(0)", "program_id"},
      {"import triton\nimport triton.language as tl\nfrom triton.language import math\n", "@triton.jit",
       "x = math.exp(tl.load(p))", "math.exp"},
      {"import triton\nimport triton.language.math\n", "@triton.jit", "x = triton.language.math.exp(triton.language.load(p))",
       "math.exp"},
      {"import triton\nimport triton.language as tl\nfrom triton.language.extra import libdevice\n", "@triton.jit",
       "x = libdevice.exp(tl.load(p))", "math.exp"},
      {"import triton\nimport triton.language as tl\nfrom triton.language.extra.cuda import libdevice\n",
       "@triton.jit", "x = libdevice.exp(tl.load(p))", "math.exp"},
      {"import triton\nimport triton.language as tl\nimport triton.language.extra.libdevice as ld\n", "@triton.jit",
       "x = ld.exp(tl.load(p))", "math.exp"},
      {"import triton\nimport triton.language as tl\nfrom triton.language import constexpr\n", "@triton.jit",
       "x = tl.full([N], 1, tl.int32)", "constant"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.imports);
    std::string code = std::string("import torch\nimport numpy as np\n") + c.imports + c.deco +
                       "\ndef k(p, N: constexpr = 4):\n    " + c.body + "\n";
    if (std::string(c.imports).find("import constexpr") == std::string::npos)
      code = std::string("from triton.language import constexpr\n") + code;
    Compiled k = compile(code, "*fp32");
    EXPECT_NE(k.text.find(c.expect), std::string::npos) << k.text;
  }
}

TEST(Codegen, ModuleConstantsFollowPythonOrder) {
  Compiled k = compile(std::string(kPrelude) + R"(
A: tl.constexpr = 4
B = tl.constexpr(8)
C = 2
D = A * B + C
C += 1
E = (1, 2.5, True)
F = tl.float16
G = "ieee"
H, I = 5, (6, 7)
DEVICE = torch.device("cuda")

@triton.jit
def k(p, N: tl.constexpr = A * 2):
    tl.static_assert(A == 4)
    tl.static_assert(B == 8)
    tl.static_assert(C == 3)
    tl.static_assert(D == 34)
    tl.static_assert(E[1] == 2.5 and E[2])
    tl.static_assert(F == tl.float16)
    tl.static_assert(G == "ieee")
    tl.static_assert(H + I[1] == 12)
    tl.static_assert(N == 8)
    x = tl.arange(0, D - 2)
)",
                       "*fp32");
  EXPECT_NE(k.text.find("make_range {end = 32, start = 0}"), std::string::npos) << k.text;
}

TEST(Codegen, KernelSignatureTypesAndSpecialization) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def k(a, b, n, m, s, f, BLOCK: tl.constexpr, MODE: tl.constexpr = "x"):
    tl.static_assert(BLOCK == 64)
    tl.static_assert(MODE == "fast")
    tl.static_assert(m == 1)
    tl.store(a + n + s, f)
)",
                       "*fp32:16, *fp16, i32:16, i64:1, i64, fp32, 64", "k",
                       {{"MODE", ArgSpec{ArgSpec::Kind::Constexpr, ir::ScalarType::I32, 1, false, std::string("fast")}}});
  EXPECT_NE(k.text.find("kernel @k(%0: ptr<fp32>, %1: ptr<fp16>, %2: i32, %3: i64, %4: i64, %5: fp32)"),
            std::string::npos)
      << k.text;
  EXPECT_EQ(count(k.text, "%6 = hint %0 {multiple_of = [16]} : ptr<fp32>"), 1) << k.text;
  EXPECT_EQ(count(k.text, "%7 = hint %2 {multiple_of = [16]} : i32"), 1) << k.text;
  EXPECT_EQ(count(k.text, "hint"), 2) << k.text;
  EXPECT_EQ(count(k.text, "%3"), 1) << "the equal_to_1 argument is only declared: " << k.text;
}

TEST(Codegen, ConstexprAnnotationUnderAnAlias) {
  Compiled k = compile(std::string(kPrelude) + R"(
from triton.language import constexpr as C
import triton.language as language

@triton.jit
def k(p, A: C, B: language.constexpr, D: triton.language.constexpr, E: "tl.constexpr"):
    x: C = A + B + D + E
    tl.static_assert(x == 10)
)",
                       "*fp32, 1, 2, 3, 4");
  EXPECT_NE(k.text.find("kernel @k(%0: ptr<fp32>)"), std::string::npos) << k.text;
}

TEST(Codegen, NoneDefaultOfRuntimeParameterIsConstexprNone) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def k(x, bias=None):
    if bias is None:
        tl.store(x, 1.0)
    else:
        tl.store(x, tl.load(bias))
)",
                       "*fp32");
  EXPECT_NE(k.text.find("kernel @k(%0: ptr<fp32>)"), std::string::npos) << k.text;
  EXPECT_EQ(count(k.text, "load"), 0) << k.text;
}

// ---- statements and control flow ------------------------------------------------------------

TEST(Codegen, StaticIfGeneratesOnlyTheTakenBranch) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def k(p, FLAG: tl.constexpr):
    if FLAG:
        tl.store(p, 1.0)
    elif undefined_name(1):
        this_does_not_compile()
    else:
        tl.store(p, undefined_too)
)",
                       "*fp32, True");
  EXPECT_EQ(count(k.text, " if "), 0) << k.text;
  EXPECT_EQ(count(k.text, "store"), 1) << k.text;
}

TEST(Codegen, DynamicIfYieldsMergedVariables) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def k(p, n):
    x = 0.0
    if n > 0:
        x = 1.5
        y = n * 2
        only_then = 3
    else:
        y = n
    tl.store(p, x + y)
)",
                       "*fp32, i32");
  // x (live-in, fp32) and y (defined in both, i32) flow out; only_then does not.
  EXPECT_NE(k.text.find(" = if "), std::string::npos) << k.text;
  EXPECT_NE(k.text.find(": fp32, i32 {"), std::string::npos) << k.text;
  EXPECT_EQ(count(k.text, "yield"), 2) << k.text;
}

TEST(Codegen, StaticRangeUnrollsWithConstexprVariable) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def k(p):
    for i in tl.static_range(1, 8, 2):
        tl.static_assert(i % 2 == 1)
        tl.store(p + i, 1.0)
)",
                       "*fp32");
  EXPECT_EQ(count(k.text, "store"), 4) << k.text;
  EXPECT_EQ(count(k.text, " for "), 0) << k.text;
}

TEST(Codegen, DynamicForCarriesReassignedLiveIns) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def k(p, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    unchanged = offs + 1
    for i in tl.range(0, n, BLOCK, num_stages=2):
        acc += tl.load(p + i + offs)
        tmp = acc * 2
    tl.store(p + offs, acc + unchanged)
)",
                       "*fp32, i32, 16");
  EXPECT_NE(k.text.find(" = for "), std::string::npos) << k.text;
  EXPECT_NE(k.text.find("{num_stages = 2} : tensor<16xfp32> {"), std::string::npos) << k.text;
  EXPECT_NE(k.text.find("(%"), std::string::npos);
  EXPECT_EQ(count(k.text, "for "), 1) << k.text;
}

TEST(Codegen, LoopInductionVariableTypeFollowsBounds) {
  Compiled k32 = compile(std::string(kPrelude) + "@triton.jit\ndef k(p, n):\n    for i in range(n):\n"
                                                  "        tl.store(p + i, 1.0)\n",
                         "*fp32, i32");
  EXPECT_NE(k32.text.find("^(%"), std::string::npos);
  EXPECT_NE(k32.text.find(": i32):"), std::string::npos) << k32.text;
  Compiled k64 = compile(std::string(kPrelude) + "@triton.jit\ndef k(p, n):\n    for i in range(0, n, 2):\n"
                                                  "        tl.store(p + i, 1.0)\n",
                         "*fp32, i64");
  EXPECT_NE(k64.text.find(": i64):"), std::string::npos) << k64.text;
}

TEST(Codegen, WhileLoopBecomesWhileOp) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def k(p, n):
    i = 0
    while i < n:
        i += 3
    tl.store(p, i)
)",
                       "*i32, i32");
  EXPECT_NE(k.text.find(" = while "), std::string::npos) << k.text;
  EXPECT_EQ(count(k.text, "condition"), 1) << k.text;
}

TEST(Codegen, TupleAssignmentAndUnpacking) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def pair(x):
    return x + 1, (x * 2, x)

@triton.jit
def k(p):
    (a, b), c = (1, 2), 3
    d = e = 4
    x = tl.load(p)
    u, (v, w) = pair(x)
    tl.static_assert(len((a, b, c)) == 3)
    tl.store(p, u + v + w + a + b + c + d + e)
)",
                       "*i32");
  EXPECT_NE(k.text.find("func @pair__i32(%0: i32) -> (i32, i32, i32)"), std::string::npos) << k.text;
  EXPECT_NE(k.text.find(" = call "), std::string::npos) << k.text;
}

// ---- calls ------------------------------------------------------------------------------------

TEST(Codegen, HelpersAreSpecializedAndMemoized) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def scale(x, F: tl.constexpr, bias=0.5):
    return x * F + bias

@triton.jit
def noop(x):
    pass

@triton.jit
def k(p, q):
    x = tl.load(p)
    y = tl.load(q)
    a = scale(x, 2)
    b = scale(x, F=2)
    c = scale(x, 3)
    d = scale(y, 2)
    e = scale(x, 2, bias=1.5)
    noop(x)
    tl.store(p, a + b + c + e)
    tl.store(q, d)
)",
                       "*fp32, *fp16");
  EXPECT_EQ(count(k.text, "func @scale__fp32_2_f0_d_5("), 1) << k.text;
  EXPECT_EQ(count(k.text, "func @scale__fp32_3_f0_d_5("), 1) << k.text;
  EXPECT_EQ(count(k.text, "func @scale__fp16_2_f0_d_5("), 1) << k.text;
  EXPECT_EQ(count(k.text, "func @scale__fp32_2_f1_d_5("), 1) << k.text;
  EXPECT_EQ(count(k.text, "callee = \"scale__fp32_2_f0_d_5\""), 2) << k.text;
  EXPECT_EQ(count(k.text, "callee = \"noop__fp32\""), 1) << k.text;
  EXPECT_NE(k.text.find("func @noop__fp32(%"), std::string::npos) << k.text;
  ASSERT_FALSE(k.ir.functions.empty());
  EXPECT_TRUE(k.ir.functions[0]->is_kernel);
  EXPECT_EQ(k.ir.functions[0]->name, "k");
}

TEST(Codegen, CompileTimeRecursionWithDistinctSpecializations) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def pw(x, N: tl.constexpr):
    if N == 0:
        return x * 0 + 1
    else:
        return x * pw(x, N - 1)

@triton.jit
def k(p):
    tl.store(p, pw(tl.load(p), 3))
)",
                       "*i32");
  for (const char* f : {"func @pw__i32_3(", "func @pw__i32_2(", "func @pw__i32_1(", "func @pw__i32_0("})
    EXPECT_NE(k.text.find(f), std::string::npos) << f << "\n" << k.text;
}

TEST(Codegen, StaticPrintAndMinMaxOnConstexprs) {
  testing::internal::CaptureStderr();
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def k(p, A: tl.constexpr, B: tl.constexpr):
    tl.static_print("sizes", A, B, max(A, B), min(A, B), f"A={A}")
    tl.static_assert(0 < A < B <= 64, "bad sizes")
    tl.store(p, max(A, B))
)",
                       "*i32, 8, 32");
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("sizes 8 32 32 8 A=8"), std::string::npos) << err;
}

TEST(Codegen, BoolOpsShortCircuitOnConstexprs) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def k(p, FLAG: tl.constexpr):
    if FLAG and undefined_name:
        tl.store(p, 1.0)
    if not FLAG or tl.load(p) > 0:
        tl.store(p, 2.0)
    y = undefined_too if FLAG else 1.0
    tl.store(p, y)
)",
                       "*fp32, False");
  EXPECT_EQ(count(k.text, " if "), 0) << k.text;
  EXPECT_EQ(count(k.text, "store"), 2) << k.text;
}

TEST(Codegen, EveryOpCarriesASourceLocation) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def helper(x):
    if x > 0:
        return x
    return -x

@triton.jit
def k(p, n):
    acc = 0
    for i in range(n):
        acc += helper(tl.load(p + i))
    while acc > 100:
        acc = acc // 2
    tl.store(p, acc if n > 1 else acc + 1)
)",
                       "*i32, i32");
  for (const auto& fn : k.ir.functions)
    ir::walk(fn->body, [&](ir::Op& op) {
      EXPECT_GT(op.loc.line, 0u) << op.name() << " in " << fn->name;
      EXPECT_EQ(op.loc.file, k.src.get()) << op.name();
    });
}

// ---- semantics through the interpreter -------------------------------------------------------

TEST(CodegenRun, NegativeStepAndCarriedValues) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def k(out, n):
    acc = 0
    cnt = 0
    for i in range(10, 0, -3):
        acc = acc * 100 + i
        cnt += 1
    s = 0
    for j in range(n, 0, -2):
        s += j
    tl.store(out, acc)
    tl.store(out + 1, cnt)
    tl.store(out + 2, s)
)",
                       "*i32, i32");
  for (int n : {7, 8, 1, 0, -3}) {
    std::vector<int32_t> out(3, kPoison);
    interp::run(k.ir, {1, 1, 1}, {ptr_arg(out.data()), int_arg(n)});
    int32_t acc = 0, cnt = 0, s = 0;
    for (int i = 10; i > 0; i -= 3) acc = acc * 100 + i, ++cnt;
    for (int j = n; j > 0; j -= 2) s += j;
    EXPECT_EQ(out[0], acc);
    EXPECT_EQ(out[1], cnt);
    EXPECT_EQ(out[2], s) << "n = " << n;
  }
}

TEST(CodegenRun, EarlyReturnInKernelAndHelper) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def pick(x, t):
    if x > t:
        return x * 2
    return x + 1

@triton.jit
def k(out, inp, n):
    pid = tl.program_id(0)
    if pid >= n:
        return
    v = tl.load(inp + pid)
    if pid % 3 == 0:
        tl.store(out + pid, pick(v, 5))
        return
    tl.store(out + pid, v - 100)
)",
                       "*i32, *i32, i32");
  const int grid = 12, n = 9;
  std::vector<int32_t> in = random_ints(grid, -20, 20, 1), out(grid, kPoison);
  interp::run(k.ir, {grid, 1, 1}, {ptr_arg(out.data()), ptr_arg(in.data()), int_arg(n)});
  for (int pid = 0; pid < grid; ++pid) {
    int32_t v = in[pid];
    int32_t want = pid >= n ? kPoison : pid % 3 == 0 ? (v > 5 ? v * 2 : v + 1) : v - 100;
    EXPECT_EQ(out[pid], want) << "pid " << pid;
  }
}

TEST(CodegenRun, WhileLoopWithNestedDynamicIf) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def k(out, inp):
    pid = tl.program_id(0)
    x = tl.load(inp + pid)
    steps = 0
    while x != 1:
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        steps += 1
    tl.store(out + pid, steps)
)",
                       "*i32, *i32");
  const int grid = 16;
  std::vector<int32_t> in = random_ints(grid, 1, 60, 2), out(grid, kPoison);
  interp::run(k.ir, {grid, 1, 1}, {ptr_arg(out.data()), ptr_arg(in.data())});
  for (int pid = 0; pid < grid; ++pid) {
    int64_t x = in[pid];
    int32_t steps = 0;
    while (x != 1) x = x % 2 == 0 ? x / 2 : 3 * x + 1, ++steps;
    EXPECT_EQ(out[pid], steps) << "input " << in[pid];
  }
}

TEST(CodegenRun, DynamicIfMergeTernaryAndStaticRange) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def k(out, inp, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for i in tl.static_range(3):
        acc += tl.load(inp + offs + i * BLOCK) * (i + 1)
    pid = tl.program_id(0)
    x = tl.load(inp + pid)
    if x > 0:
        y = x * 2
        z = x
    else:
        y = -x
        z = 0 - 1
    r = y + z if x > 3 else x * 3
    tl.store(out + offs, acc)
    tl.store(out + BLOCK + pid, r)
)",
                       "*i32, *i32, 4");
  const int B = 4, grid = 4;
  std::vector<int32_t> in = random_ints(3 * B, -9, 9, 3), out(2 * B, kPoison);
  interp::run(k.ir, {grid, 1, 1}, {ptr_arg(out.data()), ptr_arg(in.data())});
  for (int o = 0; o < B; ++o) {
    int32_t want = 0;
    for (int i = 0; i < 3; ++i) want += in[o + i * B] * (i + 1);
    EXPECT_EQ(out[o], want);
  }
  for (int pid = 0; pid < grid; ++pid) {
    int32_t x = in[pid];
    int32_t y = x > 0 ? x * 2 : -x, z = x > 0 ? x : -1;
    EXPECT_EQ(out[B + pid], x > 3 ? y + z : x * 3) << "x = " << x;
  }
}

TEST(CodegenRun, ReturnInsideStaticRangeElifChainAndTupleLoops) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def first_big(row, N: tl.constexpr):
    for i in tl.static_range(N):
        v = tl.load(row + i)
        if v > 5:
            return v
    return -1

@triton.jit
def classify(v):
    if v < -3:
        r = 0
    elif v < 0:
        r = 1
    elif v == 0:
        r = 2
    else:
        r = 3
    return r

@triton.jit
def k(out, inp, N: tl.constexpr):
    pid = tl.program_id(0)
    row = inp + pid * N
    s = 0
    for w in (1, 10, 100):
        s += tl.load(row) * w
    scaled = [c * 2 for c in (3, 4)]
    tl.store(out + pid * 3, first_big(row, N))
    tl.store(out + pid * 3 + 1, classify(tl.load(row + 1)) + scaled[1])
    tl.store(out + pid * 3 + 2, s)
)",
                       "*i32, *i32, 4");
  const int N = 4, grid = 8;
  std::vector<int32_t> in = random_ints(N * grid, -9, 9, 5), out(3 * grid, kPoison);
  interp::run(k.ir, {grid, 1, 1}, {ptr_arg(out.data()), ptr_arg(in.data())});
  for (int pid = 0; pid < grid; ++pid) {
    const int32_t* row = &in[pid * N];
    int32_t first = -1;
    for (int i = 0; i < N && first == -1; ++i)
      if (row[i] > 5) first = row[i];
    int32_t v = row[1];
    int32_t cls = v < -3 ? 0 : v < 0 ? 1 : v == 0 ? 2 : 3;
    EXPECT_EQ(out[pid * 3], first) << "pid " << pid;
    EXPECT_EQ(out[pid * 3 + 1], cls + 8) << "pid " << pid;
    EXPECT_EQ(out[pid * 3 + 2], row[0] * 111) << "pid " << pid;
  }
}

TEST(CodegenRun, ReduceWithJitCombineFunction) {
  Compiled k = compile(std::string(kPrelude) + R"(
@triton.jit
def combine(a, b):
    return a + b

@triton.jit
def k(out, inp, BLOCK: tl.constexpr):
    x = tl.load(inp + tl.arange(0, BLOCK))
    tl.store(out, tl.reduce(x, 0, combine))
)",
                       "*i32, *i32, 8");
  EXPECT_NE(k.text.find("callee = \"combine__i32_i32\""), std::string::npos) << k.text;
  std::vector<int32_t> in = random_ints(8, -50, 50, 4), out(1, kPoison);
  interp::run(k.ir, {1, 1, 1}, {ptr_arg(out.data()), ptr_arg(in.data())});
  int32_t want = 0;
  for (int32_t v : in) want += v;
  EXPECT_EQ(out[0], want);
}

}  // namespace
}  // namespace tritium::frontend
