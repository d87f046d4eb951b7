// IR verifier: structural and type rules of every op in ops.def.
#pragma once
#include <string>
#include <vector>

#include "ir/ir.h"

namespace tritium::ir {

/// Returns the list of violations (empty when the function is well formed): operand
/// counts, operand/result types per op, SSA dominance (a value is used only after its
/// definition, in the same block or an enclosing one), region terminators and their
/// operand types. Each message names the op and its source line.
std::vector<std::string> verify(const Function& fn, const Module* module = nullptr);

/// Throws std::logic_error listing the violations, if any (an internal compiler error:
/// the frontend and passes must never produce invalid IR).
void verify_or_throw(const Function& fn, const Module* module = nullptr);

}  // namespace tritium::ir
