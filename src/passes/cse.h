// Pass "cse": common-subexpression elimination of pure ops.
//
// Two ops are the same expression when they are kPure, own no regions, and have the same
// kind, the same operands (as values), the same attributes (floats compared bit for bit, so
// 0.0 and -0.0 stay apart) and the same result types. The later op's results are replaced
// by the earlier op's and the later op is removed.
//
// Scoping follows dominance of the structured IR: an expression computed in a block is
// available in that block after it and inside the regions of later ops (nested blocks),
// never outside the block it was computed in (a value from a loop body or an if branch is
// not reused after the loop or the if).
//
// Entry point: eliminate_common_subexpressions(fn).
//
// Example:
//   %2 = add %0, %1 : i32              %2 = add %0, %1 : i32
//   %3 = add %0, %1 : i32     ==>      %4 = mul %2, %2 : i32
//   %4 = mul %2, %3 : i32
#pragma once
#include "ir/ir.h"

namespace tritium::passes {

/// Removes redundant pure ops of `fn` in place.
void eliminate_common_subexpressions(ir::Function& fn);

}  // namespace tritium::passes
