// The Triton language as seen by the AST → IR code generator: Python operators on values,
// attributes of namespaces and values, calls of language builtins and methods, subscripts,
// and conversions of values to IR. Everything here follows upstream Triton's
// `language/semantic.py`, `core.py`, `standard.py` and `math.py` (the specification); the
// type-level rules themselves live in semantic.h.
//
// Conventions shared with the code generator:
// * Builtins are CValue::Kind::Builtin values with a qualified name in `s`:
//     tl.X / triton.language.X        → "X"            (e.g. "load", "exp", "float32" is a DType)
//     tl.math.X / triton.language.math → "math.X"
//     libdevice.X (any import path)    → "libdevice.X"
//     triton.cdiv / triton.next_power_of_2 → "triton.cdiv" / "triton.next_power_of_2"
//     Python builtins (min, max, ...)  → "py.X"  (see python_builtin())
//   Methods (value_attr) are CValue::Kind::Method: `s` = the method name ("sum", "to", or
//   "dtype.is_floating" for dtype predicates), elems[0] = the receiver.
// * Names the code generator must handle itself (call_builtin refuses them with a
//   CompileError saying so): "range", "static_range" (only as for-loop iterators) and
//   "py.range". Annotation markers: "constexpr" (tl.constexpr; calling it,
//   `tl.constexpr(4)`, returns its argument), "const", "tensor", "dtype".
// * tl.PropagateNan.ALL / NONE are the Str constexprs "PropagateNan.ALL" / "PropagateNan.NONE".
// * Every user error is a frontend::CompileError at the given SrcLoc naming the construct.
//   Unsupported-but-known language features ("tl.atomic_add is not supported yet") too.
// * Values computed at run time are Kind::Tensor (scalar or block ir::Value); constexprs
//   (Int, Float, Bool, None, Str) fold at compile time with Python semantics.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "frontend/value.h"
#include "ir/builder.h"

namespace tritium::frontend {

struct GenOptions;  // codegen.h

/// What builtins need from the code generator.
struct BuiltinContext {
  /// Insertion point for every op the builtins emit.
  ir::Builder& b;
  /// Code generation options (debug mode enables tl.device_assert).
  const GenOptions& opts;
  /// Calls a jit function value (CValue::Kind::JitFn) with positional args: emits the call
  /// (or inlines it) at the builder's insertion point and returns its result — a Tuple for
  /// several results, None for none. Used for tl.reduce combine functions.
  std::function<CValue(const CValue& fn, CValues args, SrcLoc loc)> call_jit;
};

/// Python-operator semantics on values. constexpr ⊗ constexpr folds with Python semantics
/// (floor `//`, Python `%`, `/` → float, `**`, int results beyond 64 bits → CompileError);
/// anything involving a tensor follows Triton's typing rules and emits IR (promotion with
/// weak Python scalars, broadcasting, pointer arithmetic, C-style integer `//` and `%`).
CValue binary_op(BuiltinContext& ctx, BinOp op, const CValue& a, const CValue& b, SrcLoc loc);

/// Comparisons: constexprs fold (also `is`/`is not` on None and dtypes, `in` on tuples,
/// == on dtypes); with tensors Triton's rules apply (no weak typing of Python scalars:
/// the literal takes its own literal type first) and the result is int1.
CValue compare_op(BuiltinContext& ctx, CmpOp op, const CValue& a, const CValue& b, SrcLoc loc);

/// Unary `+ - ~ not`. On tensors: `-x` is `0 - x` (as upstream), `~` is bitwise (refused
/// on floats and pointers), `not` is the logical not of an int1 tensor (other types are
/// refused, as upstream's bitcast to int1 does).
CValue unary_op(BuiltinContext& ctx, UnaryOp op, const CValue& a, SrcLoc loc);

/// One step of `and` / `or` once the code generator has dropped the constexpr operands
/// that do not decide the result (upstream visit_BoolOp): on two constexprs Python's
/// `a and b` / `a or b`; with a tensor, upstream's tensor.logical_and / logical_or (the
/// other operand converted with its literal type; both must be int1).
CValue logical_op(BuiltinContext& ctx, BoolOp op, const CValue& a, const CValue& b, SrcLoc loc);

/// Attribute `attr` of namespace `ns` (as named by CValue::Kind::Namespace values:
/// "triton", "triton.language", "triton.language.math", "triton.language.extra",
/// "triton.language.extra.cuda", "libdevice"). Returns a DType for dtype names
/// ("float32" → fp32), a Builtin for functions, a Namespace for sub-modules, nullopt when
/// the attribute is unknown (the caller reports it).
std::optional<CValue> namespace_attr(const std::string& ns, const std::string& attr);

/// The Python builtin `name` usable inside kernels ("min", "max", "abs", "len", "int",
/// "float", "bool", "range", "print", "isinstance" is not) as a Builtin "py.NAME", or
/// nullopt if it is not one the language allows.
std::optional<CValue> python_builtin(const std::string& name);

/// Calls builtin `name` (the `s` of a Builtin value from namespace_attr/python_builtin)
/// with positional and keyword arguments, binding them like upstream's signatures
/// (keyword names as upstream spells them). Returns the result (None for statements such
/// as tl.store, a Tuple for several results).
CValue call_builtin(BuiltinContext& ctx, const std::string& name, CValues args, std::vector<KwArg> kwargs,
                    SrcLoc loc);

/// Attribute of a value: tensor .dtype .shape .T .numel .type; methods (.to .sum .max .min
/// .argmax .argmin .reshape .view .trans .permute .broadcast_to .expand_dims .cast
/// .__getitem__ ...) return a Method value (receiver in elems[0]); dtype attributes
/// (.element_ty, .primitive_bitwidth, .fp_mantissa_width, methods .is_floating() .is_int()
/// .is_ptr() .is_fp16() ...). Unknown attributes are a CompileError.
CValue value_attr(BuiltinContext& ctx, const CValue& self, const std::string& attr, SrcLoc loc);

/// Calls a Method value (from value_attr).
CValue call_method(BuiltinContext& ctx, const CValue& method, CValues args, std::vector<KwArg> kwargs,
                   SrcLoc loc);

/// `self[index]`. On tensors: None (insert a size-1 dim) and `:` (keep a dim), alone or
/// in a Tuple; integer indices, bounded slices and `...` are refused (as upstream). On
/// Tuples: a constexpr int index (negative counts from the end) or a slice with constexpr
/// bounds.
CValue subscript(BuiltinContext& ctx, const CValue& self, const CValue& index, SrcLoc loc);

/// A runtime IR value for a value: tensors as they are; constexprs become constants with
/// Triton's literal typing (bool → int1; int → int32, uint32, int64 or uint64 by range;
/// float → fp32, or fp64 when finite, non-zero and outside fp32's normal range).
/// Anything else (None, str, dtype, tuple...) is a CompileError.
ir::Value* to_ir(BuiltinContext& ctx, const CValue& v, SrcLoc loc);

/// Condition of a dynamic if/while: a scalar int1. Non-bool scalars are compared `!= 0` as
/// upstream does; a block tensor is a CompileError.
ir::Value* to_condition(BuiltinContext& ctx, const CValue& v, SrcLoc loc);

/// Python truthiness of a compile-time value (static if, `and`/`or`/`not` on constexprs,
/// static_assert). Tensors are a CompileError ("dynamic value where a constexpr is needed").
bool constexpr_truth(const CValue& v, SrcLoc loc);

}  // namespace tritium::frontend
