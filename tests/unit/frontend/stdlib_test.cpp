// Unit tests of the Triton-language standard library mechanism (src/frontend/stdlib/
// stdlib.h): the embedded sources are the files of src/frontend/stdlib/ byte for byte
// (the build regenerated them), every module parses and exports what its `__all__` says,
// namespace lookups give jit functions of the stdlib module (public names only), and a
// stdlib function used from a kernel becomes helper functions of the kernel's IR module
// that resolve their own globals. Semantics of the functions themselves:
// tests/conformance/random_test.cpp; errors: tests/errors/random_errors_test.cpp.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "frontend/builtins.h"
#include "frontend/codegen.h"
#include "frontend/parser.h"
#include "frontend/stdlib/stdlib.h"

namespace tritium::frontend {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(Stdlib, EmbeddedSourcesMatchTheFiles) {
  const auto& srcs = stdlib::embedded_sources();
  ASSERT_FALSE(srcs.empty());
  bool random = false;
  for (const auto& e : srcs) {
    std::string path = std::string(TRITIUM_SOURCE_DIR) + "/src/frontend/stdlib/" + e.file;
    std::string disk = read_file(path);
    ASSERT_FALSE(disk.empty()) << path;
    EXPECT_EQ(std::string(e.text), disk) << e.file << " is stale in the binary (rebuild)";
    random |= std::string(e.file) == "random.py";
  }
  EXPECT_TRUE(random);
}

TEST(Stdlib, RandomModuleExports) {
  const stdlib::StdModule* m = nullptr;
  for (const auto& sm : stdlib::modules())
    if (sm.name == "random") m = &sm;
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->ns, "triton.language.random");
  EXPECT_EQ(m->module.source->name(), "<tritium-stdlib>/random.py");
  std::vector<std::string> want = {"pair_uniform_to_normal", "philox", "philox_impl", "rand",  "rand4x",
                                    "randint", "randint4x", "randn", "randn4x", "uint_to_uniform_float"};
  EXPECT_EQ(m->exports, want);
  for (const auto& name : want) {
    auto v = stdlib::lookup("triton.language", name);
    ASSERT_TRUE(v.has_value()) << name;
    EXPECT_EQ(v->kind, CValue::Kind::JitFn) << name;
    EXPECT_EQ(v->fn->name, name);
    EXPECT_EQ(v->fn_module, &m->module);
    EXPECT_TRUE(stdlib::is_stdlib_module(v->fn_module));
    auto w = stdlib::lookup("triton.language.random", name);
    ASSERT_TRUE(w.has_value()) << name;
    EXPECT_EQ(w->fn, v->fn);
  }
  EXPECT_TRUE(stdlib::is_stdlib_source(m->module.source.get()));
}

TEST(Stdlib, Lookups) {
  auto ns = stdlib::lookup("triton.language", "random");
  ASSERT_TRUE(ns.has_value());
  EXPECT_EQ(ns->kind, CValue::Kind::Namespace);
  EXPECT_EQ(ns->s, "triton.language.random");
  // private helpers and constants, unknown names, other namespaces
  EXPECT_FALSE(stdlib::lookup("triton.language.random", "_MUL32_W0").has_value());
  EXPECT_FALSE(stdlib::lookup("triton.language.random", "N_ROUNDS_DEFAULT").has_value());
  EXPECT_FALSE(stdlib::lookup("triton.language", "load").has_value());
  EXPECT_FALSE(stdlib::lookup("triton.language", "nope").has_value());
  EXPECT_FALSE(stdlib::lookup("libdevice", "randint").has_value());
  EXPECT_FALSE(stdlib::is_stdlib_module(nullptr));
  // through the language's namespace table, under every spelling
  for (const char* attr : {"randint", "rand", "philox_impl"}) {
    auto v = namespace_attr("triton.language", attr);
    ASSERT_TRUE(v.has_value()) << attr;
    EXPECT_EQ(v->kind, CValue::Kind::JitFn) << attr;
  }
  auto r = namespace_attr("triton.language", "random");
  ASSERT_TRUE(r.has_value());
  auto f = namespace_attr(r->s, "randn4x");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, CValue::Kind::JitFn);
}

TEST(Stdlib, HelpersOfTheKernelModule) {
  // A user function with a stdlib function's name and the stdlib function itself become two
  // distinct helpers; the stdlib's helpers resolve its globals, not the user's.
  const char* code =
      "import triton\nimport triton.language as tl\n"
      "N_ROUNDS_DEFAULT = 0\n"
      "@triton.jit\ndef randint(seed, offset):\n    return offset\n"
      "@triton.jit\ndef k(p, s):\n"
      "    o = tl.arange(0, 4)\n"
      "    tl.store(p + o, randint(s, o) + tl.randint(s, o))\n";
  SourceRef src = Source::from_string(code, "test.py");
  Module m = parse_module(src);
  Specialization spec;
  spec.args = parse_signature("*u32, i32");
  ir::Module out = generate_ir(m, "k", spec);
  int user = 0, stdlib_randint = 0, impl = 0;
  for (const auto& fn : out.functions) {
    std::string file(fn->loc.filename());
    if (fn->name.rfind("randint_", 0) == 0 && file == "test.py") ++user;
    if (fn->name.rfind("randint_", 0) == 0 && file == "<tritium-stdlib>/random.py") ++stdlib_randint;
    if (fn->name.rfind("philox_impl_", 0) == 0) ++impl;
  }
  EXPECT_EQ(user, 1);
  EXPECT_EQ(stdlib_randint, 1);
  EXPECT_EQ(impl, 1);
  // n_rounds defaulted from the stdlib's own N_ROUNDS_DEFAULT (10), not the user's 0: the
  // philox_impl helper is specialized on the constant 10 (its last mangled argument)
  std::string impl_name;
  for (const auto& fn : out.functions)
    if (fn->name.rfind("philox_impl_", 0) == 0) impl_name = fn->name;
  EXPECT_EQ(impl_name, "philox_impl__4xu32_4xu32_4xu32_4xu32_u32_u32_10");
}

}  // namespace
}  // namespace tritium::frontend
