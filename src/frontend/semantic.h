// Triton's typing rules (upstream `language/semantic.py`, Triton 3.6) on tritium's IR:
// literal typing, integer promotion, the computation type of binary operators with weak
// Python scalars, broadcasting, casts, and the elementwise operators that emit IR.
// builtins.h is built on these; the code generator may use them directly (e.g. `cast` for
// loop-carried values, `broadcast_pair`).
//
// Operands are `Operand`s: an IR value (a tensor or a run-time scalar) or a weak Python
// scalar (a constexpr int/float/bool that has not been given a type yet). Every function
// throws frontend::CompileError at `loc` for what upstream rejects.
//
// Signedness follows Triton (as ir::is_signed_int does): Triton lists int1 with the unsigned
// types (`dtype.UINT_TYPES`), so int1 is unsigned in promotion, comparisons, division and
// integer casts (zero-extended), see `tt_unsigned`. Where an IR op's meaning would depend on
// how a backend reads int1's signedness (ordered compares, min/max), the operands are
// zero-extended to uint8 first, so the IR never relies on it.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "frontend/value.h"
#include "ir/builder.h"

namespace tritium::frontend::sem {

// ---- scalar-type properties (Triton's view) ----------------------------------------------

/// Triton's signedness: int1 and uint* are unsigned; int8..int64 signed (floats: false).
bool tt_unsigned(ir::ScalarType t);
/// True for int8..int64 (Triton's `is_int_signed`).
bool tt_signed(ir::ScalarType t);
/// Triton's spelling of a type for messages: "int32", "fp16", "pointer<fp32>",
/// "<[128, 64], fp32>" for blocks (as upstream prints block types).
std::string tt_name(const ir::Type& t);
/// Same for an element type.
std::string tt_name(ir::ScalarType t);
/// Kind order used by weak typing: bool (0) < integral (1) < floating (2).
int kind_rank(ir::ScalarType t);
/// Smallest / largest value of an integer type (as __int128 to cover uint64 and int64).
__int128 int_min(ir::ScalarType t);
__int128 int_max(ir::ScalarType t);

/// The value of a constexpr Int / Bool as a 128-bit integer (u64 values included).
__int128 int_value(const CValue& v);
/// A constexpr Int for `v`; CompileError if `v` is outside [-2^63, 2^64) (tritium keeps
/// Python ints in 64 bits; upstream would carry on with bigger ones).
CValue make_int(__int128 v, SrcLoc loc);

/// A Python scalar's literal type (upstream to_tensor): bool → int1; int → int32, uint32,
/// int64, uint64 by range; float → fp32, or fp64 when finite, non-zero and outside fp32's
/// normal range (|x| < 2^-126 or > FLT_MAX). `v` must be Int, Float or Bool.
ir::ScalarType literal_type(const CValue& v, SrcLoc loc);

// ---- operands --------------------------------------------------------------------------

/// An operand of a typed operation: an IR value, or a weak Python scalar.
struct Operand {
  ir::Value* value = nullptr;  ///< set for tensors / run-time scalars
  CValue scalar;               ///< Int/Float/Bool when `value` is null
  /// True for a weak Python scalar.
  bool is_scalar() const { return value == nullptr; }
  /// The element type: the value's, or the literal type of the Python scalar.
  ir::ScalarType scalar_type(SrcLoc loc) const;
  /// True when the element is a pointer (never for Python scalars).
  bool is_ptr() const { return value && value->type.is_ptr; }
};
/// Wraps a CValue (Tensor → value; Int/Float/Bool → weak scalar); anything else is a
/// CompileError naming `what` (e.g. "operand of +").
Operand operand(const CValue& v, SrcLoc loc, const std::string& what);
/// Wraps an IR value.
Operand operand(ir::Value* v);

// ---- promotion -------------------------------------------------------------------------

/// C's usual arithmetic conversions on two integer types with Triton's signedness
/// (upstream integer_promote_impl).
ir::ScalarType integer_promote(ir::ScalarType a, ir::ScalarType b);

/// Upstream computation_type_impl: the type both operands are converted to. A weak scalar
/// of a lower or equal kind than the tensor does not take part (but `/`, `%` on fp16 /
/// bf16 compute in fp32). `div_or_mod` for `/`, `//`, `%`: fp16/bf16 compute in fp32 and
/// mixed signedness of integers is an error.
ir::ScalarType computation_type(ir::ScalarType a, bool a_is_scalar, ir::ScalarType b, bool b_is_scalar,
                                bool div_or_mod, SrcLoc loc);

// ---- IR building blocks ---------------------------------------------------------------

/// A scalar constant of type `t` for Python scalar `v` (Int/Float/Bool). Integer types get
/// the value's two's-complement bits (uint64 above 2^63 as negative int64 attr); float types
/// the value as double. No range check (callers check).
ir::Value* constant(ir::Builder& b, const CValue& v, ir::ScalarType t, SrcLoc loc);
/// A constant of type `t` (scalar, or splat tensor) equal to integer `v` (float types get
/// (double)v).
ir::Value* const_int(ir::Builder& b, const ir::Type& t, int64_t v, SrcLoc loc);
/// Upstream to_tensor: tensors as they are; Python scalars as constants of their literal type.
ir::Value* to_tensor(ir::Builder& b, const CValue& v, SrcLoc loc, const std::string& what);

/// Splats a scalar or broadcasts a tensor to `shape` (upstream broadcast_impl_shape: same
/// rank, only size-1 dims grow).
ir::Value* broadcast_to(ir::Builder& b, ir::Value* v, const std::vector<int64_t>& shape, SrcLoc loc);
/// Makes two values shape-compatible (upstream broadcast_impl_value: splat scalars,
/// prepend size-1 dims to the lower rank, broadcast size-1 dims).
void broadcast_pair(ir::Builder& b, ir::Value*& x, ir::Value*& y, SrcLoc loc);
/// Inserts a size-1 dim at `axis` (0 <= axis <= rank); a scalar is splat to shape [1].
ir::Value* expand_dims(ir::Builder& b, ir::Value* v, int axis, SrcLoc loc);
/// Row-major reshape to `shape` (same element count, else CompileError).
ir::Value* reshape(ir::Builder& b, ir::Value* v, const std::vector<int64_t>& shape, bool can_reorder, SrcLoc loc);

/// Upstream semantic.cast: numeric conversion to element type `to` (shape kept). int/float
/// → int1 is `!= 0`; fp16/bf16 → anything but fp32 goes through fp32; fp8 only to/from
/// floats; ptr → int64 / int1, int → ptr, ptr → ptr. `rounding` ("rtne", "rtz" or "" =
/// default) only for float downcasts, else CompileError.
ir::Value* cast(ir::Builder& b, ir::Value* v, const ir::Type& to, SrcLoc loc, const std::string& rounding = "");
/// Upstream semantic.bitcast: same-width reinterpretation (pointers go through cast).
ir::Value* bitcast(ir::Builder& b, ir::Value* v, const ir::Type& to, SrcLoc loc);

/// Upstream binary_op_type_checking_impl: types, converts and broadcasts both operands.
/// `allow_lhs_ptr` / `allow_rhs_ptr` permit pointer operands; `arithmetic_check` applies
/// computation_type (else only broadcasting and pointer checks). `opname` names the
/// operation in messages.
std::pair<ir::Value*, ir::Value*> check_binary(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc,
                                               bool allow_lhs_ptr, bool allow_rhs_ptr, bool arithmetic_check,
                                               bool div_or_mod, const std::string& opname);

/// An `assert` op (what tl.device_assert emits in debug mode): fails the launch when an
/// element of int1 `cond` is 0, reporting `msg` and loc's file:line.
void assert_op(ir::Builder& b, ir::Value* cond, const std::string& msg, SrcLoc loc);

// ---- operators (emit IR; upstream names) ------------------------------------------------

/// `+` (also ptr + int → addptr). `sanitize`: in debug mode, integers narrower than 64 bits
/// are also computed in int64 and an `assert` checks the result fits (upstream
/// binary_op_sanitize_overflow_impl).
ir::Value* add(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc, bool sanitize = false);
/// `-` (ptr - int → addptr of the negated offset).
ir::Value* sub(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc, bool sanitize = false);
/// `*`.
ir::Value* mul(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc, bool sanitize = false);
/// `/`: always floating (int/int → fp32; float/float → the type with the wider mantissa).
ir::Value* truediv(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc);
/// `//`: integers only (C truncation toward zero); floats are an error as upstream.
ir::Value* floordiv(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc);
/// `%`: C remainder for ints (sign of the dividend), fmod for floats.
ir::Value* mod(ir::Builder& b, const Operand& x, const Operand& y, SrcLoc loc);
/// tl.fdiv on two IR values (both floating, same element type after broadcasting).
/// `ieee_rounding` is accepted and ignored, as upstream 3.6 does (a plain div either way).
ir::Value* fdiv(ir::Builder& b, ir::Value* x, ir::Value* y, bool ieee_rounding, SrcLoc loc);
/// Bitwise & | ^ (`k` = And/Or/Xor; integers only, integer promotion).
ir::Value* bitwise(ir::Builder& b, ir::OpKind k, const Operand& x, const Operand& y, SrcLoc loc);
/// << and >>. For >>, `arithmetic` is upstream's choice: the signedness of the tensor whose
/// method runs (the left operand when it is a tensor, else the right one), applied to the
/// promoted type even when that type has the other signedness.
ir::Value* shift(ir::Builder& b, bool left, bool arithmetic, const Operand& x, const Operand& y, SrcLoc loc);
/// Upstream minimum/maximum after their to_tensor/bf16 promotion (see builtins);
/// `propagate_nan` for floats.
ir::Value* minmax(ir::Builder& b, bool is_max, const Operand& x, const Operand& y, bool propagate_nan,
                  SrcLoc loc);
/// Comparisons: pred is one of eq ne lt le gt ge; result int1 of the broadcast shape.
/// (Python scalars stay weak here: callers wanting upstream's tensor operators convert them
/// with to_tensor first.)
ir::Value* compare(ir::Builder& b, const std::string& pred, const Operand& x, const Operand& y, SrcLoc loc);
/// Unary minus (`0 - x` as upstream; pointers refused).
ir::Value* minus(ir::Builder& b, ir::Value* x, SrcLoc loc);
/// Bitwise invert (`x ^ all-ones`; floats and pointers refused).
ir::Value* invert(ir::Builder& b, ir::Value* x, SrcLoc loc);
/// Logical not (upstream not_: the operand is bitcast to int1, so only 1-bit types pass).
ir::Value* logical_not(ir::Builder& b, ir::Value* x, SrcLoc loc);
/// Logical and/or of tensors (operands bitcast to int1 as upstream, then & / |).
ir::Value* logical(ir::Builder& b, bool is_and, ir::Value* x, ir::Value* y, SrcLoc loc);
/// tl.where(c, x, y): c (an IR value) cast to int1, x and y promoted as a binary op; all
/// three broadcast to one shape.
ir::Value* where(ir::Builder& b, ir::Value* c, const Operand& x, const Operand& y, SrcLoc loc);

}  // namespace tritium::frontend::sem
