// The CPU backend's code generator: renders the (inlined, optimised) IR of one kernel
// specialisation as one self-contained C++ translation unit.
//
// The unit embeds the prelude (cpu_prelude(): type helpers and the exact numerics of every
// op), defines one function per program and exports the launch entry point of
// runtime/kernel_abi.h:
//
//   extern "C" void tritium_run(const tritium_arg* args, const int32_t grid[3],
//                               int64_t first, int64_t end, const tritium_host* host);
//
// which runs programs [first, end) of the grid in order (x fastest). Tensors are local
// arrays in row-major order, scalars are locals. Chains of elementwise ops (and splat,
// broadcast, expand_dims, reshape, trans, make_range) are fused into the loop of the op
// that consumes them: their values become loop-local scalars, broadcasts become index
// arithmetic. A value is stored in an array only when several loops read it (and
// recomputing it is not cheap), when it is read inside a nested region, when a broadcast
// would recompute it, or when its op needs one (load, dot, reduce, scan, control flow).
//
// Numerics match the reference interpreter bit for bit: reductions combine element i with
// element i + n/2 (lower index on the left) until one remains; dot is a sequential FMA
// chain over k ascending per output element; fp16/bf16 arithmetic is done in fp32 and
// rounded after every op; no contraction.
//
// Anything the renderer cannot lower is a frontend::CompileError at the op's location:
// "cpu backend: <op> not supported: <why>".
#pragma once
#include <string>

#include "ir/ir.h"
#include "runtime/device.h"

namespace tritium::codegen {

/// Renders the kernel of `m` (the function marked is_kernel, else the first one) as C++
/// source for the CPU backend (`tritium compile --emit cpp`). The text depends only on the
/// IR and `opts`, so it can be hashed as a cache key.
std::string render_cpu(const ir::Module& m, const runtime::CodegenOptions& opts);

/// The kernel function of `m` that render_cpu renders. Throws std::invalid_argument for a
/// module without functions.
const ir::Function& cpu_kernel_function(const ir::Module& m);

namespace cpu {
/// The runtime header embedded at the top of every generated unit.
const char* cpu_prelude();
/// The sanitize-mode checks generated code calls (CodegenOptions::sanitize): tr_san_ok(host,
/// slot, nargs, p, n) — whether the n bytes at p lie in parameter slot `slot`'s buffer
/// (slot < 0: in any argument's) of host->bounds — and tr_san_fail(...), which reports the
/// access through host->assert_fail. Needs tritium_bounds / tritium_host (kernel_abi.h's
/// layout), TR_INLINE, snprintf and the fixed-width integer types declared before it.
const char* sanitize_prelude_text();
}  // namespace cpu

}  // namespace tritium::codegen
