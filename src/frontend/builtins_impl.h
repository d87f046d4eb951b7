// Internal helpers shared by the builtins_*.cpp files: argument binding in the manner of
// Python signatures, argument conversions, and the registry of builtin handlers. Not part
// of the code generator's interface (that is builtins.h).
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "frontend/builtins.h"
#include "frontend/codegen.h"
#include "frontend/semantic.h"

namespace tritium::frontend::bi {

/// One parameter of a builtin's Python signature.
struct Param {
  std::string name;
  bool required = false;
  CValue dflt;  ///< default when not required
};
/// A required parameter.
inline Param req(std::string n) { return Param{std::move(n), true, CValue::none()}; }
/// An optional parameter with default `d` (None unless given).
inline Param opt(std::string n, CValue d = CValue::none()) { return Param{std::move(n), false, std::move(d)}; }

/// Arguments bound to a signature: positional parameters, then (when `varargs` is set) a
/// `*rest` collecting the remaining positional arguments, then keyword-only parameters.
/// Unknown keywords, duplicates, missing required arguments and surplus positional
/// arguments are CompileErrors naming the builtin.
class Args {
 public:
  /// `n_positional`: how many of `params` may be given positionally (-1: all); with
  /// `varargs`, surplus positional arguments go to rest().
  Args(const std::string& fn, CValues pos, std::vector<KwArg> kw, std::vector<Param> params, SrcLoc loc,
       bool varargs = false, int n_positional = -1);
  /// The bound value of parameter `name` (its default when not given).
  const CValue& operator[](const std::string& name) const;
  /// True when `name` was bound to something other than None.
  bool has(const std::string& name) const;
  /// The *rest arguments.
  const CValues& rest() const { return rest_; }
  /// Name of the builtin (for messages).
  const std::string& fn() const { return fn_; }
  /// Location of the call.
  SrcLoc loc() const { return loc_; }

 private:
  std::string fn_;
  SrcLoc loc_;
  std::vector<std::string> names_;
  CValues values_;
  CValues rest_;
};

// ---- argument conversions (CompileError naming `what` on mismatch) -----------------------

/// The user-facing spelling of a builtin name: "load" → "tl.load", "py.min" → "min",
/// "libdevice.tanh" and "triton.cdiv" unchanged.
std::string display_name(const std::string& name);
/// Throws CompileError(loc, msg).
[[noreturn]] void fail(SrcLoc loc, const std::string& msg);
/// A constexpr int (bools refused).
int64_t int_arg(const CValue& v, SrcLoc loc, const std::string& what);
/// A constexpr bool (Python truthiness of a constexpr; None → false).
bool bool_arg(const CValue& v, SrcLoc loc, const std::string& what);
/// A constexpr string.
std::string str_arg(const CValue& v, SrcLoc loc, const std::string& what);
/// A dtype.
ir::Type dtype_arg(const CValue& v, SrcLoc loc, const std::string& what);
/// A tensor (IR value); Python scalars are converted with their literal types (to_tensor).
ir::Value* tensor_arg(BuiltinContext& ctx, const CValue& v, SrcLoc loc, const std::string& what);
/// A tensor that must already be one (no conversion of Python scalars).
ir::Value* tensor_only(const CValue& v, SrcLoc loc, const std::string& what);
/// A list of constexpr ints from a tuple, or a single int.
std::vector<int64_t> int_list(const CValue& v, SrcLoc loc, const std::string& what);
/// upstream _unwrap_iterable: a single tuple argument stands for its elements.
CValues unwrap_iterable(const CValues& v);
/// upstream validate_block_shape: every dim a power-of-two int, numel <= 2^20.
std::vector<int64_t> block_shape(const CValues& dims, SrcLoc loc);
/// Normalizes axis to [0, ndim) (upstream _wrap_axis).
int wrap_axis(int64_t axis, int ndim, SrcLoc loc);
/// Shape of a tensor value as a Tuple of Ints.
CValue shape_tuple(const ir::Type& t);

/// Elementwise math function on one IR value (result type = operand type, or `result`).
ir::Value* math(BuiltinContext& ctx, ir::MathFn f, std::vector<ir::Value*> args, SrcLoc loc,
                std::optional<ir::Type> result = std::nullopt);

// ---- registry ----------------------------------------------------------------------------

/// A builtin implementation.
using Handler = std::function<CValue(BuiltinContext&, CValues, std::vector<KwArg>, SrcLoc)>;
/// Builtin name → implementation.
using Registry = std::map<std::string, Handler>;

void register_creation(Registry& r);  // builtins_creation.cpp
void register_memory(Registry& r);    // builtins_memory.cpp
void register_atomic(Registry& r);    // builtins_atomic.cpp
void register_block_ptr(Registry& r); // builtins_block_ptr.cpp

/// True for a block pointer made by tl.make_block_ptr (builtins_block_ptr.cpp).
bool is_block_ptr(const CValue& v);
/// bp.dtype / bp.type (the pointer dtype of the element; see builtins_block_ptr.cpp).
CValue block_ptr_attr(const CValue& bp, const std::string& attr, SrcLoc loc);
/// tl.load through block pointer `bp` (the other arguments as tl.load received them).
CValue load_block_ptr(BuiltinContext& ctx, const CValue& bp, bool has_mask_or_other, const CValue& boundary_check,
                      const std::string& padding, const CValue& cache, const CValue& evict, const CValue& is_volatile,
                      SrcLoc loc);
/// True for a tensor descriptor made by tl.make_tensor_descriptor.
bool is_tensor_desc(const CValue& v);
/// desc.block_shape / .dtype / .shape / .strides.
CValue tensor_desc_attr(const CValue& d, const std::string& attr, SrcLoc loc);
/// tl.store through block pointer `bp`.
void store_block_ptr(BuiltinContext& ctx, const CValue& bp, const CValue& value, bool has_mask,
                     const CValue& boundary_check, const CValue& cache, const CValue& evict, SrcLoc loc);
void register_math(Registry& r);      // builtins_math.cpp
void register_libdevice(Registry& r); // builtins_libdevice.cpp
void register_shape(Registry& r);     // builtins_shape.cpp
void register_reduce(Registry& r);    // builtins_reduce.cpp
void register_map(Registry& r);       // builtins_map.cpp
void register_dot(Registry& r);       // builtins_dot.cpp
void register_debug(Registry& r);     // builtins_debug.cpp
void register_python(Registry& r);    // builtins_python.cpp

/// Calls a math.py function in its method form (`x.exp()`), which upstream does not
/// dtype-check: fp16/bf16 compute in fp32 and round back (see builtins_math.cpp).
CValue call_math_method(BuiltinContext& ctx, const std::string& name, const CValue& self, SrcLoc loc);
/// True for math.py functions that are also tensor methods.
bool is_math_method(const std::string& name);

/// Folds a binary operator on two constexprs with Python semantics (builtins_fold.cpp).
CValue fold_binary(BinOp op, const CValue& a, const CValue& b, SrcLoc loc);
/// Folds a comparison on two compile-time values.
CValue fold_compare(CmpOp op, const CValue& a, const CValue& b, SrcLoc loc);
/// Folds a unary operator on a constexpr.
CValue fold_unary(UnaryOp op, const CValue& a, SrcLoc loc);

}  // namespace tritium::frontend::bi
