// The CPU device: host memory, kernels compiled to shared objects by the system C++
// compiler (through the on-disk cache), programs run in parallel on the process-wide
// thread pool. runtime::make_cpu_device() (device.h) returns one with default options.
//
// A launch splits the grid's programs into chunks handed out dynamically to the workers;
// each chunk calls the kernel's tritium_run(args, grid, first, end, host). Launches are
// synchronous and serialized. A failed device_assert is reported by the first program
// that fails and raised as std::runtime_error after the launch (the failing program stops;
// the others run to completion).
#pragma once
#include <cstdint>
#include <filesystem>
#include <memory>

#include "runtime/device.h"

namespace tritium::runtime::cpu {

/// Options of a CPU device.
struct CpuDeviceOptions {
  /// Cache directory; empty = DiskCache::default_root().
  std::filesystem::path cache_root;
};

/// A CPU device with explicit options.
std::unique_ptr<Device> make_cpu_device(const CpuDeviceOptions& options);

/// Process-wide counters of the CPU compile path (for tests and diagnostics).
struct CpuCompileCounters {
  uint64_t cache_hits = 0;  ///< compiles served from the on-disk cache (input hits included)
  uint64_t builds = 0;      ///< compile() calls that ran the C++ compiler
  uint64_t input_hits = 0;  ///< of the hits, those found by their inputs without lowering
};
/// A snapshot of the counters.
CpuCompileCounters cpu_compile_counters();

}  // namespace tritium::runtime::cpu
