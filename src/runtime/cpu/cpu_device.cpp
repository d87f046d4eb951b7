#include "runtime/cpu/cpu_device.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <thread>

#include <fmt/format.h>

#include "codegen/cpu/cpu_codegen.h"
#include "runtime/cache.h"
#include "runtime/cpu/compiler.h"
#include "runtime/cpu/host_services.h"
#include "runtime/cpu/stream_policy.h"
#include "runtime/cpu/thread_pool.h"

#ifndef TRITIUM_VERSION
#define TRITIUM_VERSION "unknown"
#endif

namespace tritium::runtime {
namespace cpu {
namespace {
namespace fs = std::filesystem;

std::atomic<uint64_t> g_cache_hits{0};
std::atomic<uint64_t> g_builds{0};
std::atomic<uint64_t> g_input_hits{0};


// The cpu backend's execution model in the GPU terms of occupancy arithmetic (Device::
// properties(), CompiledKernel::resources()): each worker thread is a "multiprocessor"
// that runs one program at a time, and a program holds that multiprocessor's whole model
// register file and shared memory, so `regs // (n_regs * warpSize * num_warps)` and
// `max_shared_mem // shared` both give one program per worker thread.
constexpr int kModelRegisters = 65536;
constexpr int kModelSharedBytes = 65536;

class CpuKernel final : public LoadedKernel {
 public:
  CpuKernel(void* handle, tritium_run_fn run, std::string source, std::string name, size_t num_params, int num_warps,
            std::string code_key)
      : handle_(handle), run_(run), source_(std::move(source)), name_(std::move(name)), num_params_(num_params),
        num_warps_(num_warps), code_key_(std::move(code_key)) {}
  ~CpuKernel() override {
    if (handle_) dlclose(handle_);
  }

  void launch(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args) override {
    run_launch(grid, args, nullptr);
  }
  void launch_checked(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args,
                      const std::vector<tritium_bounds>& bounds) override {
    if (bounds.size() != args.size())
      throw std::logic_error(fmt::format("kernel @{}: {} bounds for {} arguments", name_, bounds.size(), args.size()));
    run_launch(grid, args, bounds.data());
  }

 private:
  void run_launch(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args,
                  const tritium_bounds* bounds) {
    if (args.size() != num_params_)
      throw std::runtime_error(fmt::format("kernel @{}: launched with {} arguments, expected {}", name_, args.size(),
                                           num_params_));
    for (int32_t g : grid)
      if (g < 0) throw std::runtime_error(fmt::format("kernel @{}: negative grid dimension", name_));
    const int64_t total = int64_t{grid[0]} * grid[1] * grid[2];
    if (total == 0) return;
    std::lock_guard<std::mutex> launch_lock(launch_mutex());
    begin_launch(grid);
    tritium_host* host = &host_services();
    host->stream_min_bytes = stream_min_bytes();
    host->bounds = bounds;  // the launch lock keeps it until this launch ends
    ThreadPool& pool = ThreadPool::global();
    const int64_t workers = pool.size();
    const int64_t chunk = std::max<int64_t>(1, total / (workers * 8));
    std::atomic<int64_t> next{0};
    const int32_t g[3] = {grid[0], grid[1], grid[2]};
    const tritium_arg* a = args.data();
    tritium_run_fn run = run_;
    std::function<void(unsigned)> job = [&](unsigned) {
      for (;;) {
        if (launch_failed()) return;  // later programs are not started
        int64_t first = next.fetch_add(chunk, std::memory_order_relaxed);
        if (first >= total) return;
        run(a, g, first, std::min(total, first + chunk), host);
      }
    };
    pool.run(job);
    host->bounds = nullptr;
    if (auto failure = end_launch()) throw std::runtime_error(*failure);
  }

 public:
  const std::string& source() const override { return source_; }
  std::string code_key() const override { return code_key_; }
  const std::string& name() const { return name_; }
  size_t num_params() const { return num_params_; }
  KernelUsage usage() const override {
    KernelUsage u;
    u.registers = kModelRegisters / num_warps_;
    u.shared_bytes = kModelSharedBytes;
    u.max_threads = num_warps_;
    u.threads = num_warps_;
    return u;
  }

 private:
  void* handle_;
  tritium_run_fn run_;
  std::string source_;
  std::string name_;
  size_t num_params_;
  int num_warps_;
  std::string code_key_;  // the disk-cache key of the .so / .cpp / .stack
};

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

std::string read_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      auto p = line.find(':');
      return p == std::string::npos ? line : line.substr(p + 2);
    }
  return "unknown processor";
}

class CpuDevice final : public Device {
 public:
  explicit CpuDevice(CpuDeviceOptions o)
      : cache_(o.cache_root.empty() ? DiskCache::default_root() : o.cache_root) {}

  std::string name() const override { return "cpu"; }
  std::string description() const override {
    return fmt::format("{} ({} threads), compiler: {}", read_model_name(), cpu_threads(), join(compiler_command()));
  }

  DeviceBuffer alloc(size_t bytes) override {
    size_t rounded = (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, rounded);
    if (!p) throw std::bad_alloc();
    return DeviceBuffer{p, bytes};
  }
  void free(DeviceBuffer& b) override {
    std::free(b.ptr);
    b.ptr = nullptr;
    b.bytes = 0;
  }
  void copy_in(DeviceBuffer& dst, const void* src, size_t bytes, size_t offset) override {
    if (offset + bytes > dst.bytes) throw std::out_of_range("cpu device: copy_in past the end of the buffer");
    std::memcpy(static_cast<char*>(dst.ptr) + offset, src, bytes);
  }
  void copy_out(void* dst, const DeviceBuffer& src, size_t bytes, size_t offset) override {
    if (offset + bytes > src.bytes) throw std::out_of_range("cpu device: copy_out past the end of the buffer");
    std::memcpy(dst, static_cast<const char*>(src.ptr) + offset, bytes);
  }
  void synchronize() override {}
  std::map<std::string, int64_t> property_map() const override {
    const int64_t workers = ThreadPool::global().size();
    return {{"max_shared_mem", kModelSharedBytes}, {"max_num_regs", kModelRegisters},
            {"multiprocessor_count", workers},     {"warpSize", 1},
            {"max_threads_per_block", 64},         {"max_threads_per_sm", 64}};
  }

  std::unique_ptr<LoadedKernel> compile(const ir::Module& m, const CodegenOptions& opts) override {
    const ir::Function& fn = codegen::cpu_kernel_function(m);
    std::string source = codegen::render_cpu(m, opts);
    const std::vector<std::string> flags = kernel_flags(opts.portable_numerics);
    const std::string key = content_hash({"tritium-cpu-kernel", TRITIUM_VERSION, source, compiler_identity(),
                                          join(flags), host_cpu_identity()});
    for (int attempt = 0; attempt < 2; ++attempt) {
      fs::path so;
      std::optional<StackUsage> stack = attempt == 0 ? cached_stack_usage(cache_, key) : std::nullopt;
      if (auto hit = cache_.find(key, "so"); hit && stack) {
        so = *hit;
        g_cache_hits.fetch_add(1);
      } else {
        stack = StackUsage{};
        so = build(key, source, opts.portable_numerics, &*stack);
        g_builds.fetch_add(1);
      }
      check_program_stack(fn, *stack, "cpu backend");  // a program overflowing its thread's stack would crash
      std::string why;
      auto [h, run] = open_object(so, &why);
      if (!h) {
        if (attempt == 0) continue;  // an unloadable cache entry: rebuild once
        throw std::runtime_error("cpu backend: " + why);
      }
      return std::make_unique<CpuKernel>(h, run, std::move(source), fn.name, fn.body.args.size(),
                                         std::max(1, opts.num_warps), key);
    }
    throw std::logic_error("unreachable");
  }

  // The `<inputs key>.inputs` entry: "tritium-cpu-inputs 1", then "code KEY", "name NAME",
  // "params N", "note", and the caller's note to the end. Written only after compile()
  // loaded the kernel and its stack check passed, so a hit needs neither again.
  InputHit load_by_inputs(const std::string& inputs, const CodegenOptions& opts,
                          const std::function<bool(const std::string& note)>& accept) override {
    const std::string key = inputs_key(inputs, opts);
    const std::optional<std::string> rec = cache_.read(key, "inputs");
    if (!rec) return {};
    std::istringstream in(*rec);
    std::string magic, version, tag, code, name, note_tag;
    size_t params = 0;
    if (!(in >> magic >> version) || magic != "tritium-cpu-inputs" || version != "1") return {};
    if (!(in >> tag >> code) || tag != "code") return {};
    if (!(in >> tag >> name) || tag != "name") return {};
    if (!(in >> tag >> params) || tag != "params") return {};
    if (!(in >> note_tag) || note_tag != "note" || in.get() != '\n') return {};
    std::string note((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!accept(note)) return {};
    const std::optional<fs::path> so = cache_.find(code, "so");
    std::optional<std::string> source = cache_.read(code, "cpp");
    if (!so || !source) return {};
    auto [h, run] = open_object(*so, nullptr);
    if (!h) return {};
    g_cache_hits.fetch_add(1);
    g_input_hits.fetch_add(1);
    InputHit hit;
    hit.loaded = std::make_unique<CpuKernel>(h, run, std::move(*source), name, params, std::max(1, opts.num_warps), code);
    hit.note = std::move(note);
    return hit;
  }

  void remember_inputs(const std::string& inputs, const CodegenOptions& opts, const LoadedKernel& k,
                       const std::string& note) override {
    const auto* ck = dynamic_cast<const CpuKernel*>(&k);
    if (!ck || ck->code_key().empty()) return;
    const std::string rec = fmt::format("tritium-cpu-inputs 1\ncode {}\nname {}\nparams {}\nnote\n{}", ck->code_key(),
                                        ck->name(), ck->num_params(), note);
    try {
      cache_.write(inputs_key(inputs, opts), "inputs", rec);
    } catch (const std::exception&) {  // best effort: the next process lowers again
    }
  }

 private:
  /// Compiles `source` in a scratch directory and stores source, stack usage and object in
  /// the cache.
  fs::path build(const std::string& key, const std::string& source, bool portable, StackUsage* stack) {
    fs::path dir = cache_.make_scratch_dir();
    fs::path src = dir / "kernel.cpp";
    fs::path obj = dir / "kernel.so";
    write_file_atomic(src, source);
    *stack = compile_shared_object(src, obj, portable);  // throws with the kept source's path
    auto bytes = read_file_bytes(obj);
    if (!bytes) throw std::runtime_error("cpu backend: the compiler produced no " + obj.string());
    cache_.write(key, "cpp", source);
    cache_.write(key, "stack", stack_usage_line(*stack));
    fs::path out = cache_.write(key, "so", *bytes);
    std::error_code ec;
    fs::remove_all(dir, ec);
    return out;
  }

  /// dlopen's `so` and finds its tritium_run: {handle, entry}, or {nullptr, nullptr} with
  /// the reason in `*why` (when given).
  static std::pair<void*, tritium_run_fn> open_object(const fs::path& so, std::string* why) {
    void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      if (why) *why = fmt::format("cannot load {}: {}", so.string(), dlerror());
      return {nullptr, nullptr};
    }
    auto run = reinterpret_cast<tritium_run_fn>(dlsym(h, "tritium_run"));
    if (!run) {
      dlclose(h);
      if (why) *why = so.string() + " does not export tritium_run";
      return {nullptr, nullptr};
    }
    return {h, run};
  }

  /// The caller's digest of the inputs plus this backend's identity (what compile() keys
  /// the code on besides the source).
  static std::string inputs_key(const std::string& inputs, const CodegenOptions& opts) {
    return content_hash({"tritium-cpu-inputs", TRITIUM_VERSION, inputs, compiler_identity(),
                         join(kernel_flags(opts.portable_numerics)), host_cpu_identity()});
  }

  DiskCache cache_;
};

}  // namespace

std::unique_ptr<Device> make_cpu_device(const CpuDeviceOptions& options) {
  return std::make_unique<CpuDevice>(options);
}

CpuCompileCounters cpu_compile_counters() {
  return CpuCompileCounters{g_cache_hits.load(), g_builds.load(), g_input_hits.load()};
}

}  // namespace cpu

std::unique_ptr<Device> make_cpu_device() { return cpu::make_cpu_device(cpu::CpuDeviceOptions{}); }

}  // namespace tritium::runtime
