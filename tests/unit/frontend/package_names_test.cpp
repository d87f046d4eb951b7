// Names the frontend gives fixed meanings: the Python package's own spellings of Triton's
// modules (`import tritium.language as tl`, `@tritium.jit`: src/frontend/module_loader.cpp,
// triton_alias) and the ".cv" cache modifier, which makes a load volatile so no pass moves
// it out of a polling loop (src/frontend/builtins_memory.cpp).
#include <gtest/gtest.h>

#include <string>

#include "frontend/module_loader.h"
#include "tritium/tritium.h"

namespace {

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(PackageNames, TritiumSpellingsAreTritonsModules) {
  using tritium::frontend::triton_alias;
  EXPECT_EQ(triton_alias("tritium"), "triton");
  EXPECT_EQ(triton_alias("tritium.language"), "triton.language");
  EXPECT_EQ(triton_alias("tritium.language.extra.libdevice"), "triton.language.extra.libdevice");
  EXPECT_EQ(triton_alias("tritiumx"), "tritiumx");  // another package
  EXPECT_EQ(triton_alias("mypkg.tritium"), "mypkg.tritium");
  EXPECT_TRUE(tritium::frontend::is_triton_module("tritium.language"));

  const char* src = R"(
import tritium
import tritium.language as tl
from tritium import language as lang
from tritium.language.extra import libdevice


@tritium.jit
def k(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = lang.arange(0, BLOCK)
    tl.store(out_ptr + offs, libdevice.floor(tl.load(x_ptr + offs)) + tritium.cdiv(BLOCK, 2))
)";
  auto m = tritium::Module::from_string(src, "pkg_names.py");
  ASSERT_EQ(m.kernel_names(), std::vector<std::string>{"k"});
  const std::string ir = m.kernel("k").ir("*fp32, *fp32, 64");
  EXPECT_EQ(count(ir, "load"), 1) << ir;
  EXPECT_NE(ir.find("floor"), std::string::npos) << ir;
}

TEST(PackageNames, CvLoadsAreVolatile) {
  const char* src = R"(
import triton
import triton.language as tl


@triton.jit
def spin(flag_ptr, out_ptr):
    v = tl.load(flag_ptr, cache_modifier=".cv")
    while v == 0:
        v = tl.load(flag_ptr, cache_modifier=".cv")
    w = tl.load(out_ptr, cache_modifier=".cg")
    tl.store(out_ptr, v + w)
)";
  auto m = tritium::Module::from_string(src, "spin.py");
  const std::string ir = m.kernel("spin").ir("*i32, *i32");
  // Both .cv loads stay (one before the loop, one in it) and are volatile; .cg is not.
  EXPECT_EQ(count(ir, "cache = \".cv\", evict = \"\", has_mask = 0, has_other = 0, volatile = 1"), 2) << ir;
  EXPECT_EQ(count(ir, "cache = \".cg\", evict = \"\", has_mask = 0, has_other = 0, volatile = 0"), 1) << ir;
}

}  // namespace
