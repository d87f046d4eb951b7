// The OpenCL device: a context and an in-order command queue on one OpenCL device, buffers
// as cl_mem objects, and kernels built from OpenCL C source (the runtime layer of issue 6;
// the OpenCL C renderer that turns tritium's IR into that source comes next, so the
// registry still lists the backend as unavailable for Triton kernels).
//
// Addresses. tritium's launch ABI passes pointers as addresses (a buffer's base plus a
// byte offset: Arg::ptr). OpenCL 1.2 has no device addresses, so this device hands out
// disjoint ranges of a private 64-bit address space, one per buffer (never a host
// address), and maps an address back to (cl_mem, byte offset). A kernel takes each pointer
// as two arguments: `__global T* p_base, ulong p_offset` (in bytes).
//
// Device choice: $TRITIUM_OPENCL_DEVICE = "P:D" (platform index P, device index D, as
// `tritium doctor` lists them), else the first GPU, else the first device.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "codegen/opencl/opencl_codegen.h"
#include "runtime/opencl/opencl_api.h"

namespace tritium::runtime::opencl {

/// How one launch slot is passed to an OpenCL kernel.
enum class SlotKind { Pointer, I8, I16, I32, I64, F32, F64 };

class OpenCLDevice;

/// A kernel built from OpenCL C source on an OpenCLDevice.
class OpenCLKernel final : public LoadedKernel {
 public:
  OpenCLKernel(OpenCLDevice& dev, std::string source, const std::string& entry, std::vector<SlotKind> slots,
               size_t work_group_size, const std::string& options);
  ~OpenCLKernel() override;
  /// One work-group of `work_group_size` work-items per program; waits for completion.
  void launch(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args) override;
  /// Enqueued on the device's queue (in order with copies, which block).
  void launch_async(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args,
                    void* stream) override;
  const std::string& source() const override { return source_; }
  /// Run-time failure messages by site (codegen::OpenCLProgram::failures): the kernel then
  /// takes a status word as its last argument, and a launch that leaves a failure in it
  /// throws std::runtime_error("<message>, program (x, y, z)") — launch_async waits for
  /// such a kernel, as the status must be read.
  void set_failures(std::vector<std::string> failures);
  /// CL_KERNEL_WORK_GROUP_SIZE: the largest work-group this built kernel can be launched
  /// with on the device (its registers and local memory may allow fewer than the device's).
  size_t max_work_group_size() const;
  /// Work-items per work-group it is launched with.
  size_t work_group_size() const { return wg_; }

 private:
  void check_status(const std::array<int32_t, 3>& grid);
  bool enqueue(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args);
  OpenCLDevice& dev_;
  std::string source_, entry_;
  std::vector<SlotKind> slots_;
  size_t wg_;
  cl_program program_ = nullptr;
  cl_kernel kernel_ = nullptr;
  std::vector<std::string> failures_;
  cl_mem status_ = nullptr;
};

class OpenCLDevice final : public Device {
 public:
  /// Opens the chosen device (see the top of this file). Throws std::runtime_error
  /// ("opencl: ...") when there is none or a call fails.
  OpenCLDevice();
  ~OpenCLDevice() override;
  std::string name() const override { return "opencl"; }
  std::string description() const override;
  DeviceBuffer alloc(size_t bytes) override;
  void free(DeviceBuffer& b) override;
  void copy_in(DeviceBuffer& dst, const void* src, size_t bytes, size_t offset = 0) override;
  void copy_out(void* dst, const DeviceBuffer& src, size_t bytes, size_t offset = 0) override;
  /// Renders the kernel as OpenCL C (codegen/opencl/opencl_codegen.h), builds it with
  /// `-cl-fp32-correctly-rounded-divide-sqrt` and returns it: one work-item per program.
  /// Throws frontend::CompileError for what the renderer refuses, std::runtime_error (with
  /// the build log) when the OpenCL compiler rejects the program.
  std::unique_ptr<LoadedKernel> compile(const ir::Module& m, const CodegenOptions& opts) override;
  void synchronize() override;
  std::map<std::string, int64_t> property_map() const override;

  /// Builds `source` (OpenCL C, `-cl-std=CL1.2`, plus `options`) and returns its kernel
  /// `entry`, taking `slots` as described above. Throws std::runtime_error with the build log.
  std::unique_ptr<OpenCLKernel> load_source(const std::string& source, const std::string& entry,
                                            std::vector<SlotKind> slots, size_t work_group_size = 1,
                                            const std::string& options = "");
  /// Refuses (frontend::CompileError at the kernel, with the figures) a serial-shape program
  /// whose private arrays pass what a CPU device's work-group threads have of stack (their
  /// default thread stack less 1 MiB): PoCL would crash the process at launch. GPU devices
  /// and the work-group shape are not checked.
  void check_private_memory(const ir::Function& fn, const codegen::OpenCLProgram& p) const;
  /// The (cl_mem, byte offset) an address handed out by alloc() refers to. Throws
  /// std::invalid_argument for an address outside every live buffer.
  std::pair<cl_mem, size_t> resolve(const void* address) const;

  /// Whether the work-group shape exchanges lanes by cl_intel_subgroups shuffles here: the
  /// device offers cl_intel_subgroups and cl_intel_required_subgroup_size with sub-groups
  /// of 32, and a probe kernel (work-groups of 128, sub-groups of 32 required) saw every
  /// work-item's sub-group local id = its id & 31, sub-group id = its id >> 5 and a shuffle
  /// reach the right partner. Checked once per device; TRITIUM_OPENCL_SUBGROUPS=off turns
  /// it off.
  bool intel_subgroups();

  const DeviceInfo& info() const { return info_; }
  cl_context context() const { return ctx_; }
  cl_command_queue queue() const { return queue_; }

 private:
  struct Block {
    cl_mem mem;
    size_t bytes;
  };
  DeviceInfo info_;
  cl_context ctx_ = nullptr;
  cl_command_queue queue_ = nullptr;
  mutable std::mutex mu_;
  std::map<uintptr_t, Block> blocks_;  // by base address
  uintptr_t next_ = uintptr_t{1} << 44;
  std::once_flag subgroups_once_;
  bool subgroups_ = false;
};

/// The device the registry hands out (an OpenCLDevice on the chosen device).
std::unique_ptr<Device> make_opencl_device();
/// Whether the device OpenCLDevice would choose is a GPU (false when there is none).
bool chosen_device_is_gpu();

/// Throws std::runtime_error("opencl: <call>: <error>") unless `r` is CL_SUCCESS.
void check(cl_int r, const std::string& call);

}  // namespace tritium::runtime::opencl
