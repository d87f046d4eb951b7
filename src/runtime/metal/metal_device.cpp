// The metal backend on Apple platforms, through metal-cpp (see metal_device.h). Built only
// with -DTRITIUM_METAL=ON (the default on Apple platforms); elsewhere metal_absent.cpp.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>
#include <dispatch/dispatch.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

#include "codegen/cpu/cpu_codegen.h"
#include "codegen/metal/msl_codegen.h"
#include "runtime/cache.h"
#include "runtime/metal/metal_device.h"
#include "runtime/metal/metal_probe_program.h"
#include "runtime/metal/metal_toolchain.h"
#include "runtime/metal/msl_launch.h"

#ifndef TRITIUM_VERSION
#define TRITIUM_VERSION "unknown"
#endif

namespace tritium::runtime::metal {
namespace {
namespace fs = std::filesystem;

std::string text_of(const NS::String* s) { return s && s->utf8String() ? s->utf8String() : ""; }
std::string error_text(const NS::Error* e) { return e ? text_of(e->localizedDescription()) : "(no description)"; }
NS::String* ns(const std::string& s) { return NS::String::string(s.c_str(), NS::UTF8StringEncoding); }

// Objects metal-cpp autoreleases (those not made by new / alloc / copy) are freed when the
// innermost pool goes: one around each call into Metal.
struct Pool {
  NS::AutoreleasePool* p = NS::AutoreleasePool::alloc()->init();
  ~Pool() { p->release(); }
};

MTL::Device* system_device() {
  if (MTL::Device* d = MTL::CreateSystemDefaultDevice()) return d;
  // A command-line process may get no default device; any device then.
  MTL::Device* d = nullptr;
  if (NS::Array* all = MTL::CopyAllDevices()) {
    if (all->count() > 0) {
      d = all->object<MTL::Device>(0);
      d->retain();
    }
    all->release();
  }
  return d;
}

// A compute pipeline for `function` of the metallib `bytes`; null with the reason in *why.
MTL::ComputePipelineState* pipeline_from(MTL::Device* dev, const std::string& bytes, const std::string& function,
                                         std::string* why) {
  Pool pool;
  dispatch_data_t data = dispatch_data_create(bytes.data(), bytes.size(), nullptr, DISPATCH_DATA_DESTRUCTOR_DEFAULT);
  NS::Error* err = nullptr;
  MTL::Library* lib = dev->newLibrary(data, &err);
  dispatch_release(data);
  if (!lib) {
    *why = "the metallib does not load: " + error_text(err);
    return nullptr;
  }
  MTL::Function* fn = lib->newFunction(ns(function));
  if (!fn) {
    lib->release();
    *why = "the metallib has no function " + function;
    return nullptr;
  }
  MTL::ComputePipelineState* ps = dev->newComputePipelineState(fn, &err);
  fn->release();
  lib->release();
  if (!ps) *why = "newComputePipelineState(" + function + "): " + error_text(err);
  return ps;
}

// The process's Metal device, queue and toolchain, made on first use.
struct Context {
  MTL::Device* dev = nullptr;
  MTL::CommandQueue* queue = nullptr;
  MetalToolchain toolchain;
  std::string reason;  // why the backend is unavailable, or ""
};

const Context& context() {
  static const Context c = [] {
    Context c;
    Pool pool;
    c.dev = system_device();
    if (!c.dev) {
      c.reason = "no Metal device (MTLCreateSystemDefaultDevice and MTLCopyAllDevices found none)";
      return c;
    }
    ProbeRequest req;
    req.source = metal_probe_program();
    req.cache = &DiskCache::global();
    // Target the running macOS: the compiler otherwise targets its SDK's, whose libraries an
    // older system may refuse.
    const NS::OperatingSystemVersion os = NS::ProcessInfo::processInfo()->operatingSystemVersion();
    req.flags = {fmt::format("-mmacosx-version-min={}.{}", os.majorVersion, os.minorVersion)};
    req.environment = fmt::format("macOS {}.{}.{}, {}", os.majorVersion, os.minorVersion, os.patchVersion,
                                  text_of(c.dev->name()));
    MTL::Device* dev = c.dev;
    req.make_pipeline = [dev](const fs::path& lib, const std::string& function) {
      std::string why;
      std::optional<std::string> bytes = read_file_bytes(lib);
      if (!bytes) return "cannot read " + lib.string();
      MTL::ComputePipelineState* ps = pipeline_from(dev, *bytes, function, &why);
      if (ps) ps->release();
      return ps ? std::string() : why;
    };
    ProbeResult r = probe_metal_toolchain(req);
    if (!r.toolchain) {
      c.reason = "no Metal toolchain compiles tritium's MSL: " + r.reason;
      return c;
    }
    c.toolchain = *r.toolchain;
    c.queue = c.dev->newCommandQueue();
    if (!c.queue) c.reason = "the Metal device gave no command queue";
    return c;
  }();
  return c;
}

class MetalDevice;

class MetalKernel final : public LoadedKernel {
 public:
  /// Takes ownership of `ps` and `status` (the status word, or null for a program without
  /// failure sites).
  MetalKernel(MetalDevice* device, MTL::ComputePipelineState* ps, MTL::Buffer* status, codegen::MslProgram program,
              std::string name)
      : device_(device), ps_(ps), status_(status), program_(std::move(program)), name_(std::move(name)) {}
  ~MetalKernel() override {
    ps_->release();
    if (status_) status_->release();
  }
  void launch(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args) override;
  const std::string& source() const override { return program_.text; }
  KernelUsage usage() const override {
    KernelUsage u;
    u.shared_bytes = static_cast<int>(program_.threadgroup_bytes + ps_->staticThreadgroupMemoryLength());
    u.max_threads = static_cast<int>(ps_->maxTotalThreadsPerThreadgroup());
    u.threads = program_.threads;
    return u;
  }

 private:
  MetalDevice* device_;
  MTL::ComputePipelineState* ps_;
  MTL::Buffer* status_ = nullptr;  // the program's status word (shared storage), when it has failure sites
  codegen::MslProgram program_;
  std::string name_;
  std::mutex mu_;  // one launch at a time: the status word is the kernel's
};

class MetalDevice final : public Device {
 public:
  MetalDevice() : ctx_(context()), cache_(DiskCache::default_root()) {
    if (!ctx_.reason.empty()) throw std::runtime_error("metal backend: " + ctx_.reason);
    null_ = ctx_.dev->newBuffer(16, MTL::ResourceStorageModeShared);
    if (!null_) throw std::runtime_error("metal device: cannot allocate 16 bytes");
  }
  ~MetalDevice() override {
    for (auto& [base, b] : buffers_) b->release();
    null_->release();
  }

  std::string name() const override { return "metal"; }
  std::string description() const override {
    Pool pool;
    return fmt::format("{} (Metal; {}{:.1f} GiB recommended working set, {} KiB threadgroup memory; MSL compiled "
                       "with -std={} by {})",
                       text_of(ctx_.dev->name()), ctx_.dev->hasUnifiedMemory() ? "unified memory, " : "",
                       static_cast<double>(ctx_.dev->recommendedMaxWorkingSetSize()) / (1024.0 * 1024.0 * 1024.0),
                       ctx_.dev->maxThreadgroupMemoryLength() / 1024, ctx_.toolchain.language,
                       ctx_.toolchain.version);
  }
  std::map<std::string, int64_t> property_map() const override {
    return {{"max_shared_mem", static_cast<int64_t>(ctx_.dev->maxThreadgroupMemoryLength())},
            {"max_threads_per_block", static_cast<int64_t>(ctx_.dev->maxThreadsPerThreadgroup().width)},
            {"warpSize", 32},
            {"total_memory", static_cast<int64_t>(ctx_.dev->recommendedMaxWorkingSetSize())}};
  }

  DeviceBuffer alloc(size_t bytes) override {
    Pool pool;
    // 16 bytes past the end: a pointer one past the last element (an empty slice) is then an
    // offset Metal accepts (setBuffer requires offset < length).
    MTL::Buffer* b = ctx_.dev->newBuffer((bytes + 15) / 16 * 16 + 16, MTL::ResourceStorageModeShared);
    if (!b)
      throw std::runtime_error(fmt::format("metal device: cannot allocate {} bytes (the largest buffer is {} bytes)",
                                           bytes, ctx_.dev->maxBufferLength()));
    std::lock_guard<std::mutex> lk(mu_);
    buffers_[reinterpret_cast<uintptr_t>(b->contents())] = b;
    return DeviceBuffer{b->contents(), bytes};
  }
  void free(DeviceBuffer& d) override {
    if (!d.ptr) return;
    std::lock_guard<std::mutex> lk(mu_);
    auto it = buffers_.find(reinterpret_cast<uintptr_t>(d.ptr));
    if (it == buffers_.end()) throw std::invalid_argument("metal device: free of an address it did not allocate");
    it->second->release();  // launches wait for completion: no command buffer still uses it
    buffers_.erase(it);
    d = {};
  }
  void copy_in(DeviceBuffer& dst, const void* src, size_t bytes, size_t offset) override {
    check_range("copy_in", bytes, offset, dst.bytes);
    if (bytes) std::memcpy(static_cast<char*>(dst.ptr) + offset, src, bytes);
  }
  void copy_out(void* dst, const DeviceBuffer& src, size_t bytes, size_t offset) override {
    check_range("copy_out", bytes, offset, src.bytes);
    if (bytes) std::memcpy(dst, static_cast<const char*>(src.ptr) + offset, bytes);
  }
  void synchronize() override {}  // every launch waits for its command buffer

  std::unique_ptr<LoadedKernel> compile(const ir::Module& m, const CodegenOptions& given) override {
    const std::string kernel = codegen::cpu_kernel_function(m).name;
    CodegenOptions opts = given;
    opts.simdgroup_matrices = ctx_.dev->supportsFamily(MTL::GPUFamilyApple7);
    const codegen::MslShape shape = msl_shape_from_env("metal");
    codegen::MslProgram program = codegen::render_msl_program(m, opts, shape);
    MTL::ComputePipelineState* ps = nullptr;
    std::string why;  // why not the threadgroup shape
    try {
      ps = load(program);
    } catch (const std::runtime_error& e) {
      if (program.threads <= 1 || shape == codegen::MslShape::Threadgroup) throw;
      why = std::string("the threadgroup shape did not build: ") + e.what();
    }
    if (ps && program.threads > 1) {
      // The threadgroup shape's assumptions, checked on the pipeline (metal_device.h).
      const NS::UInteger width = ps->threadExecutionWidth(), most = ps->maxTotalThreadsPerThreadgroup();
      const uint64_t tg = program.threadgroup_bytes + ps->staticThreadgroupMemoryLength();
      if (width != 32)
        why = fmt::format("this GPU's pipeline runs simdgroups of {} threads, the threadgroup shape needs 32", width);
      else if (most < static_cast<NS::UInteger>(program.threads))
        why = fmt::format("the pipeline allows {} threads per threadgroup, the program needs {} (32 x num_warps)",
                          most, program.threads);
      else if (tg > ctx_.dev->maxThreadgroupMemoryLength())
        why = fmt::format("the program needs {} bytes of threadgroup memory, the device has {}", tg,
                          ctx_.dev->maxThreadgroupMemoryLength());
      if (!why.empty()) {
        ps->release();
        ps = nullptr;
      }
    }
    if (!ps) {
      if (shape == codegen::MslShape::Threadgroup)
        throw std::runtime_error("metal backend: kernel @" + kernel + ": TRITIUM_MSL_SHAPE=threadgroup, but " + why);
      program = codegen::render_msl_serial(m, opts, why);
      ps = load(program);
    }
    MTL::Buffer* status = nullptr;
    if (!program.failures.empty()) {
      status = ctx_.dev->newBuffer(sizeof(uint32_t), MTL::ResourceStorageModeShared);
      if (!status) {
        ps->release();
        throw std::runtime_error("metal device: cannot allocate a kernel's status word");
      }
    }
    return std::make_unique<MetalKernel>(this, ps, status, std::move(program), kernel);
  }

  /// The buffer holding device address `a`, and the offset of `a` in it.
  std::pair<MTL::Buffer*, size_t> resolve(const void* address) const {
    const uintptr_t a = reinterpret_cast<uintptr_t>(address);
    std::lock_guard<std::mutex> lk(mu_);
    auto it = buffers_.upper_bound(a);
    if (it != buffers_.begin()) {
      --it;
      if (a < it->first + it->second->length()) return {it->second, a - it->first};
    }
    throw std::invalid_argument(fmt::format("metal device: address {:#x} is in no buffer of this device", a));
  }
  /// The buffer bound for a null pointer argument (Metal wants every argument bound).
  MTL::Buffer* null_buffer() const { return null_; }
  MTL::Device* dev() const { return ctx_.dev; }
  MTL::CommandQueue* queue() const { return ctx_.queue; }

 private:
  static void check_range(const char* what, size_t bytes, size_t offset, size_t size) {
    if (offset > size || bytes > size - offset)
      throw std::out_of_range(fmt::format("metal device: {} of {} bytes at offset {} is past the end of a buffer of "
                                          "{} bytes",
                                          what, bytes, offset, size));
  }

  // The program's pipeline: its metallib from the cache, else compiled (and cached). An
  // entry that no longer loads is compiled again once.
  MTL::ComputePipelineState* load(const codegen::MslProgram& program) {
    std::string xcrun;
    for (const auto& p : ctx_.toolchain.xcrun) xcrun += p + " ";
    const std::string key = content_hash({"tritium-metal-kernel", TRITIUM_VERSION, program.text, xcrun,
                                          ctx_.toolchain.language, ctx_.toolchain.version});
    std::string why;
    for (int attempt = 0; attempt < 2; ++attempt) {
      std::optional<std::string> lib = attempt == 0 ? cache_.read(key, "metallib") : std::nullopt;
      if (!lib) lib = build(key, program.text);
      if (MTL::ComputePipelineState* ps = pipeline_from(ctx_.dev, *lib, "tritium_kernel", &why)) return ps;
    }
    throw std::runtime_error("metal backend: " + why);
  }

  std::string build(const std::string& key, const std::string& msl) {
    const fs::path dir = cache_.make_scratch_dir();
    write_file_atomic(dir / "kernel.metal", msl);
    try {
      compile_metallib(ctx_.toolchain, dir / "kernel.metal", dir / "kernel.metallib");
    } catch (...) {
      // Keep the program where the message points (the scratch directory is removed).
      cache_.write(key, "metal", msl);
      std::error_code ec;
      fs::remove_all(dir, ec);
      throw;
    }
    std::optional<std::string> bytes = read_file_bytes(dir / "kernel.metallib");
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (!bytes) throw std::runtime_error("metal backend: the Metal toolchain produced no metallib");
    cache_.write(key, "metal", msl);
    cache_.write(key, "metallib", *bytes);
    return *bytes;
  }

  const Context& ctx_;
  DiskCache cache_;
  mutable std::mutex mu_;
  std::map<uintptr_t, MTL::Buffer*> buffers_;  // by contents() address
  MTL::Buffer* null_ = nullptr;
};

void MetalKernel::launch(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args) {
  const int64_t total = check_msl_launch(program_, name_, "metal", grid, args.size());
  if (total == 0) return;
  // Every pointer resolved before anything is encoded: an encoder released without
  // endEncoding (an exception mid-encoding) is fatal under Metal's API validation.
  std::vector<std::pair<MTL::Buffer*, size_t>> bound(program_.params.size(), {nullptr, 0});
  for (size_t k = 0; k < program_.params.size(); ++k)
    if (program_.params[k].is_ptr) bound[k] = args[k].ptr ? device_->resolve(args[k].ptr)
                                                          : std::make_pair(device_->null_buffer(), size_t{0});
  std::lock_guard<std::mutex> lock(mu_);
  Pool pool;
  MTL::CommandBuffer* cb = device_->queue()->commandBuffer();
  MTL::ComputeCommandEncoder* enc = cb->computeCommandEncoder();
  enc->setComputePipelineState(ps_);
  for (size_t k = 0; k < program_.params.size(); ++k) {
    const ir::Type& t = program_.params[k];
    if (t.is_ptr) {
      enc->setBuffer(bound[k].first, bound[k].second, k);
    } else if (t.scalar == ir::ScalarType::I1) {
      const unsigned char v = args[k].u64 != 0;
      enc->setBytes(&v, 1, k);
    } else {
      // The slot's low bytes are the value in its MSL type (little-endian; fp16 / bf16 as
      // their 16-bit pattern; fp32 in f32): kernel_abi.h.
      enc->setBytes(&args[k], ir::byte_size(t.scalar), k);
    }
  }
  if (status_) {
    *static_cast<uint32_t*>(status_->contents()) = 0xffffffffu;
    enc->setBuffer(status_, 0, program_.params.size());
  }
  if (program_.threads > 1)
    enc->setThreadgroupMemoryLength((std::max<int64_t>(program_.threadgroup_bytes, 16) + 15) / 16 * 16, 0);
  enc->dispatchThreadgroups(MTL::Size(grid[0], grid[1], grid[2]), MTL::Size(program_.threads, 1, 1));
  enc->endEncoding();
  cb->commit();
  cb->waitUntilCompleted();
  if (cb->status() == MTL::CommandBufferStatusError)
    throw std::runtime_error(fmt::format("kernel @{}: the Metal command buffer failed: {}", name_, error_text(cb->error())));
  if (status_) raise_msl_status(program_, *static_cast<const uint32_t*>(status_->contents()), grid);
}

}  // namespace

std::string metal_unavailable_reason() { return context().reason; }

std::unique_ptr<Device> make_metal_device() { return std::make_unique<MetalDevice>(); }

}  // namespace tritium::runtime::metal
