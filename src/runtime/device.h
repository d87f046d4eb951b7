// The one narrow interface every runtime implements (cpu now; cuda, opencl, metal,
// msl-emu later), in the spirit of ggml's backend vtable: allocation, copies, compile,
// load, launch, synchronize, properties. Optional entries say so.
#pragma once
#include <array>
#include <functional>
#include <map>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "runtime/kernel_abi.h"

namespace tritium::runtime {

/// Options that change generated code (part of every cache key).
struct CodegenOptions {
  bool portable_numerics = false;  // contraction off, canonical orders (ARCHITECTURE.md)
  bool debug = false;              // device_assert active
  int num_warps = 4;
  int num_stages = 3;
  /// Metal: whether the GPU has simdgroup matrices (Apple GPU family 7 and later); without
  /// them native-numerics dots in the threadgroup shape stay FMA chains. The metal device
  /// sets it; the text records it (cache keys hash the text).
  bool simdgroup_matrices = true;
  /// Sanitize mode (CompileOptions::sanitize): every load and store checked against its
  /// argument's buffer, masked-off lanes read without `other` poisoned. cpu only.
  bool sanitize = false;
};

/// A device allocation. `ptr` is the device address passed to kernels.
struct DeviceBuffer {
  void* ptr = nullptr;
  size_t bytes = 0;
};

/// What one program of a loaded kernel uses of the hardware (CompiledKernel::resources()).
struct KernelUsage {
  int registers = 0;     ///< 32-bit registers per thread
  int local_bytes = 0;   ///< local (stack / spill) memory per thread, bytes
  int shared_bytes = 0;  ///< shared memory per program, static + dynamic, bytes
  int max_threads = 0;   ///< the most threads per program the kernel can be launched with
  int threads = 0;       ///< threads per program as launched
  int spill_bytes = 0;   ///< registers spilled to local memory per thread, bytes (cuda: ptxas)
};

/// A kernel loaded on a device, ready to launch.
class LoadedKernel {
 public:
  virtual ~LoadedKernel() = default;
  /// Launches the kernel over `grid` with one slot per non-constexpr parameter and waits
  /// for completion (the CPU runtime is synchronous). Throws std::runtime_error on failure
  /// (e.g. a failed device_assert, reported with kernel, file:line and program id).
  virtual void launch(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args) = 0;
  /// Enqueues the launch without waiting where the backend can (cuda: on `stream`, a
  /// CUstream of the device's context, or the default stream for null; unless the kernel reports failures through a device word, e.g. a
  /// device_assert in debug mode, which needs the wait); errors of the kernel itself then
  /// surface at the device's next synchronize() or copy. Default: launch().
  virtual void launch_async(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args,
                            void* stream = nullptr) {
    (void)stream;
    launch(grid, args);
  }
  /// launch() of a kernel compiled in sanitize mode (CodegenOptions::sanitize): `bounds`
  /// holds one entry per slot (the extent of each pointer argument's buffer), which the
  /// kernel's checks read. Default (backends without sanitize mode): launch().
  virtual void launch_checked(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args,
                              const std::vector<tritium_bounds>& bounds) {
    (void)bounds;
    launch(grid, args);
  }
  /// Generated source (C++ for cpu), for --emit and debugging.
  virtual const std::string& source() const = 0;
  /// The backend's assembly of kind `kind` ("ptx" on cuda), or "" when it has none of that
  /// kind (the default).
  virtual std::string assembly(const std::string& kind) const {
    (void)kind;
    return {};
  }
  /// The kinds assembly() serves (e.g. {"ptx"}).
  virtual std::vector<std::string> assembly_kinds() const { return {}; }
  /// What one program uses (all zero where the backend has no such figures: the default).
  virtual KernelUsage usage() const { return {}; }
  /// The backend's disk-cache key of this kernel's code ("" where it keeps none: the
  /// default). Device::remember_inputs records it.
  virtual std::string code_key() const { return {}; }
};

/// A kernel found by the inputs it was compiled from (Device::load_by_inputs).
struct InputHit {
  std::unique_ptr<LoadedKernel> loaded;
  std::string note;  ///< the caller's text stored with it (remember_inputs)
};

class Device {
 public:
  virtual ~Device() = default;
  /// Backend name: "cpu", "cuda", ...
  virtual std::string name() const = 0;
  /// Human-readable description (processor name, cores, compiler).
  virtual std::string description() const = 0;
  virtual DeviceBuffer alloc(size_t bytes) = 0;
  virtual void free(DeviceBuffer& b) = 0;
  virtual void copy_in(DeviceBuffer& dst, const void* src, size_t bytes, size_t offset = 0) = 0;
  virtual void copy_out(void* dst, const DeviceBuffer& src, size_t bytes, size_t offset = 0) = 0;
  /// Compiles the (fully inlined) kernel `fn` of the IR and loads it. Uses the on-disk
  /// cache when possible. Throws frontend::CompileError for constructs the backend refuses.
  virtual std::unique_ptr<LoadedKernel> compile(const ir::Module& m, const CodegenOptions& opts) = 0;
  /// A cache hit without lowering: the kernel an earlier compile() built from the same inputs,
  /// found by `inputs` (a digest of everything lowering depends on, from the caller; the
  /// backend adds its own identity: compiler, flags, host), with the note stored with it,
  /// when `accept(note)` holds. Empty (the default, and on any miss, unreadable entry or
  /// refused note): the caller lowers and calls compile().
  virtual InputHit load_by_inputs(const std::string& inputs, const CodegenOptions& opts,
                                  const std::function<bool(const std::string& note)>& accept) {
    (void)inputs;
    (void)opts;
    (void)accept;
    return {};
  }
  /// Records that `inputs` compiled to `k` (whose code_key() is set), with `note`, for
  /// load_by_inputs. Best effort (an unwritable cache records nothing); default: nothing.
  virtual void remember_inputs(const std::string& inputs, const CodegenOptions& opts, const LoadedKernel& k,
                               const std::string& note) {
    (void)inputs;
    (void)opts;
    (void)k;
    (void)note;
  }
  virtual void synchronize() = 0;
  /// Hardware figures by upstream Triton's names (see tritium::Device::properties()); empty
  /// where the backend has none (the default).
  virtual std::map<std::string, int64_t> property_map() const { return {}; }
};

/// The CPU device (always available).
std::unique_ptr<Device> make_cpu_device();

}  // namespace tritium::runtime
