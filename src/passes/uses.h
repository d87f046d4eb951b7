// Use lists for the passes: which ops read a value, computed on demand over a function
// (the IR keeps no use lists of its own).
#pragma once
#include <cstddef>
#include <unordered_map>
#include <vector>

#include "ir/ir.h"

namespace tritium::passes {

/// One use of a value: operand `index` of `op`.
struct Use {
  ir::Op* op;
  size_t index;
};

/// Value → its uses, over every op of a block and its nested regions.
using UseMap = std::unordered_map<const ir::Value*, std::vector<Use>>;

/// Collects the uses of every value read inside `b` (recursively).
UseMap collect_uses(ir::Block& b);

/// Number of uses of `v` recorded in `uses`.
size_t use_count(const UseMap& uses, const ir::Value* v);

}  // namespace tritium::passes
