// Compile-time folding of Python operators on constexprs (upstream: the constexpr class
// of core.py, which applies Python's own operators to the wrapped values). Python ints are
// kept in [-2^63, 2^64); leaving that range is a CompileError rather than a wrong value.
#include <fmt/format.h>

#include <cmath>

#include "frontend/builtins_impl.h"

namespace tritium::frontend::bi {

namespace {

using K = CValue::Kind;
using i128 = __int128;

bool is_num(const CValue& v) { return v.kind == K::Int || v.kind == K::Float || v.kind == K::Bool; }
bool is_intlike(const CValue& v) { return v.kind == K::Int || v.kind == K::Bool; }
double as_double(const CValue& v) {
  if (v.kind == K::Float) return v.f;
  return static_cast<double>(static_cast<long double>(sem::int_value(v)));
}

std::string type_name(const CValue& v) {
  switch (v.kind) {
    case K::Int: return "int";
    case K::Float: return "float";
    case K::Bool: return "bool";
    case K::None: return "NoneType";
    case K::Str: return "str";
    case K::Tuple: return "tuple";
    case K::DType: return "dtype";
    default: return v.describe();
  }
}

[[noreturn]] void unsupported(BinOp op, const CValue& a, const CValue& b, SrcLoc loc) {
  fail(loc, fmt::format("unsupported operand types for {}: '{}' and '{}'", to_string(op), type_name(a), type_name(b)));
}

void check_overflow(bool overflow, SrcLoc loc) {
  if (overflow) fail(loc, "integer constant out of the supported range [-2**63, 2**64)");
}

// Python's float divmod (floor division and modulo with the sign of the divisor).
void py_float_divmod(double x, double y, double* div_out, double* mod_out) {
  double mod = std::fmod(x, y);
  double div = (x - mod) / y;
  if (mod != 0.0) {
    if ((y < 0) != (mod < 0)) {
      mod += y;
      div -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, y);
  }
  double floordiv;
  if (div != 0.0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = std::copysign(0.0, x / y);
  }
  *div_out = floordiv;
  *mod_out = mod;
}

CValue int_result(i128 v, bool both_bool, BinOp op, SrcLoc loc) {
  // bool & bool, bool | bool, bool ^ bool stay bool in Python.
  if (both_bool && (op == BinOp::BitAnd || op == BinOp::BitOr || op == BinOp::BitXor)) return CValue::of_bool(v != 0);
  return sem::make_int(v, loc);
}

CValue fold_int(BinOp op, const CValue& a, const CValue& b, SrcLoc loc) {
  i128 x = sem::int_value(a), y = sem::int_value(b), r = 0;
  bool both_bool = a.kind == K::Bool && b.kind == K::Bool;
  switch (op) {
    case BinOp::Add:
      check_overflow(__builtin_add_overflow(x, y, &r), loc);
      return int_result(r, both_bool, op, loc);
    case BinOp::Sub:
      check_overflow(__builtin_sub_overflow(x, y, &r), loc);
      return int_result(r, both_bool, op, loc);
    case BinOp::Mul:
      check_overflow(__builtin_mul_overflow(x, y, &r), loc);
      return int_result(r, both_bool, op, loc);
    case BinOp::Div: {
      if (y == 0) fail(loc, "division by zero");
      long double q = static_cast<long double>(x) / static_cast<long double>(y);
      return CValue::of_float(static_cast<double>(q));
    }
    case BinOp::FloorDiv:
    case BinOp::Mod: {
      if (y == 0) fail(loc, op == BinOp::Mod ? "integer modulo by zero" : "integer division by zero");
      i128 q = x / y, m = x % y;
      if (m != 0 && ((m < 0) != (y < 0))) {
        q -= 1;
        m += y;
      }
      return sem::make_int(op == BinOp::Mod ? m : q, loc);
    }
    case BinOp::Pow: {
      if (y < 0) {
        if (x == 0) fail(loc, "0 cannot be raised to a negative power");
        return CValue::of_float(std::pow(static_cast<double>(x), static_cast<double>(y)));
      }
      i128 acc = 1;
      for (i128 i = 0; i < y; ++i) {
        if (acc == 0 || (acc == 1 && x == 1)) break;
        check_overflow(__builtin_mul_overflow(acc, x, &acc), loc);
        sem::make_int(acc, loc);  // range check as we go
        if (x == -1 && i > 2) { acc = (y % 2 == 0) ? 1 : -1; break; }
      }
      return sem::make_int(acc, loc);
    }
    case BinOp::LShift: {
      if (y < 0) fail(loc, "negative shift count");
      if (x == 0) return sem::make_int(0, loc);
      if (y >= 65) fail(loc, "integer constant out of the supported range [-2**63, 2**64)");
      i128 v = x * (static_cast<i128>(1) << static_cast<int>(y));
      if ((v >> static_cast<int>(y)) != x) fail(loc, "integer constant out of the supported range");
      return sem::make_int(v, loc);
    }
    case BinOp::RShift: {
      if (y < 0) fail(loc, "negative shift count");
      if (y >= 127) return sem::make_int(x < 0 ? -1 : 0, loc);
      return sem::make_int(x >> static_cast<int>(y), loc);  // arithmetic: Python floors
    }
    case BinOp::BitAnd: return int_result(x & y, both_bool, op, loc);
    case BinOp::BitOr: return int_result(x | y, both_bool, op, loc);
    case BinOp::BitXor: return int_result(x ^ y, both_bool, op, loc);
    case BinOp::MatMul: unsupported(op, a, b, loc);
  }
  unsupported(op, a, b, loc);
}

CValue fold_float(BinOp op, const CValue& a, const CValue& b, SrcLoc loc) {
  double x = as_double(a), y = as_double(b);
  switch (op) {
    case BinOp::Add: return CValue::of_float(x + y);
    case BinOp::Sub: return CValue::of_float(x - y);
    case BinOp::Mul: return CValue::of_float(x * y);
    case BinOp::Div:
      if (y == 0.0) fail(loc, "float division by zero");
      return CValue::of_float(x / y);
    case BinOp::FloorDiv:
    case BinOp::Mod: {
      if (y == 0.0) fail(loc, op == BinOp::Mod ? "float modulo by zero" : "float floor division by zero");
      double d, m;
      py_float_divmod(x, y, &d, &m);
      return CValue::of_float(op == BinOp::Mod ? m : d);
    }
    case BinOp::Pow: {
      if (x == 0.0 && y < 0) fail(loc, "0.0 cannot be raised to a negative power");
      if (x < 0 && std::floor(y) != y) fail(loc, "a negative number raised to a fractional power is complex");
      return CValue::of_float(std::pow(x, y));
    }
    default: unsupported(op, a, b, loc);
  }
}

CValue repeat(const CValue& seq, const CValue& n, SrcLoc loc) {
  i128 k = sem::int_value(n);
  CValue out = seq;
  out.elems.clear();
  out.s.clear();
  for (i128 i = 0; i < k; ++i) {
    if (seq.kind == K::Str) out.s += seq.s;
    else out.elems.insert(out.elems.end(), seq.elems.begin(), seq.elems.end());
    if (out.s.size() > (1u << 20) || out.elems.size() > (1u << 20)) fail(loc, "constexpr sequence too long");
  }
  return out;
}

bool values_equal(const CValue& a, const CValue& b);

bool num_equal(const CValue& a, const CValue& b) {
  if (a.kind == K::Float || b.kind == K::Float) {
    if (a.kind == K::Float && b.kind == K::Float) return a.f == b.f;
    const CValue& f = a.kind == K::Float ? a : b;
    const CValue& i = a.kind == K::Float ? b : a;
    return static_cast<long double>(f.f) == static_cast<long double>(sem::int_value(i));
  }
  return sem::int_value(a) == sem::int_value(b);
}

bool values_equal(const CValue& a, const CValue& b) {
  if (is_num(a) && is_num(b)) return num_equal(a, b);
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case K::None: return true;
    case K::Str: return a.s == b.s;
    case K::DType: return a.dtype == b.dtype;
    case K::Tuple:
      if (a.elems.size() != b.elems.size()) return false;
      for (size_t i = 0; i < a.elems.size(); ++i)
        if (!values_equal(a.elems[i], b.elems[i])) return false;
      return true;
    case K::Tensor: return a.tensor == b.tensor;
    case K::JitFn: return a.fn == b.fn;
    case K::Builtin:
    case K::Namespace: return a.s == b.s;
    default: return false;
  }
}

// -1, 0, 1 ordering of two values Python can order; CompileError otherwise.
int order(const CValue& a, const CValue& b, CmpOp op, SrcLoc loc) {
  if (is_num(a) && is_num(b)) {
    if (a.kind == K::Float || b.kind == K::Float) {
      long double x = a.kind == K::Float ? a.f : static_cast<long double>(sem::int_value(a));
      long double y = b.kind == K::Float ? b.f : static_cast<long double>(sem::int_value(b));
      if (std::isnan(static_cast<double>(x)) || std::isnan(static_cast<double>(y))) return 2;  // unordered
      return x < y ? -1 : x > y ? 1 : 0;
    }
    i128 x = sem::int_value(a), y = sem::int_value(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (a.kind == K::Str && b.kind == K::Str) return a.s < b.s ? -1 : a.s > b.s ? 1 : 0;
  if (a.kind == K::Tuple && b.kind == K::Tuple) {
    size_t n = std::min(a.elems.size(), b.elems.size());
    for (size_t i = 0; i < n; ++i)
      if (!values_equal(a.elems[i], b.elems[i])) return order(a.elems[i], b.elems[i], op, loc);
    return a.elems.size() < b.elems.size() ? -1 : a.elems.size() > b.elems.size() ? 1 : 0;
  }
  fail(loc, fmt::format("'{}' not supported between instances of '{}' and '{}'", to_string(op), type_name(a),
                        type_name(b)));
}

}  // namespace

CValue fold_binary(BinOp op, const CValue& a, const CValue& b, SrcLoc loc) {
  if (is_num(a) && is_num(b)) {
    if (a.kind == K::Float || b.kind == K::Float) {
      if (op == BinOp::LShift || op == BinOp::RShift || op == BinOp::BitAnd || op == BinOp::BitOr ||
          op == BinOp::BitXor || op == BinOp::MatMul)
        unsupported(op, a, b, loc);
      return fold_float(op, a, b, loc);
    }
    return fold_int(op, a, b, loc);
  }
  if (op == BinOp::Add && a.kind == b.kind && (a.kind == K::Str || a.kind == K::Tuple)) {
    CValue out = a;
    if (a.kind == K::Str) out.s += b.s;
    else out.elems.insert(out.elems.end(), b.elems.begin(), b.elems.end());
    return out;
  }
  if (op == BinOp::Mul && (a.kind == K::Str || a.kind == K::Tuple) && is_intlike(b)) return repeat(a, b, loc);
  if (op == BinOp::Mul && (b.kind == K::Str || b.kind == K::Tuple) && is_intlike(a)) return repeat(b, a, loc);
  unsupported(op, a, b, loc);
}

CValue fold_compare(CmpOp op, const CValue& a, const CValue& b, SrcLoc loc) {
  switch (op) {
    case CmpOp::Eq: return CValue::of_bool(values_equal(a, b));
    case CmpOp::NotEq: return CValue::of_bool(!values_equal(a, b));
    case CmpOp::Is:
    case CmpOp::IsNot: {
      // Identity: None, bools and dtypes are singletons; other values compare by value
      // when of the same kind (CPython interns the small ints kernels use).
      bool same = a.kind == b.kind && values_equal(a, b);
      return CValue::of_bool(op == CmpOp::Is ? same : !same);
    }
    case CmpOp::In:
    case CmpOp::NotIn: {
      bool found = false;
      if (b.kind == K::Tuple) {
        for (const auto& e : b.elems) found = found || values_equal(a, e);
      } else if (b.kind == K::Str && a.kind == K::Str) {
        found = b.s.find(a.s) != std::string::npos;
      } else {
        fail(loc, fmt::format("argument of type '{}' is not iterable", type_name(b)));
      }
      return CValue::of_bool(op == CmpOp::In ? found : !found);
    }
    case CmpOp::Lt: case CmpOp::LtE: case CmpOp::Gt: case CmpOp::GtE: {
      int o = order(a, b, op, loc);
      if (o == 2) return CValue::of_bool(false);  // NaN
      bool r = op == CmpOp::Lt ? o < 0 : op == CmpOp::LtE ? o <= 0 : op == CmpOp::Gt ? o > 0 : o >= 0;
      return CValue::of_bool(r);
    }
  }
  fail(loc, "unsupported comparison");
}

CValue fold_unary(UnaryOp op, const CValue& a, SrcLoc loc) {
  if (op == UnaryOp::Not) return CValue::of_bool(!constexpr_truth(a, loc));
  if (a.kind == K::Float) {
    if (op == UnaryOp::UAdd) return a;
    if (op == UnaryOp::USub) return CValue::of_float(-a.f);
    fail(loc, "bad operand type for unary ~: 'float'");
  }
  if (is_intlike(a)) {
    i128 x = sem::int_value(a);
    if (op == UnaryOp::UAdd) return sem::make_int(x, loc);
    if (op == UnaryOp::USub) return sem::make_int(-x, loc);
    return sem::make_int(~x, loc);
  }
  fail(loc, fmt::format("bad operand type for unary {}: '{}'", to_string(op), type_name(a)));
}

}  // namespace tritium::frontend::bi
