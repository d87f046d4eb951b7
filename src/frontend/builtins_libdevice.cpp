// libdevice.* (triton.language.extra.libdevice, the CUDA flavour of upstream 3.6): the
// functions with a tritium math function. As upstream's extern_elementwise, arguments are
// converted with their literal types, must match one of the function's signatures exactly
// (no promotion), and are broadcast together. Functions without a tritium implementation
// are refused by name.
#include <fmt/format.h>

#include "frontend/builtins_impl.h"

namespace tritium::frontend::bi {

using ir::MathFn;
using ir::ScalarType;

namespace {

enum class Result { Same, Bool, Int32 };
enum class Impl { Math, DivRn, Div, RcpRn, Finite, Binary, Bitcast, Llrint };

struct LibFn {
  const char* name;
  Impl impl;
  MathFn fn;
  int arity;
  std::vector<ScalarType> types;  // every argument has this type (one signature per entry)
  Result result;
  ir::OpKind op = ir::OpKind::Add;   // Impl::Binary: the correctly rounded IEEE operation
  ScalarType to = ScalarType::F32;  // Impl::Bitcast: the result type
};

const std::vector<LibFn>& table() {
  const std::vector<ScalarType> f = {ScalarType::F32, ScalarType::F64};
  const std::vector<ScalarType> f32 = {ScalarType::F32};
  const std::vector<ScalarType> f64 = {ScalarType::F64};
  const std::vector<ScalarType> i = {ScalarType::I32, ScalarType::I64};
  static const std::vector<LibFn> t = {
      {"floor", Impl::Math, MathFn::Floor, 1, f, Result::Same},
      {"ceil", Impl::Math, MathFn::Ceil, 1, f, Result::Same},
      {"trunc", Impl::Math, MathFn::Trunc, 1, f, Result::Same},
      {"round", Impl::Math, MathFn::Round, 1, f, Result::Same},
      {"rint", Impl::Math, MathFn::Rint, 1, f, Result::Same},
      {"nearbyint", Impl::Math, MathFn::Rint, 1, f, Result::Same},
      {"rsqrt", Impl::Math, MathFn::Rsqrt, 1, f, Result::Same},
      {"sqrt", Impl::Math, MathFn::Sqrt, 1, f, Result::Same},
      {"sqrt_rn", Impl::Math, MathFn::SqrtRn, 1, f, Result::Same},
      {"exp", Impl::Math, MathFn::Exp, 1, f, Result::Same},
      {"exp2", Impl::Math, MathFn::Exp2, 1, f, Result::Same},
      {"exp10", Impl::Math, MathFn::Exp10, 1, f, Result::Same},
      {"expm1", Impl::Math, MathFn::Expm1, 1, f, Result::Same},
      {"log", Impl::Math, MathFn::Log, 1, f, Result::Same},
      {"log2", Impl::Math, MathFn::Log2, 1, f, Result::Same},
      {"log10", Impl::Math, MathFn::Log10, 1, f, Result::Same},
      {"log1p", Impl::Math, MathFn::Log1p, 1, f, Result::Same},
      {"sin", Impl::Math, MathFn::Sin, 1, f, Result::Same},
      {"cos", Impl::Math, MathFn::Cos, 1, f, Result::Same},
      {"tan", Impl::Math, MathFn::Tan, 1, f, Result::Same},
      {"asin", Impl::Math, MathFn::Asin, 1, f, Result::Same},
      {"acos", Impl::Math, MathFn::Acos, 1, f, Result::Same},
      {"atan", Impl::Math, MathFn::Atan, 1, f, Result::Same},
      {"sinh", Impl::Math, MathFn::Sinh, 1, f, Result::Same},
      {"cosh", Impl::Math, MathFn::Cosh, 1, f, Result::Same},
      {"tanh", Impl::Math, MathFn::Tanh, 1, f, Result::Same},
      {"cbrt", Impl::Math, MathFn::Cbrt, 1, f, Result::Same},
      {"erf", Impl::Math, MathFn::Erf, 1, f, Result::Same},
      {"erfc", Impl::Math, MathFn::Erfc, 1, f, Result::Same},
      {"fast_expf", Impl::Math, MathFn::Exp, 1, f32, Result::Same},
      {"fast_logf", Impl::Math, MathFn::Log, 1, f32, Result::Same},
      {"atan2", Impl::Math, MathFn::Atan2, 2, f, Result::Same},
      {"copysign", Impl::Math, MathFn::Copysign, 2, f, Result::Same},
      {"hypot", Impl::Math, MathFn::Hypot, 2, f, Result::Same},
      {"fmod", Impl::Math, MathFn::Fmod, 2, f, Result::Same},
      {"pow", Impl::Math, MathFn::Pow, 2, f, Result::Same},
      {"fma", Impl::Math, MathFn::Fma, 3, f, Result::Same},
      {"abs", Impl::Math, MathFn::Abs, 1, {ScalarType::I32, ScalarType::I64, ScalarType::F32, ScalarType::F64},
       Result::Same},
      {"isnan", Impl::Math, MathFn::Isnan, 1, f, Result::Bool},
      {"isinf", Impl::Math, MathFn::Isinf, 1, f, Result::Bool},
      {"signbit", Impl::Math, MathFn::Signbit, 1, f, Result::Int32},
      {"finitef", Impl::Finite, MathFn::Isnan, 1, f32, Result::Bool},
      {"isfinited", Impl::Finite, MathFn::Isnan, 1, f64, Result::Bool},
      {"clz", Impl::Math, MathFn::Clz, 1, i, Result::Int32},
      {"popc", Impl::Math, MathFn::Popc, 1, i, Result::Int32},
      {"mulhi", Impl::Math, MathFn::Umulhi, 2, {ScalarType::U32, ScalarType::U64}, Result::Same},
      {"div_rn", Impl::DivRn, MathFn::Abs, 2, f, Result::Same},
      {"fast_dividef", Impl::Div, MathFn::Abs, 2, f32, Result::Same},
      {"rcp_rn", Impl::RcpRn, MathFn::Abs, 1, f, Result::Same},
      // The fast_* forms are approximations on NVIDIA (sin.approx, lg2.approx, ...);
      // tritium's accurate functions are within every bound those document.
      {"fast_sinf", Impl::Math, MathFn::Sin, 1, f32, Result::Same},
      {"fast_cosf", Impl::Math, MathFn::Cos, 1, f32, Result::Same},
      {"fast_tanf", Impl::Math, MathFn::Tan, 1, f32, Result::Same},
      {"fast_log2f", Impl::Math, MathFn::Log2, 1, f32, Result::Same},
      {"fast_log10f", Impl::Math, MathFn::Log10, 1, f32, Result::Same},
      {"fast_exp10f", Impl::Math, MathFn::Exp10, 1, f32, Result::Same},
      {"fast_powf", Impl::Math, MathFn::Pow, 2, f32, Result::Same},
      // Round-to-nearest arithmetic: tritium's + - * and fma already round to nearest (no
      // contraction), so these are those operations.
      {"add_rn", Impl::Binary, MathFn::Abs, 2, f, Result::Same, ir::OpKind::Add},
      {"sub_rn", Impl::Binary, MathFn::Abs, 2, f, Result::Same, ir::OpKind::Sub},
      {"mul_rn", Impl::Binary, MathFn::Abs, 2, f, Result::Same, ir::OpKind::Mul},
      {"fma_rn", Impl::Math, MathFn::Fma, 3, f, Result::Same},
      // Bit reinterpretations.
      {"float_as_int", Impl::Bitcast, MathFn::Abs, 1, f32, Result::Same, ir::OpKind::Add, ScalarType::I32},
      {"int_as_float", Impl::Bitcast, MathFn::Abs, 1, {ScalarType::I32}, Result::Same, ir::OpKind::Add, ScalarType::F32},
      {"float_as_uint", Impl::Bitcast, MathFn::Abs, 1, f32, Result::Same, ir::OpKind::Add, ScalarType::U32},
      {"uint_as_float", Impl::Bitcast, MathFn::Abs, 1, {ScalarType::U32}, Result::Same, ir::OpKind::Add, ScalarType::F32},
      {"double_as_longlong", Impl::Bitcast, MathFn::Abs, 1, f64, Result::Same, ir::OpKind::Add, ScalarType::I64},
      {"longlong_as_double", Impl::Bitcast, MathFn::Abs, 1, {ScalarType::I64}, Result::Same, ir::OpKind::Add,
       ScalarType::F64},
      // Round to nearest even, then int64 (tritium's float -> int conversion: out of range
      // saturates, NaN gives 0; CUDA leaves those undefined).
      {"llrint", Impl::Llrint, MathFn::Rint, 1, f, Result::Same},
  };
  return t;
}

// Signatures libdevice has that tritium refuses (rather than computing something else).
std::string refused_signature(const std::string& name, const std::vector<ir::Value*>& args) {
  if (name == "pow" && args.size() == 2 && args[1]->type.scalar == ScalarType::I32)
    return "libdevice.pow with an int32 exponent (__nv_powi) is not supported yet";
  if (name == "mulhi" && args.size() == 2 && sem::tt_signed(args[0]->type.scalar))
    return "libdevice.mulhi on signed integers is not supported yet";
  return "";
}

CValue call_lib(BuiltinContext& ctx, const LibFn& f, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  std::string name = std::string("libdevice.") + f.name;
  if (!kw.empty()) fail(loc, name + "() takes no keyword arguments");
  if (static_cast<int>(args.size()) != f.arity)
    fail(loc, fmt::format("{}() takes {} argument{} but {} were given", name, f.arity, f.arity == 1 ? "" : "s",
                          args.size()));
  std::vector<ir::Value*> v;
  for (auto& a : args) v.push_back(tensor_arg(ctx, a, loc, name + " argument"));
  std::string refused = refused_signature(f.name, v);
  if (!refused.empty()) fail(loc, refused);
  ScalarType t = v[0]->type.scalar;
  bool ok = !v[0]->type.is_ptr && std::find(f.types.begin(), f.types.end(), t) != f.types.end();
  for (auto* x : v) ok = ok && !x->type.is_ptr && x->type.scalar == t;
  if (!ok) {
    std::vector<std::string> got, want;
    for (auto* x : v) got.push_back(sem::tt_name(x->type.element()));
    for (auto w : f.types) want.push_back(sem::tt_name(w));
    fail(loc, fmt::format("{}: input arg types ({}) do not match; every argument must be one of [{}]", name,
                          fmt::join(got, ", "), fmt::join(want, ", ")));
  }
  for (size_t i = 1; i < v.size(); ++i) sem::broadcast_pair(ctx.b, v[0], v[i], loc);
  for (size_t i = 1; i < v.size(); ++i)
    if (v[i]->type.shape != v[0]->type.shape) v[i] = sem::broadcast_to(ctx.b, v[i], v[0]->type.shape, loc);
  ir::Type ty = v[0]->type;
  ir::Builder& b = ctx.b;
  switch (f.impl) {
    case Impl::DivRn:
      return CValue::of_tensor(b.create(ir::OpKind::Div, {v[0], v[1]}, {ty}, loc, {{"rounding", std::string("rn")}})->result());
    case Impl::Div: return CValue::of_tensor(b.binary(ir::OpKind::Div, v[0], v[1], loc));
    case Impl::RcpRn: {
      ir::Value* one = sem::const_int(b, ty, 1, loc);
      return CValue::of_tensor(b.create(ir::OpKind::Div, {one, v[0]}, {ty}, loc, {{"rounding", std::string("rn")}})->result());
    }
    case Impl::Finite: {
      ir::Type bt = ty.with_scalar(ScalarType::I1);
      ir::Value* bad = b.binary(ir::OpKind::Or, math(ctx, MathFn::Isnan, {v[0]}, loc, bt),
                                math(ctx, MathFn::Isinf, {v[0]}, loc, bt), loc);
      return CValue::of_tensor(b.unary(ir::OpKind::Not, bad, loc));
    }
    case Impl::Binary: return CValue::of_tensor(b.binary(f.op, v[0], v[1], loc));
    case Impl::Bitcast: return CValue::of_tensor(sem::bitcast(b, v[0], ty.with_scalar(f.to), loc));
    case Impl::Llrint:
      return CValue::of_tensor(sem::cast(b, math(ctx, MathFn::Rint, v, loc), ty.with_scalar(ScalarType::I64), loc));
    case Impl::Math: break;
  }
  if (f.result == Result::Bool) return CValue::of_tensor(math(ctx, f.fn, v, loc, ty.with_scalar(ScalarType::I1)));
  if (f.result == Result::Int32) {
    if (f.fn == MathFn::Signbit) {
      ir::Value* s = math(ctx, f.fn, v, loc, ty.with_scalar(ScalarType::I1));
      return CValue::of_tensor(sem::cast(b, s, ty.with_scalar(ScalarType::I32), loc));  // 0 / 1
    }
    ir::Value* r = math(ctx, f.fn, v, loc);  // clz / popc in the operand's width, then int32
    return CValue::of_tensor(sem::cast(b, r, ty.with_scalar(ScalarType::I32), loc));
  }
  ir::Value* r = math(ctx, f.fn, v, loc);
  // libdevice.exp / exp2 are __nv_expf / __nv_exp2f upstream (accurate to ~2 ulp), not the
  // approximate instruction tl.exp becomes in native numerics on NVIDIA GPUs (c_expr.h).
  if ((f.fn == MathFn::Exp || f.fn == MathFn::Exp2) && r->def) r->def->attrs["precise"] = int64_t{1};
  return CValue::of_tensor(r);
}

}  // namespace

void register_libdevice(Registry& r) {
  for (const auto& f : table()) {
    const LibFn* p = &f;
    r[std::string("libdevice.") + f.name] = [p](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
      return call_lib(c, *p, std::move(a), std::move(k), l);
    };
  }
}

}  // namespace tritium::frontend::bi
