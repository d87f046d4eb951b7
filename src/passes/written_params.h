// Which pointer parameters of a kernel it may write through: the kernel's Store, AtomicRMW
// and AtomicCAS pointer operands traced back through pointer-valued ops to the kernel's
// parameters. Conservative: a pointer whose origin is not a parameter by a traceable chain
// (loaded from memory, made from an integer, carried through a loop) counts as writing
// every pointer parameter. Used to refuse read-only memory for a written parameter at launch.
#pragma once
#include <vector>

#include "ir/ir.h"

namespace tritium::passes {

/// One flag per kernel parameter (fn.body.args order): true when the kernel may write
/// through it (always false for non-pointer parameters).
std::vector<bool> written_params(const ir::Function& kernel);

}  // namespace tritium::passes
