// Error tests of tl.rand* / tl.randn* / tl.randint* / tl.philox* / tl.uint_to_uniform_float /
// tl.pair_uniform_to_normal (src/frontend/stdlib/random.py): misuse that upstream Triton
// 3.6 rejects at compile time is a CompileError at the user's call site (line:col of the
// call, 1-based; lines 1-2 are the imports), naming the function; when the check fails
// inside the stdlib, the message also names that location ("raised at
// <tritium-stdlib>/random.py:L:C ..."). Only the stable parts of messages are compared
// (the stdlib line numbers move when the library is edited).
#include <gtest/gtest.h>

#include <string>

#include "frontend/codegen.h"
#include "frontend/parser.h"

namespace tritium::frontend {
namespace {

const std::string kPrelude = "import triton\nimport triton.language as tl\n";
const std::string kStdlibMark = " (raised at <tritium-stdlib>/random.py:";
const std::string kStdlibEnd = " in tritium's Triton-language standard library)";

// A kernel k(params) whose body (already indented) starts at line 5.
std::string kernel(const std::string& body, const std::string& params = "p") {
  return kPrelude + "@triton.jit\ndef k(" + params + "):\n" + body;
}

// Compiles and checks the error: location, message start, and whether it was raised in
// the stdlib.
void expect_error(const std::string& code, const std::string& sig, uint32_t line, uint32_t col,
                  const std::string& message_start, bool in_stdlib) {
  SourceRef src = Source::from_string(code, "test.py");
  Module m = parse_module(src);
  Specialization spec;
  spec.args = parse_signature(sig);
  try {
    generate_ir(m, "k", spec);
    ADD_FAILURE() << "no error; expected: " << message_start;
  } catch (const CompileError& e) {
    const std::string& msg = e.message();
    EXPECT_EQ(msg.substr(0, message_start.size()), message_start) << e.what();
    EXPECT_EQ(e.loc().line, line) << e.what();
    EXPECT_EQ(e.loc().col, col) << e.what();
    EXPECT_EQ(e.loc().filename(), "test.py") << e.what();
    bool marked = msg.find(kStdlibMark) != std::string::npos;
    EXPECT_EQ(marked, in_stdlib) << e.what();
    if (in_stdlib) EXPECT_EQ(msg.substr(msg.size() - kStdlibEnd.size()), kStdlibEnd) << e.what();
  }
}

// ---- seeds --------------------------------------------------------------------------------------

TEST(RandomErrors, FloatSeed) {
  expect_error(kernel("    x = tl.rand(1.5, tl.arange(0, 4))\n"), "*fp32", 5, 9,
               "tl.rand: the seed of tl.philox / tl.rand* / tl.randn* / tl.randint* must be an integer", true);
}

TEST(RandomErrors, FloatTensorSeed) {
  expect_error(kernel("    x = tl.randn(s, tl.arange(0, 4))\n", "p, s"), "*fp32, fp32", 5, 9,
               "tl.randn: the seed of tl.philox / tl.rand* / tl.randn* / tl.randint* must be an integer", true);
}

TEST(RandomErrors, PointerSeed) {
  // upstream test_seed_is_int: a tensor argument (a pointer) is not a seed
  expect_error(kernel("    x = tl.randint(p, tl.arange(0, 4))\n"), "*i32", 5, 9,
               "tl.randint: the seed of tl.philox / tl.rand* / tl.randn* / tl.randint* must be an integer", true);
}

// ---- offsets ------------------------------------------------------------------------------------

TEST(RandomErrors, Float64Offsets) {
  // upstream takes the high word of a 64-bit offset with `>>`, which floats do not have
  expect_error(kernel("    x = tl.randint(0, tl.arange(0, 4).to(tl.float64))\n"), "*fp32", 5, 9,
               "tl.randint: ", true);
}

TEST(RandomErrors, PythonIntOffset) {
  expect_error(kernel("    x = tl.rand4x(0, 5)\n"), "*fp32", 5, 9,
               "tl.rand4x: attribute 'to' of constexpr int 5 is not supported", true);
}

// ---- n_rounds -----------------------------------------------------------------------------------

TEST(RandomErrors, RunTimeNRounds) {
  expect_error(kernel("    x = tl.randint(0, tl.arange(0, 4), n)\n", "p, n"), "*fp32, i32", 5, 9,
               "argument 'n_rounds' of randint() is tl.constexpr but receives a run-time value", false);
}

TEST(RandomErrors, RunTimeNRoundsByKeyword) {
  expect_error(kernel("    x = tl.randn4x(0, tl.arange(0, 4), n_rounds=n)\n", "p, n"), "*fp32, i32", 5, 9,
               "argument 'n_rounds' of randn4x() is tl.constexpr but receives a run-time value", false);
}

TEST(RandomErrors, TooManyArguments) {
  expect_error(kernel("    x = tl.rand(0, tl.arange(0, 4), 10, 1)\n"), "*fp32", 5, 9,
               "rand() takes 3 positional arguments but 4 were given", false);
}

// ---- philox / philox_impl ----------------------------------------------------------------------

TEST(RandomErrors, PhiloxImplSignedCounters) {
  expect_error(kernel("    o = tl.arange(0, 4)\n    a, b, c, d = tl.philox_impl(o, o, o, o, 0, 0)\n"), "*fp32", 6, 18,
               "tl.philox_impl: tl.philox_impl needs uint32 or uint64 counter words", true);
}

TEST(RandomErrors, PhiloxNarrowCounters) {
  expect_error(kernel("    o = tl.arange(0, 4).to(tl.int16)\n    a, b, c, d = tl.philox(1, o, o, o, o)\n"), "*fp32", 6,
               18, "tl.philox: tl.philox needs 32- or 64-bit counter words", true);
}

TEST(RandomErrors, PhiloxCounterWidthsDiffer) {
  expect_error(kernel("    o = tl.arange(0, 4)\n    a, b, c, d = tl.philox(1, o, o.to(tl.int64), o, o)\n"), "*fp32", 6,
               18, "tl.philox: ", true);
}

// ---- float conversions --------------------------------------------------------------------------

TEST(RandomErrors, UniformFromFloat) {
  expect_error(kernel("    x = tl.uint_to_uniform_float(tl.arange(0, 4).to(tl.float32))\n"), "*fp32", 5, 9,
               "tl.uint_to_uniform_float: tl.uint_to_uniform_float needs 32- or 64-bit integers", true);
}

TEST(RandomErrors, UniformFromInt16) {
  expect_error(kernel("    x = tl.random.uint_to_uniform_float(tl.arange(0, 4).to(tl.int16))\n"), "*fp32", 5, 9,
               "tl.uint_to_uniform_float: tl.uint_to_uniform_float needs 32- or 64-bit integers", true);
}

TEST(RandomErrors, NormalFromFp16) {
  // tl.maximum(1e-7, u1) is fp32 (upstream converts the literal to an fp32 tensor first), but
  // the angle stays fp16 and tl.cos takes fp32 / fp64 only, as upstream
  expect_error(kernel("    h = tl.arange(0, 4).to(tl.float16)\n    a, b = tl.pair_uniform_to_normal(h, h)\n"), "*fp32",
               6, 12, "tl.pair_uniform_to_normal: tl.cos expected dtype [fp32, fp64] but got fp16", true);
}

// ---- names --------------------------------------------------------------------------------------

TEST(RandomErrors, PrivateNamesAreNotExported) {
  expect_error(kernel("    x = tl.random._MUL32_W0\n"), "*fp32", 5, 19,
               "module 'triton.language.random' has no attribute '_MUL32_W0'", false);
}

}  // namespace
}  // namespace tritium::frontend
