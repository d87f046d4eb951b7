// The cuda device (see cuda_device.h).
#include "runtime/cuda/cuda_device.h"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

#include "frontend/source.h"

namespace tritium::runtime::cuda {

/// The primary context of one device, retained for the life of the holders (the device and
/// its modules).
struct CudaContext {
  CUdevice device = 0;
  CUcontext ctx = nullptr;

  explicit CudaContext(int ordinal) {
    const DriverApi& d = driver();
    check(d.cuDeviceGet(&device, ordinal), fmt::format("cuDeviceGet({})", ordinal));
    check(d.cuDevicePrimaryCtxRetain(&ctx, device), fmt::format("cuDevicePrimaryCtxRetain(device {})", ordinal));
  }
  ~CudaContext() {
    if (ctx) driver().cuDevicePrimaryCtxRelease_v2(device);  // errors ignored: a destructor
  }
  CudaContext(const CudaContext&) = delete;
  CudaContext& operator=(const CudaContext&) = delete;

  void make_current() const { check(driver().cuCtxSetCurrent(ctx), "cuCtxSetCurrent"); }
};

namespace {

/// "cubin", "PTX" or "image" (fatbin or unknown) for a module image.
const char* image_kind(std::string_view image) {
  if (image.size() >= 4 && std::memcmp(image.data(), "\x7f" "ELF", 4) == 0) return "cubin";
  if (image.find(".target") != std::string_view::npos && image.find(".version") != std::string_view::npos)
    return "PTX";
  return "image";
}

std::string dims(const std::array<uint32_t, 3>& d) { return fmt::format("({}, {}, {})", d[0], d[1], d[2]); }

/// Default limit of static + dynamic shared memory per block without opt-in.
constexpr int kDefaultSharedLimit = 48 * 1024;

}  // namespace

// ---------------------------------------------------------------------------------- CudaModule

CudaModule::CudaModule(std::shared_ptr<CudaContext> ctx, CUmodule module) : ctx_(std::move(ctx)), module_(module) {}

CudaModule::~CudaModule() {
  if (!module_) return;
  const DriverApi& d = driver();
  if (d.cuCtxSetCurrent(ctx_->ctx) == CUDA_SUCCESS) d.cuModuleUnload(module_);  // errors ignored
}

CudaFunction CudaModule::function(const std::string& name) const {
  const DriverApi& d = driver();
  ctx_->make_current();
  CudaFunction f;
  f.name = name;
  check(d.cuModuleGetFunction(&f.handle, module_, name.c_str()), fmt::format("cuModuleGetFunction({})", name));
  check(d.cuFuncGetAttribute(&f.static_shared_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f.handle),
        fmt::format("cuFuncGetAttribute({}, SHARED_SIZE_BYTES)", name));
  check(d.cuFuncGetAttribute(&f.num_regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f.handle),
        fmt::format("cuFuncGetAttribute({}, NUM_REGS)", name));
  check(d.cuFuncGetAttribute(&f.local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f.handle),
        fmt::format("cuFuncGetAttribute({}, LOCAL_SIZE_BYTES)", name));
  check(d.cuFuncGetAttribute(&f.max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f.handle),
        fmt::format("cuFuncGetAttribute({}, MAX_THREADS_PER_BLOCK)", name));
  return f;
}

// ---------------------------------------------------------------------------------- CudaDevice

CudaDevice::CudaDevice(int ordinal) {
  const DriverApi& d = driver();  // throws "cuda: <reason>" when unavailable
  ctx_ = std::make_shared<CudaContext>(ordinal);
  make_current();
  const CUdevice dev = ctx_->device;
  char name[256] = {};
  check(d.cuDeviceGetName(name, sizeof name - 1, dev), "cuDeviceGetName");
  props_.name = name;
  auto attr = [&](int which, const char* what) {
    int v = 0;
    check(d.cuDeviceGetAttribute(&v, which, dev), fmt::format("cuDeviceGetAttribute({})", what));
    return v;
  };
  props_.cc_major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "COMPUTE_CAPABILITY_MAJOR");
  props_.cc_minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "COMPUTE_CAPABILITY_MINOR");
  props_.sm_count = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "MULTIPROCESSOR_COUNT");
  props_.max_threads_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "MAX_THREADS_PER_BLOCK");
  props_.max_shared_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, "MAX_SHARED_MEMORY_PER_BLOCK");
  props_.max_shared_per_block_optin =
      attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN");
  props_.warp_size = attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE, "WARP_SIZE");
  props_.max_registers_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, "MAX_REGISTERS_PER_BLOCK");
  props_.max_registers_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, "MAX_REGISTERS_PER_MULTIPROCESSOR");
  props_.max_threads_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, "MAX_THREADS_PER_MULTIPROCESSOR");
  props_.max_shared_per_sm =
      attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR");
  props_.clock_khz = attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, "CLOCK_RATE");
  props_.mem_clock_khz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, "MEMORY_CLOCK_RATE");
  props_.mem_bus_width = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, "GLOBAL_MEMORY_BUS_WIDTH");
  props_.l2_bytes = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2_CACHE_SIZE");
  check(d.cuDeviceTotalMem_v2(&props_.total_memory, dev), "cuDeviceTotalMem_v2");
  check(d.cuDriverGetVersion(&props_.driver_version), "cuDriverGetVersion");
}

CudaDevice::~CudaDevice() = default;

void CudaDevice::make_current() const { ctx_->make_current(); }

std::string CudaDevice::arch() const { return fmt::format("sm_{}{}", props_.cc_major, props_.cc_minor); }

std::string CudaDevice::description() const {
  return fmt::format("{}, {}, {} SMs, {:.1f} GiB, CUDA driver {}.{}",
                     props_.name, arch(), props_.sm_count,
                     static_cast<double>(props_.total_memory) / (1024.0 * 1024.0 * 1024.0),
                     props_.driver_version / 1000, props_.driver_version % 1000 / 10);
}

std::map<std::string, int64_t> CudaDevice::property_map() const {
  const CudaProperties& p = props_;
  return {{"max_shared_mem", p.max_shared_per_block_optin},
          {"max_num_regs", p.max_registers_per_block},
          {"multiprocessor_count", p.sm_count},
          {"warpSize", p.warp_size},
          {"sm_clock_rate", p.clock_khz},
          {"mem_clock_rate", p.mem_clock_khz},
          {"mem_bus_width", p.mem_bus_width},
          {"max_threads_per_block", p.max_threads_per_block},
          {"max_threads_per_sm", p.max_threads_per_sm},
          {"max_num_regs_per_sm", p.max_registers_per_sm},
          {"max_shared_mem_per_sm", p.max_shared_per_sm},
          {"l2_cache_size", p.l2_bytes},
          {"total_memory", static_cast<int64_t>(p.total_memory)},
          {"compute_capability", p.cc_major * 10 + p.cc_minor}};
}

std::string CudaDevice::pending_launch_note() const {
  std::lock_guard<std::mutex> lk(mu_);
  const LastLaunch& l = last_launch_;
  if (l.name.empty()) return "";
  return fmt::format("the last launch was kernel '{}' (grid {}, block {}, {} bytes dynamic shared memory) "
                     "(launches are asynchronous: a fault in a kernel is reported by the next synchronizing call)",
                     l.name, dims(l.grid), dims(l.block), l.shared_bytes);
}

DeviceBuffer CudaDevice::alloc(size_t bytes) {
  make_current();
  CUdeviceptr p = 0;
  check(driver().cuMemAlloc_v2(&p, bytes == 0 ? 1 : bytes), fmt::format("cuMemAlloc_v2({} bytes)", bytes));
  return DeviceBuffer{reinterpret_cast<void*>(static_cast<uintptr_t>(p)), bytes};
}

void CudaDevice::free(DeviceBuffer& b) {
  if (!b.ptr) return;
  make_current();
  const CUdeviceptr p = static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(b.ptr));
  b.ptr = nullptr;
  const size_t bytes = b.bytes;
  b.bytes = 0;
  check(driver().cuMemFree_v2(p), fmt::format("cuMemFree_v2({:#x}, {} bytes)", p, bytes), pending_launch_note());
}

void CudaDevice::copy_in(DeviceBuffer& dst, const void* src, size_t bytes, size_t offset) {
  if (offset > dst.bytes || bytes > dst.bytes - offset)
    throw std::out_of_range(fmt::format("cuda device: copy_in of {} bytes at offset {} is past the end of a buffer "
                                        "of {} bytes",
                                        bytes, offset, dst.bytes));
  if (bytes == 0) return;
  make_current();
  const CUdeviceptr p = static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(dst.ptr)) + offset;
  check(driver().cuMemcpyHtoD_v2(p, src, bytes), fmt::format("cuMemcpyHtoD_v2({} bytes at offset {})", bytes, offset),
        pending_launch_note());
}

void CudaDevice::copy_out(void* dst, const DeviceBuffer& src, size_t bytes, size_t offset) {
  if (offset > src.bytes || bytes > src.bytes - offset)
    throw std::out_of_range(fmt::format("cuda device: copy_out of {} bytes at offset {} is past the end of a "
                                        "buffer of {} bytes",
                                        bytes, offset, src.bytes));
  if (bytes == 0) return;
  make_current();
  const CUdeviceptr p = static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(src.ptr)) + offset;
  check(driver().cuMemcpyDtoH_v2(dst, p, bytes), fmt::format("cuMemcpyDtoH_v2({} bytes at offset {})", bytes, offset),
        pending_launch_note());
  // A device-to-host copy waits for the launches before it: they all succeeded.
  std::lock_guard<std::mutex> lk(mu_);
  last_launch_.name.clear();
}

void CudaDevice::fill_u32_async(DeviceBuffer& dst, uint32_t value, size_t count, void* stream) {
  if (count > dst.bytes / 4)
    throw std::out_of_range(fmt::format("cuda device: fill of {} words is past the end of a buffer of {} bytes", count,
                                        dst.bytes));
  if (count == 0) return;
  make_current();
  const CUdeviceptr p = static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(dst.ptr));
  check(driver().cuMemsetD32Async(p, value, count, static_cast<CUstream>(stream)),
        fmt::format("cuMemsetD32Async({} words)", count), pending_launch_note());
}

void CudaDevice::copy_out_after(void* dst, const DeviceBuffer& src, size_t bytes, void* stream) {
  if (bytes > src.bytes)
    throw std::out_of_range(fmt::format("cuda device: copy_out of {} bytes is past the end of a buffer of {} bytes",
                                        bytes, src.bytes));
  if (bytes == 0) return;
  make_current();
  const CUdeviceptr p = static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(src.ptr));
  const std::string note = pending_launch_note();
  check(driver().cuMemcpyDtoHAsync_v2(dst, p, bytes, static_cast<CUstream>(stream)),
        fmt::format("cuMemcpyDtoHAsync_v2({} bytes)", bytes), note);
  check(driver().cuStreamSynchronize(static_cast<CUstream>(stream)), "cuStreamSynchronize", note);
}

std::unique_ptr<LoadedKernel> make_cuda_loaded_kernel(CudaDevice& dev, const ir::Module& m, const CodegenOptions& opts);

std::unique_ptr<LoadedKernel> CudaDevice::compile(const ir::Module& m, const CodegenOptions& opts) {
  return make_cuda_loaded_kernel(*this, m, opts);  // cuda_kernel.cpp
}

void CudaDevice::synchronize() {
  make_current();
  const std::string note = pending_launch_note();
  check(driver().cuCtxSynchronize(), "cuCtxSynchronize", note);
  std::lock_guard<std::mutex> lk(mu_);
  last_launch_.name.clear();
}

std::shared_ptr<CudaModule> CudaDevice::load_module(std::string_view image) {
  make_current();
  const std::string copy(image);  // PTX must be NUL-terminated
  char log[8192] = {};
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(static_cast<uintptr_t>(sizeof log - 1))};
  CUmodule module = nullptr;
  CUresult r = driver().cuModuleLoadDataEx(&module, copy.c_str(), 2, options, values);
  std::string context = log[0] ? fmt::format("JIT log: {}", log) : std::string();
  if (r != CUDA_SUCCESS && context.empty()) context = pending_launch_note();
  check(r, fmt::format("cuModuleLoadDataEx({} of {} bytes)", image_kind(image), image.size()), context);
  return std::make_shared<CudaModule>(ctx_, module);
}

void CudaDevice::launch(const CudaFunction& fn, const std::array<uint32_t, 3>& grid,
                        const std::array<uint32_t, 3>& block, uint32_t shared_bytes, void** params, void* stream) {
  if (!fn.handle) throw std::invalid_argument("cuda device: launch of a null function");
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0) return;  // an empty grid: nothing to run
  make_current();
  const DriverApi& d = driver();
  auto what = [&] {
    return fmt::format("kernel '{}' (grid {}, block {}, {} bytes dynamic shared memory)", fn.name, dims(grid),
                       dims(block), shared_bytes);
  };
  if (static_cast<int64_t>(shared_bytes) + fn.static_shared_bytes > kDefaultSharedLimit) {
    std::lock_guard<std::mutex> lk(mu_);
    int& opted = *fn.shared_optin;
    if (opted < static_cast<int>(shared_bytes)) {
      check(d.cuFuncSetAttribute(fn.handle, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 static_cast<int>(shared_bytes)),
            fmt::format("cuFuncSetAttribute({}, MAX_DYNAMIC_SHARED_SIZE_BYTES, {})", fn.name, shared_bytes),
            fmt::format("the device allows {} bytes of shared memory per block with opt-in; the kernel uses {} "
                        "bytes statically",
                        props_.max_shared_per_block_optin, fn.static_shared_bytes));
      opted = static_cast<int>(shared_bytes);
    }
  }
  const CUresult r = d.cuLaunchKernel(fn.handle, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                     shared_bytes, static_cast<CUstream>(stream), params, nullptr);
  if (r != CUDA_SUCCESS) check(r, "cuLaunchKernel(" + what() + ")", pending_launch_note());
  std::lock_guard<std::mutex> lk(mu_);
  last_launch_.name = fn.name;
  last_launch_.grid = grid;
  last_launch_.block = block;
  last_launch_.shared_bytes = shared_bytes;
}

void CudaDevice::launch(const CudaFunction& fn, const std::array<uint32_t, 3>& grid,
                        const std::array<uint32_t, 3>& block, uint32_t shared_bytes,
                        const std::vector<tritium_arg>& args, void* stream) {
  static_assert(sizeof(tritium_arg) == 8, "the launch ABI uses 8-byte slots");
  std::vector<tritium_arg> slots = args;  // kernelParams need non-const pointers
  std::vector<void*> params(slots.size());
  for (size_t i = 0; i < slots.size(); ++i) params[i] = &slots[i];
  launch(fn, grid, block, shared_bytes, params.empty() ? nullptr : params.data(), stream);
}

std::unique_ptr<Device> make_cuda_device(int ordinal) { return std::make_unique<CudaDevice>(ordinal); }

}  // namespace tritium::runtime::cuda
