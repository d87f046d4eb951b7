// ptxas' statistics read from NVRTC's log, and the launch limits they are checked against
// (runtime/cuda/ptxas_info.h). The logs are CUDA 13.0's NVRTC output for sm_90, captured
// with --ptxas-options=-v; the limits' figures are the H200's (measured: ptxas_info.h).
#include <gtest/gtest.h>

#include <string>

#include "runtime/cuda/ptxas_info.h"

namespace {

using tritium::runtime::cuda::CudaLimits;
using tritium::runtime::cuda::launch_refusal;
using tritium::runtime::cuda::parse_ptxas_info;
using tritium::runtime::cuda::PtxasInfo;
using tritium::runtime::cuda::registers_per_block;

// A kernel that spills (64 registers under __launch_bounds__(1024)), after a device function
// it calls, and a second entry function after it.
const char* const kLog =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Function properties for helper\n"
    "ptxas         .     96 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
    "ptxas info    : Compiling entry function 'tritium_k' for 'sm_90'\n"
    "ptxas info    : Function properties for tritium_k\n"
    "ptxas         .     4664 bytes stack frame, 5304 bytes spill stores, 6788 bytes spill loads\n"
    "ptxas info    : Used 64 registers, used 0 barriers, 4760 bytes cumulative stack size\n"
    "ptxas info    : Compile time = 891.243 ms\n"
    "ptxas info    : Compiling entry function 'tritium_other' for 'sm_90'\n"
    "ptxas info    : Function properties for tritium_other\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 12 registers, used 1 barriers\n";

TEST(PtxasInfo, ReadsTheEntrysBlockOnly) {
  const PtxasInfo k = parse_ptxas_info(kLog, "tritium_k");
  ASSERT_TRUE(k.known);
  EXPECT_EQ(k.registers, 64);
  EXPECT_EQ(k.stack_bytes, 4760);  // cumulative: its frame and the helper's
  EXPECT_EQ(k.spill_stores, 5304);
  EXPECT_EQ(k.spill_loads, 6788);
  // Without "cumulative stack size" (older ptxas), the frame.
  const PtxasInfo o = parse_ptxas_info(kLog, "tritium_other");
  ASSERT_TRUE(o.known);
  EXPECT_EQ(o.registers, 12);
  EXPECT_EQ(o.stack_bytes, 0);
  EXPECT_EQ(o.spill_stores, 0);
  // An entry the log does not have, a prefix of one, or no verbose output: unknown.
  EXPECT_FALSE(parse_ptxas_info(kLog, "tritium").known);
  EXPECT_FALSE(parse_ptxas_info(kLog, "helper").known);
  EXPECT_FALSE(parse_ptxas_info("", "tritium_k").known);
}

TEST(PtxasInfo, RegistersAreAllocatedPerWarpInUnitsOf256) {
  EXPECT_EQ(registers_per_block(32, 128), 4 * 1024);
  EXPECT_EQ(registers_per_block(33, 128), 4 * 1280);  // 33 x 32 = 1056 -> 1280 per warp
  EXPECT_EQ(registers_per_block(64, 1024), 65536);
  EXPECT_EQ(registers_per_block(255, 1024), 32 * 8192);
}

TEST(PtxasInfo, WhatCannotLaunchIsNamedWithItsFigures) {
  PtxasInfo info;
  info.known = true;
  info.registers = 64;
  const CudaLimits sm90;
  EXPECT_FALSE(launch_refusal(info, 1024, sm90));  // exactly 65,536
  info.registers = 72;
  EXPECT_EQ(launch_refusal(info, 1024, sm90).value_or(""),
            "needs 72 registers per thread x 1024 threads = 73728 registers per program (allocated per warp in units "
            "of 256); the GPU has 65536 per block");
  EXPECT_FALSE(launch_refusal(info, 512, sm90));

  // Local memory: the most the H200 launched with passes, 64 bytes more does not.
  info.registers = 40;
  info.stack_bytes = 523712;
  EXPECT_FALSE(launch_refusal(info, 32, sm90));
  info.stack_bytes = 523776;
  info.spill_stores = 1024;
  EXPECT_EQ(launch_refusal(info, 32, sm90).value_or(""),
            "needs 523776 bytes of local memory per thread (tensors kept in per-thread arrays, 1024 of them spilled "
            "registers; 40 registers per thread, 32 threads); the GPU allows 523712");

  // The driver's reservation for every resident thread, against the device's memory (where
  // a device is known: 132 multiprocessors x 2,048 threads, 141 GB).
  CudaLimits h200;
  h200.resident_threads = 132 * 2048;
  h200.device_memory = 150'000'000'000;
  info.spill_stores = 0;
  info.stack_bytes = 500'000;  // 135 GB reserved: launches on an idle H200
  EXPECT_FALSE(launch_refusal(info, 128, h200));
  CudaLimits small = h200;
  small.device_memory = 80'000'000'000;
  EXPECT_EQ(launch_refusal(info, 128, small).value_or(""),
            "needs 500000 bytes of local memory per thread (tensors kept in per-thread arrays), which the driver "
            "reserves for all 270336 threads the GPU holds at once: 135168000000 bytes, more than the GPU's "
            "80000000000");
  EXPECT_FALSE(launch_refusal(info, 128, sm90)) << "without a device, only the per-thread limit";

  info.known = false;  // nothing checked without ptxas' figures
  info.stack_bytes = 1 << 30;
  EXPECT_FALSE(launch_refusal(info, 1024, sm90));
}

}  // namespace
