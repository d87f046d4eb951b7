// AST helpers: operator names, Module lookup, and the debug dumper.
#include "frontend/ast.h"

#include <charconv>
#include <cstdio>

namespace tritium::frontend {

const char* to_string(BinOp op) {
  switch (op) {
    case BinOp::Add: return "+";
    case BinOp::Sub: return "-";
    case BinOp::Mul: return "*";
    case BinOp::Div: return "/";
    case BinOp::FloorDiv: return "//";
    case BinOp::Mod: return "%";
    case BinOp::Pow: return "**";
    case BinOp::MatMul: return "@";
    case BinOp::LShift: return "<<";
    case BinOp::RShift: return ">>";
    case BinOp::BitAnd: return "&";
    case BinOp::BitOr: return "|";
    case BinOp::BitXor: return "^";
  }
  return "?";
}

const char* to_string(UnaryOp op) {
  switch (op) {
    case UnaryOp::UAdd: return "+";
    case UnaryOp::USub: return "-";
    case UnaryOp::Invert: return "~";
    case UnaryOp::Not: return "not";
  }
  return "?";
}

const char* to_string(BoolOp op) { return op == BoolOp::And ? "and" : "or"; }

const char* to_string(CmpOp op) {
  switch (op) {
    case CmpOp::Eq: return "==";
    case CmpOp::NotEq: return "!=";
    case CmpOp::Lt: return "<";
    case CmpOp::LtE: return "<=";
    case CmpOp::Gt: return ">";
    case CmpOp::GtE: return ">=";
    case CmpOp::Is: return "is";
    case CmpOp::IsNot: return "is not";
    case CmpOp::In: return "in";
    case CmpOp::NotIn: return "not in";
  }
  return "?";
}

const char* to_string(ExprKind k) {
  switch (k) {
    case ExprKind::Name: return "Name";
    case ExprKind::Int: return "Int";
    case ExprKind::Float: return "Float";
    case ExprKind::Str: return "Str";
    case ExprKind::Bytes: return "Bytes";
    case ExprKind::Bool: return "Bool";
    case ExprKind::None: return "None";
    case ExprKind::Ellipsis: return "Ellipsis";
    case ExprKind::Attribute: return "Attribute";
    case ExprKind::Subscript: return "Subscript";
    case ExprKind::Slice: return "Slice";
    case ExprKind::Call: return "Call";
    case ExprKind::BinOp: return "BinOp";
    case ExprKind::UnaryOp: return "UnaryOp";
    case ExprKind::BoolOp: return "BoolOp";
    case ExprKind::Compare: return "Compare";
    case ExprKind::IfExp: return "IfExp";
    case ExprKind::Lambda: return "Lambda";
    case ExprKind::Tuple: return "Tuple";
    case ExprKind::List: return "List";
    case ExprKind::Set: return "Set";
    case ExprKind::Dict: return "Dict";
    case ExprKind::ListComp: return "ListComp";
    case ExprKind::SetComp: return "SetComp";
    case ExprKind::GeneratorExp: return "GeneratorExp";
    case ExprKind::DictComp: return "DictComp";
    case ExprKind::Starred: return "Starred";
    case ExprKind::NamedExpr: return "NamedExpr";
    case ExprKind::Await: return "Await";
    case ExprKind::Yield: return "Yield";
    case ExprKind::YieldFrom: return "YieldFrom";
  }
  return "?";
}

const char* to_string(StmtKind k) {
  switch (k) {
    case StmtKind::Expr: return "Expr";
    case StmtKind::Assign: return "Assign";
    case StmtKind::AnnAssign: return "AnnAssign";
    case StmtKind::AugAssign: return "AugAssign";
    case StmtKind::If: return "If";
    case StmtKind::For: return "For";
    case StmtKind::While: return "While";
    case StmtKind::Break: return "Break";
    case StmtKind::Continue: return "Continue";
    case StmtKind::Pass: return "Pass";
    case StmtKind::Return: return "Return";
    case StmtKind::Assert: return "Assert";
    case StmtKind::FunctionDef: return "FunctionDef";
    case StmtKind::ClassDef: return "ClassDef";
    case StmtKind::With: return "With";
    case StmtKind::Global: return "Global";
    case StmtKind::Nonlocal: return "Nonlocal";
    case StmtKind::Delete: return "Delete";
    case StmtKind::Raise: return "Raise";
    case StmtKind::Try: return "Try";
    case StmtKind::Import: return "Import";
    case StmtKind::ImportFrom: return "ImportFrom";
    case StmtKind::Skipped: return "Skipped";
  }
  return "?";
}

std::string_view FunctionDef::source_text() const {
  return loc.file ? loc.file->slice(src_begin, src_end) : std::string_view();
}

const StrExpr* FunctionDef::docstring() const {
  if (body.empty()) return nullptr;
  const auto* es = body.front()->dyn<ExprStmt>();
  if (!es || !es->value) return nullptr;
  const auto* s = es->value->dyn<StrExpr>();
  return (s && !s->is_fstring) ? s : nullptr;
}

const FunctionDef* Module::find_function(std::string_view name) const {
  for (auto it = functions.rbegin(); it != functions.rend(); ++it)
    if ((*it)->name == name) return *it;
  return nullptr;
}

// ------------------------------------------------------------------------------------------
// Dumper
// ------------------------------------------------------------------------------------------

namespace {

std::string quote(std::string_view s, char prefix) {
  std::string out;
  if (prefix) out += prefix;
  out += '\'';
  for (unsigned char c : s) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\'': out += "\\'"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '\'';
  return out;
}

std::string fmt_double(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  return s;
}

std::string opt(const ExprPtr& e) { return e ? dump(*e) : "_"; }

std::string join_exprs(const ExprList& xs, const char* sep = " ") {
  std::string out;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i) out += sep;
    out += dump(*xs[i]);
  }
  return out;
}

std::string dump_generators(const std::vector<Comprehension>& gens) {
  std::string out;
  for (const auto& g : gens) {
    out += g.is_async ? " async for " : " for ";
    out += dump(*g.target) + " in " + dump(*g.iter);
    for (const auto& c : g.ifs) out += " if " + dump(*c);
  }
  return out;
}

std::string dump_params(const std::vector<Param>& ps) {
  std::string out;
  bool star_seen = false;
  for (size_t i = 0; i < ps.size(); ++i) {
    const Param& p = ps[i];
    if (i) out += ", ";
    if (p.kind == ParamKind::KeywordOnly && !star_seen) { out += "*, "; star_seen = true; }
    if (p.kind == ParamKind::VarArgs) { out += '*'; star_seen = true; }
    if (p.kind == ParamKind::VarKwargs) out += "**";
    out += p.name;
    if (p.annotation) out += ": " + dump(*p.annotation);
    if (p.default_value) out += (p.annotation ? " = " : "=") + dump(*p.default_value);
    bool last_posonly = p.kind == ParamKind::PositionalOnly &&
                        (i + 1 == ps.size() || ps[i + 1].kind != ParamKind::PositionalOnly);
    if (last_posonly) out += ", /";
  }
  return out;
}

std::string dump_keywords(const std::vector<Keyword>& kws) {
  std::string out;
  for (const auto& k : kws) {
    out += ' ';
    out += k.name.empty() ? "**" + dump(*k.value) : k.name + "=" + dump(*k.value);
  }
  return out;
}

void dump_stmt(const Stmt& s, int indent, std::string& out);

void dump_block(const StmtList& body, int indent, std::string& out) {
  for (const auto& st : body) {
    out += '\n';
    dump_stmt(*st, indent, out);
  }
}

void pad(int indent, std::string& out) { out.append(static_cast<size_t>(indent) * 2, ' '); }

void dump_if(const IfStmt& s, int indent, std::string& out, bool as_elif) {
  out += as_elif ? "elif " : "if ";
  out += dump(*s.test) + ":";
  dump_block(s.body, indent + 1, out);
  if (s.orelse.size() == 1 && s.orelse[0]->is<IfStmt>() && s.orelse[0]->as<IfStmt>().is_elif) {
    out += '\n';
    pad(indent, out);
    dump_if(s.orelse[0]->as<IfStmt>(), indent, out, true);
  } else if (!s.orelse.empty()) {
    out += '\n';
    pad(indent, out);
    out += "else:";
    dump_block(s.orelse, indent + 1, out);
  }
}

void dump_else(const StmtList& orelse, const char* word, int indent, std::string& out) {
  if (orelse.empty()) return;
  out += '\n';
  pad(indent, out);
  out += word;
  out += ':';
  dump_block(orelse, indent + 1, out);
}

void dump_stmt(const Stmt& s, int indent, std::string& out) {
  pad(indent, out);
  switch (s.kind) {
    case StmtKind::Expr: out += dump(*s.as<ExprStmt>().value); break;
    case StmtKind::Assign: {
      const auto& a = s.as<AssignStmt>();
      for (const auto& t : a.targets) out += dump(*t) + " = ";
      out += dump(*a.value);
      break;
    }
    case StmtKind::AnnAssign: {
      const auto& a = s.as<AnnAssignStmt>();
      out += dump(*a.target) + ": " + dump(*a.annotation);
      if (a.value) out += " = " + dump(*a.value);
      break;
    }
    case StmtKind::AugAssign: {
      const auto& a = s.as<AugAssignStmt>();
      out += dump(*a.target) + " " + to_string(a.op) + "= " + dump(*a.value);
      break;
    }
    case StmtKind::If: dump_if(s.as<IfStmt>(), indent, out, false); break;
    case StmtKind::For: {
      const auto& f = s.as<ForStmt>();
      out += f.is_async ? "async for " : "for ";
      out += dump(*f.target) + " in " + dump(*f.iter) + ":";
      dump_block(f.body, indent + 1, out);
      dump_else(f.orelse, "else", indent, out);
      break;
    }
    case StmtKind::While: {
      const auto& w = s.as<WhileStmt>();
      out += "while " + dump(*w.test) + ":";
      dump_block(w.body, indent + 1, out);
      dump_else(w.orelse, "else", indent, out);
      break;
    }
    case StmtKind::Break: out += "break"; break;
    case StmtKind::Continue: out += "continue"; break;
    case StmtKind::Pass: out += "pass"; break;
    case StmtKind::Return: {
      const auto& r = s.as<ReturnStmt>();
      out += r.value ? "return " + dump(*r.value) : std::string("return");
      break;
    }
    case StmtKind::Assert: {
      const auto& a = s.as<AssertStmt>();
      out += "assert " + dump(*a.test);
      if (a.msg) out += ", " + dump(*a.msg);
      break;
    }
    case StmtKind::FunctionDef: {
      const auto& f = s.as<FunctionDef>();
      for (const auto& d : f.decorators) {
        out += "@" + dump(*d) + "\n";
        pad(indent, out);
      }
      out += f.is_async ? "async def " : "def ";
      out += f.name + "(" + dump_params(f.params) + ")";
      if (f.returns) out += " -> " + dump(*f.returns);
      out += ":";
      if (f.parse_error)
        out += "  # parse error " + std::to_string(f.parse_error->loc.line) + ":" +
               std::to_string(f.parse_error->loc.col) + ": " + f.parse_error->message;
      dump_block(f.body, indent + 1, out);
      break;
    }
    case StmtKind::ClassDef: {
      const auto& c = s.as<ClassDef>();
      for (const auto& d : c.decorators) {
        out += "@" + dump(*d) + "\n";
        pad(indent, out);
      }
      out += "class " + c.name + "(" + join_exprs(c.bases) + dump_keywords(c.keywords) + "):";
      dump_block(c.body, indent + 1, out);
      break;
    }
    case StmtKind::With: {
      const auto& w = s.as<WithStmt>();
      out += w.is_async ? "async with " : "with ";
      for (size_t i = 0; i < w.items.size(); ++i) {
        if (i) out += ", ";
        out += dump(*w.items[i].context_expr);
        if (w.items[i].optional_vars) out += " as " + dump(*w.items[i].optional_vars);
      }
      out += ":";
      dump_block(w.body, indent + 1, out);
      break;
    }
    case StmtKind::Global:
    case StmtKind::Nonlocal: {
      const auto& names = s.kind == StmtKind::Global ? s.as<GlobalStmt>().names : s.as<NonlocalStmt>().names;
      out += s.kind == StmtKind::Global ? "global " : "nonlocal ";
      for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
      break;
    }
    case StmtKind::Delete: out += "del " + join_exprs(s.as<DeleteStmt>().targets, ", "); break;
    case StmtKind::Raise: {
      const auto& r = s.as<RaiseStmt>();
      out += "raise";
      if (r.exc) out += " " + dump(*r.exc);
      if (r.cause) out += " from " + dump(*r.cause);
      break;
    }
    case StmtKind::Try: {
      const auto& t = s.as<TryStmt>();
      out += "try:";
      dump_block(t.body, indent + 1, out);
      for (const auto& h : t.handlers) {
        out += '\n';
        pad(indent, out);
        out += h.is_star ? "except*" : "except";
        if (h.type) out += " " + dump(*h.type);
        if (!h.name.empty()) out += " as " + h.name;
        out += ":";
        dump_block(h.body, indent + 1, out);
      }
      dump_else(t.orelse, "else", indent, out);
      dump_else(t.finalbody, "finally", indent, out);
      break;
    }
    case StmtKind::Import: {
      out += "import ";
      const auto& names = s.as<ImportStmt>().names;
      for (size_t i = 0; i < names.size(); ++i) {
        if (i) out += ", ";
        out += names[i].name;
        if (!names[i].asname.empty()) out += " as " + names[i].asname;
      }
      break;
    }
    case StmtKind::ImportFrom: {
      const auto& f = s.as<ImportFromStmt>();
      out += "from " + std::string(static_cast<size_t>(f.level), '.') + f.module + " import ";
      for (size_t i = 0; i < f.names.size(); ++i) {
        if (i) out += ", ";
        out += f.names[i].name;
        if (!f.names[i].asname.empty()) out += " as " + f.names[i].asname;
      }
      break;
    }
    case StmtKind::Skipped: {
      const auto& k = s.as<SkippedStmt>();
      out += "# skipped " + std::to_string(k.loc.line) + ":" + std::to_string(k.loc.col) + ": " + k.reason;
      if (k.error) out += " (" + k.error->message + ")";
      break;
    }
  }
}

}  // namespace

std::string dump(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Name: return e.as<NameExpr>().id;
    case ExprKind::Int: {
      const auto& i = e.as<IntExpr>();
      return i.overflow ? i.text : std::to_string(i.value);
    }
    case ExprKind::Float: return fmt_double(e.as<FloatExpr>().value);
    case ExprKind::Str: {
      const auto& s = e.as<StrExpr>();
      return quote(s.value, s.is_fstring ? 'f' : 0);
    }
    case ExprKind::Bytes: return quote(e.as<BytesExpr>().value, 'b');
    case ExprKind::Bool: return e.as<BoolExpr>().value ? "True" : "False";
    case ExprKind::None: return "None";
    case ExprKind::Ellipsis: return "...";
    case ExprKind::Attribute: {
      const auto& a = e.as<AttributeExpr>();
      return dump(*a.value) + "." + a.attr;
    }
    case ExprKind::Subscript: {
      const auto& s = e.as<SubscriptExpr>();
      return "(sub " + dump(*s.value) + " " + dump(*s.index) + ")";
    }
    case ExprKind::Slice: {
      const auto& s = e.as<SliceExpr>();
      return "(slice " + opt(s.lower) + " " + opt(s.upper) + " " + opt(s.step) + ")";
    }
    case ExprKind::Call: {
      const auto& c = e.as<CallExpr>();
      std::string out = "(call " + dump(*c.func);
      if (!c.args.empty()) out += " " + join_exprs(c.args);
      return out + dump_keywords(c.keywords) + ")";
    }
    case ExprKind::BinOp: {
      const auto& b = e.as<BinaryExpr>();
      return std::string("(") + to_string(b.op) + " " + dump(*b.lhs) + " " + dump(*b.rhs) + ")";
    }
    case ExprKind::UnaryOp: {
      const auto& u = e.as<UnaryExpr>();
      return std::string("(") + to_string(u.op) + " " + dump(*u.operand) + ")";
    }
    case ExprKind::BoolOp: {
      const auto& b = e.as<BoolOpExpr>();
      return std::string("(") + to_string(b.op) + " " + join_exprs(b.values) + ")";
    }
    case ExprKind::Compare: {
      const auto& c = e.as<CompareExpr>();
      if (c.ops.size() == 1)
        return std::string("(") + to_string(c.ops[0]) + " " + dump(*c.left) + " " + dump(*c.comparators[0]) + ")";
      std::string out = "(cmp " + dump(*c.left);
      for (size_t i = 0; i < c.ops.size(); ++i) out += std::string(" ") + to_string(c.ops[i]) + " " + dump(*c.comparators[i]);
      return out + ")";
    }
    case ExprKind::IfExp: {
      const auto& i = e.as<IfExpExpr>();
      return "(ifexp " + dump(*i.test) + " " + dump(*i.body) + " " + dump(*i.orelse) + ")";
    }
    case ExprKind::Lambda: {
      const auto& l = e.as<LambdaExpr>();
      return "(lambda (" + dump_params(l.params) + ") " + dump(*l.body) + ")";
    }
    case ExprKind::Tuple: {
      const auto& t = e.as<TupleExpr>();
      return t.elts.empty() ? "(tuple)" : "(tuple " + join_exprs(t.elts) + ")";
    }
    case ExprKind::List: {
      const auto& t = e.as<ListExpr>();
      return t.elts.empty() ? "(list)" : "(list " + join_exprs(t.elts) + ")";
    }
    case ExprKind::Set: return "(set " + join_exprs(e.as<SetExpr>().elts) + ")";
    case ExprKind::Dict: {
      const auto& d = e.as<DictExpr>();
      std::string out = "(dict";
      for (size_t i = 0; i < d.keys.size(); ++i)
        out += " " + (d.keys[i] ? dump(*d.keys[i]) + ":" : std::string("**")) + dump(*d.values[i]);
      return out + ")";
    }
    case ExprKind::ListComp: {
      const auto& c = e.as<ListCompExpr>();
      return "(listcomp " + dump(*c.elt) + dump_generators(c.generators) + ")";
    }
    case ExprKind::SetComp: {
      const auto& c = e.as<SetCompExpr>();
      return "(setcomp " + dump(*c.elt) + dump_generators(c.generators) + ")";
    }
    case ExprKind::GeneratorExp: {
      const auto& c = e.as<GeneratorExpr>();
      return "(genexp " + dump(*c.elt) + dump_generators(c.generators) + ")";
    }
    case ExprKind::DictComp: {
      const auto& c = e.as<DictCompExpr>();
      return "(dictcomp " + dump(*c.key) + ":" + dump(*c.value) + dump_generators(c.generators) + ")";
    }
    case ExprKind::Starred: return "*" + dump(*e.as<StarredExpr>().value);
    case ExprKind::NamedExpr: {
      const auto& n = e.as<NamedExpr>();
      return "(:= " + dump(*n.target) + " " + dump(*n.value) + ")";
    }
    case ExprKind::Await: return "(await " + dump(*e.as<AwaitExpr>().value) + ")";
    case ExprKind::Yield: {
      const auto& y = e.as<YieldExpr>();
      return y.value ? "(yield " + dump(*y.value) + ")" : std::string("(yield)");
    }
    case ExprKind::YieldFrom: return "(yield-from " + dump(*e.as<YieldFromExpr>().value) + ")";
  }
  return "?";
}

std::string dump(const Stmt& s) {
  std::string out;
  dump_stmt(s, 0, out);
  return out;
}

std::string dump(const Module& m) {
  std::string out;
  for (size_t i = 0; i < m.body.size(); ++i) {
    if (i) out += '\n';
    dump_stmt(*m.body[i], 0, out);
  }
  return out;
}

}  // namespace tritium::frontend
