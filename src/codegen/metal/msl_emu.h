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
//   * msl_emu_driver(params, nsites, threads, threadgroup_bytes): C++ appended after the
//     program, the launcher's side of a dispatch: `extern "C" int tritium_msl_run(const
//     tritium_arg* args, const int32_t grid[3], int64_t first, int64_t end, uint32_t*
//     status, void* arena)` binds each argument as Metal would (the buffer's address; a
//     scalar by reference to a value of its type) and runs the programs first..end-1 (linear
//     ids, x fastest) one after another, each as one threadgroup: of one thread (the serial
//     shape), or of `threads` fibers in `arena` (kMslEmuArenaBytes, see below) with
//     `threadgroup_bytes` of threadgroup memory filled with 0xa5 first. It returns 0, or 1
//     when a threadgroup's threads wait at barriers that not all of them reach.
//
// The emulated header also runs those fibers: threadgroup_barrier waits for every thread
// of the threadgroup, simd_shuffle_xor exchanges a 32-bit value among the 32 threads of a
// simdgroup (the thread index's low five bits are the lane), uint2 / uint4 and threadgroup
// atomic_int are defined.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/types.h"

namespace tritium::codegen {

/// The fiber arena the threadgroup shape's launcher runs a threadgroup in (one per host
/// thread, owned by the msl-emu device and reused by every kernel): a header of
/// kMslEmuArenaHeaderBytes (the scheduler's state), then kMslEmuMaxThreads stacks of
/// kMslEmuStackBytes, the lowest page of each inaccessible (a stack overflow faults).
constexpr size_t kMslEmuArenaHeaderBytes = size_t{1} << 20;
constexpr size_t kMslEmuStackBytes = size_t{256} << 10;
constexpr size_t kMslEmuMaxThreads = 1024;
constexpr size_t kMslEmuArenaBytes = kMslEmuArenaHeaderBytes + kMslEmuMaxThreads * kMslEmuStackBytes;

/// The emulated <metal_stdlib> (see the file comment).
const char* msl_emu_stdlib();

/// The launcher appended to an MSL program with kernel parameters `params` (pointers and
/// scalars, as MslProgram::params) and `nsites` run-time failure sites (0: no status word).
/// `sanitize`: the program was rendered in sanitize mode (serial shape; it defines
/// tr_san_host, see msl_codegen.h): the launcher also exports `extern "C" void
/// tritium_msl_sanitize(const tritium_host* h)`, which the runtime calls before each
/// launch to hand the program its assert_fail callback and the launch's bounds.
std::string msl_emu_driver(const std::vector<ir::Type>& params, size_t nsites, int threads = 1,
                           int64_t threadgroup_bytes = 0, bool sanitize = false);

}  // namespace tritium::codegen
