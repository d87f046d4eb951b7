// CUDA renderer: tensor-core dots whose operands are not 16-bit — int8 x int8 -> int32
// (mma.sync.m16n8k32.s32.s8.s8.s32: exact, the interpreter's values) and fp32 operands with
// input_precision "tf32", upstream Triton's default on NVIDIA (mma.sync.m16n8k8 .tf32 with
// an fp32 accumulator; each operand rounded to tf32 first, cvt.rna: 10 mantissa bits,
// nearest, ties away from zero, so a product is within 2^-10 of the exact one).
//
// Fragments (PTX ISA, "Matrix fragments for mma.m16n8k32" / "mma.m16n8k8", .tf32): the
// 16-bit layout in bytes (cuda_layouts.h, MmaPlan::epr), so each 32-bit register holds the
// 4 bytes at k-byte 4 * (lane % 4) (+16 for the second half of the k-step) of row
// lane / 4 (+8) of A, of column lane / 4 of B. Both operands are written to shared memory
// once — A as [M][K], B transposed as [N][K], each row padded by 16 bytes so that the eight
// rows and four k-words a warp reads fall in 32 distinct banks — and each fragment
// register is one 32-bit shared-memory load.
#include <fmt/format.h>

#include "codegen/cuda/cuda_emitter.h"

namespace tritium::codegen::cuda {

using ir::Op;
using ir::Value;

void Emitter::stage_rows(const Value* v, int64_t byte_offset, int major, int64_t pitch, bool round) {
  const LinearLayout& l = layout_of(v);
  const int eb = ir::byte_size(v->type.scalar);
  const std::string T = CExpr::ctype(v->type.element());
  const std::string own = owner(l);
  if (!own.empty()) open(fmt::format("if ({})", own));
  for (int64_t r = 0; r < l.size(HwDim::Register); ++r) {
    if (reg_dup(l, r)) continue;
    line(fmt::format("*({}*)(tr_smem + {} + ({}) * {} + ({}) * {}) = {};", T, byte_offset, coord(l, major, r), pitch,
                     coord(l, 1 - major, r), eb, round ? "tr_tf32(" + el(v, l, r) + ")" : el(v, l, r)));
  }
  if (!own.empty()) close();
}

void Emitter::emit_mma_narrow(const Op& op, const MmaPlan& mp) {
  const Value* a = op.operands[0];
  const Value* b = op.operands[1];
  const Value* c = op.operands[2];
  const Value* r = op.results[0];
  if (!(layout_of(r) == mp.acc)) refuse(op, "dot result not planned in the mma layout");
  const int64_t M = a->type.shape[0], K = a->type.shape[1], N = b->type.shape[1];
  const int eb = 4 / mp.epr;          // operand element bytes: 1 (int8) or 4 (tf32)
  const int64_t pitch = K * eb + 16;  // bytes per staged row (A's m, B's n)
  const bool tf32 = mp.kind == MmaKind::TF32;
  ensure(c, mp.acc);
  ensure(a, layout_of(a));
  ensure(b, layout_of(b));
  const int64_t off_b = (M * pitch + 15) / 16 * 16;
  line(fmt::format("// dot %{}: operands to shared memory (rows padded by 16 bytes)", r->id));
  need_smem(off_b + N * pitch);
  line("__syncthreads();");
  stage_rows(a, 0, 0, pitch, tf32);      // A[m][k] at m * pitch + k * eb
  stage_rows(b, off_b, 1, pitch, tf32);  // B[k][n] at off_b + n * pitch + k * eb
  line("__syncthreads();");
  const int64_t R = mp.acc.size(HwDim::Register);
  std::string res = declare_array(r->type, R, "acc");
  for (int64_t k = 0; k < R; ++k) line(fmt::format("{}[{}] = {};", res, k, el(c, mp.acc, k)));
  const int ln = log2i(mp.nt), wmb = log2i(mp.wm);
  const std::string arow = fresh("ar"), bcol = fresh("bc"), kb = fresh("kb");
  line(fmt::format("const int32_t {} = (tr_warp & {}) * 16 + (tr_lane >> 2);", arow, mp.wm - 1));
  line(fmt::format("const int32_t {} = ((tr_warp >> {}) & {}) * 8 + (tr_lane >> 2);", bcol, wmb, mp.wn - 1));
  line(fmt::format("const int32_t {} = (tr_lane & 3) * 4;", kb));
  const bool s8 = mp.kind == MmaKind::S8;
  for (int64_t kt = 0; kt < mp.kt; ++kt) {
    std::vector<std::string> fa(static_cast<size_t>(mp.mt)), fb(static_cast<size_t>(mp.nt));
    for (int64_t mt = 0; mt < mp.mt; ++mt) {
      fa[mt] = fresh("fa");
      std::vector<std::string> w(4);
      for (int j = 0; j < 4; ++j)  // register j: row + 8 * (j & 1), k-byte + 16 * (j >> 1)
        w[j] = fmt::format("*(const uint32_t*)(tr_smem + ({} + {}) * {} + {} + {})", arow, 16 * mp.wm * mt + 8 * (j & 1),
                           pitch, kb, 32 * kt + 16 * (j >> 1));
      line(fmt::format("const uint32_t {}[4] = {{{}}};", fa[mt], fmt::join(w, ", ")));
    }
    for (int64_t nt = 0; nt < mp.nt; ++nt) {
      fb[nt] = fresh("fb");
      std::vector<std::string> w(2);
      for (int j = 0; j < 2; ++j)  // register j: k-byte + 16 * j of column n
        w[j] = fmt::format("*(const uint32_t*)(tr_smem + {} + ({} + {}) * {} + {} + {})", off_b, bcol, 8 * mp.wn * nt, pitch,
                           kb, 32 * kt + 16 * j);
      line(fmt::format("const uint32_t {}[2] = {{{}}};", fb[nt], fmt::join(w, ", ")));
    }
    for (int64_t mt = 0; mt < mp.mt; ++mt)
      for (int64_t nt = 0; nt < mp.nt; ++nt) {
        const int64_t cbase = (nt << 2) | (mt << (2 + ln));
        line(mma_sync(s8 ? "m16n8k32.row.col.s32.s8.s8.s32" : "m16n8k8.row.col.f32.tf32.tf32.f32", s8 ? "r" : "f", res,
                      cbase, fa[mt], fb[nt]));
      }
  }
  bind_array(r, res);
}

}  // namespace tritium::codegen::cuda
