// known_positive.cpp - see known_positive.h.
#include "passes/known_positive.h"

#include <variant>

#include "ir/dtype.h"

namespace tritium::passes {

bool known_positive(const ir::Value* v) {
  if (!v || !v->type.is_scalar() || !v->type.is_int() || v->type.scalar == ir::ScalarType::I1 || !v->def)
    return false;
  const ir::Op& op = *v->def;
  switch (op.kind) {
    case ir::OpKind::Constant: {
      auto it = op.attrs.find("value");
      if (it == op.attrs.end()) return false;
      const int64_t* iv = std::get_if<int64_t>(&it->second);
      if (!iv) return false;
      return *iv > 0;  // an unsigned constant past 2^63 is stored by its bits (negative): false
    }
    case ir::OpKind::NumPrograms:
      return true;
    case ir::OpKind::Cast: {
      const ir::Value* src = op.operands[0];
      if (!src->type.is_int() || !known_positive(src)) return false;
      // Widening keeps a positive value; at the same width a positive signed value reads as
      // itself in either signedness, an unsigned one (maybe past the signed range) only unsigned.
      const int from = ir::byte_size(src->type.scalar), to = ir::byte_size(v->type.scalar);
      if (to > from) return true;
      return to == from && (ir::is_signed_int(src->type.scalar) || !ir::is_signed_int(v->type.scalar));
    }
    case ir::OpKind::Max:
      return known_positive(op.operands[0]) || known_positive(op.operands[1]);  // max(a, b) >= a and >= b
    default:
      return false;
  }
}

}  // namespace tritium::passes
