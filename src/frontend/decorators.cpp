// Evaluation of the decorators above a jit kernel (see decorators.h).
#include "frontend/decorators.h"

#include <algorithm>

#include <new>

#include <fmt/format.h>

namespace tritium::frontend {
namespace {

[[noreturn]] void fail(SrcLoc loc, const std::string& msg) { throw CompileError(loc, msg); }


struct Args {
  std::vector<std::pair<const Expr*, PyValue>> positional;
  std::vector<std::tuple<std::string, const Expr*, PyValue>> keywords;
};

Args evaluate_args(PyEvaluator& ev, const CallExpr& c) {
  Args a;
  // Options that run host code are refused before their (host) values are evaluated.
  for (const Keyword& k : c.keywords)
    if ((k.name == "prune_configs_by" || k.name == "pre_hook" || k.name == "post_hook" || k.name == "do_bench") &&
        !k.value->is<NoneExpr>())
      fail(k.value->loc, fmt::format("triton.autotune({}=...) is not supported: it runs host Python code, which "
                                     "tritium does not execute",
                                     k.name));
  for (const auto& x : c.args) {
    if (x->is<StarredExpr>()) fail(x->loc, "*args cannot be evaluated in a decorator call");
    a.positional.emplace_back(x.get(), ev.eval(*x));
  }
  for (const Keyword& k : c.keywords) {
    if (k.name.empty()) {  // **mapping
      PyValue d = ev.eval(*k.value);
      if (d.kind != PyValue::Kind::Dict) fail(k.loc, "'**' in a decorator call needs a dict, got " + d.repr());
      for (size_t i = 0; i < d.keys.size(); ++i) {
        if (d.keys[i].kind != PyValue::Kind::Str) fail(k.loc, "keywords must be strings");
        a.keywords.emplace_back(d.keys[i].s, k.value.get(), d.items[i]);
      }
      continue;
    }
    a.keywords.emplace_back(k.name, k.value.get(), ev.eval(*k.value));
  }
  return a;
}

const Param* find_param(const FunctionDef& fn, const std::string& name) {
  for (const Param& p : fn.params)
    if (p.name == name) return &p;
  return nullptr;
}

std::string param_list(const FunctionDef& fn) {
  std::string s;
  for (const Param& p : fn.params) s += (s.empty() ? "" : ", ") + p.name;
  return s;
}

// A list of parameter names (strings, or indices for do_not_specialize) → names.
std::vector<std::string> name_list(const FunctionDef& fn, const PyValue& v, const Expr& at, const std::string& what,
                                   bool allow_index) {
  if (v.kind == PyValue::Kind::None) return {};
  if (v.kind != PyValue::Kind::List && v.kind != PyValue::Kind::Tuple)
    fail(at.loc, fmt::format("{} must be a list of parameter names, got {}", what, v.repr()));
  std::vector<std::string> out;
  for (const PyValue& x : v.items) {
    std::string name;
    if (x.kind == PyValue::Kind::Str) {
      name = x.s;
    } else if (allow_index && x.kind == PyValue::Kind::Int) {
      if (x.i < 0 || x.i >= static_cast<int64_t>(fn.params.size()))
        fail(at.loc, fmt::format("{}: parameter index {} out of range (the kernel has {} parameters)", what, x.i,
                                 fn.params.size()));
      name = fn.params[static_cast<size_t>(x.i)].name;
    } else {
      fail(at.loc, fmt::format("{} must list parameter names{}, got {}", what, allow_index ? " or indices" : "", x.repr()));
    }
    if (!find_param(fn, name))
      fail(at.loc, fmt::format("{} names '{}', which is not a parameter of '{}' ({})", what, name, fn.name, param_list(fn)));
    out.push_back(name);
  }
  return out;
}

AutotuneDecl autotune(PyEvaluator& ev, const FunctionDef& fn, const CallExpr& c) {
  AutotuneDecl d;
  d.loc = c.loc;
  Args a = evaluate_args(ev, c);
  static const char* kPositional[] = {"configs", "key", "prune_configs_by", "reset_to_zero", "restore_value",
                                      "pre_hook", "post_hook", "warmup", "rep", "use_cuda_graph", "do_bench",
                                      "cache_results"};
  std::vector<std::tuple<std::string, const Expr*, PyValue>> all;
  if (a.positional.size() > std::size(kPositional)) fail(c.loc, "triton.autotune() takes at most 12 arguments");
  for (size_t i = 0; i < a.positional.size(); ++i)
    all.emplace_back(kPositional[i], a.positional[i].first, a.positional[i].second);
  for (auto& k : a.keywords) all.push_back(k);
  bool have_configs = false, have_key = false;
  for (const auto& [name, expr, v] : all) {
    const bool none = v.kind == PyValue::Kind::None;
    if (name == "configs") {
      have_configs = true;
      if (v.kind != PyValue::Kind::List && v.kind != PyValue::Kind::Tuple)
        fail(expr->loc, fmt::format("autotune configs must be a list of triton.Config, got {}", v.repr()));
      for (const PyValue& x : v.items) {
        if (x.kind != PyValue::Kind::Config)
          fail(expr->loc, fmt::format("autotune configs must be triton.Config objects, got {}", x.repr()));
        for (const auto& [k, kv] : x.config->kwargs)
          if (!find_param(fn, k))
            fail(expr->loc, fmt::format("autotune config {} sets '{}', which is not a parameter of '{}' ({})", x.repr(), k,
                                        fn.name, param_list(fn)));
        d.configs.push_back(*x.config);
      }
    } else if (name == "key") {
      have_key = true;
      d.key = name_list(fn, v, *expr, "autotune key", false);
    } else if (name == "reset_to_zero") {
      d.reset_to_zero = name_list(fn, v, *expr, "autotune reset_to_zero", false);
    } else if (name == "restore_value") {
      d.restore_value = name_list(fn, v, *expr, "autotune restore_value", false);
    } else if (name == "warmup" || name == "rep") {
      if (none) continue;
      if (v.kind != PyValue::Kind::Int && v.kind != PyValue::Kind::Float)
        fail(expr->loc, fmt::format("autotune {} must be a number of milliseconds, got {}", name, v.repr()));
      (name == "warmup" ? d.warmup_ms : d.rep_ms) = v.kind == PyValue::Kind::Int ? static_cast<double>(v.i) : v.f;
    } else if (name == "use_cuda_graph" || name == "cache_results") {
      continue;  // how upstream times / caches; tritium times each config with its own clock
    } else if (name == "prune_configs_by" || name == "pre_hook" || name == "post_hook" || name == "do_bench") {
      if (!none)
        fail(expr->loc, fmt::format("triton.autotune({}=...) is not supported: it runs host Python code, which "
                                    "tritium does not execute",
                                    name));
    } else {
      fail(expr->loc, fmt::format("triton.autotune() got an unexpected keyword argument '{}'", name));
    }
  }
  if (!have_configs) fail(c.loc, "triton.autotune() needs configs=[triton.Config(...), ...]");
  if (!have_key) fail(c.loc, "triton.autotune() needs key=[...] (the argument names that select a tuning result)");
  if (d.configs.empty()) d.configs.emplace_back();  // upstream: one default config
  return d;
}

HeuristicsDecl heuristics(PyEvaluator& ev, const FunctionDef& fn, const CallExpr& c) {
  HeuristicsDecl d;
  d.loc = c.loc;
  Args a = evaluate_args(ev, c);
  const PyValue* values = nullptr;
  const Expr* at = nullptr;
  if (a.positional.size() == 1 && a.keywords.empty()) values = &a.positional[0].second, at = a.positional[0].first;
  else if (a.positional.empty() && a.keywords.size() == 1 && std::get<0>(a.keywords[0]) == "values")
    values = &std::get<2>(a.keywords[0]), at = std::get<1>(a.keywords[0]);
  else fail(c.loc, "triton.heuristics() takes one argument: a dict of meta-parameter name -> function of args");
  if (values->kind != PyValue::Kind::Dict)
    fail(at->loc, fmt::format("triton.heuristics() needs a dict of name -> function, got {}", values->repr()));
  for (size_t i = 0; i < values->keys.size(); ++i) {
    const PyValue& k = values->keys[i];
    const PyValue& f = values->items[i];
    if (k.kind != PyValue::Kind::Str) fail(at->loc, fmt::format("heuristics names must be strings, got {}", k.repr()));
    if (!find_param(fn, k.s))
      fail(at->loc, fmt::format("heuristics set '{}', which is not a parameter of '{}' ({})", k.s, fn.name, param_list(fn)));
    if (f.kind != PyValue::Kind::Lambda && f.kind != PyValue::Kind::Function && f.kind != PyValue::Kind::Builtin)
      fail(at->loc, fmt::format("heuristic for '{}' must be a function of args, got {}", k.s, f.repr()));
    d.values.emplace_back(k.s, f);
  }
  return d;
}

void jit_options(PyEvaluator& ev, const FunctionDef& fn, const CallExpr& c, KernelDecls& out) {
  Args a = evaluate_args(ev, c);
  if (!a.positional.empty()) fail(c.loc, "triton.jit(...) takes keyword arguments only here");
  for (const auto& [name, expr, v] : a.keywords) {
    if (name == "do_not_specialize") out.do_not_specialize = name_list(fn, v, *expr, "do_not_specialize", true);
    else if (name == "do_not_specialize_on_alignment")
      out.do_not_specialize_on_alignment = name_list(fn, v, *expr, "do_not_specialize_on_alignment", true);
    else if (name == "noinline" || name == "repr" || name == "launch_metadata" || name == "version") continue;
    else if (name == "debug") {
      if (v.kind != PyValue::Kind::None && v.truthy())  // debug=False / None: the default
        fail(expr->loc, "triton.jit(debug=...) is not supported per kernel; compile with debug mode instead "
                        "(CompileOptions::debug, tritium compile --debug)");
    } else {
      fail(expr->loc, fmt::format("triton.jit() got an unexpected keyword argument '{}'", name));
    }
  }
}

}  // namespace

std::string decorator_name(const Expr& e) {
  if (auto* n = e.dyn<NameExpr>()) return n->id;
  if (auto* a = e.dyn<AttributeExpr>()) return a->attr;
  if (auto* c = e.dyn<CallExpr>()) return decorator_name(*c->func);
  return "";
}

std::string decorator_path(const Module& m, const Expr& e) {
  if (auto* c = e.dyn<CallExpr>()) return decorator_path(m, *c->func);
  if (auto* a = e.dyn<AttributeExpr>()) {
    std::string base = decorator_path(m, *a->value);
    return base.empty() ? "" : base + "." + a->attr;
  }
  auto* n = e.dyn<NameExpr>();
  if (!n) return "";
  std::string path;
  for (const auto& s : m.body) {
    if (auto* im = s->dyn<ImportStmt>()) {
      for (const Alias& al : im->names)
        if (al.import_bound() == n->id) path = al.asname.empty() ? al.import_bound() : al.name;
    } else if (auto* im = s->dyn<ImportFromStmt>()) {
      for (const Alias& al : im->names)
        if (al.from_bound() == n->id) path = im->module + "." + al.name;
    }
  }
  return path;
}

KernelDecls evaluate_decorators_unguarded(const Module& module, const FunctionDef& fn);

// Host code that exhausts memory before a size bound catches it is refused at the kernel's
// decorators, located, instead of escaping as std::bad_alloc ("internal error").
KernelDecls evaluate_decorators(const Module& module, const FunctionDef& fn) {
  try {
    return evaluate_decorators_unguarded(module, fn);
  } catch (const std::bad_alloc&) {
    fail(fn.decorators.empty() ? fn.loc : fn.decorators.front()->loc,
         "out of memory evaluating the decorators' host code at compile time");
  }
}

KernelDecls evaluate_decorators_unguarded(const Module& module, const FunctionDef& fn) {
  KernelDecls out;
  PyEvaluator ev(module, fn.loc.offset);
  bool seen_jit = false;
  for (const auto& d : fn.decorators) {
    const std::string name = decorator_name(*d);
    const auto* call = d->dyn<CallExpr>();
    if (name == "jit") {
      if (seen_jit) fail(d->loc, "@triton.jit is applied twice");
      seen_jit = true;
      if (call) jit_options(ev, fn, *call, out);
      continue;
    }
    if (seen_jit)
      fail(d->loc, fmt::format("decorator '@{}' is below @triton.jit: it would wrap the plain Python function, "
                               "which tritium does not run",
                               name));
    if (decorator_path(module, *d).rfind("torch._inductor.runtime.triton_heuristics.", 0) == 0) continue;
    if (name == "autotune" || name == "heuristics") {
      if (!call) fail(d->loc, fmt::format("@triton.{} needs its arguments", name));
      DecoratorLayer layer;
      if (name == "autotune" && std::any_of(out.layers.begin(), out.layers.end(), [](const DecoratorLayer& l) {
            return l.autotune.has_value();
          }))
        fail(d->loc, "only one @triton.autotune per kernel is supported");
      if (name == "autotune") layer.autotune = autotune(ev, fn, *call);
      else layer.heuristics = heuristics(ev, fn, *call);
      out.layers.push_back(std::move(layer));
      continue;
    }
    fail(d->loc, fmt::format("decorator '@{}' above a jit kernel is not supported (only @triton.autotune, "
                             "@triton.heuristics and @triton.jit)",
                             name.empty() ? "?" : name));
  }
  return out;
}

PyValue call_heuristic(const Module& module, const FunctionDef& fn_def, const PyValue& fn, const PyValue& args) {
  PyEvaluator ev(module, fn_def.loc.offset);
  SrcLoc at = fn.kind == PyValue::Kind::Lambda ? fn.lambda_expr->loc : fn.kind == PyValue::Kind::Function ? fn.fn->loc : fn_def.loc;
  try {
    return ev.call(fn, {args}, at);
  } catch (const std::bad_alloc&) {
    fail(at, "out of memory evaluating a heuristic's host code at compile time");
  }
}

}  // namespace tritium::frontend
