// tritium::Module::set_host_globals: module-level constexprs computed by host code the
// frontend does not evaluate (the Python package passes Python's values) take the place of
// the source's evaluation, in this module only, and are frozen once a kernel compiled.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "tritium/tritium.h"

namespace {

const char* const kSrc = R"(import triton
import triton.language as tl

def pick():
    return 32

BLOCK = tl.constexpr(pick())
SCALE = tl.constexpr(pick() / 16)

@triton.jit
def scale_kernel(x_ptr, out_ptr, n):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * SCALE, mask=m)
)";

TEST(HostGlobals, WithoutThemTheFrontendRefusesTheUnevaluatedGlobal) {
  auto mod = tritium::Module::from_string(kSrc, "host_globals.py");
  try {
    (void)mod.kernel("scale_kernel").compile(tritium::Device::get("interp"), "*fp32, *fp32, i32");
    FAIL() << "BLOCK cannot be evaluated from the source";
  } catch (const tritium::CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("'pick'"), std::string::npos) << e.what();
  }
}

TEST(HostGlobals, TheHostValuesAreUsedAndThenFrozen) {
  auto mod = tritium::Module::from_string(kSrc, "host_globals.py");
  mod.set_host_globals({{"BLOCK", int64_t{32}}, {"SCALE", 2.0}});
  tritium::Device dev = tritium::Device::get("interp");
  auto k = mod.kernel("scale_kernel").compile(dev, "*fp32, *fp32, i32");
  const int n = 100;
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> u(-4.f, 4.f);
  std::vector<float> x(n);
  for (float& v : x) v = u(gen);
  auto bx = dev.upload(x), bout = dev.alloc(n * 4);
  bout.fill(NAN);
  k.launch({2}, {bx, bout, n});  // 2 programs of BLOCK = 32: elements 0..63 only
  std::vector<float> out = bout.download<float>();
  for (int i = 0; i < n; ++i) {
    if (i < 64) ASSERT_EQ(out[i], static_cast<float>(2.0 * x[i])) << "i=" << i;  // exact: times 2
    else ASSERT_TRUE(std::isnan(out[i])) << "i=" << i << " written past 2 * BLOCK";
  }
  try {
    mod.set_host_globals({{"BLOCK", int64_t{64}}});
    FAIL() << "changing host globals after a compile must throw";
  } catch (const tritium::Error& e) {
    EXPECT_EQ(e.kind(), tritium::ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("already compiled"), std::string::npos) << e.what();
  }
}

// Module::global_value_key: the frontend's value of a module-level name as a comparison key
// (the Python package compares it with Python's value of a name a kernel reads).
TEST(HostGlobals, GlobalValueKeysAreTheFrontendsValues) {
  tritium::Module m = tritium::Module::from_string(
      "import triton\nimport triton.language as tl\n"
      "A = 4\nB = tl.constexpr(0.5)\nC = (3, (1.0, True))\nD = tl.constexpr(None)\nE = tl.float16\nF = 'gelu'\n"
      "G = 1e16\nH = -0.0\n\n@triton.jit\ndef k(x):\n    pass\n",
      "keys.py");
  EXPECT_EQ(m.global_value_key("A"), "int:4");
  EXPECT_EQ(m.global_value_key("B"), "float:0.5");
  EXPECT_EQ(m.global_value_key("C"), "(int:3,(float:1.0,True))");
  EXPECT_EQ(m.global_value_key("D"), "None");
  EXPECT_EQ(m.global_value_key("E"), "dtype:fp16");
  EXPECT_EQ(m.global_value_key("F"), "str:gelu");
  EXPECT_EQ(m.global_value_key("G"), "float:1e+16");  // Python's repr(1e16)
  EXPECT_EQ(m.global_value_key("H"), "float:-0.0");
  EXPECT_EQ(m.global_value_key("k"), std::nullopt);      // a jit function: not a value
  EXPECT_EQ(m.global_value_key("missing"), std::nullopt);
  m.set_host_globals({{"A", int64_t{8}}});
  EXPECT_EQ(m.global_value_key("A"), "int:8");  // host values apply
}

// Module::default_value_key: a jit function's parameter default as the frontend evaluates
// it, where the def stands (a later rebinding and host values do not change it).
TEST(HostGlobals, DefaultValueKeysAreEvaluatedWhereTheDefStands) {
  tritium::Module m = tritium::Module::from_string(
      "import triton\nimport triton.language as tl\nN = 4\n\n"
      "@triton.jit\ndef h(x, N: tl.constexpr = N, S: tl.constexpr = (1, 2.5), D=None, F: tl.constexpr = tl.float32):\n"
      "    return x\n\nN = 8\n",
      "defaults.py");
  m.set_host_globals({{"N", int64_t{16}}});
  EXPECT_EQ(m.default_value_key("h", "N"), "int:4");
  EXPECT_EQ(m.default_value_key("h", "S"), "(int:1,float:2.5)");
  EXPECT_EQ(m.default_value_key("h", "D"), "None");
  EXPECT_EQ(m.default_value_key("h", "F"), "dtype:fp32");
  EXPECT_EQ(m.default_value_key("h", "x"), std::nullopt);        // no default
  EXPECT_EQ(m.default_value_key("h", "missing"), std::nullopt);  // no such parameter
  EXPECT_EQ(m.default_value_key("N", "x"), std::nullopt);        // not a function
  EXPECT_EQ(m.global_value_key("N"), "int:16");
}

}  // namespace
