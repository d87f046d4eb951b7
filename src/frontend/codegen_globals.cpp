// Module-level names for the code generator: import spellings of the Triton modules,
// module constants and jit functions (ModuleEnv), and the jit-decorator recognizer.
#include <fmt/format.h>

#include "frontend/codegen_impl.h"
#include "frontend/codegen_values.h"

namespace tritium::frontend::cg {

void fail(SrcLoc loc, const std::string& msg) { throw CompileError(loc, msg); }

namespace {

// The last name of a decorator: `triton.jit(...)` → "jit", `jit` → "jit".
std::string decorator_name(const Expr& e) {
  if (auto* n = e.dyn<NameExpr>()) return n->id;
  if (auto* a = e.dyn<AttributeExpr>()) return a->attr;
  if (auto* c = e.dyn<CallExpr>()) return decorator_name(*c->func);
  return "";
}

// Dotted module path → its namespace value ("triton.language" → Namespace), or nullopt
// when it is not (a part of) the Triton package.
std::optional<CValue> resolve_module(const std::string& dotted) {
  size_t dot = dotted.find('.');
  std::string first = dotted.substr(0, dot);
  if (first != "triton") return std::nullopt;
  CValue cur = CValue::ns("triton");
  while (dot != std::string::npos) {
    size_t next = dotted.find('.', dot + 1);
    std::string comp = dotted.substr(dot + 1, next == std::string::npos ? std::string::npos : next - dot - 1);
    auto a = namespace_attr(cur.s, comp);
    if (!a || a->kind != CValue::Kind::Namespace) return std::nullopt;
    cur = *a;
    dot = next;
  }
  return cur;
}

bool allowed_global(const CValue& v) {
  switch (v.kind) {
    case CValue::Kind::Tensor: case CValue::Kind::Method: case CValue::Kind::Slice: case CValue::Kind::Lambda:
      return false;
    case CValue::Kind::Tuple:
      for (const auto& e : v.elems)
        if (!allowed_global(e)) return false;
      return true;
    default:
      return true;
  }
}

// Records `path` (positions inside nested tuple targets) for every name of `target`.
void collect_targets(const Expr& target, std::vector<size_t>& path,
                     std::vector<std::pair<std::string, std::vector<size_t>>>& out) {
  if (auto* n = target.dyn<NameExpr>()) {
    out.emplace_back(n->id, path);
    return;
  }
  const ExprList* elts = nullptr;
  if (auto* t = target.dyn<TupleExpr>()) elts = &t->elts;
  if (auto* l = target.dyn<ListExpr>()) elts = &l->elts;
  if (!elts) return;  // attribute / subscript targets at module level do not bind names
  for (size_t i = 0; i < elts->size(); ++i) {
    path.push_back(i);
    collect_targets(*(*elts)[i], path, out);
    path.pop_back();
  }
}

}  // namespace

bool is_jit_function(const FunctionDef& f) {
  for (const auto& d : f.decorators)
    if (decorator_name(*d) == "jit") return true;
  return false;
}

bool is_constexpr_annotation(const Expr* a) {
  if (!a) return false;
  if (auto* n = a->dyn<NameExpr>()) return n->id == "constexpr";
  if (auto* at = a->dyn<AttributeExpr>()) return at->attr == "constexpr";
  if (auto* s = a->dyn<StrExpr>()) return s->value.find("constexpr") != std::string::npos;
  return false;
}

// ---- ModuleEnv ------------------------------------------------------------------------------

ModuleEnv::ModuleEnv(const Module& m) : module_(m) {
  for (const auto& sp : m.body) {
    const Stmt& s = *sp;
    switch (s.kind) {
      case StmtKind::Import:
        for (const auto& a : s.as<ImportStmt>().names) {
          std::string bound = a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname;
          defs_[bound].push_back(Def{Def::Import, &s, &a, {}});
        }
        break;
      case StmtKind::ImportFrom: {
        const auto& imp = s.as<ImportFromStmt>();
        for (const auto& a : imp.names) {
          if (a.name == "*") {
            if (imp.level == 0)
              if (auto ns = resolve_module(imp.module)) star_imports_.emplace_back(ns->s, a.loc);
            continue;
          }
          defs_[a.asname.empty() ? a.name : a.asname].push_back(Def{Def::ImportFrom, &s, &a, {}});
        }
        break;
      }
      case StmtKind::Assign: {
        std::vector<std::pair<std::string, std::vector<size_t>>> names;
        for (const auto& t : s.as<AssignStmt>().targets) {
          std::vector<size_t> path;
          collect_targets(*t, path, names);
        }
        for (auto& [n, p] : names) defs_[n].push_back(Def{Def::Assign, &s, nullptr, p});
        break;
      }
      case StmtKind::AnnAssign: {
        const auto& a = s.as<AnnAssignStmt>();
        if (auto* n = a.target->dyn<NameExpr>(); n && a.value) defs_[n->id].push_back(Def{Def::Assign, &s, nullptr, {}});
        break;
      }
      case StmtKind::AugAssign:
        if (auto* n = s.as<AugAssignStmt>().target->dyn<NameExpr>())
          defs_[n->id].push_back(Def{Def::AugAssign, &s, nullptr, {}});
        break;
      case StmtKind::FunctionDef:
        defs_[s.as<FunctionDef>().name].push_back(Def{Def::Function, &s, nullptr, {}});
        break;
      default:
        break;
    }
  }
}

std::optional<CValue> ModuleEnv::lookup(GenState& st, const std::string& name, SrcLoc use) {
  if (auto it = cache_.find(name); it != cache_.end()) return it->second;
  auto it = defs_.find(name);
  if (it == defs_.end()) {
    for (auto s = star_imports_.rbegin(); s != star_imports_.rend(); ++s)
      if (auto v = namespace_attr(s->first, name)) return v;
    return std::nullopt;
  }
  CValue v = eval_def(st, name, it->second.size() - 1, use);
  cache_[name] = v;
  return v;
}

CValue ModuleEnv::eval_global_expr(GenState& st, const Expr& e, const std::string& what) {
  FunctionGen& g = st.global_gen();
  CValue v = g.eval(e);
  g.builder().function().body.ops.clear();  // scratch ops of the evaluation
  if (!allowed_global(v)) fail(e.loc, what + " is not a compile-time constant (it is " + v.describe() + ")");
  return v;
}

CValue ModuleEnv::eval_def(GenState& st, const std::string& name, size_t index, SrcLoc use) {
  const Def& d = defs_.at(name)[index];
  std::string key = name + "#" + std::to_string(index);
  if (evaluating_.count(key)) fail(use, "global '" + name + "' is defined in terms of itself");
  struct Guard {
    std::set<std::string>& s;
    std::string k;
    ~Guard() { s.erase(k); }
  } guard{evaluating_, key};
  evaluating_.insert(key);

  switch (d.kind) {
    case Def::Import: {
      const std::string& path = d.alias->name;
      std::string bound = d.alias->asname.empty() ? path.substr(0, path.find('.')) : path;
      if (auto ns = resolve_module(bound)) return *ns;
      fail(use, fmt::format("module '{}' (imported as '{}' at line {}) cannot be used inside a jit function", bound,
                            name, d.alias->loc.line));
    }
    case Def::ImportFrom: {
      const auto& imp = d.stmt->as<ImportFromStmt>();
      std::string from = std::string(imp.level, '.') + imp.module;
      std::optional<CValue> ns = imp.level == 0 ? resolve_module(imp.module) : std::nullopt;
      if (!ns)
        fail(use, fmt::format("'{}' is imported from module '{}' (line {}), which cannot be used inside a jit function",
                              name, from, d.alias->loc.line));
      if (auto v = namespace_attr(ns->s, d.alias->name)) return *v;
      fail(use, fmt::format("cannot import name '{}' from '{}' (line {})", d.alias->name, from, d.alias->loc.line));
    }
    case Def::Function: {
      const auto& f = d.stmt->as<FunctionDef>();
      if (!is_jit_function(f))
        fail(use, "'" + name + "' is not a @triton.jit function; only jit functions can be called from a kernel");
      CValue v;
      v.kind = CValue::Kind::JitFn;
      v.fn = &f;
      v.fn_module = &module_;
      return v;
    }
    case Def::Assign: {
      CValue value;
      if (auto it = assign_cache_.find(d.stmt); it != assign_cache_.end()) {
        value = it->second;
      } else {
        const Expr* e = d.stmt->is<AssignStmt>() ? d.stmt->as<AssignStmt>().value.get()
                                                 : d.stmt->as<AnnAssignStmt>().value.get();
        try {
          value = eval_global_expr(st, *e, "global '" + name + "'");
        } catch (const CompileError& err) {
          fail(use, fmt::format("cannot use global '{}' in a jit function: {} (line {})", name, err.message(),
                                err.loc().line));
        }
        assign_cache_[d.stmt] = value;
      }
      for (size_t i : d.path) {
        if (value.kind != CValue::Kind::Tuple || i >= value.elems.size())
          fail(use, fmt::format("cannot unpack global '{}' (line {})", name, d.stmt->loc.line));
        value = value.elems[i];
      }
      return value;
    }
    case Def::AugAssign: {
      const auto& a = d.stmt->as<AugAssignStmt>();
      if (index == 0) fail(use, "global '" + name + "' is used before assignment at module level");
      CValue prev = eval_def(st, name, index - 1, use);
      try {
        CValue rhs = eval_global_expr(st, *a.value, "global '" + name + "'");
        CValue v = binary_op(st.global_gen().ctx(), a.op, prev, rhs, a.loc);
        if (!allowed_global(v)) fail(a.loc, "global '" + name + "' is not a compile-time constant");
        return v;
      } catch (const CompileError& err) {
        fail(use, fmt::format("cannot use global '{}' in a jit function: {} (line {})", name, err.message(),
                              err.loc().line));
      }
    }
  }
  fail(use, "name '" + name + "' is not defined");
}

CValue ModuleEnv::eval_default(GenState& st, const Param& p) {
  if (auto it = default_cache_.find(&p); it != default_cache_.end()) return it->second;
  CValue v = eval_global_expr(st, *p.default_value, "the default value of parameter '" + p.name + "'");
  default_cache_[&p] = v;
  return v;
}

// ---- GenState -------------------------------------------------------------------------------

GenState::GenState(const Module& m, const GenOptions& o, ir::Module& out_module)
    : module(m), opts(o), out(out_module), env(m) {
  scratch_.name = "<module constants>";
}

GenState::~GenState() = default;

FunctionGen& GenState::global_gen() {
  if (!global_gen_) global_gen_ = std::make_unique<FunctionGen>(*this, scratch_, nullptr, false);
  return *global_gen_;
}

}  // namespace tritium::frontend::cg
