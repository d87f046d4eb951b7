// The Metal backend's code generator: renders the (inlined, optimised) IR of one kernel
// specialisation as one Metal Shading Language program.
//
// The program starts with the MSL prelude (msl_prelude(): `#include <metal_stdlib>`, the
// scalar prelude's helpers written as the OpenCL C prelude writes them, one copy per element
// type, without any helper that computes in double) and holds one kernel,
//
//   kernel void tritium_kernel(<per parameter k: `device T* aK [[buffer(K)]]` for a pointer
//                               (the buffer bound at the argument's offset), `constant T& aK
//                               [[buffer(K)]]` for a scalar: int1 as uchar, fp16 / bf16 as
//                               their ushort bits>,
//                              [device atomic_uint* tr_status [[buffer(N)]]: kernels with
//                               run-time failures],
//                              uint3 tr_pid [[threadgroup_position_in_grid]],
//                              uint3 tr_npid [[threadgroups_per_grid]])
//
// dispatched as threadgroups of ONE thread, one threadgroup per program (program_id =
// threadgroup_position_in_grid, num_programs = threadgroups_per_grid), 1-D, 2-D and 3-D
// grids alike. The body is the CPU renderer's loop nests in the MSL dialect (codegen/cpu,
// Dialect::MSL): tensors are thread-private arrays in row-major order, reductions combine
// element i with i + n/2, dot is a sequential FMA chain over k ascending, so the results
// are the reference interpreter's bits. Metal must compile it without fast math
// (`-fno-fast-math` / MTLCompileOptions.fastMathEnabled = NO).
//
// Metal has no double: kernels with fp64 values are refused for good; refused "not lowered
// by the MSL renderer yet" (frontend::CompileError at the op, "metal backend: <op> not
// supported: <why>"): casts whose exact rounding goes through fp64 (dots rounding an fp64
// accumulator to fp16), fma on bf16, erfc / log1p / expm1 /
// cbrt / hypot (not in the Metal standard library), atomics on elements other than 32-bit
// (32-bit ones are compare-and-swap loops on device atomic_uint), tl.device_print, integers
// made into pointers, and what the CPU renderer refuses.
//
// The same text runs on the CPU in the msl-emu backend (codegen/metal/msl_emu.h), so every
// MSL text tritium emits is compiled and executed in CI.
#pragma once
#include <string>
#include <vector>

#include "ir/ir.h"
#include "runtime/device.h"

namespace tritium::codegen {

/// A rendered MSL program and what its launcher needs besides the text.
struct MslProgram {
  std::string text;
  /// Run-time failure sites, by site number - 1: the complete message of a failure at each,
  /// up to the program's coordinates (the CPU backend's wording). Non-empty: the kernel takes
  /// `device atomic_uint* tr_status` after the parameters, set to 0xffffffff before a launch;
  /// afterwards it holds 0xffffffff or (linear program id * failures.size() + site - 1) of
  /// the lowest failing program's first failure (the launcher refuses grids whose programs
  /// times sites do not fit in 32 bits).
  std::vector<std::string> failures;
  /// The kernel's parameters (the IR function's arguments), for launchers that bind them.
  std::vector<ir::Type> params;
};

/// Renders the kernel of `m` (as render_cpu picks it) as an MSL program with entry point
/// `tritium_kernel`. The text depends only on the IR and `opts`. Throws
/// frontend::CompileError for what the MSL renderer refuses (see the file comment).
MslProgram render_msl_program(const ir::Module& m, const runtime::CodegenOptions& opts);

/// The program text alone (`tritium compile --emit msl`).
std::string render_msl(const ir::Module& m, const runtime::CodegenOptions& opts);

/// The MSL prelude embedded at the top of every program.
const char* msl_prelude();

}  // namespace tritium::codegen
