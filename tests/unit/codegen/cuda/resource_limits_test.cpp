// The registers and local memory of a cuda kernel, read from ptxas when the cubin is built
// (runtime/cuda/ptxas_info.h): reported by CompiledKernel::resources() on the compile-only
// device, spills reported rather than refused, and a program that cannot launch refused at
// compile time at the kernel, naming the figures. The real limits (65,536 registers per
// block, ~512 KiB of local memory per thread) are out of reach of kernels that compile in
// seconds here (every element a thread holds is a statement of the unrolled CUDA code), so
// the refusals are exercised through compile_cuda with tighter limits; the figures
// themselves are checked against the H200's in tests/unit/runtime/ptxas_info_test.cpp.
// Needs NVRTC (TRITIUM_NO_NVRTC=1 skips); the GPU test needs a GPU.
#include "nvrtc_opt_out.h"
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../../api/random_floats.h"
#include "../../runtime/cuda_test_util.h"
#include "runtime/cuda/cuda_kernel.h"
#include "tritium/tritium.h"

namespace {

using tritium::runtime::cuda::CudaLimits;

const char* const kFile = "resources.py";

// Four loads of N elements, all live until the store: at num_warps=1 each thread holds 4N/32
// values, past the 255 registers a thread can have from N = 4096 on. Decorator: line 4.
const char* const kSrc = R"(import triton
import triton.language as tl

@triton.jit
def many(p, out, N: tl.constexpr, S: tl.constexpr):
    offs = tl.arange(0, N)
    x0 = tl.load(p + offs)
    x1 = tl.load(p + offs + S)
    x2 = tl.load(p + offs + 2 * S)
    x3 = tl.load(p + offs + 3 * S)
    tl.store(out + offs, x0 * 1.5 + x1 * x2 - x3 * x0)
)";

std::string sig(int n) { return "*fp32:16, *fp32:16, " + std::to_string(n) + ", 8"; }

tritium::CompiledKernel compile(const tritium::Device& dev, int n) {
  tritium::CompileOptions o;
  o.num_warps = 1;
  return tritium::Module::from_string(kSrc, kFile).kernel("many").compile(dev, sig(n), o);
}

// The compile-only device's compile() with other limits (the device's memory, a smaller
// register file or local memory), for the refusals.
class LimitedCuda final : public tritium::runtime::Device {
 public:
  explicit LimitedCuda(CudaLimits limits) : limits_(limits) {}
  std::string name() const override { return "cuda-limited"; }
  std::string description() const override { return "compiles an sm_90 cubin under test limits"; }
  tritium::runtime::DeviceBuffer alloc(size_t bytes) override { return {std::malloc(bytes ? bytes : 1), bytes}; }
  void free(tritium::runtime::DeviceBuffer& b) override {
    std::free(b.ptr);
    b = {};
  }
  void copy_in(tritium::runtime::DeviceBuffer& d, const void* s, size_t n, size_t off) override {
    std::memcpy(static_cast<char*>(d.ptr) + off, s, n);
  }
  void copy_out(void* d, const tritium::runtime::DeviceBuffer& s, size_t n, size_t off) override {
    std::memcpy(d, static_cast<const char*>(s.ptr) + off, n);
  }
  std::unique_ptr<tritium::runtime::LoadedKernel> compile(const tritium::ir::Module& m,
                                                          const tritium::runtime::CodegenOptions& opts) override {
    tritium::runtime::cuda::compile_cuda(m, opts, tritium::runtime::cuda::NvrtcTarget::Cubin, "sm_90", limits_);
    throw std::runtime_error("compiled");  // the test only asks whether it was refused
  }
  void synchronize() override {}

 private:
  CudaLimits limits_;
};

// Compiles kSrc with N = `n` under `limits`; "" when compile_cuda accepted it, else the
// refusal's message (checked to be at the kernel).
std::string refusal(const CudaLimits& limits, int n) {
  const tritium::Device dev(std::make_shared<LimitedCuda>(limits));
  try {
    compile(dev, n);
  } catch (const tritium::CompileError& e) {
    EXPECT_EQ(e.file(), kFile);
    EXPECT_EQ(e.line(), 4);  // @triton.jit
    EXPECT_EQ(e.col(), 1);
    EXPECT_NE(std::string(e.what()).find("@triton.jit\n"), std::string::npos) << e.what();
    return e.message();
  } catch (const tritium::Error& e) {
    EXPECT_NE(std::string(e.what()).find("compiled"), std::string::npos) << e.what();
  }
  return "";
}

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }
bool contains(const std::string& s, const std::string& p) { return s.find(p) != std::string::npos; }

TEST(CudaResources, PtxasFiguresAreTheKernelsResources) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  const tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  // 128 values per thread: in registers.
  const tritium::KernelResources fits = compile(dev, 1024).resources();
  EXPECT_GT(fits.registers, 0);
  EXPECT_LE(fits.registers, 255);
  EXPECT_EQ(fits.local_bytes, 0);
  EXPECT_EQ(fits.spill_bytes, 0);
  EXPECT_EQ(fits.threads, 32);
  EXPECT_EQ(fits.max_threads, 32);
  // 512 values per thread: the kernel fits by spilling, which is reported, not refused.
  const tritium::KernelResources spills = compile(dev, 4096).resources();
  EXPECT_EQ(spills.registers, 255);
  EXPECT_GT(spills.spill_bytes, 0);
  EXPECT_GT(spills.local_bytes, 0);
  EXPECT_EQ(spills.threads, 32);
}

TEST(CudaResources, AProgramThatCannotLaunchIsRefusedAtTheKernelWithTheFigures) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  const std::string head = "cuda backend: kernel @many cannot launch with num_warps=1 on sm_90: ";
  const std::string tail = " — smaller blocks, fewer tensors live at once or another num_warps reduce it";
  EXPECT_EQ(refusal(CudaLimits{}, 4096), "") << "sm_90's own limits";

  // Local memory past what a thread may have: the spilling kernel against 64 bytes.
  CudaLimits local;
  local.local_per_thread = 64;
  const std::string l = refusal(local, 4096);
  EXPECT_TRUE(starts_with(l, head + "needs ")) << l;
  EXPECT_TRUE(contains(l, " bytes of local memory per thread (tensors kept in per-thread arrays, ")) << l;
  EXPECT_TRUE(contains(l, " of them spilled registers; 255 registers per thread, 32 threads); the GPU allows 64" + tail))
      << l;
  EXPECT_EQ(refusal(local, 1024), "") << "no local memory at all";

  // Registers: a block of 32 threads against a 256-register file.
  CudaLimits regs;
  regs.registers_per_block = 256;
  const std::string r = refusal(regs, 1024);
  EXPECT_TRUE(starts_with(r, head + "needs ")) << r;
  EXPECT_TRUE(contains(r, " registers per thread x 32 threads = ")) << r;
  EXPECT_TRUE(contains(r, " registers per program (allocated per warp in units of 256); the GPU has 256 per block" + tail))
      << r;

  // The driver's reservation for every resident thread, past the device's memory.
  CudaLimits memory;
  memory.resident_threads = 132 * 2048;
  memory.device_memory = 1 << 20;
  const std::string d = refusal(memory, 4096);
  EXPECT_TRUE(starts_with(d, head + "needs ")) << d;
  EXPECT_TRUE(contains(d, "which the driver reserves for all 270336 threads the GPU holds at once: ")) << d;
  EXPECT_TRUE(contains(d, " bytes, more than the GPU's 1048576" + tail)) << d;
  EXPECT_EQ(refusal(memory, 1024), "");
}

// On the GPU: the spilling kernel runs and gives the reference, and the driver's figures for
// the loaded cubin are ptxas' (registers; local memory at least the spilled bytes).
TEST(CudaResources, ASpillingKernelRunsAndTheDriverAgreesWithPtxas) {
  TRITIUM_REQUIRE_GPU();
  const tritium::Device dev = tritium::Device::get("cuda");
  const int64_t N = 4096, S = 8;
  const tritium::CompiledKernel k = compile(dev, static_cast<int>(N));
  const tritium::KernelResources r = k.resources();
  EXPECT_EQ(r.registers, 255);
  EXPECT_GT(r.spill_bytes, 0);
  EXPECT_GT(r.local_bytes, 0);
  if (tritium::runtime::cuda::present_gpu_arch() == "sm_90") {
    const tritium::Device check(tritium::runtime::cuda::make_nvrtc_check_device());
    const tritium::KernelResources p = compile(check, static_cast<int>(N)).resources();
    EXPECT_EQ(r.registers, p.registers);
    EXPECT_EQ(r.local_bytes, p.local_bytes) << "the driver's LOCAL_SIZE_BYTES is ptxas' cumulative stack size";
    EXPECT_EQ(r.spill_bytes, p.spill_bytes);
  }
  const std::vector<float> x = random_nonzero_floats(static_cast<size_t>(N + 3 * S), 11, 2.0f);
  tritium::Buffer in = dev.alloc(x.size() * sizeof(float));
  in.copy_from_host(x.data(), x.size() * sizeof(float));
  tritium::Buffer out = dev.alloc(static_cast<size_t>(N) * sizeof(float));
  out.fill(std::nanf(""));
  k.launch({1, 1, 1}, {in, out});
  const std::vector<float> got = out.download<float>();
  int64_t bad = 0;
  for (int64_t e = 0; e < N; ++e) {
    const double x0 = x[static_cast<size_t>(e)], x1 = x[static_cast<size_t>(e + S)],
                 x2 = x[static_cast<size_t>(e + 2 * S)], x3 = x[static_cast<size_t>(e + 3 * S)];
    const double want = x0 * 1.5 + x1 * x2 - x3 * x0;  // |terms| < 6: three fp32 roundings of values below 16
    bad += !(std::fabs(got[static_cast<size_t>(e)] - want) <= 1e-5);
  }
  EXPECT_EQ(bad, 0);
}

}  // namespace
