// The "interp" device: runs kernels on the reference interpreter (src/interp). Memory is
// host memory (64-byte aligned), compile keeps a private copy of the IR, and launch calls
// interp::run over the grid. Slow by design; it is the executable specification the other
// backends are tested against.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "interp/interpreter.h"
#include "ir/clone.h"
#include "ir/printer.h"
#include "runtime/registry.h"

namespace tritium::runtime {
namespace {

// Deep copy of a module: every function with fresh values (locations still point into the
// same Source, which the caller keeps alive).
std::unique_ptr<ir::Module> clone_module(const ir::Module& m) {
  auto out = std::make_unique<ir::Module>();
  for (const auto& fn : m.functions) {
    ir::Function* nf = out->add(fn->name);
    nf->is_kernel = fn->is_kernel;
    nf->result_types = fn->result_types;
    nf->loc = fn->loc;
    ir::Builder b(*nf);
    ir::ValueMap map;
    for (ir::Value* a : fn->body.args) {
      ir::Value* na = b.add_block_arg(nf->body, a->type);
      na->name = a->name;
      map[a] = na;
    }
    b.set_insertion_end(&nf->body);
    ir::clone_ops(b, fn->body, map);
  }
  return out;
}

class InterpKernel final : public LoadedKernel {
 public:
  InterpKernel(std::unique_ptr<ir::Module> m, const CodegenOptions& opts) : module_(std::move(m)), opts_(opts) {
    source_ = ir::print(*module_);
  }

  void launch(const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args) override {
    interp::Options o;
    o.debug = opts_.debug;                // tl.device_assert only in debug mode, as on every backend
    o.poison_masked_loads = opts_.debug;  // checking mode: undefined lanes show up as poison
    interp::run(*module_, grid, args, o);
  }

  const std::string& source() const override { return source_; }

 private:
  std::unique_ptr<ir::Module> module_;
  CodegenOptions opts_;
  std::string source_;
};

class InterpDevice final : public Device {
 public:
  std::string name() const override { return "interp"; }
  std::string description() const override { return "reference IR interpreter on the host (slow; for testing)"; }

  DeviceBuffer alloc(size_t bytes) override {
    // Round up so aligned_alloc's size is a multiple of the alignment, then add the zeroed
    // slack zone (see kSlack).
    size_t rounded = (bytes + kAlign - 1) / kAlign * kAlign;
    if (rounded > SIZE_MAX - kSlack) throw std::bad_alloc();
    void* p = std::aligned_alloc(kAlign, rounded + kSlack);
    if (!p) throw std::bad_alloc();
    std::memset(static_cast<char*>(p) + bytes, 0, rounded + kSlack - bytes);
    return DeviceBuffer{p, bytes};
  }

  void free(DeviceBuffer& b) override {
    std::free(b.ptr);
    b.ptr = nullptr;
    b.bytes = 0;
  }

  void copy_in(DeviceBuffer& dst, const void* src, size_t bytes, size_t offset) override {
    check(dst, bytes, offset, "copy_in");
    if (bytes) std::memcpy(static_cast<char*>(dst.ptr) + offset, src, bytes);
  }

  void copy_out(void* dst, const DeviceBuffer& src, size_t bytes, size_t offset) override {
    check(src, bytes, offset, "copy_out");
    if (bytes) std::memcpy(dst, static_cast<const char*>(src.ptr) + offset, bytes);
  }

  std::unique_ptr<LoadedKernel> compile(const ir::Module& m, const CodegenOptions& opts) override {
    return std::make_unique<InterpKernel>(clone_module(m), opts);
  }

  void synchronize() override {}

 private:
  static constexpr size_t kAlign = 64;
  // Every allocation is followed by this many zeroed bytes that belong to no buffer. A buggy
  // kernel that runs less than this past the end of a buffer (a missing mask on the last
  // block) then writes into the slack instead of the host heap, so a harness's own guard
  // zones can report it and the process survives; reads there give zeros. It is not a
  // bounds check: longer overruns still corrupt memory, as they would on a GPU.
  static constexpr size_t kSlack = 64 * 1024;

  static void check(const DeviceBuffer& b, size_t bytes, size_t offset, const char* what) {
    if (offset > b.bytes || bytes > b.bytes - offset)
      throw std::out_of_range(std::string("interp ") + what + ": range past the end of the buffer");
  }
};

}  // namespace

std::unique_ptr<Device> make_interp_device() { return std::make_unique<InterpDevice>(); }

}  // namespace tritium::runtime
