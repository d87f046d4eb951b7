// Statement sequences, assignments, returns and the statements Triton refuses.
#include <fmt/format.h>

#include "frontend/codegen_impl.h"
#include "frontend/codegen_values.h"

namespace tritium::frontend::cg {

const Stmt* find_return(const StmtList& stmts) {
  for (const auto& sp : stmts) {
    const Stmt& s = *sp;
    const Stmt* r = nullptr;
    switch (s.kind) {
      case StmtKind::Return: return &s;
      case StmtKind::If:
        if (!(r = find_return(s.as<IfStmt>().body))) r = find_return(s.as<IfStmt>().orelse);
        break;
      case StmtKind::For:
        if (!(r = find_return(s.as<ForStmt>().body))) r = find_return(s.as<ForStmt>().orelse);
        break;
      case StmtKind::While:
        if (!(r = find_return(s.as<WhileStmt>().body))) r = find_return(s.as<WhileStmt>().orelse);
        break;
      default: break;
    }
    if (r) return r;
  }
  return nullptr;
}

std::string py_type_name(const CValue& v) {
  switch (v.kind) {
    case CValue::Kind::Tensor: return "tensor";
    case CValue::Kind::Int: return "int";
    case CValue::Kind::Float: return "float";
    case CValue::Kind::Bool: return "bool";
    case CValue::Kind::None: return "NoneType";
    case CValue::Kind::Str: return "str";
    case CValue::Kind::DType: return "dtype";
    case CValue::Kind::Tuple: return "tuple";
    case CValue::Kind::JitFn: return "JITFunction";
    case CValue::Kind::Builtin: return "builtin_function";
    case CValue::Kind::Namespace: return "module";
    case CValue::Kind::Method: return "method";
    case CValue::Kind::Slice: return "slice";
    case CValue::Kind::Ellipsis: return "ellipsis";
    case CValue::Kind::Lambda: return "function";
    case CValue::Kind::ConstexprFn: return "ConstexprFunction";
  }
  return "object";
}

void FunctionGen::gen_body() {
  Cont implicit_return = [this] {
    if (!returned_) {
      ret_slot_ = CValue::none();
      returned_ = true;
    }
  };
  gen_stmts(def_->body, 0, &implicit_return);
  ret_value_ = ret_slot_ ? *ret_slot_ : CValue::none();
  std::vector<ir::Value*> vals = flatten(ret_value_);
  for (auto* v : vals) fn_.result_types.push_back(v->type);
  b_.create(ir::OpKind::Return, vals, {}, def_->loc);
}

namespace {
// The most IR values one function may generate. Unrolled static loops, returns inside
// branches (the rest of the function is generated again in each branch) and nested loops
// (each body is dry-run once before it is generated) can multiply a short source into more
// IR than any kernel needs; past this the compile is refused instead of running for hours.
// The largest kernels of the suite and the corpus generate a few thousand.
constexpr uint32_t kMaxFunctionValues = 1u << 16;
}  // namespace

void FunctionGen::gen_stmts(const StmtList& stmts, size_t from, const Cont* after) {
  for (size_t i = from; i < stmts.size(); ++i) {
    if (returned_) return;
    const Stmt& s = *stmts[i];
    if (fn_.value_count() > kMaxFunctionValues)
      fail(s.loc, fmt::format("'{}' is too large to compile: it generates more than {} IR values (unrolled "
                              "tl.static_range loops, nested loops or returns inside branches multiply its code)",
                              def_ ? def_->name : std::string("module constants"), kMaxFunctionValues));
    if (s.kind == StmtKind::If) {
      gen_if(s.as<IfStmt>(), stmts, i, after);
      return;  // gen_if generated the rest of the sequence
    }
    if (s.kind == StmtKind::For) {
      gen_for(s.as<ForStmt>(), stmts, i, after);
      return;
    }
    gen_simple_stmt(s);
  }
  if (!returned_ && after) (*after)();
}

void FunctionGen::gen_simple_stmt(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Expr: {
      const Expr& e = *s.as<ExprStmt>().value;
      if (e.is<StrExpr>()) return;  // docstring / string statement
      eval(e);
      return;
    }
    case StmtKind::Assign: gen_assign(s.as<AssignStmt>()); return;
    case StmtKind::AnnAssign: gen_ann_assign(s.as<AnnAssignStmt>()); return;
    case StmtKind::AugAssign: gen_aug_assign(s.as<AugAssignStmt>()); return;
    case StmtKind::Pass: return;
    case StmtKind::Return: gen_return(s.as<ReturnStmt>()); return;
    case StmtKind::While: gen_while(s.as<WhileStmt>()); return;
    case StmtKind::Assert: {
      const auto& a = s.as<AssertStmt>();
      CValues args{eval(*a.test)};
      if (a.msg) args.push_back(eval(*a.msg));
      call_builtin(ctx_, "device_assert", std::move(args), {}, s.loc);
      return;
    }
    default: refuse_stmt(s);
  }
}

void FunctionGen::refuse_stmt(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Break:
      fail(s.loc, "`break` is not supported in Triton (restructure the loop, e.g. as a while loop with a condition)");
    case StmtKind::Continue:
      fail(s.loc, "`continue` is not supported in Triton (guard the rest of the loop body with an if)");
    case StmtKind::FunctionDef: fail(s.loc, "nested function definition is not supported.");
    case StmtKind::ClassDef: fail(s.loc, "class definitions are not supported inside jit functions");
    case StmtKind::With: fail(s.loc, "`with` statements are not supported inside jit functions");
    case StmtKind::Global: fail(s.loc, "`global` statements are not supported inside jit functions");
    case StmtKind::Nonlocal: fail(s.loc, "`nonlocal` statements are not supported inside jit functions");
    case StmtKind::Delete: fail(s.loc, "`del` is not supported inside jit functions");
    case StmtKind::Raise:
      fail(s.loc, "`raise` is not supported inside jit functions (use tl.static_assert or tl.device_assert)");
    case StmtKind::Try: fail(s.loc, "`try` statements are not supported inside jit functions");
    case StmtKind::Import: case StmtKind::ImportFrom:
      fail(s.loc, "import statements are not supported inside jit functions (import at module level)");
    default: fail(s.loc, std::string("unsupported statement: ") + to_string(s.kind));
  }
}

CValue FunctionGen::sanitize_assigned(const CValue& v, SrcLoc loc) {
  switch (v.kind) {
    case CValue::Kind::Tensor: case CValue::Kind::None: case CValue::Kind::DType:
      return v;
    case CValue::Kind::Int: case CValue::Kind::Float: case CValue::Kind::Bool:
      return CValue::of_tensor(to_ir(ctx_, v, loc));
    case CValue::Kind::Tuple: {
      if (is_record(v)) return v;  // run-time fields are tensors already; block shape and order stay constexpr
      CValue out = v;
      for (auto& e : out.elems) e = sanitize_assigned(e, loc);
      return out;
    }
    default:
      fail(loc, "cannot assign " + v.describe() +
                    " to a variable (annotate the variable with tl.constexpr to bind a compile-time value)");
  }
}

void FunctionGen::assign_target(const Expr& target, const CValue& v) {
  switch (target.kind) {
    case ExprKind::Name: {
      const std::string& id = target.as<NameExpr>().id;
      scope_.set(id, v);
      dead_ivs_.erase(id);
      return;
    }
    case ExprKind::Tuple: case ExprKind::List: {
      const ExprList& elts = target.is<TupleExpr>() ? target.as<TupleExpr>().elts : target.as<ListExpr>().elts;
      for (const auto& t : elts)
        if (t->is<StarredExpr>()) fail(t->loc, "starred assignment targets are not supported inside jit functions");
      if (v.kind != CValue::Kind::Tuple) fail(target.loc, "cannot unpack " + v.describe() + " (not a tuple)");
      if (v.elems.size() > elts.size())
        fail(target.loc, fmt::format("too many values to unpack (expected {})", elts.size()));
      if (v.elems.size() < elts.size())
        fail(target.loc, fmt::format("not enough values to unpack (expected {}, got {})", elts.size(), v.elems.size()));
      for (size_t i = 0; i < elts.size(); ++i) assign_target(*elts[i], v.elems[i]);
      return;
    }
    case ExprKind::Subscript:
      fail(target.loc, "item assignment (x[...] = ...) is not supported in triton; tensors are immutable (use tl.where)");
    case ExprKind::Attribute: fail(target.loc, "attribute assignment is not supported in triton");
    case ExprKind::Starred: fail(target.loc, "starred assignment targets are not supported inside jit functions");
    default: fail(target.loc, std::string("cannot assign to ") + to_string(target.kind));
  }
}

void FunctionGen::gen_assign(const AssignStmt& s) {
  CValue v = sanitize_assigned(eval(*s.value), s.value->loc);
  for (const auto& t : s.targets) assign_target(*t, v);
}

void FunctionGen::gen_ann_assign(const AnnAssignStmt& s) {
  if (!s.target->is<NameExpr>()) fail(s.target->loc, "annotated assignment is only supported to a plain name");
  const std::string& name = s.target->as<NameExpr>().id;
  CValue v = s.value ? eval(*s.value) : CValue::none();
  if (st_.is_constexpr(s.annotation.get())) {
    if (scope_.contains(name)) fail(s.loc, name + " is already defined. constexpr cannot be reassigned.");
    if (has_tensor(v) || v.kind == CValue::Kind::Method || v.kind == CValue::Kind::Slice)
      fail(s.value ? s.value->loc : s.loc,
           "'" + name + "' is annotated tl.constexpr but its value is not a compile-time constant (" + v.describe() + ")");
    scope_.set(name, v);
    dead_ivs_.erase(name);
    return;
  }
  // Other annotations are ignored, as upstream does.
  assign_target(*s.target, sanitize_assigned(v, s.value ? s.value->loc : s.loc));
}

void FunctionGen::gen_aug_assign(const AugAssignStmt& s) {
  if (!s.target->is<NameExpr>()) assign_target(*s.target, CValue::none());  // refuses with the right message
  const auto& n = s.target->as<NameExpr>();
  CValue cur = lookup(n.id, n.loc);
  CValue rhs = eval(*s.value);
  CValue r = binary_op(ctx_, s.op, cur, rhs, s.loc);
  assign_target(*s.target, sanitize_assigned(r, s.loc));
}

CValue FunctionGen::decay_return(const CValue& v, SrcLoc loc) {
  switch (v.kind) {
    case CValue::Kind::Tensor: case CValue::Kind::None:
      return v;
    case CValue::Kind::Int: case CValue::Kind::Float: case CValue::Kind::Bool:
      return CValue::of_tensor(to_ir(ctx_, v, loc));
    case CValue::Kind::Tuple: {
      if (is_record(v)) return v;  // constexpr fields stay constexpr
      CValue out = v;
      for (auto& e : out.elems) e = decay_return(e, loc);
      return out;
    }
    default:
      fail(loc, "cannot return " + v.describe() + " from a jit function (only tensors, scalars, tuples and None)");
  }
}

void FunctionGen::gen_return(const ReturnStmt& s) {
  if (loop_depth_ > 0)
    fail(s.loc, "Cannot have `return` statements inside `while` or `for` statements in triton.");
  CValue v = s.value ? eval(*s.value) : CValue::none();
  if (is_kernel_ && v.kind != CValue::Kind::None) fail(s.loc, "a kernel cannot return a value");
  ret_slot_ = decay_return(v, s.value ? s.value->loc : s.loc);
  returned_ = true;
}

}  // namespace tritium::frontend::cg
