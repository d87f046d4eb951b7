// The "cuda" device: NVIDIA GPUs through the driver API (cuda_api.h), on the primary
// context of one device.
//
// Device interface (device.h): alloc/free (cuMemAlloc_v2/cuMemFree_v2), copy_in/copy_out
// (cuMemcpyHtoD_v2/DtoH_v2 at a byte offset, bounds-checked against the buffer size),
// synchronize (cuCtxSynchronize; an error of an asynchronous launch is reported with the
// kernel name of the last launch), description, compile() (cuda_kernel.h).
//
// Lower-level entries for the code generator: load_module (a cubin, PTX or fatbin image,
// cuModuleLoadDataEx with the JIT error log), CudaModule::function (cuModuleGetFunction),
// launch (cuLaunchKernel on the default stream; asynchronous: errors inside the kernel
// surface at the next synchronize or copy).
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/cuda/cuda_api.h"
#include "runtime/device.h"

namespace tritium::runtime::cuda {

struct CudaContext;  // a retained primary context (cuda_device.cpp)

/// A kernel entry of a loaded module. Valid while its CudaModule lives.
struct CudaFunction {
  CUfunction handle = nullptr;
  std::string name;             ///< the entry's name in the module (extern "C" name)
  int static_shared_bytes = 0;  ///< CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
  int num_regs = 0;             ///< CU_FUNC_ATTRIBUTE_NUM_REGS (per thread)
  int local_bytes = 0;          ///< CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES (per thread: spills, local arrays)
  int max_threads = 0;          ///< CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
  /// Dynamic shared bytes opted in so far (cuFuncSetAttribute), shared by copies; kept
  /// with the function, so it goes when the module does (a later module's function that
  /// happens to reuse the handle value starts from 0).
  std::shared_ptr<int> shared_optin = std::make_shared<int>(0);
};

/// A module loaded into a device's context; unloaded (cuModuleUnload) on destruction.
class CudaModule {
 public:
  /// Takes ownership of `module`, loaded in `ctx` (use CudaDevice::load_module).
  CudaModule(std::shared_ptr<CudaContext> ctx, CUmodule module);
  /// Unloads the module (errors ignored).
  ~CudaModule();
  CudaModule(const CudaModule&) = delete;
  CudaModule& operator=(const CudaModule&) = delete;

  /// The kernel `name` (cuModuleGetFunction). Throws std::runtime_error naming the call,
  /// e.g. "cuda: cuModuleGetFunction(vadd) failed: CUDA_ERROR_NOT_FOUND (named symbol not
  /// found)".
  CudaFunction function(const std::string& name) const;

 private:
  std::shared_ptr<CudaContext> ctx_;
  CUmodule module_;
};

/// Properties of the device, read once at construction.
struct CudaProperties {
  std::string name;              ///< e.g. "NVIDIA H200"
  int cc_major = 0, cc_minor = 0;  ///< compute capability
  int sm_count = 0;              ///< multiprocessors
  size_t total_memory = 0;       ///< bytes
  int max_threads_per_block = 0;
  int max_shared_per_block = 0;        ///< bytes without opt-in (48 KB)
  int max_shared_per_block_optin = 0;  ///< bytes with cuFuncSetAttribute opt-in
  int driver_version = 0;        ///< cuDriverGetVersion, e.g. 13000 for CUDA 13.0
  int warp_size = 0;
  int max_registers_per_block = 0;  ///< 32-bit registers
  int max_registers_per_sm = 0;
  int max_threads_per_sm = 0;
  int max_shared_per_sm = 0;        ///< bytes
  int clock_khz = 0;                ///< SM clock (CU_DEVICE_ATTRIBUTE_CLOCK_RATE)
  int mem_clock_khz = 0;
  int mem_bus_width = 0;            ///< bits
  int l2_bytes = 0;
};

/// The cuda device. Thread-safe: every entry makes the context current on the calling
/// thread first.
class CudaDevice final : public Device {
 public:
  /// Opens device `ordinal` (its primary context). Throws std::runtime_error when the driver
  /// is unavailable ("cuda: libcuda.so.1 not found ...") or a driver call fails.
  explicit CudaDevice(int ordinal = 0);
  ~CudaDevice() override;

  /// "cuda".
  std::string name() const override { return "cuda"; }
  /// "NVIDIA H200, sm_90, 132 SMs, 139.8 GiB, CUDA driver 13.0".
  std::string description() const override;
  std::map<std::string, int64_t> property_map() const override;
  /// Allocates `bytes` (at least 1) of device memory, 256-byte aligned. Throws
  /// std::runtime_error ("cuda: cuMemAlloc_v2(N bytes) failed: ...").
  DeviceBuffer alloc(size_t bytes) override;
  /// Frees `b` (no-op for a null buffer) and nulls it. Throws std::runtime_error on a
  /// driver error.
  void free(DeviceBuffer& b) override;
  /// Copies `bytes` from host `src` to `dst` at byte `offset` (synchronous). Throws
  /// std::out_of_range when [offset, offset+bytes) exceeds dst.bytes, std::runtime_error on a
  /// driver error (which may come from an earlier asynchronous launch: the message says so).
  void copy_in(DeviceBuffer& dst, const void* src, size_t bytes, size_t offset = 0) override;
  /// Copies `bytes` from `src` at byte `offset` to host `dst` (synchronous); errors as copy_in.
  void copy_out(void* dst, const DeviceBuffer& src, size_t bytes, size_t offset = 0) override;
  /// Sets `count` 32-bit words of `dst` to `value`, enqueued on `stream` (null: the default
  /// stream; cuMemsetD32Async), so it is ordered with the launches on that stream.
  void fill_u32_async(DeviceBuffer& dst, uint32_t value, size_t count, void* stream);
  /// Copies `bytes` of `src` to host `dst` after the work already enqueued on `stream`, then
  /// waits for that stream alone (cuMemcpyDtoHAsync_v2 + cuStreamSynchronize); errors as
  /// copy_in.
  void copy_out_after(void* dst, const DeviceBuffer& src, size_t bytes, void* stream);
  /// Renders the kernel (codegen/cuda), compiles it to a cubin for this GPU with NVRTC and
  /// loads it (cuda_kernel.h). Throws frontend::CompileError for refused constructs.
  std::unique_ptr<LoadedKernel> compile(const ir::Module& m, const CodegenOptions& opts) override;
  /// Waits for all launched work (cuCtxSynchronize). Throws std::runtime_error naming the
  /// kernel of the last launch when an asynchronous error is reported.
  void synchronize() override;

  /// Loads a cubin, PTX text or fatbin image (cuModuleLoadDataEx). Throws std::runtime_error
  /// naming the call and the image kind, with the JIT error log when the driver gives one.
  std::shared_ptr<CudaModule> load_module(std::string_view image);

  /// Launches `fn` over `grid` blocks of `block` threads with `shared_bytes` of dynamic
  /// shared memory; `params` points to one pointer per kernel parameter, each pointing to the
  /// argument's bytes (cuLaunchKernel's kernelParams). Above 48 KB of shared memory the
  /// function is opted in first (cuFuncSetAttribute MAX_DYNAMIC_SHARED_SIZE_BYTES). A grid
  /// with a zero dimension launches nothing. Asynchronous. Throws std::runtime_error naming
  /// the failing call with the kernel, grid, block and shared size.
  void launch(const CudaFunction& fn, const std::array<uint32_t, 3>& grid, const std::array<uint32_t, 3>& block,
              uint32_t shared_bytes, void** params, void* stream = nullptr);
  /// launch() with tritium's 8-byte argument slots (kernel_abi.h): the kernel's parameters
  /// must be laid out as the slots' low bytes (pointers, 64-bit and 32-bit integers, float,
  /// fp16/bf16 as their bits), which holds on little-endian hosts.
  void launch(const CudaFunction& fn, const std::array<uint32_t, 3>& grid, const std::array<uint32_t, 3>& block,
              uint32_t shared_bytes, const std::vector<tritium_arg>& args, void* stream = nullptr);

  /// Device properties.
  const CudaProperties& properties() const { return props_; }
  /// "sm_<major><minor>", the real arch to compile cubins for.
  std::string arch() const;

 private:
  void make_current() const;
  /// Context for errors that may stem from an earlier asynchronous launch ("" if none).
  std::string pending_launch_note() const;

  std::shared_ptr<CudaContext> ctx_;
  CudaProperties props_;
  mutable std::mutex mu_;
  // The last launch since synchronize, described only when an error message needs it
  // (formatting it per launch cost a measurable part of a small kernel's launch).
  struct LastLaunch {
    std::string name;  // empty: none
    std::array<uint32_t, 3> grid{}, block{};
    uint32_t shared_bytes = 0;
  };
  LastLaunch last_launch_;
};

/// A cuda device for device `ordinal` (the registry's factory). Throws as CudaDevice().
std::unique_ptr<Device> make_cuda_device(int ordinal = 0);

}  // namespace tritium::runtime::cuda
