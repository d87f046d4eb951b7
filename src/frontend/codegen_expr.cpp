// Expressions: names, constants, attributes, subscripts, comparisons, boolean operators,
// conditional expressions, tuples and tuple comprehensions. Operators and builtins are
// delegated to builtins.h (Triton's typing rules); this file decides what is evaluated
// when (short-circuits, static vs dynamic conditions).
#include <fmt/format.h>

#include "common/stack_room.h"
#include "frontend/codegen_impl.h"
#include "frontend/codegen_values.h"
#include "frontend/parser.h"
#include "frontend/semantic.h"

namespace tritium::frontend::cg {

FunctionGen::FunctionGen(GenState& st, ir::Function& fn, const FunctionDef* def, bool is_kernel, const Module* module)
    : st_(st),
      fn_(fn),
      def_(def),
      module_(module ? module : &st.module),
      is_kernel_(is_kernel),
      b_(fn),
      ctx_{b_, st.opts, [this](const CValue& f, CValues args, SrcLoc loc) { return call_jit(f, std::move(args), {}, loc); }} {
  b_.set_insertion_end(&fn.body);
}

CValue FunctionGen::lookup(const std::string& name, SrcLoc loc) {
  if (const CValue* v = scope_.find(name)) return *v;
  if (dead_ivs_.count(name))
    fail(loc, "name '" + name +
                  "' is not defined: it was the variable of a dynamic loop, which Triton does not keep after the loop");
  if (auto g = st_.env_of(module_).lookup(st_, name, loc)) return *g;
  if (auto b = python_builtin(name)) return *b;
  fail(loc, "name '" + name + "' is not defined");
}

void FunctionGen::refuse_expr(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Lambda: fail(e.loc, "lambda expressions are not supported inside jit functions");
    case ExprKind::Set: fail(e.loc, "set displays are not supported inside jit functions");
    case ExprKind::Dict: fail(e.loc, "dict displays are not supported inside jit functions");
    case ExprKind::SetComp: fail(e.loc, "set comprehensions are not supported inside jit functions");
    case ExprKind::DictComp: fail(e.loc, "dict comprehensions are not supported inside jit functions");
    case ExprKind::GeneratorExp: fail(e.loc, "generator expressions are not supported inside jit functions");
    case ExprKind::Starred: fail(e.loc, "a starred expression is only allowed in a call or a tuple display");
    case ExprKind::NamedExpr: fail(e.loc, "assignment expressions (:=) are not supported inside jit functions");
    case ExprKind::Await: fail(e.loc, "await is not supported inside jit functions");
    case ExprKind::Yield: case ExprKind::YieldFrom: fail(e.loc, "yield is not supported inside jit functions");
    case ExprKind::Bytes: fail(e.loc, "bytes literals are not supported inside jit functions");
    default: fail(e.loc, std::string("unsupported expression: ") + to_string(e.kind));
  }
}

CValue FunctionGen::eval_constant(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Int: {
      const auto& i = e.as<IntExpr>();
      if (i.overflow) fail(e.loc, "integer literal " + i.text + " does not fit in 64 bits");
      if (i.value > static_cast<uint64_t>(INT64_MAX)) {
        CValue v = CValue::of_int(0);
        v.is_u64 = true;
        v.u = i.value;
        return v;
      }
      return CValue::of_int(static_cast<int64_t>(i.value));
    }
    case ExprKind::Float: return CValue::of_float(e.as<FloatExpr>().value);
    case ExprKind::Bool: return CValue::of_bool(e.as<BoolExpr>().value);
    case ExprKind::None: return CValue::none();
    case ExprKind::Ellipsis: { CValue v; v.kind = CValue::Kind::Ellipsis; return v; }
    case ExprKind::Str: {
      const auto& s = e.as<StrExpr>();
      return s.is_fstring ? eval_fstring(s) : CValue::of_str(s.value);
    }
    default: refuse_expr(e);
  }
}

CValue FunctionGen::eval(const Expr& e) {
  if (stack_nearly_exhausted())
    fail(e.loc, "the program nests too deeply to compile here (expressions within helper calls use up the thread's stack)");
  switch (e.kind) {
    case ExprKind::Name: return lookup(e.as<NameExpr>().id, e.loc);
    case ExprKind::Int: case ExprKind::Float: case ExprKind::Str: case ExprKind::Bool: case ExprKind::None:
    case ExprKind::Ellipsis:
      return eval_constant(e);
    case ExprKind::Attribute: return eval_attribute(e.as<AttributeExpr>());
    case ExprKind::Subscript: return eval_subscript(e.as<SubscriptExpr>());
    case ExprKind::Slice: {
      const auto& s = e.as<SliceExpr>();
      CValue v;
      v.kind = CValue::Kind::Slice;
      for (const Expr* part : {s.lower.get(), s.upper.get(), s.step.get()})
        v.elems.push_back(part ? eval(*part) : CValue::none());
      return v;
    }
    case ExprKind::Call: return eval_call(e.as<CallExpr>());
    case ExprKind::BinOp: {
      const auto& bx = e.as<BinaryExpr>();
      CValue l = eval(*bx.lhs);
      CValue r = eval(*bx.rhs);
      return binary_op(ctx_, bx.op, l, r, bx.op_loc.valid() ? bx.op_loc : e.loc);
    }
    case ExprKind::UnaryOp: {
      const auto& u = e.as<UnaryExpr>();
      return unary_op(ctx_, u.op, eval(*u.operand), e.loc);
    }
    case ExprKind::BoolOp: return eval_boolop(e.as<BoolOpExpr>());
    case ExprKind::Compare: return eval_compare(e.as<CompareExpr>());
    case ExprKind::IfExp: return eval_ifexp(e.as<IfExpExpr>());
    case ExprKind::Tuple: case ExprKind::List: {
      const ExprList& elts = e.is<TupleExpr>() ? e.as<TupleExpr>().elts : e.as<ListExpr>().elts;
      CValues out;
      for (const auto& x : elts) {
        if (auto* st = x->dyn<StarredExpr>()) {
          CValue v = eval(*st->value);
          if (v.kind != CValue::Kind::Tuple) fail(x->loc, "only tuples can be unpacked with * (got " + v.describe() + ")");
          out.insert(out.end(), v.elems.begin(), v.elems.end());
        } else {
          out.push_back(eval(*x));
        }
      }
      return CValue::of_tuple(std::move(out));
    }
    case ExprKind::ListComp: return eval_listcomp(e.as<ListCompExpr>());
    default: refuse_expr(e);
  }
}

CValue FunctionGen::eval_attribute(const AttributeExpr& e) {
  CValue base = eval(*e.value);
  SrcLoc loc = e.attr_loc.valid() ? e.attr_loc : e.loc;
  if (base.kind == CValue::Kind::Namespace) {
    if (base.fn_module) return ModuleEnv::module_attr(st_, base, e.attr, loc);  // another Python file
    if (auto v = namespace_attr(base.s, e.attr)) return *v;
    fail(loc, "module '" + base.s + "' has no attribute '" + e.attr + "'");
  }
  if (base.kind == CValue::Kind::JitFn)
    fail(loc, "attribute '" + e.attr + "' of jit function '" + base.fn->name + "' is not supported");
  return value_attr(ctx_, base, e.attr, loc);
}

CValue FunctionGen::eval_subscript(const SubscriptExpr& e) {
  CValue base = eval(*e.value);
  CValue index = eval(*e.index);
  return subscript(ctx_, base, index, e.loc);
}

namespace {

bool is_none(const CValue& v) { return v.kind == CValue::Kind::None; }

}  // namespace

CValue FunctionGen::eval_compare(const CompareExpr& e) {
  CValue left = eval(*e.left);
  CValue result;
  for (size_t i = 0; i < e.ops.size(); ++i) {
    CValue right = eval(*e.comparators[i]);
    SrcLoc loc = i < e.op_locs.size() && e.op_locs[i].valid() ? e.op_locs[i] : e.loc;
    if (e.ops.size() > 1 && (has_tensor(left) || has_tensor(right)))
      fail(e.loc, "chained comparisons (a < b < c) are only supported on compile-time values; "
                  "write (a < b) & (b < c) for tensors");
    CmpOp op = e.ops[i];
    if ((op == CmpOp::Is || op == CmpOp::IsNot) && (is_none(left) || is_none(right))) {
      bool same = is_none(left) && is_none(right);
      result = CValue::of_bool(op == CmpOp::Is ? same : !same);
    } else {
      result = compare_op(ctx_, op, left, right, loc);
    }
    if (i + 1 < e.ops.size() && !constexpr_truth(result, loc)) return result;  // Python short-circuit
    left = std::move(right);
  }
  return result;
}

CValue FunctionGen::eval_boolop(const BoolOpExpr& e) {
  bool is_and = e.op == BoolOp::And;
  std::vector<CValue> dynamic;
  CValue last;
  for (const auto& sub : e.values) {
    last = eval(*sub);
    if (last.is_tensor()) {
      dynamic.push_back(last);
      continue;
    }
    bool truth = constexpr_truth(last, sub->loc);
    if (is_and && !truth) return last;  // short-circuit with the falsy value, as Python
    if (!is_and && truth) return last;
  }
  if (dynamic.empty()) return last;
  while (dynamic.size() >= 2) {
    CValue rhs = dynamic.back();
    dynamic.pop_back();
    CValue lhs = dynamic.back();
    dynamic.pop_back();
    dynamic.push_back(logical_op(ctx_, e.op, lhs, rhs, e.loc));
  }
  return dynamic[0];
}

CValue FunctionGen::eval_ifexp(const IfExpExpr& e) {
  CValue c = eval(*e.test);
  if (!c.is_tensor()) return static_condition(c, e.test->loc, "if") ? eval(*e.body) : eval(*e.orelse);
  ir::Value* cond = to_condition(ctx_, c, e.test->loc);
  ir::Op* op = b_.create_if(cond, {}, e.loc);
  CValue vals[2];
  for (int br = 0; br < 2; ++br) {
    ir::InsertionGuard g(b_);
    b_.set_insertion_end(&op->body(br));
    const Expr& x = br == 0 ? *e.body : *e.orelse;
    vals[br] = eval(x);
    if (!is_none(vals[br])) vals[br] = CValue::of_tensor(to_ir(ctx_, vals[br], x.loc));
  }
  if (is_none(vals[0]) != is_none(vals[1]) ||
      (!is_none(vals[0]) && !(vals[0].tensor->type == vals[1].tensor->type)))
    fail(e.loc, "Ternary expression with dynamic condition has inconsistent types " + type_text(vals[0]) + " and " +
                    type_text(vals[1]));
  for (int br = 0; br < 2; ++br) {
    ir::InsertionGuard g(b_);
    b_.set_insertion_end(&op->body(br));
    b_.create(ir::OpKind::Yield, flatten(vals[br]), {}, e.loc);
  }
  if (is_none(vals[0])) return CValue::none();
  ir::Value* r = fn_.new_value(vals[0].tensor->type);
  r->def = op;
  r->index = 0;
  op->results.push_back(r);
  return CValue::of_tensor(r);
}

CValue FunctionGen::eval_listcomp(const ListCompExpr& e) {
  if (e.generators.size() != 1) fail(e.loc, "nested comprehensions are not supported");
  const Comprehension& c = e.generators[0];
  if (c.is_async) fail(c.loc, "async comprehensions are not supported");
  if (!c.ifs.empty()) fail(c.ifs[0]->loc, "`if` clauses in comprehensions are not supported");
  const auto* target = c.target->dyn<NameExpr>();
  if (!target) fail(c.target->loc, "the target of a comprehension must be a plain name");
  CValue seq = eval(*c.iter);
  if (seq.kind != CValue::Kind::Tuple)
    fail(c.iter->loc, "only comprehensions over tuples are supported (got " + seq.describe() + ")");
  std::optional<CValue> saved;
  if (const CValue* old = scope_.find(target->id)) saved = *old;
  CValues out;
  for (const auto& item : seq.elems) {
    scope_.set(target->id, item);
    out.push_back(eval(*e.elt));
  }
  if (saved) scope_.set(target->id, *saved);
  else scope_.erase(target->id);
  return CValue::of_tuple(std::move(out));
}

namespace {

// Processes the escapes of a literal part of an f-string body.
std::string unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    char c = s[++i];
    switch (c) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case '0': out += '\0'; break;
      case '\\': case '\'': case '"': out += c; break;
      case '\n': break;
      default: out += '\\'; out += c; break;
    }
  }
  return out;
}

}  // namespace

CValue FunctionGen::eval_fstring(const StrExpr& e) {
  const std::string& raw = e.value;
  std::string out, literal;
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == '}') {
      if (i + 1 < raw.size() && raw[i + 1] == '}') ++i;
      literal += '}';
      continue;
    }
    if (c != '{') {
      literal += c;
      continue;
    }
    if (i + 1 < raw.size() && raw[i + 1] == '{') {
      literal += '{';
      ++i;
      continue;
    }
    out += unescape(literal);
    literal.clear();
    size_t end = i + 1;
    int depth = 0;
    for (; end < raw.size(); ++end) {
      char d = raw[end];
      if (d == '(' || d == '[' || d == '{') ++depth;
      else if ((d == ')' || d == ']') && depth > 0) --depth;
      else if (d == '}' && depth > 0) --depth;
      else if (depth == 0 && (d == '}' || d == '!' || d == ':')) break;
    }
    if (end >= raw.size()) fail(e.loc, "unterminated replacement field in f-string");
    std::string text = raw.substr(i + 1, end - i - 1);
    bool repr = false;
    if (raw[end] == '!') {
      if (end + 1 < raw.size() && (raw[end + 1] == 'r' || raw[end + 1] == 's')) repr = raw[end + 1] == 'r';
      else fail(e.loc, "unsupported conversion in f-string");
      end += 2;
    }
    if (end >= raw.size() || raw[end] != '}')
      fail(e.loc, "format specifications in f-strings are not supported inside jit functions");
    CValue v;
    {
      // Evaluate in a scratch block: only compile-time values may be formatted.
      ir::Block scratch;
      ir::InsertionGuard g(b_);
      b_.set_insertion_end(&scratch);
      try {
        SourceRef src = Source::from_string(text, "<f-string>");
        ExprPtr x = parse_expression(src);
        v = eval(*x);
      } catch (const CompileError& err) {
        fail(e.loc, "in f-string field {" + text + "}: " + err.message());
      }
      if (has_tensor(v))
        fail(e.loc, "Cannot evaluate f-string containing non-constexpr conversion values (field {" + text + "} is " +
                        v.describe() + ")");
    }
    out += repr ? py_repr(v) : py_str(v);
    i = end;
  }
  out += unescape(literal);
  return CValue::of_str(out);
}

}  // namespace tritium::frontend::cg
