#include "passes/fold.h"

#include <unordered_map>

#include "ir/builder.h"
#include "ir/clone.h"
#include "passes/fold_eval.h"

namespace tritium::passes {
namespace {

using fold::Const;
using fold::constant_value;
using ir::Block;
using ir::Op;
using ir::OpKind;
using ir::Value;

/// True when `v` is an integer constant equal (canonically) to `x`.
bool is_int_const(const Value* v, int64_t x) {
  auto c = constant_value(v);
  return c && !c->is_float && c->i == x;
}

class Folder {
 public:
  explicit Folder(ir::Function& fn) : b_(fn) {}

  /// Folds the ops of `blk` (and their regions) in order. Defs precede uses in this walk, so
  /// rewriting operands through `repl_` on arrival is enough to redirect every use.
  void block(Block& blk) {
    for (size_t i = 0; i < blk.ops.size();) {
      Op& op = *blk.ops[i];
      for (auto& v : op.operands) v = get(v);
      if (op.kind == OpKind::If) {
        if (auto c = constant_value(op.operand(0))) {
          inline_if(blk, i, c->i != 0);
          continue;  // the taken region's ops now sit at i and are visited next
        }
      }
      if (op.kind == OpKind::For && zero_trip(op)) {
        for (size_t k = 0; k < op.results.size(); ++k) repl_[op.results[k]] = op.operands[3 + k];
        ir::take_op(blk, i);
        continue;
      }
      if (op.kind == OpKind::For) invariant_carried(op);
      for (auto& r : op.regions) block(r->block);
      i = fold_op(blk, i);
    }
  }

 private:
  ir::Builder b_;
  std::unordered_map<const Value*, Value*> repl_;

  Value* get(Value* v) {
    for (auto it = repl_.find(v); it != repl_.end(); it = repl_.find(v)) v = it->second;
    return v;
  }

  void inline_if(Block& blk, size_t i, bool taken) {
    Op& op = *blk.ops[i];
    Block& region = op.body(taken ? 0 : 1);
    size_t n = region.ops.size();
    if (n > 0 && region.ops.back()->kind == OpKind::Yield) {
      Op& yield = *region.ops.back();
      for (size_t k = 0; k < op.results.size() && k < yield.operands.size(); ++k)
        repl_[op.results[k]] = yield.operands[k];
      --n;
    }
    ir::move_ops(region, 0, n, blk, i);
    ir::take_op(blk, i + n);
  }

  /// A value a for loop carries unchanged (its body yields the block argument itself, e.g. a
  /// block pointer's shape and strides) is its initial value: the body and the code after the
  /// loop read that instead (DCE then drops the carried slot), so what is known about it
  /// (a constant stride of 1, divisibility) stays visible.
  void invariant_carried(Op& op) {
    if (op.regions.size() != 1) return;
    Block& body = op.body();
    if (body.ops.empty() || body.ops.back()->kind != OpKind::Yield) return;
    const Op& y = *body.ops.back();
    for (size_t k = 0; k < op.results.size(); ++k) {
      if (k >= y.operands.size() || k + 1 >= body.args.size() || 3 + k >= op.operands.size()) break;
      Value* v = get(y.operands[k]);  // through identities in the body (a tl.advance by 0)
      for (Value* w; v->def && v->def->parent == &body && (w = identity(*v->def)) != nullptr;) v = get(w);
      if (v != body.args[k + 1]) continue;
      repl_[body.args[k + 1]] = op.operands[3 + k];
      repl_[op.results[k]] = op.operands[3 + k];
    }
  }

  static bool zero_trip(const Op& op) {
    if (op.operands.size() < 3) return false;
    auto lb = constant_value(op.operand(0)), ub = constant_value(op.operand(1)), st = constant_value(op.operand(2));
    if (!lb || !ub || !st || lb->is_float) return false;
    ir::ScalarType t = op.operand(0)->type.scalar;
    if (op.operand(1)->type.scalar != t || op.operand(2)->type.scalar != t) return false;
    if (ir::is_signed_int(t)) return st->i > 0 && lb->i >= ub->i;
    return st->i != 0 && static_cast<uint64_t>(lb->i) >= static_cast<uint64_t>(ub->i);
  }

  /// Tries to fold the op at `i`; returns the index of the next op to visit.
  size_t fold_op(Block& blk, size_t i) {
    Op& op = *blk.ops[i];
    if (!(op.info().flags & ir::kPure) || !op.regions.empty() || op.results.size() != 1 ||
        op.kind == OpKind::Constant)
      return i + 1;
    if (Value* same = identity(op)) {
      repl_[op.result()] = same;
      ir::take_op(blk, i);
      return i;
    }
    std::vector<Const> args;
    for (Value* v : op.operands) {
      auto c = constant_value(v);
      if (!c) return i + 1;
      args.push_back(*c);
    }
    auto r = fold::evaluate(op, args);
    if (!r) return i + 1;
    b_.set_insertion_before(&blk, i);
    Value* c = r->is_float ? b_.const_float(op.result()->type, r->f, op.loc)
                           : b_.const_int(op.result()->type, r->i, op.loc);
    c->name = op.result()->name;
    repl_[op.result()] = c;
    ir::take_op(blk, i + 1);
    return i + 1;
  }

  /// The value `op` trivially equals, or nullptr.
  static Value* identity(const Op& op) {
    if (op.kind == OpKind::Select) {
      if (auto c = constant_value(op.operand(0))) return c->i != 0 ? op.operand(1) : op.operand(2);
      if (op.operand(1) == op.operand(2)) return op.operand(1);
      return nullptr;
    }
    if (op.kind == OpKind::AddPtr) return is_int_const(op.operand(1), 0) ? op.operand(0) : nullptr;
    if (op.operands.size() != 2 || !op.result()->type.is_int()) return nullptr;
    Value* x = op.operand(0);
    Value* y = op.operand(1);
    if (!(x->type == op.result()->type) || !(y->type == op.result()->type)) return nullptr;
    int64_t ones = fold::all_ones(op.result()->type.scalar);
    switch (op.kind) {
      case OpKind::Add:
        if (is_int_const(y, 0)) return x;
        if (is_int_const(x, 0)) return y;
        return nullptr;
      case OpKind::Sub: case OpKind::Xor: case OpKind::Shl: case OpKind::Shr:
        return is_int_const(y, 0) ? x : nullptr;
      case OpKind::Mul:
        if (is_int_const(y, 1)) return x;
        if (is_int_const(x, 1)) return y;
        if (is_int_const(y, 0)) return y;
        if (is_int_const(x, 0)) return x;
        return nullptr;
      case OpKind::IDiv:
        return is_int_const(y, 1) && op.result()->type.scalar != ir::ScalarType::I1 ? x : nullptr;
      case OpKind::And:
        if (is_int_const(y, ones)) return x;
        if (is_int_const(x, ones)) return y;
        if (is_int_const(y, 0)) return y;
        if (is_int_const(x, 0)) return x;
        return nullptr;
      case OpKind::Or:
        if (is_int_const(y, 0)) return x;
        if (is_int_const(x, 0)) return y;
        if (is_int_const(y, ones)) return y;
        if (is_int_const(x, ones)) return x;
        return nullptr;
      default:
        return nullptr;
    }
  }
};

}  // namespace

void fold_constants(ir::Function& fn) {
  Folder f(fn);
  f.block(fn.body);
}

}  // namespace tritium::passes
