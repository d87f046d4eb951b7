// The Metal toolchain probe's program must exercise what tritium's MSL programs use, so a
// language version that passes the probe compiles tritium's kernels.
#include <gtest/gtest.h>

#include "runtime/metal/metal_probe_program.h"

TEST(MetalProbeProgram, UsesWhatTritiumsProgramsUse) {
  const std::string& s = tritium::runtime::metal::metal_probe_program();
  for (const char* needed : {"#pragma METAL fp math_mode(safe)", "#pragma METAL fp contract(off)",
                             "kernel void tritium_kernel(", "threadgroup_barrier(", "simd_shuffle_xor(",
                             "atomic_compare_exchange_weak_explicit(",
                             "thread_scope_device", "[[max_total_threads_per_threadgroup(128)]]"})
    EXPECT_NE(s.find(needed), std::string::npos) << "the probe program lacks " << needed;
  EXPECT_EQ(s.find("the serial shape"), std::string::npos);
}
