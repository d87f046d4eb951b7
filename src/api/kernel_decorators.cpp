// Kernel::decorators() and Kernel::resolve_meta(): the decorators above a jit kernel as the
// public API sees them, and their meta-parameter resolution for the AOT path.
#include <fmt/format.h>

#include "api/api_internal.h"

namespace tritium {
namespace detail {

std::shared_ptr<const frontend::KernelDecls> kernel_decls(ModuleState& module, const std::string& kernel) {
  frontend::PinScope pin_(&module.pins);
  {
    std::lock_guard<std::mutex> lock(module.mu);
    if (auto it = module.decls.find(kernel); it != module.decls.end()) return it->second;
  }
  const frontend::FunctionDef* fn = module.ast.find_function(kernel);
  if (!fn) throw Error(ErrorKind::NotFound, fmt::format("no jit kernel named '{}'", kernel));
  std::shared_ptr<const frontend::KernelDecls> d;
  try {
    d = std::make_shared<const frontend::KernelDecls>(frontend::evaluate_decorators(module.ast, *fn));
  } catch (...) {
    rethrow_as_error(ErrorKind::Compile, fmt::format("evaluating the decorators of '{}'", kernel));
  }
  std::lock_guard<std::mutex> lock(module.mu);
  return module.decls.emplace(kernel, d).first->second;
}

ConstexprValue to_constexpr(const frontend::PyValue& v, frontend::SrcLoc loc, const std::string& what) {
  using K = frontend::PyValue::Kind;
  switch (v.kind) {
    case K::Int: return v.i;
    case K::Bool: return v.b;
    case K::Float: return v.f;
    case K::Str: return v.s;
    default: break;
  }
  throw to_api_error(frontend::CompileError(
      loc, fmt::format("{} is {}; a meta-parameter must be an int, float, bool or str", what, v.repr())));
}

frontend::PyValue to_py(const ConstexprValue& v) {
  if (auto* i = std::get_if<int64_t>(&v)) return frontend::PyValue::of_int(*i);
  if (auto* d = std::get_if<double>(&v)) return frontend::PyValue::of_float(*d);
  if (auto* b = std::get_if<bool>(&v)) return frontend::PyValue::of_bool(*b);
  if (auto* d = std::get_if<DType>(&v)) return frontend::PyValue::named(frontend::PyValue::Kind::Str, d->name);
  return frontend::PyValue::of_str(std::get<std::string>(v));
}

void apply_heuristics(const ModuleState& module, const frontend::FunctionDef& fn, const frontend::HeuristicsDecl& decl,
                      frontend::PyValue& args, Meta& meta, bool aot) {
  for (const auto& [name, f] : decl.values) {
    frontend::PyValue r;
    try {
      r = frontend::call_heuristic(module.ast, fn, f, args);
    } catch (const frontend::CompileError& e) {
      std::string hint = aot ? " (give the values heuristics read with tritium compile --arg NAME=VALUE)" : "";
      throw to_api_error(frontend::CompileError(e.loc(), fmt::format("heuristic for '{}': {}{}", name, e.message(), hint)));
    }
    ConstexprValue c = to_constexpr(r, decl.loc, fmt::format("the heuristic for '{}' gave {}", name, r.repr()));
    meta[name] = c;
    args.set(frontend::PyValue::of_str(name), to_py(c));
  }
}

}  // namespace detail

std::string AutotuneConfig::str() const {
  std::string s;
  for (const auto& [k, v] : kwargs) {
    std::string t = detail::constexpr_text(v);
    s += fmt::format("{}: {}, ", k, t);
  }
  return s + fmt::format("num_warps: {}, num_stages: {}", num_warps, num_stages);
}

KernelDecorators Kernel::decorators() const {
  auto d = detail::kernel_decls(*module_, name_);
  KernelDecorators out;
  out.do_not_specialize = d->do_not_specialize;
  out.do_not_specialize_on_alignment = d->do_not_specialize_on_alignment;
  for (const frontend::DecoratorLayer& l : d->layers) {
    if (l.autotune) {
      for (const frontend::PyConfig& c : l.autotune->configs) {
        AutotuneConfig a;
        for (const auto& [k, v] : c.kwargs)
          a.kwargs.emplace_back(k, detail::to_constexpr(v, c.loc, fmt::format("config value '{}'", k)));
        a.num_warps = static_cast<int>(c.num_warps);
        a.num_stages = static_cast<int>(c.num_stages);
        out.configs.push_back(std::move(a));
      }
      out.autotune_key = l.autotune->key;
      out.reset_to_zero = l.autotune->reset_to_zero;
      out.restore_value = l.autotune->restore_value;
    }
    if (l.heuristics)
      for (const auto& [k, v] : l.heuristics->values) out.heuristics.push_back(k);
  }
  return out;
}

Meta Kernel::resolve_meta(const std::string& signature, int config, const Meta& given_constexprs, const Meta& known_in,
                          CompileOptions* options) const {
  auto d = detail::kernel_decls(*module_, name_);
  const frontend::FunctionDef& fn = *module_->ast.find_function(name_);
  const KernelDecorators pub = decorators();
  // The signature's positional constexpr values count as given; its ":1" ints as known.
  Meta constexprs = given_constexprs, known = known_in, positional;
  std::vector<frontend::ArgSpec> entries;
  try {
    entries = frontend::parse_signature(signature);
  } catch (const std::invalid_argument& e) {
    throw Error(ErrorKind::Signature, fmt::format("kernel '{}': bad signature \"{}\": {}", name_, signature, e.what()));
  }
  if (entries.size() > params_.size())
    throw Error(ErrorKind::Signature, fmt::format("kernel '{}': the signature has {} entries but the kernel has {} "
                                                  "parameter{}",
                                                  name_, entries.size(), params_.size(), params_.size() == 1 ? "" : "s"));
  std::vector<std::pair<std::string, std::string>> pointers;  // name, element dtype (heuristics see tensors)
  for (size_t i = 0; i < entries.size() && i < params_.size(); ++i) {
    if (entries[i].kind == frontend::ArgSpec::Kind::Pointer)
      pointers.emplace_back(params_[i].name, std::string(ir::short_name(entries[i].dtype)));
    if (entries[i].kind == frontend::ArgSpec::Kind::Constexpr) {
      ConstexprValue v = detail::from_frontend(entries[i].value);
      positional[params_[i].name] = v;
      constexprs[params_[i].name] = v;
    } else if (entries[i].equal_to_1 && !known.count(params_[i].name)) {
      known[params_[i].name] = int64_t{1};
    }
  }
  Meta meta = constexprs;
  // upstream's `args` dict: the arguments by name and the meta-parameters so far
  frontend::PyValue args;
  args.kind = frontend::PyValue::Kind::Dict;
  auto put = [&](const std::string& k, const ConstexprValue& v) { args.set(frontend::PyValue::of_str(k), detail::to_py(v)); };
  for (const auto& [k, v] : known) put(k, v);
  for (const auto& [k, dt] : pointers)  // a value given with --arg for the same name stays first
    if (!args.get(frontend::PyValue::of_str(k)))
      args.set(frontend::PyValue::of_str(k), frontend::PyValue::named(frontend::PyValue::Kind::Tensor, dt));
  for (const auto& [k, v] : meta) put(k, v);
  if (config >= 0 && pub.configs.empty())
    throw Error(ErrorKind::Usage, fmt::format("kernel '{}' has no @triton.autotune configs to choose from", name_));
  if (config >= static_cast<int>(pub.configs.size()) && !pub.configs.empty())
    throw Error(ErrorKind::Usage, fmt::format("kernel '{}' has {} autotune configs (0 to {}); config {} does not exist",
                                              name_, pub.configs.size(), pub.configs.size() - 1, config));
  int warps = options ? options->num_warps : 4, stages = options ? options->num_stages : 3;
  for (const frontend::DecoratorLayer& l : d->layers) {
    if (l.autotune) {
      int pick = config;
      if (pick < 0 && pub.configs.size() == 1) pick = 0;
      if (pick < 0) {
        std::string missing;
        for (const AutotuneConfig& c : pub.configs)
          for (const auto& [k, v] : c.kwargs)
            if (!meta.count(k) && missing.find("'" + k + "'") == std::string::npos)
              missing += (missing.empty() ? "'" : ", '") + k + "'";
        if (!missing.empty())
          throw Error(ErrorKind::Usage,
                      fmt::format("kernel '{}' is autotuned over {} configs that set {}: choose one by index (tritium "
                                  "compile --config N; --list-configs shows them) or give the values",
                                  name_, pub.configs.size(), missing));
        continue;
      }
      for (const auto& [k, v] : pub.configs[static_cast<size_t>(pick)].kwargs) {
        if (constexprs.count(k))
          throw Error(ErrorKind::Usage, fmt::format("Conflicting meta-parameters: {}. Make sure that you don't re-define "
                                                    "auto-tuned symbols (autotune config {} of '{}' sets it)",
                                                    k, pick, name_));
        meta[k] = v;
        put(k, v);
      }
      warps = pub.configs[static_cast<size_t>(pick)].num_warps;
      stages = pub.configs[static_cast<size_t>(pick)].num_stages;
      put("num_warps", int64_t{warps});
      put("num_stages", int64_t{stages});
    }
    if (l.heuristics) {
      // AOT: a value given explicitly is taken as the heuristic's result.
      frontend::HeuristicsDecl todo;
      todo.loc = l.heuristics->loc;
      for (const auto& hv : l.heuristics->values)
        if (!constexprs.count(hv.first)) todo.values.push_back(hv);
      detail::apply_heuristics(*module_, fn, todo, args, meta, true);
    }
  }
  if (options) options->num_warps = warps, options->num_stages = stages;
  for (const auto& [k, v] : positional) meta.erase(k);
  return meta;
}

}  // namespace tritium
