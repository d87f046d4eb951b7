// Python operators on code-generator values, conversions to IR, truthiness, and the
// dispatch of builtin calls (upstream: tensor operator methods of core.py and
// code_generator.py's _apply_binary_method / visit_UnaryOp / visit_BoolOp).
#include <fmt/format.h>

#include <set>

#include "frontend/builtins_impl.h"

namespace tritium::frontend {

using K = CValue::Kind;

namespace {

bool is_number(const CValue& v) { return v.kind == K::Int || v.kind == K::Float || v.kind == K::Bool; }

sem::Operand tensor_operand(const CValue& v, BinOp op, SrcLoc loc) {
  if (v.kind == K::Tensor || is_number(v)) return sem::operand(v, loc, "operand");
  throw CompileError(loc, fmt::format("unsupported operand for {}: {}", to_string(op), v.describe()));
}

}  // namespace

CValue binary_op(BuiltinContext& ctx, BinOp op, const CValue& a, const CValue& b, SrcLoc loc) {
  if (a.kind != K::Tensor && b.kind != K::Tensor) return bi::fold_binary(op, a, b, loc);
  sem::Operand x = tensor_operand(a, op, loc), y = tensor_operand(b, op, loc);
  ir::Builder& bl = ctx.b;
  bool debug = ctx.opts.debug;
  switch (op) {
    case BinOp::Add: return CValue::of_tensor(sem::add(bl, x, y, loc, debug));
    case BinOp::Sub: return CValue::of_tensor(sem::sub(bl, x, y, loc, debug));
    case BinOp::Mul: return CValue::of_tensor(sem::mul(bl, x, y, loc, debug));
    case BinOp::Div: return CValue::of_tensor(sem::truediv(bl, x, y, loc));
    case BinOp::FloorDiv: return CValue::of_tensor(sem::floordiv(bl, x, y, loc));
    case BinOp::Mod: return CValue::of_tensor(sem::mod(bl, x, y, loc));
    case BinOp::BitAnd: return CValue::of_tensor(sem::bitwise(bl, ir::OpKind::And, x, y, loc));
    case BinOp::BitOr: return CValue::of_tensor(sem::bitwise(bl, ir::OpKind::Or, x, y, loc));
    case BinOp::BitXor: return CValue::of_tensor(sem::bitwise(bl, ir::OpKind::Xor, x, y, loc));
    case BinOp::LShift: return CValue::of_tensor(sem::shift(bl, true, false, x, y, loc));
    case BinOp::RShift: {
      // Upstream's tensor.__rshift__ / __rrshift__ pick ashr vs lshr from the signedness of
      // the tensor whose method runs: the left operand if it is a tensor, else the right one.
      const CValue& self = a.kind == K::Tensor ? a : b;
      return CValue::of_tensor(sem::shift(bl, false, sem::tt_signed(self.tensor->type.scalar), x, y, loc));
    }
    case BinOp::Pow:
    case BinOp::MatMul:
      throw CompileError(loc, fmt::format("operator {} is not supported on tensors in Triton", to_string(op)));
  }
  throw CompileError(loc, "unsupported binary operator");
}

CValue compare_op(BuiltinContext& ctx, CmpOp op, const CValue& a, const CValue& b, SrcLoc loc) {
  if (op == CmpOp::Is || op == CmpOp::IsNot) {
    if (a.kind == K::Tensor || b.kind == K::Tensor) {
      bool same = a.kind == b.kind && a.tensor == b.tensor;
      return CValue::of_bool(op == CmpOp::Is ? same : !same);
    }
    return bi::fold_compare(op, a, b, loc);
  }
  if (a.kind != K::Tensor && b.kind != K::Tensor) return bi::fold_compare(op, a, b, loc);
  if (op == CmpOp::In || op == CmpOp::NotIn)
    throw CompileError(loc, fmt::format("`{}` is not supported on tensors", to_string(op)));
  // Upstream's tensor comparison methods call to_tensor on the other operand first: Python
  // scalars take their literal type (no weak typing), so `x_int8 > 0` compares in int32.
  ir::Value* x = sem::to_tensor(ctx.b, a, loc, "operand of a comparison");
  ir::Value* y = sem::to_tensor(ctx.b, b, loc, "operand of a comparison");
  static const char* kPred[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  return CValue::of_tensor(sem::compare(ctx.b, kPred[static_cast<int>(op)], sem::operand(x), sem::operand(y), loc));
}

CValue unary_op(BuiltinContext& ctx, UnaryOp op, const CValue& a, SrcLoc loc) {
  if (a.kind != K::Tensor) return bi::fold_unary(op, a, loc);
  switch (op) {
    case UnaryOp::UAdd: return a;
    case UnaryOp::USub: return CValue::of_tensor(sem::minus(ctx.b, a.tensor, loc));
    case UnaryOp::Invert: return CValue::of_tensor(sem::invert(ctx.b, a.tensor, loc));
    case UnaryOp::Not: return CValue::of_tensor(sem::logical_not(ctx.b, a.tensor, loc));
  }
  throw CompileError(loc, "unsupported unary operator");
}

CValue logical_op(BuiltinContext& ctx, BoolOp op, const CValue& a, const CValue& b, SrcLoc loc) {
  bool is_and = op == BoolOp::And;
  if (a.kind != K::Tensor && b.kind != K::Tensor) {
    bool ta = constexpr_truth(a, loc);
    return is_and ? (ta ? b : a) : (ta ? a : b);
  }
  ir::Value* x = sem::to_tensor(ctx.b, a, loc, std::string("operand of ") + to_string(op));
  ir::Value* y = sem::to_tensor(ctx.b, b, loc, std::string("operand of ") + to_string(op));
  return CValue::of_tensor(sem::logical(ctx.b, is_and, x, y, loc));
}

ir::Value* to_ir(BuiltinContext& ctx, const CValue& v, SrcLoc loc) {
  return sem::to_tensor(ctx.b, v, loc, "a run-time value is needed here");
}

ir::Value* to_condition(BuiltinContext& ctx, const CValue& v, SrcLoc loc) {
  if (v.kind != K::Tensor) return ctx.b.const_int(ir::Type::of(ir::ScalarType::I1), constexpr_truth(v, loc), loc);
  ir::Value* c = v.tensor;
  if (c->type.is_tensor()) {
    if (c->type.numel() != 1) throw CompileError(loc, "Boolean value of Tensor with more than one value is ambiguous");
    c = sem::reshape(ctx.b, c, {}, false, loc);
  }
  return sem::cast(ctx.b, c, ir::Type::of(ir::ScalarType::I1), loc);
}

bool constexpr_truth(const CValue& v, SrcLoc loc) {
  switch (v.kind) {
    case K::Bool: return v.b;
    case K::Int: return v.is_u64 ? v.u != 0 : v.i != 0;
    case K::Float: return v.f != 0.0;
    case K::None: return false;
    case K::Str: return !v.s.empty();
    case K::Tuple: return !v.elems.empty();
    case K::Tensor:
      throw CompileError(loc, "a run-time value (" + v.describe() + ") is used where a constexpr is needed");
    default: return true;
  }
}

namespace {

const bi::Registry& registry() {
  static const bi::Registry r = [] {
    bi::Registry reg;
    bi::register_creation(reg);
    bi::register_memory(reg);
    bi::register_atomic(reg);
    bi::register_block_ptr(reg);
    bi::register_math(reg);
    bi::register_libdevice(reg);
    bi::register_shape(reg);
    bi::register_reduce(reg);
    bi::register_map(reg);
    bi::register_dot(reg);
    bi::register_debug(reg);
    bi::register_python(reg);
    return reg;
  }();
  return r;
}

// Known parts of the language tritium does not implement yet.
const std::set<std::string>& not_yet() {
  static const std::set<std::string> s = {
      "tensor_descriptor", "tensor_descriptor_type", "rand", "rand4x", "randint",
      "randint4x", "randn", "randn4x", "philox", "philox_impl", "pair_uniform_to_normal",
      "uint_to_uniform_float", "inline_asm_elementwise", "dot_scaled",
      "condition", "float8e4b8", "float8e5b16", "void", "block_type", "tuple",
      "tuple_type", "slice", "pi32_t", "constexpr_type", "target_info", "extern_elementwise",
  };
  return s;
}

}  // namespace

std::string bi::display_name(const std::string& name) {
  if (name.rfind("py.", 0) == 0) return name.substr(3);
  if (name.rfind("libdevice.", 0) == 0 || name.rfind("triton.", 0) == 0) return name;
  return "tl." + name;
}

CValue call_builtin(BuiltinContext& ctx, const std::string& name_in, CValues args, std::vector<KwArg> kwargs,
                    SrcLoc loc) {
  std::string name = name_in.rfind("math.", 0) == 0 ? name_in.substr(5) : name_in;
  if (name == "range" || name == "static_range" || name == "py.range")
    throw CompileError(loc, bi::display_name(name_in) + " can only be used as the iterator of a for loop");
  const auto& reg = registry();
  auto it = reg.find(name);
  if (it != reg.end()) return it->second(ctx, std::move(args), std::move(kwargs), loc);
  if (not_yet().count(name))
    throw CompileError(loc, bi::display_name(name_in) + " is not supported yet");
  throw CompileError(loc, bi::display_name(name_in) + " is not supported by tritium");
}

}  // namespace tritium::frontend
