// Elementwise math and arithmetic builtins: tl.exp ... tl.ceil, abs, fdiv, div_rn, fma,
// umulhi (upstream math.py), where / maximum / minimum / clamp / add / sub / mul / cast
// (core.py), cdiv / sigmoid / softmax / swizzle2d (standard.py, composed from the same
// operators as upstream), triton.cdiv and triton.next_power_of_2.
#include <fmt/format.h>

#include <set>

#include "frontend/builtins_impl.h"

namespace tritium::frontend::bi {

using ir::MathFn;
using ir::ScalarType;

namespace {

KwArg kwarg(std::string name, CValue v) { return KwArg{std::move(name), std::make_shared<CValue>(std::move(v))}; }

struct UnaryMath {
  const char* name;
  MathFn fn;
  bool fp64_ok;  // false: fp32 only (sqrt_rn)
};
constexpr UnaryMath kUnary[] = {
    {"exp", MathFn::Exp, true},     {"exp2", MathFn::Exp2, true},   {"log", MathFn::Log, true},
    {"log2", MathFn::Log2, true},   {"cos", MathFn::Cos, true},     {"sin", MathFn::Sin, true},
    {"sqrt", MathFn::Sqrt, true},   {"rsqrt", MathFn::Rsqrt, true}, {"erf", MathFn::Erf, true},
    {"floor", MathFn::Floor, true}, {"ceil", MathFn::Ceil, true},   {"sqrt_rn", MathFn::SqrtRn, false},
};

const UnaryMath* find_unary(const std::string& n) {
  for (const auto& u : kUnary)
    if (n == u.name) return &u;
  return nullptr;
}

// upstream math._check_dtype: tensor arguments must have one of the listed dtypes.
void check_dtype(const CValue& v, std::initializer_list<ScalarType> ok, const std::string& fn, SrcLoc loc) {
  if (v.kind != CValue::Kind::Tensor) return;
  ScalarType t = v.tensor->type.scalar;
  for (auto o : ok)
    if (t == o && !v.tensor->type.is_ptr) return;
  std::vector<std::string> names;
  for (auto o : ok) names.push_back(sem::tt_name(o));
  fail(loc, fmt::format("{} expected dtype [{}] but got {}", display_name(fn), fmt::join(names, ", "),
                        sem::tt_name(v.tensor->type.element())));
}

ir::Value* unary_math(BuiltinContext& ctx, const UnaryMath& u, const CValue& arg, SrcLoc loc) {
  if (u.fp64_ok) check_dtype(arg, {ScalarType::F32, ScalarType::F64}, u.name, loc);
  else check_dtype(arg, {ScalarType::F32}, u.name, loc);
  ir::Value* x = tensor_arg(ctx, arg, loc, std::string("tl.") + u.name + " argument");
  if (!x->type.is_float())
    fail(loc, fmt::format("tl.{} needs a floating-point argument, got {}", u.name, sem::tt_name(x->type.element())));
  return math(ctx, u.fn, {x}, loc);
}

ir::Value* abs_value(BuiltinContext& ctx, ir::Value* x, SrcLoc loc) {
  ScalarType t = x->type.scalar;
  if (x->type.is_ptr) fail(loc, "tl.abs of a pointer");
  if (t == ScalarType::F8E4B15) fail(loc, "tl.abs of fp8e4b15 is not supported yet");
  if (sem::tt_unsigned(t)) return x;  // no-op, as upstream
  return math(ctx, MathFn::Abs, {x}, loc);
}

bool parse_propagate_nan(const CValue& v, SrcLoc loc) {
  if (v.kind == CValue::Kind::Str && v.s == "PropagateNan.ALL") return true;
  if (v.kind == CValue::Kind::Str && v.s == "PropagateNan.NONE") return false;
  fail(loc, "unexpected propagate_nan " + v.describe() + " (use tl.PropagateNan.ALL or tl.PropagateNan.NONE)");
}

// upstream _promote_bfloat16_to_float32
ir::Value* bf16_to_fp32(BuiltinContext& ctx, ir::Value* v, SrcLoc loc) {
  if (!v->type.is_ptr && v->type.scalar == ScalarType::BF16)
    return sem::cast(ctx.b, v, ir::Type::of(ScalarType::F32), loc);
  return v;
}

CValue minmax(BuiltinContext& ctx, bool is_max, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  const char* name = is_max ? "maximum" : "minimum";
  Args a(name, std::move(args), std::move(kw),
         {req("x"), req("y"), opt("propagate_nan", CValue::of_str("PropagateNan.NONE"))}, loc);
  ir::Value* x = bf16_to_fp32(ctx, tensor_arg(ctx, a["x"], loc, "x"), loc);
  ir::Value* y = bf16_to_fp32(ctx, tensor_arg(ctx, a["y"], loc, "y"), loc);
  bool pn = parse_propagate_nan(a["propagate_nan"], loc);
  return CValue::of_tensor(sem::minmax(ctx.b, is_max, sem::operand(x), sem::operand(y), pn, loc));
}

CValue clamp(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("clamp", std::move(args), std::move(kw),
         {req("x"), req("min"), req("max"), opt("propagate_nan", CValue::of_str("PropagateNan.NONE"))}, loc);
  ir::Value* x = bf16_to_fp32(ctx, tensor_arg(ctx, a["x"], loc, "x"), loc);
  ir::Value* lo = bf16_to_fp32(ctx, tensor_arg(ctx, a["min"], loc, "min"), loc);
  ir::Value* hi = bf16_to_fp32(ctx, tensor_arg(ctx, a["max"], loc, "max"), loc);
  bool pn = parse_propagate_nan(a["propagate_nan"], loc);
  std::tie(lo, hi) = sem::check_binary(ctx.b, sem::operand(lo), sem::operand(hi), loc, false, false, true, false, "clamp");
  std::tie(x, lo) = sem::check_binary(ctx.b, sem::operand(x), sem::operand(lo), loc, false, false, true, false, "clamp");
  std::tie(x, hi) = sem::check_binary(ctx.b, sem::operand(x), sem::operand(hi), loc, false, false, true, false, "clamp");
  if (!x->type.is_float())
    fail(loc, "unexpected dtype " + sem::tt_name(x->type.element()) + ". Only floating point clamp is supported");
  // max then min (NaN in x: NONE gives min, ALL gives NaN; min > max is undefined upstream).
  if (lo->type.shape != x->type.shape) lo = sem::broadcast_to(ctx.b, lo, x->type.shape, loc);
  if (hi->type.shape != x->type.shape) hi = sem::broadcast_to(ctx.b, hi, x->type.shape, loc);
  int64_t p = pn ? 1 : 0;
  ir::Value* m = ctx.b.create(ir::OpKind::Max, {x, lo}, {x->type}, loc, {{"propagate_nan", p}})->result();
  return CValue::of_tensor(ctx.b.create(ir::OpKind::Min, {m, hi}, {x->type}, loc, {{"propagate_nan", p}})->result());
}

CValue arith(BuiltinContext& ctx, BinOp op, const char* name, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a(name, std::move(args), std::move(kw), {req("x"), req("y"), opt("sanitize_overflow", CValue::of_bool(true))},
         loc);
  sem::Operand x = sem::operand(a["x"], loc, "x"), y = sem::operand(a["y"], loc, "y");
  bool s = bool_arg(a["sanitize_overflow"], loc, "sanitize_overflow") && ctx.opts.debug;
  if (op == BinOp::Add) return CValue::of_tensor(sem::add(ctx.b, x, y, loc, s));
  if (op == BinOp::Sub) return CValue::of_tensor(sem::sub(ctx.b, x, y, loc, s));
  return CValue::of_tensor(sem::mul(ctx.b, x, y, loc, s));
}

CValue cast(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("cast", std::move(args), std::move(kw),
         {req("input"), req("dtype"), opt("fp_downcast_rounding"), opt("bitcast", CValue::of_bool(false))}, loc);
  ir::Value* x = tensor_arg(ctx, a["input"], loc, "cast input");
  ir::Type t = dtype_arg(a["dtype"], loc, "cast dtype");
  if (bool_arg(a["bitcast"], loc, "bitcast")) return CValue::of_tensor(sem::bitcast(ctx.b, x, t, loc));
  std::string rounding = a.has("fp_downcast_rounding") ? str_arg(a["fp_downcast_rounding"], loc, "fp_downcast_rounding") : "";
  return CValue::of_tensor(sem::cast(ctx.b, x, t, loc, rounding));
}

CValue where(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("where", std::move(args), std::move(kw), {req("condition"), req("x"), req("y")}, loc);
  ir::Value* c = tensor_arg(ctx, a["condition"], loc, "where condition");
  sem::Operand x = sem::operand(a["x"], loc, "where x"), y = sem::operand(a["y"], loc, "where y");
  return CValue::of_tensor(sem::where(ctx.b, c, x, y, loc));
}

CValue fdiv(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("fdiv", std::move(args), std::move(kw), {req("x"), req("y"), opt("ieee_rounding", CValue::of_bool(false))},
         loc);
  bool ieee = bool_arg(a["ieee_rounding"], loc, "ieee_rounding");
  ir::Value* x = tensor_arg(ctx, a["x"], loc, "fdiv x");
  ir::Value* y = tensor_arg(ctx, a["y"], loc, "fdiv y");
  return CValue::of_tensor(sem::fdiv(ctx.b, x, y, ieee, loc));
}

CValue div_rn(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("div_rn", std::move(args), std::move(kw), {req("x"), req("y")}, loc);
  check_dtype(a["x"], {ScalarType::F32}, "div_rn", loc);
  check_dtype(a["y"], {ScalarType::F32}, "div_rn", loc);
  ir::Value* x = tensor_arg(ctx, a["x"], loc, "div_rn x");
  ir::Value* y = tensor_arg(ctx, a["y"], loc, "div_rn y");
  std::tie(x, y) = sem::check_binary(ctx.b, sem::operand(x), sem::operand(y), loc, false, false, true, false, "div_rn");
  if (!x->type.is_float()) fail(loc, "tl.div_rn needs floating-point operands, got " + sem::tt_name(x->type.element()));
  return CValue::of_tensor(ctx.b.create(ir::OpKind::Div, {x, y}, {x->type}, loc, {{"rounding", std::string("rn")}})->result());
}

CValue fma(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("fma", std::move(args), std::move(kw), {req("x"), req("y"), req("z")}, loc);
  ir::Value* x = tensor_arg(ctx, a["x"], loc, "fma x");
  ir::Value* y = tensor_arg(ctx, a["y"], loc, "fma y");
  ir::Value* z = tensor_arg(ctx, a["z"], loc, "fma z");
  auto chk = [&](ir::Value*& p, ir::Value*& q) {
    std::tie(p, q) = sem::check_binary(ctx.b, sem::operand(p), sem::operand(q), loc, false, false, true, false, "fma");
  };
  chk(x, y);
  chk(z, x);
  chk(z, y);
  if (!x->type.is_float()) fail(loc, "tl.fma needs floating-point operands, got " + sem::tt_name(x->type.element()));
  return CValue::of_tensor(math(ctx, MathFn::Fma, {x, y, z}, loc));
}

CValue umulhi(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("umulhi", std::move(args), std::move(kw), {req("x"), req("y")}, loc);
  for (const char* n : {"x", "y"})
    check_dtype(a[n], {ScalarType::I32, ScalarType::I64, ScalarType::U32, ScalarType::U64}, "umulhi", loc);
  ir::Value* x = tensor_arg(ctx, a["x"], loc, "umulhi x");
  ir::Value* y = tensor_arg(ctx, a["y"], loc, "umulhi y");
  std::tie(x, y) = sem::check_binary(ctx.b, sem::operand(x), sem::operand(y), loc, false, false, true, false, "umulhi");
  ScalarType t = x->type.scalar;
  if (!x->type.is_int() || ir::bitwidth(t) < 32)
    fail(loc, "tl.umulhi needs 32- or 64-bit integer operands, got " + sem::tt_name(t));
  if (sem::tt_unsigned(t)) return CValue::of_tensor(math(ctx, MathFn::Umulhi, {x, y}, loc));
  // Upstream emits an unsigned high multiply on the bits of signed operands.
  ir::Type u = x->type.with_scalar(ir::bitwidth(t) == 32 ? ScalarType::U32 : ScalarType::U64);
  ir::Value* r = math(ctx, MathFn::Umulhi, {ctx.b.bitcast(x, u, loc), ctx.b.bitcast(y, u, loc)}, loc);
  return CValue::of_tensor(ctx.b.bitcast(r, x->type, loc));
}

CValue abs_builtin(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("abs", std::move(args), std::move(kw), {req("x")}, loc);
  return CValue::of_tensor(abs_value(ctx, tensor_arg(ctx, a["x"], loc, "tl.abs argument"), loc));
}

CValue cdiv(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("cdiv", std::move(args), std::move(kw), {req("x"), req("div")}, loc);
  // standard.py: (x + (div - 1)) // div
  CValue dm1 = binary_op(ctx, BinOp::Sub, a["div"], CValue::of_int(1), loc);
  return binary_op(ctx, BinOp::FloorDiv, binary_op(ctx, BinOp::Add, a["x"], dm1, loc), a["div"], loc);
}

CValue host_cdiv(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("triton.cdiv", std::move(args), std::move(kw), {req("x"), req("y")}, loc);
  // triton/__init__.py: (x + y - 1) // y
  CValue s = binary_op(ctx, BinOp::Sub, binary_op(ctx, BinOp::Add, a["x"], a["y"], loc), CValue::of_int(1), loc);
  return binary_op(ctx, BinOp::FloorDiv, s, a["y"], loc);
}

CValue next_power_of_2(BuiltinContext&, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("triton.next_power_of_2", std::move(args), std::move(kw), {req("n")}, loc);
  __int128 n = sem::int_value(CValue::of_int(int_arg(a["n"], loc, "triton.next_power_of_2 argument")));
  n -= 1;
  for (int s : {1, 2, 4, 8, 16, 32}) n |= n >> s;
  return sem::make_int(n + 1, loc);
}

CValue sigmoid(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("sigmoid", std::move(args), std::move(kw), {req("x")}, loc);
  // standard.py: 1 / (1 + math.exp(-x))  (math.exp checks fp32/fp64)
  CValue neg = unary_op(ctx, UnaryOp::USub, a["x"], loc);
  CValue e = call_builtin(ctx, "exp", {neg}, {}, loc);
  return binary_op(ctx, BinOp::Div, CValue::of_int(1), binary_op(ctx, BinOp::Add, CValue::of_int(1), e, loc), loc);
}

CValue softmax(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("softmax", std::move(args), std::move(kw),
         {req("x"), opt("dim"), opt("keep_dims", CValue::of_bool(false)), opt("ieee_rounding", CValue::of_bool(false))},
         loc);
  // standard.py: dim None means 0 (not "all axes").
  CValue dim = a.has("dim") ? a["dim"] : CValue::of_int(0);
  CValue z = binary_op(ctx, BinOp::Sub, a["x"],
                       call_builtin(ctx, "max", {a["x"], dim}, {kwarg("keep_dims", a["keep_dims"])}, loc), loc);
  CValue num = call_builtin(ctx, "exp", {z}, {}, loc);
  CValue den = call_builtin(ctx, "sum", {num, dim}, {kwarg("keep_dims", a["keep_dims"])}, loc);
  return call_builtin(ctx, "fdiv", {num, den, a["ieee_rounding"]}, {}, loc);
}

CValue swizzle2d(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("swizzle2d", std::move(args), std::move(kw), {req("i"), req("j"), req("size_i"), req("size_j"), req("size_g")},
         loc);
  auto op = [&](BinOp o, const CValue& x, const CValue& y) { return binary_op(ctx, o, x, y, loc); };
  CValue ij = op(BinOp::Add, op(BinOp::Mul, a["i"], a["size_j"]), a["j"]);
  CValue size_gj = op(BinOp::Mul, a["size_g"], a["size_j"]);
  CValue group_id = op(BinOp::FloorDiv, ij, size_gj);
  CValue off_i = op(BinOp::Mul, group_id, a["size_g"]);
  CValue size_g = call_builtin(ctx, "minimum", {op(BinOp::Sub, a["size_i"], off_i), a["size_g"]}, {}, loc);
  ij = op(BinOp::Mod, ij, size_gj);
  CValue new_i = op(BinOp::Add, off_i, op(BinOp::Mod, ij, size_g));
  CValue new_j = op(BinOp::FloorDiv, ij, size_g);
  return CValue::of_tuple({new_i, new_j});
}

}  // namespace

bool is_math_method(const std::string& name) { return name == "abs" || find_unary(name) != nullptr; }

CValue call_math_method(BuiltinContext& ctx, const std::string& name, const CValue& self, SrcLoc loc) {
  ir::Value* x = tensor_arg(ctx, self, loc, "receiver of ." + name + "()");
  if (name == "abs") return CValue::of_tensor(abs_value(ctx, x, loc));
  const UnaryMath* u = find_unary(name);
  if (!x->type.is_float() || ir::is_fp8(x->type.scalar))
    fail(loc, fmt::format("x.{}() needs a floating-point tensor, got {}", name, sem::tt_name(x->type.element())));
  // The method form skips math.py's dtype check (upstream registers the unchecked function
  // as the method); fp16/bf16 compute in fp32 and round back, as the GPU lowering does.
  ScalarType t = x->type.scalar;
  if (t == ScalarType::F16 || t == ScalarType::BF16) {
    ir::Value* w = sem::cast(ctx.b, x, ir::Type::of(ScalarType::F32), loc);
    return CValue::of_tensor(sem::cast(ctx.b, math(ctx, u->fn, {w}, loc), ir::Type::of(t), loc));
  }
  return CValue::of_tensor(math(ctx, u->fn, {x}, loc));
}

void register_math(Registry& r) {
  for (const auto& u : kUnary) {
    const UnaryMath* p = &u;
    r[u.name] = [p](BuiltinContext& c, CValues args, std::vector<KwArg> kw, SrcLoc l) {
      Args a(p->name, std::move(args), std::move(kw), {req("x")}, l);
      return CValue::of_tensor(unary_math(c, *p, a["x"], l));
    };
  }
  r["abs"] = abs_builtin;
  r["fdiv"] = fdiv;
  r["div_rn"] = div_rn;
  r["fma"] = fma;
  r["umulhi"] = umulhi;
  r["where"] = where;
  r["maximum"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return minmax(c, true, std::move(a), std::move(k), l);
  };
  r["minimum"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return minmax(c, false, std::move(a), std::move(k), l);
  };
  r["clamp"] = clamp;
  r["add"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return arith(c, BinOp::Add, "add", std::move(a), std::move(k), l);
  };
  r["sub"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return arith(c, BinOp::Sub, "sub", std::move(a), std::move(k), l);
  };
  r["mul"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return arith(c, BinOp::Mul, "mul", std::move(a), std::move(k), l);
  };
  r["cast"] = cast;
  r["cdiv"] = cdiv;
  r["triton.cdiv"] = host_cdiv;
  r["triton.next_power_of_2"] = next_power_of_2;
  r["sigmoid"] = sigmoid;
  r["softmax"] = softmax;
  r["swizzle2d"] = swizzle2d;
}

}  // namespace tritium::frontend::bi
