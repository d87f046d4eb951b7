// Module-level names for the code generator: import spellings of the Triton modules,
// module constants and jit functions (ModuleEnv), and the jit-decorator recognizer.
#include <fmt/format.h>

#include "frontend/codegen_impl.h"
#include "frontend/codegen_values.h"
#include "frontend/decorators.h"
#include "frontend/module_loader.h"
#include "frontend/pyeval.h"
#include "frontend/stdlib/stdlib.h"

namespace tritium::frontend::cg {

CValue constexpr_value(const ConstexprValue& v) {
  if (auto* i = std::get_if<int64_t>(&v)) return CValue::of_int(*i);
  if (auto* d = std::get_if<double>(&v)) return CValue::of_float(*d);
  if (auto* b = std::get_if<bool>(&v)) return CValue::of_bool(*b);
  if (auto* t = std::get_if<DTypeValue>(&v)) return CValue::of_dtype(ir::Type::of(t->type));
  return CValue::of_str(std::get<std::string>(v));
}

void fail(SrcLoc loc, const std::string& msg) { throw CompileError(loc, msg); }

namespace {


// PyTorch Inductor's helper module, whose names generated kernels use: its `libdevice` and
// `math` (tl.extra.libdevice, tl.math) and its jit helpers (tritium's stdlib/_inductor.py).
constexpr const char* kInductorHelpers = "torch._inductor.runtime.triton_helpers";

// `from <module> import <name>` of Inductor's runtime package, or nullopt.
std::optional<CValue> inductor_import(const std::string& module, const std::string& name) {
  if (module == kInductorHelpers) {
    if (name == "libdevice") return CValue::ns("libdevice");
    if (name == "math") return CValue::ns("triton.language.math");
    return stdlib::lookup("triton.language._inductor", name);
  }
  if (module == "torch._inductor.runtime" && name == "triton_helpers") return CValue::ns("triton.language._inductor");
  return std::nullopt;
}

// Dotted module path → its namespace value ("triton.language" → Namespace), or nullopt
// when it is not (a part of) the Triton package.
std::optional<CValue> resolve_module(const std::string& spelled) {
  const std::string dotted = triton_alias(spelled);
  if (dotted == kInductorHelpers) return CValue::ns("triton.language._inductor");
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

}  // namespace

bool is_jit_function(const FunctionDef& f) {
  for (const auto& d : f.decorators)
    if (decorator_name(*d) == "jit") return true;
  return false;
}

void refuse_gluon(const Module& m, const FunctionDef& f) {
  for (const auto& d : f.decorators) {
    if (decorator_name(*d) != "jit") continue;
    const std::string path = decorator_path(m, *d);
    if (path.find(".gluon.") != std::string::npos || path.rfind("gluon.", 0) == 0)
      fail(d->loc, fmt::format("'{}' is a Gluon kernel (@{}): Gluon, Triton's lower-level language with explicit "
                               "layouts, is not supported",
                               f.name, path));
  }
}

bool is_constexpr_annotation(const Expr* a) {
  if (!a) return false;
  if (auto* n = a->dyn<NameExpr>()) return n->id == "constexpr";
  if (auto* at = a->dyn<AttributeExpr>()) return at->attr == "constexpr";
  if (auto* s = a->dyn<StrExpr>()) return s->value.find("constexpr") != std::string::npos;
  return false;
}

// ---- ModuleEnv ------------------------------------------------------------------------------

void ModuleEnv::ensure_executed(GenState& st) {
  if (executed_) return;
  executed_ = true;  // set first: lookups during execution see the names bound so far
  for (const auto& s : module_.body) exec(st, *s);
  if (host_values_)
    for (const auto& [name, v] : *host_values_) {
      Binding b;
      b.value = constexpr_value(v);
      names_[name] = b;
    }
}

std::optional<CValue> ModuleEnv::lookup(GenState& st, const std::string& name, SrcLoc use) {
  ensure_executed(st);
  auto it = names_.find(name);
  if (it == names_.end()) {
    for (auto s = star_imports_.rbegin(); s != star_imports_.rend(); ++s)
      if (auto v = namespace_attr(*s, name)) return v;
    return std::nullopt;
  }
  if (it->second.pending) return resolve_import(st, it->second, use);
  if (!it->second.value) fail(use, it->second.error);
  return *it->second.value;
}

namespace {

CValue user_module(const LoadedModule& lm, const std::string& dotted) {
  CValue v = CValue::ns(dotted);
  v.fn_module = lm.module;
  v.b = lm.is_package;
  return v;
}

}  // namespace

std::optional<CValue> ModuleEnv::resolve_import(GenState& st, Binding& b, SrcLoc use) {
  const Binding::Import imp = *b.pending;
  b.pending.reset();
  const std::string shown = std::string(static_cast<size_t>(imp.level), '.') + imp.module;
  LoadedModule lm;
  try {
    lm = load_module(module_, imp.module, imp.level);
  } catch (const CompileError& e) {
    b.error = fmt::format("module '{}' (imported at line {}) does not parse: {}", shown, imp.line, e.message());
    fail(use, b.error);
  }
  if (!lm.module) {
    b.error = fmt::format("module '{}' (imported at line {}) cannot be used inside a jit function: {} (set "
                          "TRITIUM_PYTHONPATH to where it lives)",
                          shown, imp.line, lm.why_not);
    fail(use, b.error);
  }
  if (imp.name.empty()) {
    b.value = user_module(lm, shown);
    return b.value;
  }
  b.value = module_attr(st, user_module(lm, shown), imp.name, use);
  return b.value;
}

CValue ModuleEnv::module_attr(GenState& st, const CValue& m, const std::string& attr, SrcLoc use) {
  if (auto v = st.env_of(m.fn_module).lookup(st, attr, use)) return *v;
  if (m.b) {  // a package: its submodule
    LoadedModule sub;
    try {
      sub = load_module(*m.fn_module, attr, 1);
    } catch (const CompileError& e) {
      fail(use, fmt::format("module '{}.{}' does not parse: {}", m.s, attr, e.message()));
    }
    if (sub.module) return user_module(sub, m.s + "." + attr);
  }
  fail(use, fmt::format("cannot import name '{}' from '{}' ({})", attr, m.s,
                        m.fn_module->source ? m.fn_module->source->name() : std::string("?")));
}

CValue ModuleEnv::eval_default(GenState& st, const Param& p) {
  ensure_executed(st);
  auto it = defaults_.find(&p);
  if (it == defaults_.end())  // not a top-level def: evaluate with the final bindings
    it = defaults_.emplace(&p, eval_binding(st, *p.default_value, "the default value of '" + p.name + "'")).first;
  if (!it->second.value) fail(p.default_value->loc, it->second.error);
  return *it->second.value;
}

ModuleEnv::Binding ModuleEnv::eval_binding(GenState& st, const Expr& e, const std::string& what) {
  FunctionGen& g = st.global_gen(&module_);
  Binding b;
  try {
    CValue v = g.eval(e);
    if (allowed_global(v)) b.value = std::move(v);
    else b.error = fmt::format("{} (line {}) is not a compile-time constant (it is {})", what, e.loc.line, v.describe());
  } catch (const CompileError& err) {
    b.error = fmt::format("{} (line {}) cannot be evaluated at compile time: {}", what, e.loc.line, err.message());
  } catch (const std::exception& err) {
    b.error = fmt::format("{} (line {}) cannot be evaluated at compile time: {}", what, e.loc.line, err.what());
  }
  g.builder().function().body.ops.clear();  // scratch ops of the evaluation
  return b;
}

void ModuleEnv::bind_target(const Expr& target, const Binding& b) {
  if (auto* n = target.dyn<NameExpr>()) {
    names_[n->id] = b;
    return;
  }
  const ExprList* elts = nullptr;
  if (auto* t = target.dyn<TupleExpr>()) elts = &t->elts;
  if (auto* l = target.dyn<ListExpr>()) elts = &l->elts;
  if (!elts) return;  // attribute / subscript targets do not bind names
  for (size_t i = 0; i < elts->size(); ++i) {
    Binding part = b;
    if (b.value) {
      if (b.value->kind != CValue::Kind::Tuple || b.value->elems.size() != elts->size()) {
        part.value.reset();
        part.error = fmt::format("the global assignment at line {} cannot be unpacked at compile time", target.loc.line);
      } else {
        part.value = b.value->elems[i];
      }
    }
    bind_target(*(*elts)[i], part);
  }
}

void ModuleEnv::exec(GenState& st, const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Import:
      for (const auto& a : s.as<ImportStmt>().names) {
        std::string bound = a.import_bound();
        std::string path = a.asname.empty() ? bound : a.name;
        Binding b;
        if (auto ns = resolve_module(path)) b.value = *ns;
        else if (is_triton_module(path) || is_host_module(path))
          b.error = fmt::format("module '{}' (imported at line {}) cannot be used inside a jit function", path,
                                a.loc.line);
        else b.pending = Binding::Import{path, "", 0, a.loc.line};  // another Python file, on first use
        names_[bound] = b;
      }
      return;
    case StmtKind::ImportFrom: {
      const auto& imp = s.as<ImportFromStmt>();
      std::string from = std::string(imp.level, '.') + imp.module;
      std::optional<CValue> ns = imp.level == 0 ? resolve_module(imp.module) : std::nullopt;
      for (const auto& a : imp.names) {
        if (a.name == "*") {
          if (ns) star_imports_.push_back(ns->s);
          continue;
        }
        Binding b;
        const bool triton_pkg = imp.level == 0 && (is_triton_module(imp.module) || is_host_module(imp.module));
        if (auto v = imp.level == 0 ? inductor_import(imp.module, a.name) : std::nullopt)
          b.value = *v;
        else if (!ns && !triton_pkg)
          b.pending = Binding::Import{imp.module, a.name, imp.level, a.loc.line};  // another Python file
        else if (!ns)
          b.error = fmt::format("'{}' is imported from module '{}' (line {}), which cannot be used inside a jit function",
                                a.name, from, a.loc.line);
        else if (auto v = namespace_attr(ns->s, a.name)) b.value = *v;
        else b.error = fmt::format("cannot import name '{}' from '{}' (line {})", a.name, from, a.loc.line);
        names_[a.from_bound()] = b;
      }
      return;
    }
    case StmtKind::Assign: {
      const auto& a = s.as<AssignStmt>();
      std::string what = "global";
      if (a.targets.size() == 1)
        if (auto* n = a.targets[0]->dyn<NameExpr>()) what = "global '" + n->id + "'";
      Binding b = eval_binding(st, *a.value, what);
      for (const auto& t : a.targets) bind_target(*t, b);
      return;
    }
    case StmtKind::AnnAssign: {
      const auto& a = s.as<AnnAssignStmt>();
      if (!a.value) return;
      std::string what = "global";
      if (auto* n = a.target->dyn<NameExpr>()) what = "global '" + n->id + "'";
      bind_target(*a.target, eval_binding(st, *a.value, what));
      return;
    }
    case StmtKind::AugAssign: {
      const auto& a = s.as<AugAssignStmt>();
      const auto* n = a.target->dyn<NameExpr>();
      if (!n) return;
      Binding b;
      auto it = names_.find(n->id);
      if (it == names_.end()) {
        b.error = fmt::format("global '{}' is used before assignment at module level (line {})", n->id, s.loc.line);
      } else if (!it->second.value) {
        b = it->second;
      } else {
        Binding rhs = eval_binding(st, *a.value, "global '" + n->id + "'");
        if (!rhs.value) {
          b = rhs;
        } else {
          try {
            CValue v = binary_op(st.global_gen(&module_).ctx(), a.op, *it->second.value, *rhs.value, a.loc);
            if (allowed_global(v)) b.value = v;
            else b.error = fmt::format("global '{}' (line {}) is not a compile-time constant", n->id, s.loc.line);
          } catch (const CompileError& err) {
            b.error = fmt::format("global '{}' (line {}) cannot be evaluated at compile time: {}", n->id, s.loc.line,
                                  err.message());
          }
          st.global_gen(&module_).builder().function().body.ops.clear();
        }
      }
      names_[n->id] = b;
      return;
    }
    case StmtKind::FunctionDef: {
      const auto& f = s.as<FunctionDef>();
      for (const auto& p : f.params)
        if (p.default_value) defaults_[&p] = eval_binding(st, *p.default_value, "the default value of '" + p.name + "'");
      Binding b;
      bool cx_fn = false;
      for (const auto& d : f.decorators) cx_fn = cx_fn || decorator_name(*d) == "constexpr_function";
      if (cx_fn) {  // @triton.constexpr_function: host Python the kernel calls on constexprs
        CValue v;
        v.kind = CValue::Kind::ConstexprFn;
        v.fn = &f;
        v.fn_module = &module_;
        b.value = v;
      } else if (is_jit_function(f)) {
        CValue v;
        v.kind = CValue::Kind::JitFn;
        v.fn = &f;
        v.fn_module = &module_;
        b.value = v;
      } else {
        b.error = "'" + f.name + "' is not a @triton.jit function; only jit functions can be called from a kernel";
      }
      names_[f.name] = b;
      return;
    }
    case StmtKind::If: {
      // Python runs the branch its condition selects: evaluate it as host Python (module
      // constants, os.environ, ...). When tritium cannot, only the imports of the first
      // branch count (the path guarded imports assume), and the other names either branch
      // binds are errors on use, naming the condition.
      const auto& i = s.as<IfStmt>();
      std::string why;
      try {
        PyEvaluator ev(module_, s.loc.offset);
        const bool taken = ev.eval(*i.test).truthy();
        for (const auto& st2 : taken ? i.body : i.orelse) exec(st, *st2);
        return;
      } catch (const std::exception& e) {
        why = e.what();
        if (auto* ce = dynamic_cast<const CompileError*>(&e)) why = ce->message();
      }
      std::function<void(const StmtList&, bool)> walk = [&](const StmtList& body, bool first_branch) {
        for (const auto& st2 : body) {
          if (first_branch && (st2->kind == StmtKind::Import || st2->kind == StmtKind::ImportFrom)) {
            exec(st, *st2);
            continue;
          }
          std::vector<std::string> bound;
          if (auto* a = st2->dyn<AssignStmt>()) {
            for (const auto& t : a->targets)
              if (auto* n = t->dyn<NameExpr>()) bound.push_back(n->id);
          } else if (auto* a = st2->dyn<AnnAssignStmt>()) {
            if (auto* n = a->target->dyn<NameExpr>()) bound.push_back(n->id);
          } else if (auto* f = st2->dyn<FunctionDef>()) {
            bound.push_back(f->name);
          } else if (auto* nested = st2->dyn<IfStmt>()) {
            walk(nested->body, first_branch);
            walk(nested->orelse, false);
          } else if (auto* t = st2->dyn<TryStmt>()) {  // the try body's imports, as at top level
            walk(t->body, first_branch);
          }
          for (const std::string& n : bound) {
            if (auto it = names_.find(n); !first_branch && it != names_.end() && it->second.value) continue;
            Binding b;
            b.error = fmt::format("'{}' is bound under the module-level `if` at line {}, whose condition tritium "
                                  "cannot evaluate: {}",
                                  n, s.loc.line, why);
            names_[n] = b;
          }
        }
      };
      walk(i.body, true);
      walk(i.orelse, false);
      return;
    }
    default:
      return;  // skipped host code
  }
}

// ---- GenState -------------------------------------------------------------------------------

GenState::GenState(const Module& m, const GenOptions& o, ir::Module& out_module)
    : module(m), opts(o), out(out_module), env(m) {
  scratch_.name = "<module constants>";
  env.set_host_values(o.host_globals);
}

GenState::~GenState() = default;

bool GenState::is_constexpr(const Expr* annotation) {
  if (!annotation) return false;
  if (is_constexpr_annotation(annotation)) return true;
  if (!annotation->is<NameExpr>() && !annotation->is<AttributeExpr>()) return false;
  try {
    CValue v = global_gen().eval(*annotation);
    return v.kind == CValue::Kind::Builtin && v.s == "constexpr";
  } catch (const CompileError&) {
    return false;  // an annotation naming something unknown is not constexpr
  }
}

FunctionGen& GenState::global_gen(const Module* m) {
  if (m && m != &module) {
    env_of(m);  // creates the entry
    OtherModule& o = *others_.at(m);
    if (!o.gen) {
      o.scratch.name = "<module constants>";
      o.gen = std::make_unique<FunctionGen>(*this, o.scratch, nullptr, false, m);
    }
    return *o.gen;
  }
  if (!global_gen_) global_gen_ = std::make_unique<FunctionGen>(*this, scratch_, nullptr, false);
  return *global_gen_;
}

ModuleEnv& GenState::env_of(const Module* m) {
  if (!m || m == &module) return env;
  auto& o = others_[m];
  if (!o) o = std::make_unique<OtherModule>(*m);
  return o->env;
}

}  // namespace tritium::frontend::cg
