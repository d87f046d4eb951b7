// The msl-emu device (see msl_emu_device.h).
#include "runtime/msl_emu/msl_emu_device.h"

#include <dlfcn.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "codegen/cpu/cpu_codegen.h"
#include "codegen/metal/msl_codegen.h"
#include "codegen/metal/msl_emu.h"
#include "runtime/cache.h"
#include "runtime/cpu/compiler.h"
#include "runtime/cpu/thread_pool.h"
#include "runtime/cpu/host_services.h"
#include "runtime/metal/msl_launch.h"

#ifndef TRITIUM_VERSION
#define TRITIUM_VERSION "unknown"
#endif

namespace tritium::runtime::msl_emu {
namespace {
namespace fs = std::filesystem;

typedef int (*msl_run_fn)(const tritium_arg* args, const int32_t grid[3], int64_t first, int64_t end,
                          uint32_t* status, void* arena);

// Sanitize mode's entry in the launcher (msl_emu_driver): hands the program the host's
// services and the launch's bounds (tritium_host, kernel_abi.h).
typedef void (*msl_sanitize_fn)(const tritium_host* host);

// What a thread of the threadgroup shape may use of its fiber's stack (codegen/metal/
// msl_emu.h): kMslEmuStackBytes less the guard page and room for the fiber's entry and the
// C library's math functions. The stack usage the compiler reports (runtime/cpu/compiler.h)
// counts every function of the program, the launcher's too: an upper bound.
constexpr int64_t kFiberStackForProgram = static_cast<int64_t>(codegen::kMslEmuStackBytes) - 4096 - 8192;

// One fiber arena per pool worker (codegen/metal/msl_emu.h), made on first use and kept:
// reserved, not committed, until a threadgroup's stacks touch it.
void* arena_for(unsigned worker) {
  static std::mutex mu;
  static std::vector<void*> arenas;
  std::lock_guard<std::mutex> lock(mu);
  if (arenas.size() <= worker) arenas.resize(worker + 1, nullptr);
  if (!arenas[worker]) {
    void* p = mmap(nullptr, codegen::kMslEmuArenaBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("msl-emu backend: cannot reserve the fibers' stacks");
    auto* stacks = static_cast<unsigned char*>(p) + codegen::kMslEmuArenaHeaderBytes;
    for (size_t t = 0; t < codegen::kMslEmuMaxThreads; ++t)
      mprotect(stacks + t * codegen::kMslEmuStackBytes, 4096, PROT_NONE);
    arenas[worker] = p;
  }
  return arenas[worker];
}

class MslEmuKernel final : public LoadedKernel {
 public:
  /// `sanitize`: the program's sanitize entry (compiled in sanitize mode), else null.
  MslEmuKernel(void* handle, msl_run_fn run, msl_sanitize_fn sanitize, codegen::MslProgram program, std::string name)
      : handle_(handle), run_(run), sanitize_(sanitize), program_(std::move(program)), name_(std::move(name)) {}
  ~MslEmuKernel() override {
    if (handle_) dlclose(handle_);
  }

  void launch(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args) override {
    run_launch(grid, args, nullptr);
  }
  void launch_checked(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args,
                      const std::vector<tritium_bounds>& bounds) override {
    if (!sanitize_) return launch(grid, args);
    if (bounds.size() != args.size())
      throw std::logic_error(fmt::format("kernel @{}: {} bounds for {} arguments", name_, bounds.size(), args.size()));
    run_launch(grid, args, bounds.data());
  }

  const std::string& source() const override { return program_.text; }

 private:
  /// Runs the grid's programs on the thread pool; `bounds` (sanitize mode): each slot's
  /// buffer, which the program's checks read (failures raise after the launch, as on cpu).
  void run_launch(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args,
                  const tritium_bounds* bounds) {
    const int64_t total = metal::check_msl_launch(program_, name_, "msl-emu (as metal)", grid, args.size());
    if (total == 0) return;
    std::lock_guard<std::mutex> lock(cpu::launch_mutex());
    if (sanitize_) {
      cpu::begin_launch(grid);
      tritium_host host = cpu::host_services();
      host.bounds = bounds;  // null: unchecked (tr_san_ok passes)
      sanitize_(&host);      // copied into the program; this launch holds the launch lock
    }
    uint32_t status = 0xffffffffu;
    cpu::ThreadPool& pool = cpu::ThreadPool::global();
    const int64_t chunk = std::max<int64_t>(1, total / (int64_t{pool.size()} * 8));
    std::atomic<int64_t> next{0};
    const int32_t g[3] = {grid[0], grid[1], grid[2]};
    const tritium_arg* a = args.data();
    msl_run_fn run = run_;
    std::atomic<bool> stuck{false};
    const bool fibers = program_.threads > 1;
    std::function<void(unsigned)> job = [&](unsigned worker) {
      void* arena = fibers ? arena_for(worker) : nullptr;
      for (;;) {
        const int64_t first = next.fetch_add(chunk, std::memory_order_relaxed);
        if (first >= total || stuck.load(std::memory_order_relaxed) || (sanitize_ && cpu::launch_failed())) return;
        if (run(a, g, first, std::min(total, first + chunk), &status, arena)) stuck = true;
      }
    };
    pool.run(job);
    if (stuck)
      throw std::runtime_error(fmt::format(
          "kernel @{}: msl-emu: the threads of a threadgroup stopped at barriers not every thread reaches "
          "(the MSL program is wrong; on Metal it would hang or give undefined results)",
          name_));
    if (sanitize_)
      if (auto failure = cpu::end_launch()) throw std::runtime_error(*failure);
    metal::raise_msl_status(program_, status, grid);
  }

  void* handle_;
  msl_run_fn run_;
  msl_sanitize_fn sanitize_;
  codegen::MslProgram program_;
  std::string name_;
};

class MslEmuDevice final : public Device {
 public:
  explicit MslEmuDevice(int64_t fiber_stack = kFiberStackForProgram)
      : host_(make_cpu_device()), cache_(DiskCache::default_root()), fiber_stack_(fiber_stack) {}

  std::string name() const override { return "msl-emu"; }
  std::string description() const override {
    return "Metal shading language emulated on the CPU: " + host_->description();
  }
  DeviceBuffer alloc(size_t bytes) override { return host_->alloc(bytes); }
  void free(DeviceBuffer& b) override { host_->free(b); }
  void copy_in(DeviceBuffer& dst, const void* src, size_t bytes, size_t offset) override {
    host_->copy_in(dst, src, bytes, offset);
  }
  void copy_out(void* dst, const DeviceBuffer& src, size_t bytes, size_t offset) override {
    host_->copy_out(dst, src, bytes, offset);
  }
  void synchronize() override {}

  std::unique_ptr<LoadedKernel> compile(const ir::Module& m, const CodegenOptions& opts) override {
    return compile(m, opts, std::string());
  }

 private:
  /// compile(); a non-empty `serial_reason` renders the serial shape for that reason.
  std::unique_ptr<LoadedKernel> compile(const ir::Module& m, const CodegenOptions& opts,
                                        const std::string& serial_reason) {
    const ir::Function& fn = codegen::cpu_kernel_function(m);
    const codegen::MslShape shape = metal::msl_shape_from_env("msl-emu");
    // Sanitize mode checks the serial shape (one thread per program: the CPU renderer's
    // accesses, each traced to its argument); the threadgroup shape makes the same accesses.
    codegen::MslProgram program = !serial_reason.empty() ? codegen::render_msl_serial(m, opts, serial_reason)
                                  : opts.sanitize        ? codegen::render_msl_serial(m, opts, "sanitize mode")
                                                         : codegen::render_msl_program(m, opts, shape);
    const std::string driver = codegen::msl_emu_driver(program.params, program.failures.size(), program.threads,
                                                       program.threadgroup_bytes, opts.sanitize);
    const std::vector<std::string> flags = cpu::kernel_flags(opts.portable_numerics);
    std::string flag_text;
    for (const auto& f : flags) flag_text += f + " ";
    const std::string key = content_hash({"tritium-msl-emu-kernel", TRITIUM_VERSION, program.text, driver,
                                          codegen::msl_emu_stdlib(), cpu::compiler_identity(), flag_text,
                                          cpu::host_cpu_identity()});
    for (int attempt = 0; attempt < 2; ++attempt) {
      fs::path so;
      std::optional<cpu::StackUsage> stack = attempt == 0 ? cpu::cached_stack_usage(cache_, key) : std::nullopt;
      if (auto hit = cache_.find(key, "so"); hit && stack) {
        so = *hit;
      } else {
        stack = cpu::StackUsage{};
        so = build(key, program.text, driver, opts.portable_numerics, &*stack);
      }
      // A thread overflowing its stack would crash the process: the threadgroup shape's
      // threads are fibers (kMslEmuStackBytes each), the serial shape runs on the pool.
      if (program.threads <= 1) {
        cpu::check_program_stack(fn, *stack, "msl-emu backend");
      } else if (stack->measured && stack->bounded && stack->bytes > fiber_stack_) {
        if (shape == codegen::MslShape::Threadgroup)
          cpu::check_stack(fn, *stack, fiber_stack_, "msl-emu backend", "thread",
                           fmt::format("TRITIUM_MSL_SHAPE=threadgroup, num_warps={}: each thread's share of the "
                                       "tensors",
                                       opts.num_warps),
                           "msl-emu's fibers have", "the serial shape, smaller blocks or more warps reduce it");
        return compile(m, opts, fmt::format("msl-emu: a thread of the threadgroup shape needs {} bytes of stack, "
                                            "msl-emu's fibers have {}",
                                            stack->bytes, fiber_stack_));
      }
      void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!h) {
        if (attempt == 0) continue;  // an unloadable cache entry: rebuild once
        throw std::runtime_error(fmt::format("msl-emu backend: cannot load {}: {}", so.string(), dlerror()));
      }
      auto run = reinterpret_cast<msl_run_fn>(dlsym(h, "tritium_msl_run"));
      if (!run) {
        dlclose(h);
        if (attempt == 0) continue;
        throw std::runtime_error("msl-emu backend: " + so.string() + " does not export tritium_msl_run");
      }
      auto sanitize = opts.sanitize ? reinterpret_cast<msl_sanitize_fn>(dlsym(h, "tritium_msl_sanitize")) : nullptr;
      if (opts.sanitize && !sanitize) {
        dlclose(h);
        if (attempt == 0) continue;
        throw std::runtime_error("msl-emu backend: " + so.string() + " does not export tritium_msl_sanitize");
      }
      return std::make_unique<MslEmuKernel>(h, run, sanitize, std::move(program), fn.name);
    }
    throw std::logic_error("unreachable");
  }

  /// Writes the program (as emitted), the launcher and the emulated <metal_stdlib> into a
  /// scratch directory, compiles them and stores the program, its stack usage and the object
  /// in the cache.
  fs::path build(const std::string& key, const std::string& msl, const std::string& driver, bool portable,
                 cpu::StackUsage* stack) {
    fs::path dir = cache_.make_scratch_dir();
    write_file_atomic(dir / "metal_stdlib", codegen::msl_emu_stdlib());
    write_file_atomic(dir / "kernel.metal", msl);
    write_file_atomic(dir / "run.cpp", "#include \"kernel.metal\"\n" + driver);
    fs::path obj = dir / "kernel.so";
    *stack = cpu::compile_shared_object(dir / "run.cpp", obj, portable, {"-I" + dir.string()});
    auto bytes = read_file_bytes(obj);
    if (!bytes) throw std::runtime_error("msl-emu backend: the compiler produced no " + obj.string());
    cache_.write(key, "metal", msl);
    cache_.write(key, "stack", cpu::stack_usage_line(*stack));
    fs::path out = cache_.write(key, "so", *bytes);
    std::error_code ec;
    fs::remove_all(dir, ec);
    return out;
  }

  std::unique_ptr<Device> host_;
  DiskCache cache_;
  int64_t fiber_stack_;  // what a thread of the threadgroup shape may use of its fiber's stack
};

}  // namespace

std::unique_ptr<Device> make_msl_emu_device() { return std::make_unique<MslEmuDevice>(); }

std::unique_ptr<Device> make_msl_emu_device(int64_t fiber_stack_bytes) {
  return std::make_unique<MslEmuDevice>(fiber_stack_bytes);
}

}  // namespace tritium::runtime::msl_emu
