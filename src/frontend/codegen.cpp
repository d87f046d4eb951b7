// Public entry points of the code generator (codegen.h): finds the kernel, binds the
// specialization to its parameters, generates the kernel and its helpers, verifies.
#include "frontend/codegen.h"

#include <cmath>

#include <fmt/format.h>

#include "frontend/builtins.h"
#include "frontend/codegen_impl.h"
#include "frontend/codegen_values.h"
#include "ir/verifier.h"

namespace tritium::frontend {

namespace {

using cg::fail;

// Binds the launch specialization to the kernel's parameters (see codegen.h): positional
// entries first, then named ones. Constexpr parameters take a Constexpr entry or their
// default; run-time parameters a Pointer/Scalar entry, which becomes a kernel argument
// (wrapped in a `hint` for divisibility 16, bound to the constant 1 for equal_to_1). A
// run-time parameter whose default is None may be left out: it is then the constexpr None
// and not a kernel argument, as Triton specializes None arguments.
void bind_kernel_params(cg::GenState& st, cg::FunctionGen& g, ir::Function& kf, const FunctionDef& f,
                        const Specialization& spec) {
  const std::string& kname = f.name;
  std::vector<size_t> positional;
  for (size_t i = 0; i < f.params.size(); ++i) {
    const Param& p = f.params[i];
    if (p.kind == ParamKind::VarArgs || p.kind == ParamKind::VarKwargs)
      fail(p.loc, "variadic parameters (*args / **kwargs) are not supported in kernels");
    if (p.kind != ParamKind::KeywordOnly) positional.push_back(i);
  }
  std::vector<std::optional<ArgSpec>> given(f.params.size());
  if (spec.args.size() > positional.size())
    fail(f.name_loc, fmt::format("kernel '{}' takes {} positional parameter{} but the specialization gives {}", kname,
                                 positional.size(), positional.size() == 1 ? "" : "s", spec.args.size()));
  for (size_t k = 0; k < spec.args.size(); ++k) given[positional[k]] = spec.args[k];
  for (const auto& [name, a] : spec.named) {
    size_t i = 0;
    while (i < f.params.size() && f.params[i].name != name) ++i;
    if (i == f.params.size()) fail(f.name_loc, "kernel '" + kname + "' has no parameter named '" + name + "'");
    if (given[i])
      fail(f.params[i].loc, "parameter '" + name + "' of kernel '" + kname + "' is given twice in the specialization");
    given[i] = a;
  }

  ir::Builder& b = g.builder();
  std::vector<std::pair<size_t, ir::Value*>> runtime;
  struct DescParam {
    size_t index;
    CValue base;
    CValues shape, strides, block;
    bool nan;
  };
  std::vector<DescParam> desc_params;
  for (size_t i = 0; i < f.params.size(); ++i) {
    const Param& p = f.params[i];
    bool cx = st.is_constexpr(p.annotation.get());
    if (!given[i]) {
      if (!p.default_value) {
        fail(p.loc, cx ? "constexpr parameter '" + p.name + "' of kernel '" + kname +
                             "' has no value (no specialization entry and no default)"
                       : "parameter '" + p.name + "' of kernel '" + kname + "' has no entry in the specialization");
      }
      CValue d = st.env.eval_default(st, p);
      if (!cx && d.kind != CValue::Kind::None)
        fail(p.loc, "run-time parameter '" + p.name + "' of kernel '" + kname +
                        "' needs an entry in the specialization (only constexpr parameters and None defaults can be "
                        "left out)");
      g.bind(p.name, d);
      continue;
    }
    const ArgSpec& a = *given[i];
    if (a.is_none) {  // None: the constexpr None, for any parameter (Triton's specialization of None)
      g.bind(p.name, CValue::none());
      continue;
    }
    if (cx && a.kind != ArgSpec::Kind::Constexpr)
      fail(p.loc, "parameter '" + p.name + "' of kernel '" + kname +
                      "' is tl.constexpr but the specialization gives the run-time type " + a.str());
    if (!cx && a.kind == ArgSpec::Kind::Constexpr)
      fail(p.loc, "parameter '" + p.name + "' of kernel '" + kname +
                      "' is not tl.constexpr but the specialization gives the constant " + a.str());
    if (cx) {
      g.bind(p.name, cg::constexpr_value(a.value));
      continue;
    }
    if (a.kind == ArgSpec::Kind::TensorDesc) {  // a host TensorDescriptor: its fields are kernel arguments
      ir::Value* base = b.add_block_arg(kf.body, ir::Type::ptr(a.dtype));
      base->name = p.name + "_base";
      CValues shape, strides, block;
      for (size_t d = 0; d < a.block_shape.size(); ++d) {
        ir::Value* s = b.add_block_arg(kf.body, ir::Type::of(ir::ScalarType::I32));
        s->name = fmt::format("{}_shape{}", p.name, d);
        shape.push_back(CValue::of_tensor(s));
        block.push_back(CValue::of_int(a.block_shape[d]));
      }
      for (size_t d = 0; d + 1 < a.block_shape.size(); ++d) {
        ir::Value* s = b.add_block_arg(kf.body, ir::Type::of(ir::ScalarType::I64));
        s->name = fmt::format("{}_stride{}", p.name, d);
        strides.push_back(CValue::of_tensor(s));
      }
      strides.push_back(CValue::of_int(1));
      desc_params.push_back({i, CValue::of_tensor(base), std::move(shape), std::move(strides), std::move(block),
                             a.padding_nan});
      continue;
    }
    bool ptr = a.kind == ArgSpec::Kind::Pointer;
    ir::Value* arg = b.add_block_arg(kf.body, ptr ? ir::Type::ptr(a.dtype) : ir::Type::of(a.dtype));
    arg->name = p.name;
    if (a.equal_to_1 && (ptr || !ir::is_int(a.dtype)))
      fail(p.loc, "parameter '" + p.name + "': only integers can be specialized as equal to 1");
    if (a.divisibility == 16 && !ptr && !ir::is_int(a.dtype))
      fail(p.loc, "parameter '" + p.name + "': divisibility by 16 applies to pointers and integers only");
    runtime.emplace_back(i, arg);
  }
  // Bind the run-time parameters once every argument exists (hints come after them).
  for (auto& [i, arg] : runtime) {
    const Param& p = f.params[i];
    const ArgSpec& a = *given[i];
    if (a.equal_to_1) {
      g.bind(p.name, CValue::of_int(1));  // as Triton: the argument is the constant 1
    } else if (a.divisibility == 16) {
      ir::Value* h =
          b.create(ir::OpKind::Hint, {arg}, {arg->type}, p.loc, {{"multiple_of", std::vector<int64_t>{16}}})->result();
      h->name = p.name;
      g.bind(p.name, CValue::of_tensor(h));
    } else {
      g.bind(p.name, CValue::of_tensor(arg));
    }
  }
  // Host tensor descriptors: the record tl.make_tensor_descriptor builds, from the arguments.
  for (DescParam& d : desc_params) {
    const Param& p = f.params[d.index];
    std::vector<KwArg> kw;
    kw.push_back({"padding_option", std::make_shared<CValue>(CValue::of_str(d.nan ? "nan" : "zero"))});
    g.bind(p.name, call_builtin(g.ctx(), "make_tensor_descriptor",
                                {d.base, CValue::of_tuple(std::move(d.shape)), CValue::of_tuple(std::move(d.strides)),
                                 CValue::of_tuple(std::move(d.block))},
                                std::move(kw), p.loc));
  }
}

}  // namespace

ir::Module generate_ir(const Module& module, const std::string& kernel_name, const Specialization& spec,
                       const GenOptions& options) {
  const FunctionDef* f = module.find_function(kernel_name);
  if (!f) {
    SrcLoc top;
    top.file = module.source.get();
    throw CompileError(top, "no function named '" + kernel_name + "' in " +
                                (module.source ? module.source->name() : std::string("the module")));
  }
  if (!cg::is_jit_function(*f))
    throw CompileError(f->name_loc, "function '" + kernel_name + "' is not decorated with @triton.jit");
  cg::refuse_gluon(module, *f);
  if (f->parse_error) throw CompileError(f->parse_error->loc, f->parse_error->message);

  ir::Module out;
  {
    cg::GenState st(module, options, out);
    ir::Function* kf = out.add(kernel_name);
    kf->is_kernel = true;
    kf->loc = f->loc;
    st.ir_names.insert(kernel_name);
    cg::FunctionGen g(st, *kf, f, true);
    bind_kernel_params(st, g, *kf, *f, spec);
    g.gen_body();
  }
  for (const auto& fn : out.functions) ir::verify_or_throw(*fn, &out);
  return out;
}

std::vector<std::string> jit_function_names(const Module& module) {
  std::vector<std::string> names;
  for (const FunctionDef* f : module.functions) {
    if (!cg::is_jit_function(*f)) continue;
    bool seen = false;
    for (const auto& n : names) seen |= n == f->name;
    if (!seen) names.push_back(f->name);
  }
  return names;
}

}  // namespace tritium::frontend

namespace tritium::frontend {
namespace {

std::optional<std::string> value_key(const CValue& v) {
  switch (v.kind) {
    case CValue::Kind::None: return std::string("None");
    case CValue::Kind::Bool: return std::string(v.b ? "True" : "False");
    case CValue::Kind::Int: return "int:" + (v.is_u64 ? std::to_string(v.u) : std::to_string(v.i));
    case CValue::Kind::Float: {
      if (std::isnan(v.f)) return std::string("float:nan");
      if (std::isinf(v.f)) return std::string(v.f > 0 ? "float:inf" : "float:-inf");
      std::string t = fmt::format("{}", v.f);  // shortest round-trip, as Python's repr ...
      if (t.find_first_of(".e") == std::string::npos) t += ".0";  // ... which writes 1.0, not 1
      return "float:" + t;
    }
    case CValue::Kind::Str: return "str:" + v.s;
    case CValue::Kind::DType:
      if (v.dtype.is_ptr || v.dtype.is_tensor()) return std::nullopt;
      return "dtype:" + std::string(ir::short_name(v.dtype.scalar));
    case CValue::Kind::Tuple: {
      std::string k = "(";
      for (size_t i = 0; i < v.elems.size(); ++i) {
        auto e = value_key(v.elems[i]);
        if (!e) return std::nullopt;
        k += (i ? "," : "") + *e;
      }
      return k + ")";
    }
    default: return std::nullopt;
  }
}

}  // namespace

namespace {

// The frontend's value of module-level dotted name `path` ("BLOCK", "cfg.BLOCK"), or nullopt.
std::optional<CValue> resolve_global(cg::GenState& st, const Module& module, const std::string& path) {
  SrcLoc at;
  at.file = module.source.get();
  size_t dot = path.find('.');
  std::optional<CValue> v = st.env.lookup(st, path.substr(0, dot), at);
  while (v && dot != std::string::npos) {
    const size_t next = path.find('.', dot + 1);
    const std::string attr = path.substr(dot + 1, next == std::string::npos ? std::string::npos : next - dot - 1);
    if (v->kind != CValue::Kind::Namespace || !v->fn_module) return std::nullopt;
    v = cg::ModuleEnv::module_attr(st, *v, attr, at);
    dot = next;
  }
  return v;
}

}  // namespace

std::optional<std::string> global_value_key(const Module& module, const std::string& path, const GenOptions& options) {
  try {
    ir::Module scratch;
    cg::GenState st(module, options, scratch);
    std::optional<CValue> v = resolve_global(st, module, path);
    if (!v) return std::nullopt;
    return value_key(*v);
  } catch (const std::exception&) {
    return std::nullopt;  // not evaluable here: a kernel using it reports it when it compiles
  }
}

namespace {
// The jit (or constexpr) function `path` names, or nullopt.
std::optional<CValue> resolve_function(cg::GenState& st, const Module& module, const std::string& path) {
  std::optional<CValue> v = resolve_global(st, module, path);
  if (!v || (v->kind != CValue::Kind::JitFn && v->kind != CValue::Kind::ConstexprFn) || !v->fn) return std::nullopt;
  return v;
}
}  // namespace

std::optional<FunctionLocation> function_location(const Module& module, const std::string& path,
                                                  const GenOptions& options) {
  try {
    ir::Module scratch;
    cg::GenState st(module, options, scratch);
    std::optional<CValue> v = resolve_function(st, module, path);
    if (!v) return std::nullopt;
    FunctionLocation l;
    l.file = v->fn->def_loc.file ? std::string(v->fn->def_loc.filename()) : std::string();
    l.def_line = v->fn->def_loc.line;
    l.first_line = v->fn->decorators.empty() ? l.def_line : static_cast<int64_t>(v->fn->decorators.front()->loc.line);
    return l;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::string> default_value_key(const Module& module, const std::string& path, const std::string& param,
                                             const GenOptions& options) {
  try {
    ir::Module scratch;
    cg::GenState st(module, options, scratch);
    std::optional<CValue> v = resolve_function(st, module, path);
    if (!v) return std::nullopt;
    for (const auto& p : v->fn->params)
      if (p.name == param && p.default_value) return value_key(st.env_of(v->fn_module).eval_default(st, p));
    return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;  // not evaluable here: a call relying on it reports it when it compiles
  }
}

}  // namespace tritium::frontend
