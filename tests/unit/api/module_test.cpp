// tritium::Module / Kernel: loading, kernel lookup, parameters, and the checking of a
// signature against the parameters (no code generation involved).
#include <gtest/gtest.h>

#include <cstdio>

#include <unistd.h>

#include <fstream>

#include "api/api_internal.h"
#include "tritium/tritium.h"

namespace {

using tritium::Error;
using tritium::ErrorKind;

const char* const kSource = R"(import triton
import triton.language as tl

HOST_CONSTANT = 3

class NotAKernel:
    def method(self):
        return 1

@triton.jit
def helper(x):
    return x + 1

@triton.jit
def scale_kernel(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr, EVEN: tl.constexpr = False,
                 ROWS: "tl.constexpr" = 2 * 4):
    pass

def host_function(a):
    return a * 2

@triton.jit
def broken_kernel(x_ptr):
    x = = 1

if __name__ == "__main__":
    print("host code is skipped")
)";

std::string expect_error(const std::function<void()>& f, ErrorKind kind) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error thrown";
  return "";
}

TEST(ApiModule, FindsJitFunctionsAndSkipsHostCode) {
  tritium::Module m = tritium::Module::from_string(kSource, "mod.py");
  EXPECT_EQ(m.name(), "mod.py");
  std::vector<std::string> names = m.kernel_names();
  EXPECT_EQ(names, (std::vector<std::string>{"helper", "scale_kernel", "broken_kernel"}));
}

TEST(ApiModule, ParametersWithConstexprFlagsAndDefaults) {
  tritium::Module m = tritium::Module::from_string(kSource, "mod.py");
  tritium::Kernel k = m.kernel("scale_kernel");
  EXPECT_EQ(k.name(), "scale_kernel");
  const auto& p = k.parameters();
  ASSERT_EQ(p.size(), 7u);
  const char* names[] = {"x_ptr", "out_ptr", "n", "alpha", "BLOCK", "EVEN", "ROWS"};
  const bool cx[] = {false, false, false, false, true, true, true};
  for (size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(p[i].name, names[i]);
    EXPECT_EQ(p[i].is_constexpr, cx[i]) << names[i];
    EXPECT_EQ(p[i].has_default, i >= 5) << names[i];
  }
  EXPECT_EQ(p[5].default_text, "False");
  EXPECT_EQ(p[6].default_text, "2 * 4");
}

TEST(ApiModule, UnknownKernelListsTheKernelsFound) {
  tritium::Module m = tritium::Module::from_string(kSource, "mod.py");
  std::string msg = expect_error([&] { m.kernel("host_function"); }, ErrorKind::NotFound);
  EXPECT_NE(msg.find("no jit kernel named 'host_function' in mod.py (kernels found: helper, scale_kernel, "
                     "broken_kernel)"),
            std::string::npos)
      << msg;
}

TEST(ApiModule, SyntaxErrorSurfacesWhenTheKernelIsUsed) {
  tritium::Module m = tritium::Module::from_string(kSource, "mod.py");
  try {
    m.kernel("broken_kernel");
    FAIL();
  } catch (const tritium::CompileError& e) {
    EXPECT_EQ(e.file(), "mod.py");
    EXPECT_EQ(e.line(), 24) << e.what();  // `x = = 1`
    EXPECT_EQ(e.col(), 9) << e.what();    // the second '='

    std::string w = e.what();
    EXPECT_EQ(w.rfind("mod.py:" + std::to_string(e.line()) + ":" + std::to_string(e.col()) + ": error: ", 0), 0u)
        << w;
    EXPECT_NE(w.find('^'), std::string::npos) << w;
  }
}

TEST(ApiModule, MissingFileIsNotFound) {
  std::string msg = expect_error([] { tritium::Module::from_file("/nonexistent/dir/k.py"); }, ErrorKind::NotFound);
  EXPECT_NE(msg.find("/nonexistent/dir/k.py"), std::string::npos);
}

TEST(ApiModule, FromFileReadsTheFile) {
  std::string path = ::testing::TempDir() + "/api_module_test_" + std::to_string(::getpid()) + ".py";
  std::ofstream(path) << kSource;
  tritium::Module m = tritium::Module::from_file(path);
  std::remove(path.c_str());
  EXPECT_EQ(m.name(), path);
  EXPECT_EQ(m.kernel_names().size(), 3u);
}

TEST(ApiModule, VariadicParametersAreRefused) {
  tritium::Module m = tritium::Module::from_string("import triton\n@triton.jit\ndef k(x, *rest):\n    pass\n", "v.py");
  try {
    m.kernel("k");
    FAIL();
  } catch (const tritium::CompileError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(e.message().find("variadic parameter '*rest'"), std::string::npos) << e.what();
  }
}

// ------------------------------------------------------------------ signatures

class ApiSignature : public ::testing::Test {
 protected:
  std::vector<tritium::Parameter> params =
      tritium::Module::from_string(kSource, "mod.py").kernel("scale_kernel").parameters();

  std::string refused(const std::string& sig, const std::map<std::string, tritium::ConstexprValue>& cx = {}) {
    return expect_error([&] { tritium::detail::resolve_specialization("scale_kernel", params, sig, cx, nullptr); },
                        ErrorKind::Signature);
  }
};

TEST_F(ApiSignature, RuntimeParametersInLaunchOrder) {
  std::vector<tritium::ArgInfo> rt;
  auto spec = tritium::detail::resolve_specialization("scale_kernel", params, "*fp16:16, *fp32, i32:16, bf16, 256",
                                                      {{"EVEN", true}}, &rt);
  ASSERT_EQ(rt.size(), 4u);
  EXPECT_EQ(rt[0].name, "x_ptr");
  EXPECT_TRUE(rt[0].is_pointer);
  EXPECT_EQ(rt[0].dtype, "fp16");
  EXPECT_EQ(rt[0].divisibility, 16);
  EXPECT_EQ(rt[1].dtype, "fp32");
  EXPECT_EQ(rt[1].divisibility, 1);
  EXPECT_FALSE(rt[2].is_pointer);
  EXPECT_EQ(rt[2].dtype, "i32");
  EXPECT_EQ(rt[2].divisibility, 16);
  EXPECT_EQ(rt[3].dtype, "bf16");
  EXPECT_EQ(spec.str(), "*fp16:16, *fp32, i32:16, bf16, 256, EVEN=True");
  tritium::detail::resolve_specialization("scale_kernel", params, "*fp32, *fp32, i64:1, fp32, 64, True, 3", {}, &rt);
  EXPECT_TRUE(rt[2].equal_to_1);
}

TEST_F(ApiSignature, MismatchesNameTheParameter) {
  EXPECT_NE(refused("*fp32, *fp32, i32, fp32, 64, True, 3, 9").find("the signature has 8 entries but the kernel has 7"),
            std::string::npos);
  EXPECT_NE(refused("*fp32, *fp32, i32, fp32, i32").find("parameter 'BLOCK' (#5) is a tl.constexpr"),
            std::string::npos);
  EXPECT_NE(refused("*fp32, *fp32, 1024, fp32, 64").find("parameter 'n' (#3) is not a tl.constexpr"),
            std::string::npos);
  EXPECT_NE(refused("*fp32, *fp32, i32, fp32").find("parameter 'BLOCK' (#5) has no signature entry"),
            std::string::npos);
  EXPECT_NE(refused("*fp32, *fp32, i32").find("parameter 'alpha' (#4) has no signature entry"), std::string::npos);
  EXPECT_NE(refused("*fp32, *fp32, i32, fp32, 64", {{"BLOCK", int64_t{32}}}).find("given twice"), std::string::npos);
  EXPECT_NE(refused("*fp32, *fp32, i32, fp32, 64", {{"WIDTH", int64_t{32}}}).find("no parameter named 'WIDTH'"),
            std::string::npos);
  EXPECT_NE(refused("*fp32, *fp32, i32, fp32, 64", {{"n", int64_t{32}}}).find("parameter 'n' is not a tl.constexpr"),
            std::string::npos);
  EXPECT_NE(refused("*fp99, *fp32, i32, fp32, 64").find("unknown type 'fp99'"), std::string::npos);
  EXPECT_NE(refused("*fp32, *fp32, fp32:1, fp32, 64").find("bad signature"), std::string::npos);
}

TEST_F(ApiSignature, ConstexprGivenByName) {
  std::vector<tritium::ArgInfo> rt;
  auto spec = tritium::detail::resolve_specialization("scale_kernel", params, "*fp32, *fp32, i32, fp32",
                                                      {{"BLOCK", int64_t{128}}, {"ROWS", int64_t{1}}}, &rt);
  EXPECT_EQ(rt.size(), 4u);
  EXPECT_EQ(spec.str(), "*fp32, *fp32, i32, fp32, BLOCK=128, ROWS=1");
}

TEST(ApiOptions, Validation) {
  tritium::CompileOptions o;
  EXPECT_NO_THROW(tritium::detail::validate_options(o));
  for (int w : {0, 3, 6, 128, -4}) {
    o.num_warps = w;
    EXPECT_THROW(tritium::detail::validate_options(o), Error) << w;
  }
  o.num_warps = 8;
  o.num_stages = -1;
  EXPECT_THROW(tritium::detail::validate_options(o), Error);
  o.num_stages = 0;
  o.dump_after = {"all"};
  EXPECT_NO_THROW(tritium::detail::validate_options(o));
  o.dump_after = {"no-such-pass"};
  std::string msg = expect_error([&] { tritium::detail::validate_options(o); }, ErrorKind::Usage);
  EXPECT_NE(msg.find("unknown pass 'no-such-pass'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("dce"), std::string::npos) << msg;  // the list of valid names
}

}  // namespace

// Parameter::annotation_type: the type a parameter's annotation forces, read as upstream's
// KernelParam.annotation_type (dtype names, builtin type names, strings, pointer types).
TEST(ApiModule, AnnotationTypesAreUpstreamsCanonicalNames) {
  tritium::Module m = tritium::Module::from_string(
      "import triton\nimport triton.language as tl\nimport numpy as np\n\n@triton.jit\n"
      "def k(a: tl.int64, b: int, c: float, d: bool, e: 'i64', f: '*fp32', g: 'fp16*', h: 'const *bf16',\n"
      "      i: tl.pointer_type(tl.float32), j: np.float32, k_: 'tl.uint8', l: 'int32_t', m, n: 'gelu',\n"
      "      o: tl.constexpr, p: 'const fp32'):\n    pass\n",
      "annot.py");
  const tritium::Kernel k = m.kernel("k");
  std::vector<std::string> got;
  for (const auto& p : k.parameters()) got.push_back(p.annotation_type);
  const std::vector<std::string> want = {"i64", "i32", "fp32", "i1", "i64", "*fp32", "*fp16", "*bf16",
                                         "*fp32", "fp32", "u8", "i32", "", "", "", ""};
  EXPECT_EQ(got, want);
}
