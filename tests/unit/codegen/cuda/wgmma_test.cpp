// Which dots the cuda backend lowers to wgmma (codegen/cuda/cuda_emit_wgmma.cpp), read from
// the generated CUDA and compiled for sm_90a / compute_90a by NVRTC (no GPU needed;
// TRITIUM_NO_NVRTC=1 skips): fp16 / bf16 dots whose M is a multiple of 16 * num_warps with
// num_warps a multiple of 4; smaller tiles, 2 warps and portable numerics keep mma.sync or
// the FMA chain. The built-in suite's matmul and attention use it. Values: the conformance
// suite on a GPU (tests/conformance/pipeline_test.cpp, dot_test.cpp).
#include "nvrtc_opt_out.h"
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "runtime/cuda/cuda_kernel.h"
#include "tritium/tritium.h"

namespace {

const char* kSrc = R"(
import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a = tl.load(a_ptr + offs_m[:, None] * BK + offs_k[None, :])
    b = tl.load(b_ptr + offs_k[:, None] * BN + offs_n[None, :])
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], tl.dot(a, b))
)";

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

std::string mm(tritium::Device& dev, const std::string& tiles, int warps, bool portable = false) {
  auto mod = tritium::Module::from_string(kSrc, "wg.py");
  tritium::CompileOptions o;
  o.num_warps = warps;
  o.portable_numerics = portable;
  const std::string src = mod.kernel("mm").compile(dev, "*bf16:16, *bf16:16, *fp32:16, " + tiles, o).source();
  return src.substr(src.find("__global__"));  // the kernel, not the prelude's helpers
}

TEST(CudaWgmma, WarpgroupTilesUseWgmma) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  // one m64n64k16 per k-step: K = 32 -> 2 instructions
  const std::string s = mm(dev, "64, 64, 32", 4);
  EXPECT_EQ(count(s, "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"), 2) << s;
  // two warpgroups, two 64-row slabs each: 2 slabs x 4 k-steps
  EXPECT_EQ(count(mm(dev, "256, 128, 64", 8), "wgmma.mma_async.sync.aligned.m64n128k16"), 8);
}

TEST(CudaWgmma, OtherDotsKeepMmaSync) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  for (const std::string& s : {mm(dev, "32, 64, 32", 4), mm(dev, "64, 64, 32", 8), mm(dev, "64, 64, 32", 2)}) {
    EXPECT_EQ(count(s, "wgmma"), 0) << s;
    EXPECT_GT(count(s, "mma.sync.aligned.m16n8k16"), 0);
  }
  const std::string portable = mm(dev, "64, 64, 32", 4, true);
  EXPECT_EQ(count(portable, "mma"), 0) << portable;  // portable: the FMA chain
}

std::string read(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(CudaWgmma, BuiltInMatmulAndAttentionUseWgmmaFromTheRing) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  const std::string root = std::string(TRITIUM_TEST_DIR) + "/../kernels/";
  tritium::CompileOptions o;
  o.num_warps = 8;
  o.num_stages = 3;
  auto mm = tritium::Module::from_string(read(root + "matmul.py"), "matmul.py");
  const std::string m = mm.kernel("matmul_kernel")
                            .compile(dev,
                                     "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, "
                                     "i32:1, i32:16, i32:1, 128, 256, 64, 8",
                                     o)
                            .source();
  EXPECT_EQ(count(m, "software pipeline (3 stages)"), 1);
  EXPECT_EQ(count(m, "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16"), 4);  // 4 k-steps of 16
  EXPECT_EQ(count(m, "operands to shared memory"), 0);
  auto at = tritium::Module::from_string(read(root + "flash_attention.py"), "flash_attention.py");
  const std::string a = at.kernel("attn_fwd_kernel")
                            .compile(dev,
                                     "*bf16:16, *bf16:16, *bf16:16, fp32, *fp32:16, *bf16:16, i64:16, i64:16, i64:16, "
                                     "i64:1, i64:16, i64:16, i64:16, i64:1, i64:16, i64:16, i64:16, i64:1, i64:16, "
                                     "i64:16, i64:16, i64:1, i32, i32:16, i32:16, 128, 128, 64, False",
                                     o)
                            .source();
  EXPECT_EQ(count(a, "software pipeline (3 stages)"), 2);  // the unmasked and the masked key loop
  EXPECT_GT(count(a, "wgmma.mma_async"), 0);
  EXPECT_EQ(count(a, "operands to shared memory"), 0);  // q and p from registers, k and v from the ring
}

}  // namespace
