// The CUDA driver / NVRTC loader (no GPU needed): availability and its reasons, the
// registry's cuda entry, error messages, the compile() refusal.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "frontend/source.h"
#include "ir/ir.h"
#include "runtime/cuda/cuda_api.h"
#include "runtime/cuda/cuda_device.h"
#include "runtime/registry.h"
#include "cuda_test_util.h"

namespace tritium::runtime::cuda {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

/// Whether libcuda.so.1 loads here, checked independently of cuda_api.cpp.
bool libcuda_present() {
  void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h) dlclose(h);
  return h != nullptr;
}

TEST(CudaApi, DriverStatusMatchesTheMachine) {
  Availability lib = driver_library_status();
  Availability st = driver_status();
  EXPECT_EQ(st.available, st.reason.empty()) << st.reason;
  if (!libcuda_present()) {
    // No NVIDIA driver (CI): unavailable, and the reason says libcuda is missing.
    EXPECT_FALSE(lib.available);
    EXPECT_FALSE(st.available);
    EXPECT_TRUE(contains(st.reason, "libcuda.so.1 not found (no NVIDIA driver)")) << st.reason;
  } else if (!testing::env_is_1("TRITIUM_NO_GPU")) {
    // A driver is installed (the GPU machine): it must load, initialize and find a device.
    EXPECT_TRUE(lib.available) << lib.reason;
    EXPECT_TRUE(st.available) << st.reason << " (set TRITIUM_NO_GPU=1 on a machine with a driver but no GPU)";
  } else {
    EXPECT_FALSE(st.reason.empty());
  }
}

TEST(CudaApi, RegistryReportsTheDriverStatus) {
  Availability st = driver_status();
  BackendStatus b = backend_status("cuda");
  EXPECT_EQ(b.available, st.available);
  EXPECT_EQ(b.reason, st.reason);
  // The default wherever it is available.
  EXPECT_EQ(best_backend() == "cuda", st.available);
  if (!st.available) {
    try {
      create_device("cuda");
      FAIL() << "create_device(\"cuda\") succeeded without a driver";
    } catch (const std::runtime_error& e) {
      EXPECT_TRUE(contains(e.what(), "backend 'cuda' is unavailable: " + st.reason)) << e.what();
    }
    try {
      CudaDevice dev;
      FAIL() << "CudaDevice() succeeded without a driver";
    } catch (const std::runtime_error& e) {
      EXPECT_TRUE(contains(e.what(), "cuda: " + st.reason)) << e.what();
    }
    EXPECT_THROW(driver(), std::runtime_error);
  }
}

TEST(CudaApi, CheckNamesTheCallAndTheError) {
  EXPECT_NO_THROW(check(CUDA_SUCCESS, "cuInit(0)"));
  try {
    check(2, "cuMemAlloc_v2(1048576 bytes)");  // 2 = CUDA_ERROR_OUT_OF_MEMORY
    FAIL();
  } catch (const std::runtime_error& e) {
    // The driver names the error and describes it; without one, the name comes from a table.
    const std::string expected = driver_status().available
                                     ? "cuda: cuMemAlloc_v2(1048576 bytes) failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)"
                                     : "cuda: cuMemAlloc_v2(1048576 bytes) failed: CUDA_ERROR_OUT_OF_MEMORY";
    EXPECT_EQ(std::string(e.what()), expected);
  }
  try {
    check(12345, "cuFoo()");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "cuda: cuFoo() failed: ")) << e.what();
  }
  try {
    check(1, "cuLaunchKernel(k)", "the last launch was kernel 'x'");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "cuda: cuLaunchKernel(k) failed: ")) << e.what();
    EXPECT_TRUE(contains(e.what(), "; the last launch was kernel 'x'")) << e.what();
  }
}

TEST(CudaApi, NvrtcLoadsWithoutADriver) {
  TRITIUM_REQUIRE_NVRTC();
  const NvrtcApi& api = nvrtc();
  EXPECT_GE(api.major, 12) << api.library;
  EXPECT_TRUE(contains(api.library, "libnvrtc")) << api.library;
  EXPECT_NO_THROW(check_nvrtc(NVRTC_SUCCESS, "nvrtcVersion"));
  try {
    check_nvrtc(6, "nvrtcCompileProgram(k.cu)");  // 6 = NVRTC_ERROR_COMPILATION
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "nvrtc: nvrtcCompileProgram(k.cu) failed: NVRTC_ERROR_COMPILATION");
  }
}

TEST(CudaApi, NvrtcSearchDirsExistAndAreDistinct) {
  std::vector<std::string> dirs = nvrtc_search_dirs();
  for (size_t i = 0; i < dirs.size(); ++i)
    for (size_t j = i + 1; j < dirs.size(); ++j) EXPECT_NE(dirs[i], dirs[j]);
}

}  // namespace
}  // namespace tritium::runtime::cuda
