// Which dots the cuda backend runs on int8 and tf32 tensor cores (cuda_emit_mma_narrow.cpp),
// read from the generated CUDA (NVRTC, no GPU; TRITIUM_NO_NVRTC=1 skips): int8 x int8 ->
// int32 with K % 32 == 0 on mma.m16n8k32.s8, fp32 operands at the default precision
// ("tf32") on mma.m16n8k8.tf32 with every operand rounded to tf32 (cvt.rna) first;
// input_precision="ieee", portable numerics and tiles too large for shared memory keep the
// FMA chain. The
// values are checked on a GPU by tests/conformance/dot_test.cpp (exact for int8; the
// float64 bound with tf32 rounding for fp32).
#include "nvrtc_opt_out.h"
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/cuda/cuda_kernel.h"
#include "tritium/tritium.h"

namespace {

const char* kDot = R"(
import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, IEEE: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    if IEEE:
        c = tl.dot(a, b, input_precision="ieee")
    else:
        c = tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)
)";

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

std::string cuda(const std::string& sig, bool portable = false) {
  tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  auto mod = tritium::Module::from_string(kDot, "mma.py");
  tritium::CompileOptions o;
  o.num_warps = 4;
  o.portable_numerics = portable;
  const std::string s = mod.kernel("mm").compile(dev, sig, o).source();
  return s.substr(s.find("__global__"));
}

TEST(CudaMmaNarrow, Int8OnInt8TensorCores) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  // 32x64x32, 4 warps as 2 x 2: each warp 16 x 32 = 1 m-tile x 4 n-tiles, one k-step.
  const std::string s = cuda("*i8, *i8, *i32, 32, 64, 32, True");
  EXPECT_EQ(count(s, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"), 4) << s;
  EXPECT_EQ(count(s, "\"+r\"("), 16);
  EXPECT_EQ(count(cuda("*i8, *i8, *i32, 64, 32, 128, True"), "m16n8k32"), 4 * 4);  // K / 32 k-steps
  EXPECT_EQ(count(cuda("*i8, *i8, *i32, 32, 64, 32, True", true), "mma.sync"), 0);  // portable: FMA chain
}

TEST(CudaMmaNarrow, Fp32DefaultPrecisionOnTf32TensorCores) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  const std::string s = cuda("*fp32, *fp32, *fp32, 32, 64, 16, False");
  EXPECT_EQ(count(s, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"), 4 * 2) << s;  // 4 n-tiles, 2 k-steps
  // Every staged operand element is rounded to tf32: 32x16 + 16x64 elements over 128 threads.
  EXPECT_EQ(count(s, "= tr_tf32("), (32 * 16 + 16 * 64) / 128);
  EXPECT_EQ(count(cuda("*fp32, *fp32, *fp32, 32, 64, 16, True"), "mma.sync"), 0);         // ieee
  EXPECT_EQ(count(cuda("*fp32, *fp32, *fp32, 32, 64, 16, False", true), "mma.sync"), 0);  // portable
}

// Where the staged operands and the accumulator's conversion to the store's layout would
// not fit in shared memory (256 x 256 x 4 bytes alone pass 227 KiB), the FMA chain: the
// kernel compiles as it did before these dots had tensor cores.
TEST(CudaMmaNarrow, LargeTilesKeepTheFmaChain) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  EXPECT_EQ(count(cuda("*fp32, *fp32, *fp32, 256, 256, 32, False"), "mma.sync"), 0);
  EXPECT_EQ(count(cuda("*i8, *i8, *i32, 256, 256, 32, True"), "mma.sync"), 0);
  EXPECT_GT(count(cuda("*i8, *i8, *i32, 128, 128, 64, True"), "m16n8k32"), 0);  // 64 KiB + 40 KiB: fits
}

}  // namespace
