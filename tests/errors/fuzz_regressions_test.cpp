// Regressions from fuzzing the frontend (tests/fuzz/frontend_fuzz.cpp, docs/fuzzing.md):
// each source below once crashed, hung, or exhausted memory; now it must be refused with a
// CompileError whose message holds the expected words, located (file:line:col) at the
// expected text. Their sources are seeds of the fuzz corpus too (tests/fuzz/make_seeds.py
// takes every raw-string kernel of the C++ tests), which ctest replays.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>

#include "tritium/tritium.h"

namespace {

const char* const kFile = "fuzz.py";
const std::string kHead = "import triton\nimport triton.language as tl\n\n";

// Compiles kernel `kernel` of `src` to IR with `sig` and expects a CompileError holding
// `message_part`, located at the first occurrence of `at` in the source, within `seconds`.
void expect_refused(const std::string& src, const std::string& kernel, const std::string& sig,
                    const std::string& message_part, const std::string& at, double seconds = 20) {
  const size_t pos = src.find(at);
  ASSERT_NE(pos, std::string::npos) << "'" << at << "' is not in the source";
  const int line = 1 + static_cast<int>(std::count(src.begin(), src.begin() + static_cast<long>(pos), '\n'));
  const int col = 1 + static_cast<int>(pos - (src.rfind('\n', pos) + 1));
  const auto start = std::chrono::steady_clock::now();
  try {
    tritium::Module::from_string(src, kFile).kernel(kernel).ir(sig);
    ADD_FAILURE() << "no error; expected one holding: " << message_part;
  } catch (const tritium::CompileError& e) {
    EXPECT_NE(e.message().find(message_part), std::string::npos) << e.what();
    EXPECT_EQ(e.file(), kFile);
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.col(), col) << e.what();
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(s, seconds) << "the refusal took " << s << " s";
}

// A helper calling itself twice with a smaller constexpr: 2^40 copies once inlined (refused
// where the copies first pass the limit: the second call, inside the helper).
TEST(FuzzRegressions, ExponentialInliningIsRefusedAtTheCall) {
  const std::string src = kHead +
                          "@triton.jit\n"
                          "def f(x, D: tl.constexpr):\n"
                          "    if D > 0:\n"
                          "        return f(x, D - 1) + f(x, D - 1)\n"
                          "    return x\n\n"
                          "@triton.jit\n"
                          "def k(x_ptr):\n"
                          "    tl.store(x_ptr, f(1, 40))\n";
  expect_refused(src, "k", "*fp32", "inlining this call makes it larger than 65536 IR ops", "f(x, D - 1)\n");
}

// Unrolling multiplies code: 30000 iterations of a three-op body.
TEST(FuzzRegressions, HugeUnrolledFunctionIsRefused) {
  const std::string src = kHead +
                          "@triton.jit\n"
                          "def k(x_ptr, y_ptr):\n"
                          "    a = tl.load(x_ptr)\n"
                          "    for i in tl.static_range(30000):\n"
                          "        a = a * 2 + i\n"
                          "    tl.store(y_ptr, a)\n";
  expect_refused(src, "k", "*fp32, *fp32", "'k' is too large to compile", "a = a * 2 + i");
}

// Nested dynamic loops: each body is dry-run once before it is generated (2^depth).
TEST(FuzzRegressions, DeeplyNestedLoopsAreRefusedNotExponential) {
  std::string body;
  for (int i = 0; i < 40; ++i) body += std::string(4 * (i + 1), ' ') + "for i" + std::to_string(i) + " in range(n):\n";
  body += std::string(4 * 41, ' ') + "a = a + 1\n";
  const std::string src = kHead + "@triton.jit\ndef k(x_ptr, n):\n    a = tl.load(x_ptr)\n" + body +
                          "    tl.store(x_ptr, a)\n";
  expect_refused(src, "k", "*fp32, i32", "'k' is too large to compile", "a = a + 1");
}

// tl.static_range whose last step passes INT64_MAX: the loop counter overflowed (undefined
// behaviour, found by UBSan in the fuzz build); now the range ends there, as Python's does.
TEST(FuzzRegressions, StaticRangeNearInt64LimitsEndsWithoutOverflow) {
  for (const char* range : {"9223372036854775800, 9223372036854775807, 5",
                            "-9223372036854775801, -9223372036854775808, -5"}) {
    const std::string src = kHead + "@triton.jit\ndef k(y_ptr):\n    n = 0\n    for i in tl.static_range(" + range +
                            "):\n        n += 1\n    tl.store(y_ptr, n)\n";
    const std::string ir = tritium::Module::from_string(src, kFile).kernel("k").ir("*i32");
    EXPECT_NE(ir.find("constant {value = 2} : i32"), std::string::npos) << range << ": two iterations expected\n" << ir;
  }
}

// Host code (constexpr functions, decorator arguments) is evaluated at compile time; before
// these bounds a newcomer's review found it could hang or exhaust memory (session 31).
TEST(FuzzRegressions, HostCodeThatRunsTooLongIsRefusedAtTheCall) {
  const std::string loops = kHead +
                            "@triton.constexpr_function\n"
                            "def f(n):\n"
                            "    s = 0\n"
                            "    for i in range(n):\n"
                            "        for j in range(n):\n"
                            "            for k in range(n):\n"
                            "                s = s + 1\n"
                            "    return s\n\n"
                            "@triton.jit\n"
                            "def k(x_ptr):\n"
                            "    tl.store(x_ptr, f(100000))\n";
  expect_refused(loops, "k", "*i32", "host code took more than 5000000 evaluation steps", "f(100000)");
  const std::string whiles = kHead +
                             "@triton.constexpr_function\n"
                             "def f(n):\n"
                             "    i = 0\n"
                             "    while i < n:\n"
                             "        j = 0\n"
                             "        while j < n:\n"
                             "            j = j + 1\n"
                             "        i = i + 1\n"
                             "    return i\n\n"
                             "@triton.jit\n"
                             "def k(x_ptr):\n"
                             "    tl.store(x_ptr, f(999999))\n";
  expect_refused(whiles, "k", "*i32", "host code took more than 5000000 evaluation steps", "f(999999)");
  // A static loop calling a long constexpr function: one budget for the whole kernel.
  const std::string repeated = kHead +
                               "@triton.constexpr_function\n"
                               "def f(n):\n"
                               "    s = 0\n"
                               "    for i in range(n):\n"
                               "        s = s + i\n"
                               "    return s\n\n"
                               "@triton.jit\n"
                               "def k(x_ptr):\n"
                               "    for r in tl.static_range(1000):\n"
                               "        tl.store(x_ptr + r, f(50000))\n";
  expect_refused(repeated, "k", "*i64", "host code took more than 5000000 evaluation steps", "f(50000)");
  // Copies cost steps: values are copied whole, so reading a name bound to a 1M-element list
  // 100000 times (or nesting x = [x] 500000 times) took hours within the step count.
  const std::string reads = kHead +
                            "@triton.constexpr_function\n"
                            "def f(n):\n"
                            "    big = [0] * 1000000\n"
                            "    t = 0\n"
                            "    for i in range(100000):\n"
                            "        t = t + len(big)\n"
                            "    return t\n\n"
                            "@triton.jit\n"
                            "def k(x_ptr):\n"
                            "    tl.store(x_ptr, f(1) // 1000000000)\n";
  expect_refused(reads, "k", "*i64", "host code took more than 5000000 evaluation steps", "f(1)");
  const std::string nests = kHead +
                            "@triton.constexpr_function\n"
                            "def f(n):\n"
                            "    x = []\n"
                            "    i = 0\n"
                            "    while i < 500000:\n"
                            "        x = [x]\n"
                            "        i += 1\n"
                            "    return i\n\n"
                            "@triton.jit\n"
                            "def k(x_ptr):\n"
                            "    tl.store(x_ptr, f(1))\n";
  expect_refused(nests, "k", "*i64", "host code took more than 5000000 evaluation steps", "f(1)");
  // Merging two 100000-key dicts scanned 2e10 keys inside one expression (29 s) before the
  // scans were charged at each insertion.
  const std::string merge = kHead +
                            "@triton.constexpr_function\n"
                            "def f(n):\n"
                            "    a = {i: i for i in range(100000)}\n"
                            "    return len({**a, **a})\n\n"
                            "@triton.jit\n"
                            "def k(x_ptr):\n"
                            "    tl.store(x_ptr, f(1))\n";
  expect_refused(merge, "k", "*i64", "host code took more than 5000000 evaluation steps", "f(1)", 5);
}

// A dict comprehension repeating a key keeps one entry, as in Python (it kept every one).
TEST(FuzzRegressions, DictComprehensionsReplaceRepeatedKeys) {
  const std::string src = kHead +
                          "@triton.constexpr_function\n"
                          "def f(n):\n"
                          "    return len({i % 3: i for i in range(n)})\n\n"
                          "@triton.jit\n"
                          "def k(x_ptr):\n"
                          "    tl.store(x_ptr, f(10) * 1000 + f(2))\n";
  const std::string ir = tritium::Module::from_string(src, kFile).kernel("k").ir("*i32");
  EXPECT_NE(ir.find("constant {value = 3002} : i32"), std::string::npos) << ir;
}

TEST(FuzzRegressions, HostListsAndStringsPastTheLimitAreRefused) {
  auto kernel_calling_f = [](const std::string& body) {
    return kHead + "@triton.constexpr_function\ndef f(n):\n" + body +
           "    return len(x)\n\n@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, f(1000000000000000000))\n";
  };
  // [0] * 10**18: a 10**18-element list was allocated (out of memory, no location).
  expect_refused(kernel_calling_f("    x = [0] * n\n"), "k", "*i64", "a list, tuple or string of 1000000000000000000 elements is too large",
                 "f(1000000000000000000)");
  // Doubling 40 times: 2**40 elements after 7 GB.
  expect_refused(kernel_calling_f("    x = [1]\n    for i in range(40):\n        x += x\n"), "k", "*i64",
                 "a list, tuple or string of 2097152 elements is too large", "f(1000000000000000000)");
  expect_refused(kernel_calling_f("    x = 'ab'\n    for i in range(62):\n        x = x + x\n"), "k", "*i64",
                 "a list, tuple or string of 2097152 elements is too large", "f(1000000000000000000)");
  // Under the limit the same code runs: 2**20 elements.
  const std::string ok = kernel_calling_f("    x = [1]\n    for i in range(20):\n        x += x\n");
  const std::string ir = tritium::Module::from_string(ok, kFile).kernel("k").ir("*i64");
  EXPECT_NE(ir.find("1048576"), std::string::npos) << ir;
}

// Two modules whose functions call each other: each module's evaluator counted its own
// depth from 0, so the recursion was unbounded (a stack overflow).
TEST(FuzzRegressions, RecursionBetweenModulesIsRefused) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("tritium_xmod_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "a.py") << kHead
                              << "from b import g\n\n"
                                 "@triton.constexpr_function\n"
                                 "def f(n):\n"
                                 "    return g(n + 1)\n\n"
                                 "@triton.jit\n"
                                 "def k(x_ptr):\n"
                                 "    tl.store(x_ptr, f(0))\n";
  std::ofstream(dir / "b.py") << "import triton\nfrom a import f\n\n"
                                 "@triton.constexpr_function\n"
                                 "def g(n):\n"
                                 "    return f(n + 1)\n";
  try {
    tritium::Module::from_file((dir / "a.py").string()).kernel("k").ir("*i32");
    ADD_FAILURE() << "no error";
  } catch (const tritium::CompileError& e) {
    EXPECT_NE(e.message().find("calls nested too deeply in host code"), std::string::npos) << e.what();
    EXPECT_EQ(e.line(), 12) << e.what();  // the call f(0) in the kernel
  }
  fs::remove_all(dir);
}

// triton.Config's options were narrowed to int without a check: 2**32 + 4 warps became 4.
TEST(FuzzRegressions, ConfigOptionsOutOfRangeAreRefusedAtTheConfig) {
  for (const char* opts : {"num_warps=2**32 + 4", "num_warps=3", "num_stages=2**32 + 1", "num_stages=-1"}) {
    const std::string src = kHead + "@triton.autotune(configs=[triton.Config({'BLOCK': 16}, " + opts +
                            ")], key=[])\n@triton.jit\ndef k(x_ptr, BLOCK: tl.constexpr):\n"
                            "    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)\n";
    try {
      tritium::Module::from_string(src, kFile).kernel("k").decorators();
      ADD_FAILURE() << opts << ": no error";
    } catch (const tritium::CompileError& e) {
      EXPECT_NE(e.message().find("triton.Config("), std::string::npos) << e.what();
      EXPECT_NE(e.message().find(" must be "), std::string::npos) << e.what();
      EXPECT_EQ(e.line(), 4) << e.what();
    }
  }
}

// An if / elif chain nests in the tree: 10000 branches overflowed the stack.
TEST(FuzzRegressions, LongElifChainsAreRefused) {
  std::string body = "    if N == 0:\n        v = 0\n";
  for (int i = 1; i < 300; ++i) body += "    elif N == " + std::to_string(i) + ":\n        v = " + std::to_string(i) + "\n";
  const std::string src = kHead + "@triton.jit\ndef k(x_ptr, N):\n" + body + "    else:\n        v = -1\n    tl.store(x_ptr, v)\n";
  expect_refused(src, "k", "*i32, i32", "if / elif chain too long or ifs nested too deeply (more than 200 levels)",
                 "elif N == 200:");
}

// Deep expressions inside recursion: the 400-level expression bound times the 64-call bound
// overflowed the 8 MiB stack (SIGSEGV) before the whole-stack check. With a thread stack
// large enough the kernel compiles; otherwise the refusal is located. Either way, no crash.
TEST(FuzzRegressions, DeepExpressionsInsideRecursionDoNotOverflowTheStack) {
  std::string negs;
  for (int i = 0; i < 380; ++i) negs += "- ";
  const std::string jit = kHead + "@triton.jit\ndef h(x, N: tl.constexpr):\n    if N > 0:\n        return " + negs +
                          "h(x, N - 1)\n    return x\n\n@triton.jit\ndef k(x_ptr, n):\n    tl.store(x_ptr, h(n, 40))\n";
  const std::string host = kHead + "@triton.constexpr_function\ndef f(n):\n    if n > 30:\n        return 0\n    return " +
                           negs + "f(n + 1)\n\n@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, f(0))\n";
  for (const auto& [src, sig, what] :
       {std::tuple<std::string, const char*, const char*>{jit, "*i32, i32", "the program nests too deeply to compile here"},
        {host, "*i32", "host code nests too deeply to evaluate at compile time"}}) {
    try {
      tritium::Module::from_string(src, kFile).kernel("k").ir(sig);  // a large enough stack: it compiles
    } catch (const tritium::CompileError& e) {
      EXPECT_NE(e.message().find(what), std::string::npos) << e.what();
      EXPECT_GT(e.line(), 0) << e.what();
    }
  }
}

}  // namespace
