// The msl-emu device (see msl_emu_device.h).
#include "runtime/msl_emu/msl_emu_device.h"

#include <dlfcn.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "codegen/cpu/cpu_codegen.h"
#include "codegen/metal/msl_codegen.h"
#include "codegen/metal/msl_emu.h"
#include "runtime/cache.h"
#include "runtime/cpu/compiler.h"
#include "runtime/cpu/thread_pool.h"
#include "runtime/metal/msl_launch.h"

#ifndef TRITIUM_VERSION
#define TRITIUM_VERSION "unknown"
#endif

namespace tritium::runtime::msl_emu {
namespace {
namespace fs = std::filesystem;

typedef int (*msl_run_fn)(const tritium_arg* args, const int32_t grid[3], int64_t first, int64_t end,
                          uint32_t* status, void* arena);

std::mutex g_launch_mu;  // one launch at a time on the shared thread pool

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
  MslEmuKernel(void* handle, msl_run_fn run, codegen::MslProgram program, std::string name)
      : handle_(handle), run_(run), program_(std::move(program)), name_(std::move(name)) {}
  ~MslEmuKernel() override {
    if (handle_) dlclose(handle_);
  }

  void launch(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args) override {
    const int64_t total = metal::check_msl_launch(program_, name_, "msl-emu (as metal)", grid, args.size());
    if (total == 0) return;
    std::lock_guard<std::mutex> lock(g_launch_mu);
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
        if (first >= total || stuck.load(std::memory_order_relaxed)) return;
        if (run(a, g, first, std::min(total, first + chunk), &status, arena)) stuck = true;
      }
    };
    pool.run(job);
    if (stuck)
      throw std::runtime_error(fmt::format(
          "kernel @{}: msl-emu: the threads of a threadgroup stopped at barriers not every thread reaches "
          "(the MSL program is wrong; on Metal it would hang or give undefined results)",
          name_));
    metal::raise_msl_status(program_, status, grid);
  }

  const std::string& source() const override { return program_.text; }

 private:
  void* handle_;
  msl_run_fn run_;
  codegen::MslProgram program_;
  std::string name_;
};

class MslEmuDevice final : public Device {
 public:
  MslEmuDevice() : host_(make_cpu_device()), cache_(DiskCache::default_root()) {}

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
    const ir::Function& fn = codegen::cpu_kernel_function(m);
    codegen::MslProgram program = codegen::render_msl_program(m, opts, metal::msl_shape_from_env("msl-emu"));
    const std::string driver =
        codegen::msl_emu_driver(program.params, program.failures.size(), program.threads, program.threadgroup_bytes);
    const std::vector<std::string> flags = cpu::kernel_flags(opts.portable_numerics);
    std::string flag_text;
    for (const auto& f : flags) flag_text += f + " ";
    const std::string key = content_hash({"tritium-msl-emu-kernel", TRITIUM_VERSION, program.text, driver,
                                          codegen::msl_emu_stdlib(), cpu::compiler_identity(), flag_text,
                                          cpu::host_cpu_identity()});
    for (int attempt = 0; attempt < 2; ++attempt) {
      fs::path so;
      if (auto hit = cache_.find(key, "so"); hit && attempt == 0) so = *hit;
      else so = build(key, program.text, driver, opts.portable_numerics);
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
      return std::make_unique<MslEmuKernel>(h, run, std::move(program), fn.name);
    }
    throw std::logic_error("unreachable");
  }

 private:
  /// Writes the program (as emitted), the launcher and the emulated <metal_stdlib> into a
  /// scratch directory, compiles them and stores the program and the object in the cache.
  fs::path build(const std::string& key, const std::string& msl, const std::string& driver, bool portable) {
    fs::path dir = cache_.make_scratch_dir();
    write_file_atomic(dir / "metal_stdlib", codegen::msl_emu_stdlib());
    write_file_atomic(dir / "kernel.metal", msl);
    write_file_atomic(dir / "run.cpp", "#include \"kernel.metal\"\n" + driver);
    fs::path obj = dir / "kernel.so";
    cpu::compile_shared_object(dir / "run.cpp", obj, portable, {"-I" + dir.string()});
    auto bytes = read_file_bytes(obj);
    if (!bytes) throw std::runtime_error("msl-emu backend: the compiler produced no " + obj.string());
    cache_.write(key, "metal", msl);
    fs::path out = cache_.write(key, "so", *bytes);
    std::error_code ec;
    fs::remove_all(dir, ec);
    return out;
  }

  std::unique_ptr<Device> host_;
  DiskCache cache_;
};

}  // namespace

std::unique_ptr<Device> make_msl_emu_device() { return std::make_unique<MslEmuDevice>(); }

}  // namespace tritium::runtime::msl_emu
