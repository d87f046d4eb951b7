// A small evaluator of host-side Python expressions, for what the decorators above a jit
// kernel compute: `@triton.autotune(configs=[triton.Config({...}, num_warps=...) for ...],
// key=[...])`, `@triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["n"])})`,
// `@triton.jit(do_not_specialize=["n"])`.
//
// It is not a Python interpreter: it evaluates literals, names bound at module level (plain
// assignments above the kernel, imports of the triton package, plain `def`s made of
// assignments, `if`, `for`, `list.append` and `return`), arithmetic with Python's rules
// (arbitrary-precision ints are refused past 64 bits; `//` and `%` floor), comparisons,
// boolean operators, conditional expressions, subscripts, list / dict comprehensions,
// lambdas, and the builtins decorators use (triton.Config, triton.next_power_of_2,
// triton.cdiv, min, max, abs, int, float, bool, len, range, list, tuple, sorted, str, filter,
// map, enumerate, zip).
// Anything else is a CompileError naming the construct at its file:line:col.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frontend/ast.h"

namespace tritium::frontend {

struct PyConfig;

/// Counts the work host values cost on this thread: every PyValue copy (copies are deep: a
/// list's copy copies each element, so reading a name bound to a 1M-element list costs 1M)
/// and every key compared in a dict lookup. The evaluator adds the count to its step budget
/// (HostEvalBudget), so code whose copying is quadratic is refused like a long loop.
struct HostCopyCounter {
  HostCopyCounter() = default;
  HostCopyCounter(const HostCopyCounter&) noexcept { ++count(); }
  HostCopyCounter& operator=(const HostCopyCounter&) noexcept {
    ++count();
    return *this;
  }
  HostCopyCounter(HostCopyCounter&&) noexcept = default;
  HostCopyCounter& operator=(HostCopyCounter&&) noexcept = default;
  /// The thread's count since the evaluator last took it.
  static int64_t& count();
};

/// A host-side Python value.
struct PyValue {
  enum class Kind {
    None, Bool, Int, Float, Str, List, Tuple, Dict,
    Config,    ///< a triton.Config(...)
    Function,  ///< a module-level def (`fn`)
    Lambda,    ///< a lambda expression (`lambda_expr`)
    Module,    ///< an imported module or namespace (`s` = dotted path; `module` for another file, `b` = package)
    Builtin,   ///< a builtin callable (`s` = its name, e.g. "triton.cdiv")
    Tensor,    ///< a pointer argument seen by a heuristic (`s` = element dtype, e.g. "fp16")
  };
  Kind kind = Kind::None;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<PyValue> items;  ///< List / Tuple elements; Dict values
  std::vector<PyValue> keys;   ///< Dict keys (insertion order)
  std::shared_ptr<PyConfig> config;
  const FunctionDef* fn = nullptr;
  const LambdaExpr* lambda_expr = nullptr;
  /// The module a Function / Lambda is defined in, or that a Module value is (another Python
  /// file, loaded by module_loader.h); null for the evaluator's own module.
  const Module* module = nullptr;
  HostCopyCounter copies;  ///< counts this value's copies (see HostCopyCounter)

  static PyValue none() { return {}; }
  static PyValue of_bool(bool v);
  static PyValue of_int(int64_t v);
  static PyValue of_float(double v);
  static PyValue of_str(std::string v);
  static PyValue list(std::vector<PyValue> v, Kind k = Kind::List);
  /// A Module, Builtin or Tensor value named `s`.
  static PyValue named(Kind k, std::string s);

  /// Python's repr-like text ("128", "'fp16'", "[1, 2]", "triton.Config(...)").
  std::string repr() const;
  /// Python truthiness; throws std::invalid_argument for kinds without one here.
  bool truthy() const;
  /// Dict lookup by key (nullptr when absent).
  const PyValue* get(const PyValue& key) const;
  /// Dict assignment: replaces the value of an equal key, else appends (insertion order).
  void set(const PyValue& key, PyValue value);
  /// Python equality (1 == 1.0 == True; containers element-wise).
  bool equals(const PyValue& o) const;
};

/// `triton.Config(kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None)`.
struct PyConfig {
  std::vector<std::pair<std::string, PyValue>> kwargs;  ///< in the dict's order
  int64_t num_warps = 4;
  int64_t num_stages = 3;
  int64_t num_ctas = 1;
  bool has_maxnreg = false;
  int64_t maxnreg = 0;
  SrcLoc loc;
};

/// Bounds on host-code evaluation, so that no input makes the compiler hang or exhaust
/// memory (issue 8): calls nest at most kMaxHostCallDepth deep across every module's
/// evaluator; evaluation takes at most kMaxHostSteps steps (expressions evaluated and
/// statements executed) while a HostEvalBudget is alive on the thread; a list, tuple or
/// string holds at most kMaxHostItems elements / bytes. Each is a CompileError at the
/// construct that passed it.
inline constexpr int kMaxHostCallDepth = 64;
inline constexpr int64_t kMaxHostSteps = 5'000'000;
inline constexpr size_t kMaxHostItems = size_t{1} << 20;

/// One evaluation budget: the outermost HostEvalBudget alive on a thread starts a new count
/// of steps, nested ones share it. Every PyEvaluator holds one; the code generator holds one
/// for a whole kernel (GenState), so its constexpr-function calls share one budget.
class HostEvalBudget {
 public:
  HostEvalBudget();
  ~HostEvalBudget();
  HostEvalBudget(const HostEvalBudget&) = delete;
  HostEvalBudget& operator=(const HostEvalBudget&) = delete;
};

/// Evaluates expressions in the context of one parsed module, seen from the statement at
/// byte offset `at` (module-level names are those bound above it, as when Python executes
/// the decorators of the def there).
class PyEvaluator {
 public:
  PyEvaluator(const Module& module, uint32_t at);

  using Env = std::map<std::string, PyValue>;
  /// Evaluates `e` with `locals` bound (lambda / comprehension variables). Throws CompileError.
  PyValue eval(const Expr& e, const Env& locals = {});
  /// Calls a Function, Lambda or Builtin value with positional arguments. Throws CompileError at `loc`.
  PyValue call(const PyValue& fn, const std::vector<PyValue>& args, SrcLoc loc,
               const std::vector<std::pair<std::string, PyValue>>& kwargs = {});

  /// Module-level name `name` as seen from the evaluator's statement.
  PyValue global(const std::string& name, SrcLoc loc);

 private:
  /// The statement binding module-level `name` as seen from `at_` (taking the branch of each
  /// module-level `if` whose condition evaluates), or null; `if_failure` (optional) gets a
  /// note about an `if` whose condition could not be evaluated.
  const Stmt* find_binding(const std::string& name, std::string* if_failure);
  PyValue attribute(const PyValue& v, const std::string& attr, SrcLoc loc);
  PyValue import_module(const std::string& dotted, int level, SrcLoc loc);
  PyValue call_expr(const CallExpr& c, const Env& locals);
  PyValue call_builtin(const std::string& name, const std::vector<PyValue>& args,
                       const std::vector<std::pair<std::string, PyValue>>& kwargs, SrcLoc loc);
  PyValue call_def(const FunctionDef& f, const std::vector<PyValue>& args,
                   const std::vector<std::pair<std::string, PyValue>>& kwargs, SrcLoc loc);
  void comprehension(const std::vector<Comprehension>& gens, size_t i, Env& env,
                     const std::function<void(Env&)>& emit);
  void bind(const Expr& target, const PyValue& v, Env& env);
  // Runs a def's statements; returns true when a `return` was executed (result in `ret`).
  bool exec_block(const StmtList& body, Env& env, PyValue& ret);

  const Module& module_;
  uint32_t at_;
  std::map<std::string, PyValue> globals_;  // evaluated module-level names
  std::vector<std::string> evaluating_;     // globals being evaluated (cycle guard)
  HostEvalBudget budget_;                   // steps; the call depth is per thread (pyeval.cpp)
};

}  // namespace tritium::frontend
