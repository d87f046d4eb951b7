// IR builder: creates ops at an insertion point and checks op arity as it goes.
//
// Typical use (structured for loop with one loop-carried value):
//   Builder b(fn);
//   b.set_insertion_end(&fn.body);
//   Op* loop = b.create_for(lb, ub, step, {acc0}, loc);
//   { InsertionGuard g(b); b.set_insertion_end(&loop->body());
//     Value* iv = loop->body().args[0]; Value* acc = loop->body().args[1];
//     Value* next = b.binary(OpKind::Add, acc, iv, loc);
//     b.create(OpKind::Yield, {next}, {}, loc); }
//   Value* result = loop->result(0);
#pragma once
#include <initializer_list>
#include <utility>

#include "ir/ir.h"

namespace tritium::ir {

class Builder {
 public:
  explicit Builder(Function& fn) : fn_(&fn) {}

  Function& function() { return *fn_; }
  void set_insertion_end(Block* b) { block_ = b; pos_ = -1; }
  /// Inserts before the op at `index` of block `b`.
  void set_insertion_before(Block* b, size_t index) { block_ = b; pos_ = static_cast<long>(index); }
  Block* block() const { return block_; }
  long position() const { return pos_; }

  /// Creates an op with fresh result values of `result_types`, and `num_regions` empty
  /// regions. Throws std::logic_error when the operand count violates ops.def.
  Op* create(OpKind kind, std::vector<Value*> operands, std::vector<Type> result_types, const Loc& loc,
             std::map<std::string, Attr> attrs = {}, int num_regions = 0);

  /// Adds an argument of type `t` to block `b`.
  Value* add_block_arg(Block& b, Type t);

  // ---- conveniences (all single-result) ----
  Value* const_int(Type t, int64_t v, const Loc& loc);
  Value* const_float(Type t, double v, const Loc& loc);
  Value* unary(OpKind k, Value* a, const Loc& loc);
  Value* binary(OpKind k, Value* a, Value* b, const Loc& loc);
  Value* cmp(const std::string& pred, Value* a, Value* b, const Loc& loc);
  Value* math(MathFn f, std::vector<Value*> args, Type result, const Loc& loc);
  Value* cast(Value* a, ScalarType to, const Loc& loc, const std::string& rounding = "");
  Value* bitcast(Value* a, Type to, const Loc& loc);
  Value* splat(Value* scalar, std::vector<int64_t> shape, const Loc& loc);
  Value* broadcast(Value* t, std::vector<int64_t> shape, const Loc& loc);
  Value* expand_dims(Value* t, int axis, const Loc& loc);
  Value* select(Value* c, Value* a, Value* b, const Loc& loc);

  /// for lb..ub step: body block gets args (iv, iters...). Results = iters.
  Op* create_for(Value* lb, Value* ub, Value* step, std::vector<Value*> inits, const Loc& loc);
  /// if cond: two regions (then, else), results of `result_types` (each branch yields).
  Op* create_if(Value* cond, std::vector<Type> result_types, const Loc& loc);
  /// while: region 0 "before" with args typed like inits; region 1 "after" with args of
  /// `after_types` (= the values passed by condition); results = after_types.
  Op* create_while(std::vector<Value*> inits, std::vector<Type> after_types, const Loc& loc);
  /// reduce/scan: combine region with 2N scalar args (lhs..., rhs...).
  /// Appends a result of type `t` to `op` (for ops whose result types are known only once
  /// their region is built, e.g. map_elementwise).
  Value* add_result(Op* op, Type t);
  Op* create_reduce(OpKind kind, std::vector<Value*> operands, int axis, std::vector<Type> result_types,
                    const Loc& loc);

 private:
  Function* fn_;
  Block* block_ = nullptr;
  long pos_ = -1;
};

/// Restores the builder's insertion point on scope exit.
class InsertionGuard {
 public:
  explicit InsertionGuard(Builder& b) : b_(b), block_(b.block()), pos_(b.position()) {}
  ~InsertionGuard() {
    if (pos_ < 0) b_.set_insertion_end(block_); else b_.set_insertion_before(block_, static_cast<size_t>(pos_));
  }
 private:
  Builder& b_;
  Block* block_;
  long pos_;
};

}  // namespace tritium::ir
