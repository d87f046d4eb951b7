// Deep copies of ops and blocks, and small in-place editing helpers shared by the passes.
//
// Cloning creates fresh values in the destination function (the builder's) for every op
// result and every block argument of the copied regions, and rewrites operands through a
// value map. Operands that the map does not contain are referenced as they are, which is
// what cloning inside one function wants (values of enclosing blocks stay shared); when
// cloning across functions (inlining), the caller maps every outside value first.
//
// Example: cloning `%5 = add %3, %4 : i32` with map {%3 → %10} inserts
// `%11 = add %10, %4 : i32` at the builder's insertion point and records %5 → %11.
#pragma once
#include <cstddef>
#include <unordered_map>

#include "ir/builder.h"
#include "ir/ir.h"

namespace tritium::ir {

/// Source value → cloned value.
using ValueMap = std::unordered_map<const Value*, Value*>;

/// Looks `v` up in `map`; returns `v` itself when it is not mapped.
Value* lookup(const ValueMap& map, Value* v);

/// Deep-copies `op` (attributes, location, regions with their block arguments and ops) at
/// the builder's insertion point. Operands are remapped through `map`; the results and all
/// block arguments and values defined inside the copied regions are added to `map`.
/// Returns the new op.
Op* clone_op(Builder& b, const Op& op, ValueMap& map);

/// Clones every op of `src` (not its arguments) at the builder's insertion point, in order.
/// When `skip_terminator` is set, a final terminator op (yield/return/condition) is left out.
void clone_ops(Builder& b, const Block& src, ValueMap& map, bool skip_terminator = false);

/// Removes the op at `index` of `b` and returns ownership of it (its results stay owned by
/// the function; any remaining use of them is the caller's responsibility).
std::unique_ptr<Op> take_op(Block& b, size_t index);

/// Index of `op` within its parent block (throws std::logic_error if it is not there).
size_t index_in_parent(const Op& op);

/// Moves the ops [first, last) of `from` into `to` before position `pos`, updating their
/// parent pointers. `from` and `to` must be different blocks.
void move_ops(Block& from, size_t first, size_t last, Block& to, size_t pos);

/// Removes result `i` of `op`, renumbering the following results.
void erase_result(Op& op, size_t i);
/// Removes argument `i` of `b`, renumbering the following arguments.
void erase_block_arg(Block& b, size_t i);

}  // namespace tritium::ir
