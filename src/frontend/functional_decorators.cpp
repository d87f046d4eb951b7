// Decorators applied as calls at module level (`add_one = triton.jit(add_one)`,
// `k = triton.heuristics({...})(k)`, `k = triton.autotune(...)(triton.jit(k))`), the form
// several public kernel files use: the calls become the decorators of the def they wrap, in
// the order the decorator syntax would list them, and the assignment is dropped, so the
// function is a jit kernel exactly as if it had been decorated (see parser.h). Also the
// decorator names bound under another name (`from triton import jit as myjit`).
#include "frontend/functional_decorators.h"

#include <map>

#include "frontend/decorators.h"

namespace tritium::frontend {
namespace {

bool is_decorator_name(const std::string& n) { return n == "jit" || n == "autotune" || n == "heuristics"; }

// Peels one decorator call off `e`: `jit(F, kw...)` gives the decorator `jit(kw...)` (or
// `jit`), `autotune(...)(F)` / `heuristics(...)(F)` the inner call; returns the wrapped
// expression, or null when `e` is not such a call.
ExprPtr peel(ExprPtr& e, ExprList& decorators) {
  auto* c = e ? e->dyn<CallExpr>() : nullptr;
  if (!c || c->args.size() != 1 || c->args[0]->is<StarredExpr>()) return nullptr;
  if (auto* inner = c->func->dyn<CallExpr>()) {  // autotune(...)(F), heuristics(...)(F), jit(...)(F)
    if (!is_decorator_name(decorator_name(*inner->func)) || !c->keywords.empty()) return nullptr;
    ExprPtr wrapped = std::move(c->args[0]);
    decorators.push_back(std::move(c->func));
    return wrapped;
  }
  if (decorator_name(*c->func) != "jit") return nullptr;  // jit(F, do_not_specialize=...)
  ExprPtr wrapped = std::move(c->args[0]);
  c->args.clear();
  if (c->keywords.empty()) decorators.push_back(std::move(c->func));
  else decorators.push_back(std::move(e));  // the call itself, now without F: jit(kw...)
  return wrapped;
}

// True when `e` is a chain of decorator calls ending in a name (what peel() takes apart).
bool is_chain(const Expr& e) {
  if (e.is<NameExpr>()) return true;
  auto* c = e.dyn<CallExpr>();
  if (!c || c->args.size() != 1 || c->args[0]->is<StarredExpr>()) return false;
  if (auto* inner = c->func->dyn<CallExpr>())
    return is_decorator_name(decorator_name(*inner->func)) && c->keywords.empty() && is_chain(*c->args[0]);
  return decorator_name(*c->func) == "jit" && is_chain(*c->args[0]);
}

// True when `path` (an import path or dotted attribute path) names Triton's or tritium's
// jit / autotune / heuristics (Gluon's jit is a different language: not renamed).
bool names_triton_decorator(const std::string& path) {
  if (path.find("gluon") != std::string::npos) return false;
  if (path.rfind("triton.", 0) != 0 && path.rfind("tritium.", 0) != 0) return false;
  return is_decorator_name(path.substr(path.rfind('.') + 1));
}

// Renames, in place, a decorator expression or decorator-call chain spelled with an alias.
void rename_aliases(Expr& e, const std::map<std::string, std::string>& aliases) {
  if (auto* n = e.dyn<NameExpr>()) {
    if (auto it = aliases.find(n->id); it != aliases.end()) n->id = it->second;
  } else if (auto* c = e.dyn<CallExpr>()) {
    rename_aliases(*c->func, aliases);
    if (c->args.size() == 1 && c->args[0]->is<CallExpr>()) rename_aliases(*c->args[0], aliases);
  }
}

}  // namespace

void resolve_decorator_aliases(Module& m) {
  std::map<std::string, std::string> aliases;  // local name -> jit / autotune / heuristics
  for (const auto& stmt : m.body) {
    if (auto* im = stmt->dyn<ImportFromStmt>()) {
      for (const Alias& al : im->names) {
        if (al.asname.empty() || im->level != 0) continue;
        if (names_triton_decorator(im->module + "." + al.name)) aliases[al.asname] = al.name;
        else aliases.erase(al.asname);
      }
    } else if (auto* a = stmt->dyn<AssignStmt>()) {  // myjit = triton.jit
      if (a->targets.size() != 1 || !a->targets[0]->is<NameExpr>()) continue;
      const std::string& target = a->targets[0]->as<NameExpr>().id;
      const std::string path = a->value->is<AttributeExpr>() ? decorator_path(m, *a->value) : "";
      if (names_triton_decorator(path)) aliases[target] = path.substr(path.rfind('.') + 1);
      else aliases.erase(target);
    }
  }
  if (aliases.empty()) return;
  for (const FunctionDef* f : m.functions)
    for (auto& d : const_cast<FunctionDef*>(f)->decorators) rename_aliases(*d, aliases);
  for (auto& stmt : m.body)
    if (auto* a = stmt->dyn<AssignStmt>(); a && a->value->is<CallExpr>()) rename_aliases(*a->value, aliases);
}

void attach_functional_decorators(Module& m) {
  for (auto& stmt : m.body) {
    auto* a = stmt->dyn<AssignStmt>();
    if (!a || a->targets.size() != 1) continue;
    auto* target = a->targets[0]->dyn<NameExpr>();
    auto* call = a->value->dyn<CallExpr>();
    if (!target || !call || !is_decorator_name(decorator_name(*call))) continue;
    // Find the def it wraps before taking anything apart.
    const Expr* probe = a->value.get();
    while (auto* pc = probe->dyn<CallExpr>()) {
      if (pc->args.size() != 1) break;
      probe = pc->args[0].get();
    }
    auto* wrapped_name = probe->dyn<NameExpr>();
    if (!wrapped_name) continue;
    FunctionDef* def = nullptr;
    for (const FunctionDef* f : m.functions)
      if (f->name == wrapped_name->id && f->loc.offset < stmt->loc.offset) def = const_cast<FunctionDef*>(f);
    if (!def || !def->decorators.empty() || !is_chain(*a->value)) continue;
    ExprList decorators;
    ExprPtr cur = std::move(a->value);
    while (cur && !cur->is<NameExpr>()) {
      ExprPtr next = peel(cur, decorators);
      if (!next) break;
      cur = std::move(next);
    }
    def->decorators = std::move(decorators);
    if (target->id != wrapped_name->id) {  // `k = triton.jit(body)`: the kernel is `body`, `k` names it too
      a->value = std::move(cur);
      continue;
    }
    auto skipped = std::make_unique<SkippedStmt>(stmt->loc);
    skipped->reason = "decorator call applied to '" + target->id + "'";
    skipped->end_offset = stmt->end_offset;
    stmt = std::move(skipped);
  }
}

}  // namespace tritium::frontend
