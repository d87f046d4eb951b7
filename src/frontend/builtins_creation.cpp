// Program info and tensor creation: tl.program_id, tl.num_programs, tl.arange, tl.full,
// tl.zeros, tl.zeros_like; dtype constructors (tl.pointer_type) and tl.constexpr(value).
// Upstream: core.py (program_id, arange, full), semantic.py (arange, full, make_scalar),
// standard.py (zeros, zeros_like).
#include <fmt/format.h>

#include "frontend/builtins_impl.h"

namespace tritium::frontend::bi {

namespace {

CValue program_info(BuiltinContext& ctx, ir::OpKind k, const char* name, CValues args, std::vector<KwArg> kw,
                    SrcLoc loc) {
  Args a(name, std::move(args), std::move(kw), {req("axis")}, loc);
  int64_t axis = int_arg(a["axis"], loc, std::string(name) + " axis");
  if (axis < 0 || axis > 2) fail(loc, fmt::format("{} axis must be 0, 1, or 2 but got {}", name, axis));
  return CValue::of_tensor(
      ctx.b.create(k, {}, {ir::Type::of(ir::ScalarType::I32)}, loc, {{"axis", axis}})->result());
}

CValue arange(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("arange", std::move(args), std::move(kw), {req("start"), req("end")}, loc);
  if (a["start"].kind != CValue::Kind::Int || a["end"].kind != CValue::Kind::Int)
    fail(loc, "arange's arguments must be of type tl.constexpr (got " + a["start"].describe() + ", " +
                  a["end"].describe() + ")");
  __int128 start = sem::int_value(a["start"]), end = sem::int_value(a["end"]);
  if ((start >> 32) != 0 || (end >> 32) != 0) fail(loc, "arange must fit in int32");
  if (end <= start) fail(loc, "arange's end argument must be greater than the start argument");
  __int128 range = end - start;
  if ((range & (range - 1)) != 0)
    fail(loc, fmt::format("arange's range must be a power of 2 (got {})", static_cast<int64_t>(range)));
  if (range > (1 << 20)) fail(loc, fmt::format("numel ({}) exceeds triton maximum tensor numel (1048576)",
                                               static_cast<int64_t>(range)));
  auto s = static_cast<int64_t>(start), e = static_cast<int64_t>(end);
  ir::Type t = ir::Type::tensor(ir::ScalarType::I32, {e - s});
  return CValue::of_tensor(ctx.b.create(ir::OpKind::MakeRange, {}, {t}, loc, {{"start", s}, {"end", e}})->result());
}

// upstream semantic.full: splat(make_scalar(value, dtype), shape).
ir::Value* full_value(BuiltinContext& ctx, const std::vector<int64_t>& shape, const CValue& value,
                      const ir::Type& dtype, SrcLoc loc) {
  ir::Value* scalar = nullptr;
  if (dtype.is_ptr) fail(loc, "tl.full of a pointer type is not supported");
  if (value.kind == CValue::Kind::Tensor) {
    if (value.tensor->type.is_tensor())
      fail(loc, "tl.full needs a scalar value, got a tensor of shape " + sem::tt_name(value.tensor->type));
    scalar = sem::cast(ctx.b, value.tensor, dtype, loc);
  } else if (value.kind == CValue::Kind::Int || value.kind == CValue::Kind::Float ||
             value.kind == CValue::Kind::Bool) {
    bool is_zero = value.kind == CValue::Kind::Float ? value.f == 0.0 : sem::int_value(value) == 0;
    ir::ScalarType t = dtype.scalar;
    if (is_zero) {
      scalar = sem::const_int(ctx.b, ir::Type::of(t), 0, loc);  // upstream get_null_value
    } else if (ir::is_int(t)) {
      if (value.kind == CValue::Kind::Float)
        fail(loc, fmt::format("cannot fill a {} tensor with the float {}", sem::tt_name(t), value.f));
      __int128 v = sem::int_value(value);
      if (t == ir::ScalarType::I1) v = v != 0;
      if (v < sem::int_min(t) || v > sem::int_max(t))
        fail(loc, fmt::format("value {} is out of range for type {}", static_cast<int64_t>(v), sem::tt_name(t)));
      scalar = sem::constant(ctx.b, sem::make_int(v, loc), t, loc);
    } else {
      scalar = sem::constant(ctx.b, value, t, loc);
    }
  } else {
    fail(loc, "tl.full value must be a scalar, got " + value.describe());
  }
  return shape.empty() ? scalar : ctx.b.splat(scalar, shape, loc);
}

std::vector<int64_t> shape_of(const CValue& v, SrcLoc loc) {
  if (v.kind == CValue::Kind::Tuple) return block_shape(v.elems, loc);
  return block_shape({v}, loc);
}

CValue full(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("full", std::move(args), std::move(kw), {req("shape"), req("value"), req("dtype")}, loc);
  auto shape = shape_of(a["shape"], loc);
  return CValue::of_tensor(full_value(ctx, shape, a["value"], dtype_arg(a["dtype"], loc, "tl.full dtype"), loc));
}

CValue zeros(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("zeros", std::move(args), std::move(kw), {req("shape"), req("dtype")}, loc);
  auto shape = shape_of(a["shape"], loc);
  return CValue::of_tensor(
      full_value(ctx, shape, CValue::of_int(0), dtype_arg(a["dtype"], loc, "tl.zeros dtype"), loc));
}

CValue zeros_like(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("zeros_like", std::move(args), std::move(kw), {req("input")}, loc);
  ir::Value* x = tensor_only(a["input"], loc, "tl.zeros_like input");
  return CValue::of_tensor(full_value(ctx, x->type.shape, CValue::of_int(0), x->type.element(), loc));
}

CValue pointer_type(BuiltinContext&, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("pointer_type", std::move(args), std::move(kw), {req("element_ty"), opt("address_space", CValue::of_int(1))},
         loc);
  ir::Type t = dtype_arg(a["element_ty"], loc, "tl.pointer_type element_ty");
  if (t.is_ptr) fail(loc, "pointers to pointers are not supported");
  if (int_arg(a["address_space"], loc, "address_space") != 1) fail(loc, "only address space 1 is supported");
  return CValue::of_dtype(ir::Type::ptr(t.scalar));
}

CValue constexpr_call(BuiltinContext&, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("constexpr", std::move(args), std::move(kw), {req("value")}, loc);
  if (a["value"].kind == CValue::Kind::Tensor) fail(loc, "tl.constexpr() of a run-time value");
  return a["value"];
}

CValue refuse_marker(const std::string& name, SrcLoc loc) {
  fail(loc, display_name(name) + " cannot be called in a kernel");
}

}  // namespace

void register_creation(Registry& r) {
  r["program_id"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return program_info(c, ir::OpKind::ProgramId, "program_id", std::move(a), std::move(k), l);
  };
  r["num_programs"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return program_info(c, ir::OpKind::NumPrograms, "num_programs", std::move(a), std::move(k), l);
  };
  r["arange"] = arange;
  r["full"] = full;
  r["zeros"] = zeros;
  r["zeros_like"] = zeros_like;
  r["pointer_type"] = pointer_type;
  r["constexpr"] = constexpr_call;
  for (const char* m : {"const", "tensor", "dtype", "triton.jit"}) {
    std::string name = m;
    r[name] = [name](BuiltinContext&, CValues, std::vector<KwArg>, SrcLoc l) { return refuse_marker(name, l); };
  }
}

}  // namespace tritium::frontend::bi
