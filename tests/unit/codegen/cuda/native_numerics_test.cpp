// Native numerics on the cuda backend (c_expr.h, gpu_approx): fp32 `/`, tl.exp and tl.exp2
// become upstream Triton's approximate instructions; tl.div_rn, libdevice.exp / exp2, fp64
// and portable numerics keep the accurate versions. Checked in the generated CUDA (compiled
// by NVRTC, no GPU needed; TRITIUM_NO_NVRTC=1 skips); the values are checked on a GPU by the
// conformance suite's native run (conformance_util.h).
#include "nvrtc_opt_out.h"
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/cuda/cuda_kernel.h"
#include "tritium/tritium.h"

namespace {

const char* kSrc = R"(
import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def k(x_ptr, y_ptr, o_ptr, d_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(o_ptr + offs, tl.exp(x) + tl.exp2(y) + x / y)
    tl.store(o_ptr + 128 + offs, libdevice.exp(x) + libdevice.exp2(y) + tl.div_rn(x, y))
    d = tl.load(d_ptr + offs)
    tl.store(d_ptr + 128 + offs, tl.exp(d) + d / d)
)";

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

std::string body(const std::string& src) { return src.substr(src.find("__global__")); }

TEST(CudaNativeNumerics, ApproximationsOnlyWhereUpstreamUsesThem) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  auto mod = tritium::Module::from_string(kSrc, "native.py");
  const std::string native = body(mod.kernel("k").compile(dev, "*fp32:16, *fp32:16, *fp32:16, *fp64:16").source());
  // tl.exp, tl.exp2, fp32 '/': one each; the libdevice calls, div_rn and fp64 keep theirs.
  EXPECT_EQ(count(native, "tr_exp_approx("), 1) << native;
  EXPECT_EQ(count(native, "tr_ex2_approx("), 1) << native;
  EXPECT_EQ(count(native, "tr_div_full("), 1) << native;
  EXPECT_EQ(count(native, "tr_expf("), 1) << native;   // libdevice.exp
  EXPECT_EQ(count(native, "tr_exp2f("), 1) << native;  // libdevice.exp2
  tritium::CompileOptions portable;
  portable.portable_numerics = true;
  const std::string port =
      body(mod.kernel("k").compile(dev, "*fp32:16, *fp32:16, *fp32:16, *fp64:16", portable).source());
  EXPECT_EQ(count(port, "tr_exp_approx("), 0);
  EXPECT_EQ(count(port, "tr_ex2_approx("), 0);
  EXPECT_EQ(count(port, "tr_div_full("), 0);
  EXPECT_EQ(count(port, "tr_expf("), 2) << port;
}

}  // namespace
