// Regressions from fuzzing the frontend (tests/fuzz/frontend_fuzz.cpp, docs/fuzzing.md):
// each source below once crashed, hung, or exhausted memory; now it must be refused with a
// CompileError whose message holds the expected words, located (file:line:col) at the
// expected text. The same inputs are in the fuzz corpus (tests/fuzz/corpus/frontend,
// files named regress-*), which ctest replays.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>

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

}  // namespace
