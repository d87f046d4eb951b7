// tritium::Module and Kernel: loading sources and describing kernel parameters.
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "api/api_internal.h"
#include "frontend/codegen.h"
#include "frontend/parser.h"

namespace tritium {
namespace {

// True for the annotations Triton treats as constexpr: `tl.constexpr`, `triton.language.constexpr`,
// `constexpr`, and string annotations naming one of these.
bool is_constexpr_annotation(const frontend::Expr* e) {
  if (!e) return false;
  if (auto* n = e->dyn<frontend::NameExpr>()) return n->id == "constexpr";
  if (auto* a = e->dyn<frontend::AttributeExpr>()) return a->attr == "constexpr";
  if (auto* s = e->dyn<frontend::StrExpr>()) {
    const std::string& v = s->value;
    return v == "constexpr" || (v.size() > 10 && v.compare(v.size() - 10, 10, ".constexpr") == 0);
  }
  return false;
}

// Upstream's canonical type names (triton/_utils.py type_canonicalisation_dict) of a
// dtype or type name, in tritium's spelling; "" for anything else.
std::string canonical_type(std::string t) {
  static const std::map<std::string, std::string> names = {
      {"bool", "i1"}, {"int1", "i1"}, {"uint1", "i1"}, {"i1", "i1"}, {"u1", "i1"},
      {"float8e4nv", "fp8e4nv"}, {"float8_e4m3fn", "fp8e4nv"}, {"fp8e4nv", "fp8e4nv"},
      {"float8e5", "fp8e5"}, {"float8_e5m2", "fp8e5"}, {"fp8e5", "fp8e5"},
      {"float8e4b15", "fp8e4b15"}, {"fp8e4b15", "fp8e4b15"},
      {"half", "fp16"}, {"float16", "fp16"}, {"fp16", "fp16"}, {"bfloat16", "bf16"}, {"bf16", "bf16"},
      {"float", "fp32"}, {"float32", "fp32"}, {"fp32", "fp32"}, {"double", "fp64"}, {"float64", "fp64"},
      {"fp64", "fp64"}, {"int8", "i8"}, {"i8", "i8"}, {"int16", "i16"}, {"i16", "i16"}, {"int", "i32"},
      {"int32", "i32"}, {"i32", "i32"}, {"int64", "i64"}, {"i64", "i64"}, {"uint8", "u8"}, {"u8", "u8"},
      {"uint16", "u16"}, {"u16", "u16"}, {"uint32", "u32"}, {"u32", "u32"}, {"uint64", "u64"}, {"u64", "u64"}};
  if (t.rfind("tl.", 0) == 0) t = t.substr(3);
  if (const size_t u = t.find("_t"); u != std::string::npos && u + 2 == t.size()) t = t.substr(0, u);  // int32_t
  auto it = names.find(t);
  return it == names.end() ? "" : it->second;
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// The type an annotation string forces: "i64", "tl.float16", "*fp32", "fp32*", "const *fp16".
std::string annotation_string_type(std::string s) {
  s = trim(s);
  if (s.rfind("const ", 0) == 0) {
    const std::string t = annotation_string_type(s.substr(6));
    return !t.empty() && t[0] == '*' ? t : "";
  }
  if (!s.empty() && s.back() == '*') s = "*" + trim(s.substr(0, s.size() - 1));
  if (!s.empty() && s[0] == '*') {
    const std::string t = canonical_type(trim(s.substr(1)));
    return t.empty() ? "" : "*" + t;
  }
  return canonical_type(s);
}

// The type a parameter annotation forces (see Parameter::annotation_type): a dtype named
// by attribute (`tl.int64`, `np.float32`: upstream reads the type's name), a builtin type
// (`int`, `float`, `bool`), a string, or `tl.pointer_type(<dtype>)`.
std::string annotation_type(const frontend::Expr* e) {
  if (!e) return "";
  if (auto* n = e->dyn<frontend::NameExpr>()) return canonical_type(n->id);
  if (auto* a = e->dyn<frontend::AttributeExpr>()) return canonical_type(a->attr);
  if (auto* s = e->dyn<frontend::StrExpr>()) return annotation_string_type(s->value);
  if (auto* c = e->dyn<frontend::CallExpr>()) {
    auto* f = c->func.get();
    const std::string fname = f && f->dyn<frontend::AttributeExpr>() ? f->dyn<frontend::AttributeExpr>()->attr
                              : f && f->dyn<frontend::NameExpr>() ? f->dyn<frontend::NameExpr>()->id : "";
    if (fname == "pointer_type" && c->args.size() == 1) {
      const std::string t = annotation_type(c->args[0].get());
      return t.empty() || t[0] == '*' ? "" : "*" + t;
    }
  }
  return "";
}

std::shared_ptr<detail::ModuleState> parse(frontend::SourceRef src) {
  auto state = std::make_shared<detail::ModuleState>();
  state->source = src;
  try {
    state->ast = frontend::parse_module(src);
  } catch (...) {
    detail::rethrow_as_error(ErrorKind::Compile, "parsing " + src->name());
  }
  return state;
}

}  // namespace

Module Module::from_file(const std::string& path) {
  frontend::SourceRef src;
  try {
    src = frontend::Source::from_file(path);
  } catch (const std::exception& e) {
    throw Error(ErrorKind::NotFound, e.what());  // "cannot read kernel source 'PATH': REASON"
  }
  return Module(parse(std::move(src)));
}

Module Module::from_string(const std::string& text, const std::string& name) {
  return Module(parse(frontend::Source::from_string(text, name)));
}

std::string Module::name() const { return state_->source->name(); }

std::vector<std::string> Module::kernel_names() const {
  try {
    return frontend::jit_function_names(state_->ast);
  } catch (...) {
    detail::rethrow_as_error(ErrorKind::Compile, "");
  }
}

void Module::set_host_globals(const std::map<std::string, ConstexprValue>& values) {
  std::map<std::string, frontend::ConstexprValue> converted;
  for (const auto& [k, v] : values) converted[k] = detail::to_frontend(v);
  std::lock_guard<std::mutex> lock(state_->mu);
  if (state_->compiled)
    throw Error(ErrorKind::Usage, fmt::format("Module::set_host_globals({}): a kernel of this module was already "
                                              "compiled with the earlier values",
                                              state_->source ? state_->source->name() : std::string("?")));
  state_->host_globals = std::move(converted);
}

std::optional<std::string> Module::global_value_key(const std::string& path) const {
  frontend::PinScope pin_(&(*state_).pins);
  frontend::GenOptions o;
  o.host_globals = &state_->host_globals;
  return frontend::global_value_key(state_->ast, path, o);
}

std::optional<std::string> Module::default_value_key(const std::string& path, const std::string& param) const {
  frontend::PinScope pin_(&(*state_).pins);
  frontend::GenOptions o;
  o.host_globals = &state_->host_globals;
  return frontend::default_value_key(state_->ast, path, param, o);
}

std::optional<std::tuple<std::string, int64_t, int64_t>> Module::function_location(const std::string& path) const {
  frontend::PinScope pin_(&(*state_).pins);
  frontend::GenOptions o;
  o.host_globals = &state_->host_globals;
  auto l = frontend::function_location(state_->ast, path, o);
  if (!l) return std::nullopt;
  return std::make_tuple(l->file, l->first_line, l->def_line);
}

Kernel Module::kernel(const std::string& name) const {
  std::vector<std::string> names = kernel_names();
  const frontend::FunctionDef* fn = nullptr;
  for (const std::string& n : names)
    if (n == name) fn = state_->ast.find_function(name);
  if (!fn) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    throw Error(ErrorKind::NotFound,
                fmt::format("no jit kernel named '{}' in {} (kernels found: {})", name, state_->source->name(),
                            list.empty() ? "none" : list));
  }
  if (fn->parse_error) throw detail::to_api_error(frontend::CompileError(fn->parse_error->loc, fn->parse_error->message));
  std::vector<Parameter> params;
  for (const frontend::Param& p : fn->params) {
    if (p.kind == frontend::ParamKind::VarArgs || p.kind == frontend::ParamKind::VarKwargs)
      throw detail::to_api_error(frontend::CompileError(
          p.loc, fmt::format("variadic parameter '{}{}' is not supported in a jit kernel",
                             p.kind == frontend::ParamKind::VarArgs ? "*" : "**", p.name)));
    Parameter out;
    out.name = p.name;
    out.is_constexpr = is_constexpr_annotation(p.annotation.get());
    if (!out.is_constexpr) out.annotation_type = annotation_type(p.annotation.get());
    if (p.default_value) {
      out.has_default = true;
      const frontend::Expr& d = *p.default_value;
      out.default_text = std::string(state_->source->slice(d.loc.offset, d.end_offset));
    }
    params.push_back(std::move(out));
  }
  return Kernel(state_, name, std::move(params));
}

}  // namespace tritium
