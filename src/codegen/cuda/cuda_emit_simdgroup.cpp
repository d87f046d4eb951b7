// The Metal target's tensor-core dot: tl.dot on simdgroup matrices (MSL's
// simdgroup_float8x8, simdgroup_load / simdgroup_multiply_accumulate / simdgroup_store;
// Apple GPU family 7 and later), in native numerics only — the hardware forms each 8x8x8
// product-sum in its own order, as NVIDIA's tensor cores do, so the bits are not the
// interpreter's (portable numerics keep the FMA chain, cuda_emit_dot.cpp).
//
// The operands are staged in threadgroup memory as fp32 (fp16 / bf16 / fp32 values convert
// exactly), KC columns of a and rows of b at a time (KC a multiple of 8 whose tiles fit 32
// KB with the output tile); the output's 8x8 tiles are dealt to the simdgroups round-robin,
// each holding its tiles' accumulators in simdgroup matrices across the chunks: loaded from
// the accumulator operand first (written to threadgroup memory in its layout), stored back
// at the end and read into the result's layout.
#include <fmt/format.h>

#include "codegen/cuda/cuda_emitter.h"

namespace tritium::codegen::cuda {

using ir::Op;
using ir::ScalarType;
using ir::Value;

bool Emitter::emit_dot_simdgroup(const Op& op, const ir::DotParams& dp) {
  if (opts_.portable_numerics || !opts_.simdgroup_matrices || dp.rank != 2 || !dp.is_float || dp.narrow_acc || dp.acc != ScalarType::F32) return false;
  if (dp.operand != ScalarType::F16 && dp.operand != ScalarType::BF16 && dp.operand != ScalarType::F32) return false;
  const int64_t M = dp.M, K = dp.K, N = dp.N;
  if (M % 8 || N % 8 || K % 8) return false;
  const int64_t tiles = (M / 8) * (N / 8), per_warp = (tiles + num_warps_ - 1) / num_warps_;
  if (per_warp > 32) return false;  // accumulators per simdgroup (2 registers a thread each)
  const int64_t out_bytes = M * N * 4;
  if (out_bytes > kPortableSharedBytes) return false;
  int64_t KC = K;
  while (KC > 8 && (M * KC + KC * N) * 4 > kPortableSharedBytes) KC /= 2;
  if (KC % 8 || K % KC || (M * KC + KC * N) * 4 > kPortableSharedBytes) return false;

  const Value* a = op.operands[0];
  const Value* b = op.operands[1];
  const Value* c = op.operands[2];
  const Value* r = op.results[0];
  ensure(a, layout_of(a));
  ensure(b, layout_of(b));
  ensure(c, layout_of(c));
  need_smem(std::max(out_bytes, (M * KC + KC * N) * 4));
  std::string sa = fresh("sa"), sb = fresh("sb"), sc = fresh("sc"), acc = fresh("sgacc");
  line(fmt::format("threadgroup float* const {} = (threadgroup float*)tr_smem;", sa));
  line(fmt::format("threadgroup float* const {} = (threadgroup float*)tr_smem + {};", sb, M * KC));
  line(fmt::format("threadgroup float* const {} = (threadgroup float*)tr_smem;", sc));
  // The accumulator operand, row-major, then into this simdgroup's tiles: tile t = warp +
  // num_warps * j covers rows 8 (t / (N/8)) and columns 8 (t % (N/8)).
  barrier();
  {
    const LinearLayout& l = layout_of(c);
    const std::string own = owner(l);
    if (!own.empty()) open(fmt::format("if ({})", own));
    for (int64_t k = 0; k < l.size(HwDim::Register); ++k)
      if (!reg_dup(l, k)) line(fmt::format("{}[{}] = {};", sc, lin(l, k), el(c, l, k)));
    if (!own.empty()) close();
  }
  barrier();
  line(fmt::format("simdgroup_float8x8 {}[{}];", acc, per_warp));
  auto each_tile = [&](const std::function<void(const std::string& row, const std::string& col, int64_t j)>& body) {
    for (int64_t j = 0; j < per_warp; ++j) {
      const std::string t = fresh("tile");
      line(fmt::format("const int32_t {} = tr_warp + {};", t, j * num_warps_));
      open(fmt::format("if ({} < {})", t, tiles));
      body(fmt::format("({} / {}) * 8", t, N / 8), fmt::format("({} % {}) * 8", t, N / 8), j);
      close();
    }
  };
  each_tile([&](const std::string& row, const std::string& col, int64_t j) {
    line(fmt::format("simdgroup_load({}[{}], {} + ({}) * {} + ({}), {});", acc, j, sc, row, N, col, N));
  });
  const std::string k0 = fresh("k");
  open(fmt::format("for (int32_t {0} = 0; {0} < {1}; {0} += {2})", k0, K, KC));
  stage_dot_chunk(op, dp, k0, KC, sa, sb);  // as fp32: the compute type of these dots
  each_tile([&](const std::string& row, const std::string& col, int64_t j) {
    const std::string kk = fresh("kk");
    open(fmt::format("for (int32_t {0} = 0; {0} < {1}; {0} += 8)", kk, KC));
    line("simdgroup_float8x8 ta_, tb_;");
    line(fmt::format("simdgroup_load(ta_, {} + ({}) * {} + {}, {});", sa, row, KC, kk, KC));
    line(fmt::format("simdgroup_load(tb_, {} + {} * {} + ({}), {});", sb, kk, N, col, N));
    line(fmt::format("simdgroup_multiply_accumulate({0}[{1}], ta_, tb_, {0}[{1}]);", acc, j));
    close();
  });
  close();
  barrier();
  each_tile([&](const std::string& row, const std::string& col, int64_t j) {
    line(fmt::format("simdgroup_store({}[{}], {} + ({}) * {} + ({}), {});", acc, j, sc, row, N, col, N));
  });
  barrier();
  const LinearLayout& L = layout_of(r);
  std::string res = declare_array(r->type, L.size(HwDim::Register), "acc");
  for (int64_t k = 0; k < L.size(HwDim::Register); ++k) line(fmt::format("{}[{}] = {}[{}];", res, k, sc, lin(L, k)));
  bind_array(r, res);
  return true;
}

}  // namespace tritium::codegen::cuda
