// CUDA renderer: bulk tensor copies (TMA, sm_90a) for the pipelined dot operands that are
// tensor-descriptor windows (cuda_emit_pipeline.cpp plans them).
//
// The frontend records the window such a load reads (ops.def, Load attr "window": base,
// offsets, shape, strides; every dimension bounds-checked, zero padding; "window_desc" for a
// descriptor's — not block pointers, whose strides may be negative). Where it is
// 2-D, 16-bit, contiguous along its last dimension, with a base and a row stride proved to be
// multiples of 16 bytes, each ring slot's tile is filled by the Tensor Memory Accelerator
// instead of per-thread cp.async copies: one thread issues one box per column block of the
// tile (W = min(cols, 64) elements wide: 128-, 64- or 32-byte swizzle, which is exactly the
// tile layout wgmma and ldmatrix read, Emitter::tile_index) and the box's bytes complete the
// slot's mbarrier; elements outside the tensor arrive as zeros, which is the masked load's
// value (`other` = 0). So values are exactly those of the cp.async and synchronous paths.
//
// The tensor maps are written by the kernel itself, before the loop (upstream Triton creates
// its device-side descriptors the same way): warp 0 zeroes a 128-byte staging area in shared
// memory (after the slots' mbarriers, PipePlan::tmap_offset), lane 0 sets its fields with
// tensormap.replace (PTX ISA 8.3, sm_90a), and the warp copies it to the program's global
// scratch with tensormap.cp_fenceproxy (field-by-field writes in global memory cost a matmul
// at 4096^3 a quarter of its speed: docs/perf/2026-12-02-h200-tma.md). The
// TMA unit addresses at most 2^32 - 1 elements per dimension and 2^40 bytes of stride: only
// windows whose shape and row stride are known to fit 32 bits take it (no run-time failure
// word, so launches stay asynchronous); an empty tensor (shape below 1) reads zeros through
// coordinates outside a 1-element map; a negative row stride traps, never a wrong value.
//
// Slots (S of them): mbarrier s after the tiles (PipePlan::bar_offset); the copies of
// iteration k go to slot k mod S and complete phase k / S of its barrier, so iteration k
// waits for parity (k / S) & 1. Slot reuse is ordered by the loop's existing block barrier
// (everyone finished reading a slot before thread 0 refills it).
//
// References: PTX ISA 8.x, "Tensor Map", "cp.async.bulk.tensor", "mbarrier",
// "tensormap.replace"; CUDA C++ Programming Guide, "Asynchronous Data Copies using the
// Tensor Memory Accelerator (TMA)".
#include <fmt/format.h>

#include "codegen/cuda/cuda_emitter.h"
#include "passes/fold_eval.h"

namespace tritium::codegen::cuda {

using ir::Op;
using ir::OpKind;
using ir::ScalarType;
using ir::Value;

namespace {

bool is_const_one(const Value* v) {
  const auto c = passes::fold::constant_value(v);
  return c && !c->is_float && c->i == 1;
}

// True when v (an integer scalar) is known to fit 32 bits: a 32-bit-or-narrower integer, a
// cast from one, or a constant in [-2^31, 2^32). Then a shape (at most 2^32 - 1) and a row
// stride (below 2^39 elements) are within what a tensor map holds, with no run-time check.
bool fits_32_bits(const Value* v) {
  if (ir::is_int(v->type.scalar) && ir::byte_size(v->type.scalar) <= 4) return true;
  const Op* d = v->def;
  if (!d) return false;
  if (d->kind == OpKind::Cast) {
    const ir::Type& t = d->operands[0]->type;
    return ir::is_int(t.scalar) && ir::byte_size(t.scalar) <= 4;
  }
  const auto c = passes::fold::constant_value(v);
  if (c && !c->is_float) return c->i >= -(int64_t{1} << 31) && c->i < (int64_t{1} << 32);
  return false;
}

// Operand positions of a window load (ops.def): base, offsets[2], shape[2], strides[2].
constexpr size_t kBase = 3, kOff0 = 4, kOff1 = 5, kShape0 = 6, kShape1 = 7, kStride0 = 8, kStride1 = 9;

}  // namespace

bool Emitter::tma_window(const Op& L, const std::function<const Value*(const Value*)>& invariant) const {
  if (plan_.sm < 90 || opts_.portable_numerics) return false;
  if (L.attr_int("window", 0) != 2 || L.attr_int("window_nan", 0) != 0 || L.operands.size() != 10) return false;
  // Tensor descriptors only: a block pointer may have a negative stride, which no tensor map
  // holds (upstream lowers block pointers to ordinary loads; here: cp.async or synchronous).
  if (L.attr_int("window_desc", 0) != 1) return false;
  if (L.attr_int("volatile", 0) != 0) return false;
  const ir::Type& t = L.results[0]->type;
  if (t.rank() != 2 || (t.scalar != ScalarType::F16 && t.scalar != ScalarType::BF16)) return false;
  const int64_t rows = t.shape[0], cols = t.shape[1];
  auto pow2 = [](int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  // A box is at most 256 elements per dimension; the tile layout needs whole 8-row atoms.
  if (!pow2(rows) || !pow2(cols) || rows < 8 || rows > 256 || cols < 8) return false;
  const Value* inv[10] = {};
  for (size_t i : {kBase, kShape0, kShape1, kStride0, kStride1})
    if (!(inv[i] = invariant(L.operands[i]))) return false;
  if (!is_const_one(inv[kStride1])) return false;
  if (!fits_32_bits(inv[kShape0]) || !fits_32_bits(inv[kShape1]) || !fits_32_bits(inv[kStride0])) return false;
  if (axis_.get(inv[kBase]).divisibility[0] < 16) return false;
  if (axis_.get(inv[kStride0]).divisibility[0] * 2 < 16) return false;
  return true;
}

void Emitter::tma_prologue(const PipePlan& pp) {
  uses_tma_ = true;
  // Shapes and the row stride fit 32 bits (tma_window). An empty tensor (a shape below 1)
  // gets a 1-element map and coordinates far outside it: every element arrives as the zero
  // the masked load gives. A negative row stride, which no tensor map can hold (and which
  // upstream's TMA lowering does not accept either: Triton requires a descriptor's strides to
  // be non-negative), stops the kernel loudly with a trap (the launch fails, naming the
  // kernel; a printf here would cost the loop registers).
  for (const PipeLoad& pl : pp.loads) {
    if (!pl.tma) continue;
    const Op& L = *pl.load;
    const std::string d0 = scalar(L.operands[kShape1]), d1 = scalar(L.operands[kShape0]);
    const std::string st = scalar(L.operands[kStride0]);
    line(fmt::format("const bool tr_tme{} = {} < 1 || {} < 1;", pl.desc, d0, d1));
    line(fmt::format("if ({} < 0) __trap();", st));
  }
  open("if (tr_warp == 0)");  // the maps, staged in shared memory after the mbarriers
  int staged = 0;
  for (const PipeLoad& pl : pp.loads) {
    if (!pl.tma) continue;
    const Op& L = *pl.load;
    const int64_t W = std::min<int64_t>(pl.cols, 64);
    const int swz = W == 64 ? 3 : W == 32 ? 2 : W == 16 ? 1 : 0;
    const int elemtype = L.results[0]->type.scalar == ScalarType::BF16 ? 10 : 6;
    line(fmt::format("tr_tmap_2d<{0}u, {1}u>(tr_gs + {2}u, tr_ring + {10}u, (const void*){9}, (uint32_t)(tr_tme{3} ? 1 : {4}), (uint32_t)(tr_tme{3} ? 1 : {5}), "
                     "(uint64_t){6} * 2ull, {7}u, {8}u);",
                     elemtype, swz, pl.desc * 128, pl.desc, scalar(L.operands[kShape1]), scalar(L.operands[kShape0]),
                     scalar(L.operands[kStride0]), W, pl.rows, scalar(L.operands[kBase]), pp.tmap_offset + 128 * staged++));
  }
  close();
  open("if (tr_tid == 0)");
  for (int s = 0; s < pp.slots; ++s) line(fmt::format("tr_mbar_init(tr_ring + {}u);", pp.bar_offset + 8 * s));
  line("tr_mbar_init_fence();");
  close();
  line("__syncthreads();  // the mbarriers are initialized before anyone waits on them");
}

void Emitter::tma_issue(const PipePlan& pp, const std::string& valid, const std::string& slot) {
  open(fmt::format("if (tr_tid == 0 && ({}))", valid));
  const std::string bar = fresh("tbar");
  line(fmt::format("const uint32_t {} = tr_ring + {}u + 8u * (uint32_t)({});", bar, pp.bar_offset, slot));
  line(fmt::format("tr_mbar_expect_tx({}, {}u);", bar, pp.tma_bytes));
  for (const PipeLoad& pl : pp.loads) {
    if (!pl.tma) continue;
    const Op& L = *pl.load;
    const int64_t W = std::min<int64_t>(pl.cols, 64);
    const std::string o0 = scalar(L.operands[kOff0]), o1 = scalar(L.operands[kOff1]);
    for (int64_t j = 0; j < pl.cols / W; ++j)
      line(fmt::format("tr_tma_load_2d(tr_ring + {} * {}u + {}u, tr_gs + {}u, (int32_t)((uint32_t){} + {}u), "
                       "tr_tme{} ? (int32_t)-1073741824 : (int32_t){}, {});",
                       slot, pp.stage_bytes, pl.offset + j * pl.rows * W * 2, pl.desc * 128, o1, j * W, pl.desc, o0, bar));
  }
  close();
}

void Emitter::tma_wait(const PipePlan& pp, const std::string& k) {
  line(fmt::format("tr_mbar_wait(tr_ring + {}u + 8u * (uint32_t)({} % {}ull), (uint32_t)(({} / {}ull) & 1ull));",
                   pp.bar_offset, k, pp.slots, k, pp.slots));
}

void Emitter::tma_epilogue(const PipePlan& pp) {
  open("if (tr_tid == 0)");
  for (int s = 0; s < pp.slots; ++s) line(fmt::format("tr_mbar_inval(tr_ring + {}u);", pp.bar_offset + 8 * s));
  close();
  line("__syncthreads();  // the mbarriers' memory may be reused");
}

}  // namespace tritium::codegen::cuda
