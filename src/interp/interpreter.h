// The reference interpreter: executes the IR directly. It is tritium's executable
// specification — every backend (the CPU code generator first) is tested against it and,
// in portable numerics mode, must reproduce its results bit for bit (NaN payloads aside).
//
// ======================================================================================
// SEMANTICS
// ======================================================================================
//
// Launch. `run` executes the kernel (the first function of the module with is_kernel set)
// once per program of the grid, programs numbered x-fastest (linear = x + gx·(y + gy·z)) and
// executed in that order (num_threads > 1 splits them over threads: then programs run
// concurrently, as on a device). `args` holds one tritium_arg per kernel parameter
// (src/runtime/kernel_abi.h): pointers are host addresses; ints are read from `i64`/`u64`
// and truncated to the parameter's width; int1 is (u64 != 0); fp32 from `f32`; fp64 from
// `f64`; fp16/bf16 from the low 16 bits of `u64`, fp8 from its low 8 bits.
//
// Values. Scalars and tensors (static shape, row-major element order) of every ScalarType,
// or of pointers. Elements are stored as raw bits of their type (fp16/bf16/fp8 as 16/8-bit
// patterns, int1 as one byte holding 0 or 1, pointers as 64-bit addresses), so every dtype
// is exact. The interpreter runs op by op over whole tensors.
//
// Integers (int1 and uint* are unsigned, int8..int64 signed — as upstream, where int1 is in
// UINT_TYPES):
//   * add, sub, mul, neg, abs wrap (two's complement) at the type's width.
//   * idiv truncates toward zero, rem has the dividend's sign (C). x idiv 0 = all ones
//     (-1 signed, UINT_MAX unsigned), x rem 0 = x (what PTX div/rem hardware returns);
//     INT_MIN idiv -1 = INT_MIN, INT_MIN rem -1 = 0.
//   * shl, shr: the amount is operand b read as UNSIGNED bits of its type. Amount >= width:
//     shl → 0, logical shr (unsigned types) → 0, arithmetic shr (signed) → 0 or -1 (sign
//     fill) — PTX's clamping; so a negative signed amount shifts everything out.
//   * and/or/xor/not bitwise (int1: logical). min/max/cmp by signedness.
//   * math umulhi: high half of the UNSIGNED double-width product (any int type).
//     clz, popc: count in the operand's width, written to the result type.
//
// Floats:
//   * fp32 ops are computed in float, fp64 in double, one IEEE operation each (no excess
//     precision, no contraction: each IR op is evaluated and rounded on its own, and the
//     interpreter's sources hold no a·b+c expression a compiler could fuse in a way that
//     changes a result; building tritium_core with -ffp-contract=off is still advised).
//   * fp16, bf16 and fp8 operands are converted exactly to fp32, the operation is done in
//     fp32 and the result rounded once (RNE) to the type. For + − × ÷ √ (and fmod, min, max,
//     floor, ceil, trunc, rint, round, abs, copysign) this equals correctly rounded native
//     arithmetic in the narrow type (fp32 has >= 2p+2 bits). fma on narrow types is the exact
//     a·b+c rounded once to the type (fp_fma_narrow). Other math functions on narrow types
//     are "fp32 function, then round" (upstream refuses most of them on fp16 anyway).
//   * div: IEEE division (attr rounding "" and "rn" alike). rem on floats: C fmod.
//   * exp, exp2, log, log2 on fp32 are tritium's own (src/common/tmath.inc: tr_expf, ...,
//     <= 0.79 ulp, the same text the CPU prelude embeds); the other math functions on fp32
//     call the float versions of <cmath> (sinf, cosf, tanf, erff, erfcf, tanhf, log1pf, expm1f, powf, atanf, atan2f, asinf,
//     acosf, sinhf, coshf, log10f, cbrtf, hypotf, fmodf, floorf, ceilf, truncf, rintf,
//     roundf (half away from zero), copysignf, exp10 = exp10f/powf(10,x)); fp64 the double
//     versions. sqrt and sqrt_rn: correctly rounded sqrtf. rsqrt = 1.0f / sqrtf(x) (two
//     correctly rounded steps). fma: fmaf / fma (single rounding). abs and neg flip/clear the
//     sign bit only (also for NaN). isnan/isinf/signbit give int1.
//   * min/max: attr propagate_nan = 0 → the non-NaN operand wins (both NaN → the first
//     operand); 1 → NaN if either operand is NaN (the first NaN operand). min(−0,+0) = −0 and
//     max(−0,+0) = +0 in either operand order.
//   * cmp: eq, lt, le, gt, ge are ordered (false with a NaN operand); ne is unordered (true
//     with a NaN operand). −0 == +0.
//   * Subnormals are kept everywhere (no flush to zero).
//   * NaN payload bits are not part of the cross-backend contract; results are NaN exactly
//     where this interpreter gives NaN.
//
// Casts (op `cast`, attr rounding "" / "rtne" = RNE, "rtz" = toward zero; rounding applies
// to float→float narrowing only):
//   * int→int: truncate, or sign-/zero-extend by the SOURCE signedness (int1 source is 0/1).
//   * any→int1: x != 0 (floats: unordered, so NaN → 1; pointers: address != 0).
//   * int→float: the exact integer rounded once (RNE) to the target (never via fp64 for
//     64-bit sources).
//   * float→int: truncate toward zero, saturate to the target range, NaN → 0 (PTX
//     cvt.rzi.sat semantics; tritium pins this for every width).
//   * float→float: widening is exact; narrowing rounds once from the exact source value
//     with the attr's rounding; overflow, Inf, NaN and the fp8 formats as documented in
//     src/common/float_formats.h (fp16/bf16: RNE overflow → ±Inf, RTZ overflow → ±max;
//     fp8e4nv/fp8e5/fp8e4b15 saturate to ±max finite).
//   * pointer↔pointer keeps the address; pointer→int the address truncated; int→pointer
//     the value extended by its signedness.
//   * bitcast reinterprets the bits (same width; pointer ↔ pointer/int64/uint64).
//   * constant: int attr truncated to the type (int1: value != 0); float attr (a double)
//     rounded RNE to the type.
//
// Pointers and memory:
//   * addptr p, off = p + off·byte_size(pointee) (off extended by its signedness; int1
//     pointee counts 1 byte), wrapping at 64 bits. ptr_to_int / int_to_ptr as casts.
//   * load reads byte_size(pointee) bytes at each lane's address (int1: one byte, != 0);
//     store writes them (int1 stores 0 or 1). Masked-out lanes never touch memory; masked-out
//     loads give `other`, else 0, else — with Options::poison_masked_loads — poison_bits().
//   * atomic_rmw applies its lanes in row-major order and returns the old values (masked-out
//     lanes: 0, or poison); rmw add/fadd add (narrow floats: in fp32, rounded RNE), and/or/
//     xor bitwise, max/min as the min/max ops with propagate_nan = 0, xchg swaps.
//     atomic_cas compares bit patterns. With num_threads > 1 atomics are serialized.
//
// Shapes: make_range [start, end) as int32; splat; broadcast (size-1 dims repeat);
// expand_dims and reshape keep the row-major element order; trans: result dim i = operand
// dim perm[i]; join stacks two tensors on a new minor dim of size 2 (element [..., 0] from
// the first operand); split is its inverse; cat concatenates along dim 0 (also with
// can_reorder=1: the interpreter never reorders).
//
// Gather (tl.gather, attr axis, src of rank R, index of the same rank, equal to src off the
// axis): out[.., i, ..] = src[.., index[.., i, ..], ..], moving the bits. The index is read
// by its own signedness (uint64 values >= 2^63 count as out of range). An index outside
// [0, n) (n = src's axis length) — upstream leaves it undefined on GPUs — never reads
// outside src: that element of the result has all bits zero (0, +0.0, a null pointer), as
// a load masked off with other=0 would give. In debug mode the frontend also emits an
// assert "tl.gather index out of range [0, n)" before the op, so the launch fails.
//
// Histogram (tl.histogram, result tensor<B x i32>): counts[b] = the number of unmasked
// elements equal to b, for b in [0, B); the value is read by its type's signedness, and
// values outside [0, B) (negative ones included) are not counted anywhere — the rule of
// upstream's NVIDIA lowering since 2026-02 (unsigned value < B); 3.6's ballot lowering
// kept only the low bits, so its out-of-range counts are not a contract. Mask (optional,
// int1 of the input's shape): masked-off elements are not counted.
//
// Reduce — the CANONICAL ORDER every backend reproduces in portable mode. Along the reduced
// axis of length n (a power of two), pairs are combined as a halving tree: in each round
// element i is combined with element i + n/2 for every i < n/2 (lhs = lower index, rhs =
// higher index), and the n/2 results form the next round; stop when one element is left.
// A length-1 axis returns the element unchanged. Worked example, n = 8, elements x0..x7:
//   round 1: y0 = c(x0,x4), y1 = c(x1,x5), y2 = c(x2,x6), y3 = c(x3,x7)
//   round 2: z0 = c(y0,y2), z1 = c(y1,y3)
//   round 3: result = c(z0,z1)
// The combine region is the function c: its block arguments are (lhs operands..., rhs
// operands...) and it yields one value per operand; all operands of a multi-operand reduce
// (e.g. argmax's (value, index)) are combined together at every step. Each combine is an
// independent evaluation of the region on scalars (the interpreter evaluates a round's
// independent combines together when the region is plain elementwise arithmetic).
//
// Scan: inclusive, in index order along the axis: acc_0 = x_0, acc_i = c(acc_{i-1}, x_i)
// (lhs = running value). With reverse = 1 from the end: acc_{n-1} = x_{n-1},
// acc_i = c(acc_{i+1}, x_i).
//
// Sort (tl.sort) along the last dimension, n = 2^L: upstream's bitonic network, so NaNs and
// equal values (-0 / +0) land where Triton's do. For stage s = 1..L and i = s-1 down to 0,
// every position p (column index) takes its partner q = p ^ 2^i's value when
// (x[p] > x[q]) != (f ^ bit_i(p)), where f = bit_s(p) for s < L and `descending` at s = L;
// `>` is the element type's comparison (false with a NaN), the values move as bits.
// Top-k (tl.topk, k = 2^K < n): the first K stages as above (alternating, the last of them
// too), then for each further stage the row halves, keeping of each pair 2^K apart the max
// (descending; a NaN loses to a number, +0 > -0) or the min, followed by a K-round merge
// (alternating, in the row's direction at the last stage).
// Bitonic merge (tl.bitonic_merge, attr merge = 1): stage s = L alone, with f = `descending`.
//
// MapElementwise (tl.map_elementwise): the region runs once per element, in linear order,
// with scalar arguments (the operands' elements at that position); its yields are the
// results' elements there. Control flow in the region is per element.
//
// Dot a[M,K] · b[K,N] + acc[M,N] (or batched [B,M,K]·[B,K,N]+[B,M,N]): for each output
// element, r = acc[m,n]; for k = 0..K-1 ascending: r = fma(a[m,k], b[k,n], r); a and b are
// converted exactly to the accumulator type first:
//   * fp32 accumulator (fp16/bf16/fp8/fp32 inputs): fmaf per step;
//   * fp64: fma per step;
//   * fp16 / bf16 accumulator (out_dtype): each step is the exact a·b+r rounded once to the
//     accumulator type;
//   * integer accumulator (int8 inputs → int32): r = r + a·b wrapping at its width, inputs
//     extended by their signedness.
// input_precision tf32 / tf32x3 are computed as ieee (the CPU has no tf32; GPU results
// differ within tf32 tolerance); max_num_imprecise_acc is ignored.
//
// Control flow (structured): for iterates iv = lb, lb+step, ... while iv < ub, with the trip
// count computed once from lb, ub, step (signed comparison for signed iv types, unsigned
// otherwise; the frontend normalizes negative constant steps as upstream does — a
// non-positive step at run time with lb < ub is refused as an error); the body's yield feeds
// the next iteration, the last yield (or the inits, for zero trips) gives the results.
// if runs one region; while alternates region "before" (ending in condition(c, vals...)) and
// "after" (yield → next before args); the results are the condition's vals when c is false.
// call interprets the callee Function of the module (its return values are the results);
// return ends the current function.
//
// Debugging: assert (evaluated when Options::debug) fails if any element of its condition is
// 0; the program then runs to its end and run() throws std::runtime_error
//   "device_assert failed: <msg> at <file>:<line> in <kernel>, program (x, y, z)"
// (the first failure of the lowest failing program; later programs are not started).
// print emits, per operand and element, one line formatted like upstream device_print:
//   "pid (x, y, z) idx (i, j)<prefix><value>"  ("(operand k) " before the value when the op
// has several operands; idx fields padded to ceil(log10(dim)) digits; floats "%f", signed
// "%i"/"%lli", unsigned "%u"/"%llu", hex (attr hex=1) "0x%0Nx" with N = bits/4, pointers
// "0x…"); the prefix attr is printed verbatim (the frontend adds upstream's " name: " form);
// with no operands one line "pid (x, y, z)<prefix>". barrier: no-op. hint: identity.
//
// Errors: an op the interpreter cannot execute (unknown attribute values, unsupported
// dtypes) raises frontend::CompileError at the op's location, naming the op.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "runtime/kernel_abi.h"

namespace tritium::interp {

/// Options of one interpreter run.
struct Options {
  /// Fill masked-out lanes of loads without `other` (and of atomics) with poison_bits()
  /// instead of 0, so reads of undefined lanes show up in results.
  bool poison_masked_loads = false;
  /// Evaluate `assert` ops (tl.device_assert); when false they are skipped.
  bool debug = true;
  /// Receives each device_print line (without a trailing newline); default: stderr.
  std::function<void(const std::string&)> print;
  /// Threads the programs of the grid are spread over (1 = sequential, in program order).
  int num_threads = 1;
};

/// Runs the kernel of `m` (the first function with is_kernel) for every program of `grid`,
/// with `args` per the launch ABI of src/runtime/kernel_abi.h (pointers are host
/// addresses). Helpers may be inlined already or reached through `call` ops.
/// Every function of `m` is verified first (ir::verify_or_throw: std::logic_error for invalid
/// IR). Throws std::invalid_argument for a wrong argument count or grid, std::runtime_error for
/// a failed device_assert (naming kernel, file:line and program id), and
/// frontend::CompileError for ops it cannot execute.
void run(const ir::Module& m, const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args,
         const Options& options = {});

/// The poison pattern of masked-out lanes in Options::poison_masked_loads mode, as raw bits of
/// `t` (zero-extended to 64 bits): quiet NaNs with a 0xDEAD… payload for fp16 (0x7EAD),
/// bf16 (0x7FDE), fp32 (0x7FDEADBE), fp64 (0x7FFDEADBEEFDEADB); 0x7F for the fp8 formats
/// (NaN for fp8e4nv/fp8e5; fp8e4b15 has no NaN: its max); 0xDEADBEEFDEADBEEF truncated to the
/// width for integers (int1: 1) and pointers.
uint64_t poison_bits(ir::ScalarType t, bool is_ptr = false);

}  // namespace tritium::interp
