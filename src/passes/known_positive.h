// Which integer scalars the compiler can prove are at least 1 in every launch, so the
// renderers may leave out run-time checks that only a value <= 0 fails (a for loop's
// "step must be positive" check, whose failure word costs a cuda launch a host wait).
#pragma once

#include "ir/ir.h"

namespace tritium::passes {

/// True only when `v` (a scalar integer) is >= 1 for every launch and every argument:
/// a positive integer constant; tl.num_programs(axis) (a grid dimension; an empty grid
/// runs no program); a widening integer cast of such a value (sign- or zero-extension
/// keeps a positive value); the max of two integers either of which is such a value.
/// Arithmetic (add, mul) is not followed: it may wrap. False when unsure.
bool known_positive(const ir::Value* v);

}  // namespace tritium::passes
