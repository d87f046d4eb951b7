#include "passes/licm.h"

#include <unordered_set>

#include "ir/clone.h"
#include "passes/fold_eval.h"

namespace tritium::passes {
namespace {

using ir::Block;
using ir::Op;
using ir::OpKind;
using ir::Value;

/// True when executing `op` where the program might not have executed it cannot trap.
bool safe_to_speculate(const Op& op) {
  if ((op.kind == OpKind::IDiv || op.kind == OpKind::Rem) && op.result()->type.is_int()) {
    auto d = fold::constant_value(op.operand(1));
    if (!d || d->i == 0) return false;
    ir::ScalarType t = op.result()->type.scalar;
    if (ir::is_signed_int(t) && d->i == -1) return false;
    return true;
  }
  if (op.kind == OpKind::Cast && op.operand(0)->type.is_float() && op.result()->type.is_int()) return false;
  return true;
}

/// Hoists invariant ops of the `for` at `blk.ops[index]`; returns how many were hoisted.
size_t hoist_from(Block& blk, size_t index) {
  Op& loop = *blk.ops[index];
  Block& body = loop.body();
  std::unordered_set<const Value*> inside(body.args.begin(), body.args.end());
  size_t hoisted = 0;
  for (size_t j = 0; j < body.ops.size();) {
    Op& op = *body.ops[j];
    bool invariant = (op.info().flags & ir::kPure) && op.regions.empty() && !op.results.empty();
    for (const Value* v : op.operands)
      if (inside.count(v)) invariant = false;
    if (invariant && safe_to_speculate(op)) {
      ir::move_ops(body, j, j + 1, blk, index + hoisted);
      ++hoisted;
      continue;
    }
    for (const Value* r : op.results) inside.insert(r);
    ++j;
  }
  return hoisted;
}

void process(Block& blk) {
  for (size_t i = 0; i < blk.ops.size(); ++i) {
    Op& op = *blk.ops[i];
    for (auto& r : op.regions) process(r->block);
    if (op.kind == OpKind::For && op.regions.size() == 1) i += hoist_from(blk, i);
  }
}

}  // namespace

void hoist_loop_invariants(ir::Function& fn) { process(fn.body); }

}  // namespace tritium::passes
