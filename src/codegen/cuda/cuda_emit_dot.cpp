// CUDA renderer: tl.dot as the interpreter defines it (interpreter.h, "Dot"): for each output
// element a sequential chain over k ascending, r = fma(a[m,k], b[k,n], r), starting from acc,
// operands converted exactly to the compute type (fp32, fp64 or the integer accumulator). The
// operands go to shared memory (converted), then each thread runs the chains of its own
// output registers. tf32 / tf32x3 are computed as ieee, as on the CPU (same bits everywhere);
// In native numerics, fp16 / bf16 dots with an fp32 accumulator run on the tensor cores
// instead (mma.sync.m16n8k16, cuda_layouts.h "MmaPlan"): an operand already in its fragment
// layout is read from registers, any other is written to shared memory once (row-major, its
// 16-byte chunks XOR-swizzled by row against bank conflicts) and each k-step's fragments
// are loaded with ldmatrix (.trans for B) just before use; each warp issues mt x nt x kt
// mma instructions, k-steps ascending. The sum of each k-step's 16
// products is then formed by the tensor core (not an FMA chain): results differ from the
// interpreter's in the last bits, as upstream Triton's do.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/cuda/cuda_emitter.h"
#include "ir/dot_params.h"

namespace tritium::codegen::cuda {

using ir::Op;
using ir::ScalarType;
using ir::Value;

std::string Emitter::pack_halves(const std::string& lo, const std::string& hi) {
  return fmt::format("((uint32_t)tr_bits<uint16_t>({}) | ((uint32_t)tr_bits<uint16_t>({}) << 16))", lo, hi);
}

std::string Emitter::tile_index(const std::string& i, int64_t R, int64_t C) {
  const int64_t W = std::min<int64_t>(C, 64);
  std::string x = fmt::format("(uint32_t)({})", i);
  if (C > W)  // blocks of 64 columns, each [R][64]
    x = fmt::format("tr_tile_block({}, {}, {}, {})", x, log2i(C), R, log2i(W));
  const int mask = W == 64 ? 7 : W == 32 ? 3 : W == 16 ? 1 : 0;
  if (!mask) return x;
  return fmt::format("tr_swz({}, 6, {})", x, mask);
}

uint32_t Emitter::tile_index_value(uint32_t i, int64_t R, int64_t C) {
  const int64_t W = std::min<int64_t>(C, 64);
  if (C > W) {  // tr_tile_block
    const int lgc = log2i(C), lgw = log2i(W);
    const uint32_t row = i >> lgc, col = i & ((1u << lgc) - 1u);
    i = (((col >> lgw) * static_cast<uint32_t>(R) + row) << lgw) | (col & ((1u << lgw) - 1u));
  }
  const uint32_t mask = W == 64 ? 7 : W == 32 ? 3 : W == 16 ? 1 : 0;
  return i ^ (((i >> 6) & mask) << 3);  // tr_swz(i, 6, mask)
}

int Emitter::tile_index_split(const LinearLayout& l, int cdim, int64_t R, int64_t C, int64_t r, uint32_t* K) {
  auto pow2 = [](int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  if (!pow2(R) || !pow2(C) || l.shape().size() != 2 || (cdim != 0 && cdim != 1)) return 0;
  const size_t cd = static_cast<size_t>(cdim), rd = 1 - cd;
  auto value = [&](const LinearLayout::Coord& c) {
    return tile_index_value(static_cast<uint32_t>(c[rd] * C + c[cd]), R, C);
  };
  uint32_t hw_bits = 0;  // every bit the lane / warp part can have
  for (int h : {1, 2})
    for (int k = 0; k < l.bits(static_cast<HwDim>(h)); ++k) hw_bits |= value(l.basis(static_cast<HwDim>(h), k));
  *K = value(reg_coord(l, r));
  return (*K & hw_bits) ? 2 : 1;
}

std::string Emitter::tile_index_of(const LinearLayout& l, int cdim, int64_t R, int64_t C, int64_t r) {
  uint32_t K = 0;
  const int op = tile_index_split(l, cdim, R, C, r, &K);
  if (!op) return "";
  const std::string key = layout_key(l) + fmt::format("#tile{}:{}x{}", cdim, R, C);
  auto it = hw_vars_.find(key);
  std::string F;
  if (it != hw_vars_.end()) {
    F = it->second;
  } else {
    const std::string hr = hw_var(l, 1 - cdim), hc = hw_var(l, cdim);
    F = fresh("ht");
    prologue_ += fmt::format("  const uint32_t {} = {};\n", F,
                             tile_index(fmt::format("({}) * {} + ({})", hr, C, hc), R, C));
    hw_vars_.emplace(key, F);
  }
  if (K == 0) return F;
  return fmt::format("({} {} {}u)", F, op == 1 ? "+" : "^", K);
}

int Emitter::tile_swizzle_mode(int64_t C) {
  const int64_t W = std::min<int64_t>(C, 64);
  return W == 64 ? 1 : W == 32 ? 2 : W == 16 ? 3 : 0;
}

Emitter::DotOperands Emitter::dot_operands(const Op& op, const MmaPlan& mp) {
  const Value* a = op.operands[0];
  const Value* b = op.operands[1];
  const Value* r = op.results[0];
  if (!(layout_of(r) == mp.acc)) refuse(op, "dot result not planned in the mma layout");
  const int64_t M = a->type.shape[0], K = a->type.shape[1], N = b->type.shape[1];
  DotOperands d;
  const auto fr = frag_regs_.find(&op);
  const auto sta = staged_.find(a), stb = staged_.find(b);
  const bool a_st = sta != staged_.end(), b_st = stb != staged_.end();
  if (fr != frag_regs_.end()) d.frag = fr->second;
  d.a_reg = !d.frag.empty() || (!a_st && layout_of(a) == mp.a);
  d.b_reg = !mp.wgmma && !b_st && layout_of(b) == mp.b;  // wgmma reads b from shared memory
  d.b_kmajor = b_st && stb->second.kmajor;
  ensure(op.operands[2], mp.acc);
  if (!a_st && d.frag.empty()) ensure(a, d.a_reg ? mp.a : layout_of(a));
  if (!b_st) ensure(b, d.b_reg ? mp.b : layout_of(b));
  const bool a_w = !d.a_reg && !a_st, b_w = !d.b_reg && !b_st;
  std::string sa, sb;
  if (a_w || b_w) {
    // A pipelined loop's copies for a later iteration are issued while a wgmma runs — but
    // not after this dot writes scratch shared memory, which they could overwrite.
    if (mp.wgmma) run_pending_prefetch();
    line(fmt::format("// dot %{}: operands to shared memory for {}", r->id, mp.wgmma ? "wgmma" : "ldmatrix"));
    barrier();
    const int64_t a_bytes = (M * K * 2 + 1023) / 1024 * 1024;
    if (a_w) sa = to_smem(a, 0, [&](const std::string& i) { return tile_index(i, M, K); });
    if (b_w) sb = to_smem(b, a_w ? a_bytes : 0, [&](const std::string& i) { return tile_index(i, K, N); });
    if (mp.wgmma) line("tr_fence_async_smem();  // generic-proxy writes -> wgmma's async proxy");
    barrier();
  }
  auto addr = [](const std::string& sm) { return fmt::format("(uint32_t)__cvta_generic_to_shared({})", sm); };
  if (!d.a_reg) d.smem_a = a_st ? sta->second.addr : addr(sa);
  if (!d.b_reg) d.smem_b = b_st ? stb->second.addr : addr(sb);
  return d;
}

std::string Emitter::mma_sync(const std::string& shape_types, const char* acc_constraint, const std::string& acc,
                              int64_t cbase, const std::string& fa, const std::string& fb) {
  return fmt::format("asm volatile(\"mma.sync.aligned.{0} {{%0, %1, %2, %3}}, {{%4, %5, %6, %7}}, {{%8, %9}}, "
                     "{{%0, %1, %2, %3}};\" : \"+{1}\"({2}[{3}]), \"+{1}\"({2}[{4}]), \"+{1}\"({2}[{5}]), "
                     "\"+{1}\"({2}[{6}]) : \"r\"({7}[0]), \"r\"({7}[1]), \"r\"({7}[2]), \"r\"({7}[3]), "
                     "\"r\"({8}[0]), \"r\"({8}[1]));",
                     shape_types, acc_constraint, acc, cbase, cbase + 1, cbase + 2, cbase + 3, fa, fb);
}

void Emitter::emit_mma(const Op& op, const MmaPlan& mp) {
  if (mp.wgmma) return emit_wgmma(op, mp);
  if (mp.epr != 2) return emit_mma_narrow(op, mp);
  const Value* a = op.operands[0];
  const Value* b = op.operands[1];
  const Value* c = op.operands[2];
  const Value* r = op.results[0];
  const int64_t M = a->type.shape[0], K = a->type.shape[1], N = b->type.shape[1];
  // Each k-step's fragments are loaded from shared memory with ldmatrix just before their
  // mma instructions, so only one k-step of fragments is live at a time.
  const DotOperands d = dot_operands(op, mp);
  const bool a_sm = !d.a_reg, b_sm = !d.b_reg, b_kmajor = d.b_kmajor;
  const int64_t R = mp.acc.size(HwDim::Register);
  std::string res = declare_array(r->type, R, "acc");
  for (int64_t k = 0; k < R; ++k) line(fmt::format("{}[{}] = {};", res, k, el(c, mp.acc, k)));
  const int lk = log2i(mp.kt), ln = log2i(mp.nt), wmb = log2i(mp.wm);
  const char* ty = mp.bf16 ? "bf16" : "f16";
  // Per-lane row / column of the ldmatrix addresses: lanes 8j..8j+7 give the rows of matrix j.
  std::string a_row, a_col, b_row, b_col, sa_u, sb_u;
  if (a_sm) {
    a_row = fresh("lr");
    a_col = fresh("lc");
    sa_u = fresh("sau");
    line(fmt::format("const int32_t {} = (tr_warp & {}) * 16 + (tr_lane & 7) + ((tr_lane >> 3) & 1) * 8;", a_row,
                     mp.wm - 1));
    line(fmt::format("const int32_t {} = (tr_lane >> 4) * 8;", a_col));
    line(fmt::format("const uint32_t {} = {};", sa_u, d.smem_a));
  }
  if (b_sm) {
    b_row = fresh("lr");
    b_col = fresh("lc");
    sb_u = fresh("sbu");
    if (b_kmajor) {  // [N][K]: rows are n (lanes 16..31: the next n-tile), k 8.. by lanes 8..15
      line(fmt::format("const int32_t {} = ((tr_warp >> {}) & {}) * 8 + (tr_lane & 7) + ((tr_lane >> 4) & 1) * {};", b_row,
                       wmb, mp.wn - 1, 8 * mp.wn));
      line(fmt::format("const int32_t {} = ((tr_lane >> 3) & 1) * 8;", b_col));
    } else {
      line(fmt::format("const int32_t {} = (tr_lane & 7) + ((tr_lane >> 3) & 1) * 8;", b_row));
      line(fmt::format("const int32_t {} = ((tr_warp >> {}) & {}) * 8 + (tr_lane >> 4) * {};", b_col, wmb, mp.wn - 1,
                       8 * mp.wn));
    }
    line(fmt::format("const uint32_t {} = {};", sb_u, d.smem_b));
  }
  for (int64_t kt = 0; kt < mp.kt; ++kt) {
    std::vector<std::string> fa(static_cast<size_t>(mp.mt)), fb(static_cast<size_t>(mp.nt));
    for (int64_t mt = 0; mt < mp.mt; ++mt) {
      fa[mt] = fresh("fa");
      if (a_sm) {
        const std::string idx = tile_index(fmt::format("({} + {}) * {} + {} + {}", a_row, 16 * mp.wm * mt, K, a_col, 16 * kt), M, K);
        line(fmt::format("uint32_t {}[4];", fa[mt]));
        line(fmt::format("asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{%0, %1, %2, %3}}, [%4];\" : "
                         "\"=r\"({0}[0]), \"=r\"({0}[1]), \"=r\"({0}[2]), \"=r\"({0}[3]) : \"r\"({1} + 2u * (uint32_t)({2})));",
                         fa[mt], sa_u, idx));
        continue;
      }
      const int64_t abase = (kt << 3) | (mt << (3 + lk));
      if (!d.frag.empty()) {
        line(fmt::format("const uint32_t {0}[4] = {{{1}[{2}], {1}[{3}], {1}[{4}], {1}[{5}]}};", fa[mt], d.frag,
                         abase / 2, abase / 2 + 1, abase / 2 + 2, abase / 2 + 3));
        continue;
      }
      line(fmt::format("const uint32_t {}[4] = {{{}, {}, {}, {}}};", fa[mt], pack_halves(el(a, mp.a, abase + 0), el(a, mp.a, abase + 1)),
                       pack_halves(el(a, mp.a, abase + 2), el(a, mp.a, abase + 3)),
                       pack_halves(el(a, mp.a, abase + 4), el(a, mp.a, abase + 5)),
                       pack_halves(el(a, mp.a, abase + 6), el(a, mp.a, abase + 7))));
    }
    for (int64_t nt = 0; nt < mp.nt; ++nt) {
      fb[nt] = fresh("fb");
      if (b_sm) {
        // x4.trans: fragments of n-tiles nt and nt + 1 (lanes 16..31 address the second);
        // x2.trans for a last single one.
        const bool pair = nt + 1 < mp.nt;
        const std::string idx =
            b_kmajor ? tile_index(fmt::format("({} + {}) * {} + {} + {}", b_row, 8 * mp.wn * nt, K, b_col, 16 * kt), N, K)
                     : tile_index(fmt::format("({} + {}) * {} + {} + {}", b_row, 16 * kt, N, b_col, 8 * mp.wn * nt), K, N);
        const char* tr = b_kmajor ? "" : ".trans";
        if (pair) {
          fb[nt + 1] = fresh("fb");
          line(fmt::format("uint32_t {}[2], {}[2];", fb[nt], fb[nt + 1]));
          line(fmt::format("asm volatile(\"ldmatrix.sync.aligned.m8n8.x4{4}.shared.b16 {{%0, %1, %2, %3}}, [%4];\" : "
                           "\"=r\"({0}[0]), \"=r\"({0}[1]), \"=r\"({1}[0]), \"=r\"({1}[1]) : \"r\"({2} + 2u * (uint32_t)({3})));",
                           fb[nt], fb[nt + 1], sb_u, idx, tr));
          ++nt;
        } else {
          line(fmt::format("uint32_t {}[2];", fb[nt]));
          line(fmt::format("asm volatile(\"ldmatrix.sync.aligned.m8n8.x2{3}.shared.b16 {{%0, %1}}, [%2];\" : "
                           "\"=r\"({0}[0]), \"=r\"({0}[1]) : \"r\"({1} + 2u * (uint32_t)({2})));",
                           fb[nt], sb_u, idx, tr));
        }
        continue;
      }
      const int64_t bbase = (kt << 2) | (nt << (2 + lk));
      line(fmt::format("const uint32_t {}[2] = {{{}, {}}};", fb[nt], pack_halves(el(b, mp.b, bbase + 0), el(b, mp.b, bbase + 1)),
                       pack_halves(el(b, mp.b, bbase + 2), el(b, mp.b, bbase + 3))));
    }
    for (int64_t mt = 0; mt < mp.mt; ++mt)
      for (int64_t nt = 0; nt < mp.nt; ++nt) {
        const int64_t cbase = (nt << 2) | (mt << (2 + ln));
        line(mma_sync(fmt::format("m16n8k16.row.col.f32.{0}.{0}.f32", ty), "f", res, cbase, fa[mt], fb[nt]));
      }
  }
  bind_array(r, res);
}

void Emitter::emit_dot(const Op& op) {
  if (const MmaPlan mp = mma_plan(op, num_warps_, opts_.portable_numerics, plan_.mma_along_m, plan_.sm); mp.ok) return emit_mma(op, mp);
  const Value* a = op.operands[0];
  const Value* b = op.operands[1];
  const Value* c = op.operands[2];
  const Value* r = op.results[0];
  // Shapes, dtypes and refusals: ir/dot_params.h (shared with the CPU renderer).
  const ir::DotParams dp = ir::dot_params(op, cx_.backend());
  if (msl() && emit_dot_simdgroup(op, dp)) return;
  const size_t rank = dp.rank;
  const int64_t M = dp.M, K = dp.K, N = dp.N, B = dp.B;
  const ScalarType S = dp.operand, Acc = dp.acc;
  const bool fl = dp.is_float, narrow_acc = dp.narrow_acc;
  const ScalarType CT = dp.compute;
  const std::string ct = cx_.type(ir::Type::of(CT));
  const int64_t cb = ir::byte_size(CT);
  // Metal: the operands staged KC columns of a / rows of b at a time, KC the largest of
  // K, K/2, K/4, ... (rounded up) whose tiles fit the threadgroup memory Metal guarantees
  // (32 KB); the chain still runs over k ascending, so the bits are the same.
  int64_t KC = K;
  if (!cuda())
    while (KC > 1 && (B * M * KC * cb + 15) / 16 * 16 + B * KC * N * cb > kPortableSharedBytes) KC = (KC + 1) / 2;
  if (KC < K) return emit_dot_chunked(op, dp, KC);
  const int64_t off_b = (B * M * K * cb + 15) / 16 * 16;
  need_smem(off_b + B * K * N * cb);

  ensure(a, layout_of(a));
  ensure(b, layout_of(b));
  barrier();
  std::string sa = fresh("sa"), sb = fresh("sb");
  line(fmt::format("{0} const {1} = ({0})tr_smem;", sp(ct), sa));
  line(fmt::format("{0} const {1} = ({0})(tr_smem + {2});", sp(ct), sb, off_b));
  auto to_ct = [&](const Value* v, const std::string& e) {
    std::string x = fl ? CExpr::to_compute(S, e) : fmt::format("({})({})", ct, e);
    if (CT == ScalarType::F64 && S != ScalarType::F64) x = "(double)(" + x + ")";
    return x;
  };
  for (const auto& [v, sm] : {std::pair<const Value*, std::string>{a, sa}, {b, sb}}) {
    const LinearLayout& l = layout_of(v);
    const std::string own = owner(l);
    if (!own.empty()) open(fmt::format("if ({})", own));
    for (int64_t k = 0; k < l.size(HwDim::Register); ++k)
      if (!reg_dup(l, k)) line(fmt::format("{}[{}] = {};", sm, lin(l, k), to_ct(v, el(v, l, k))));
    if (!own.empty()) close();
  }
  barrier();
  const LinearLayout& L = layout_of(r);
  const int64_t R = L.size(HwDim::Register);
  std::string res = declare_array(r->type, R, "acc");
  for (int64_t k = 0; k < R; ++k) line(fmt::format("{}[{}] = {};", res, k, el(c, L, k)));
  std::vector<std::string> arow(static_cast<size_t>(R)), bcol(static_cast<size_t>(R));
  for (int64_t k = 0; k < R; ++k) {
    const std::string bo = rank == 3 ? coord(L, 0, k) : "0";
    arow[k] = fresh("ar");
    bcol[k] = fresh("bc");
    line(fmt::format("const int32_t {} = (({}) * {} + {}) * {};", arow[k], bo, M, coord(L, static_cast<int>(rank) - 2, k), K));
    line(fmt::format("const int32_t {} = ({}) * {} + {};", bcol[k], bo, K * N, coord(L, static_cast<int>(rank) - 1, k)));
  }
  std::string kk = fresh("k");
  open(fmt::format("for (int32_t {0} = 0; {0} < {1}; ++{0})", kk, K));
  for (int64_t k = 0; k < R; ++k) {
    const std::string x = fmt::format("{}[{} + {}]", sa, arow[k], kk);
    const std::string y = fmt::format("{}[{} + {} * {}]", sb, bcol[k], kk, N);
    const std::string acc = fmt::format("{}[{}]", res, k);
    std::string step;
    if (!fl) step = cx_.tcall("tr_add", ct, fmt::format("{}, {}", acc, cx_.tcall("tr_mul", ct, fmt::format("{}, {}", x, y))));
    else if (narrow_acc)
      step = cx().cast_expr(op, ScalarType::F64, Acc, "",
                            fmt::format("tr_fma_odd((double){}, (double){}, (double){})", x, y, CExpr::to_compute(Acc, acc)));
    else step = fmt::format("{}({}, {}, {})", CT == ScalarType::F64 || !cuda() ? "fma" : "fmaf", x, y, acc);
    line(fmt::format("{} = {};", acc, step));
  }
  close();
  bind_array(r, res);
}

void Emitter::emit_dot_chunked(const Op& op, const ir::DotParams& dp, int64_t KC) {
  const Value* a = op.operands[0];
  const Value* b = op.operands[1];
  const Value* c = op.operands[2];
  const Value* r = op.results[0];
  const size_t rank = dp.rank;
  const int64_t M = dp.M, K = dp.K, N = dp.N, B = dp.B;
  const ScalarType CT = dp.compute;
  if (dp.narrow_acc) not_simt(op, "a dot with an fp16 / bf16 accumulator whose operands exceed the threadgroup memory");
  const std::string ct = cx_.type(ir::Type::of(CT));
  const int64_t cb = ir::byte_size(CT);
  const int64_t off_b = (B * M * KC * cb + 15) / 16 * 16;
  need_smem(off_b + B * KC * N * cb);
  ensure(a, layout_of(a));
  ensure(b, layout_of(b));
  const LinearLayout& L = layout_of(r);
  const int64_t R = L.size(HwDim::Register);
  std::string res = declare_array(r->type, R, "acc");
  for (int64_t k = 0; k < R; ++k) line(fmt::format("{}[{}] = {};", res, k, el(c, L, k)));
  std::string sa = fresh("sa"), sb = fresh("sb");
  line(fmt::format("{0} const {1} = ({0})tr_smem;", sp(ct), sa));
  line(fmt::format("{0} const {1} = ({0})(tr_smem + {2});", sp(ct), sb, off_b));
  const int kd = static_cast<int>(rank) - 1;  // a's k dimension; b's is kd - 1
  std::string k0 = fresh("k");
  open(fmt::format("for (int32_t {0} = 0; {0} < {1}; {0} += {2})", k0, K, KC));
  stage_dot_chunk(op, dp, k0, KC, sa, sb);
  std::string kk = fresh("k");
  open(fmt::format("for (int32_t {0} = 0; {0} < {1} && {2} + {0} < {3}; ++{0})", kk, KC, k0, K));
  for (int64_t k = 0; k < R; ++k) {
    const std::string bo = rank == 3 ? coord(L, 0, k) : "0";
    const std::string x = fmt::format("{}[(({}) * {} + {}) * {} + {}]", sa, bo, M, coord(L, kd - 1, k), KC, kk);
    const std::string y = fmt::format("{}[(({}) * {} + {}) * {} + {}]", sb, bo, KC, kk, N, coord(L, kd, k));
    const std::string acc = fmt::format("{}[{}]", res, k);
    const std::string step =
        dp.is_float ? fmt::format("fma({}, {}, {})", x, y, acc)
                    : cx_.tcall("tr_add", ct, fmt::format("{}, {}", acc, cx_.tcall("tr_mul", ct, fmt::format("{}, {}", x, y))));
    line(fmt::format("{} = {};", acc, step));
  }
  close();
  close();
  bind_array(r, res);
}

void Emitter::stage_dot_chunk(const Op& op, const ir::DotParams& dp, const std::string& k0, int64_t KC,
                              const std::string& sa, const std::string& sb) {
  const Value* a = op.operands[0];
  const Value* b = op.operands[1];
  const size_t rank = dp.rank;
  const int64_t M = dp.M, N = dp.N;
  const int kd = static_cast<int>(rank) - 1;  // a's k dimension; b's is kd - 1
  auto to_ct = [&](const std::string& e) {
    return dp.is_float ? CExpr::to_compute(dp.operand, e)
                       : fmt::format("({})({})", cx_.type(ir::Type::of(dp.compute)), e);
  };
  barrier();
  // a[bo][m][k0 + q] -> sa[(bo * M + m) * KC + q]; b[bo][k0 + q][n] -> sb[(bo * KC + q) * N + n]
  for (int which = 0; which < 2; ++which) {
    const Value* v = which == 0 ? a : b;
    const LinearLayout& l = layout_of(v);
    const std::string own = owner(l);
    if (!own.empty()) open(fmt::format("if ({})", own));
    for (int64_t k = 0; k < l.size(HwDim::Register); ++k) {
      if (reg_dup(l, k)) continue;
      const std::string bo = rank == 3 ? coord(l, 0, k) : "0";
      const std::string q = fmt::format("(({}) - {})", coord(l, which == 0 ? kd : kd - 1, k), k0);
      const std::string at =
          which == 0 ? fmt::format("(({}) * {} + {}) * {} + {}", bo, M, coord(l, kd - 1, k), KC, q)
                     : fmt::format("(({}) * {} + {}) * {} + {}", bo, KC, q, N, coord(l, kd, k));
      line(fmt::format("if ((uint32_t){} < {}u) {}[{}] = {};", q, KC, which == 0 ? sa : sb, at, to_ct(el(v, l, k))));
    }
    if (!own.empty()) close();
  }
  barrier();
}

}  // namespace tritium::codegen::cuda
