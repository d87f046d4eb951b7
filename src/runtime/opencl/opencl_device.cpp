// The OpenCL device and kernels built from OpenCL C source (see opencl_device.h).
#include "runtime/opencl/opencl_device.h"

#include <pthread.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "codegen/cpu/cpu_codegen.h"
#include "codegen/opencl/opencl_codegen.h"
#include "frontend/source.h"
#include "runtime/env_choice.h"

namespace tritium::runtime::opencl {

void check(cl_int r, const std::string& call) {
  if (r != CL_SUCCESS) throw std::runtime_error("opencl: " + call + ": " + error_name(r));
}

namespace {

/// The device $TRITIUM_OPENCL_DEVICE names ("P:D"), else the first GPU, else the first.
DeviceInfo choose_device() {
  std::vector<DeviceInfo> all = list_devices();
  if (all.empty()) throw std::runtime_error("opencl: " + unavailable_reason());
  if (const char* e = std::getenv("TRITIUM_OPENCL_DEVICE"); e && *e) {
    unsigned p = 0, d = 0;
    if (std::sscanf(e, "%u:%u", &p, &d) != 2)
      throw std::runtime_error(fmt::format("opencl: TRITIUM_OPENCL_DEVICE='{}' is not 'P:D'", e));
    std::vector<cl_platform_id> platforms;
    for (const DeviceInfo& i : all)
      if (platforms.empty() || platforms.back() != i.platform) platforms.push_back(i.platform);
    if (p >= platforms.size())
      throw std::runtime_error(fmt::format("opencl: TRITIUM_OPENCL_DEVICE='{}': there are {} platforms", e,
                                           platforms.size()));
    unsigned k = 0;
    for (const DeviceInfo& i : all)
      if (i.platform == platforms[p] && k++ == d) return i;
    throw std::runtime_error(fmt::format("opencl: TRITIUM_OPENCL_DEVICE='{}': platform {} has {} devices", e, p, k));
  }
  for (const DeviceInfo& i : all)
    if (i.is_gpu) return i;
  return all.front();
}

constexpr uintptr_t kAlign = 256;

/// Throws std::out_of_range unless [offset, offset + bytes) lies within a buffer of `size` bytes.
void check_range(const char* what, size_t bytes, size_t offset, size_t size) {
  if (offset > size || bytes > size - offset)
    throw std::out_of_range(fmt::format("opencl device: {} of {} bytes at offset {} is past the end of a buffer of "
                                        "{} bytes",
                                        what, bytes, offset, size));
}  // between buffers' address ranges (also their alignment)

}  // namespace

// ---------------------------------------------------------------------------------- device

std::unique_ptr<Device> make_opencl_device() { return std::make_unique<OpenCLDevice>(); }

bool chosen_device_is_gpu() {
  try {
    return choose_device().is_gpu;
  } catch (const std::exception&) {
    return false;
  }
}

OpenCLDevice::OpenCLDevice() : info_(choose_device()) {
  const Api& a = api();
  cl_int err = CL_SUCCESS;
  ctx_ = a.clCreateContext(nullptr, 1, &info_.device, nullptr, nullptr, &err);
  check(err, "clCreateContext(" + info_.name + ")");
  queue_ = a.clCreateCommandQueue(ctx_, info_.device, 0, &err);
  if (err != CL_SUCCESS) {
    a.clReleaseContext(ctx_);
    check(err, "clCreateCommandQueue(" + info_.name + ")");
  }
}

OpenCLDevice::~OpenCLDevice() {
  const Api& a = api();
  for (auto& [base, b] : blocks_) a.clReleaseMemObject(b.mem);
  if (queue_) a.clReleaseCommandQueue(queue_);
  if (ctx_) a.clReleaseContext(ctx_);
}

std::string OpenCLDevice::description() const {
  // intel_subgroups() probes the device once (a kernel launch), hence not const.
  const bool shuffles = const_cast<OpenCLDevice*>(this)->intel_subgroups();
  return fmt::format("{} ({}; {}, {} compute units, {:.1f} GiB, {}, platform {}; lanes exchanged {})", info_.name,
                     info_.vendor, info_.version, info_.compute_units,
                     static_cast<double>(info_.global_mem) / (1024.0 * 1024.0 * 1024.0), info_.c_version,
                     info_.platform_name,
                     shuffles ? "by sub-group shuffles (cl_intel_subgroups)" : "through local memory");
}

std::map<std::string, int64_t> OpenCLDevice::property_map() const {
  return {{"multiprocessor_count", info_.compute_units},
          {"max_shared_mem", static_cast<int64_t>(info_.local_mem)},
          {"max_threads_per_block", static_cast<int64_t>(info_.max_work_group)},
          {"sm_clock_rate", int64_t{info_.clock_mhz} * 1000},
          {"total_memory", static_cast<int64_t>(info_.global_mem)}};
}

DeviceBuffer OpenCLDevice::alloc(size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_mem m = api().clCreateBuffer(ctx_, CL_MEM_READ_WRITE, bytes == 0 ? 1 : bytes, nullptr, &err);
  check(err, fmt::format("clCreateBuffer({} bytes)", bytes));
  std::lock_guard<std::mutex> lk(mu_);
  const uintptr_t base = next_;
  next_ += ((bytes == 0 ? 1 : bytes) + 2 * kAlign - 1) / kAlign * kAlign;  // at least one kAlign gap
  blocks_[base] = Block{m, bytes};
  return DeviceBuffer{reinterpret_cast<void*>(base), bytes};
}

void OpenCLDevice::free(DeviceBuffer& b) {
  if (!b.ptr) return;
  cl_mem m = nullptr;
  {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = blocks_.find(reinterpret_cast<uintptr_t>(b.ptr));
    if (it == blocks_.end()) throw std::invalid_argument("opencl device: free of an address it did not allocate");
    m = it->second.mem;
    blocks_.erase(it);
  }
  api().clFinish(queue_);  // a kernel still queued may use it
  api().clReleaseMemObject(m);
  b = {};
}

std::pair<cl_mem, size_t> OpenCLDevice::resolve(const void* address) const {
  const uintptr_t a = reinterpret_cast<uintptr_t>(address);
  std::lock_guard<std::mutex> lk(mu_);
  auto it = blocks_.upper_bound(a);
  if (it != blocks_.begin()) {
    --it;
    if (a <= it->first + it->second.bytes) return {it->second.mem, a - it->first};
  }
  throw std::invalid_argument(fmt::format("opencl device: address {:#x} is in no buffer of this device", a));
}

void OpenCLDevice::copy_in(DeviceBuffer& dst, const void* src, size_t bytes, size_t offset) {
  check_range("copy_in", bytes, offset, dst.bytes);
  if (bytes == 0) return;
  auto [m, base_off] = resolve(dst.ptr);
  check(api().clEnqueueWriteBuffer(queue_, m, CL_TRUE, base_off + offset, bytes, src, 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}

void OpenCLDevice::copy_out(void* dst, const DeviceBuffer& src, size_t bytes, size_t offset) {
  check_range("copy_out", bytes, offset, src.bytes);
  if (bytes == 0) return;
  auto [m, base_off] = resolve(src.ptr);
  check(api().clEnqueueReadBuffer(queue_, m, CL_TRUE, base_off + offset, bytes, dst, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
}

void OpenCLDevice::synchronize() { check(api().clFinish(queue_), "clFinish"); }

namespace {

// Bytes of stack a thread created with default attributes gets (glibc: the stack rlimit
// when the process started, 8 MiB usually). PoCL's CPU devices run each work-group on such
// a thread (PoCL's pthread device creates its workers with default attributes; releases
// after 5 ask for 8 MiB, the same figure here).
int64_t default_thread_stack_bytes() {
  size_t bytes = 0;
  pthread_attr_t a;
  if (pthread_getattr_default_np(&a) == 0) {
    pthread_attr_getstacksize(&a, &bytes);
    pthread_attr_destroy(&a);
  }
  return bytes ? static_cast<int64_t>(bytes) : int64_t{8} << 20;
}

}  // namespace

namespace {
// TRITIUM_OPENCL_SHAPE: "serial" or "workgroup" renders every kernel in that shape (tests,
// debugging); unset or "auto": the work-group shape where the renderer lowers the kernel.
codegen::OpenCLShape shape_from_env() {
  return static_cast<codegen::OpenCLShape>(
      env_choice("TRITIUM_OPENCL_SHAPE", {"auto", "serial", "workgroup"}, "opencl"));
}
}  // namespace

bool OpenCLDevice::intel_subgroups() {
  std::call_once(subgroups_once_, [this] {
    if (env_choice("TRITIUM_OPENCL_SUBGROUPS", {"auto", "off"}, "opencl") == 1) return;
    if (!info_.has("cl_intel_subgroups") || !info_.has("cl_intel_required_subgroup_size")) return;
    size_t n = 0;
    if (api().clGetDeviceInfo(info_.device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr, &n) != CL_SUCCESS || !n)
      return;
    std::vector<size_t> sizes(n / sizeof(size_t));
    if (api().clGetDeviceInfo(info_.device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, n, sizes.data(), nullptr) != CL_SUCCESS)
      return;
    if (std::find(sizes.begin(), sizes.end(), size_t{32}) == sizes.end()) return;
    // The mapping the work-group shape assumes (lane = work-item & 31), seen on the device.
    constexpr int kGroups = 2, kItems = 128;
    const char* probe = R"CL(#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__kernel __attribute__((reqd_work_group_size(128, 1, 1))) __attribute__((intel_reqd_sub_group_size(32)))
void probe(__global uchar* out_base, ulong out_off) {
  __global uint* out = (__global uint*)(out_base + out_off);
  const uint t = (uint)get_local_id(0);
  const uint partner = intel_sub_group_shuffle_xor(t, 5u);
  const uint wide = intel_sub_group_shuffle_xor(t * 3u + 1u, 16u);
  out[get_group_id(0) * 128 + t] = (get_sub_group_size() == 32u && get_sub_group_local_id() == (t & 31u) &&
                                    get_sub_group_id() == (t >> 5) && partner == (t ^ 5u) &&
                                    wide == (t ^ 16u) * 3u + 1u) ? 1u : 0u;
}
)CL";
    try {
      auto k = load_source(probe, "probe", {SlotKind::Pointer}, kItems);
      DeviceBuffer out = alloc(sizeof(uint32_t) * kGroups * kItems);
      struct Free {
        OpenCLDevice* d;
        DeviceBuffer* b;
        ~Free() { d->free(*b); }
      } free_out{this, &out};
      std::vector<uint32_t> seen(kGroups * kItems, 7u);
      copy_in(out, seen.data(), seen.size() * sizeof(uint32_t));
      tritium_arg arg;
      arg.ptr = out.ptr;
      k->launch({kGroups, 1, 1}, {arg});
      copy_out(seen.data(), out, seen.size() * sizeof(uint32_t));
      subgroups_ = std::all_of(seen.begin(), seen.end(), [](uint32_t v) { return v == 1u; });
    } catch (const std::exception&) {
      subgroups_ = false;  // the extension does not build or run as the shape needs: local memory then
    }
  });
  return subgroups_;
}

std::unique_ptr<LoadedKernel> OpenCLDevice::compile(const ir::Module& m, const CodegenOptions& opts) {
  codegen::OpenCLLimits limits;
  limits.local_mem = static_cast<int64_t>(info_.local_mem);
  limits.max_work_group = static_cast<int64_t>(info_.max_work_group);
  const codegen::OpenCLShape shape = shape_from_env();
  limits.intel_subgroups = shape != codegen::OpenCLShape::Serial && intel_subgroups();
  std::vector<SlotKind> slots;
  for (const ir::Value* a : codegen::cpu_kernel_function(m).body.args) {
    if (a->type.is_ptr) {
      slots.push_back(SlotKind::Pointer);
      continue;
    }
    switch (ir::byte_size(a->type.scalar)) {
      case 1: slots.push_back(SlotKind::I8); break;
      case 2: slots.push_back(SlotKind::I16); break;
      case 4: slots.push_back(a->type.scalar == ir::ScalarType::F32 ? SlotKind::F32 : SlotKind::I32); break;
      default: slots.push_back(a->type.scalar == ir::ScalarType::F64 ? SlotKind::F64 : SlotKind::I64); break;
    }
  }
  std::string options = "-cl-fp32-correctly-rounded-divide-sqrt";
  // NVIDIA's OpenCL compiler (driver 580) miscompiles at least one corpus kernel with its
  // optimizer on (Liger RoPE: wrong outputs, right with -cl-opt-disable and on PoCL;
  // docs/portability/2026-12-02-opencl-nvidia-h200.md): there it builds unoptimized.
  if (info_.vendor.find("NVIDIA") != std::string::npos) options += " -cl-opt-disable";
  if (const char* extra = std::getenv("TRITIUM_OPENCL_BUILD_OPTIONS"); extra && *extra)  // debugging a driver
    options += std::string(" ") + extra;
  auto build = [&](const codegen::OpenCLProgram& p) {
    check_private_memory(codegen::cpu_kernel_function(m), p);
    auto k = load_source(p.text, "tritium_kernel", slots, static_cast<size_t>(p.threads), options);
    k->set_failures(p.failures);
    return k;
  };
  codegen::OpenCLProgram p = codegen::render_opencl_program(m, opts, shape, limits);
  std::unique_ptr<OpenCLKernel> k;
  try {
    k = build(p);
  } catch (const std::runtime_error&) {
    // A compiler that cannot give this kernel sub-groups of 32 (registers): local memory.
    if (!limits.intel_subgroups || p.threads <= 1) throw;
    limits.intel_subgroups = false;
    p = codegen::render_opencl_program(m, opts, shape, limits);
    k = build(p);
  }
  if (p.threads > 1 && k->max_work_group_size() < static_cast<size_t>(p.threads)) {
    // The built kernel's registers or local memory allow fewer work-items than the shape's
    // 32 x num_warps (an enqueue would fail): the serial shape.
    const std::string why = fmt::format(
        "the built kernel allows work-groups of {} work-items (CL_KERNEL_WORK_GROUP_SIZE), the work-group shape "
        "needs {}",
        k->max_work_group_size(), p.threads);
    if (shape == codegen::OpenCLShape::WorkGroup)
      throw std::runtime_error("opencl backend: TRITIUM_OPENCL_SHAPE=workgroup, but " + why);
    k = build(codegen::render_opencl_serial(m, opts, why));
  }
  return k;
}

void OpenCLDevice::check_private_memory(const ir::Function& fn, const codegen::OpenCLProgram& p) const {
  // On a CPU device the serial shape's private arrays (the program's tensors, whole) are on
  // the stack of the thread running the work-group: past it the process crashes (SIGSEGV)
  // at launch. 1 MiB of that stack is left to PoCL's scheduler, the work-group loop and the
  // C library (as the cpu backend leaves its workers). GPUs place private memory elsewhere.
  if (!info_.is_cpu || p.threads != 1) return;
  const int64_t available = default_thread_stack_bytes() - (int64_t{1} << 20);
  if (p.private_bytes <= available) return;
  throw frontend::CompileError(
      fn.loc, fmt::format("opencl backend: kernel @{} needs {} bytes of private memory per work-item in the serial "
                          "shape (its tensors are private arrays, whole; serial because: {}); {}'s work-groups run "
                          "on threads with {} bytes of stack for them — smaller blocks or fewer tensors live at once "
                          "reduce it",
                          fn.name, p.private_bytes, p.serial_reason, info_.name, available));
}

std::unique_ptr<OpenCLKernel> OpenCLDevice::load_source(const std::string& source, const std::string& entry,
                                                        std::vector<SlotKind> slots, size_t work_group_size,
                                                        const std::string& options) {
  return std::make_unique<OpenCLKernel>(*this, source, entry, std::move(slots), work_group_size, options);
}

// ---------------------------------------------------------------------------------- kernel

OpenCLKernel::OpenCLKernel(OpenCLDevice& dev, std::string source, const std::string& entry,
                           std::vector<SlotKind> slots, size_t work_group_size, const std::string& options)
    : dev_(dev), source_(std::move(source)), entry_(entry), slots_(std::move(slots)), wg_(work_group_size) {
  const Api& a = api();
  cl_int err = CL_SUCCESS;
  const char* text = source_.c_str();
  const size_t len = source_.size();
  program_ = a.clCreateProgramWithSource(dev_.context(), 1, &text, &len, &err);
  check(err, "clCreateProgramWithSource");
  cl_device_id d = dev_.info().device;
  const std::string opts = "-cl-std=CL1.2" + (options.empty() ? std::string() : " " + options);
  err = a.clBuildProgram(program_, 1, &d, opts.c_str(), nullptr, nullptr);
  if (err != CL_SUCCESS) {
    size_t n = 0;
    a.clGetProgramBuildInfo(program_, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    if (n) a.clGetProgramBuildInfo(program_, d, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    a.clReleaseProgram(program_);
    throw std::runtime_error(fmt::format("opencl: building kernel '{}' for {} failed ({}):\n{}", entry_,
                                         dev_.info().name, error_name(err), log));
  }
  kernel_ = a.clCreateKernel(program_, entry_.c_str(), &err);
  if (err != CL_SUCCESS) {
    a.clReleaseProgram(program_);
    check(err, "clCreateKernel(" + entry_ + ")");
  }
}

size_t OpenCLKernel::max_work_group_size() const {
  size_t n = 0;
  check(api().clGetKernelWorkGroupInfo(kernel_, dev_.info().device, CL_KERNEL_WORK_GROUP_SIZE, sizeof n, &n, nullptr),
        "clGetKernelWorkGroupInfo(" + entry_ + ", CL_KERNEL_WORK_GROUP_SIZE)");
  return n;
}

void OpenCLKernel::set_failures(std::vector<std::string> failures) {
  failures_ = std::move(failures);
  if (failures_.empty() || status_) return;
  cl_int err = CL_SUCCESS;
  status_ = api().clCreateBuffer(dev_.context(), CL_MEM_READ_WRITE, sizeof(cl_ulong), nullptr, &err);
  check(err, "clCreateBuffer(status word of " + entry_ + ")");
}

void OpenCLKernel::check_status(const std::array<int32_t, 3>& grid) {
  cl_ulong s = 0;
  check(api().clEnqueueReadBuffer(dev_.queue(), status_, CL_TRUE, 0, sizeof s, &s, 0, nullptr, nullptr),
        "clEnqueueReadBuffer(status word of " + entry_ + ")");
  if (s == ~cl_ulong{0}) return;
  const uint64_t site = s & ((1u << 20) - 1), lin = s >> 20;
  if (site == 0 || site > failures_.size())
    throw std::runtime_error(fmt::format("opencl: kernel '{}' left an unknown failure code {:#x}", entry_, s));
  const uint64_t gx = static_cast<uint64_t>(grid[0]), gy = static_cast<uint64_t>(grid[1]);
  throw std::runtime_error(fmt::format("{}, program ({}, {}, {})", failures_[site - 1], lin % gx, (lin / gx) % gy,
                                       lin / gx / gy));
}

OpenCLKernel::~OpenCLKernel() {
  const Api& a = api();
  if (status_) a.clReleaseMemObject(status_);
  if (kernel_) a.clReleaseKernel(kernel_);
  if (program_) a.clReleaseProgram(program_);
}

bool OpenCLKernel::enqueue(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args) {
  if (args.size() != slots_.size())
    throw std::invalid_argument(fmt::format("opencl: kernel '{}' takes {} arguments, got {}", entry_, slots_.size(),
                                            args.size()));
  for (int32_t g : grid)
    if (g < 0) throw std::invalid_argument(fmt::format("opencl: negative grid dimension {} for {}", g, entry_));
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0) return false;
  const Api& a = api();
  cl_uint k = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const tritium_arg& v = args[i];
    const std::string what = fmt::format("clSetKernelArg({}, slot {})", entry_, i);
    switch (slots_[i]) {
      case SlotKind::Pointer: {
        auto [m, off] = dev_.resolve(v.ptr);
        const cl_ulong o = off;
        check(a.clSetKernelArg(kernel_, k++, sizeof(cl_mem), &m), what);
        check(a.clSetKernelArg(kernel_, k++, sizeof(cl_ulong), &o), what);
        break;
      }
      case SlotKind::I8: { const int8_t x = static_cast<int8_t>(v.i64); check(a.clSetKernelArg(kernel_, k++, 1, &x), what); break; }
      case SlotKind::I16: { const int16_t x = static_cast<int16_t>(v.i64); check(a.clSetKernelArg(kernel_, k++, 2, &x), what); break; }
      case SlotKind::I32: { const int32_t x = static_cast<int32_t>(v.i64); check(a.clSetKernelArg(kernel_, k++, 4, &x), what); break; }
      case SlotKind::I64: check(a.clSetKernelArg(kernel_, k++, 8, &v.i64), what); break;
      case SlotKind::F32: check(a.clSetKernelArg(kernel_, k++, 4, &v.f32), what); break;
      case SlotKind::F64: check(a.clSetKernelArg(kernel_, k++, 8, &v.f64), what); break;
    }
  }
  if (status_) {
    const cl_ulong none = ~cl_ulong{0};
    check(a.clEnqueueWriteBuffer(dev_.queue(), status_, CL_TRUE, 0, sizeof none, &none, 0, nullptr, nullptr),
          "clEnqueueWriteBuffer(status word of " + entry_ + ")");
    check(a.clSetKernelArg(kernel_, k++, sizeof(cl_mem), &status_), fmt::format("clSetKernelArg({}, status)", entry_));
  }
  const size_t local[3] = {wg_, 1, 1};
  const size_t global[3] = {static_cast<size_t>(grid[0]) * wg_, static_cast<size_t>(grid[1]),
                            static_cast<size_t>(grid[2])};
  check(a.clEnqueueNDRangeKernel(dev_.queue(), kernel_, 3, nullptr, global, local, 0, nullptr, nullptr),
        fmt::format("clEnqueueNDRangeKernel({}, grid ({}, {}, {}), work-group {})", entry_, grid[0], grid[1], grid[2],
                    wg_));
  return true;
}

void OpenCLKernel::launch(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args) {
  if (!enqueue(grid, args)) return;
  dev_.synchronize();
  if (status_) check_status(grid);
}

void OpenCLKernel::launch_async(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args, void*) {
  if (status_) return launch(grid, args);
  enqueue(grid, args);
}

}  // namespace tritium::runtime::opencl
