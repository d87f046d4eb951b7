// Type-level rules of the Triton language: signedness, literal typing, promotion.
// Reference: upstream python/triton/language/semantic.py (integer_promote_impl,
// computation_type_impl, to_tensor) and core.py (dtype).
#include <fmt/format.h>

#include <cmath>

#include "frontend/semantic.h"

namespace tritium::frontend::sem {

using ir::ScalarType;

bool tt_unsigned(ScalarType t) {
  return t == ScalarType::I1 || t == ScalarType::U8 || t == ScalarType::U16 || t == ScalarType::U32 ||
         t == ScalarType::U64;
}

bool tt_signed(ScalarType t) {
  return t == ScalarType::I8 || t == ScalarType::I16 || t == ScalarType::I32 || t == ScalarType::I64;
}

std::string tt_name(ScalarType t) { return std::string(ir::name(t)); }

std::string tt_name(const ir::Type& t) {
  std::string elem = t.is_ptr ? "pointer<" + tt_name(t.scalar) + ">" : tt_name(t.scalar);
  if (t.shape.empty()) return elem;
  return fmt::format("<[{}], {}>", fmt::join(t.shape, ", "), elem);
}

int kind_rank(ScalarType t) {
  if (t == ScalarType::I1) return 0;
  if (ir::is_int(t)) return 1;
  return 2;
}

__int128 int_min(ScalarType t) {
  if (tt_unsigned(t)) return 0;
  return -(static_cast<__int128>(1) << (ir::bitwidth(t) - 1));
}

__int128 int_max(ScalarType t) {
  int bits = ir::bitwidth(t);
  if (tt_unsigned(t)) return (static_cast<__int128>(1) << bits) - 1;
  return (static_cast<__int128>(1) << (bits - 1)) - 1;
}

__int128 int_value(const CValue& v) {
  if (v.kind == CValue::Kind::Bool) return v.b ? 1 : 0;
  if (v.is_u64) return static_cast<__int128>(v.u);
  return static_cast<__int128>(v.i);
}

CValue make_int(__int128 v, SrcLoc loc) {
  const __int128 lo = -(static_cast<__int128>(1) << 63);
  const __int128 hi = static_cast<__int128>(1) << 64;
  if (v < lo || v >= hi)
    throw CompileError(loc, "integer constant out of the supported range [-2**63, 2**64): tritium keeps "
                            "compile-time integers in 64 bits");
  CValue c = CValue::of_int(0);
  if (v >= (static_cast<__int128>(1) << 63)) {
    c.is_u64 = true;
    c.u = static_cast<uint64_t>(v);
  } else {
    c.i = static_cast<int64_t>(v);
  }
  return c;
}

ScalarType literal_type(const CValue& v, SrcLoc loc) {
  switch (v.kind) {
    case CValue::Kind::Bool: return ScalarType::I1;
    case CValue::Kind::Int: {
      __int128 x = int_value(v);
      const __int128 two31 = static_cast<__int128>(1) << 31;
      const __int128 two63 = static_cast<__int128>(1) << 63;
      if (x >= -two31 && x < two31) return ScalarType::I32;
      if (x >= two31 && x < 2 * two31) return ScalarType::U32;
      if (x >= -two63 && x < two63) return ScalarType::I64;
      return ScalarType::U64;  // make_int guarantees x < 2^64
    }
    case CValue::Kind::Float: {
      const double min_f32 = std::ldexp(1.0, -126);
      const double max_f32 = (2.0 - std::ldexp(1.0, -23)) * std::ldexp(1.0, 127);
      double a = std::fabs(v.f);
      if (std::isinf(a) || a == 0.0 || std::isnan(v.f) || (min_f32 <= a && a <= max_f32)) return ScalarType::F32;
      return ScalarType::F64;
    }
    default: throw CompileError(loc, "cannot convert " + v.describe() + " to a tensor");
  }
}

ScalarType Operand::scalar_type(SrcLoc loc) const { return value ? value->type.scalar : literal_type(scalar, loc); }

Operand operand(const CValue& v, SrcLoc loc, const std::string& what) {
  Operand o;
  if (v.kind == CValue::Kind::Tensor) {
    o.value = v.tensor;
  } else if (v.kind == CValue::Kind::Int || v.kind == CValue::Kind::Float || v.kind == CValue::Kind::Bool) {
    o.scalar = v;
  } else {
    throw CompileError(loc, "unsupported " + what + ": " + v.describe());
  }
  return o;
}

Operand operand(ir::Value* v) {
  Operand o;
  o.value = v;
  return o;
}

ScalarType integer_promote(ScalarType a, ScalarType b) {
  int ar = ir::bitwidth(a), br = ir::bitwidth(b);
  bool au = tt_unsigned(a), bu = tt_unsigned(b);
  if (au == bu) return ar > br ? a : b;
  if (au) return ar >= br ? a : b;
  return br >= ar ? b : a;
}

ScalarType computation_type(ScalarType a, bool a_is_scalar, ScalarType b, bool b_is_scalar, bool div_or_mod,
                            SrcLoc loc) {
  // 0) A Python scalar of a lower or equal kind (bool < int < float) does not take part.
  if (a_is_scalar != b_is_scalar) {
    ScalarType s = a_is_scalar ? a : b;
    ScalarType t = a_is_scalar ? b : a;
    if (kind_rank(s) <= kind_rank(t)) {
      if (div_or_mod && (t == ScalarType::F16 || t == ScalarType::BF16)) return ScalarType::F32;
      return t;
    }
  }
  // 1) fp64 wins; 2) then fp32.
  if (a == ScalarType::F64 || b == ScalarType::F64) return ScalarType::F64;
  if (a == ScalarType::F32 || b == ScalarType::F32) return ScalarType::F32;
  // 3) fp16 (fp32 for / and %).
  if (a == ScalarType::F16 || b == ScalarType::F16) return div_or_mod ? ScalarType::F32 : ScalarType::F16;
  // 4) bf16 only with bf16 (fp32 for / and %), else fp32.
  if (a == ScalarType::BF16 && b == ScalarType::BF16) return div_or_mod ? ScalarType::F32 : ScalarType::BF16;
  if (a == ScalarType::BF16 || b == ScalarType::BF16) return ScalarType::F32;
  // 5) two fp8: the same one, or fp16 for different ones.
  if (ir::is_fp8(a) && ir::is_fp8(b)) return a == b ? a : ScalarType::F16;
  if (!ir::is_int(a) || !ir::is_int(b))
    throw CompileError(loc, fmt::format("unexpected types {} and {}", tt_name(a), tt_name(b)));
  // 6) integers: C's usual conversions; /, //, % refuse mixed signedness.
  if (div_or_mod && tt_unsigned(a) != tt_unsigned(b))
    throw CompileError(loc, fmt::format("cannot use /, // or % with {} and {} because they have different "
                                        "signedness; this is unlikely to give a useful answer. Cast them to the "
                                        "same signedness.",
                                        tt_name(a), tt_name(b)));
  return integer_promote(a, b);
}

ir::Value* constant(ir::Builder& b, const CValue& v, ScalarType t, SrcLoc loc) {
  ir::Type ty = ir::Type::of(t);
  if (ir::is_float(t)) {
    double d = v.kind == CValue::Kind::Float ? v.f : static_cast<double>(int_value(v));
    return b.const_float(ty, d, loc);
  }
  if (v.kind == CValue::Kind::Float) throw CompileError(loc, "cannot make an integer constant from a float");
  __int128 x = int_value(v);
  return b.const_int(ty, static_cast<int64_t>(static_cast<uint64_t>(x)), loc);
}

ir::Value* const_int(ir::Builder& b, const ir::Type& t, int64_t v, SrcLoc loc) {
  if (t.is_float()) return b.const_float(t, static_cast<double>(v), loc);
  return b.const_int(t, v, loc);
}

ir::Value* to_tensor(ir::Builder& b, const CValue& v, SrcLoc loc, const std::string& what) {
  if (v.kind == CValue::Kind::Tensor) return v.tensor;
  if (v.kind == CValue::Kind::Int || v.kind == CValue::Kind::Float || v.kind == CValue::Kind::Bool)
    return constant(b, v, literal_type(v, loc), loc);
  throw CompileError(loc, "cannot convert " + v.describe() + " to a tensor (" + what + ")");
}

}  // namespace tritium::frontend::sem
