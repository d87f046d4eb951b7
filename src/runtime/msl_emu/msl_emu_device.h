// The msl-emu device: kernels rendered as Metal Shading Language (codegen/metal), compiled
// as C++ by the system compiler against tritium's emulated <metal_stdlib>
// (codegen/metal/msl_emu.h) into a shared object kept in the on-disk cache, and dispatched
// as Metal would: one threadgroup of one thread per program, the programs spread over the
// CPU thread pool. Memory is host memory (as the cpu device's). Launches are synchronous.
//
// A run-time failure (device_assert in debug mode, a non-positive loop step) goes through
// the kernel's status word as on Metal and is raised after the launch as
// std::runtime_error with the CPU backend's wording and the lowest failing program's
// coordinates. A launch whose programs times failure sites do not fit in 32 bits is refused.
#pragma once
#include <cstdint>
#include <memory>

#include "runtime/device.h"

namespace tritium::runtime::msl_emu {

/// A new msl-emu device (cache: DiskCache::default_root()).
std::unique_ptr<Device> make_msl_emu_device();
/// The same with `fiber_stack_bytes` as the stack a thread of the threadgroup shape may
/// use (default: its fiber's 256 KB less a guard page and 8 KB), for tests of what happens
/// past it: the serial shape, or a CompileError under TRITIUM_MSL_SHAPE=threadgroup.
std::unique_ptr<Device> make_msl_emu_device(int64_t fiber_stack_bytes);

}  // namespace tritium::runtime::msl_emu
