#include "passes/fold_eval.h"

#include <bit>
#include <cmath>
#include <limits>
#include <string>

namespace tritium::passes::fold {
namespace {

using ir::OpKind;
using ir::ScalarType;

/// Significand bits (with the implicit bit) and normal exponent range of a float type.
struct FloatFormat {
  int p, emin, emax;
};
std::optional<FloatFormat> format_of(ScalarType t) {
  switch (t) {
    case ScalarType::F16: return FloatFormat{11, -14, 15};
    case ScalarType::BF16: return FloatFormat{8, -126, 127};
    case ScalarType::F32: return FloatFormat{24, -126, 127};
    case ScalarType::F64: return FloatFormat{53, -1022, 1023};
    default: return std::nullopt;  // fp8 formats are left alone
  }
}

/// Float types whose constants are read and produced (casts, negation, comparisons).
bool holds_floats(ScalarType t) { return format_of(t).has_value(); }
/// Float types whose arithmetic is folded (computed natively in float / double).
bool computes_floats(ScalarType t) { return t == ScalarType::F32 || t == ScalarType::F64; }

/// True when `d` is not NaN and not subnormal in type `t` (backends that flush denormals
/// would disagree there); zeros and infinities are fine.
bool float_ok(double d, ScalarType t) {
  auto f = format_of(t);
  if (!f || std::isnan(d)) return false;
  if (d == 0 || std::isinf(d)) return true;
  return std::fabs(d) >= std::ldexp(1.0, f->emin);
}

/// True when `d` is exactly a normal value, a zero or an infinity of type `t`.
bool exact_in(double d, ScalarType t) {
  auto f = format_of(t);
  if (!f || std::isnan(d)) return false;
  if (d == 0 || std::isinf(d)) return true;
  int e;
  double m = std::frexp(d, &e);  // d = m * 2^e, 0.5 <= |m| < 1: the normal exponent is e - 1
  if (e - 1 < f->emin || e - 1 > f->emax) return false;
  double scaled = std::ldexp(m, f->p);  // exact; an integer iff d fits in p significand bits
  return std::trunc(scaled) == scaled;
}

bool is_unsigned_view(ScalarType t) { return ir::is_unsigned_int(t) || t == ScalarType::I1; }

int64_t min_signed(ScalarType t) {
  int w = ir::bitwidth(t);
  return w == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (w - 1));
}

/// Integer value `v` (canonical in `src`) converted to float type `dst`, when exact.
std::optional<double> int_to_float(int64_t v, ScalarType src, ScalarType dst) {
  bool neg = !is_unsigned_view(src) && v < 0;
  uint64_t mag = neg ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  if (mag == 0) return 0.0;
  int p, max_exp;
  switch (dst) {
    case ScalarType::F16: p = 11; max_exp = 15; break;
    case ScalarType::BF16: p = 8; max_exp = 127; break;
    case ScalarType::F32: p = 24; max_exp = 127; break;
    case ScalarType::F64: p = 53; max_exp = 1023; break;
    default: return std::nullopt;
  }
  int width = std::bit_width(mag);
  int significant = width - std::countr_zero(mag);
  if (significant > p || width - 1 > max_exp) return std::nullopt;
  double d = static_cast<double>(mag);  // exact: at most 53 significant bits
  return neg ? -d : d;
}

std::optional<Const> int_result(int64_t raw, ScalarType t) { return Const{false, canonical_int(raw, t), 0}; }
std::optional<Const> float_result(double d, ScalarType t) {
  if (!float_ok(d, t) || !exact_in(d, t)) return std::nullopt;
  return Const{true, 0, d};
}
std::optional<Const> bool_result(bool b) { return Const{false, b ? 1 : 0, 0}; }

std::optional<Const> eval_int_binary(OpKind k, int64_t a, int64_t b, ScalarType t) {
  uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  bool uns = is_unsigned_view(t);
  bool is_bool = t == ScalarType::I1;
  int w = ir::bitwidth(t);
  switch (k) {
    case OpKind::Add: return int_result(static_cast<int64_t>(ua + ub), t);
    case OpKind::Sub: return int_result(static_cast<int64_t>(ua - ub), t);
    case OpKind::Mul: return int_result(static_cast<int64_t>(ua * ub), t);
    case OpKind::And: return int_result(static_cast<int64_t>(ua & ub), t);
    case OpKind::Or: return int_result(static_cast<int64_t>(ua | ub), t);
    case OpKind::Xor: return int_result(static_cast<int64_t>(ua ^ ub), t);
    case OpKind::IDiv:
    case OpKind::Rem: {
      if (is_bool || b == 0) return std::nullopt;
      if (uns) return int_result(static_cast<int64_t>(k == OpKind::IDiv ? ua / ub : ua % ub), t);
      if (a == min_signed(t) && b == -1) return std::nullopt;  // overflow: undefined
      return int_result(k == OpKind::IDiv ? a / b : a % b, t);
    }
    case OpKind::Shl:
    case OpKind::Shr: {
      if (is_bool) return std::nullopt;
      if (!uns && b < 0) return std::nullopt;
      if (ub >= static_cast<uint64_t>(w)) return std::nullopt;  // over-wide: not folded
      if (k == OpKind::Shl) return int_result(static_cast<int64_t>(ua << ub), t);
      if (uns) return int_result(static_cast<int64_t>(ua >> ub), t);
      return int_result(a >> ub, t);  // arithmetic shift of the sign-extended value
    }
    case OpKind::Min:
    case OpKind::Max: {
      if (is_bool) return std::nullopt;
      bool a_less = uns ? ua < ub : a < b;
      bool pick_a = k == OpKind::Min ? a_less : !a_less;
      return int_result(pick_a ? a : b, t);
    }
    default: return std::nullopt;
  }
}

std::optional<Const> eval_float_binary(OpKind k, double a, double b, ScalarType t) {
  if (!computes_floats(t) || !float_ok(a, t) || !float_ok(b, t)) return std::nullopt;
  if (t == ScalarType::F32) {
    float fa = static_cast<float>(a), fb = static_cast<float>(b), r;
    switch (k) {
      case OpKind::Add: r = fa + fb; break;
      case OpKind::Sub: r = fa - fb; break;
      case OpKind::Mul: r = fa * fb; break;
      case OpKind::Div: r = fa / fb; break;
      default: return std::nullopt;
    }
    return float_result(static_cast<double>(r), t);
  }
  double r;
  switch (k) {
    case OpKind::Add: r = a + b; break;
    case OpKind::Sub: r = a - b; break;
    case OpKind::Mul: r = a * b; break;
    case OpKind::Div: r = a / b; break;
    default: return std::nullopt;
  }
  return float_result(r, t);
}

std::optional<Const> eval_cmp(const std::string& pred, const Const& a, const Const& b, ScalarType t) {
  if (a.is_float) {
    if (!float_ok(a.f, t) || !float_ok(b.f, t)) return std::nullopt;  // NaN / subnormal operands
    if (pred == "eq") return bool_result(a.f == b.f);
    if (pred == "ne") return bool_result(a.f != b.f);
    if (pred == "lt") return bool_result(a.f < b.f);
    if (pred == "le") return bool_result(a.f <= b.f);
    if (pred == "gt") return bool_result(a.f > b.f);
    if (pred == "ge") return bool_result(a.f >= b.f);
    return std::nullopt;
  }
  if (pred == "eq") return bool_result(a.i == b.i);
  if (pred == "ne") return bool_result(a.i != b.i);
  if (t == ScalarType::I1) return std::nullopt;  // ordering of int1 depends on its signedness
  bool uns = is_unsigned_view(t);
  uint64_t ua = static_cast<uint64_t>(a.i), ub = static_cast<uint64_t>(b.i);
  bool lt = uns ? ua < ub : a.i < b.i;
  bool eq = a.i == b.i;
  if (pred == "lt") return bool_result(lt);
  if (pred == "le") return bool_result(lt || eq);
  if (pred == "gt") return bool_result(!lt && !eq);
  if (pred == "ge") return bool_result(!lt);
  return std::nullopt;
}

std::optional<Const> eval_cast(const ir::Op& op, const Const& a) {
  ScalarType src = op.operand(0)->type.scalar, dst = op.result()->type.scalar;
  if (op.operand(0)->type.is_ptr || op.result()->type.is_ptr) return std::nullopt;
  bool src_int = ir::is_int(src), dst_int = ir::is_int(dst);
  if (src_int && dst_int) {
    // int → int1 is `!= 0` in Triton but a truncation in LLVM; both agree on 0 and 1 only.
    if (dst == ScalarType::I1 && a.i != 0 && a.i != 1) return std::nullopt;
    return int_result(a.i, dst);
  }
  if (src_int && !dst_int) {
    auto d = int_to_float(a.i, src, dst);
    if (!d) return std::nullopt;
    return float_result(*d, dst);
  }
  if (!src_int && !dst_int) {
    if (!holds_floats(src) || !holds_floats(dst)) return std::nullopt;
    return float_result(a.f, dst);  // widening is always exact; narrowing only when exact
  }
  return std::nullopt;  // float → int: rounding and out-of-range behaviour differ; left alone
}

}  // namespace

int64_t canonical_int(int64_t raw, ScalarType t) {
  if (t == ScalarType::I1) return raw & 1;
  int w = ir::bitwidth(t);
  if (w >= 64) return raw;
  uint64_t mask = (uint64_t{1} << w) - 1;
  uint64_t u = static_cast<uint64_t>(raw) & mask;
  if (ir::is_unsigned_int(t)) return static_cast<int64_t>(u);
  uint64_t sign = uint64_t{1} << (w - 1);
  return static_cast<int64_t>((u ^ sign) - sign);
}

int64_t all_ones(ScalarType t) { return canonical_int(-1, t); }

std::optional<Const> constant_value(const ir::Value* v) {
  if (!v || !v->def || v->def->kind != OpKind::Constant || v->type.is_ptr) return std::nullopt;
  const ir::Op& op = *v->def;
  auto it = op.attrs.find("value");
  if (it == op.attrs.end()) return std::nullopt;
  ScalarType t = v->type.scalar;
  if (ir::is_int(t)) {
    auto* p = std::get_if<int64_t>(&it->second);
    if (!p) return std::nullopt;
    // An int1 constant is true for any non-zero attribute (as the interpreter reads it).
    if (t == ScalarType::I1) return Const{false, *p != 0 ? 1 : 0, 0};
    return Const{false, canonical_int(*p, t), 0};
  }
  if (!holds_floats(t)) return std::nullopt;
  double d;
  if (auto* p = std::get_if<double>(&it->second)) d = *p;
  else return std::nullopt;
  if (!std::isnan(d) && !exact_in(d, t)) return std::nullopt;
  return Const{true, 0, d};
}

std::optional<Const> evaluate(const ir::Op& op, const std::vector<Const>& args) {
  if (op.results.size() != 1 || args.size() != op.operands.size()) return std::nullopt;
  if (op.result()->type.is_ptr) return std::nullopt;
  for (const auto* v : op.operands)
    if (v->type.is_ptr) return std::nullopt;
  ScalarType t = op.operands.empty() ? op.result()->type.scalar : op.operand(0)->type.scalar;
  switch (op.kind) {
    case OpKind::Splat: case OpKind::Broadcast: case OpKind::ExpandDims: case OpKind::Reshape: case OpKind::Trans:
      // Every element of a constant is the same value: any shape change of it is a constant.
      if (op.result()->type.scalar != t) return std::nullopt;
      return args[0];
    case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div: case OpKind::IDiv: case OpKind::Rem:
    case OpKind::And: case OpKind::Or: case OpKind::Xor: case OpKind::Shl: case OpKind::Shr:
    case OpKind::Min: case OpKind::Max:
      if (args[0].is_float != args[1].is_float) return std::nullopt;
      if (args[0].is_float) return eval_float_binary(op.kind, args[0].f, args[1].f, t);
      return eval_int_binary(op.kind, args[0].i, args[1].i, t);
    case OpKind::Neg:
      if (args[0].is_float) {
        if (!float_ok(args[0].f, t)) return std::nullopt;
        return Const{true, 0, -args[0].f};
      }
      return int_result(static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(args[0].i)), t);
    case OpKind::Not:
      if (args[0].is_float) return std::nullopt;
      return int_result(~args[0].i, t);
    case OpKind::Cmp:
      if (args[0].is_float != args[1].is_float) return std::nullopt;
      return eval_cmp(op.attr_str("pred"), args[0], args[1], t);
    case OpKind::Select:
      return args[0].i != 0 ? args[1] : args[2];
    case OpKind::Cast:
      return eval_cast(op, args[0]);
    default:
      return std::nullopt;  // math (transcendentals), bitcast, memory, dot, ... are never folded
  }
}

}  // namespace tritium::passes::fold
