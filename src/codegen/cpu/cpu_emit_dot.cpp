// CPU renderer: tl.dot as a sequential FMA chain over k ascending per output element,
// the accumulator starting from `acc`:  c[i][j] = fma(a[i][k], b[k][j], c[i][j]), k = 0..K-1.
// The loops run i, k, j (j innermost), which keeps the per-element k order and lets the
// compiler vectorise over j. Operands are converted exactly to the compute type first
// (fp8/fp16/bf16/fp32 -> float, fp64 -> double). An fp32 / fp64 accumulator takes one fmaf /
// fma per step; an fp16 / bf16 accumulator (out_dtype) rounds each step once from the exact
// a*b + r. Integer dots (int8 -> int32) accumulate with wrap-around. Every input_precision computes IEEE fp32 on the CPU (the
// CPU has no tf32 unit; Triton uses tf32 only "where the target has it").
#include <fmt/format.h>

#include "codegen/cpu/cpu_emitter.h"
#include "ir/dot_params.h"

namespace tritium::codegen::cpu {

using ir::Op;
using ir::ScalarType;
using ir::Value;

void Emitter::emit_dot(const Op& op) {
  const Value* a = op.operands[0];
  const Value* b = op.operands[1];
  const Value* c = op.operands[2];
  const Value* r = op.results[0];
  // Shapes, dtypes and refusals: ir/dot_params.h (shared with the cuda renderer).
  const ir::DotParams dp = ir::dot_params(op, "cpu");
  const int64_t M = dp.M, K = dp.K, N = dp.N, B = dp.B;
  const ScalarType Acc = dp.acc;
  const bool fl = dp.is_float, narrow_acc = dp.narrow_acc;
  const ScalarType CT = dp.compute;  // operands are converted to it exactly
  const std::string ct = ctype(ir::Type::of(CT));

  auto operand = [&](const Value* v) -> std::string {
    if (v->type.scalar == CT && storage(v) == Storage::Array) return name(v);
    if (const std::string* d = twin(v); d && CT == ScalarType::F32) return *d;  // decoded already
    std::string n = declare_array(v->type.with_scalar(CT), "d");
    loop_nest(v->type.shape, [&](const Idx& i) {
      std::string x = fl ? compute_elem(v, i) : fmt::format("({})({})", ct, elem(v, i));
      if (CT == ScalarType::F64 && v->type.scalar != ScalarType::F64) x = "(double)(" + x + ")";
      line(fmt::format("{}[{}] = {};", n, i.lin, x));
    });
    return n;
  };
  std::string da = operand(a);
  std::string db = operand(b);
  // The result array holds the running accumulator (in its own type). A loop-carried
  // accumulator read only by this dot, whose result only feeds the same slot of the loop's
  // yield (acc = dot(a, b, acc)), is updated in place.
  bool in_place = false;
  if (storage(c) == Storage::Array && !c->def && c->block && c->block->parent &&
      c->block->parent->kind == ir::OpKind::For && users(c).size() == 1 && users(r).size() == 1) {
    const Op* y = users(r)[0];
    if (y->kind == ir::OpKind::Yield && y->parent == c->block)
      for (size_t k = 0; k < y->operands.size(); ++k)
        if (y->operands[k] == r && k + 1 < c->block->args.size() && c->block->args[k + 1] == c) in_place = true;
  }
  std::string res;
  if (in_place) {
    res = name(c);
  } else {
    res = declare_array(r->type, "v");
    materialize_into(res, c);
  }
  const std::string acc_t = ctype(r->type.element());

  std::string bi = fresh("b"), i = fresh("i"), k = fresh("k"), j = fresh("j");
  std::string cr = fresh("cr");
  if (B > 1) open(fmt::format("for (int64_t {0} = 0; {0} < {1}; ++{0})", bi, B));
  std::string boff = B > 1 ? bi : "0";
  open(fmt::format("for (int64_t {0} = 0; {0} < {1}; ++{0})", i, M));
  line(fmt::format("{}{}* {}{} = {} + ({}*{} + {})*{};", priv(), acc_t, restrict_kw(), cr, res, boff, M, i, N));
  // One step k of the chain for element j, given the a value x and the b row br.
  auto step = [&](const std::string& x, const std::string& br, const std::string& acc) -> std::string {
    if (!fl) return tcall("tr_add", ct, acc + ", " + tcall("tr_mul", ct, fmt::format("{}, {}[{}]", x, br, j)));
    if (narrow_acc)
      return cast_expr(op, ScalarType::F64, Acc, "",
                       fmt::format("tr_fma_odd((double){}, (double){}[{}], (double){})", x, br, j, to_compute(Acc, acc)));
    return fmt::format("{}({}, {}[{}], {})", CT == ScalarType::F64 || cl_like() ? "fma" : "fmaf", x, br, j, acc);
  };
  auto operands_at = [&](const std::string& kk, std::string* x, std::string* br) {
    *x = fresh("x");
    *br = fresh("br");
    line(fmt::format("const {} {} = {}[({}*{} + {})*{} + {}];", ct, *x, da, boff, M, i, K, kk));
    line(fmt::format("{}const {}* {}{} = {} + ({}*{} + {})*{};", priv(), ct, restrict_kw(), *br, db, boff, K, kk, N));
  };
  // Four k steps per pass over the row (fp32 / fp64): the accumulator stays in registers
  // across them and the per-element order is still k ascending.
  const int64_t unroll = (fl && !narrow_acc && K >= 4) ? 4 : 1;
  line(fmt::format("int64_t {} = 0;", k));
  if (unroll > 1) {
    open(fmt::format("for (; {0} + {1} <= {2}; {0} += {1})", k, unroll, K));
    std::vector<std::string> xs(unroll), brs(unroll);
    for (int64_t u = 0; u < unroll; ++u) operands_at(fmt::format("{} + {}", k, u), &xs[u], &brs[u]);
    std::string chain = fmt::format("{}[{}]", cr, j);
    for (int64_t u = 0; u < unroll; ++u) chain = step(xs[u], brs[u], chain);
    line(fmt::format("for (int64_t {0} = 0; {0} < {1}; ++{0}) {2}[{0}] = {3};", j, N, cr, chain));
    close();
  }
  open(fmt::format("for (; {0} < {1}; ++{0})", k, K));
  {
    std::string x, br;
    operands_at(k, &x, &br);
    line(fmt::format("for (int64_t {0} = 0; {0} < {1}; ++{0}) {2}[{0}] = {3};", j, N, cr, step(x, br, fmt::format("{}[{}]", cr, j))));
  }
  close();
  close();
  if (B > 1) close();
  bind(r, res, Storage::Array);
}

}  // namespace tritium::codegen::cpu
