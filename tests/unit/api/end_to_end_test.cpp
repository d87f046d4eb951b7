// The whole API path on real kernels given as strings: parse → IR → passes → device →
// launch → copy back, on the interp and cpu backends. Expected values are computed here in
// double and rounded once to fp32, which is what one correctly rounded fp32 operation gives
// (sums and products of two floats are exact in double), so results must match bit for bit.
// Outputs are poisoned with NaN before each launch so unwritten elements fail.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "random_floats.h"
#include "tritium/tritium.h"

namespace {

using tritium::Arg;
using tritium::Buffer;
using tritium::CompiledKernel;
using tritium::Device;
using tritium::Error;
using tritium::ErrorKind;

const char* const kKernels = R"(import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)

@triton.jit
def scale_kernel(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr = 64):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * alpha, mask=mask)

@triton.jit
def grid2d_kernel(out_ptr, stride):
    x = tl.program_id(0)
    y = tl.program_id(1)
    tl.store(out_ptr + y * stride + x, x * 100 + y)

@triton.jit
def bad_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, undefined_name)

@triton.jit
def assert_kernel(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.device_assert(x > 0, "x must be positive")
)";

std::vector<float> random_floats(size_t n, uint32_t seed) { return random_nonzero_floats(n, seed, 8.f); }

// One module for every test, so its in-memory cache spares repeated C++ compiles (each
// distinct cpu specialization costs a compiler run; the unit tests must stay fast).
const tritium::Module& shared_module() {
  static const tritium::Module m = tritium::Module::from_string(kKernels, "e2e.py");
  return m;
}

const char* const kAddSig = "*fp32:16, *fp32:16, *fp32:16, i32, 128";

class ApiEndToEnd : public ::testing::TestWithParam<std::string> {
 protected:
  const tritium::Module& module = shared_module();
  Device device = Device::get(GetParam());
};

TEST_P(ApiEndToEnd, VectorAddWithRaggedEdge) {
  const int n = 1000;  // not a multiple of BLOCK: the last program is masked
  std::vector<float> x = random_floats(n, 1), y = random_floats(n, 2);
  CompiledKernel k = module.kernel("add_kernel").compile(device, kAddSig);
  EXPECT_EQ(k.backend(), GetParam());
  ASSERT_EQ(k.arguments().size(), 4u);
  Buffer bx = device.upload(x), by = device.upload(y), bout = device.alloc(n * sizeof(float));
  bout.fill(NAN);
  k.launch({tritium::cdiv(n, 128)}, {bx, by, bout, n});
  std::vector<float> out = bout.download<float>();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], static_cast<float>(static_cast<double>(x[i]) + static_cast<double>(y[i]))) << "i=" << i;
}

TEST_P(ApiEndToEnd, FloatScalarArgumentAndDefaultConstexpr) {
  const int n = 300;
  std::vector<float> x = random_floats(n, 3);
  const double alpha = 0.3;  // rounded to fp32 at launch
  CompiledKernel k = module.kernel("scale_kernel").compile(device, "*fp32, *fp32, i32, fp32");
  Buffer bx = device.upload(x), bout = device.alloc(n * 4);
  bout.fill(NAN);
  k.launch({tritium::cdiv(n, 64)}, {bx, bout, n, alpha});
  std::vector<float> out = bout.download<float>();
  const double a32 = static_cast<double>(static_cast<float>(alpha));
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], static_cast<float>(x[i] * a32)) << "i=" << i;
}

TEST_P(ApiEndToEnd, TwoDimensionalGrid) {
  const int gx = 5, gy = 3;
  CompiledKernel k = module.kernel("grid2d_kernel").compile(device, "*i32, i32");
  Buffer out = device.alloc(gx * gy * 4);
  out.fill<int32_t>(-1);
  k.launch({gx, gy}, {out, gx});
  std::vector<int32_t> v = out.download<int32_t>();
  for (int y = 0; y < gy; ++y)
    for (int x = 0; x < gx; ++x) EXPECT_EQ(v[y * gx + x], x * 100 + y) << x << "," << y;
}

TEST_P(ApiEndToEnd, EmptyGridRunsNothingButChecksArguments) {
  CompiledKernel k = module.kernel("grid2d_kernel").compile(device, "*i32, i32");
  Buffer out = device.alloc(16);
  out.fill<int32_t>(-1);
  k.launch({0, 4}, {out, 4});
  EXPECT_EQ(out.download<int32_t>(), std::vector<int32_t>(4, -1));
  EXPECT_THROW(k.launch({0}, {out}), Error);
  EXPECT_THROW(k.launch({-1}, {out, 4}), Error);
}

TEST_P(ApiEndToEnd, LaunchArgumentErrorsNameTheParameter) {
  CompiledKernel k = module.kernel("add_kernel").compile(device, kAddSig);
  Buffer b = device.alloc(512);
  try {
    k.launch({1}, {b, b, b});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Argument);
    EXPECT_NE(std::string(e.what()).find("takes 4 launch arguments"), std::string::npos) << e.what();
  }
  try {
    k.launch({1}, {b, b, b, b});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Argument);
    EXPECT_NE(std::string(e.what()).find("'n'"), std::string::npos) << e.what();
  }
  try {
    k.launch({1}, {b, 5, b, 10});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'y_ptr'"), std::string::npos) << e.what();
  }
}

TEST_P(ApiEndToEnd, CompileErrorCarriesLocationAndCaret) {
  try {
    module.kernel("bad_kernel").compile(device, "*fp32, 16");
    FAIL();
  } catch (const tritium::CompileError& e) {
    EXPECT_EQ(e.file(), "e2e.py");
    EXPECT_EQ(e.line(), 28);
    EXPECT_EQ(e.col(), 28);  // the column of `undefined_name`
    std::string w = e.what();
    EXPECT_EQ(w.rfind("e2e.py:28:28: error: ", 0), 0u) << w;
    EXPECT_NE(w.find("undefined_name"), std::string::npos) << w;
    EXPECT_NE(w.find("    tl.store(x_ptr + offs, undefined_name)"), std::string::npos) << w;
    EXPECT_NE(w.find('^'), std::string::npos) << w;
  }
}

// The usage shown in README.md, on the suite's vector_add.py.
TEST_P(ApiEndToEnd, ReadmeExampleOnTheSuiteKernel) {
  const int64_t n = 5000;
  std::vector<float> xs = random_floats(n, 5), ys = random_floats(n, 6);
  auto module = tritium::Module::from_file(TRITIUM_SOURCE_DIR "/kernels/vector_add.py");
  auto kernel = module.kernel("add_kernel").compile(device, "*fp32:16, *fp32:16, *fp32:16, i32, 1024");
  auto x = device.upload(xs), y = device.upload(ys), out = device.alloc(n * 4);
  out.fill(NAN);
  kernel.launch({tritium::cdiv(n, 1024), 1, 1}, {x, y, out, n});
  auto result = out.download<float>();
  ASSERT_EQ(result.size(), static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(result[i], static_cast<float>(static_cast<double>(xs[i]) + ys[i])) << "i=" << i;
}

INSTANTIATE_TEST_SUITE_P(Backends, ApiEndToEnd, ::testing::Values("interp", "cpu"),
                         [](const auto& info) { return info.param; });

// The cache and the dumps do not depend on the backend: tested on interp only (no compiler runs).
class ApiCompile : public ::testing::Test {
 protected:
  const tritium::Module& module = shared_module();
  Device device = Device::get("interp");
};

TEST_F(ApiCompile, CacheReturnsTheSameCompiledKernel) {
  tritium::Kernel kern = module.kernel("add_kernel");
  CompiledKernel a = kern.compile(device, "*fp32, *fp32, *fp32, i32, 256");
  CompiledKernel b = kern.compile(device, "*fp32, *fp32, *fp32, i32, 256");
  EXPECT_EQ(&a.ir(), &b.ir()) << "second compile should come from the cache";
  tritium::CompileOptions o;
  o.num_warps = 8;
  CompiledKernel c = kern.compile(device, "*fp32, *fp32, *fp32, i32, 256", o);
  EXPECT_NE(&a.ir(), &c.ir()) << "options are part of the key";
  CompiledKernel d = kern.compile(device, "*fp32, *fp32, *fp32, i32, 512");
  EXPECT_NE(&a.ir(), &d.ir());
  EXPECT_NE(a.ir().find("add_kernel"), std::string::npos);
  EXPECT_EQ(a.signature(), "*fp32, *fp32, *fp32, i32, 256");
}

TEST_F(ApiCompile, DumpAfterCallsBackForEveryPass) {
  tritium::CompileOptions o;
  o.dump_after = {"all"};
  std::vector<std::string> passes;
  o.dump = [&](const std::string& pass, const std::string& ir) {
    passes.push_back(pass);
    EXPECT_NE(ir.find("add_kernel"), std::string::npos);
  };
  module.kernel("add_kernel").compile(device, "*fp32, *fp32, *fp32, i32, 64", o);
  EXPECT_FALSE(passes.empty());
  std::string ir = module.kernel("add_kernel").ir("*fp32, *fp32, *fp32, i32, 64");
  EXPECT_NE(ir.find("kernel @add_kernel("), std::string::npos) << ir;
}

TEST_F(ApiCompile, DeviceAssertFailsTheLaunchInDebugModeOnly) {
  std::vector<float> x(16, 1.f);
  x[9] = -1.f;
  Buffer b = device.upload(x);
  tritium::CompileOptions debug;
  debug.debug = true;
  CompiledKernel checked = module.kernel("assert_kernel").compile(device, "*fp32", debug);
  try {
    checked.launch({1}, {b});
    FAIL() << "the assert did not fire";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Device);
    EXPECT_NE(std::string(e.what()).find("x must be positive"), std::string::npos) << e.what();
  }
  CompiledKernel unchecked = module.kernel("assert_kernel").compile(device, "*fp32");
  EXPECT_NO_THROW(unchecked.launch({1}, {b}));
}

TEST_F(ApiCompile, SourceOfTheInterpBackendIsTheIr) {
  CompiledKernel k = module.kernel("grid2d_kernel").compile(device, "*i32, i32");
  EXPECT_EQ(k.source(), k.ir());
}

}  // namespace
