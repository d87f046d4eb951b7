// The metal backend: tritium's MSL programs (codegen/metal) on an Apple GPU through
// metal-cpp, built only on Apple platforms (CMake option TRITIUM_METAL, on by default there;
// metal_device.cpp). Elsewhere metal_absent.cpp reports the backend unavailable.
//
// What it does:
//   * The device is MTLCreateSystemDefaultDevice(); one command queue.
//   * Buffers are shared-storage MTLBuffers (the CPU and the GPU see the same memory on
//     Apple silicon); a buffer's device address, what kernels are passed, is its contents()
//     pointer, resolved back to (buffer, offset) at launch. copy_in / copy_out are memcpy.
//   * Each kernel is rendered as MSL (the threadgroup shape where the renderer lowers it,
//     TRITIUM_MSL_SHAPE overriding), compiled offline by the toolchain the probe chose
//     (metal_toolchain.h: `xcrun -sdk macosx metal -std=<newest that works>`, then
//     `metallib`), the metallib kept in the disk cache, and its `tritium_kernel` made a
//     compute pipeline. The threadgroup shape needs simdgroups of 32 threads and 32 x
//     num_warps threads per threadgroup: a pipeline whose threadExecutionWidth is not 32,
//     whose maxTotalThreadsPerThreadgroup is smaller, or whose threadgroup memory passes the
//     device's maxThreadgroupMemoryLength is rebuilt in the serial shape (the reason in the
//     program's second comment line).
//   * A launch encodes one dispatch of grid[0] x grid[1] x grid[2] threadgroups (1-D, 2-D
//     and 3-D alike), of MslProgram::threads threads each: pointer k bound with
//     setBuffer(buffer, offset, k), scalar k with setBytes (its MSL type's size), the status
//     word after them, the threadgroup memory at threadgroup index 0; then commits and
//     waits. A command buffer that ends in error, or a failure the status word records,
//     throws std::runtime_error.
#pragma once
#include <memory>
#include <string>

#include "runtime/device.h"

namespace tritium::runtime::metal {

/// Why the metal backend cannot run on this machine (no Metal runtime in this build, no
/// Metal device, no working toolchain: the probe's reason, naming what to install); "" when
/// it can.
std::string metal_unavailable_reason();

/// The metal device (the system default GPU). Throws std::runtime_error with
/// metal_unavailable_reason() when there is none.
std::unique_ptr<Device> make_metal_device();

}  // namespace tritium::runtime::metal
