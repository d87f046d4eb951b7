#include "ir/clone.h"

#include <stdexcept>

namespace tritium::ir {

Value* lookup(const ValueMap& map, Value* v) {
  auto it = map.find(v);
  return it == map.end() ? v : it->second;
}

Op* clone_op(Builder& b, const Op& op, ValueMap& map) {
  std::vector<Value*> operands;
  operands.reserve(op.operands.size());
  for (Value* v : op.operands) operands.push_back(lookup(map, v));
  std::vector<Type> types;
  types.reserve(op.results.size());
  for (const Value* r : op.results) types.push_back(r->type);
  Op* copy = b.create(op.kind, std::move(operands), std::move(types), op.loc, op.attrs,
                      static_cast<int>(op.regions.size()));
  for (size_t i = 0; i < op.results.size(); ++i) {
    copy->results[i]->name = op.results[i]->name;
    map[op.results[i]] = copy->results[i];
  }
  for (size_t r = 0; r < op.regions.size(); ++r) {
    const Block& src = op.regions[r]->block;
    Block& dst = copy->regions[r]->block;
    for (const Value* a : src.args) {
      Value* na = b.add_block_arg(dst, a->type);
      na->name = a->name;
      map[a] = na;
    }
    InsertionGuard guard(b);
    b.set_insertion_end(&dst);
    clone_ops(b, src, map);
  }
  return copy;
}

void clone_ops(Builder& b, const Block& src, ValueMap& map, bool skip_terminator) {
  size_t n = src.ops.size();
  if (skip_terminator && n > 0 && (src.ops.back()->info().flags & kTerminator)) --n;
  for (size_t i = 0; i < n; ++i) clone_op(b, *src.ops[i], map);
}

std::unique_ptr<Op> take_op(Block& b, size_t index) {
  if (index >= b.ops.size()) throw std::logic_error("take_op: index out of range");
  std::unique_ptr<Op> op = std::move(b.ops[index]);
  b.ops.erase(b.ops.begin() + static_cast<long>(index));
  op->parent = nullptr;
  return op;
}

size_t index_in_parent(const Op& op) {
  if (!op.parent) throw std::logic_error("index_in_parent: op has no parent block");
  const auto& ops = op.parent->ops;
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i].get() == &op) return i;
  throw std::logic_error("index_in_parent: op not found in its parent block");
}

void move_ops(Block& from, size_t first, size_t last, Block& to, size_t pos) {
  if (&from == &to) throw std::logic_error("move_ops: source and destination are the same block");
  if (first > last || last > from.ops.size() || pos > to.ops.size())
    throw std::logic_error("move_ops: range out of bounds");
  std::vector<std::unique_ptr<Op>> moved;
  moved.reserve(last - first);
  for (size_t i = first; i < last; ++i) {
    from.ops[i]->parent = &to;
    moved.push_back(std::move(from.ops[i]));
  }
  from.ops.erase(from.ops.begin() + static_cast<long>(first), from.ops.begin() + static_cast<long>(last));
  to.ops.insert(to.ops.begin() + static_cast<long>(pos), std::make_move_iterator(moved.begin()),
                std::make_move_iterator(moved.end()));
}

void erase_result(Op& op, size_t i) {
  if (i >= op.results.size()) throw std::logic_error("erase_result: index out of range");
  op.results[i]->def = nullptr;
  op.results.erase(op.results.begin() + static_cast<long>(i));
  for (size_t k = i; k < op.results.size(); ++k) op.results[k]->index = static_cast<int>(k);
}

void erase_block_arg(Block& b, size_t i) {
  if (i >= b.args.size()) throw std::logic_error("erase_block_arg: index out of range");
  b.args[i]->block = nullptr;
  b.args.erase(b.args.begin() + static_cast<long>(i));
  for (size_t k = i; k < b.args.size(); ++k) b.args[k]->index = static_cast<int>(k);
}

}  // namespace tritium::ir
