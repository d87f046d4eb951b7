// CompiledKernel::assembly / assembly_kinds: the PTX of a cuda kernel (through the
// compile-only NVRTC device without a GPU, and through the cuda device on one), and the
// refusal, naming the kinds there are, of a kind the backend lacks.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "../runtime/cuda_test_util.h"
#include "runtime/cuda/cuda_kernel.h"
#include "runtime/registry.h"
#include "tritium/tritium.h"

namespace {

const char* kSrc = R"(
import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)
)";

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

/// Expects `f` to throw a Usage error whose message holds every one of `parts`.
template <typename F>
void expect_usage_error(F f, std::initializer_list<const char*> parts) {
  try {
    f();
    ADD_FAILURE() << "expected a Usage error";
  } catch (const tritium::Error& e) {
    EXPECT_EQ(e.kind(), tritium::ErrorKind::Usage);
    for (const char* p : parts) EXPECT_TRUE(contains(e.what(), p)) << e.what();
  }
}

tritium::CompiledKernel compile_on(const tritium::Device& dev) {
  auto mod = tritium::Module::from_string(kSrc, "assembly_test.py");
  return mod.kernel("add_kernel").compile(dev, "*fp32:16, *fp32:16, *fp32:16, i32, 1024");
}

TEST(Assembly, PtxOfACudaKernelWithoutAGpu) {
  TRITIUM_REQUIRE_NVRTC();
  tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  auto k = compile_on(dev);
  EXPECT_EQ(k.assembly_kinds(), std::vector<std::string>{"ptx"});
  const std::string ptx = k.assembly("ptx");
  EXPECT_TRUE(contains(ptx, ".target sm_90")) << ptx.substr(0, 400);
  EXPECT_TRUE(contains(ptx, ".entry")) << ptx.substr(0, 400);
  EXPECT_TRUE(contains(ptx, "add.f32") || contains(ptx, "add.rn.f32")) << "the kernel's fp32 add is in its PTX";
  expect_usage_error([&] { (void)k.assembly("sass"); }, {"'sass'", "it has: ptx"});
}

TEST(Assembly, TheCpuBackendHasNone) {
  auto k = compile_on(tritium::Device::get("cpu"));
  EXPECT_TRUE(k.assembly_kinds().empty());
  expect_usage_error([&] { (void)k.assembly("ptx"); }, {"no 'ptx' assembly", "cpu"});
}

TEST(Assembly, PtxOfAKernelLoadedOnTheGpu) {
  TRITIUM_REQUIRE_GPU();
  auto k = compile_on(tritium::Device::get("cuda"));
  const std::string ptx = k.assembly("ptx");
  EXPECT_TRUE(contains(ptx, ".target " + tritium::runtime::cuda::present_gpu_arch())) << ptx.substr(0, 400);
  EXPECT_TRUE(contains(ptx, ".entry")) << ptx.substr(0, 400);
}

}  // namespace
