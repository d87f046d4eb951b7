// Private interface of the AST → IR code generator (codegen.h is the public one).
//
// Files:
//   codegen.cpp          generate_ir / jit_function_names, kernel parameter binding
//   codegen_globals.cpp  ModuleEnv: imports, module constants, jit decorators
//   codegen_expr.cpp     expressions
//   codegen_call.cpp     calls: builtins, static_assert/print, jit helper specialization
//   codegen_stmt.cpp     statement sequences, assignments, returns, refusals
//   codegen_control.cpp  if / for / while (static and dynamic)
//   codegen_values.cpp   CValue helpers (flatten, compare, print, mangle)
//
// Model (as upstream code_generator.py): every local name is bound to a CValue in a Scope.
// Plain assignment turns Python scalars into run-time scalars (`x = 0` is an int32 value);
// only parameters, `x: tl.constexpr = ...`, static_range variables and module constants
// are compile-time values. A dynamic if/loop snapshots the scope, generates its regions
// and merges what they reassigned into results / loop-carried values.
//
// Returns never emit `return` ops directly: a `return` fills the current return slot and
// stops the statement sequence. A dynamic `if` whose branches contain a return gets the
// rest of the function appended to each branch that falls through (a continuation), so
// the function stays structured: the if yields the returned values.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "frontend/builtins.h"
#include "frontend/codegen.h"
#include "frontend/pyeval.h"
#include "frontend/scope.h"
#include "frontend/value.h"
#include "ir/builder.h"

namespace tritium::frontend::cg {

class GenState;

/// True when `f` is decorated as a jit function (`@triton.jit`, `@jit`, `@triton.jit(...)`,
/// possibly among `@triton.autotune(...)` / `@triton.heuristics(...)`).
bool is_jit_function(const FunctionDef& f);
/// Throws CompileError at the decorator when `f` is decorated with Gluon's jit
/// (`triton.experimental.gluon.jit`), which is a different language.
void refuse_gluon(const Module& m, const FunctionDef& f);
/// True when `annotation` spells `constexpr` (`tl.constexpr`, `triton.language.constexpr`,
/// `constexpr`, or a string annotation mentioning it), syntactically.
bool is_constexpr_annotation(const Expr* annotation);

/// A specialization's / the host's constexpr value as a compile-time value.
CValue constexpr_value(const ConstexprValue& v);

/// The module-level names of one source module: imports, constants and functions. On
/// first use the module's top-level statements are executed in order, as Python imports a
/// module: each assignment is evaluated with the names bound before it, parameter defaults
/// when their `def` is reached, and the last binding of a name wins. A statement that
/// cannot be evaluated (host code) binds its names to an error raised only when a kernel
/// uses them.
class ModuleEnv {
 public:
  explicit ModuleEnv(const Module& m) : module_(m) {}
  /// Host-evaluated values (GenOptions::host_globals), bound after the module's own
  /// statements run, in their place; set before the first lookup. Not owned.
  void set_host_values(const std::map<std::string, ConstexprValue>* v) { host_values_ = v; }
  /// The value of global `name` used at `use`; nullopt when the module does not bind it.
  /// Throws CompileError at `use` when the binding cannot be used in a kernel (an
  /// unsupported module, a non-constant global, a plain Python function).
  std::optional<CValue> lookup(GenState& st, const std::string& name, SrcLoc use);
  /// Attribute `attr` of an imported Python module `m` (a Namespace with fn_module set):
  /// its global, or its submodule when `m` is a package. Throws CompileError at `use`.
  static CValue module_attr(GenState& st, const CValue& m, const std::string& attr, SrcLoc use);
  /// The default value of parameter `p` of a top-level def (a compile-time value).
  CValue eval_default(GenState& st, const Param& p);

 private:
  /// A module-level binding: a value, or the message of why it cannot be used.
  struct Binding {
    std::optional<CValue> value;
    std::string error;
    /// An import of another Python file, resolved on first use (module_loader.h):
    /// `from <module> import <name>` (name set) or `import <module>` (name empty).
    struct Import {
      std::string module, name;
      int level = 0;
      uint32_t line = 0;
    };
    std::optional<Import> pending;
  };
  std::optional<CValue> resolve_import(GenState& st, Binding& b, SrcLoc use);
  void ensure_executed(GenState& st);
  void exec(GenState& st, const Stmt& s);
  Binding eval_binding(GenState& st, const Expr& e, const std::string& what);
  void bind_target(const Expr& target, const Binding& b);

  const Module& module_;
  bool executed_ = false;
  std::map<std::string, Binding> names_;
  const std::map<std::string, ConstexprValue>* host_values_ = nullptr;
  std::vector<std::string> star_imports_;  // namespaces of `from M import *`, in order
  std::map<const Param*, Binding> defaults_;
};

/// One specialized jit helper in the output module.
struct HelperInfo {
  ir::Function* fn = nullptr;
  CValue ret_template;  // structure of the return value; tensor leaves are placeholders
  bool done = false;    // false while its body is being generated
};

/// State shared by the generation of one kernel and every helper it calls.
class GenState {
 public:
  GenState(const Module& m, const GenOptions& o, ir::Module& out);
  ~GenState();

  const Module& module;
  const GenOptions& opts;
  ir::Module& out;
  ModuleEnv env;
  std::map<std::string, HelperInfo> helpers;  // by exact specialization key
  std::set<std::string> ir_names;              // function names used in `out`
  int call_depth = 0;                          // nesting of helper generation (bounded)
  /// One budget of host-evaluation steps for the whole kernel: its constexpr-function calls
  /// and module-level constants share it (a static loop calling one cannot multiply it).
  HostEvalBudget host_budget;
  /// Generator used to evaluate module-level constants of module `m` (emits into a scratch
  /// function); null is the kernel's module.
  class FunctionGen& global_gen(const Module* m = nullptr);
  /// The names of module `m`: `env` for the kernel's module (or null), else those of
  /// another module whose jit functions the kernel calls (a stdlib module, stdlib.h).
  ModuleEnv& env_of(const Module* m);
  /// True when a parameter / variable annotation means tl.constexpr: any spelling of it,
  /// including names bound to it in the module (`from triton.language import constexpr as C`).
  bool is_constexpr(const Expr* annotation);

 private:
  ir::Function scratch_;
  std::unique_ptr<class FunctionGen> global_gen_;
  /// Modules other than the kernel's: their names and constant evaluators.
  struct OtherModule {
    explicit OtherModule(const Module& m) : env(m) {}
    ModuleEnv env;
    ir::Function scratch;
    std::unique_ptr<class FunctionGen> gen;
  };
  std::map<const Module*, std::unique_ptr<OtherModule>> others_;
};

/// Generates the body of one ir::Function (kernel or helper) from a FunctionDef.
class FunctionGen {
 public:
  /// `def` is null for the module-constant evaluator. `module` is the module whose globals
  /// the body sees (null: the kernel's).
  FunctionGen(GenState& st, ir::Function& fn, const FunctionDef* def, bool is_kernel, const Module* module = nullptr);

  /// Binds a local name (parameters before gen_body).
  void bind(const std::string& name, CValue v) { scope_.set(name, std::move(v)); }
  /// Generates the function body and its final `return` op; afterwards return_value()
  /// holds the (decayed) returned value (None for none).
  void gen_body();
  /// The value the function returned (valid after gen_body).
  const CValue& return_value() const { return ret_value_; }
  /// Evaluates an expression at the current insertion point.
  CValue eval(const Expr& e);
  /// The builder (insertion point) of this function.
  ir::Builder& builder() { return b_; }
  /// The context handed to builtins.h.
  BuiltinContext& ctx() { return ctx_; }

 private:
  /// A continuation: generates "the rest of the function" at the current insertion point.
  using Cont = std::function<void()>;

  // ---- statements (codegen_stmt.cpp) ----
  /// Generates stmts[from..] and then, unless a return was reached, `after` (when given).
  /// If/for statements take over the rest of the sequence themselves (they may need it as
  /// the continuation of a return below them).
  void gen_stmts(const StmtList& stmts, size_t from, const Cont* after);
  void gen_simple_stmt(const Stmt& s);
  void gen_assign(const AssignStmt& s);
  void gen_ann_assign(const AnnAssignStmt& s);
  void gen_aug_assign(const AugAssignStmt& s);
  void gen_return(const ReturnStmt& s);
  /// Binds `v` to an assignment target (names, nested tuple/list targets).
  void assign_target(const Expr& target, const CValue& v);
  /// Upstream _sanitize_value: Python scalars become run-time scalars; None, dtypes,
  /// tensors and tuples of them stay; anything else cannot be assigned.
  CValue sanitize_assigned(const CValue& v, SrcLoc loc);
  /// Upstream's return decay: Python scalars become run-time scalars.
  CValue decay_return(const CValue& v, SrcLoc loc);
  [[noreturn]] void refuse_stmt(const Stmt& s);

  // ---- control flow (codegen_control.cpp) ----
  /// `stmts[index]` is `s`; generates it and the rest of `stmts` (then `after`).
  void gen_if(const IfStmt& s, const StmtList& stmts, size_t index, const Cont* after);
  /// An `if` op without returns: merges the branches' scopes into its results.
  void gen_dynamic_if(const IfStmt& s, ir::Value* cond);
  /// An `if` op whose branches return: each branch continues with `rest`; the op yields
  /// the returned values, which become the function's return value.
  void gen_returning_if(const IfStmt& s, ir::Value* cond, const Cont& rest);
  /// `stmts[index]` is `s`; generates it and the rest of `stmts` (then `after`).
  void gen_for(const ForStmt& s, const StmtList& stmts, size_t index, const Cont* after);
  /// Unrolls `s` over compile-time `items` (static_range values or tuple elements).
  void gen_static_for(const ForStmt& s, const CValues& items, const Cont& rest);
  /// A `for` op over Python's range(lb, ub, step) (negative constexpr steps reversed).
  void gen_dynamic_for(const ForStmt& s, const std::string& var, CValue lb, CValue ub, CValue step,
                       std::map<std::string, ir::Attr> attrs);
  /// A `while` op (condition in the "before" region, body in the "after" region).
  void gen_while(const WhileStmt& s);
  /// Dry-runs `body` in a scratch block (with `iv_name` bound to a placeholder of
  /// `iv_type` when given) and returns the live-in names it reassigns, checking Triton's
  /// loop-carried rules (tensors only, type unchanged).
  std::vector<std::string> find_carried(const StmtList& body, const std::string& iv_name, const ir::Type* iv_type,
                                        SrcLoc loc);
  /// Yields the carried variables at the end of a loop body, checking their types.
  void yield_carried(const std::vector<std::string>& carried, const Scope& live, SrcLoc loc);
  /// Names of `live` (except `iv_name`) that the current scope no longer binds (variables
  /// of nested dynamic loops): they are undefined after the enclosing region too.
  std::vector<std::string> unbound_after(const Scope& live, const std::string& iv_name) const;
  /// Truth of a compile-time condition (bool, int or None only, as upstream).
  bool static_condition(const CValue& c, SrcLoc loc, const char* what);

  // ---- expressions (codegen_expr.cpp) ----
  /// Name lookup: locals, then module globals, then Python builtins.
  CValue lookup(const std::string& name, SrcLoc loc);
  CValue eval_constant(const Expr& e);
  CValue eval_attribute(const AttributeExpr& e);
  CValue eval_compare(const CompareExpr& e);
  CValue eval_boolop(const BoolOpExpr& e);
  CValue eval_ifexp(const IfExpExpr& e);
  CValue eval_subscript(const SubscriptExpr& e);
  /// `[f(x) for x in t]` over a tuple `t` (upstream supports tuple comprehensions only).
  CValue eval_listcomp(const ListCompExpr& e);
  /// f-strings whose fields are compile-time values.
  CValue eval_fstring(const StrExpr& e);
  [[noreturn]] void refuse_expr(const Expr& e);

  // ---- calls (codegen_call.cpp) ----
  CValue eval_call(const CallExpr& e);
  /// Calls any callable value (jit function, builtin, method).
  CValue call_value(const CValue& fn, CValues args, std::vector<KwArg> kwargs, SrcLoc loc);
  /// tl.static_assert(cond[, msg]): CompileError at `loc` when cond is False.
  CValue call_static_assert(const CValues& args, const std::vector<KwArg>& kwargs, SrcLoc loc);
  /// tl.static_print(...): Python's print to stderr at compile time.
  CValue call_static_print(const CValues& args, SrcLoc loc);
  /// A @triton.constexpr_function called on compile-time values (codegen_constexpr_fn.cpp).
  CValue call_constexpr_function(const CValue& f, const CValues& args, const std::vector<KwArg>& kwargs, SrcLoc loc);
  /// Calls a jit function: binds arguments Python-style, specializes, emits `call`. An
  /// error raised inside a stdlib function called from non-stdlib code is reported at the
  /// call site, naming the function and the stdlib location.
  CValue call_jit(const CValue& fn, CValues args, std::vector<KwArg> kwargs, SrcLoc loc);
  CValue call_jit_impl(const CValue& fn, CValues args, std::vector<KwArg> kwargs, SrcLoc loc);

  GenState& st_;
  ir::Function& fn_;
  const FunctionDef* def_;
  const Module* module_;  // where def_ is defined: global names resolve there
  bool is_kernel_;
  ir::Builder b_;
  BuiltinContext ctx_;
  Scope scope_;
  std::set<std::string> dead_ivs_;  // dynamic-loop variables, undefined after their loop
  int loop_depth_ = 0;              // dynamic loops around the current statement
  bool returned_ = false;           // the current statement path has returned
  std::optional<CValue> ret_slot_;  // what it returned
  CValue ret_value_;
};

/// The first `return` statement inside `stmts` (recursing into compound statements), or
/// nullptr (upstream's ContainsReturnChecker, without looking into callees).
const Stmt* find_return(const StmtList& stmts);
/// Python's name of the type of a value ("int", "float", "tensor", "tuple", ...).
std::string py_type_name(const CValue& v);

/// Raises CompileError(loc, msg).
[[noreturn]] void fail(SrcLoc loc, const std::string& msg);

}  // namespace tritium::frontend::cg
