// C-family expressions of the IR's scalar semantics, shared by the renderers whose output
// is C++ (the CPU backend) or CUDA C++ (the cuda backend): element types, literals, casts
// and the expression of one element of every elementwise op. The expressions call the
// helpers of the scalar prelude (codegen/scalar_prelude.h: tr_add, tr_idiv, tr_fmin, tr_h2f,
// tr_expf, ...), which every such renderer embeds, so both give the reference interpreter's
// bits (src/interp/interpreter.h) for every op but the libm-backed math functions (sin,
// cos, erf, tanh, ...: the target's own library there).
//
// Storage types: int8_t..uint64_t, uint8_t for int1 (0 / 1) and the fp8 formats, uint16_t
// for fp16 / bf16 (bit patterns), float, double; pointers "T*". Arithmetic on the narrow
// float formats is done in float and rounded after every op.
#pragma once
#include <string>
#include <vector>

#include "ir/ir.h"

namespace tritium::codegen {

/// Whether an op of kind `k` quiets a signaling NaN operand itself: + - * / (IEEE arithmetic
/// returns it quiet) and comparisons (a bool). Operands used only there need no quieting
/// of their own (CExpr::to_compute_arith).
bool quiets_nan_operands(ir::OpKind k);

/// The language a renderer writes: C++ (cpu, cuda: the prelude's helpers are templates)
/// or OpenCL C 1.2 (no templates: the prelude's helpers carry the element type in their
/// name, `tr_add_int32_t`; pointers are `__global`; the float math builtins are overloaded,
/// so `exp`, not `expf`; 64-bit literals take `L`), or the Metal Shading Language, written
/// as the OpenCL C dialect is (type-suffixed helpers, overloaded math), with `device`
/// pointers and no fp64 (constructs that would need a double are refused).
enum class Dialect { Cpp, OpenCL, MSL };

class CExpr {
 public:
  /// `backend` names the renderer in refusals ("cpu", "cuda"). `gpu_approx`: native
  /// numerics on NVIDIA GPUs, where fp32 `/` (without div_rn / ieee_rounding), tl.exp and
  /// tl.exp2 use the approximate instructions upstream Triton emits (div.full.f32; ex2.approx.f32,
  /// after a multiply by log2(e) for exp) instead of the correctly rounded / tritium-math
  /// versions (the prelude's tr_div_full / tr_exp_approx / tr_ex2_approx); libdevice.exp /
  /// exp2 (math ops with attribute "precise") keep tritium's accurate versions.
  explicit CExpr(std::string backend, bool gpu_approx = false, Dialect dialect = Dialect::Cpp)
      : backend_(std::move(backend)), gpu_approx_(gpu_approx), dialect_(dialect) {}

  Dialect dialect() const { return dialect_; }
  bool opencl() const { return dialect_ == Dialect::OpenCL; }
  bool msl() const { return dialect_ == Dialect::MSL; }
  /// OpenCL C or MSL: a device language written without C++ templates or GCC builtins.
  bool cl_like() const { return dialect_ != Dialect::Cpp; }
  /// The address-space qualifier of pointers to kernel buffers ("" in C++).
  const char* space() const { return opencl() ? "__global" : msl() ? "device" : ""; }
  /// The renderer's name in "not lowered by the <renderer> yet" refusals.
  /// The backend's name in messages ("cpu", "cuda", "opencl", "metal").
  const std::string& backend() const { return backend_; }
  const char* renderer_name() const { return opencl() ? "OpenCL C renderer" : msl() ? "MSL renderer" : "C++ renderer"; }
  /// A call of the prelude's helper `f` for element type `t` (a storage or compute type
  /// name): `f<t>(args)` in C++, `f_t(args)` in OpenCL C.
  std::string tcall(const std::string& f, const std::string& t, const std::string& args) const;
  /// ctype / zero_of / load_expr in this dialect (OpenCL C: pointers to `__global`).
  std::string type(const ir::Type& t) const;
  std::string zero(const ir::Type& t) const;
  std::string load(const ir::Type& ptr, const std::string& p, bool is_volatile) const;
  /// A 64-bit integer literal (`(int64_t)5LL`; OpenCL C: `(int64_t)5L`) and its unsigned form.
  std::string i64_literal(int64_t v) const;
  std::string u64_literal(uint64_t v) const;

  /// Throws frontend::CompileError(op.loc, "<backend> backend: <op> not supported: <why>").
  [[noreturn]] void refuse(const ir::Op& op, const std::string& why) const;

  /// C++ storage type of one element (see the file comment); pointers "T*".
  static std::string ctype(const ir::Type& t);
  /// C++ type arithmetic is done in: float (fp8/fp16/bf16/fp32), double, else ctype.
  static std::string compute_type(ir::ScalarType t);
  /// Converts a stored value to its compute type (exact) and back (rounding to nearest).
  static std::string to_compute(ir::ScalarType t, const std::string& e);
  /// to_compute for a value whose only uses are IEEE arithmetic, comparisons or a rounding
  /// back to a 16-bit type, which quiet a signaling NaN themselves: bf16 skips its quieting
  /// (tr_bf2f_nq); every other type is to_compute.
  static std::string to_compute_arith(ir::ScalarType t, const std::string& e);
  static std::string from_compute(ir::ScalarType t, const std::string& e);
  /// A C++ literal of type `t` holding zero.
  static std::string zero_of(const ir::Type& t);
  /// Dereferences pointer expression `p` of pointer type `ptr` as a value of the pointee
  /// type (`volatile`: through a volatile pointer; int1: the byte read as != 0).
  static std::string load_expr(const ir::Type& ptr, const std::string& p, bool is_volatile);
  /// A double-quoted C string literal of `s`.
  static std::string c_string(const std::string& s);

  /// The C++ literal of a constant op's element. Refuses a constant without a usable value.
  std::string literal(const ir::Op& constant) const;
  /// Numeric conversion of expression `x` from `from` to `to` ("rtne"/"" or "rtz").
  /// `xc` (may be ""): x already in its compute type.
  std::string cast_expr(const ir::Op& op, ir::ScalarType from, ir::ScalarType to, const std::string& rounding,
                        const std::string& x, const std::string& xc = "") const;
  /// The result of elementwise op `op` (one element) given its operand expressions; `dec[k]`
  /// (may be missing or "") is operand k already in its compute type, read instead of
  /// to_compute(args[k]) where the op uses the operand's value (not its bits).
  std::string elementwise_expr(const ir::Op& op, const std::vector<std::string>& args,
                               const std::vector<std::string>& dec = {}) const;

 private:
  std::string hex_double(double d) const;
  std::string float_literal(float f) const;
  std::string backend_;
  bool gpu_approx_ = false;
  Dialect dialect_ = Dialect::Cpp;
};

}  // namespace tritium::codegen
