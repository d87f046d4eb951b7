// Layouts for the CUDA renderer: the layout every tensor value of a kernel is computed in,
// and the GF(2) layout algebra of the ops that only move elements (expand_dims, broadcast,
// reshape, trans, join, reduce's slice), which the renderer uses to read an operand "as if"
// it had another layout without moving data (codegen/cuda/cuda_emitter.h).
//
// Every layout here is *simple*: each basis vector (layout/linear_layout.h) is zero (a
// broadcast / duplicate bit) or a single coordinate bit (one dimension, a power of two), and
// every coordinate bit of the shape is produced by exactly one hardware bit. Blocked layouts
// are simple, and each function below maps simple layouts to simple layouts.
//
// plan_layouts rules (Triton's coalescing and layout propagation, simplified):
//  * backward, from the end: a load / store / atomic through a tensor of pointers wants the
//    coalesced layout of its pointer (layout/choose.h over axis analysis) for its operands;
//    a wanted layout flows to the operands of same-shape elementwise ops, and through the
//    element-moving ops by their inverse (broadcast: projected; expand_dims: the dim
//    dropped; trans / reshape: undone); the first want seen from the end wins;
//  * forward, in program order: accesses take their anchor; values with a want take it;
//    elementwise ops the layout of their first tensor operand; element-moving ops the
//    forward image of their operand's layout; reduce the slice of its operand's; loop-carried
//    values (for / while) and if results the layout of their initial value (else branch:
//    the then branch's); everything else the default blocked layout of its shape.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "layout/linear_layout.h"

namespace tritium::codegen::cuda {

using layout::HwDim;
using layout::LinearLayout;

/// The smallest n with 2^n >= x (x >= 1): log2 of a power of two.
int log2i(int64_t x);
/// True when `l` is simple (see the file comment).
bool is_simple(const LinearLayout& l);
/// A key identifying `l` (shape and bases), for maps.
std::string layout_key(const LinearLayout& l);

/// The layout of expand_dims(axis) of a tensor in `l` (a zero component inserted).
LinearLayout insert_dim(const LinearLayout& l, int axis);
/// The inverse: `l`'s shape has extent 1 at `axis`; the component is dropped.
LinearLayout remove_dim(const LinearLayout& l, int axis);
/// For broadcast to l.shape() from `operand_shape` (same rank, 1 where broadcast): the
/// operand's layout holding, at every position, the element that position needs (the
/// broadcast dims' components zeroed).
LinearLayout project(const LinearLayout& l, const std::vector<int64_t>& operand_shape);
/// The forward image of `l` under broadcast to `shape`: the new dims' bits are taken by
/// `l`'s broadcast lane and warp bits first (lowest first), then by new register bits.
LinearLayout broadcast_fwd(const LinearLayout& l, const std::vector<int64_t>& shape);
/// The same hardware positions holding the same elements of the row-major reshape to
/// `shape` (same number of elements).
LinearLayout reshape_layout(const LinearLayout& l, const std::vector<int64_t>& shape);
/// trans(perm): result dim i = operand dim perm[i].
LinearLayout permute(const LinearLayout& l, const std::vector<int64_t>& perm);
/// The inverse of permute(., perm).
LinearLayout unpermute(const LinearLayout& l, const std::vector<int64_t>& perm);
/// The layout of reduce(axis) of a tensor in `l`: register bits along `axis` dropped (their
/// indices, ascending, in *dropped*), lane / warp bits along it become broadcast bits.
LinearLayout slice_layout(const LinearLayout& l, int axis, std::vector<int>* dropped = nullptr);
/// `l` with its last dimension (extent 2, as join makes) removed (that bit becomes zero).
LinearLayout drop_minor(const LinearLayout& l);
/// The layout of join(a, b) from the operands' layout `l`: a new minor dimension of extent
/// 2 held by a new (top) register bit.
LinearLayout join_layout(const LinearLayout& l);

/// The default layout of a tensor of `shape`: blocked, one element per thread, lanes and
/// warps along the dimensions from the last.
LinearLayout default_layout(const std::vector<int64_t>& shape, int num_warps);

/// The tensor-core instruction of a dot: mma.sync m16n8k16 with fp16 / bf16 operands and
/// an fp32 accumulator, m16n8k32 with int8 operands and an int32 accumulator (exact, as the
/// interpreter), m16n8k8 with tf32 operands (fp32 operands, input_precision "tf32", the
/// default, as upstream Triton's on NVIDIA: operands rounded to 10 mantissa bits, fp32
/// accumulation).
enum class MmaKind { F16, BF16, S8, TF32 };
/// The tensor-core lowering of a tl.dot (MmaKind): rank 2, M % 16 == 0, N % 8 == 0, K a
/// multiple of the instruction's k, native numerics (tensor cores add in their own order:
/// portable mode keeps the FMA chain; input_precision "ieee" / "tf32x3" too; int8 / tf32
/// also where operands and the accumulator's conversion would pass 227 KiB). The
/// warps tile M first (wm of them), then N (wn); each warp holds mt x nt accumulator
/// fragments and reads kt k-steps. Layouts (PTX ISA, "Matrix fragments for mma.m16n8k16"):
///   acc [M,N]: register bits col 1, row 8, then n-tiles, m-tiles; lane bits col 2, 4,
///              row 1, 2, 4; warp bits row 16.. (wm), col 8.. (wn);
///   a [M,K]:   register bits k 1, row 8, k 8, then k-tiles, m-tiles; lane bits k 2, 4,
///              row 1, 2, 4; warp bits row (wm), broadcast (wn);
///   b [K,N]:   register bits k 1, k 8, then k-tiles, n-tiles; lane bits k 2, 4, col 1, 2, 4;
///              warp bits broadcast (wm), col (wn).
/// (16-bit operands; for int8 and tf32 the k bits scale by epr below: the same bytes.)
/// A warp count the tiles cannot use is left broadcast (those warps repeat the work).
struct MmaPlan {
  bool ok = false;
  bool bf16 = false;
  MmaKind kind = MmaKind::F16;
  /// Operand elements per 32-bit fragment register: 2 (fp16 / bf16), 4 (int8), 1 (tf32).
  /// The fragment layouts below are those of the 16-bit case in bytes: k steps scale by it.
  int epr = 2;
  /// Lowered to wgmma.mma_async (sm_90a; cuda_emit_wgmma.cpp) instead of mma.sync: the
  /// target is sm_90, num_warps a multiple of 4, M a multiple of 16 * num_warps (warps
  /// along M: warpgroup g's m64 instruction i covers rows 64 * (g + (num_warps / 4) * i)),
  /// N a multiple of 16 up to 256. The accumulator and register-operand layouts are the
  /// ones below with wm = num_warps (wgmma's fragments per warp are mma.sync's).
  bool wgmma = false;
  int64_t mt = 0, nt = 0, kt = 0;  ///< fragments per warp along M, N and k-steps along K
  /// Warps along M and N (wm * wn = num_warps, or fewer for small tiles). Warp w covers rows
  /// 16 * (w % wm) + 16 * wm * i and columns 8 * ((w / wm) % wn) + 8 * wn * j.
  int64_t wm = 1, wn = 1;
  LinearLayout acc{{1}, {{}, {}, {}}}, a{{1}, {{}, {}, {}}}, b{{1}, {{}, {}, {}}};
};
/// The mma lowering of Dot op `dot` for `num_warps`, or ok = false where it does not apply.
/// Warps split M and N so that each warp's tile is as square as the shape allows (fewer
/// fragment loads per mma), or, with `warps_along_m`, M only (each warp owns whole rows:
/// the row reductions between chained dots, as in attention, stay inside a warp).
/// `sm`: the target's compute capability x 10 (90: H100 / H200; wgmma needs exactly 90);
/// kNoTensorCores: none (the MSL target), every dot is the FMA chain.
constexpr int kNoTensorCores = -1;
MmaPlan mma_plan(const ir::Op& dot, int num_warps, bool portable, bool warps_along_m = false, int sm = 0);
/// True when `fn` has more than one dot (a chain such as attention's QK^T then PV):
/// its dots put their warps along M (upstream Triton does the same for chained dots).
bool mma_warps_along_m(const ir::Function& fn);

/// The layout of every tensor value of `fn` (block arguments of regions included).
struct LayoutPlan {
  std::map<const ir::Value*, LinearLayout> layouts;
  bool mma_along_m = false;  ///< mma_warps_along_m(fn): pass to mma_plan
  int sm = 0;                ///< the target's compute capability x 10: pass to mma_plan
  /// The layout of `v`; throws std::logic_error when the plan has none.
  const LinearLayout& of(const ir::Value* v) const;
};
/// Plans `fn` for programs of `num_warps` warps of 32 lanes (see the file comment); a dot
/// with a tensor-core lowering (mma_plan) computes in the mma accumulator layout, and its
/// accumulator operand (a loop-carried value included) is wanted there.
LayoutPlan plan_layouts(const ir::Function& fn, int num_warps, bool portable = false, int sm = 0);

}  // namespace tritium::codegen::cuda
