// The Metal backend's code generator: renders the (inlined, optimised) IR of one kernel
// specialisation as one Metal Shading Language program, in one of two shapes.
//
// Both start with the MSL prelude (msl_prelude(): `#include <metal_stdlib>`, the scalar
// prelude's helpers written as the OpenCL C prelude writes them, one copy per element type,
// without any helper that computes in double) and hold one kernel `tritium_kernel` whose
// parameters are, per IR parameter k, `device T* aK [[buffer(K)]]` for a pointer (the
// buffer bound at the argument's offset) or `constant T& aK [[buffer(K)]]` for a scalar
// (int1 as uchar, fp16 / bf16 as their ushort bits), then `device atomic_uint* tr_status
// [[buffer(N)]]` for kernels with run-time failures, then the shape's own:
//
// The threadgroup shape (msl_simt.cpp; chosen where it lowers the kernel):
//   threadgroup uchar* tr_dyn_smem [[threadgroup(0)]], uint3 tr_pid
//   [[threadgroup_position_in_grid]], uint3 tr_npid [[threadgroups_per_grid]], uint tr_tid_in
//   [[thread_index_in_threadgroup]] — dispatched as threadgroups of MslProgram::threads =
//   32 x num_warps threads (simdgroups of 32: the runtime must check the pipeline's
//   threadExecutionWidth), one per program, with MslProgram::threadgroup_bytes (<= 32 KB)
//   of threadgroup memory. The body is the CUDA renderer's emitter in its Metal target
//   (codegen/cuda, cuda::Target::Msl): tensors distributed over the threads in the CUDA
//   renderer's layouts; reductions in the canonical order (lane bits by simd_shuffle_xor,
//   warp bits through threadgroup memory between threadgroup_barriers); dots as FMA chains
//   over k ascending, the operands staged in threadgroup memory (in chunks of k where the
//   whole operands pass 32 KB); atomics as compare-and-swap loops. Portable numerics give
//   the interpreter's bits; native numerics reduce floats in the cheaper order, as the cuda
//   backend does (no tensor cores, no approximate math: Metal compiles without fast math).
//
// The serial shape (the CPU renderer's emitter in Dialect::MSL; the fallback):
//   uint3 tr_pid [[threadgroup_position_in_grid]], uint3 tr_npid [[threadgroups_per_grid]]
//   — threadgroups of ONE thread, one per program; tensors are thread-private arrays in
//   row-major order, reductions combine element i with i + n/2, dot is a sequential FMA
//   chain, so the results are the interpreter's bits in either numerics. Chosen, with the
//   reason in MslProgram::serial_reason and the program's second comment line, for kernels
//   the threadgroup renderer refuses with cuda::SimtUnsupported: those needing more than
//   32 KB of threadgroup memory, and the constructs the serial renderer refuses too.
//
// In both, program_id = threadgroup_position_in_grid and num_programs =
// threadgroups_per_grid, 1-D, 2-D and 3-D grids alike, and Metal must compile without fast
// math (`-fno-fast-math` / MTLCompileOptions.fastMathEnabled = NO).
//
// Metal has no double: kernels with fp64 values are refused for good; refused "not lowered
// by the MSL renderer yet" (frontend::CompileError at the op, "metal backend: <op> not
// supported: <why>"): casts whose exact rounding goes through fp64 (dots rounding an fp64
// accumulator to fp16), fma on bf16, erfc / log1p / expm1 /
// cbrt / hypot (not in the Metal standard library), atomics on elements other than 32-bit
// (32-bit ones are compare-and-swap loops on device atomic_uint), tl.device_print, integers
// made into pointers, and what the CPU renderer refuses.
//
// The same text runs on the CPU in the msl-emu backend (codegen/metal/msl_emu.h: a
// threadgroup's threads as fibers), so every MSL text tritium emits is compiled and
// executed in CI.
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
  /// Threads per threadgroup: 1 (the serial shape) or 32 x num_warps (the threadgroup
  /// shape, with `threadgroup_bytes` of threadgroup memory bound at index 0).
  int threads = 1;
  int64_t threadgroup_bytes = 0;
  /// The serial shape chosen for a kernel the threadgroup renderer does not lower: why
  /// (also the program's second comment line); "" otherwise.
  std::string serial_reason;
};

/// Threadgroup memory Metal guarantees on every Apple GPU (bytes); the threadgroup shape
/// refuses a kernel needing more.
constexpr int64_t kMslThreadgroupMemoryLimit = 32 * 1024;

/// Buffers Metal binds to one kernel (argument table indices 0-30); a kernel needing more
/// (parameters plus the status word) is refused.
constexpr size_t kMslMaxBuffers = 31;

/// Which shape of program to render: Auto is the threadgroup shape where the threadgroup
/// renderer lowers the kernel, else the serial shape (the reason kept in serial_reason).
enum class MslShape { Auto, Serial, Threadgroup };

/// Renders the kernel of `m` (as render_cpu picks it) as an MSL program with entry point
/// `tritium_kernel`. The text depends only on the IR and `opts`. Throws
/// frontend::CompileError for what the MSL renderer refuses (see the file comment).
MslProgram render_msl_program(const ir::Module& m, const runtime::CodegenOptions& opts,
                              MslShape shape = MslShape::Auto);
/// The serial shape of the kernel of `m`, `reason` (why not the threadgroup shape) in the
/// program's second comment line and MslProgram::serial_reason: for a device whose
/// pipelines cannot run the threadgroup shape (the metal backend checks each pipeline).
/// With opts.sanitize (msl-emu only: the text then does not compile for Metal) every load,
/// store and atomic is checked as the cpu backend checks them (cpu_codegen.h,
/// sanitize_prelude_text), through `static tritium_host tr_san_host`, which the msl-emu
/// launcher sets per launch (msl_emu_driver).
MslProgram render_msl_serial(const ir::Module& m, const runtime::CodegenOptions& opts, const std::string& reason);
/// The threadgroup shape of `fn` (msl_simt.cpp). Throws cuda::SimtUnsupported for what it
/// does not lower yet, frontend::CompileError for what Metal cannot run.
MslProgram render_msl_threadgroup(const ir::Function& fn, const runtime::CodegenOptions& opts);

/// The program text alone (`tritium compile --emit msl`).
std::string render_msl(const ir::Module& m, const runtime::CodegenOptions& opts);

/// The MSL prelude embedded at the top of every program.
const char* msl_prelude();

}  // namespace tritium::codegen
