// device_clock.h - how the bench times one call: on the device's own clock where it has one
// (CUDA events around the call on the default stream), else the host's monotonic clock around
// the call and a synchronisation.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <tritium/tritium.h>

namespace tritium::bench {

/// Times calls that enqueue work on a device.
class DeviceClock {
 public:
  virtual ~DeviceClock() = default;
  /// Runs `enqueue` (which launches work on the device without waiting for it), waits for
  /// that work and returns its duration in seconds. Throws what `enqueue` or the device
  /// throws.
  virtual double time(const std::function<void()>& enqueue) = 0;
  /// "CUDA events" or "steady_clock + synchronize", for the report.
  virtual std::string name() const = 0;
};

/// The clock for `device`: CUDA events (cuEventRecord before and after the call on the
/// default stream, cuEventSynchronize, cuEventElapsedTime) for the "cuda" backend, with a
/// 64 MiB memset enqueued before the start event so that the GPU is still busy while the
/// host launches the call: the interval is the GPU's time for the work, without the host's
/// launch overhead; std::chrono::steady_clock
/// around the call and Device::synchronize() for the others. `device` must outlive the clock.
std::unique_ptr<DeviceClock> clock_for(Device& device);

/// The device's copy bandwidth, measured the way the bench's roofline needs it: for "cuda",
/// a device-to-device cuMemcpyDtoD of `bytes` (0: 1 GiB), 3 untimed then `reps` timed with
/// CUDA events, 2 * bytes over the median time (bytes per second; what the copy reads plus
/// what it writes). Returns 0 for other backends (the host copy bandwidth, membw.h, is
/// theirs) and when the allocation fails.
double measure_device_copy_bandwidth(Device& device, size_t bytes = 0, int reps = 20);

}  // namespace tritium::bench
