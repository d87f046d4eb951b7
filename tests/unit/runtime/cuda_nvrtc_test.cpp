// NVRTC compilation without a GPU: the hand-written kernels to PTX (compute_90) and to an
// sm_90 cubin, compile errors with NVRTC's log, --fmad, the on-disk cache, option checks.
// These FAIL when NVRTC is missing unless TRITIUM_NO_NVRTC=1 (cuda_test_util.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "runtime/cache.h"
#include "runtime/cuda/nvrtc_compile.h"
#include "cuda_test_util.h"

namespace tritium::runtime::cuda {
namespace {
namespace fs = std::filesystem;
using testing::kTestKernels;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

NvrtcOptions opts_for(const std::string& arch, bool fmad = true) {
  NvrtcOptions o;
  o.arch = arch;
  o.fmad = fmad;
  return o;
}

TEST(CudaNvrtc, KernelsCompileToPtxForCompute90) {
  TRITIUM_REQUIRE_NVRTC();
  NvrtcOutput out = nvrtc_compile(kTestKernels, "test_kernels.cu", NvrtcTarget::Ptx, opts_for("compute_90"), nullptr);
  EXPECT_FALSE(out.from_cache);
  const std::string& ptx = out.bytes;
  EXPECT_TRUE(contains(ptx, ".target sm_90")) << ptx.substr(0, 400);
  for (const char* entry : {"vadd_f32", "block_sum", "reverse_dyn", "trap_kernel"})
    EXPECT_TRUE(contains(ptx, std::string(".entry ") + entry)) << entry;
  EXPECT_TRUE(contains(ptx, "shfl.sync.bfly")) << "the butterfly shuffles";
  EXPECT_TRUE(contains(ptx, "bar.sync")) << "__syncthreads";
  EXPECT_TRUE(contains(ptx, "ld.global.nc.v4.f32") || contains(ptx, "ld.global.v4.f32")) << "16-byte loads";
  EXPECT_TRUE(contains(ptx, "cvt.rn.bf16.f32")) << "the bf16 conversion";
  EXPECT_TRUE(contains(ptx, ".loc")) << "-lineinfo";
  EXPECT_EQ(ptx.find('\0'), std::string::npos) << "PTX text without the NUL terminator";
}

TEST(CudaNvrtc, KernelsCompileToAnSm90Cubin) {
  TRITIUM_REQUIRE_NVRTC();
  NvrtcOutput out = nvrtc_compile(kTestKernels, "test_kernels.cu", NvrtcTarget::Cubin, opts_for("sm_90"), nullptr);
  ASSERT_GE(out.bytes.size(), 64u);
  EXPECT_EQ(out.bytes.substr(0, 4), std::string("\x7f" "ELF"));
  EXPECT_TRUE(contains(out.bytes, "vadd_f32")) << "the symbol table names the entries";
}

TEST(CudaNvrtc, CompileErrorCarriesTheLogAndTheSourceName) {
  TRITIUM_REQUIRE_NVRTC();
  const std::string bad = "extern \"C\" __global__ void k(float* p) {\n  p[0] = undefined_thing_xyz;\n}\n";
  try {
    nvrtc_compile(bad, "bad_kernel.cu", NvrtcTarget::Ptx, opts_for("compute_90"), nullptr);
    FAIL() << "a broken source compiled";
  } catch (const NvrtcCompileError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.source_name(), "bad_kernel.cu");
    EXPECT_TRUE(contains(what, "nvrtc: compiling bad_kernel.cu for compute_90 failed:")) << what;
    EXPECT_TRUE(contains(what, "bad_kernel.cu(2): error: identifier \"undefined_thing_xyz\" is undefined")) << what;
    EXPECT_TRUE(contains(e.log(), "undefined_thing_xyz")) << e.log();
  }
}

TEST(CudaNvrtc, FmadOffKeepsMultiplyAndAddSeparate) {
  TRITIUM_REQUIRE_NVRTC();
  const std::string src =
      "extern \"C\" __global__ void axpy(float* o, const float* a, const float* b, const float* c) {\n"
      "  int i = threadIdx.x; o[i] = a[i] * b[i] + c[i];\n}\n";
  std::string fused = nvrtc_compile(src, "axpy.cu", NvrtcTarget::Ptx, opts_for("compute_90", true), nullptr).bytes;
  std::string split = nvrtc_compile(src, "axpy.cu", NvrtcTarget::Ptx, opts_for("compute_90", false), nullptr).bytes;
  EXPECT_TRUE(contains(fused, "fma.rn.f32")) << fused;
  EXPECT_FALSE(contains(split, "fma.rn.f32")) << split;
  EXPECT_TRUE(contains(split, "mul.rn.f32")) << split;  // .rn: ptxas may not contract it either
  EXPECT_TRUE(contains(split, "add.rn.f32")) << split;
}

TEST(CudaNvrtc, ResultsAreCachedByContentOptionsAndArch) {
  TRITIUM_REQUIRE_NVRTC();
  fs::path root = fs::temp_directory_path() / ("tritium-nvrtc-cache-" + std::to_string(::getpid()));
  fs::remove_all(root);
  DiskCache cache(root);
  const std::string src = "extern \"C\" __global__ void z(int* p) { p[threadIdx.x] = 0; }\n";
  NvrtcCounters before = nvrtc_counters();
  NvrtcOutput a = nvrtc_compile(src, "z.cu", NvrtcTarget::Ptx, opts_for("compute_90"), &cache);
  NvrtcOutput b = nvrtc_compile(src, "z.cu", NvrtcTarget::Ptx, opts_for("compute_90"), &cache);
  EXPECT_FALSE(a.from_cache);
  EXPECT_TRUE(b.from_cache);
  EXPECT_EQ(a.bytes, b.bytes);
  // Another arch, another target or other options are other entries.
  NvrtcOutput c = nvrtc_compile(src, "z.cu", NvrtcTarget::Ptx, opts_for("compute_80"), &cache);
  NvrtcOutput d = nvrtc_compile(src, "z.cu", NvrtcTarget::Cubin, opts_for("sm_90"), &cache);
  NvrtcOutput e = nvrtc_compile(src, "z.cu", NvrtcTarget::Ptx, opts_for("compute_90", false), &cache);
  EXPECT_FALSE(c.from_cache);
  EXPECT_FALSE(d.from_cache);
  EXPECT_FALSE(e.from_cache);
  EXPECT_TRUE(contains(c.bytes, ".target sm_80"));
  NvrtcOutput f = nvrtc_compile(src, "z.cu", NvrtcTarget::Cubin, opts_for("sm_90"), &cache);
  EXPECT_TRUE(f.from_cache);
  EXPECT_EQ(f.bytes, d.bytes);  // a binary entry round-trips byte for byte
  NvrtcCounters after = nvrtc_counters();
  EXPECT_EQ(after.compiles - before.compiles, 4u);
  EXPECT_EQ(after.cache_hits - before.cache_hits, 2u);
  std::error_code ec;
  fs::remove_all(root, ec);
}

TEST(CudaNvrtc, OptionListAndArchChecks) {
  TRITIUM_REQUIRE_NVRTC();
  NvrtcOptions o = opts_for("compute_90", false);
  o.extra = {"-DBLOCK=128"};
  std::vector<std::string> list = nvrtc_option_list(o, NvrtcTarget::Ptx);
  ASSERT_GE(list.size(), 5u);
  EXPECT_EQ(list[0], "--gpu-architecture=compute_90");
  EXPECT_EQ(list[1], "-std=c++17");
  EXPECT_EQ(list[2], "--fmad=false");
  EXPECT_EQ(list[3], "-default-device");
  EXPECT_EQ(list[4], "-lineinfo");
  EXPECT_EQ(list.back(), "-DBLOCK=128");
  bool has_include = false, has_cccl = false;
  for (const std::string& s : list) {
    has_include |= s.rfind("-I", 0) == 0;
    has_cccl |= s.rfind("-I", 0) == 0 && contains(s, "cccl");
  }
  EXPECT_TRUE(has_include) << "the toolkit's include directory (cuda_fp16.h)";
  EXPECT_TRUE(has_cccl) << "include/cccl (CUDA 13's <cuda/std/...>)";
  EXPECT_THROW(nvrtc_option_list(opts_for("sm_90"), NvrtcTarget::Ptx), std::invalid_argument);
  EXPECT_THROW(nvrtc_option_list(opts_for("compute_90"), NvrtcTarget::Cubin), std::invalid_argument);
  EXPECT_TRUE(contains(nvrtc_summary(), "NVRTC " + nvrtc_version())) << nvrtc_summary();
}

}  // namespace
}  // namespace tritium::runtime::cuda
