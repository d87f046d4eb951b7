// msl-emu: the MSL text tritium emits, compiled by the system C++ compiler and run on the
// CPU, so CI compiles and executes every MSL program without Apple hardware.
//
// Two pieces of text make an MSL program a C++ translation unit:
//   * msl_emu_stdlib(): the header the program's `#include <metal_stdlib>` finds (the build
//     puts it first on the include path). It defines what the program uses of Metal: the
//     address-space and function qualifiers (device, constant, thread, threadgroup, kernel)
//     as nothing or const, the [[attributes]] being ignored by the C++ compiler; uchar /
//     ushort / uint / ulong, uint3, as_type<T>, atomic_uint with atomic_fetch_min_explicit;
//     the metal:: math functions the renderer calls, on float (fma, sqrt, trunc, fabs, floor,
//     ceil, rint, round, fmod, copysign, isinf, signbit: correctly rounded or exact, as
//     Metal without fast math; sin, cos, tan, ... through the C library, another libm, as on
//     Apple GPUs); clz / popcount / mulhi on 32- and 64-bit integers; and
//     __METAL_VERSION__. Then it poisons `double` and `__int128`: a program that uses
//     either (Metal has neither) fails to compile in the emulator as on Metal.
//   * msl_emu_driver(params, nsites): C++ appended after the program, the launcher's side of
//     a dispatch: `extern "C" void tritium_msl_run(const tritium_arg* args, const int32_t
//     grid[3], int64_t first, int64_t end, uint32_t* status)` binds each argument as Metal
//     would (the buffer's address; a scalar by reference to a value of its type) and runs
//     the programs first..end-1 (linear ids, x fastest) one after another, each as one
//     threadgroup of one thread.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "ir/types.h"

namespace tritium::codegen {

/// The emulated <metal_stdlib> (see the file comment).
const char* msl_emu_stdlib();

/// The launcher appended to an MSL program with kernel parameters `params` (pointers and
/// scalars, as MslProgram::params) and `nsites` run-time failure sites (0: no status word).
std::string msl_emu_driver(const std::vector<ir::Type>& params, size_t nsites);

}  // namespace tritium::codegen
