// The decorators above a jit kernel, evaluated: `@triton.autotune(...)`,
// `@triton.heuristics({...})` and the options of `@triton.jit(...)`, with upstream Triton
// 3.6's meaning (python/triton/runtime/autotuner.py and jit.py).
//
// Python applies decorators bottom-up, so at a call the outermost (topmost) one runs first:
// with `@autotune` above `@heuristics` above `@jit`, every autotune config's meta-parameters
// are visible to the heuristics, which then run before the jit function is specialized.
// `layers` keeps that order, outermost first.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "frontend/pyeval.h"

namespace tritium::frontend {

/// `@triton.autotune(configs=[...], key=[...], reset_to_zero=, restore_value=, warmup=, rep=)`.
struct AutotuneDecl {
  std::vector<PyConfig> configs;           ///< at least one (upstream's default when empty: {} / 4 warps / 3 stages)
  std::vector<std::string> key;            ///< argument names whose values select a tuning result
  std::vector<std::string> reset_to_zero;  ///< pointer arguments zeroed before each timed launch
  std::vector<std::string> restore_value;  ///< pointer arguments restored after each timed launch
  double warmup_ms = -1, rep_ms = -1;      ///< timing budgets (deprecated upstream; < 0 = default)
  SrcLoc loc;
};

/// `@triton.heuristics({"NAME": lambda args: ..., ...})`.
struct HeuristicsDecl {
  std::vector<std::pair<std::string, PyValue>> values;  ///< name → Lambda or Function value
  SrcLoc loc;
};

/// One decorator layer above the jit function.
struct DecoratorLayer {
  std::optional<AutotuneDecl> autotune;      ///< set for @triton.autotune
  std::optional<HeuristicsDecl> heuristics;  ///< set for @triton.heuristics
};

/// Everything the decorators of one jit kernel declare.
struct KernelDecls {
  std::vector<DecoratorLayer> layers;                   ///< outermost first, the jit decorator excluded
  std::vector<std::string> do_not_specialize;          ///< parameter names (indices resolved)
  std::vector<std::string> do_not_specialize_on_alignment;
};

/// The last name of a decorator expression, calls looked through: `triton.jit(...)` →
/// "jit", `jit` → "jit", `triton.heuristics({...})` → "heuristics" ("" for other forms).
std::string decorator_name(const Expr& decorator);

/// The dotted path a decorator expression names through `module`'s imports:
/// `gluon.jit` after `from triton.experimental import gluon` → "triton.experimental.gluon.jit"
/// (calls are looked through; "" when the base name is not imported).
std::string decorator_path(const Module& module, const Expr& decorator);

/// Evaluates the decorators of jit function `fn` of `module`. Throws CompileError at the
/// offending decorator argument for what cannot be evaluated or is not supported
/// (prune_configs_by, pre_hook / post_hook, do_bench, an unknown decorator, a config naming
/// a parameter the kernel does not have, ...). PyTorch Inductor's own decorators
/// (`@triton_heuristics.pointwise(...)` and the other torch._inductor.runtime.triton_heuristics
/// ones, which choose launch configs from size hints in host code) are skipped: their
/// meta-parameters (XBLOCK, ...) are then given by the caller.
KernelDecls evaluate_decorators(const Module& module, const FunctionDef& fn);

/// Calls heuristic / lambda `fn` with `args` (the `args` dict of upstream: argument name →
/// value), evaluated in `module` as seen from `fn_def`. Throws CompileError.
PyValue call_heuristic(const Module& module, const FunctionDef& fn_def, const PyValue& fn, const PyValue& args);

}  // namespace tritium::frontend
