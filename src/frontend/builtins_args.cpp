// Argument binding and argument conversions for the builtins (see builtins_impl.h).
#include <fmt/format.h>

#include <algorithm>

#include "frontend/builtins_impl.h"

namespace tritium::frontend::bi {

void fail(SrcLoc loc, const std::string& msg) { throw CompileError(loc, msg); }

Args::Args(const std::string& fn, CValues pos, std::vector<KwArg> kw, std::vector<Param> params, SrcLoc loc,
           bool varargs, int n_positional)
    : fn_(fn), loc_(loc) {
  size_t npos = n_positional < 0 ? params.size() : static_cast<size_t>(n_positional);
  std::vector<bool> bound(params.size(), false);
  values_.resize(params.size());
  for (size_t i = 0; i < pos.size(); ++i) {
    if (i < npos) {
      values_[i] = std::move(pos[i]);
      bound[i] = true;
    } else if (varargs) {
      rest_.push_back(std::move(pos[i]));
    } else {
      fail(loc, fmt::format("{}() takes {} positional argument{} but {} were given", fn, npos, npos == 1 ? "" : "s",
                            pos.size()));
    }
  }
  for (auto& k : kw) {
    auto it = std::find_if(params.begin(), params.end(), [&](const Param& p) { return p.name == k.name; });
    if (k.name.empty()) fail(loc, fn + "(): `**kwargs` arguments are not supported");
    if (it == params.end()) fail(loc, fmt::format("{}() got an unexpected keyword argument '{}'", fn, k.name));
    size_t idx = static_cast<size_t>(it - params.begin());
    if (bound[idx]) fail(loc, fmt::format("{}() got multiple values for argument '{}'", fn, k.name));
    values_[idx] = k.value ? *k.value : CValue::none();
    bound[idx] = true;
  }
  for (size_t i = 0; i < params.size(); ++i) {
    names_.push_back(params[i].name);
    if (bound[i]) continue;
    if (params[i].required) fail(loc, fmt::format("{}() missing required argument '{}'", fn, params[i].name));
    values_[i] = params[i].dflt;
  }
}

const CValue& Args::operator[](const std::string& name) const {
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return values_[i];
  throw std::logic_error("builtin " + fn_ + " has no parameter " + name);
}

bool Args::has(const std::string& name) const { return (*this)[name].kind != CValue::Kind::None; }

int64_t int_arg(const CValue& v, SrcLoc loc, const std::string& what) {
  if (v.kind != CValue::Kind::Int)
    fail(loc, fmt::format("{} must be a constexpr int, got {}", what, v.describe()));
  if (v.is_u64) fail(loc, fmt::format("{} is out of range ({})", what, v.u));
  return v.i;
}

bool bool_arg(const CValue& v, SrcLoc loc, const std::string& what) {
  switch (v.kind) {
    case CValue::Kind::Bool: return v.b;
    case CValue::Kind::Int: return v.is_u64 ? v.u != 0 : v.i != 0;
    case CValue::Kind::None: return false;
    default: fail(loc, fmt::format("{} must be a constexpr bool, got {}", what, v.describe()));
  }
}

std::string str_arg(const CValue& v, SrcLoc loc, const std::string& what) {
  if (v.kind != CValue::Kind::Str) fail(loc, fmt::format("{} must be a constexpr string, got {}", what, v.describe()));
  return v.s;
}

ir::Type dtype_arg(const CValue& v, SrcLoc loc, const std::string& what) {
  if (v.kind != CValue::Kind::DType || v.dtype.is_tensor())
    fail(loc, fmt::format("{} must be a dtype, got {}", what, v.describe()));
  return v.dtype;
}

ir::Value* tensor_arg(BuiltinContext& ctx, const CValue& v, SrcLoc loc, const std::string& what) {
  return sem::to_tensor(ctx.b, v, loc, what);
}

ir::Value* tensor_only(const CValue& v, SrcLoc loc, const std::string& what) {
  if (v.kind != CValue::Kind::Tensor) fail(loc, fmt::format("{} must be a tensor, got {}", what, v.describe()));
  return v.tensor;
}

std::vector<int64_t> int_list(const CValue& v, SrcLoc loc, const std::string& what) {
  std::vector<int64_t> out;
  if (v.kind == CValue::Kind::Tuple) {
    for (size_t i = 0; i < v.elems.size(); ++i)
      out.push_back(int_arg(v.elems[i], loc, fmt::format("{} element {}", what, i)));
  } else {
    out.push_back(int_arg(v, loc, what));
  }
  return out;
}

CValues unwrap_iterable(const CValues& v) {
  if (v.size() == 1 && v[0].kind == CValue::Kind::Tuple) return v[0].elems;
  return v;
}

std::vector<int64_t> block_shape(const CValues& dims, SrcLoc loc) {
  std::vector<int64_t> out;
  int64_t numel = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i].kind != CValue::Kind::Int)
      fail(loc, fmt::format("shape element {} must have type `constexpr[int]`, got {}", i, dims[i].describe()));
    int64_t d = int_arg(dims[i], loc, "shape element");
    if (d <= 0 || (d & (d - 1)) != 0) fail(loc, fmt::format("shape element {} must be a power of 2 (got {})", i, d));
    numel *= d;
    if (numel > (int64_t{1} << 20))
      fail(loc, fmt::format("numel ({}) exceeds triton maximum tensor numel (1048576)", numel));
    out.push_back(d);
  }
  return out;
}

int wrap_axis(int64_t axis, int ndim, SrcLoc loc) {
  if (!(-ndim <= axis && axis < ndim))
    fail(loc, fmt::format("invalid axis {}. Expected {} <= axis < {}", axis, -ndim, ndim));
  return static_cast<int>(axis >= 0 ? axis : axis + ndim);
}

CValue shape_tuple(const ir::Type& t) {
  CValues dims;
  for (auto d : t.shape) dims.push_back(CValue::of_int(d));
  return CValue::of_tuple(std::move(dims));
}

ir::Value* math(BuiltinContext& ctx, ir::MathFn f, std::vector<ir::Value*> args, SrcLoc loc,
                std::optional<ir::Type> result) {
  ir::Type t = result ? *result : args.at(0)->type;
  return ctx.b.math(f, std::move(args), t, loc);
}

}  // namespace tritium::frontend::bi
