// The CUDA code generator: renders the (inlined, optimised) IR of one kernel specialisation
// as one CUDA C++ translation unit for NVRTC, one CUDA block (of 32 * num_warps threads) per
// Triton program, grid = the launch grid.
//
// Every tensor value lives distributed over the block's threads in the layout the planner
// chose (cuda_layouts.h): thread (lane, warp) holds the elements of registers 0..R-1 of the
// layout in a local array. Elementwise ops are per-register code; ops that only move
// elements (splat, broadcast, expand_dims, reshape, trans, join, make_range, constants)
// emit nothing and are read through the layout algebra; a value read in a layout whose lane
// and warp bits differ from its own goes through shared memory (a conversion). Reductions
// combine in the interpreter's canonical halving order (interpreter.h) — registers in-thread,
// lanes with __shfl_xor_sync, warps through shared memory — so results are the reference
// interpreter's bits. Loads and stores use 16-byte (or narrower) vector accesses where axis
// analysis proves contiguity, alignment and a uniform mask over the vector. tl.dot is a
// per-thread fp32 (or the accumulator's type) FMA chain over k ascending with operands in
// shared memory: exactly the interpreter's ieee dot (tensor cores come next, issue 4).
//
// Numerics: the scalar prelude's helpers (codegen/scalar_prelude.h) as on the CPU, compiled
// with --fmad=false, so every op but the libm-backed math functions (sin, cos, erf, tanh,
// pow, ...: CUDA's own there) gives the interpreter's bits in both numerics modes.
//
// Kernel parameters: one tritium_arg slot (8 bytes, runtime/kernel_abi.h) per kernel
// argument, then `int32_t* tr_fail` (a device word block the runtime reads after the
// launch: a failed device_assert or a non-positive loop step, with the program id).
//
// Anything the renderer cannot lower is a frontend::CompileError at the op's location:
// "cuda backend: <op> not supported: <why>".
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "runtime/device.h"

namespace tritium::codegen {

/// One failure site of a kernel (tr_fail[4] holds its index + 1 after a failure).
struct CudaFailSite {
  std::string message;  ///< e.g. "device_assert failed: x > 0"
  std::string file;
  int64_t line = 0;
};

/// A rendered CUDA kernel.
struct CudaKernelSource {
  std::string source;   ///< the translation unit (prelude included)
  std::string entry;    ///< the extern "C" kernel name
  int threads = 128;    ///< threads per block (32 * num_warps)
  int64_t shared_bytes = 0;  ///< dynamic shared memory per block
  std::vector<CudaFailSite> fail_sites;
  /// Uses sm_90a instructions (wgmma, TMA): compile for sm_90a / compute_90a, not sm_90.
  bool sm90a = false;
  /// Global memory each program needs (bytes; its tensor maps): the launcher passes
  /// programs x this many bytes as the kernel's last parameter `tr_gscratch` (null for 0).
  int64_t global_scratch_bytes = 0;
};

/// Renders the kernel of `m` (the function marked is_kernel, else the first one) for a GPU
/// of compute capability `sm` / 10 (90: H100 / H200, where dots may use wgmma) allowing
/// `shared_limit` bytes of shared memory per block (pipelining stages are lowered to fit).
/// Throws frontend::CompileError for a construct the CUDA backend cannot lower.
CudaKernelSource render_cuda(const ir::Module& m, const runtime::CodegenOptions& opts, int sm = 90,
                             int64_t shared_limit = 232448);

namespace cuda {
/// The device-side prelude embedded at the top of every generated unit.
const char* cuda_prelude();
}  // namespace cuda

}  // namespace tritium::codegen
