// From (signature, constexprs, options) to the IR of one specialization: checking the
// signature against the kernel's parameters, code generation, and the pass pipeline.
#include <iostream>
#include <set>

#include <cstdlib>

#include <fmt/format.h>

#include "api/api_internal.h"
#include "frontend/codegen.h"
#include "ir/printer.h"
#include "passes/pipeline.h"
#include "passes/written_params.h"

namespace tritium::detail {
frontend::ConstexprValue to_frontend(const ConstexprValue& v) {
  if (auto* d = std::get_if<DType>(&v)) {
    auto t = ir::parse_scalar_type(d->name);
    if (!t) throw Error(ErrorKind::Usage, fmt::format("unknown dtype '{}' in a constexpr value", d->name));
    return frontend::DTypeValue{*t};
  }
  frontend::ConstexprValue out;
  std::visit(
      [&](const auto& x) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(x)>, DType>) out = x;
      },
      v);
  return out;
}

ConstexprValue from_frontend(const frontend::ConstexprValue& v) {
  if (auto* d = std::get_if<frontend::DTypeValue>(&v)) return DType{std::string(ir::short_name(d->type))};
  ConstexprValue out;
  std::visit(
      [&](const auto& x) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(x)>, frontend::DTypeValue>) out = x;
      },
      v);
  return out;
}

std::string constexpr_text(const ConstexprValue& v) {
  frontend::ArgSpec a;
  a.kind = frontend::ArgSpec::Kind::Constexpr;
  a.value = to_frontend(v);
  return a.str();
}

namespace {

[[noreturn]] void sig_error(const std::string& kernel, const std::string& msg) {
  throw Error(ErrorKind::Signature, fmt::format("kernel '{}': {}", kernel, msg));
}

}  // namespace

void validate_options(const CompileOptions& o) {
  if (o.num_warps < 1 || o.num_warps > 64 || (o.num_warps & (o.num_warps - 1)) != 0)
    throw Error(ErrorKind::Usage, fmt::format("num_warps must be a power of two in [1, 64], got {}", o.num_warps));
  if (o.num_stages < 0) throw Error(ErrorKind::Usage, fmt::format("num_stages must be >= 0, got {}", o.num_stages));
  if (o.dump_after.empty()) return;
  std::vector<std::string> names = passes::pipeline_pass_names();
  std::set<std::string> known(names.begin(), names.end());
  for (const std::string& d : o.dump_after) {
    if (d == "all" || known.count(d)) continue;
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    throw Error(ErrorKind::Usage, fmt::format("unknown pass '{}' in dump_after (passes: {}; or 'all')", d, list));
  }
}

bool sanitize_enabled(const CompileOptions& o) {
  if (o.sanitize) return true;
  const char* env = std::getenv("TRITIUM_SANITIZE");
  return env && std::string(env) == "1";
}

std::string options_key(const CompileOptions& o) {
  return fmt::format("warps={},stages={},portable={},debug={},sanitize={}", o.num_warps, o.num_stages,
                     o.portable_numerics ? 1 : 0, o.debug ? 1 : 0, sanitize_enabled(o) ? 1 : 0);
}

frontend::Specialization resolve_specialization(const std::string& kernel, const std::vector<Parameter>& params,
                                                const std::string& signature,
                                                const std::map<std::string, ConstexprValue>& constexprs,
                                                std::vector<ArgInfo>* runtime_args) {
  frontend::Specialization spec;
  try {
    spec.args = frontend::parse_signature(signature);
  } catch (const std::invalid_argument& e) {
    sig_error(kernel, fmt::format("bad signature \"{}\": {}", signature, e.what()));
  }
  if (spec.args.size() > params.size()) {
    std::string names;
    for (const Parameter& p : params) names += (names.empty() ? "" : ", ") + p.name;
    sig_error(kernel, fmt::format("the signature has {} entries but the kernel has {} parameter{} ({})",
                                  spec.args.size(), params.size(), params.size() == 1 ? "" : "s", names));
  }
  for (const auto& [name, value] : constexprs) {
    size_t i = 0;
    while (i < params.size() && params[i].name != name) ++i;
    if (i == params.size()) sig_error(kernel, fmt::format("no parameter named '{}' (given as a constexpr)", name));
    if (!params[i].is_constexpr)
      sig_error(kernel, fmt::format("parameter '{}' is not a tl.constexpr and cannot be given a constexpr value", name));
    if (i < spec.args.size())
      sig_error(kernel, fmt::format("parameter '{}' is given twice: in the signature ('{}') and as a constexpr ({})",
                                    name, spec.args[i].str(), constexpr_text(value)));
    frontend::ArgSpec a;
    a.kind = frontend::ArgSpec::Kind::Constexpr;
    a.value = to_frontend(value);
    spec.named.emplace_back(name, a);
  }
  std::vector<ArgInfo> rt;
  for (size_t i = 0; i < params.size(); ++i) {
    const Parameter& p = params[i];
    if (i >= spec.args.size()) {
      bool named = constexprs.count(p.name) != 0;
      if (!named && !p.has_default)
        sig_error(kernel, fmt::format("parameter '{}' (#{}) has no signature entry{}", p.name, i + 1,
                                      p.is_constexpr ? ", no constexpr value and no default" : " (it needs a type, e.g. i32 or *fp32)"));
      if (!named && !p.is_constexpr)
        sig_error(kernel, fmt::format("parameter '{}' (#{}) has a default but is not a tl.constexpr; give it a typed "
                                      "signature entry (e.g. i32 or fp32)",
                                      p.name, i + 1));
      continue;
    }
    const frontend::ArgSpec& a = spec.args[i];
    if (a.is_none) continue;  // None: a constexpr for any parameter, not a launch argument
    bool entry_is_value = a.kind == frontend::ArgSpec::Kind::Constexpr;
    if (p.is_constexpr && !entry_is_value)
      sig_error(kernel, fmt::format("parameter '{}' (#{}) is a tl.constexpr: its signature entry must be a value "
                                    "(e.g. 128), got '{}'",
                                    p.name, i + 1, a.str()));
    if (!p.is_constexpr && entry_is_value)
      sig_error(kernel, fmt::format("parameter '{}' (#{}) is not a tl.constexpr: its signature entry must be a type "
                                    "(e.g. i32, *fp32), got '{}'",
                                    p.name, i + 1, a.str()));
    if (entry_is_value) continue;
    if (a.kind == frontend::ArgSpec::Kind::TensorDesc) {  // base, shape (i32 each), strides but the last (i64)
      ArgInfo base;
      base.name = p.name + ".base";
      base.is_pointer = true;
      base.dtype = std::string(ir::short_name(a.dtype));
      rt.push_back(base);
      const size_t n = a.block_shape.size();
      for (size_t d = 0; d < n; ++d) {
        ArgInfo s;
        s.name = fmt::format("{}.shape[{}]", p.name, d);
        s.dtype = "i32";
        rt.push_back(s);
      }
      for (size_t d = 0; d + 1 < n; ++d) {
        ArgInfo s;
        s.name = fmt::format("{}.strides[{}]", p.name, d);
        s.dtype = "i64";
        rt.push_back(s);
      }
      continue;
    }
    ArgInfo info;
    info.name = p.name;
    info.is_pointer = a.kind == frontend::ArgSpec::Kind::Pointer;
    info.dtype = std::string(ir::short_name(a.dtype));
    info.divisibility = a.divisibility;
    info.equal_to_1 = a.equal_to_1;
    rt.push_back(std::move(info));
  }
  if (runtime_args) *runtime_args = std::move(rt);
  return spec;
}

Lowered lower(const ModuleState& module, const std::string& kernel, const std::vector<Parameter>& params,
              const std::string& signature, const CompileOptions& options,
              const std::map<std::string, ConstexprValue>& constexprs) {
  validate_options(options);
  Lowered out;
  frontend::Specialization spec = resolve_specialization(kernel, params, signature, constexprs, &out.args);
  out.signature = spec.str();
  frontend::GenOptions gen;
  gen.debug = options.debug;
  gen.num_warps = options.num_warps;
  gen.num_stages = options.num_stages;
  {
    std::lock_guard<std::mutex> lock(module.mu);
    module.compiled = true;  // host_globals are frozen from here on
  }
  gen.host_globals = &module.host_globals;
  passes::PipelineOptions popts;
  popts.dump_after = options.dump_after;
  if (options.dump) {
    popts.dump = options.dump;
  } else if (!options.dump_after.empty()) {
    popts.dump = [](const std::string& pass, const std::string& text) {
      std::cerr << "// ----- IR dump after " << pass << " -----\n" << text << std::flush;
    };
  }
  try {
    out.ir = std::make_unique<ir::Module>(frontend::generate_ir(module.ast, kernel, spec, gen));
    passes::run_pipeline(*out.ir, popts);
  } catch (...) {
    rethrow_as_error(ErrorKind::Compile, fmt::format("compiling kernel '{}' ({})", kernel, out.signature));
  }
  // The kernel's parameters must be exactly the runtime parameters the signature declared.
  const ir::Function* fn = out.ir->functions.empty() ? nullptr : out.ir->functions.front().get();
  if (!fn || !fn->is_kernel)
    throw Error(ErrorKind::Internal, fmt::format("internal error: no kernel function after compiling '{}'", kernel));
  if (fn->body.args.size() != out.args.size())
    throw Error(ErrorKind::Internal,
                fmt::format("internal error: kernel '{}' has {} IR parameters but the signature declares {} runtime "
                            "parameters",
                            kernel, fn->body.args.size(), out.args.size()));
  const std::vector<bool> written = passes::written_params(*fn);
  for (size_t i = 0; i < out.args.size(); ++i) {
    out.args[i].written = written[i];
    const ir::Type& t = fn->body.args[i]->type;
    const ArgInfo& a = out.args[i];
    if (t.is_tensor() || t.is_ptr != a.is_pointer || std::string(ir::short_name(t.scalar)) != a.dtype)
      throw Error(ErrorKind::Internal, fmt::format("internal error: kernel '{}' parameter '{}' has IR type {} but the "
                                                   "signature says {}{}",
                                                   kernel, a.name, t.str(), a.is_pointer ? "*" : "", a.dtype));
  }
  out.ir_text = ir::print(*out.ir);
  return out;
}

}  // namespace tritium::detail
