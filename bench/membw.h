// membw.h - what the bench knows about the host machine: processor model, hardware
// threads, last-level cache, and the measured memory copy bandwidth that memory-bound
// kernels are compared against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tritium::bench {

/// The host processor.
struct MachineInfo {
  std::string cpu_model;  ///< "model name" of /proc/cpuinfo (or "unknown CPU")
  int threads = 1;        ///< hardware threads (std::thread::hardware_concurrency)
  int64_t llc_bytes = 0;  ///< size of the last-level cache of one core's cluster (0 if unknown)
};

/// Reads the processor model, thread count and last-level cache size (from sysfs, falling
/// back to sysconf).
MachineInfo machine_info();

/// A measured copy bandwidth.
struct CopyBandwidth {
  double bytes_per_s = 0;   ///< (bytes read + bytes written) / median time
  size_t buffer_bytes = 0;  ///< size of the source (and of the destination)
  int threads = 1;          ///< threads that copied, each its own contiguous slice
  int reps = 0;             ///< timed copies
  /// How it was copied, for the report: "" for the host's memcpy (threads above), else e.g.
  /// "cuMemcpyDtoD on the GPU" (device_clock.h).
  std::string method;
  /// Host measurements: each way of copying's own rate (bytes_per_s is the faster); 0 where
  /// not measured (a streaming copy needs x86's SSE2 non-temporal stores).
  double memcpy_bytes_per_s = 0;
  double stream_bytes_per_s = 0;
};

/// Measures the copy bandwidth of this machine: a source and a destination of `buffer_bytes`
/// (0 picks max(256 MiB, 8 x last-level cache) so caches cannot hold them), both touched
/// first, copied by `threads` threads (0 = all hardware threads, like the kernels), each its
/// own slice, two ways, interleaved call by call (timing.h's time_interleaved: `reps` rounds
/// after one untimed round): the C library's memcpy, and on x86 a streaming copy (16-byte loads, non-temporal
/// stores, which skip the read-for-ownership of each destination line, as the CPU backend's
/// stores do; some memcpy implementations do not, e.g. glibc 2.36 on AMD EPYC measured 29
/// GB/s against the streaming copy's 45). Each rate is 2 * buffer_bytes over the median
/// time; the roof is the faster, so no kernel is compared against a weaker copy than the
/// machine can do. method names both rates.
CopyBandwidth measure_copy_bandwidth(size_t buffer_bytes = 0, int threads = 0, int reps = 5);

/// Whether the host's memcpy bandwidth is the roofline of `backend`'s memory-bound kernels:
/// true for the backends that run on the host's memory ("cpu", "interp"); false for GPUs,
/// whose roof is their own device copy (device_clock.h's measure_device_copy_bandwidth for
/// cuda; none measured for opencl GPUs, whose cases then show no %copy rather than a
/// fraction of the host's bandwidth).
bool host_copy_is_roofline(const std::string& backend);

}  // namespace tritium::bench
