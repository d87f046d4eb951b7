// Module-level decorator calls (`f = triton.jit(f)`, `f = triton.heuristics({...})(f)`)
// turned into the decorators of the def they wrap (functional_decorators.cpp).
#pragma once
#include "frontend/ast.h"

namespace tritium::frontend {

/// For each top-level `F = <decorator calls>(F)` whose calls are only triton.jit /
/// autotune / heuristics and where F is an undecorated def above it: moves the calls onto
/// the def as decorators (outermost first) and replaces the assignment by a SkippedStmt.
/// Anything else is left as it is (host code).
void attach_functional_decorators(Module& m);

}  // namespace tritium::frontend
