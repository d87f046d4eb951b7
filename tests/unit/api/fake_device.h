// A minimal host-memory runtime::Device for API tests that need buffers but no compiler:
// alloc/copy work; compile refuses. Records nothing; two instances are two devices.
#pragma once
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "runtime/device.h"

namespace tritium::testing {

class FakeDevice final : public runtime::Device {
 public:
  explicit FakeDevice(std::string name = "fake") : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  std::string description() const override { return "fake host device for tests"; }
  runtime::DeviceBuffer alloc(size_t bytes) override {
    void* p = std::aligned_alloc(64, ((bytes + 63) / 64 + 1) * 64);
    ++live;
    return {p, bytes};
  }
  void free(runtime::DeviceBuffer& b) override {
    std::free(b.ptr);
    b.ptr = nullptr;
    --live;
  }
  void copy_in(runtime::DeviceBuffer& dst, const void* src, size_t bytes, size_t offset) override {
    std::memcpy(static_cast<char*>(dst.ptr) + offset, src, bytes);
  }
  void copy_out(void* dst, const runtime::DeviceBuffer& src, size_t bytes, size_t offset) override {
    std::memcpy(dst, static_cast<const char*>(src.ptr) + offset, bytes);
  }
  std::unique_ptr<runtime::LoadedKernel> compile(const ir::Module&, const runtime::CodegenOptions&) override {
    throw std::runtime_error("the fake device compiles nothing");
  }
  void synchronize() override {}

  int live = 0;  ///< allocations not yet freed

 private:
  std::string name_;
};

}  // namespace tritium::testing
