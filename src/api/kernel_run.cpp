// Kernel::run(): Triton's `kernel[grid](*args, **meta)` — decorators outermost first
// (autotune timing, heuristics), then JIT specialization on the argument values, compile
// (cached) and launch. Upstream's behaviour is python/triton/runtime/autotuner.py and
// jit.py (Triton 3.6); see the contract in include/tritium/tritium.h.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "api/api_internal.h"
#include "runtime/device.h"

namespace tritium {
namespace {

using frontend::PyValue;

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

struct Runner {
  const Kernel& kernel;
  detail::ModuleState& module;
  const frontend::FunctionDef& fn;
  const frontend::KernelDecls& decls;
  const Device& device;
  const GridFn& grid;
  const std::vector<Arg>& args;
  std::vector<const Parameter*> runtime;  // non-constexpr parameters, in order

  struct Plan {
    CompiledKernel kernel;
    Meta meta;
    Grid grid;
    CompileOptions options;
  };

  const Arg* arg_named(const std::string& name) const {
    for (size_t i = 0; i < runtime.size(); ++i)
      if (runtime[i]->name == name) return &args[i];
    return nullptr;
  }

  // upstream's `args` dict for heuristics: arguments by name, then the meta-parameters.
  PyValue args_dict(const Meta& meta) const {
    PyValue d;
    d.kind = PyValue::Kind::Dict;
    for (size_t i = 0; i < runtime.size(); ++i) {
      const Arg& a = args[i];
      PyValue v;
      if (a.kind() == Arg::Kind::None) v = PyValue::none();
      else if (a.kind() == Arg::Kind::Pointer || a.descriptor()) v.kind = PyValue::Kind::Tensor, v.s = a.dtype();
      else if (a.kind() == Arg::Kind::Float) v = PyValue::of_float(a.float_value());
      else if (a.is_big_unsigned()) v = PyValue::of_float(static_cast<double>(a.uint_value()));
      else v = PyValue::of_int(a.int_value());
      d.set(PyValue::of_str(runtime[i]->name), v);
    }
    for (const auto& [k, v] : meta) d.set(PyValue::of_str(k), detail::to_py(v));  // constexprs: distinct names
    return d;
  }

  // The JIT signature of the arguments and the constexprs (Triton's specialization).
  std::string signature(Meta& named) const {
    size_t last_runtime = 0;
    const auto& params = kernel.parameters();
    for (size_t i = 0; i < params.size(); ++i)
      if (!params[i].is_constexpr) last_runtime = i + 1;
    std::string sig;
    size_t r = 0;
    for (size_t i = 0; i < last_runtime; ++i) {
      const Parameter& p = params[i];
      std::string e;
      if (p.is_constexpr) {
        auto it = named.find(p.name);
        if (it != named.end()) {
          e = detail::constexpr_text(it->second);
          named.erase(it);
        } else if (p.has_default) {
          e = p.default_text;
        } else {
          throw Error(ErrorKind::Argument, fmt::format("kernel '{}': constexpr parameter '{}' has no value (give it in "
                                                       "meta, or it must come from an autotune config or heuristic)",
                                                       kernel.name(), p.name));
        }
      } else {
        const Arg& a = args[r++];
        const bool dns = contains(decls.do_not_specialize, p.name);
        if (a.kind() == Arg::Kind::None) {
          sig += (sig.empty() ? "" : ", ") + std::string("None");
          continue;
        }
        const bool align = !dns && !contains(decls.do_not_specialize_on_alignment, p.name);
        if (!p.annotation_type.empty()) {  // the annotation's type, as upstream
          e = annotated_entry(p, a, align);
        } else if (const TensorDescriptorArg* d = a.descriptor()) {
          frontend::ArgSpec spec;
          spec.kind = frontend::ArgSpec::Kind::TensorDesc;
          spec.dtype = *ir::parse_scalar_type(a.dtype());
          spec.block_shape = d->block_shape;
          spec.padding_nan = d->padding_nan;
          e = spec.str();
        } else if (a.kind() == Arg::Kind::Pointer) {
          if (a.dtype().empty())
            throw Error(ErrorKind::Argument,
                        fmt::format("kernel '{}': argument '{}' is a buffer without a dtype; Kernel::run specializes on "
                                    "the element type, pass Arg::tensor(buffer, \"fp32\")",
                                    kernel.name(), p.name));
          e = "*" + a.dtype();
          if (align && reinterpret_cast<uintptr_t>(a.pointer()) % 16 == 0) e += ":16";
        } else if (a.kind() == Arg::Kind::Float) {
          e = "fp32";
        } else if (a.is_bool()) {
          e = "i1";
        } else if (a.is_big_unsigned()) {
          e = "u64";
          if (align && a.uint_value() % 16 == 0) e += ":16";
        } else {
          const int64_t v = a.int_value();
          e = v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max() ? "i32" : "i64";
          if (!dns && v == 1) e += ":1";
          else if (align && v % 16 == 0) e += ":16";
        }
      }
      sig += (sig.empty() ? "" : ", ") + e;
    }
    return sig;
  }

  // The signature entry of an argument whose parameter's annotation forces its type
  // (Parameter::annotation_type; upstream runtime/jit.py create_function_from_signature):
  // pointers keep their alignment specialization, integers their divisibility by 16 but
  // not "equal to 1" (an annotated int stays a run-time value of that type), floats and
  // bools are not specialized.
  std::string annotated_entry(const Parameter& p, const Arg& a, bool align) const {
    const std::string& t = p.annotation_type;
    auto refuse = [&](const std::string& why) {
      throw Error(ErrorKind::Argument, fmt::format("kernel '{}': argument '{}' is annotated '{}' but {}", kernel.name(),
                                                   p.name, t, why));
    };
    if (t[0] == '*') {
      if (a.kind() != Arg::Kind::Pointer || a.descriptor()) refuse("got " + a.describe());
      return t + (align && reinterpret_cast<uintptr_t>(a.pointer()) % 16 == 0 ? ":16" : "");
    }
    if (a.kind() == Arg::Kind::Pointer || a.descriptor()) refuse("got " + a.describe());
    const auto st = ir::parse_scalar_type(t);
    if (!st) refuse("tritium does not know that type");
    if (ir::is_float(*st) || *st == ir::ScalarType::I1) return t;
    if (a.kind() != Arg::Kind::Int) refuse("got " + a.describe() + " (an integer parameter takes an integer)");
    const bool div16 = a.is_big_unsigned() ? a.uint_value() % 16 == 0 : a.int_value() % 16 == 0;
    return t + (align && div16 ? ":16" : "");
  }

  // The arguments the compiled kernel takes: None arguments are specialized away.
  std::vector<Arg> passed() const { return launch_arguments(args); }

  Meta grid_meta(const Meta& meta, const CompileOptions& o) const {
    Meta m = meta;
    m["num_warps"] = int64_t{o.num_warps};
    m["num_stages"] = int64_t{o.num_stages};
    for (size_t i = 0; i < runtime.size(); ++i) {
      const Arg& a = args[i];
      if (a.is_bool()) m[runtime[i]->name] = a.int_value() != 0;  // a Python bool stays a bool
      else if (a.kind() == Arg::Kind::Int && !a.is_big_unsigned()) m[runtime[i]->name] = a.int_value();
      else if (a.kind() == Arg::Kind::Float) m[runtime[i]->name] = a.float_value();
    }
    return m;
  }

  Plan finish(Meta meta, const CompileOptions& o) const {
    Meta named = meta;
    const std::string sig = signature(named);
    std::string key = fmt::format("{}|{}|{}|{}|", kernel.name(), sig, detail::options_key(o),
                                  static_cast<const void*>(device.impl().get()));
    // Length-prefixed: a string constexpr holding "," or "=" cannot make two sets collide.
    for (const auto& [k, v] : named) {
      const std::string text = detail::constexpr_text(v);
      key += fmt::format("{}:{}={}:{},", k.size(), k, text.size(), text);
    }
    std::optional<CompiledKernel> ck;
    if (o.dump_after.empty()) {
      std::lock_guard<std::mutex> lock(module.mu);
      if (auto it = module.jit_cache.find(key); it != module.jit_cache.end()) ck = it->second;
    }
    if (!ck) {
      ck = kernel.compile(device, sig, o, named);
      if (o.dump_after.empty()) {
        std::lock_guard<std::mutex> lock(module.mu);
        module.jit_cache.emplace(key, *ck);
      }
    }
    Grid g = grid(grid_meta(meta, o));
    return Plan{*ck, meta, g, o};
  }

  // Zeroes or snapshots the named pointer arguments.
  std::vector<std::vector<char>> snapshot(const std::vector<std::string>& names) const {
    std::vector<std::vector<char>> out;
    for (const std::string& n : names) {
      const Arg* a = arg_named(n);
      if (!a || a->kind() != Arg::Kind::Pointer)
        throw Error(ErrorKind::Argument,
                    fmt::format("kernel '{}': autotune restore_value '{}' must name a pointer argument", kernel.name(), n));
      std::vector<char> bytes(a->pointer_extent());
      runtime::DeviceBuffer b{a->pointer(), a->pointer_extent()};
      const_cast<runtime::Device*>(a->pointer_device())->copy_out(bytes.data(), b, bytes.size());
      out.push_back(std::move(bytes));
    }
    return out;
  }
  void restore(const std::vector<std::string>& names, const std::vector<std::vector<char>>& saved) const {
    for (size_t i = 0; i < names.size(); ++i) {
      const Arg* a = arg_named(names[i]);
      runtime::DeviceBuffer b{a->pointer(), a->pointer_extent()};
      const_cast<runtime::Device*>(a->pointer_device())->copy_in(b, saved[i].data(), saved[i].size());
    }
  }
  void zero(const std::vector<std::string>& names) const {
    for (const std::string& n : names) {
      const Arg* a = arg_named(n);
      if (!a || a->kind() != Arg::Kind::Pointer)
        throw Error(ErrorKind::Argument,
                    fmt::format("kernel '{}': autotune reset_to_zero '{}' must name a pointer argument", kernel.name(), n));
      std::vector<char> zeros(a->pointer_extent(), 0);
      runtime::DeviceBuffer b{a->pointer(), a->pointer_extent()};
      const_cast<runtime::Device*>(a->pointer_device())->copy_in(b, zeros.data(), zeros.size());
    }
  }

  // Median seconds of plan `p` (upstream's do_bench, with tritium's own clock): one
  // warm-up launch, then at least 3 timed ones until `rep_ms` (default 20 ms) is spent.
  double time_plan(const Plan& p, const frontend::AutotuneDecl& at) const {
    using clock = std::chrono::steady_clock;
    const double rep_s = (at.rep_ms > 0 ? at.rep_ms : 20.0) * 1e-3;
    const double warm_s = (at.warmup_ms > 0 ? at.warmup_ms : 0.0) * 1e-3;
    std::vector<std::vector<char>> saved = snapshot(at.restore_value);
    auto launch = [&] {
      zero(at.reset_to_zero);
      p.kernel.launch(p.grid, passed());
      device.synchronize();
    };
    auto w0 = clock::now();
    do launch();
    while (std::chrono::duration<double>(clock::now() - w0).count() < warm_s);
    std::vector<double> samples;
    double total = 0;
    while (samples.size() < 3 || (total < rep_s && samples.size() < 100)) {
      auto t0 = clock::now();
      launch();
      double s = std::chrono::duration<double>(clock::now() - t0).count();
      samples.push_back(s);
      total += s;
    }
    restore(at.restore_value, saved);
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
  }

  std::string tuning_key(size_t layer, const frontend::AutotuneDecl& at, const Meta& meta, const CompileOptions& o) const {
    std::string k = fmt::format("{}|{}|{}|{}|", kernel.name(), layer, device.name(), detail::options_key(o));
    for (const std::string& name : at.key) {
      if (const Arg* a = arg_named(name)) k += a->kind() == Arg::Kind::Pointer ? a->dtype() : a->describe();
      else if (auto it = meta.find(name); it != meta.end()) k += detail::constexpr_text(it->second);
      else k += "<default>";
      k += ",";
    }
    for (const Arg& a : args)
      if (a.kind() == Arg::Kind::Pointer) k += a.dtype() + ",";
    return k;
  }

  Plan resolve(size_t layer, Meta meta, CompileOptions o, Kernel::RunResult& out) const {
    if (layer == decls.layers.size()) return finish(std::move(meta), o);
    const frontend::DecoratorLayer& l = decls.layers[layer];
    if (l.heuristics) {
      PyValue d = args_dict(meta);
      detail::apply_heuristics(module, fn, *l.heuristics, d, meta, false);
      return resolve(layer + 1, std::move(meta), o, out);
    }
    const frontend::AutotuneDecl& at = *l.autotune;
    for (const frontend::PyConfig& c : at.configs)
      for (const auto& kv : c.kwargs)
        if (meta.count(kv.first))
          throw Error(ErrorKind::Usage, fmt::format("Conflicting meta-parameters: {}. Make sure that you don't re-define "
                                                    "auto-tuned symbols (kernel '{}')",
                                                    kv.first, kernel.name()));
    auto with_config = [&](size_t i, CompileOptions& co) {
      Meta m = meta;
      const frontend::PyConfig& c = at.configs[i];
      for (const auto& [k, v] : c.kwargs) m[k] = detail::to_constexpr(v, c.loc, fmt::format("config value '{}'", k));
      co.num_warps = static_cast<int>(c.num_warps);
      co.num_stages = static_cast<int>(c.num_stages);
      return m;
    };
    size_t pick = 0;
    if (at.configs.size() > 1) {
      const std::string key = tuning_key(layer, at, meta, o);
      bool cached = false;
      {
        std::lock_guard<std::mutex> lock(module.mu);
        if (auto it = module.tuned.find(key); it != module.tuned.end()) pick = static_cast<size_t>(it->second), cached = true;
      }
      if (!cached) {
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<double> timings;
        std::exception_ptr first_error;
        for (size_t i = 0; i < at.configs.size(); ++i) {
          CompileOptions co = o;
          Meta m = with_config(i, co);
          Kernel::RunResult scratch{out.kernel, {}, -1, false, {}};
          try {
            Plan p = resolve(layer + 1, m, co, scratch);
            timings.push_back(time_plan(p, at));
          } catch (const CompileError&) {
            if (!first_error) first_error = std::current_exception();
            timings.push_back(std::numeric_limits<double>::infinity());
          }
        }
        pick = static_cast<size_t>(std::min_element(timings.begin(), timings.end()) - timings.begin());
        if (timings[pick] == std::numeric_limits<double>::infinity()) std::rethrow_exception(first_error);
        zero(at.reset_to_zero);
        {
          std::lock_guard<std::mutex> lock(module.mu);
          module.tuned[key] = static_cast<int>(pick);
        }
        out.tuned = true;
        out.timings = timings;
        if (const char* p = std::getenv("TRITIUM_PRINT_AUTOTUNING"); p && std::strcmp(p, "1") == 0) {
          CompileOptions co = o;
          with_config(pick, co);
          fmt::print(stderr, "tritium autotuning for function {}, finished after {:.2f}s, best config selected: {}\n",
                     kernel.name(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                     kernel.decorators().configs[pick].str());
        }
      }
    }
    out.config = static_cast<int>(pick);
    CompileOptions co = o;
    Meta m = with_config(pick, co);
    return resolve(layer + 1, std::move(m), co, out);
  }
};

}  // namespace

void Kernel::set_annotation_types(const std::map<std::string, std::string>& types) {
  for (const auto& [name, type] : types) {
    // (clang 15 cannot capture a structured binding in a lambda: hence the plain reference.)
    const std::string& wanted = name;
    auto it = std::find_if(params_.begin(), params_.end(), [&](const Parameter& p) { return p.name == wanted; });
    if (it == params_.end() || it->is_constexpr)
      throw Error(ErrorKind::Argument, fmt::format("kernel '{}': no runtime parameter named '{}'", name_, name));
    const std::string t = !type.empty() && type[0] == '*' ? type.substr(1) : type;
    if (!type.empty() && !ir::parse_scalar_type(t))
      throw Error(ErrorKind::Argument, fmt::format("kernel '{}': parameter '{}' is annotated with type '{}', which "
                                                   "tritium does not support",
                                                   name_, name, type));
    it->annotation_type = type;
  }
}

bool Kernel::has_pointer_annotations() const {
  for (const Parameter& p : params_)
    if (!p.is_constexpr && !p.annotation_type.empty() && p.annotation_type[0] == '*') return true;
  return false;
}

std::vector<Arg> Kernel::typed_arguments(const std::vector<Arg>& args) const {
  std::vector<Arg> out = args;
  size_t r = 0;
  for (const Parameter& p : parameters()) {
    if (p.is_constexpr) continue;
    if (r < out.size() && !p.annotation_type.empty() && p.annotation_type[0] == '*' &&
        out[r].kind() == Arg::Kind::Pointer && !out[r].descriptor())
      out[r] = out[r].retyped(p.annotation_type.substr(1));
    ++r;
  }
  return out;
}

Kernel::RunResult Kernel::run_with(const frontend::KernelDecls& decls, const Device& device, const GridFn& grid,
                                   const std::vector<Arg>& args, const Meta& meta, const CompileOptions& options,
                                   bool launch) const {
  frontend::PinScope pin_(&(*module_).pins);
  const Kernel& kernel = *this;
  detail::ModuleState& module = *module_;
  const std::string& name = kernel.name();
  const auto& params = kernel.parameters();
  const frontend::FunctionDef& fn = *module.ast.find_function(name);
  const std::vector<Arg> typed = typed_arguments(args);
  Runner r{kernel, module, fn, decls, device, grid, typed, {}};
  for (const Parameter& p : params)
    if (!p.is_constexpr) r.runtime.push_back(&p);
  if (args.size() != r.runtime.size()) {
    std::string names;
    for (const Parameter* p : r.runtime) names += (names.empty() ? "" : ", ") + p->name;
    throw Error(ErrorKind::Argument, fmt::format("kernel '{}': expects {} argument{} ({}), got {}", name,
                                                 r.runtime.size(), r.runtime.size() == 1 ? "" : "s", names, args.size()));
  }
  for (const auto& [k, v] : meta) {
    const std::string& wanted = k;  // (not captured directly: clang 15 cannot capture a structured binding)
    auto it = std::find_if(params.begin(), params.end(), [&](const Parameter& p) { return p.name == wanted; });
    if (it == params.end()) throw Error(ErrorKind::Argument, fmt::format("kernel '{}': no parameter named '{}'", name, k));
    if (!it->is_constexpr)
      throw Error(ErrorKind::Argument,
                  fmt::format("kernel '{}': '{}' is a runtime parameter; pass it in args, not in meta", name, k));
    // A meta-parameter @triton.heuristics computes may be passed too: as upstream, the
    // heuristic sees it and its own value replaces it.
  }
  detail::validate_options(options);
  // A placeholder result until the plan exists (CompiledKernel has no empty state).
  RunResult tmp{CompiledKernel(nullptr), {}, -1, false, {}};
  Runner::Plan p = r.resolve(0, meta, options, tmp);
  if (launch) {
    if (decls.layers.empty()) p.kernel.launch_async(p.grid, r.passed());
    else p.kernel.launch(p.grid, r.passed());
  }
  tmp.kernel = p.kernel;
  tmp.meta = r.grid_meta(p.meta, p.options);
  tmp.grid = p.grid;
  return tmp;
}

Kernel::RunResult Kernel::run(const Device& device, const GridFn& grid, const std::vector<Arg>& args, const Meta& meta,
                              const CompileOptions& options) const {
  auto decls = detail::kernel_decls(*module_, name_);
  return run_with(*decls, device, grid, args, meta, options, true);
}

Kernel::RunResult Kernel::run_jit(const Device& device, const GridFn& grid, const std::vector<Arg>& args,
                                  const Meta& meta, const CompileOptions& options,
                                  const std::vector<std::string>& do_not_specialize,
                                  const std::vector<std::string>& do_not_specialize_on_alignment, bool launch) const {
  frontend::KernelDecls decls;
  for (const auto* names : {&do_not_specialize, &do_not_specialize_on_alignment})
    for (const std::string& n : *names)
      if (std::none_of(params_.begin(), params_.end(), [&](const Parameter& p) { return p.name == n; }))
        throw Error(ErrorKind::Usage, fmt::format("kernel '{}': do_not_specialize names no parameter '{}'", name_, n));
  decls.do_not_specialize = do_not_specialize;
  decls.do_not_specialize_on_alignment = do_not_specialize_on_alignment;
  return run_with(decls, device, grid, args, meta, options, launch);
}

Kernel::RunResult Kernel::run(const Device& device, const Grid& grid, const std::vector<Arg>& args, const Meta& meta,
                              const CompileOptions& options) const {
  return run(device, GridFn([grid](const Meta&) { return grid; }), args, meta, options);
}

}  // namespace tritium
