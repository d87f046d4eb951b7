// A kernel needing more shared memory per program than the GPU allows is a compile error at
// the kernel's location naming both figures, not a launch failure (here: a histogram of
// 65,536 bins stages 256 KB of counters; sm_90 allows 227 KB). The same kernel with 4,096
// bins compiles. Needs NVRTC; TRITIUM_NO_NVRTC=1 skips.
#include "nvrtc_opt_out.h"
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/cuda/cuda_kernel.h"
#include "tritium/tritium.h"

namespace {

std::string kernel(int bins) {
  return "import triton\nimport triton.language as tl\n\n@triton.jit\ndef hist(x, o):\n"
         "    v = tl.load(x + tl.arange(0, 1024))\n"
         "    h = tl.histogram(v, " + std::to_string(bins) + ")\n"
         "    tl.store(o + tl.arange(0, " + std::to_string(bins) + "), h)\n";
}

TEST(CudaSharedLimit, TooMuchSharedMemoryIsACompileError) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  auto small = tritium::Module::from_string(kernel(4096), "hist.py");
  EXPECT_NO_THROW(small.kernel("hist").compile(dev, "*i32:16, *i32:16"));
  auto big = tritium::Module::from_string(kernel(65536), "hist.py");
  try {
    big.kernel("hist").compile(dev, "*i32:16, *i32:16");
    FAIL() << "compiled a kernel needing 256 KB of shared memory";
  } catch (const tritium::CompileError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("needs 262144 bytes of shared memory"), std::string::npos) << m;
    EXPECT_NE(m.find("allows 232448"), std::string::npos) << m;
    EXPECT_NE(m.find("hist.py:4:1"), std::string::npos) << m;  // the kernel (its decorator line)
  }
}

}  // namespace
