#include "ir/builder.h"

#include <stdexcept>

namespace tritium::ir {
namespace {

// The most elements a tensor may have: upstream's TRITON_MAX_TENSOR_NUMEL (2**20), checked
// by upstream whenever it makes a block type (language/core.py block_type). Builder::create
// refuses an op whose result passes it, at the op: the construct that made the tensor
// (tl.arange / tl.full / block shapes also check it where their arguments are read).
constexpr int64_t kMaxTensorNumel = int64_t{1} << 20;

// Whether `t` has more than kMaxTensorNumel elements (no overflow for any shape).
bool exceeds_max_numel(const Type& t) {
  int64_t n = 1;
  for (int64_t d : t.shape) {
    if (d > kMaxTensorNumel) return true;
    n *= d;  // both factors <= 2**20
    if (n > kMaxTensorNumel) return true;
  }
  return false;
}

}  // namespace

Op* Builder::create(OpKind kind, std::vector<Value*> operands, std::vector<Type> result_types, const Loc& loc,
                    std::map<std::string, Attr> attrs, int num_regions) {
  const OpInfo& info = op_info(kind);
  int n = static_cast<int>(operands.size());
  if (n < info.min_operands || (info.max_operands >= 0 && n > info.max_operands))
    throw std::logic_error(std::string("builder: wrong operand count for ") + info.name);
  if (kind == OpKind::Load && n > 3 && !attrs.count("window"))  // ops.def: the window follows ptr, mask, other
    throw std::logic_error("builder: wrong operand count for load (more than 3 need a \"window\" attribute)");
  if (info.num_results >= 0 && static_cast<int>(result_types.size()) != info.num_results)
    throw std::logic_error(std::string("builder: wrong result count for ") + info.name);
  for (auto* v : operands)
    if (!v) throw std::logic_error(std::string("builder: null operand for ") + info.name);
  if (!block_) throw std::logic_error("builder: no insertion point");
  for (const Type& t : result_types)  // upstream's block_type check, at the construct
    if (exceeds_max_numel(t)) {
      // The element count, or "> 2**62" where it would not fit in 64 bits.
      long double elems = 1;
      for (int64_t d : t.shape) elems *= static_cast<long double>(d);
      const std::string count = elems < 4.6e18L ? std::to_string(static_cast<int64_t>(elems)) : std::string("> 2**62");
      throw frontend::CompileError(loc, "numel (" + count + ") exceeds triton maximum tensor numel (" +
                                            std::to_string(kMaxTensorNumel) + ")");
    }
  auto op = std::make_unique<Op>();
  op->kind = kind;
  op->loc = loc;
  op->operands = std::move(operands);
  op->attrs = std::move(attrs);
  op->parent = block_;
  for (size_t i = 0; i < result_types.size(); ++i) {
    Value* v = fn_->new_value(std::move(result_types[i]));
    v->def = op.get();
    v->index = static_cast<int>(i);
    op->results.push_back(v);
  }
  for (int i = 0; i < num_regions; ++i) {
    op->regions.push_back(std::make_unique<Region>());
    op->regions.back()->block.parent = op.get();
  }
  Op* raw = op.get();
  if (pos_ < 0) {
    block_->ops.push_back(std::move(op));
  } else {
    block_->ops.insert(block_->ops.begin() + pos_, std::move(op));
    ++pos_;
  }
  return raw;
}

Value* Builder::add_result(Op* op, Type t) {
  Value* v = fn_->new_value(std::move(t));
  v->def = op;
  v->index = static_cast<int>(op->results.size());
  op->results.push_back(v);
  return v;
}

Value* Builder::add_block_arg(Block& b, Type t) {
  Value* v = fn_->new_value(std::move(t));
  v->block = &b;
  v->index = static_cast<int>(b.args.size());
  b.args.push_back(v);
  return v;
}

Value* Builder::const_int(Type t, int64_t v, const Loc& loc) {
  return create(OpKind::Constant, {}, {std::move(t)}, loc, {{"value", v}})->result();
}
Value* Builder::const_float(Type t, double v, const Loc& loc) {
  return create(OpKind::Constant, {}, {std::move(t)}, loc, {{"value", v}})->result();
}
Value* Builder::unary(OpKind k, Value* a, const Loc& loc) { return create(k, {a}, {a->type}, loc)->result(); }
Value* Builder::binary(OpKind k, Value* a, Value* b, const Loc& loc) {
  return create(k, {a, b}, {a->type}, loc)->result();
}
Value* Builder::cmp(const std::string& pred, Value* a, Value* b, const Loc& loc) {
  return create(OpKind::Cmp, {a, b}, {a->type.with_scalar(ScalarType::I1)}, loc, {{"pred", pred}})->result();
}
Value* Builder::math(MathFn f, std::vector<Value*> args, Type result, const Loc& loc) {
  return create(OpKind::Math, std::move(args), {std::move(result)}, loc, {{"fn", static_cast<int64_t>(f)}})->result();
}
Value* Builder::cast(Value* a, ScalarType to, const Loc& loc, const std::string& rounding) {
  std::map<std::string, Attr> attrs;
  if (!rounding.empty()) attrs["rounding"] = rounding;
  return create(OpKind::Cast, {a}, {a->type.with_scalar(to)}, loc, std::move(attrs))->result();
}
Value* Builder::bitcast(Value* a, Type to, const Loc& loc) {
  return create(OpKind::Bitcast, {a}, {std::move(to)}, loc)->result();
}
Value* Builder::splat(Value* s, std::vector<int64_t> shape, const Loc& loc) {
  return create(OpKind::Splat, {s}, {s->type.with_shape(std::move(shape))}, loc)->result();
}
Value* Builder::broadcast(Value* t, std::vector<int64_t> shape, const Loc& loc) {
  return create(OpKind::Broadcast, {t}, {t->type.with_shape(std::move(shape))}, loc)->result();
}
Value* Builder::expand_dims(Value* t, int axis, const Loc& loc) {
  auto shape = t->type.shape;
  shape.insert(shape.begin() + axis, 1);
  return create(OpKind::ExpandDims, {t}, {t->type.with_shape(std::move(shape))}, loc,
                {{"axis", static_cast<int64_t>(axis)}})
      ->result();
}
Value* Builder::select(Value* c, Value* a, Value* b, const Loc& loc) {
  return create(OpKind::Select, {c, a, b}, {a->type}, loc)->result();
}

Op* Builder::create_for(Value* lb, Value* ub, Value* step, std::vector<Value*> inits, const Loc& loc) {
  std::vector<Value*> operands = {lb, ub, step};
  std::vector<Type> types;
  for (auto* v : inits) {
    operands.push_back(v);
    types.push_back(v->type);
  }
  Op* op = create(OpKind::For, std::move(operands), types, loc, {}, 1);
  add_block_arg(op->body(), lb->type);
  for (auto& t : types) add_block_arg(op->body(), t);
  return op;
}

Op* Builder::create_if(Value* cond, std::vector<Type> result_types, const Loc& loc) {
  return create(OpKind::If, {cond}, std::move(result_types), loc, {}, 2);
}

Op* Builder::create_while(std::vector<Value*> inits, std::vector<Type> after_types, const Loc& loc) {
  Op* op = create(OpKind::While, inits, after_types, loc, {}, 2);
  for (auto* v : inits) add_block_arg(op->body(0), v->type);
  for (auto& t : after_types) add_block_arg(op->body(1), t);
  return op;
}

Op* Builder::create_reduce(OpKind kind, std::vector<Value*> operands, int axis, std::vector<Type> result_types,
                           const Loc& loc) {
  std::vector<Type> elems;
  for (auto* v : operands) elems.push_back(v->type.element());
  Op* op = create(kind, std::move(operands), std::move(result_types), loc, {{"axis", static_cast<int64_t>(axis)}}, 1);
  for (int side = 0; side < 2; ++side)
    for (auto& t : elems) add_block_arg(op->body(), t);
  return op;
}

}  // namespace tritium::ir
