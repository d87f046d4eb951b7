// The registry of tritium's Triton-language standard library (stdlib.h): parses every
// embedded src/frontend/stdlib/*.py once, reads its `__all__`, and answers the namespace
// lookups of builtins_names.cpp with jit-function values that point into those modules.
// Shapes, dtypes and semantics of the functions are documented in each .py file.
#include "frontend/stdlib/stdlib.h"

#include <fmt/format.h>

#include <mutex>
#include <stdexcept>

#include "frontend/parser.h"

namespace tritium::frontend::stdlib {

namespace {

// `__all__ = [...]` / `(...)` of string literals at module level; empty when absent.
std::vector<std::string> read_all(const Module& m, const std::string& file) {
  std::vector<std::string> names;
  for (const auto& s : m.body) {
    const auto* a = s->dyn<AssignStmt>();
    if (!a || a->targets.size() != 1) continue;
    const auto* n = a->targets[0]->dyn<NameExpr>();
    if (!n || n->id != "__all__") continue;
    const ExprList* elts = nullptr;
    if (auto* t = a->value->dyn<TupleExpr>()) elts = &t->elts;
    if (auto* l = a->value->dyn<ListExpr>()) elts = &l->elts;
    if (!elts) throw std::logic_error("tritium stdlib " + file + ": __all__ must be a list of strings");
    names.clear();
    for (const auto& e : *elts) {
      const auto* str = e->dyn<StrExpr>();
      if (!str || str->is_fstring) throw std::logic_error("tritium stdlib " + file + ": __all__ must be a list of strings");
      names.push_back(str->value);
    }
  }
  return names;
}

std::vector<StdModule> parse_all() {
  std::vector<StdModule> mods;
  for (const auto& e : embedded_sources()) {
    std::string file = e.file;
    if (file.size() < 4 || file.substr(file.size() - 3) != ".py") continue;
    StdModule sm;
    sm.name = file.substr(0, file.size() - 3);
    sm.ns = "triton.language." + sm.name;
    try {
      sm.module = parse_module(Source::from_string(e.text, "<tritium-stdlib>/" + file));
    } catch (const CompileError& err) {
      throw std::logic_error(std::string("tritium stdlib does not parse: ") + err.what());
    }
    for (const FunctionDef* f : sm.module.functions)
      if (f->parse_error)
        throw std::logic_error("tritium stdlib does not parse: " +
                               format_diagnostic(f->parse_error->loc, f->parse_error->message));
    sm.exports = read_all(sm.module, file);
    for (const auto& name : sm.exports)
      if (!sm.module.find_function(name))
        throw std::logic_error(fmt::format("tritium stdlib {}: __all__ names '{}', which it does not define", file, name));
    mods.push_back(std::move(sm));
  }
  return mods;
}

CValue jit_value(const StdModule& m, const FunctionDef* f) {
  CValue v;
  v.kind = CValue::Kind::JitFn;
  v.fn = f;
  v.fn_module = &m.module;
  return v;
}

}  // namespace

const std::vector<StdModule>& modules() {
  static std::once_flag once;
  static std::vector<StdModule>* mods = nullptr;  // never destroyed: diagnostics may outlive main's statics
  std::call_once(once, [] { mods = new std::vector<StdModule>(parse_all()); });
  return *mods;
}

std::optional<CValue> lookup(const std::string& ns, const std::string& attr) {
  if (ns.rfind("triton.language", 0) != 0) return std::nullopt;  // cheap exit for libdevice etc.
  for (const StdModule& m : modules()) {
    if (ns == "triton.language") {
      if (attr == m.name && m.name[0] != '_') return CValue::ns(m.ns);  // _inductor.py: not a tl name
      for (const auto& e : m.exports)
        if (e == attr) return jit_value(m, m.module.find_function(attr));
    } else if (ns == m.ns) {
      if (attr.empty() || attr[0] == '_') return std::nullopt;
      if (const FunctionDef* f = m.module.find_function(attr)) return jit_value(m, f);
      return std::nullopt;
    }
  }
  return std::nullopt;
}

bool is_stdlib_module(const Module* m) {
  for (const StdModule& sm : modules())
    if (&sm.module == m) return true;
  return false;
}

bool is_stdlib_source(const Source* src) {
  if (!src) return false;
  for (const StdModule& sm : modules())
    if (sm.module.source.get() == src) return true;
  return false;
}

}  // namespace tritium::frontend::stdlib
