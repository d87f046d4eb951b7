// What the two backends running tritium's MSL programs share at launch: the metal backend
// (Apple GPUs, metal_device.cpp) and msl-emu (the CPU, runtime/msl_emu). Both bind the
// kernel's arguments one buffer index each, dispatch one threadgroup per program, and read
// run-time failures from the program's 32-bit status word (codegen::MslProgram::failures).
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "codegen/metal/msl_codegen.h"

namespace tritium::runtime::metal {

/// TRITIUM_MSL_SHAPE: "serial" or "threadgroup" renders every kernel in that shape (tests,
/// debugging: the serial shape gives the interpreter's bits whatever the numerics); unset or
/// "auto": the threadgroup shape where the renderer lowers the kernel. Throws
/// std::runtime_error naming `backend` for another value.
codegen::MslShape msl_shape_from_env(const std::string& backend);

/// Checks a launch of `program` (kernel `kernel`) over `grid` with `nargs` arguments: the
/// argument count, no negative grid dimension, and that the programs times the failure
/// sites fit the 32-bit status word. Returns the number of programs (0: nothing to run).
/// Throws std::runtime_error naming the kernel and `backend`.
int64_t check_msl_launch(const codegen::MslProgram& program, const std::string& kernel, const std::string& backend,
                         const std::array<int32_t, 3>& grid, size_t nargs);

/// Throws std::runtime_error with the failure the status word `status` records after a
/// launch over `grid` (the CPU backend's message and the lowest failing program's
/// coordinates); returns when it records none (0xffffffff).
void raise_msl_status(const codegen::MslProgram& program, uint32_t status, const std::array<int32_t, 3>& grid);

}  // namespace tritium::runtime::metal
