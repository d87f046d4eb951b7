#include "passes/dce.h"

#include <set>
#include <unordered_map>

#include "ir/clone.h"
#include "passes/uses.h"

namespace tritium::passes {
namespace {

using ir::Block;
using ir::Op;
using ir::OpKind;
using ir::Value;

/// True when every region of `op` holds at most its terminator.
bool regions_empty(const Op& op) {
  for (const auto& r : op.regions) {
    const auto& ops = r->block.ops;
    if (ops.size() > 1 || (ops.size() == 1 && ops[0]->kind != OpKind::Yield)) return false;
  }
  return true;
}

class Dce {
 public:
  bool changed = false;

  void run(ir::Function& fn) {
    do {
      changed = false;
      counts_.clear();
      ir::walk(fn.body, [&](Op& op) {
        for (Value* v : op.operands) ++counts_[v];
      });
      sweep(fn.body);
      UseMap uses = collect_uses(fn.body);
      simplify_control(fn.body, uses);
    } while (changed);
  }

 private:
  std::unordered_map<const Value*, size_t> counts_;

  bool unused(const Op& op) const {
    for (const Value* r : op.results) {
      auto it = counts_.find(r);
      if (it != counts_.end() && it->second != 0) return false;
    }
    return true;
  }

  bool removable(const Op& op) const {
    if (!unused(op)) return false;
    if (op.info().flags & ir::kPure) return true;
    // Control flow without results and with empty bodies does nothing.
    return (op.kind == OpKind::If || op.kind == OpKind::For) && op.results.empty() && regions_empty(op);
  }

  void forget_uses(Op& op) {
    for (Value* v : op.operands) --counts_[v];
    for (auto& r : op.regions) ir::walk(r->block, [&](Op& inner) {
        for (Value* v : inner.operands) --counts_[v];
      });
  }

  /// Removes removable ops, last first, recursing into the regions of the ops kept.
  void sweep(Block& blk) {
    for (size_t i = blk.ops.size(); i-- > 0;) {
      Op& op = *blk.ops[i];
      if (removable(op)) {
        forget_uses(op);
        ir::take_op(blk, i);
        changed = true;
        continue;
      }
      for (auto& r : op.regions) sweep(r->block);
      if (removable(op)) {  // a control op may have emptied out
        forget_uses(op);
        ir::take_op(blk, i);
        changed = true;
      }
    }
  }

  /// Applies the first applicable control-flow simplification; returns true when it changed
  /// the IR (the use lists are then stale and the caller starts a new round).
  bool simplify_control(Block& blk, const UseMap& uses) {
    for (auto& owned : blk.ops) {
      Op& op = *owned;
      for (auto& r : op.regions)
        if (simplify_control(r->block, uses)) return true;
      if (op.kind == OpKind::If && prune_if(op, uses)) return true;
      if (op.kind == OpKind::For && prune_for(op, uses)) return true;
    }
    return false;
  }

  bool prune_if(Op& op, const UseMap& uses) {
    bool pruned = false;
    for (size_t k = op.results.size(); k-- > 0;) {
      if (use_count(uses, op.results[k]) != 0) continue;
      for (auto& r : op.regions) {
        auto& ops = r->block.ops;
        if (!ops.empty() && ops.back()->kind == OpKind::Yield && k < ops.back()->operands.size())
          ops.back()->operands.erase(ops.back()->operands.begin() + static_cast<long>(k));
      }
      ir::erase_result(op, k);
      changed = pruned = true;
    }
    return pruned;
  }

  /// True when `v` is used only by yield operand `pos` of `body`, directly or through pure
  /// region-free ops of `body` whose results satisfy the same; those ops are added to `chain`.
  static bool only_feeds_own_yield(const Value* v, const Op& yield, size_t pos, const Block& body,
                                   const UseMap& uses, std::set<Op*>& chain) {
    auto it = uses.find(v);
    if (it == uses.end()) return true;
    for (const Use& u : it->second) {
      if (u.op == &yield) {
        if (u.index != pos) return false;
        continue;
      }
      if (u.op->parent != &body || !(u.op->info().flags & ir::kPure) || !u.op->regions.empty()) return false;
      if (!chain.insert(u.op).second) continue;  // already checked
      for (const Value* r : u.op->results)
        if (!only_feeds_own_yield(r, yield, pos, body, uses, chain)) return false;
    }
    return true;
  }

  bool prune_for(Op& op, const UseMap& uses) {
    if (op.regions.size() != 1) return false;
    Block& body = op.body();
    if (body.ops.empty() || body.ops.back()->kind != OpKind::Yield) return false;
    Op& yield = *body.ops.back();
    for (size_t k = op.results.size(); k-- > 0;) {
      if (use_count(uses, op.results[k]) != 0) continue;
      if (k + 1 >= body.args.size() || k >= yield.operands.size() || 3 + k >= op.operands.size()) continue;
      std::set<Op*> chain;
      if (!only_feeds_own_yield(body.args[k + 1], yield, k, body, uses, chain)) continue;
      yield.operands.erase(yield.operands.begin() + static_cast<long>(k));
      for (size_t i = body.ops.size(); i-- > 0;)
        if (chain.count(body.ops[i].get())) ir::take_op(body, i);
      ir::erase_block_arg(body, k + 1);
      op.operands.erase(op.operands.begin() + static_cast<long>(3 + k));
      ir::erase_result(op, k);
      changed = true;
      return true;
    }
    return false;
  }
};

}  // namespace

void eliminate_dead_code(ir::Function& fn) {
  Dce d;
  d.run(fn);
}

}  // namespace tritium::passes
