// Module-level decorator calls (`f = triton.jit(f)`, `f = triton.heuristics({...})(f)`)
// turned into the decorators of the def they wrap (functional_decorators.cpp).
#pragma once
#include "frontend/ast.h"

namespace tritium::frontend {

/// For each top-level `G = <decorator calls>(F)` whose calls are only triton.jit /
/// autotune / heuristics and where F is an undecorated def above it: moves the calls onto
/// the def as decorators (outermost first) and replaces the assignment by a SkippedStmt
/// when G is F, by `G = F` otherwise (the kernel keeps F's name; G refers to it in kernels
/// as in Python). Anything else is left as it is (host code).
void attach_functional_decorators(Module& m);

/// Renames decorators spelled with an alias of triton's or tritium's jit / autotune /
/// heuristics — `from triton import jit as myjit`, `myjit = triton.jit` at top level — to
/// the canonical name, in decorator lists and in top-level decorator-call assignments
/// (run before attach_functional_decorators). Gluon's jit is left alone.
void resolve_decorator_aliases(Module& m);

}  // namespace tritium::frontend
