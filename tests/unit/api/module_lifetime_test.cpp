// A Module that compiled kernels is freed once the last handle to it (Module, Kernel,
// CompiledKernel) is gone: its compiled-kernel cache must not keep it alive through the
// compiled kernels it holds (found by the frontend fuzzer as a leak: the cache's
// CompiledState pointed back at the ModuleState, a shared_ptr cycle).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "runtime/device.h"
#include "tritium/tritium.h"

namespace {

// Compiles nothing but records (weakly) the source the kernel's IR points into.
class SourceWatchingDevice final : public tritium::runtime::Device {
 public:
  std::string name() const override { return "watch"; }
  std::string description() const override { return "records the IR's source"; }
  tritium::runtime::DeviceBuffer alloc(size_t) override { return {}; }
  void free(tritium::runtime::DeviceBuffer&) override {}
  void copy_in(tritium::runtime::DeviceBuffer&, const void*, size_t, size_t) override {}
  void copy_out(void*, const tritium::runtime::DeviceBuffer&, size_t, size_t) override {}
  void synchronize() override {}
  std::unique_ptr<tritium::runtime::LoadedKernel> compile(const tritium::ir::Module& m,
                                                          const tritium::runtime::CodegenOptions&) override {
    source = m.functions.front()->loc.file->weak_from_this();
    return std::make_unique<Loaded>();
  }
  std::weak_ptr<const tritium::frontend::Source> source;

 private:
  struct Loaded final : tritium::runtime::LoadedKernel {
    void launch(const std::array<int32_t, 3>&, const std::vector<tritium_arg>&) override {}
    const std::string& source() const override { return text; }
    std::string text;
  };
};

TEST(ModuleLifetime, CompiledModuleIsFreedWithItsLastHandle) {
  auto watch = std::make_shared<SourceWatchingDevice>();
  const tritium::Device dev(watch);
  {
    tritium::Module m = tritium::Module::from_string(R"(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)
)");
    tritium::CompiledKernel ck = m.kernel("k").compile(dev, "*fp32, 16");
    EXPECT_FALSE(watch->source.expired());
    m = tritium::Module::from_string("");  // the compiled kernel alone keeps the source
    EXPECT_FALSE(watch->source.expired());
  }
  EXPECT_TRUE(watch->source.expired()) << "the module (and its source) outlived every handle";
}

}  // namespace
