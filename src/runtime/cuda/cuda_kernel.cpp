// Compiling and loading tritium kernels on the cuda backend (see cuda_kernel.h).
#include "runtime/cuda/cuda_kernel.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "frontend/source.h"
#include "runtime/cuda/cuda_device.h"

namespace tritium::runtime::cuda {

CudaCompiled compile_cuda(const ir::Module& m, const CodegenOptions& opts, NvrtcTarget target, const std::string& arch,
                          const CudaLimits& limits) {
  const int64_t shared_limit = limits.shared_per_block;
  CudaCompiled c;
  // "sm_90" / "compute_90" -> 90: the renderer picks the instructions that GPU has.
  int sm = 0;
  for (char ch : arch)
    if (ch >= '0' && ch <= '9') sm = sm * 10 + (ch - '0');
  c.src = codegen::render_cuda(m, opts, sm, shared_limit);
  if (c.src.shared_bytes > shared_limit) {
    const ir::Function* fn = m.functions.front().get();
    for (const auto& f : m.functions)
      if (f->is_kernel) fn = f.get();
    throw frontend::CompileError(
        fn->loc, fmt::format("cuda backend: kernel @{} needs {} bytes of shared memory per program (layout conversions, "
                             "cross-warp reductions, dots, scans and histograms stage whole tensors there); this GPU "
                             "allows {} — smaller blocks reduce it",
                             fn->name, c.src.shared_bytes, shared_limit));
  }
  c.image = nvrtc_compile(c.src.source, c.src.entry + ".cu", target, nvrtc_options(c.src, arch));
  if (target == NvrtcTarget::Cubin) {
    c.ptxas = parse_ptxas_info(c.image.log, c.src.entry);
    if (std::optional<std::string> why = launch_refusal(c.ptxas, c.src.threads, limits)) {
      const ir::Function* fn = m.functions.front().get();
      for (const auto& f : m.functions)
        if (f->is_kernel) fn = f.get();
      throw frontend::CompileError(fn->loc, fmt::format("cuda backend: kernel @{} cannot launch with num_warps={} on {}: "
                                                        "{} — smaller blocks, fewer tensors live at once or another "
                                                        "num_warps reduce it",
                                                        fn->name, opts.num_warps, arch, *why));
    }
  }
  return c;
}

NvrtcOptions nvrtc_options(const codegen::CudaKernelSource& src, const std::string& arch) {
  NvrtcOptions o;
  o.arch = arch;
  // wgmma exists only in the architecture-specific sm_90a (not forward compatible: this
  // image runs on compute capability 9.0 exactly, the GPU it was rendered for).
  if (src.sm90a && !arch.empty() && arch.back() != 'a') o.arch += "a";
  o.fmad = false;  // the interpreter's roundings, in both numerics modes (cuda_codegen.h)
  o.ptxas_verbose = true;  // registers, local memory and spills, checked by compile_cuda
  o.extra = {"--device-int128", "-diag-suppress=177,550"};  // 128-bit products; unused prelude helpers
  return o;
}

std::string ptx_of(const codegen::CudaKernelSource& src, const std::string& arch) {
  std::string virt = arch;  // "sm_90" -> "compute_90": the PTX of the same compute capability
  if (virt.rfind("sm_", 0) == 0) virt = "compute_" + virt.substr(3);
  return nvrtc_compile(src.source, src.entry + ".cu", NvrtcTarget::Ptx, nvrtc_options(src, virt)).bytes;
}

std::string failure_message(const codegen::CudaKernelSource& src, const std::string& kernel, uint64_t key,
                            const std::array<int32_t, 3>& grid) {
  const uint64_t linear = key / 65536, site = key % 65536;
  const int64_t gx = grid[0], gy = grid[1];
  const int64_t x = static_cast<int64_t>(linear) % gx, y = static_cast<int64_t>(linear) / gx % gy,
                z = static_cast<int64_t>(linear) / gx / gy;
  if (site == 0 || site > src.fail_sites.size()) return fmt::format("cuda: kernel {} reported an unknown failure", kernel);
  const codegen::CudaFailSite& f = src.fail_sites[site - 1];
  std::string_view msg(f.message);
  std::string what = msg.rfind("error: ", 0) == 0 ? std::string(msg.substr(7)) : "device_assert failed: " + f.message;
  return fmt::format("{} at {}:{} in {}, program ({}, {}, {})", what, f.file, f.line, kernel, x, y, z);
}

namespace {

class CudaLoadedKernel final : public LoadedKernel {
 public:
  CudaLoadedKernel(CudaDevice& dev, CudaCompiled c, std::string kernel)
      : dev_(dev), c_(std::move(c)), kernel_(std::move(kernel)) {
    module_ = dev_.load_module(c_.image.bytes);
    fn_ = module_->function(c_.src.entry);
    fail_ = dev_.alloc(8);
  }
  ~CudaLoadedKernel() override {
    try {
      dev_.free(fail_);
      if (scratch_bytes_ > 0) dev_.free(scratch_);
    } catch (...) {
    }
  }
  void launch(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args) override {
    if (!enqueue(grid, args)) return;
    dev_.synchronize();
    check_failure(grid);
  }
  void launch_async(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args,
                    void* stream) override {
    if (c_.src.fail_sites.empty()) {
      enqueue(grid, args, stream);
      return;
    }
    // The failure word is reset, written and read back in `stream`'s order (so the kernel
    // stays ordered with the caller's work on that stream), and the host waits for that
    // stream alone: a kernel with run-time checks reports its failure from this call.
    if (!enqueue(grid, args, stream)) return;
    check_failure(grid, stream);
  }
  const std::string& source() const override { return c_.src.source; }
  std::string assembly(const std::string& kind) const override {
    return kind == "ptx" ? ptx_of(c_.src, dev_.arch()) : std::string();
  }
  std::vector<std::string> assembly_kinds() const override { return {"ptx"}; }
  KernelUsage usage() const override {
    KernelUsage u;
    u.registers = fn_.num_regs;
    u.local_bytes = fn_.local_bytes;
    u.shared_bytes = fn_.static_shared_bytes + c_.src.shared_bytes;
    u.max_threads = fn_.max_threads;
    u.threads = c_.src.threads;
    u.spill_bytes = static_cast<int>(c_.ptxas.spill_stores);
    return u;
  }

 private:
  static constexpr uint64_t kNoFailure = ~uint64_t{0};
  /// Resets the failure word (kernels with fail sites) and enqueues the launch; false for an
  /// empty grid (nothing launched).
  bool enqueue(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args, void* stream = nullptr) {
    for (int32_t g : grid)
      if (g < 0) throw std::invalid_argument(fmt::format("cuda: negative grid dimension {} for {}", g, kernel_));
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0) return false;
    if (!c_.src.fail_sites.empty()) dev_.fill_u32_async(fail_, 0xFFFFFFFFu, 2, stream);  // kNoFailure
    std::vector<tritium_arg> slots = args;
    tritium_arg f;
    f.ptr = fail_.ptr;
    slots.push_back(f);
    tritium_arg g;  // the programs' global scratch (tensor maps), grown as grids need
    g.ptr = nullptr;
    if (c_.src.global_scratch_bytes > 0) {
      const uint64_t need = static_cast<uint64_t>(grid[0]) * static_cast<uint64_t>(grid[1]) *
                            static_cast<uint64_t>(grid[2]) * static_cast<uint64_t>(c_.src.global_scratch_bytes);
      if (need > scratch_bytes_) {
        if (scratch_bytes_ > 0) {
          dev_.synchronize();  // an earlier launch may still use it
          dev_.free(scratch_);
          scratch_bytes_ = 0;
        }
        scratch_ = dev_.alloc(static_cast<size_t>(need));
        scratch_bytes_ = need;
      }
      g.ptr = scratch_.ptr;
    }
    slots.push_back(g);
    dev_.launch(fn_, {static_cast<uint32_t>(grid[0]), static_cast<uint32_t>(grid[1]), static_cast<uint32_t>(grid[2])},
                {static_cast<uint32_t>(c_.src.threads), 1, 1}, static_cast<uint32_t>(c_.src.shared_bytes), slots, stream);
    return true;
  }
  /// After a launch on `stream`: waits for that stream and throws the failure the kernel
  /// reported, if any.
  void check_failure(const std::array<int32_t, 3>& grid, void* stream = nullptr) {
    if (c_.src.fail_sites.empty()) return;
    uint64_t key = kNoFailure;
    dev_.copy_out_after(&key, fail_, 8, stream);
    if (key != kNoFailure) throw std::runtime_error(failure_message(c_.src, kernel_, key, grid));
  }

  CudaDevice& dev_;
  CudaCompiled c_;
  std::string kernel_;
  std::shared_ptr<CudaModule> module_;
  CudaFunction fn_;
  DeviceBuffer fail_;
  DeviceBuffer scratch_;       // global scratch of the last grids (global_scratch_bytes per program)
  uint64_t scratch_bytes_ = 0;
};

class CompileOnlyKernel final : public LoadedKernel {
 public:
  CompileOnlyKernel(std::string source, std::string ptx, const CudaCompiled& cubin)
      : source_(std::move(source)), ptx_(std::move(ptx)) {
    // ptxas' figures for the sm_90 cubin (what the driver reports for it once loaded).
    usage_.registers = cubin.ptxas.registers;
    usage_.local_bytes = static_cast<int>(cubin.ptxas.stack_bytes);
    usage_.spill_bytes = static_cast<int>(cubin.ptxas.spill_stores);
    usage_.shared_bytes = static_cast<int>(cubin.src.shared_bytes);
    usage_.threads = cubin.src.threads;
    usage_.max_threads = cubin.src.threads;  // __launch_bounds__
  }
  void launch(const std::array<int32_t, 3>&, const std::vector<tritium_arg>&) override {
    throw std::runtime_error("nvrtc-check device: kernels are compiled, never launched");
  }
  const std::string& source() const override { return source_; }
  std::string assembly(const std::string& kind) const override { return kind == "ptx" ? ptx_ : std::string(); }
  std::vector<std::string> assembly_kinds() const override { return {"ptx"}; }
  KernelUsage usage() const override { return usage_; }

 private:
  std::string source_;
  std::string ptx_;
  KernelUsage usage_;
};

class NvrtcCheckDevice final : public Device {
 public:
  std::string name() const override { return "nvrtc-check"; }
  std::string description() const override { return "compiles for compute_90 / sm_90 with NVRTC; runs nothing"; }
  DeviceBuffer alloc(size_t bytes) override { return {std::calloc(bytes ? bytes : 1, 1), bytes}; }
  void free(DeviceBuffer& b) override {
    std::free(b.ptr);
    b = {};
  }
  void copy_in(DeviceBuffer& dst, const void* src, size_t bytes, size_t offset) override {
    if (bytes) std::memcpy(static_cast<char*>(dst.ptr) + offset, src, bytes);
  }
  void copy_out(void* dst, const DeviceBuffer& src, size_t bytes, size_t offset) override {
    if (bytes) std::memcpy(dst, static_cast<const char*>(src.ptr) + offset, bytes);
  }
  std::unique_ptr<LoadedKernel> compile(const ir::Module& m, const CodegenOptions& opts) override {
    CudaCompiled ptx = compile_cuda(m, opts, NvrtcTarget::Ptx, kDefaultPtxArch);
    CudaCompiled cubin = compile_cuda(m, opts, NvrtcTarget::Cubin, kDefaultCubinArch);
    return std::make_unique<CompileOnlyKernel>(ptx.src.source, ptx.image.bytes, cubin);
  }
  void synchronize() override {}
};

}  // namespace

std::shared_ptr<Device> make_nvrtc_check_device() {
  nvrtc_version();  // throws when NVRTC is unavailable
  return std::make_shared<NvrtcCheckDevice>();
}

std::unique_ptr<LoadedKernel> make_cuda_loaded_kernel(CudaDevice& dev, const ir::Module& m, const CodegenOptions& opts) {
  const CudaProperties& p = dev.properties();
  CudaLimits limits;
  limits.shared_per_block = p.max_shared_per_block_optin;
  if (p.max_registers_per_block > 0) limits.registers_per_block = p.max_registers_per_block;
  limits.resident_threads = int64_t{p.sm_count} * p.max_threads_per_sm;
  limits.device_memory = static_cast<int64_t>(p.total_memory);
  CudaCompiled c = compile_cuda(m, opts, NvrtcTarget::Cubin, dev.arch(), limits);
  std::string name;
  for (const auto& f : m.functions)
    if (f->is_kernel) name = f->name;
  if (name.empty() && !m.functions.empty()) name = m.functions.front()->name;
  return std::make_unique<CudaLoadedKernel>(dev, std::move(c), name);
}

}  // namespace tritium::runtime::cuda
