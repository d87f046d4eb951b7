// constant, cast, bitcast / ptr_to_int / int_to_ptr (semantics: interpreter.h).
#include <cmath>

#include "interp/interp_ops.h"

namespace tritium::interp {
namespace {

using ir::ScalarType;

Rounding parse_rounding(const ir::Op& op) {
  const std::string r = op.attr_str("rounding");
  if (r.empty() || r == "rtne" || r == "rn") return Rounding::kNearestEven;
  if (r == "rtz") return Rounding::kTowardZero;
  refuse(op, "unknown rounding mode '" + r + "'");
}

// Raw bits of the (exact) integer v of signedness `src_signed` converted to float type t.
uint64_t int_to_float_bits(ScalarType t, int64_t v, bool src_signed) {
  switch (t) {
    case ScalarType::F64:
      return bits_of(src_signed ? static_cast<double>(v) : static_cast<double>(static_cast<uint64_t>(v)));
    case ScalarType::F32:
      return bits_of(src_signed ? static_cast<float>(v) : static_cast<float>(static_cast<uint64_t>(v)));
    default:
      return src_signed ? fp_encode_int64(float_format(t), v) : fp_encode_uint64(float_format(t), static_cast<uint64_t>(v));
  }
}

// Raw bits of double x (an exact source value) rounded to float type t.
uint64_t double_to_float_bits(ScalarType t, double x, Rounding r) {
  if (t == ScalarType::F64) return bits_of(x);
  if (t == ScalarType::F32) return bits_of(fp64_to_fp32(x, r));
  return fp_encode(float_format(t), x, r);
}

// Float (exact double) → integer of type t: truncate, saturate, NaN → 0; int1: x != 0.
uint64_t float_to_int_bits(ScalarType t, double x) {
  if (t == ScalarType::I1) return x != 0.0;  // unordered: NaN → 1
  if (std::isnan(x)) return 0;
  const int w = ir::bitwidth(t);
  const double tx = std::trunc(x);
  if (is_signed(t)) {
    const double lo = -std::ldexp(1.0, w - 1);  // exact
    if (tx < lo) return static_cast<uint64_t>(static_cast<int64_t>(lo));
    if (tx >= -lo) return (1ull << (w - 1)) - 1ull;
    return static_cast<uint64_t>(static_cast<int64_t>(tx));
  }
  if (tx < 0) return 0;
  if (tx >= std::ldexp(1.0, w)) return w == 64 ? ~0ull : (1ull << w) - 1ull;
  return static_cast<uint64_t>(tx);
}

}  // namespace

Val eval_constant(const ir::Op& op) {
  const ir::Type& t = op.results.at(0)->type;
  auto it = op.attrs.find("value");
  if (it == op.attrs.end()) refuse(op, "missing attribute 'value'");
  uint64_t bits = 0;
  if (t.is_ptr) {
    const int64_t* iv = std::get_if<int64_t>(&it->second);
    if (!iv) refuse(op, "pointer constant needs an integer value");
    bits = static_cast<uint64_t>(*iv);
  } else if (ir::is_int(t.scalar)) {
    const int64_t* iv = std::get_if<int64_t>(&it->second);
    if (!iv) refuse(op, "integer constant of type " + t.str() + " has a non-integer value");
    bits = t.scalar == ScalarType::I1 ? (*iv != 0) : static_cast<uint64_t>(*iv);
  } else if (const int64_t* iv = std::get_if<int64_t>(&it->second)) {
    bits = int_to_float_bits(t.scalar, *iv, true);
  } else if (const double* dv = std::get_if<double>(&it->second)) {
    bits = double_to_float_bits(t.scalar, *dv, Rounding::kNearestEven);
  } else {
    refuse(op, "float constant of type " + t.str() + " has a non-numeric value");
  }
  return filled(t.scalar, t.is_ptr, t.shape, bits);
}

Val eval_cast(const ir::Op& op, const Val& a) {
  const ir::Type& rt = op.results.at(0)->type;
  const Rounding rounding = parse_rounding(op);
  Val r = Val::make(rt.scalar, rt.is_ptr, a.shape);
  const int64_t n = a.numel;
  const ScalarType src = a.scalar, dst = rt.scalar;
  const bool src_ptr_or_int = a.is_ptr || ir::is_int(src);
  if (rt.is_ptr) {  // → pointer: the address (ints extended by their signedness)
    if (!src_ptr_or_int) refuse(op, "cast from " + describe(a) + " to a pointer");
    for (int64_t i = 0; i < n; ++i) store_bits(r, i, static_cast<uint64_t>(load_int(a, i)));
    return r;
  }
  if (!a.is_ptr && src == dst) {  // same type: identity (bits kept, NaN payload included)
    copy_elems(a, 0, r, 0, n);
    return r;
  }
  if (src_ptr_or_int && ir::is_int(dst)) {  // int/pointer → int: truncate / extend / != 0
    for (int64_t i = 0; i < n; ++i) store_int(r, i, static_cast<uint64_t>(load_int(a, i)));
    return r;
  }
  if (a.is_ptr) refuse(op, "cast from a pointer to " + rt.str());
  if (ir::is_int(src)) {  // int → float (RNE; rounding applies to float narrowing only)
    const bool sgn = is_signed(src);
    for (int64_t i = 0; i < n; ++i) store_bits(r, i, int_to_float_bits(dst, load_int(a, i), sgn));
    return r;
  }
  if (ir::is_int(dst)) {  // float → int
    for (int64_t i = 0; i < n; ++i) store_bits(r, i, float_to_int_bits(dst, load_double(a, i)));
    return r;
  }
  // float → float: exact widening, or one rounding from the exact source value.
  if (src == ScalarType::F32 && dst == ScalarType::F16) {
    const float* pa = a.as<float>();
    uint16_t* pr = r.as<uint16_t>();
    for (int64_t i = 0; i < n; ++i) pr[i] = fp32_to_fp16(pa[i], rounding);
    return r;
  }
  if (src == ScalarType::F32 && dst == ScalarType::BF16) {
    const float* pa = a.as<float>();
    uint16_t* pr = r.as<uint16_t>();
    for (int64_t i = 0; i < n; ++i) pr[i] = fp32_to_bf16(pa[i], rounding);
    return r;
  }
  for (int64_t i = 0; i < n; ++i) store_bits(r, i, double_to_float_bits(dst, load_double(a, i), rounding));
  return r;
}

Val eval_bitcast(const ir::Op& op, const Val& a) {
  const ir::Type& rt = op.results.at(0)->type;
  Val r = Val::make(rt.scalar, rt.is_ptr, a.shape);
  const int src_bits = a.is_ptr ? 64 : ir::bitwidth(a.scalar);
  const int dst_bits = rt.is_ptr ? 64 : ir::bitwidth(rt.scalar);
  switch (op.kind) {
    case ir::OpKind::PtrToInt:
      if (!a.is_ptr || rt.is_ptr || !ir::is_int(rt.scalar)) refuse(op, "needs a pointer operand and an integer result");
      for (int64_t i = 0; i < a.numel; ++i) store_int(r, i, load_bits(a, i));
      return r;
    case ir::OpKind::IntToPtr:
      if (a.is_ptr || !ir::is_int(a.scalar) || !rt.is_ptr) refuse(op, "needs an integer operand and a pointer result");
      for (int64_t i = 0; i < a.numel; ++i) store_bits(r, i, static_cast<uint64_t>(load_int(a, i)));
      return r;
    default:
      break;
  }
  if (src_bits != dst_bits || (a.is_ptr != rt.is_ptr && (a.is_ptr ? !ir::is_int(rt.scalar) : !ir::is_int(a.scalar))))
    refuse(op, "bitcast from " + describe(a) + " to " + rt.str() + " (different widths or kinds)");
  copy_elems(a, 0, r, 0, a.numel);
  return r;
}

}  // namespace tritium::interp
