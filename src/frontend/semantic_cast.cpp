// Shapes and conversions: broadcasting, expand_dims, reshape, cast, bitcast, and the
// operand type checking shared by every binary operator (upstream broadcast_impl_*,
// cast, bitcast, binary_op_type_checking_impl).
#include <fmt/format.h>

#include "frontend/semantic.h"

namespace tritium::frontend::sem {

using ir::ScalarType;
using ir::Type;

namespace {

std::string shape_str(const std::vector<int64_t>& s) { return fmt::format("[{}]", fmt::join(s, ", ")); }

// x != 0 (upstream's int/float → int1 conversion).
ir::Value* not_zero(ir::Builder& b, ir::Value* v, SrcLoc loc) {
  ir::Value* zero = const_int(b, v->type, 0, loc);
  return b.cmp("ne", v, zero, loc);
}

}  // namespace

ir::Value* broadcast_to(ir::Builder& b, ir::Value* v, const std::vector<int64_t>& shape, SrcLoc loc) {
  if (v->type.is_scalar()) return shape.empty() ? v : b.splat(v, shape, loc);
  const auto& src = v->type.shape;
  if (src.size() != shape.size())
    throw CompileError(loc, fmt::format("cannot broadcast, rank mismatch: {}, {}", shape_str(src), shape_str(shape)));
  if (src == shape) return v;
  for (size_t i = 0; i < src.size(); ++i)
    if (shape[i] != src[i] && src[i] != 1)
      throw CompileError(loc, fmt::format("cannot broadcast, the expanded size of the tensor ({}) must match the "
                                          "existing size ({}) at non-singleton dimension {}: {}, {}",
                                          shape[i], src[i], i, shape_str(src), shape_str(shape)));
  return b.broadcast(v, shape, loc);
}

void broadcast_pair(ir::Builder& b, ir::Value*& x, ir::Value*& y, SrcLoc loc) {
  bool xt = x->type.is_tensor(), yt = y->type.is_tensor();
  if (xt && !yt) {
    y = b.splat(y, x->type.shape, loc);
  } else if (!xt && yt) {
    x = b.splat(x, y->type.shape, loc);
  } else if (xt && yt) {
    while (x->type.rank() < y->type.rank()) x = b.expand_dims(x, 0, loc);
    while (y->type.rank() < x->type.rank()) y = b.expand_dims(y, 0, loc);
    const auto& xs = x->type.shape;
    const auto& ys = y->type.shape;
    std::vector<int64_t> out;
    for (size_t i = 0; i < xs.size(); ++i) {
      if (xs[i] == 1) out.push_back(ys[i]);
      else if (ys[i] == 1 || ys[i] == xs[i]) out.push_back(xs[i]);
      else
        throw CompileError(loc, fmt::format("cannot make shapes compatible: incompatible dimensions at index {}: "
                                            "{} and {}",
                                            i, xs[i], ys[i]));
    }
    if (xs != out) x = b.broadcast(x, out, loc);
    if (ys != out) y = b.broadcast(y, out, loc);
  }
}

ir::Value* expand_dims(ir::Builder& b, ir::Value* v, int axis, SrcLoc loc) {
  if (v->type.is_scalar()) {
    if (axis != 0) throw CompileError(loc, fmt::format("invalid axis {} to expand a scalar", axis));
    return b.splat(v, {1}, loc);
  }
  if (axis < 0 || axis > v->type.rank())
    throw CompileError(loc, fmt::format("invalid axis {} to expand a tensor of rank {}", axis, v->type.rank()));
  return b.expand_dims(v, axis, loc);
}

ir::Value* reshape(ir::Builder& b, ir::Value* v, const std::vector<int64_t>& shape, bool can_reorder, SrcLoc loc) {
  int64_t n = 1;
  for (auto d : shape) n *= d;
  if (n != v->type.numel()) throw CompileError(loc, "reshape() cannot change the total number of elements of a tensor");
  if (shape == v->type.shape) return v;
  if (v->type.is_scalar()) return b.splat(v, shape, loc);
  return b.create(ir::OpKind::Reshape, {v}, {v->type.with_shape(shape)}, loc,
                  {{"can_reorder", static_cast<int64_t>(can_reorder ? 1 : 0)}})
      ->result();
}

ir::Value* cast(ir::Builder& b, ir::Value* v, const Type& to_in, SrcLoc loc, const std::string& rounding) {
  const Type& src = v->type;
  Type dst = to_in.with_shape(src.shape);
  ScalarType s = src.scalar, d = dst.scalar;
  if (src.is_ptr == dst.is_ptr && s == d) return v;  // same scalar type: no-op (rounding ignored, as upstream)
  if (!rounding.empty() && rounding != "rtne" && rounding != "rtz")
    throw CompileError(loc, "invalid rounding mode: " + rounding + ". Supported rounding modes are 'rtne' and 'rtz'.");
  bool fp_src = !src.is_ptr && ir::is_float(s), fp_dst = !dst.is_ptr && ir::is_float(d);
  bool int_src = !src.is_ptr && ir::is_int(s), int_dst = !dst.is_ptr && ir::is_int(d);
  bool truncating = fp_src && fp_dst && ir::bitwidth(d) < ir::bitwidth(s);
  if (!truncating && !rounding.empty())
    throw CompileError(loc, fmt::format("fp_downcast_rounding should be set only for truncating fp conversions. "
                                        "Source scalar type is {} and destination type is {}",
                                        tt_name(s), tt_name(d)));
  std::string rmode = rounding == "rtz" ? "rtz" : "";
  // fp8 <-> other floats (and non-default rounding): one fp-to-fp conversion.
  if ((fp_src && fp_dst && (ir::is_fp8(s) || ir::is_fp8(d))) || (truncating && !rmode.empty())) {
    // PTX has no round-toward-zero conversion to e4m3: upstream fails to compile it.
    if (d == ScalarType::F8E4NV && !rmode.empty())
      throw CompileError(loc, fmt::format("fp_downcast_rounding='rtz' to fp8e4nv is not supported (upstream Triton "
                                          "cannot compile it either); source type {}",
                                          tt_name(s)));
    return b.cast(v, d, loc, rmode);
  }
  // fp16 / bf16 to anything but fp32 goes through fp32.
  if ((s == ScalarType::F16 || s == ScalarType::BF16) && !src.is_ptr && !(d == ScalarType::F32 && !dst.is_ptr))
    return cast(b, cast(b, v, Type::of(ScalarType::F32), loc), dst, loc);
  if (fp_src && fp_dst) return b.cast(v, d, loc);  // standard truncation / extension
  // int1 sources: select(v, 1, 0), so the IR never depends on how int1 extends.
  if (int_src && s == ScalarType::I1 && (int_dst || fp_dst) && !(fp_dst && ir::is_fp8(d)))
    return b.select(v, const_int(b, dst, 1, loc), const_int(b, dst, 0, loc), loc);
  if (int_src && int_dst) {
    if (d == ScalarType::I1) return not_zero(b, v, loc);
    return b.cast(v, d, loc);  // uint* zero-extend, signed sign-extend (by the source type)
  }
  if (fp_src && int_dst && !ir::is_fp8(s)) {
    if (d == ScalarType::I1) return not_zero(b, v, loc);
    return b.cast(v, d, loc);
  }
  if (int_src && fp_dst && !ir::is_fp8(d)) return b.cast(v, d, loc);
  if (src.is_ptr && int_dst) {
    if (d == ScalarType::I64) return b.create(ir::OpKind::PtrToInt, {v}, {dst}, loc)->result();
    if (d == ScalarType::I1) {
      ir::Value* i = b.create(ir::OpKind::PtrToInt, {v}, {dst.with_scalar(ScalarType::I64)}, loc)->result();
      return not_zero(b, i, loc);
    }
  }
  if (int_src && dst.is_ptr) {
    // LLVM's inttoptr zero-extends narrower integers.
    if (s == ScalarType::I1) {
      v = cast(b, v, src.with_scalar(ScalarType::I64), loc);
    } else if (s != ScalarType::I64 && s != ScalarType::U64) {
      if (tt_signed(s)) {
        static const ScalarType kU[] = {ScalarType::U8, ScalarType::U16, ScalarType::U32};
        int bits = ir::bitwidth(s);
        v = b.bitcast(v, src.with_scalar(kU[bits == 8 ? 0 : bits == 16 ? 1 : 2]), loc);
      }
      v = b.cast(v, ScalarType::I64, loc);
    } else if (s == ScalarType::U64) {
      v = b.bitcast(v, src.with_scalar(ScalarType::I64), loc);
    }
    return b.create(ir::OpKind::IntToPtr, {v}, {dst}, loc)->result();
  }
  if (src.is_ptr && dst.is_ptr) return b.bitcast(v, dst, loc);
  throw CompileError(loc, fmt::format("cannot cast {} to {}", tt_name(src), tt_name(dst)));
}

ir::Value* bitcast(ir::Builder& b, ir::Value* v, const Type& to_in, SrcLoc loc) {
  Type dst = to_in.with_shape(v->type.shape);
  if (dst == v->type) return v;
  if (v->type.is_ptr || dst.is_ptr) return cast(b, v, dst, loc);
  int sb = ir::bitwidth(v->type.scalar), db = ir::bitwidth(dst.scalar);
  if (sb != db)
    throw CompileError(loc, fmt::format("cannot bitcast data-type of size {} to data-type of size {}", sb, db));
  return b.bitcast(v, dst, loc);
}

namespace {

void check_ptr(const Operand& a, const Operand& other, ScalarType other_ty, bool allow, SrcLoc loc,
               const std::string& opname, const Type& at, const Type& bt) {
  if (!a.is_ptr()) return;
  auto incompatible = [&] {
    return CompileError(loc, fmt::format("invalid operands of type {} and {} for {}", tt_name(at.element()),
                                         tt_name(bt.element()), opname));
  };
  if (!allow) throw incompatible();
  if (other.is_ptr() && !(a.value->type.element() == other.value->type.element())) throw incompatible();
  if (!other.is_ptr() && ir::is_float(other_ty)) throw incompatible();
}

}  // namespace

std::pair<ir::Value*, ir::Value*> check_binary(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc,
                                               bool allow_lhs_ptr, bool allow_rhs_ptr, bool arithmetic_check,
                                               bool div_or_mod, const std::string& opname) {
  ScalarType xs = x.scalar_type(loc), ys = y.scalar_type(loc);
  Type xt = x.value ? x.value->type : Type::of(xs);
  Type yt = y.value ? y.value->type : Type::of(ys);
  check_ptr(x, y, ys, allow_lhs_ptr, loc, opname, xt, yt);
  check_ptr(y, x, xs, allow_rhs_ptr, loc, opname, yt, xt);
  ir::Value* xv = nullptr;
  ir::Value* yv = nullptr;
  if (arithmetic_check && !x.is_ptr() && !y.is_ptr()) {
    ScalarType r = computation_type(xs, x.is_scalar(), ys, y.is_scalar(), div_or_mod, loc);
    for (const Operand* o : {&x, &y}) {
      if (!o->is_scalar()) continue;
      if (ir::is_int(r) && tt_unsigned(r) && o->scalar.kind != CValue::Kind::Float && int_value(o->scalar) < 0)
        throw CompileError(loc, "cannot perform a binary operation between an unsigned tensor and a negative "
                                "scalar. Perform an explicit cast on one of them.");
      if (ir::is_int(r)) {
        __int128 v = int_value(o->scalar);
        if (v < int_min(r) || v > int_max(r))
          throw CompileError(loc, fmt::format("scalar {} is out of range for type {}",
                                              o->scalar.is_u64 ? std::to_string(o->scalar.u)
                                                               : std::to_string(static_cast<int64_t>(v)),
                                              tt_name(r)));
      }
    }
    xv = x.is_scalar() ? constant(b, x.scalar, r, loc) : cast(b, x.value, Type::of(r), loc);
    yv = y.is_scalar() ? constant(b, y.scalar, r, loc) : cast(b, y.value, Type::of(r), loc);
  } else {
    xv = x.is_scalar() ? constant(b, x.scalar, xs, loc) : x.value;
    yv = y.is_scalar() ? constant(b, y.scalar, ys, loc) : y.value;
  }
  broadcast_pair(b, xv, yv, loc);
  return {xv, yv};
}

}  // namespace tritium::frontend::sem
