// CUDA renderer: tl.dot as the interpreter defines it (interpreter.h, "Dot"): for each output
// element a sequential chain over k ascending, r = fma(a[m,k], b[k,n], r), starting from acc,
// operands converted exactly to the compute type (fp32, fp64 or the integer accumulator). The
// operands go to shared memory (converted), then each thread runs the chains of its own
// output registers. tf32 / tf32x3 are computed as ieee, as on the CPU (same bits everywhere);
// tensor-core lowerings (mma.sync, wgmma) are the next step of issue 4.
#include <fmt/format.h>

#include "codegen/cuda/cuda_emitter.h"

namespace tritium::codegen::cuda {

using ir::Op;
using ir::ScalarType;
using ir::Value;

void Emitter::emit_dot(const Op& op) {
  const Value* a = op.operands[0];
  const Value* b = op.operands[1];
  const Value* c = op.operands[2];
  const Value* r = op.results[0];
  const auto& as = a->type.shape;
  const auto& bs = b->type.shape;
  const size_t rank = as.size();
  if (rank < 2 || rank > 3 || bs.size() != rank || c->type.shape.size() != rank) refuse(op, "dot needs rank-2 or rank-3 operands");
  const int64_t M = as[rank - 2], K = as[rank - 1], N = bs[rank - 1];
  const int64_t B = rank == 3 ? as[0] : 1;
  if (bs[rank - 2] != K || c->type.shape[rank - 2] != M || c->type.shape[rank - 1] != N) refuse(op, "dot shapes");
  const std::string prec = op.attr_str("input_precision", "ieee");
  if (!prec.empty() && prec != "ieee" && prec != "tf32" && prec != "tf32x3" && prec != "hf32")
    refuse(op, "input_precision '" + prec + "'");
  const ScalarType S = a->type.scalar;
  const ScalarType Acc = r->type.scalar;
  if (b->type.scalar != S) refuse(op, "operands of different dtypes");
  if (a->type.is_ptr || b->type.is_ptr) refuse(op, "pointer operands");
  const bool fl = ir::is_float(S);
  if (fl != ir::is_float(Acc) || S == ScalarType::I1 || Acc == ScalarType::I1)
    refuse(op, fmt::format("{} operands with a {} accumulator", ir::name(S), ir::name(Acc)));
  if (S == ScalarType::F64 && Acc != ScalarType::F64) refuse(op, "fp64 operands need an fp64 accumulator");
  const bool narrow_acc = Acc == ScalarType::F16 || Acc == ScalarType::BF16;
  if (fl && !narrow_acc && Acc != ScalarType::F32 && Acc != ScalarType::F64)
    refuse(op, std::string("accumulator type ") + std::string(ir::name(Acc)));
  const ScalarType CT = !fl ? Acc : Acc == ScalarType::F64 ? ScalarType::F64 : ScalarType::F32;
  const std::string ct = CExpr::ctype(ir::Type::of(CT));
  const int64_t cb = ir::byte_size(CT);
  const int64_t off_b = (B * M * K * cb + 15) / 16 * 16;
  need_smem(off_b + B * K * N * cb);

  ensure(a, layout_of(a));
  ensure(b, layout_of(b));
  line("__syncthreads();");
  std::string sa = fresh("sa"), sb = fresh("sb");
  line(fmt::format("{0}* const {1} = ({0}*)tr_smem;", ct, sa));
  line(fmt::format("{0}* const {1} = ({0}*)(tr_smem + {2});", ct, sb, off_b));
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
  line("__syncthreads();");
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
    if (!fl) step = fmt::format("tr_add<{0}>({1}, tr_mul<{0}>({2}, {3}))", ct, acc, x, y);
    else if (narrow_acc)
      step = cx().cast_expr(op, ScalarType::F64, Acc, "",
                            fmt::format("tr_fma_odd((double){}, (double){}, (double){})", x, y, CExpr::to_compute(Acc, acc)));
    else step = fmt::format("{}({}, {}, {})", CT == ScalarType::F64 ? "fma" : "fmaf", x, y, acc);
    line(fmt::format("{} = {};", acc, step));
  }
  close();
  bind_array(r, res);
}

}  // namespace tritium::codegen::cuda
