// Elementwise operators with Triton's typing (upstream semantic.py: add, sub, mul, truediv,
// floordiv, fdiv, mod, and_/or_/xor_, shl/ashr/lshr, minimum/maximum, comparisons, minus,
// invert, not_, logical_and/or, where).
#include <fmt/format.h>

#include "frontend/semantic.h"

namespace tritium::frontend::sem {

using ir::OpKind;
using ir::ScalarType;
using ir::Type;

void assert_op(ir::Builder& b, ir::Value* cond, const std::string& msg, SrcLoc loc) {
  b.create(OpKind::Assert, {cond}, {}, loc,
           {{"msg", msg},
            {"file", std::string(loc.filename())},
            {"func", std::string()},
            {"line", static_cast<int64_t>(loc.line)}});
}

namespace {

// int1 → uint8 (0/1) so ordered compares and min/max never depend on int1's signedness.
ir::Value* widen_bool(ir::Builder& b, ir::Value* v, SrcLoc loc) {
  return cast(b, v, Type::of(ScalarType::U8), loc);
}

// Upstream binary_op_sanitize_overflow_impl (active in debug mode): recompute in int64
// and assert the result fits the narrower type.
void sanitize_overflow(ir::Builder& b, OpKind k, ir::Value* x, ir::Value* y, const char* opname, SrcLoc loc) {
  ScalarType t = x->type.scalar;
  if (ir::bitwidth(t) >= 64) return;
  Type i64 = x->type.with_scalar(ScalarType::I64);
  ir::Value* r = b.binary(k, cast(b, x, i64, loc), cast(b, y, i64, loc), loc);
  ir::Value* hi = const_int(b, i64, static_cast<int64_t>(int_max(t)), loc);
  ir::Value* lo = const_int(b, i64, static_cast<int64_t>(int_min(t)), loc);
  ir::Value* ok = b.binary(OpKind::And, b.cmp("le", r, hi, loc), b.cmp("ge", r, lo, loc), loc);
  assert_op(b, ok, fmt::format("int{} overflow detected for operation {}", ir::bitwidth(t), opname), loc);
}

ir::Value* int_arith(ir::Builder& b, OpKind k, ir::Value* x, ir::Value* y, bool sanitize, const char* opname,
                     SrcLoc loc) {
  if (sanitize) sanitize_overflow(b, k, x, y, opname, loc);
  return b.binary(k, x, y, loc);
}

[[noreturn]] void unexpected(SrcLoc loc, const Type& t, const std::string& op) {
  throw CompileError(loc, fmt::format("unexpected type {} for {}", tt_name(t.element()), op));
}

}  // namespace

// Arithmetic and comparisons whose computation type is an fp8 type (two operands of one fp8
// type, or one with a Python scalar): upstream 3.6 cannot compile them (its LLVM lowering
// fails; measured on an H200), so tritium refuses rather than define numbers of its own.
// Two different fp8 types compute in fp16, which upstream compiles, and so does tritium.
static void refuse_fp8(const ir::Value* x, const char* what, SrcLoc loc) {
  if (!x->type.is_ptr && ir::is_fp8(x->type.scalar))
    throw CompileError(loc, fmt::format("{} of {} values is not supported (upstream Triton cannot compile it either); "
                                        "convert to fp16 or fp32 first, e.g. x.to(tl.float32)",
                                        what, tt_name(x->type.scalar)));
}

ir::Value* add(ir::Builder& b, const Operand& a, const Operand& c, SrcLoc loc, bool sanitize) {
  auto [x, y] = check_binary(b, a, c, loc, true, true, true, false, "+");
  refuse_fp8(x, "+", loc);
  if (x->type.is_ptr && y->type.is_ptr) throw CompileError(loc, "cannot add pointers together");
  if (y->type.is_ptr) std::swap(x, y);
  if (x->type.is_ptr) {
    // addptr reads the offset as signed: zero-extend unsigned offsets narrower than 64 bits.
    if (tt_unsigned(y->type.scalar) && ir::bitwidth(y->type.scalar) < 64)
      y = cast(b, y, y->type.with_scalar(ScalarType::I64), loc);
    return b.create(OpKind::AddPtr, {x, y}, {x->type}, loc)->result();
  }
  if (x->type.is_float()) return b.binary(OpKind::Add, x, y, loc);
  if (x->type.is_int()) return int_arith(b, OpKind::Add, x, y, sanitize, "add", loc);
  unexpected(loc, x->type, "+");
}

ir::Value* sub(ir::Builder& b, const Operand& a, const Operand& c, SrcLoc loc, bool sanitize) {
  auto [x, y] = check_binary(b, a, c, loc, true, false, true, false, "-");
  refuse_fp8(x, "-", loc);
  if (x->type.is_ptr) return add(b, operand(x), operand(minus(b, y, loc)), loc, false);
  if (x->type.is_float()) return b.binary(OpKind::Sub, x, y, loc);
  if (x->type.is_int()) return int_arith(b, OpKind::Sub, x, y, sanitize, "sub", loc);
  unexpected(loc, x->type, "-");
}

ir::Value* mul(ir::Builder& b, const Operand& a, const Operand& c, SrcLoc loc, bool sanitize) {
  auto [x, y] = check_binary(b, a, c, loc, false, false, true, false, "*");
  refuse_fp8(x, "*", loc);
  if (x->type.is_float()) return b.binary(OpKind::Mul, x, y, loc);
  if (x->type.is_int()) return int_arith(b, OpKind::Mul, x, y, sanitize, "mul", loc);
  unexpected(loc, x->type, "*");
}

ir::Value* truediv(ir::Builder& b, const Operand& a, const Operand& c, SrcLoc loc) {
  auto [x, y] = check_binary(b, a, c, loc, false, false, true, true, "/");
  refuse_fp8(x, "/", loc);
  // After the computation type both have one type: int/int divides in fp32.
  if (x->type.is_int()) {
    x = cast(b, x, Type::of(ScalarType::F32), loc);
    y = cast(b, y, Type::of(ScalarType::F32), loc);
  }
  if (!x->type.is_float()) unexpected(loc, x->type, "/");
  return b.binary(OpKind::Div, x, y, loc);
}

ir::Value* floordiv(ir::Builder& b, const Operand& a, const Operand& c, SrcLoc loc) {
  auto [x, y] = check_binary(b, a, c, loc, false, false, true, true, "//");
  if (!x->type.is_int())
    throw CompileError(loc, fmt::format("unexpected type {}: `//` is only defined on integers in Triton",
                                        tt_name(x->type.element())));
  return b.binary(OpKind::IDiv, x, y, loc);
}

ir::Value* mod(ir::Builder& b, const Operand& a, const Operand& c, SrcLoc loc) {
  auto [x, y] = check_binary(b, a, c, loc, false, false, true, true, "%");
  refuse_fp8(x, "%", loc);
  if (!x->type.is_float() && !x->type.is_int()) unexpected(loc, x->type, "%");
  return b.binary(OpKind::Rem, x, y, loc);
}

ir::Value* fdiv(ir::Builder& b, ir::Value* x, ir::Value* y, bool ieee_rounding, SrcLoc loc) {
  (void)ieee_rounding;  // upstream 3.6 accepts and ignores it (plain divf either way)
  if (!x->type.is_float() || !y->type.is_float())
    throw CompileError(loc, "both operands of fdiv must have floating scalar type");
  broadcast_pair(b, x, y, loc);
  if (x->type.scalar != y->type.scalar)
    throw CompileError(loc, fmt::format("fdiv operands have different types {} and {} (fdiv does not promote)",
                                        tt_name(x->type.scalar), tt_name(y->type.scalar)));
  return b.binary(OpKind::Div, x, y, loc);
}

ir::Value* bitwise(ir::Builder& b, OpKind k, const Operand& a, const Operand& c, SrcLoc loc) {
  const char* name = k == OpKind::And ? "&" : k == OpKind::Or ? "|" : "^";
  auto [x, y] = check_binary(b, a, c, loc, false, false, true, false, name);
  if (!x->type.is_int() || !y->type.is_int())
    throw CompileError(loc, fmt::format("invalid operands of type {} and {} for {}", tt_name(x->type.element()),
                                        tt_name(y->type.element()), name));
  return b.binary(k, x, y, loc);
}

ir::Value* shift(ir::Builder& b, bool left, bool arithmetic, const Operand& a, const Operand& c, SrcLoc loc) {
  const char* name = left ? "<<" : ">>";
  auto [x, y] = check_binary(b, a, c, loc, false, false, true, false, name);
  if (!x->type.is_int() || !y->type.is_int())
    throw CompileError(loc, fmt::format("invalid operands of type {} and {} for {}", tt_name(x->type.element()),
                                        tt_name(y->type.element()), name));
  if (left) return b.binary(OpKind::Shl, x, y, loc);
  ScalarType t = x->type.scalar;
  // The IR's shr is arithmetic exactly for signed types: reinterpret when upstream's choice
  // (the signedness of the tensor whose method runs) differs from the promoted type's.
  if (t != ScalarType::I1 && arithmetic != tt_signed(t)) {
    static const ScalarType kSigned[] = {ScalarType::I8, ScalarType::I16, ScalarType::I32, ScalarType::I64};
    static const ScalarType kUnsigned[] = {ScalarType::U8, ScalarType::U16, ScalarType::U32, ScalarType::U64};
    int idx = ir::bitwidth(t) == 8 ? 0 : ir::bitwidth(t) == 16 ? 1 : ir::bitwidth(t) == 32 ? 2 : 3;
    Type as = x->type.with_scalar(arithmetic ? kSigned[idx] : kUnsigned[idx]);
    ir::Value* r = b.binary(OpKind::Shr, b.bitcast(x, as, loc), b.bitcast(y, as, loc), loc);
    return b.bitcast(r, x->type, loc);
  }
  return b.binary(OpKind::Shr, x, y, loc);
}

ir::Value* minmax(ir::Builder& b, bool is_max, const Operand& a, const Operand& c, bool propagate_nan, SrcLoc loc) {
  auto [x, y] = check_binary(b, a, c, loc, false, false, true, false, is_max ? "maximum" : "minimum");
  OpKind k = is_max ? OpKind::Max : OpKind::Min;
  if (x->type.is_float())
    return b.create(k, {x, y}, {x->type}, loc, {{"propagate_nan", static_cast<int64_t>(propagate_nan ? 1 : 0)}})
        ->result();
  if (!x->type.is_int()) unexpected(loc, x->type, is_max ? "maximum" : "minimum");
  if (x->type.scalar == ScalarType::I1) {
    ir::Value* r = b.binary(k, widen_bool(b, x, loc), widen_bool(b, y, loc), loc);
    return cast(b, r, x->type, loc);
  }
  return b.binary(k, x, y, loc);
}

ir::Value* compare(ir::Builder& b, const std::string& pred, const Operand& a, const Operand& c, SrcLoc loc) {
  auto [x, y] = check_binary(b, a, c, loc, false, false, true, false, "comparison");
  refuse_fp8(x, "comparison", loc);
  if (!x->type.is_float() && !x->type.is_int()) unexpected(loc, x->type, "comparison");
  if (x->type.scalar == ScalarType::I1 && pred != "eq" && pred != "ne") {
    x = widen_bool(b, x, loc);
    y = widen_bool(b, y, loc);
  }
  return b.cmp(pred, x, y, loc);
}

ir::Value* minus(ir::Builder& b, ir::Value* x, SrcLoc loc) {
  if (x->type.is_ptr)
    throw CompileError(loc, "wrong type argument to unary minus (" + tt_name(x->type.element()) + ")");
  // Upstream computes 0 - x (so -(+0.0) is +0.0, as in Triton).
  ir::Value* zero = const_int(b, x->type.element(), 0, loc);
  return sub(b, operand(zero), operand(x), loc, false);
}

ir::Value* invert(ir::Builder& b, ir::Value* x, SrcLoc loc) {
  if (x->type.is_ptr || x->type.is_float())
    throw CompileError(loc, "wrong type argument to unary invert (" + tt_name(x->type.element()) + ")");
  ir::Value* ones = b.const_int(x->type.element(), -1, loc);
  return bitwise(b, OpKind::Xor, operand(x), operand(ones), loc);
}

namespace {
ir::Value* to_bool_bits(ir::Builder& b, ir::Value* v, SrcLoc loc) {
  if (v->type.is_bool()) return v;
  return bitcast(b, v, v->type.with_scalar(ScalarType::I1), loc);  // refuses wider types, as upstream
}
}  // namespace

ir::Value* logical_not(ir::Builder& b, ir::Value* x, SrcLoc loc) { return invert(b, to_bool_bits(b, x, loc), loc); }

ir::Value* logical(ir::Builder& b, bool is_and, ir::Value* x, ir::Value* y, SrcLoc loc) {
  return bitwise(b, is_and ? OpKind::And : OpKind::Or, operand(to_bool_bits(b, x, loc)),
                 operand(to_bool_bits(b, y, loc)), loc);
}

ir::Value* where(ir::Builder& b, ir::Value* c, const Operand& a, const Operand& d, SrcLoc loc) {
  c = cast(b, c, Type::of(ScalarType::I1), loc);
  auto [x, y] = check_binary(b, a, d, loc, true, true, true, false, "where");
  if (x->type.is_ptr != y->type.is_ptr || x->type.scalar != y->type.scalar)
    throw CompileError(loc, fmt::format("tl.where operands have different types {} and {}", tt_name(x->type.element()),
                                        tt_name(y->type.element())));
  if (c->type.is_tensor()) {
    broadcast_pair(b, c, x, loc);
    broadcast_pair(b, x, y, loc);
    broadcast_pair(b, c, x, loc);
  } else if (x->type.is_tensor()) {
    c = b.splat(c, x->type.shape, loc);
  }
  return b.select(c, x, y, loc);
}

}  // namespace tritium::frontend::sem
