// The parameters of a Dot op (see dot_params.h).
#include "ir/dot_params.h"

#include <fmt/format.h>

namespace tritium::ir {

DotParams dot_params(const Op& op, const std::string& backend) {
  auto refuse = [&](const std::string& why) {
    throw frontend::CompileError(op.loc, backend + " backend: " + op.name() + " not supported: " + why);
  };
  const Value* a = op.operands[0];
  const Value* b = op.operands[1];
  const Value* c = op.operands[2];
  const Value* r = op.results[0];
  const auto& as = a->type.shape;
  const auto& bs = b->type.shape;
  DotParams p;
  p.rank = as.size();
  const size_t rank = p.rank;
  if (rank < 2 || rank > 3 || bs.size() != rank || c->type.shape.size() != rank) refuse("dot needs rank-2 or rank-3 operands");
  p.M = as[rank - 2];
  p.K = as[rank - 1];
  p.N = bs[rank - 1];
  p.B = rank == 3 ? as[0] : 1;
  if (bs[rank - 2] != p.K || c->type.shape[rank - 2] != p.M || c->type.shape[rank - 1] != p.N) refuse("dot shapes");
  p.input_precision = op.attr_str("input_precision", "ieee");
  const std::string& prec = p.input_precision;
  if (!prec.empty() && prec != "ieee" && prec != "tf32" && prec != "tf32x3" && prec != "hf32")
    refuse("input_precision '" + prec + "'");
  const ScalarType S = p.operand = a->type.scalar;
  const ScalarType Acc = p.acc = r->type.scalar;
  if (b->type.scalar != S) refuse("operands of different dtypes");
  if (a->type.is_ptr || b->type.is_ptr) refuse("pointer operands");
  const bool fl = p.is_float = ir::is_float(S);
  if (fl != ir::is_float(Acc) || S == ScalarType::I1 || Acc == ScalarType::I1)
    refuse(fmt::format("{} operands with a {} accumulator", ir::name(S), ir::name(Acc)));
  if (S == ScalarType::F64 && Acc != ScalarType::F64) refuse("fp64 operands need an fp64 accumulator");
  p.narrow_acc = Acc == ScalarType::F16 || Acc == ScalarType::BF16;
  if (fl && !p.narrow_acc && Acc != ScalarType::F32 && Acc != ScalarType::F64)
    refuse(std::string("accumulator type ") + std::string(ir::name(Acc)));
  p.compute = !fl ? Acc : Acc == ScalarType::F64 ? ScalarType::F64 : ScalarType::F32;
  return p;
}

}  // namespace tritium::ir
