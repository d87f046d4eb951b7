// device_clock.cpp - CUDA events through the driver table tritium already loads
// (runtime/cuda/cuda_api.h); the monotonic clock elsewhere.
#include "device_clock.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "runtime/cuda/cuda_api.h"
#include "timing.h"

namespace tritium::bench {
namespace {

namespace cu = tritium::runtime::cuda;

class HostClock final : public DeviceClock {
 public:
  explicit HostClock(Device& d) : device_(d) {}
  double time(const std::function<void()>& enqueue) override {
    const auto t0 = std::chrono::steady_clock::now();
    enqueue();
    device_.synchronize();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  std::string name() const override { return "steady_clock + synchronize"; }

 private:
  Device& device_;
};

// A start and an end event, created in the device's primary context (made current on this
// thread by the synchronize() before), reused for every call. Before the start event each
// call enqueues a memset of a 64 MiB scratch buffer (~20 us of GPU work): the GPU is busy
// with it while the host records the event and enqueues the call, so the call starts on
// the GPU as soon as the memset ends and the interval between the events holds the GPU's
// time for the call, not the host's launch overhead (cuLaunchKernel, cublasGemmEx: ~5 us
// each). Without it the GPU would be idle at the start event, having just been
// synchronized.
class CudaEventClock final : public DeviceClock {
 public:
  static constexpr size_t kBusyBytes = size_t{64} << 20;
  explicit CudaEventClock(Device& d) : device_(d), api_(cu::driver()), busy_(d.alloc(kBusyBytes)) {
    device_.synchronize();  // makes the device's context current on this thread
    cu::check(api_.cuEventCreate(&start_, 0), "cuEventCreate");
    cu::check(api_.cuEventCreate(&end_, 0), "cuEventCreate");
  }
  ~CudaEventClock() override {
    api_.cuEventDestroy_v2(start_);
    api_.cuEventDestroy_v2(end_);
  }
  double time(const std::function<void()>& enqueue) override {
    cu::check(api_.cuMemsetD32Async(reinterpret_cast<cu::CUdeviceptr>(busy_.device_ptr()), 0, kBusyBytes / 4, nullptr),
              "cuMemsetD32Async");
    cu::check(api_.cuEventRecord(start_, nullptr), "cuEventRecord");
    enqueue();
    cu::check(api_.cuEventRecord(end_, nullptr), "cuEventRecord");
    cu::check(api_.cuEventSynchronize(end_), "cuEventSynchronize");
    float ms = 0;
    cu::check(api_.cuEventElapsedTime(&ms, start_, end_), "cuEventElapsedTime");
    return static_cast<double>(ms) * 1e-3;
  }
  std::string name() const override { return "CUDA events"; }

 private:
  Device& device_;
  const cu::DriverApi& api_;
  Buffer busy_;
  cu::CUevent start_ = nullptr;
  cu::CUevent end_ = nullptr;
};

}  // namespace

std::unique_ptr<DeviceClock> clock_for(Device& device) {
  if (device.name() == "cuda") return std::make_unique<CudaEventClock>(device);
  return std::make_unique<HostClock>(device);
}

double measure_device_copy_bandwidth(Device& device, size_t bytes, int reps) {
  if (device.name() != "cuda") return 0;
  if (bytes == 0) bytes = size_t{1} << 30;
  try {
    Buffer src = device.alloc(bytes), dst = device.alloc(bytes);
    const cu::DriverApi& api = cu::driver();
    auto copy = [&] {
      cu::check(api.cuMemcpyDtoD_v2(reinterpret_cast<cu::CUdeviceptr>(dst.device_ptr()),
                                    reinterpret_cast<cu::CUdeviceptr>(src.device_ptr()), bytes),
                "cuMemcpyDtoD_v2");
    };
    CudaEventClock clock(device);
    for (int i = 0; i < 3; ++i) clock.time(copy);
    std::vector<double> t;
    for (int i = 0; i < std::max(1, reps); ++i) t.push_back(clock.time(copy));
    const double med = median_of(t);
    return med > 0 ? 2.0 * static_cast<double>(bytes) / med : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace tritium::bench
