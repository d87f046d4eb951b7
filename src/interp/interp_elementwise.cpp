// Elementwise arithmetic, comparison, select (semantics: interpreter.h).
#include "interp/interp_ops.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tritium::interp {
namespace {

using ir::OpKind;

// Shape of an elementwise result: the operand with the larger element count.
const std::vector<int64_t>& common_shape(const ir::Op& op, const Val& a, const Val& b) {
  if (a.numel != b.numel && a.numel != 1 && b.numel != 1)
    refuse(op, "operand shapes differ (" + describe(a) + " vs " + describe(b) + ")");
  return a.numel >= b.numel ? a.shape : b.shape;
}

// r[i] = f(a[i·sa], b[i·sb]) with sa, sb ∈ {0, 1}.
template <class In, class Out, class F>
void loop2(const In* a, int64_t na, const In* b, int64_t nb, Out* r, int64_t n, F f) {
  if (na == n && nb == n) {
    for (int64_t i = 0; i < n; ++i) r[i] = f(a[i], b[i]);
  } else {
    const int64_t sa = na == 1 ? 0 : 1, sb = nb == 1 ? 0 : 1;
    for (int64_t i = 0; i < n; ++i) r[i] = f(a[i * sa], b[i * sb]);
  }
}

enum class Pred { kEq, kNe, kLt, kLe, kGt, kGe };
Pred parse_pred(const ir::Op& op) {
  const std::string p = op.attr_str("pred");
  if (p == "eq") return Pred::kEq;
  if (p == "ne") return Pred::kNe;
  if (p == "lt") return Pred::kLt;
  if (p == "le") return Pred::kLe;
  if (p == "gt") return Pred::kGt;
  if (p == "ge") return Pred::kGe;
  refuse(op, "unknown predicate '" + p + "'");
}

template <class T, class In>
void compare(Pred p, const In* a, int64_t na, const In* b, int64_t nb, uint8_t* r, int64_t n, T decode) {
  // Float comparisons with NaN: every ordered predicate is false, ne is true — exactly what
  // the C++ operators give.
  switch (p) {
    case Pred::kEq: loop2(a, na, b, nb, r, n, [&](In x, In y) -> uint8_t { return decode(x) == decode(y); }); break;
    case Pred::kNe: loop2(a, na, b, nb, r, n, [&](In x, In y) -> uint8_t { return decode(x) != decode(y); }); break;
    case Pred::kLt: loop2(a, na, b, nb, r, n, [&](In x, In y) -> uint8_t { return decode(x) < decode(y); }); break;
    case Pred::kLe: loop2(a, na, b, nb, r, n, [&](In x, In y) -> uint8_t { return decode(x) <= decode(y); }); break;
    case Pred::kGt: loop2(a, na, b, nb, r, n, [&](In x, In y) -> uint8_t { return decode(x) > decode(y); }); break;
    case Pred::kGe: loop2(a, na, b, nb, r, n, [&](In x, In y) -> uint8_t { return decode(x) >= decode(y); }); break;
  }
}

template <class TR>
void int_binary(const ir::Op& op, TR, const Val& a, const Val& b, Val& r) {
  using T = typename TR::Storage;
  const T* pa = a.as<T>();
  const T* pb = b.as<T>();
  const int64_t n = r.numel;
  if (op.kind == OpKind::Cmp) {
    compare(parse_pred(op), pa, a.numel, pb, b.numel, r.as<uint8_t>(), n, [](T x) { return x; });
    return;
  }
  T* pr = r.as<T>();
  auto run = [&](auto f) { loop2(pa, a.numel, pb, b.numel, pr, n, f); };
  constexpr uint64_t kAllOnes = ~0ull;
  switch (op.kind) {
    case OpKind::Add: run([](T x, T y) { return TR::wrap(TR::ubits(x) + TR::ubits(y)); }); break;
    case OpKind::Sub: run([](T x, T y) { return TR::wrap(TR::ubits(x) - TR::ubits(y)); }); break;
    case OpKind::Mul: run([](T x, T y) { return TR::wrap(TR::ubits(x) * TR::ubits(y)); }); break;
    case OpKind::And: run([](T x, T y) { return TR::wrap(TR::ubits(x) & TR::ubits(y)); }); break;
    case OpKind::Or: run([](T x, T y) { return TR::wrap(TR::ubits(x) | TR::ubits(y)); }); break;
    case OpKind::Xor: run([](T x, T y) { return TR::wrap(TR::ubits(x) ^ TR::ubits(y)); }); break;
    case OpKind::IDiv:
      run([](T x, T y) -> T {
        if (y == 0) return TR::wrap(kAllOnes);
        if constexpr (TR::kSigned) {
          if (y == T(-1)) return TR::wrap(0 - TR::ubits(x));  // INT_MIN / -1 wraps to INT_MIN
          return static_cast<T>(static_cast<int64_t>(x) / static_cast<int64_t>(y));
        } else {
          return TR::wrap(TR::ubits(x) / TR::ubits(y));
        }
      });
      break;
    case OpKind::Rem:
      run([](T x, T y) -> T {
        if (y == 0) return x;
        if constexpr (TR::kSigned) {
          if (y == T(-1)) return 0;
          return static_cast<T>(static_cast<int64_t>(x) % static_cast<int64_t>(y));
        } else {
          return TR::wrap(TR::ubits(x) % TR::ubits(y));
        }
      });
      break;
    case OpKind::Shl:
      run([](T x, T y) -> T {
        const uint64_t amt = TR::ubits(y);
        return amt >= static_cast<uint64_t>(TR::kWidth) ? T(0) : TR::wrap(TR::ubits(x) << amt);
      });
      break;
    case OpKind::Shr:
      run([](T x, T y) -> T {
        const uint64_t amt = TR::ubits(y);
        if constexpr (TR::kSigned) {
          const int64_t sx = static_cast<int64_t>(x);
          if (amt >= static_cast<uint64_t>(TR::kWidth)) return sx < 0 ? T(-1) : T(0);
          return static_cast<T>(sx >> amt);
        } else {
          return amt >= static_cast<uint64_t>(TR::kWidth) ? T(0) : TR::wrap(TR::ubits(x) >> amt);
        }
      });
      break;
    case OpKind::Min: run([](T x, T y) { return y < x ? y : x; }); break;
    case OpKind::Max: run([](T x, T y) { return y > x ? y : x; }); break;
    default: refuse(op, "not defined on integer type " + describe(a));
  }
}

template <class C> C fmin_rule(C x, C y, bool propagate) {
  if (std::isnan(x)) return propagate ? x : y;
  if (std::isnan(y)) return propagate ? y : x;
  if (x == y) return std::signbit(x) ? x : y;  // min(-0, +0) = -0
  return x < y ? x : y;
}
template <class C> C fmax_rule(C x, C y, bool propagate) {
  if (std::isnan(x)) return propagate ? x : y;
  if (std::isnan(y)) return propagate ? y : x;
  if (x == y) return std::signbit(x) ? y : x;  // max(-0, +0) = +0
  return x > y ? x : y;
}

template <class FT>
void float_binary(const ir::Op& op, FT ft, const Val& a, const Val& b, Val& r) {
  using S = typename FT::Storage;
  using C = typename FT::Compute;
  const S* pa = a.as<S>();
  const S* pb = b.as<S>();
  const int64_t n = r.numel;
  if (op.kind == OpKind::Cmp) {
    compare(parse_pred(op), pa, a.numel, pb, b.numel, r.as<uint8_t>(), n, [ft](S x) { return ft.decode(x); });
    return;
  }
  S* pr = r.as<S>();
  auto run = [&](auto f) {
    loop2(pa, a.numel, pb, b.numel, pr, n, [ft, f](S x, S y) { return ft.encode(f(ft.decode(x), ft.decode(y))); });
  };
  switch (op.kind) {
    case OpKind::Add: run([](C x, C y) { return x + y; }); break;
    case OpKind::Sub: run([](C x, C y) { return x - y; }); break;
    case OpKind::Mul: run([](C x, C y) { return x * y; }); break;
    case OpKind::Div: {
      const std::string rounding = op.attr_str("rounding");
      if (!rounding.empty() && rounding != "rn") refuse(op, "unknown rounding '" + rounding + "'");
      run([](C x, C y) { return x / y; });
      break;
    }
    case OpKind::Rem: run([](C x, C y) { return std::fmod(x, y); }); break;
    case OpKind::Min: {
      const bool prop = op.attr_int("propagate_nan", 0) != 0;
      run([prop](C x, C y) { return fmin_rule(x, y, prop); });
      break;
    }
    case OpKind::Max: {
      const bool prop = op.attr_int("propagate_nan", 0) != 0;
      run([prop](C x, C y) { return fmax_rule(x, y, prop); });
      break;
    }
    default: refuse(op, "not defined on float type " + describe(a));
  }
}

// r[i] = c[i] ? a[i] : b[i] for elements of ES bytes (strides 0 or 1; memcpy keeps the
// copy type-agnostic).
template <int ES>
void select_loop(const uint8_t* c, int64_t sc, const std::byte* a, int64_t sa, const std::byte* b, int64_t sb,
                 std::byte* r, int64_t n) {
  for (int64_t i = 0; i < n; ++i) std::memcpy(r + i * ES, c[i * sc] ? a + i * sa * ES : b + i * sb * ES, ES);
}

}  // namespace

Val eval_binary(const ir::Op& op, const Val& a, const Val& b) {
  if (a.scalar != b.scalar || a.is_ptr != b.is_ptr) refuse(op, "operand types differ: " + describe(a) + " vs " + describe(b));
  const ir::Type& rt = op.results.at(0)->type;
  Val r = Val::make(rt.scalar, rt.is_ptr, common_shape(op, a, b));
  if (a.is_ptr) {
    if (op.kind != OpKind::Cmp) refuse(op, "not defined on pointers");
    // Pointers compare as unsigned 64-bit addresses.
    compare(parse_pred(op), a.as<uint64_t>(), a.numel, b.as<uint64_t>(), b.numel, r.as<uint8_t>(), r.numel,
            [](uint64_t x) { return x; });
    return r;
  }
  if (op.kind == OpKind::Cmp ? rt.scalar != ir::ScalarType::I1 : rt.scalar != a.scalar)
    refuse(op, "unexpected result type " + rt.str());
  if (visit_int(a.scalar, [&](auto tr) { int_binary(op, tr, a, b, r); })) return r;
  if (visit_float(a.scalar, [&](auto ft) { float_binary(op, ft, a, b, r); })) return r;
  refuse(op, "unsupported operand type " + describe(a));
}

Val eval_unary(const ir::Op& op, const Val& a) {
  if (a.is_ptr) refuse(op, "not defined on pointers");
  Val r = Val::make(a.scalar, false, a.shape);
  const int64_t n = a.numel;
  if (op.kind != OpKind::Neg && op.kind != OpKind::Not) refuse(op, "not a unary op");
  const bool is_int = visit_int(a.scalar, [&](auto tr) {
    using TR = decltype(tr);
    using T = typename TR::Storage;
    const T* pa = a.as<T>();
    T* pr = r.as<T>();
    if (op.kind == OpKind::Neg)
      for (int64_t i = 0; i < n; ++i) pr[i] = TR::wrap(0 - TR::ubits(pa[i]));
    else
      for (int64_t i = 0; i < n; ++i) pr[i] = TR::wrap(~TR::ubits(pa[i]));
  });
  if (is_int) return r;
  if (op.kind == OpKind::Not) refuse(op, "bitwise not of float type " + describe(a));
  // Neg on floats flips the sign bit only (NaN included), as hardware neg does.
  const int bits = ir::bitwidth(a.scalar);
  const uint64_t sign = 1ull << (bits - 1);
  for (int64_t i = 0; i < n; ++i) store_bits(r, i, load_bits(a, i) ^ sign);
  return r;
}

Val eval_select(const ir::Op& op, const Val& c, const Val& a, const Val& b) {
  if (c.is_ptr || c.scalar != ir::ScalarType::I1) refuse(op, "condition must be int1");
  if (a.scalar != b.scalar || a.is_ptr != b.is_ptr) refuse(op, "operand types differ");
  int64_t n = std::max({c.numel, a.numel, b.numel});
  for (const Val* v : {&c, &a, &b})
    if (v->numel != n && v->numel != 1) refuse(op, "operand shapes differ");
  const std::vector<int64_t>& shape = c.numel == n ? c.shape : a.numel == n ? a.shape : b.shape;
  Val r = Val::make(a.scalar, a.is_ptr, shape);
  const int64_t sc = c.numel == 1 ? 0 : 1, sa = a.numel == 1 ? 0 : 1, sb = b.numel == 1 ? 0 : 1;
  const uint8_t* pc = c.as<uint8_t>();
  const std::byte* pa = a.bytes();
  const std::byte* pb = b.bytes();
  std::byte* pr = r.bytes();
  switch (a.elem_size()) {
    case 1: select_loop<1>(pc, sc, pa, sa, pb, sb, pr, n); break;
    case 2: select_loop<2>(pc, sc, pa, sa, pb, sb, pr, n); break;
    case 4: select_loop<4>(pc, sc, pa, sa, pb, sb, pr, n); break;
    case 8: select_loop<8>(pc, sc, pa, sa, pb, sb, pr, n); break;
    default: refuse(op, "unsupported element size");
  }
  return r;
}

}  // namespace tritium::interp
