// CUDA renderer: tl.dot on Hopper's warpgroup tensor cores (wgmma.mma_async, sm_90a), for
// the dots MmaPlan::wgmma selects (cuda_layouts.h). PTX ISA, "Asynchronous Warpgroup Level
// Matrix Multiply-Accumulate Instructions".
//
// Each warpgroup (4 warps) issues, per k-step of 16, one m64nNk16 instruction per 64-row
// slab it owns (slab i of warpgroup g: rows 64 * (g + G * i), G = num_warps / 4), reading
// B — and A unless A is already in registers — from shared memory through matrix
// descriptors. Operand tiles are in the canonical layouts of Emitter::tile_index: a K-major
// A [M][K], a B stored [K][N] (N-major: imm-trans-b = 1) or [N][K] (K-major), each in
// blocks of 64 columns with the 128-, 64- or 32-byte swizzle their width gives. The
// accumulator stays in registers in the mma.sync layout with warps along M (the fragments
// are the same per warp); A in registers uses mma.sync's A fragments. The dot is
// synchronous: fence, the instructions in k order, commit, wait for all.
//
// Operands come from a pipelined loop's ring (staged_), from packed fragments
// (frag_regs_), from registers in the fragment layout, or are written to shared memory here
// (then a proxy fence makes those generic-proxy writes visible to wgmma's async proxy).
#include <fmt/format.h>

#include <algorithm>

#include "codegen/cuda/cuda_emitter.h"

namespace tritium::codegen::cuda {

using ir::Op;
using ir::Value;

void Emitter::emit_wgmma(const Op& op, const MmaPlan& mp) {
  uses_wgmma_ = true;
  const Value* a = op.operands[0];
  const Value* b = op.operands[1];
  const Value* c = op.operands[2];
  const Value* r = op.results[0];
  const int64_t M = a->type.shape[0], K = a->type.shape[1], N = b->type.shape[1];
  const DotOperands d = dot_operands(op, mp);
  const bool a_reg = d.a_reg, b_kmajor = d.b_kmajor;
  const int64_t G = num_warps_ / 4, H = N / 2;  // warpgroups; accumulator registers per instruction
  const int lk = log2i(mp.kt), ln = log2i(mp.nt);
  const char* ty = mp.bf16 ? "bf16" : "f16";
  // A: this warpgroup's first slab, K-major [M][K] in blocks of WA columns.
  const int64_t WA = std::min<int64_t>(K, 64), WB = std::min<int64_t>(b_kmajor ? K : N, 64);
  std::string ga, gb;
  if (!a_reg) {
    ga = fresh("wga");
    line(fmt::format("const uint32_t {} = {} + (uint32_t)(tr_warp >> 2) * {}u;", ga, d.smem_a, 64 * WA * 2));
  }
  gb = fresh("wgb");
  line(fmt::format("const uint32_t {} = {};", gb, d.smem_b));
  const auto inplace = inplace_acc_.find(&op);
  std::string res;
  if (inplace != inplace_acc_.end()) {
    res = inplace->second;  // the carried accumulator itself (cuda_emit_pipeline.cpp)
  } else {
    res = declare_array(r->type, mp.acc.size(HwDim::Register), "acc");
    for (int64_t k = 0; k < mp.acc.size(HwDim::Register); ++k) line(fmt::format("{}[{}] = {};", res, k, el(c, mp.acc, k)));
  }
  line("tr_wg_fence();");
  for (int64_t kt = 0; kt < mp.kt; ++kt) {
    const int64_t k0 = 16 * kt;
    // B's descriptor for this k-step.
    int64_t boff, lbo, sbo;
    int bmode;
    if (b_kmajor) {  // [N][K]: rows of n, K in blocks of WB
      boff = ((k0 / WB) * N * WB + k0 % WB) * 2;
      lbo = 16;  // unused for swizzled K-major
      sbo = 8 * WB * 2;
      bmode = tile_swizzle_mode(K);
    } else {  // [K][N]: N in blocks of WB, each [K][WB]
      boff = k0 * WB * 2;
      lbo = K * WB * 2;  // from one block of N to the next
      sbo = 8 * WB * 2;  // from 8 rows of k to the next 8
      bmode = tile_swizzle_mode(N);
    }
    const std::string db = fresh("wdb");
    line(fmt::format("const uint64_t {} = tr_wg_desc({} + {}u, {}u, {}u, {}u);", db, gb, boff, lbo, sbo, bmode));
    for (int64_t i = 0; i < mp.mt; ++i) {
      std::vector<std::string> ops;
      for (int64_t j = 0; j < H; ++j) ops.push_back(fmt::format("\"+f\"({}[{}])", res, (i << (2 + ln)) + j));
      std::string regs;
      for (int64_t j = 0; j < H; ++j) regs += fmt::format("{}%{}", j ? ", " : "", j);
      std::string a_text;
      if (a_reg) {
        const int64_t abase = (kt << 3) | (i << (3 + lk));
        std::string f[4];
        for (int q = 0; q < 4; ++q)
          f[q] = !d.frag.empty() ? fmt::format("{}[{}]", d.frag, abase / 2 + q)
                                 : pack_halves(el(a, mp.a, abase + 2 * q), el(a, mp.a, abase + 2 * q + 1));
        const std::string fa = fresh("wfa");
        line(fmt::format("const uint32_t {}[4] = {{{}, {}, {}, {}}};", fa, f[0], f[1], f[2], f[3]));
        for (int q = 0; q < 4; ++q) ops.push_back(fmt::format("\"r\"({}[{}])", fa, q));
        a_text = fmt::format("{{%{}, %{}, %{}, %{}}}", H, H + 1, H + 2, H + 3);
      } else {
        // slab i of this warpgroup: rows 64 * G * i on from the warpgroup's first
        const int64_t aoff = ((k0 / WA) * M * WA + 64 * G * i * WA + k0 % WA) * 2;
        const std::string da = fresh("wda");
        line(fmt::format("const uint64_t {} = tr_wg_desc({} + {}u, 16u, {}u, {}u);", da, ga, aoff, 8 * WA * 2,
                         tile_swizzle_mode(K)));
        ops.push_back(fmt::format("\"l\"({})", da));
        a_text = fmt::format("%{}", H);
      }
      const int64_t bi = static_cast<int64_t>(ops.size());  // B's descriptor, then scale-d
      ops.push_back(fmt::format("\"l\"({})", db));
      ops.push_back("\"r\"(1)");
      // scale-d = 1 (D = A * B + D), scale-a = scale-b = 1, then imm-trans-a (shared-memory A
      // only: 0, K-major) and imm-trans-b (1: B is N-major)
      const std::string tail = a_reg ? fmt::format("p, 1, 1, {}", b_kmajor ? 0 : 1)
                                     : fmt::format("p, 1, 1, 0, {}", b_kmajor ? 0 : 1);
      std::vector<std::string> outs(ops.begin(), ops.begin() + H), ins(ops.begin() + H, ops.end());
      line(fmt::format("asm volatile(\"{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{}, 0;\\n"
                       "wgmma.mma_async.sync.aligned.m64n{}k16.f32.{}.{} {{{}}}, {}, %{}, {};\\n}}\\n\" : {} : {});",
                       bi + 1, N, ty, ty, regs, a_text, bi, tail, fmt::join(outs, ", "), fmt::join(ins, ", ")));
    }
  }
  line("tr_wg_commit();");
  run_pending_prefetch();
  if (inplace != inplace_acc_.end()) {
    line("// the previous iteration's dot is done; this one runs on");
    wg_wait(1, res, mp.acc.size(HwDim::Register));
  } else {
    wg_wait(0, res, mp.acc.size(HwDim::Register));
  }
  bind_array(r, res);
}

void Emitter::wg_wait(int pending, const std::string& acc, int64_t regs) {
  // The accumulator registers are operands of the wait, so the compiler keeps every read
  // and write of them on the right side of it (as upstream Triton emits the wait).
  std::vector<std::string> ops;
  for (int64_t j = 0; j < regs; ++j) ops.push_back(fmt::format("\"+f\"({}[{}])", acc, j));
  line(fmt::format("asm volatile(\"wgmma.wait_group.sync.aligned {};\" : {} :: \"memory\");", pending,
                   fmt::join(ops, ", ")));
}

}  // namespace tritium::codegen::cuda
