// Kernels whose jit helpers and constants live in other Python files (a package next to the
// kernel's file), imported every way public kernels do it: relative, absolute, a module
// alias, a package re-export, decorator values from another file. Run on the interp and cpu
// backends against values computed here (integer arithmetic: exact); outputs poisoned.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tritium/tritium.h"

namespace {

namespace fs = std::filesystem;

class Imports : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    root = fs::temp_directory_path() / ("tritium_imports_" + std::to_string(::getpid()) + "_" + GetParam());
    fs::remove_all(root);
    write("lib/__init__.py", "from .ops.math_utils import triple\n");
    write("lib/ops/__init__.py", "");
    write("lib/ops/math_utils.py",
          "import triton\nimport triton.language as tl\n\nOFFSET: tl.constexpr = 7\nBLOCKS = [16, 32]\n\n"
          "@triton.jit\ndef triple(x):\n    return x * 3\n\n@triton.jit\ndef shifted(x, k: tl.constexpr = OFFSET):\n"
          "    return triple(x) + k\n");
    write("lib/ops/kern.py",
          "import torch\nimport triton\nimport triton.language as tl\n"
          "from .math_utils import shifted, OFFSET, BLOCKS\n"
          "from lib.ops import math_utils as mu\n"
          "import lib.ops.math_utils\n"
          "from lib import triple\n\n"
          "@triton.autotune(configs=[triton.Config({'BLOCK': b}) for b in BLOCKS], key=['n'])\n"
          "@triton.jit\ndef k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
          "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
          "    m = offs < n\n"
          "    x = tl.load(x_ptr + offs, mask=m)\n"
          "    y = shifted(x) + mu.triple(x) * OFFSET + lib.ops.math_utils.OFFSET + triple(x)\n"
          "    tl.store(y_ptr + offs, y, mask=m)\n\n"
          "@triton.jit\ndef uses_torch(x_ptr):\n    tl.store(x_ptr, torch.ones(1))\n\n"
          "@triton.jit\ndef uses_missing(x_ptr):\n    from_nowhere.f(x_ptr)\n");
    write("lib/ops/kern2.py", "import triton\nimport mylib_not_here as from_nowhere\n\n@triton.jit\ndef k(x_ptr):\n"
                              "    from_nowhere.f(x_ptr)\n");
  }
  void TearDown() override { fs::remove_all(root); }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  }
  fs::path root;
};

TEST_P(Imports, HelpersConstantsAndDecoratorValuesFromOtherFiles) {
  tritium::Device dev = tritium::Device::get(GetParam());
  tritium::Module mod = tritium::Module::from_file((root / "lib/ops/kern.py").string());
  tritium::Kernel k = mod.kernel("k");
  ASSERT_EQ(k.decorators().configs.size(), 2u);
  const int n = 100;
  std::vector<int32_t> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i * 7919) % 2001 - 1000;
  tritium::Buffer bx = dev.upload(x), by = dev.upload(std::vector<int32_t>(n, -123456789));
  auto grid = [&](const tritium::Meta& m) { return tritium::Grid(tritium::cdiv(n, std::get<int64_t>(m.at("BLOCK")))); };
  k.run(dev, grid, {tritium::Arg::tensor(bx, "i32"), tritium::Arg::tensor(by, "i32"), n});
  std::vector<int32_t> y = by.download<int32_t>();
  for (int i = 0; i < n; ++i) {
    const int32_t v = x[i];
    ASSERT_EQ(y[i], (3 * v + 7) + 3 * v * 7 + 7 + 3 * v) << i;
  }
}

TEST_P(Imports, ModulesThatAreNotFoundAreNamedWhereTheyAreUsed) {
  tritium::Device dev = tritium::Device::get(GetParam());
  tritium::Module mod = tritium::Module::from_file((root / "lib/ops/kern.py").string());
  try {
    mod.kernel("uses_torch").compile(dev, "*fp32");
    FAIL() << "expected an error";
  } catch (const tritium::CompileError& e) {
    EXPECT_EQ(e.line(), 20);
    EXPECT_EQ(e.message(), "module 'torch' (imported at line 1) cannot be used inside a jit function") << e.what();
  }
}

TEST_P(Imports, UserModulesThatAreNotFoundSayWhereTritiumLooked) {
  tritium::Device dev = tritium::Device::get(GetParam());
  tritium::Module mod = tritium::Module::from_file((root / "lib/ops/kern2.py").string());
  try {
    mod.kernel("k").compile(dev, "*fp32");
    FAIL() << "expected an error";
  } catch (const tritium::CompileError& e) {
    EXPECT_EQ(e.line(), 6);
    EXPECT_NE(e.message().find("module 'mylib_not_here' (imported at line 2) cannot be used inside a jit function: not "
                               "found under " + root.string() + ", " + (root / "lib/ops").string()),
              std::string::npos)
        << e.what();
    EXPECT_NE(e.message().find("TRITIUM_PYTHONPATH"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, Imports, ::testing::Values("interp", "cpu"));

}  // namespace
