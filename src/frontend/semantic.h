// Triton's typing rules (upstream `language/semantic.py`) on tritium's IR: literal typing,
// integer promotion, the computation type of binary operators with weak Python scalars,
// broadcasting, casts, and the elementwise operators that emit IR. builtins.h is built on
// these; the code generator may use them directly (e.g. to cast loop-carried values).
//
// Operands are `Operand`s: an IR value (a tensor or a run-time scalar) or a weak Python
// scalar (a constexpr int/float/bool that has not been given a type yet). Every function
// throws frontend::CompileError at `loc` for what upstream rejects.
//
// Signedness follows Triton, not ir::is_signed_int: Triton lists int1 with the unsigned
// types (`dtype.UINT_TYPES`), so `int1` behaves as unsigned in promotion, comparisons,
// division and integer casts (zero-extended), see `tt_unsigned`.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "frontend/value.h"
#include "ir/builder.h"

namespace tritium::frontend::sem {

// ---- scalar-type properties (Triton's view) ----------------------------------------------

/// Triton's signedness: int8..int64 are signed; int1 and uint* are unsigned.
bool tt_unsigned(ir::ScalarType t);
/// Triton's dtype name for messages ("int32", "fp16", "bf16", "pointer<fp32>").
std::string tt_name(const ir::Type& t);
/// Kind order used by weak typing: bool (0) < integral (1) < floating (2).
int kind_rank(ir::ScalarType t);

/// A Python scalar's literal type (upstream to_tensor_type): bool → int1; int → int32,
/// uint32, int64, uint64 by range; float → fp32, or fp64 when finite, non-zero and outside
/// fp32's normal range. `v` must be Int, Float or Bool.
ir::ScalarType literal_type(const CValue& v, SrcLoc loc);

// ---- operands --------------------------------------------------------------------------

/// An operand of a typed operation: an IR value, or a weak Python scalar.
struct Operand {
  ir::Value* value = nullptr;  ///< set for tensors / run-time scalars
  CValue scalar;               ///< Int/Float/Bool when `value` is null
  bool is_scalar() const { return value == nullptr; }
  /// The (scalar) element type: the value's, or the literal type of the Python scalar.
  ir::ScalarType scalar_type(SrcLoc loc) const;
  /// True when the element is a pointer (never for Python scalars).
  bool is_ptr() const { return value && value->type.is_ptr; }
};
/// Wraps a CValue (Tensor → value; Int/Float/Bool → weak scalar); anything else is a
/// CompileError naming `what` (e.g. "operand of +").
Operand operand(const CValue& v, SrcLoc loc, const std::string& what);

// ---- promotion -------------------------------------------------------------------------

/// C's usual arithmetic conversions on two integer types with Triton's signedness
/// (upstream integer_promote_impl).
ir::ScalarType integer_promote(ir::ScalarType a, ir::ScalarType b);

/// Upstream computation_type_impl: the type both operands are converted to. A weak scalar
/// of a lower or equal kind than the tensor does not take part (except `/`, `%` on fp16 /
/// bf16 → fp32). `div_or_mod` for `/`, `//`, `%`: fp16/bf16 compute in fp32 and mixed
/// signedness of integers is an error.
ir::ScalarType computation_type(ir::ScalarType a, bool a_is_scalar, ir::ScalarType b, bool b_is_scalar,
                                bool div_or_mod, SrcLoc loc);

// ---- IR building blocks ---------------------------------------------------------------

/// A constant of scalar type `t` for Python scalar `v` (ints checked to fit `t`'s range).
ir::Value* constant(ir::Builder& b, const CValue& v, ir::ScalarType t, SrcLoc loc);
/// A constant of type `t` (scalar or splat tensor) holding integer `v` / float `v`.
ir::Value* const_of(ir::Builder& b, const ir::Type& t, double fv, int64_t iv, SrcLoc loc);

/// Splats a scalar or broadcasts a tensor to `shape` (same rank for tensors; numpy rules).
ir::Value* broadcast_to(ir::Builder& b, ir::Value* v, const std::vector<int64_t>& shape, SrcLoc loc);
/// Makes two values shape-compatible (upstream broadcast_impl_value: splat scalars,
/// prepend size-1 dims to the lower rank, broadcast size-1 dims).
void broadcast_pair(ir::Builder& b, ir::Value*& x, ir::Value*& y, SrcLoc loc);

/// Upstream semantic.cast: numeric conversion to element type `to` (shape kept); int →
/// int1 is `!= 0`; fp16/bf16 → non-fp32 goes through fp32; ptr ↔ int64 and ptr → ptr.
/// `rounding` ("rtne"/"rtz", or "" for the default) only for float downcasts.
ir::Value* cast(ir::Builder& b, ir::Value* v, const ir::Type& to, SrcLoc loc, const std::string& rounding = "");
/// Upstream semantic.bitcast: same-width reinterpretation (pointers go through cast).
ir::Value* bitcast(ir::Builder& b, ir::Value* v, const ir::Type& to, SrcLoc loc);

/// Upstream binary_op_type_checking_impl: types, converts and broadcasts both operands.
/// `allow_lhs_ptr` / `allow_rhs_ptr` permit pointer operands; `arithmetic_check` applies
/// computation_type (else only broadcasting and pointer checks). Returns IR values of
/// equal shape (and, with arithmetic_check and no pointers, equal type).
std::pair<ir::Value*, ir::Value*> check_binary(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc,
                                               bool allow_lhs_ptr, bool allow_rhs_ptr, bool arithmetic_check,
                                               bool div_or_mod, const std::string& opname);

// ---- operators (emit IR; upstream names) ------------------------------------------------

ir::Value* add(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc);
ir::Value* sub(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc);
ir::Value* mul(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc);
/// `/`: always floating (int/int → fp32; float/float → the wider mantissa).
ir::Value* truediv(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc);
/// `//`: integers only (C truncation); floats → floor(x / y) as upstream's core.py does.
ir::Value* floordiv(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc);
/// `%`: C remainder for ints (mixed signedness an error), fmod for floats.
ir::Value* mod(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc);
/// tl.fdiv: both operands floating.
ir::Value* fdiv(ir::Builder& b, const Operand& x, const Operand& y, bool ieee_rounding, SrcLoc loc);
/// Bitwise & | ^ (integers only, integer promotion).
ir::Value* bitwise(ir::Builder& b, ir::OpKind k, const Operand& x, const Operand& y, SrcLoc loc);
/// << and >> (>> arithmetic when the promoted type is signed).
ir::Value* shift(ir::Builder& b, bool left, const Operand& x, const Operand& y, SrcLoc loc);
/// tl.minimum / tl.maximum (`propagate_nan` for floats).
ir::Value* minmax(ir::Builder& b, bool is_max, const Operand& x, const Operand& y, bool propagate_nan, SrcLoc loc);
/// Comparisons: pred is one of eq ne lt le gt ge; result int1 of the broadcast shape.
ir::Value* compare(ir::Builder& b, const std::string& pred, const Operand& x, const Operand& y, SrcLoc loc);
/// Unary minus (0 - x as upstream), bitwise invert (x ^ all-ones), logical not.
ir::Value* minus(ir::Builder& b, ir::Value* x, SrcLoc loc);
ir::Value* invert(ir::Builder& b, ir::Value* x, SrcLoc loc);
ir::Value* logical_not(ir::Builder& b, ir::Value* x, SrcLoc loc);
/// Logical and/or of tensors (operands converted to int1 first).
ir::Value* logical(ir::Builder& b, bool is_and, ir::Value* x, ir::Value* y, SrcLoc loc);
/// tl.where(c, x, y): c cast to int1, x and y promoted as a binary op and broadcast with c.
ir::Value* where(ir::Builder& b, const Operand& c, const Operand& x, const Operand& y, SrcLoc loc);

}  // namespace tritium::frontend::sem
