// Every case of the built-in suite (kernels/*.py with the signatures `tritium bench` uses,
// large shapes included) renders as CUDA and compiles with NVRTC to PTX for compute_90 and
// to an sm_90 cubin — issue 4's CI acceptance for the suite, without a GPU. Needs NVRTC (the
// CUDA toolkit); set TRITIUM_NO_NVRTC=1 to skip on a machine without it.
#include "nvrtc_opt_out.h"
#include <gtest/gtest.h>

#include <cstdlib>

#include "bench/suite.h"
#include "runtime/cuda/cuda_kernel.h"
#include "tritium/tritium.h"

#ifndef TRITIUM_TEST_DIR
#error "TRITIUM_TEST_DIR must name the tests directory"
#endif

namespace {

TEST(CudaSuiteNvrtc, EverySuiteCaseCompilesToPtxAndCubin) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  int compiled = 0;
  for (const auto& c : tritium::bench::all_cases()) {
    SCOPED_TRACE(c.id);
    auto mod = tritium::Module::from_file(std::string(TRITIUM_TEST_DIR) + "/../kernels/" + c.file);
    for (bool portable : {false, true}) {
      tritium::CompileOptions o;
      o.portable_numerics = portable;
      try {
        auto k = mod.kernel(c.function).compile(dev, c.signature, o);
        EXPECT_NE(k.source().find("__global__"), std::string::npos);
        ++compiled;
      } catch (const std::exception& e) {
        ADD_FAILURE() << c.id << (portable ? " (portable)" : "") << ": " << e.what();
      }
    }
  }
  EXPECT_GT(compiled, 100);
}

}  // namespace
