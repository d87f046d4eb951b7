// Device::properties and CompiledKernel::resources: the figures occupancy arithmetic in host
// code reads (upstream's get_device_properties keys, n_regs / n_spills / metadata.shared).
// On the cpu backend, the documented execution model (one program per worker thread); on
// the GPU, the driver's own figures, checked for consistency with the launch tritium makes.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "../runtime/cuda_test_util.h"
#include "tritium/tritium.h"

namespace {

const char* kSrc = R"(
import triton
import triton.language as tl

@triton.jit
def row_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * n + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + tl.program_id(0), tl.sum(x, axis=0))
)";

tritium::CompiledKernel compile_on(const tritium::Device& dev, int num_warps) {
  tritium::CompileOptions o;
  o.num_warps = num_warps;
  auto mod = tritium::Module::from_string(kSrc, "resources_test.py");
  return mod.kernel("row_sum").compile(dev, "*fp32:16, *fp32:16, i32, 1024", o);
}

/// Upstream's occupancy formula (tutorial 02): programs per multiprocessor.
int64_t occupancy(const std::map<std::string, int64_t>& p, const tritium::KernelResources& r, int num_warps) {
  int64_t occ = p.at("max_num_regs") / (int64_t{r.registers} * p.at("warpSize") * num_warps);
  if (r.shared_bytes > 0) occ = std::min<int64_t>(occ, p.at("max_shared_mem") / r.shared_bytes);
  return occ;
}

TEST(Resources, TheCpuModelGivesOneProgramPerWorkerThread) {
  const tritium::Device dev = tritium::Device::get("cpu");
  const auto p = dev.properties();
  for (const char* key : {"multiprocessor_count", "max_shared_mem", "max_num_regs", "warpSize"})
    ASSERT_TRUE(p.count(key)) << key;
  EXPECT_GE(p.at("multiprocessor_count"), 1);
  EXPECT_EQ(p.at("warpSize"), 1);
  for (int nw : {1, 4, 8, 32}) {
    const tritium::KernelResources r = compile_on(dev, nw).resources();
    EXPECT_GT(r.registers, 0) << nw;
    EXPECT_GT(r.shared_bytes, 0) << nw;
    EXPECT_EQ(r.threads, nw);
    EXPECT_EQ(occupancy(p, r, nw), 1) << "num_warps " << nw;
  }
}

TEST(Resources, InterpHasNone) {
  const tritium::Device dev = tritium::Device::get("interp");
  EXPECT_TRUE(dev.properties().empty());
  const tritium::KernelResources r = compile_on(dev, 4).resources();
  EXPECT_EQ(r.registers, 0);
  EXPECT_EQ(r.shared_bytes, 0);
}

TEST(Resources, TheGpuReportsTheDriversFigures) {
  TRITIUM_REQUIRE_GPU();
  const tritium::Device dev = tritium::Device::get("cuda");
  const auto p = dev.properties();
  EXPECT_EQ(p.at("warpSize"), 32);
  EXPECT_GT(p.at("multiprocessor_count"), 0);
  EXPECT_GE(p.at("max_shared_mem"), 48 * 1024);
  EXPECT_GT(p.at("max_num_regs"), 0);
  EXPECT_GT(p.at("mem_bus_width"), 0);
  EXPECT_GE(p.at("compute_capability"), 70);
  for (int nw : {4, 8}) {
    const tritium::KernelResources r = compile_on(dev, nw).resources();
    EXPECT_GT(r.registers, 0);
    EXPECT_LE(r.registers, 255);
    EXPECT_EQ(r.threads, 32 * nw);
    EXPECT_GE(r.max_threads, r.threads) << "the kernel must be launchable with the threads tritium uses";
    EXPECT_GT(r.shared_bytes, 0) << "a cross-warp tl.sum over " << nw << " warps needs shared memory";
    EXPECT_GE(occupancy(p, r, nw), 1);
  }
}

}  // namespace
