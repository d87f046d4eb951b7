// C-family expressions of the IR's scalar semantics (see c_expr.h): types, constants,
// casts and the expression of every elementwise op, shared by the CPU and CUDA renderers.
// The semantics live in the helpers of the scalar prelude (scalar_prelude.cpp).
#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "codegen/c_expr.h"
#include "frontend/source.h"
#include "common/float_formats.h"

namespace tritium::codegen {

using ir::MathFn;
using ir::Op;
using ir::OpKind;
using ir::ScalarType;

namespace {


std::string scalar_ctype(ScalarType t) {
  switch (t) {
    case ScalarType::I1: return "uint8_t";
    case ScalarType::I8: return "int8_t";
    case ScalarType::I16: return "int16_t";
    case ScalarType::I32: return "int32_t";
    case ScalarType::I64: return "int64_t";
    case ScalarType::U8: return "uint8_t";
    case ScalarType::U16: return "uint16_t";
    case ScalarType::U32: return "uint32_t";
    case ScalarType::U64: return "uint64_t";
    case ScalarType::F8E4NV: case ScalarType::F8E5: case ScalarType::F8E4B15: return "uint8_t";
    case ScalarType::F16: case ScalarType::BF16: return "uint16_t";
    case ScalarType::F32: return "float";
    case ScalarType::F64: return "double";
  }
  return "void";
}

/// Suffix of the prelude's fp8 helpers.
const char* fp8_suffix(ScalarType t) {
  switch (t) {
    case ScalarType::F8E4NV: return "e4nv";
    case ScalarType::F8E5: return "e5";
    default: return "e4b15";
  }
}

FloatFormat narrow_format(ScalarType t) {
  switch (t) {
    case ScalarType::F16: return FloatFormat::F16;
    case ScalarType::BF16: return FloatFormat::BF16;
    case ScalarType::F8E4NV: return FloatFormat::F8E4NV;
    case ScalarType::F8E5: return FloatFormat::F8E5;
    default: return FloatFormat::F8E4B15;
  }
}

/// tritium's own fp32 function (src/common/tmath.inc, embedded in the prelude) for math on
/// float compute types (fp32 and the narrow types computed in fp32), so generated code and
/// the interpreter give the same bits; nullptr where libm's float version is used.
const char* tmath_name(MathFn f) {
  switch (f) {
    case MathFn::Exp: return "tr_expf";
    case MathFn::Exp2: return "tr_exp2f";
    case MathFn::Log: return "tr_logf";
    case MathFn::Log2: return "tr_log2f";
    default: return nullptr;
  }
}

/// libm name of a unary/binary math function for float (`f` suffix) or double.
const char* libm_name(MathFn f) {
  switch (f) {
    case MathFn::Exp: return "exp";
    case MathFn::Exp2: return "exp2";
    case MathFn::Log: return "log";
    case MathFn::Log2: return "log2";
    case MathFn::Sqrt: case MathFn::SqrtRn: return "sqrt";
    case MathFn::Sin: return "sin";
    case MathFn::Cos: return "cos";
    case MathFn::Erf: return "erf";
    case MathFn::Floor: return "floor";
    case MathFn::Ceil: return "ceil";
    case MathFn::Abs: return "fabs";
    case MathFn::Fma: return "fma";
    case MathFn::Tanh: return "tanh";
    case MathFn::Log1p: return "log1p";
    case MathFn::Expm1: return "expm1";
    case MathFn::Pow: return "pow";
    case MathFn::Trunc: return "trunc";
    case MathFn::Round: return "round";
    case MathFn::Rint: return "rint";
    case MathFn::Erfc: return "erfc";
    case MathFn::Tan: return "tan";
    case MathFn::Atan: return "atan";
    case MathFn::Atan2: return "atan2";
    case MathFn::Asin: return "asin";
    case MathFn::Acos: return "acos";
    case MathFn::Sinh: return "sinh";
    case MathFn::Cosh: return "cosh";
    case MathFn::Exp10: return "exp10";
    case MathFn::Log10: return "log10";
    case MathFn::Cbrt: return "cbrt";
    case MathFn::Hypot: return "hypot";
    case MathFn::Copysign: return "copysign";
    case MathFn::Fmod: return "fmod";
    default: return nullptr;
  }
}

// OpenCL C 1.2 has no device addresses: a buffer is a cl_mem, and the addresses tritium
// hands out for it (runtime/opencl/opencl_device.h) exist only on the host. An integer
// made into a pointer (a pointer array loaded from memory, tl.pointer_type casts) cannot
// be turned back into memory there. The MSL renderer binds each buffer as a kernel
// argument the same way and refuses the same constructs.
std::string int_to_ptr_why(bool msl) {
  if (msl)
    return "an integer turned into a pointer is not lowered by the MSL renderer yet: buffers are bound as kernel "
           "arguments, so a pointer can only come from one (pass the tensors as arguments, or run on cpu / cuda)";
  return "an integer turned into a pointer: OpenCL C 1.2 buffers have no device addresses, so a pointer can only "
         "come from a kernel argument (pass the tensors as arguments, or run on cpu / cuda)";
}

}  // namespace

// ---- types ---------------------------------------------------------------------------------

std::string CExpr::tcall(const std::string& f, const std::string& t, const std::string& args) const {
  if (cl_like()) return fmt::format("{}_{}({})", f, t, args);
  return fmt::format("{}<{}>({})", f, t, args);
}

std::string CExpr::type(const ir::Type& t) const {
  if (cl_like() && t.is_ptr) return std::string(space()) + " " + ctype(t);
  return ctype(t);
}

std::string CExpr::zero(const ir::Type& t) const {
  if (t.is_ptr) return fmt::format("({})0", type(t));
  return zero_of(t);
}

std::string CExpr::load(const ir::Type& ptr, const std::string& p, bool is_volatile) const {
  if (!cl_like()) return load_expr(ptr, p, is_volatile);
  std::string deref = is_volatile ? fmt::format("*(volatile {} {})({})", space(), ctype(ptr.element()), p)
                                  : fmt::format("*({})", p);
  if (ptr.scalar == ScalarType::I1) return fmt::format("(uint8_t)({} != 0)", deref);
  return deref;
}

std::string CExpr::i64_literal(int64_t v) const {
  const char* sfx = cl_like() ? "L" : "LL";
  if (v == INT64_MIN) return fmt::format("(int64_t)(-9223372036854775807{} - 1)", sfx);
  return fmt::format("(int64_t){}{}", v, sfx);
}

std::string CExpr::u64_literal(uint64_t v) const {
  return fmt::format("(uint64_t){}{}", v, cl_like() ? "UL" : "ull");
}

std::string CExpr::hex_double(double d) const {
  if (std::isfinite(d)) return fmt::format("{:a}", d);
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return tcall("tr_bits", "double", fmt::format("(uint64_t)0x{:016x}{}", u, cl_like() ? "UL" : "ull"));
}

std::string CExpr::float_literal(float f) const {
  if (std::isfinite(f)) return fmt::format("{:a}f", static_cast<double>(f));
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return tcall("tr_bits", "float", fmt::format("(uint32_t)0x{:08x}u", u));
}

void CExpr::refuse(const Op& op, const std::string& why) const {
  throw frontend::CompileError(op.loc, backend_ + " backend: " + op.name() + " not supported: " + why);
}

std::string CExpr::ctype(const ir::Type& t) {
  std::string s = scalar_ctype(t.scalar);
  return t.is_ptr ? s + "*" : s;
}

std::string CExpr::compute_type(ScalarType t) {
  if (t == ScalarType::F64) return "double";
  if (ir::is_float(t)) return "float";
  return scalar_ctype(t);
}

std::string CExpr::to_compute(ScalarType t, const std::string& e) {
  switch (t) {
    case ScalarType::F16: return "tr_h2f(" + e + ")";
    case ScalarType::BF16: return "tr_bf2f(" + e + ")";
    case ScalarType::F8E4NV: case ScalarType::F8E5: case ScalarType::F8E4B15:
      return fmt::format("tr_{}2f({})", fp8_suffix(t), e);
    default: return e;
  }
}

bool quiets_nan_operands(OpKind k) {
  return k == OpKind::Add || k == OpKind::Sub || k == OpKind::Mul || k == OpKind::Div || k == OpKind::Cmp;
}

std::string CExpr::to_compute_arith(ScalarType t, const std::string& e) {
  return t == ScalarType::BF16 ? "tr_bf2f_nq(" + e + ")" : to_compute(t, e);
}

std::string CExpr::from_compute(ScalarType t, const std::string& e) {
  switch (t) {
    case ScalarType::F16: return "tr_f2h(" + e + ")";
    case ScalarType::BF16: return "tr_f2bf(" + e + ")";
    case ScalarType::F8E4NV: case ScalarType::F8E5: case ScalarType::F8E4B15:
      return fmt::format("tr_f2{}({}, 0)", fp8_suffix(t), e);  // from the float compute type
    default: return e;
  }
}

std::string CExpr::zero_of(const ir::Type& t) {
  if (t.is_ptr) return fmt::format("({})0", ctype(t));
  if (t.scalar == ScalarType::F32) return "0.0f";
  if (t.scalar == ScalarType::F64) return "0.0";
  return fmt::format("({})0", ctype(t));
}

std::string CExpr::load_expr(const ir::Type& ptr, const std::string& p, bool is_volatile) {
  std::string deref = is_volatile ? fmt::format("*(volatile {})({})", ctype(ptr.element()), p) : fmt::format("*({})", p);
  if (ptr.scalar == ScalarType::I1) return fmt::format("(uint8_t)({} != 0)", deref);
  return deref;
}

std::string CExpr::c_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
    else if (c == '\n') out += "\\n";
    else if (c < 0x20 || c >= 0x7f) out += fmt::format("\\{:03o}", c);
    else out += static_cast<char>(c);
  }
  return out + "\"";
}

std::string CExpr::literal(const Op& op) const {
  const ir::Type t = op.results[0]->type.element();
  auto it = op.attrs.find("value");
  if (it == op.attrs.end()) refuse(op, "constant without a value");
  const ir::Attr& a = it->second;
  const int64_t* iv = std::get_if<int64_t>(&a);
  const double* dv = std::get_if<double>(&a);
  if (!iv && !dv) refuse(op, "constant value must be an int or a float");
  if (t.is_ptr) {
    if (!iv) refuse(op, "pointer constant needs an integer value");
    if (cl_like() && *iv != 0) refuse(op, int_to_ptr_why(msl()));
    return fmt::format("({})(uintptr_t){}", type(t), u64_literal(static_cast<uint64_t>(*iv)));
  }
  if (ir::is_int(t.scalar)) {
    if (!iv) refuse(op, "integer constant of type " + t.str() + " has a non-integer value");
    int64_t v = *iv;
    switch (t.scalar) {
      case ScalarType::I1: return v != 0 ? "(uint8_t)1" : "(uint8_t)0";
      case ScalarType::I64: return i64_literal(v);
      case ScalarType::U64: return u64_literal(static_cast<uint64_t>(v));
      default: return fmt::format("({})({})", ctype(t), i64_literal(v));
    }
  }
  if (iv) return cast_expr(op, ScalarType::I64, t.scalar, "", i64_literal(*iv));  // rounded once
  double d = *dv;
  switch (t.scalar) {
    case ScalarType::F32: return float_literal(static_cast<float>(d));
    case ScalarType::F64: return hex_double(d);
    default:  // narrow formats: the bits of the value rounded once (RNE), as the interpreter does
      return fmt::format("({})0x{:x}u", ctype(t), fp_encode(narrow_format(t.scalar), d));
  }
}

// ---- casts ---------------------------------------------------------------------------------

std::string CExpr::cast_expr(const Op& op, ScalarType from, ScalarType to, const std::string& rounding,
                               const std::string& x, const std::string& xc) const {
  if (!rounding.empty() && rounding != "rtne" && rounding != "rtz") refuse(op, "rounding mode '" + rounding + "'");
  const bool rtz = rounding == "rtz";
  if (from == to) return x;
  const std::string T = scalar_ctype(to);
  if (to == ScalarType::I1) {
    return ir::is_float(from) ? fmt::format("(uint8_t)({} != 0)", xc.empty() ? to_compute(from, x) : xc)
                              : fmt::format("(uint8_t)({} != 0)", x);
  }
  if (ir::is_int(from) && ir::is_int(to)) return fmt::format("({})({})", T, x);
  if (ir::is_int(from)) {  // int -> float, correctly rounded
    const int bits = ir::bitwidth(from);
    if (to == ScalarType::F32 || to == ScalarType::F64) return fmt::format("({})({})", T, x);
    if (msl() && to == ScalarType::F16)  // exact below 2^24; from 2^24 up fp16 overflows either way
      return "tr_f2h((float)(" + x + "))";
    if (msl() && to == ScalarType::BF16)  // rounded to odd in 24 bits, then once to bf16
      return ir::is_signed_int(from) ? "tr_f2bf(tr_i64_odd_f((int64_t)(" + x + ")))"
                                     : "tr_f2bf(tr_u64_odd_f((uint64_t)(" + x + ")))";
    if (msl() && ir::is_fp8(to))  // exact or rounded to odd in 24 bits, then once to fp8
      return fmt::format("tr_f2{}({}, 0)", fp8_suffix(to),
                         bits <= 16 ? "(float)(" + x + ")"
                         : ir::is_signed_int(from) ? "tr_i64_odd_f((int64_t)(" + x + "))"
                                                   : "tr_u64_odd_f((uint64_t)(" + x + "))");
    std::string d;  // the value as a double, exact or rounded to odd
    if (bits <= 32) d = fmt::format("(double)({})", x);
    else d = ir::is_signed_int(from) ? fmt::format("tr_i64_odd({})", x) : fmt::format("tr_u64_odd({})", x);
    if (to == ScalarType::F16) return (bits <= 16 ? "tr_f2h((float)(" + x + "))" : "tr_d2h(" + d + ")");
    if (to == ScalarType::BF16) return (bits <= 16 ? "tr_f2bf((float)(" + x + "))" : "tr_d2bf(" + d + ")");
    return fmt::format("tr_d2{}({}, 0)", fp8_suffix(to), d);
  }
  // float source
  const std::string src = xc.empty() ? to_compute(from, x) : xc;  // float (or double for fp64), exact
  if (ir::is_int(to)) return tcall("tr_f2i", T, msl() ? src : fmt::format("(double)({})", src));  // MSL: from float
  const bool f64 = from == ScalarType::F64;
  if (msl() && (f64 || to == ScalarType::F64))
    refuse(op, "a cast from " + std::string(ir::name(from)) + " to " + std::string(ir::name(to)) + (rtz ? " (rtz)" : "") +
                   " is not lowered by the MSL renderer yet (its exact rounding goes through fp64, which Metal lacks)");
  switch (to) {
    case ScalarType::F32:
      if (f64) return rtz ? "tr_d2f_rtz(" + src + ")" : "(float)(" + src + ")";
      return src;
    case ScalarType::F64:
      return "(double)(" + src + ")";
    case ScalarType::F16:
      if (f64) return (rtz ? "tr_d2h_rtz(" : "tr_d2h(") + src + ")";
      if (msl() && rtz) return "tr_f2h_rtz(" + src + ")";  // float-only (Metal has no double)
      return rtz ? "tr_d2h_rtz((double)(" + src + "))" : "tr_f2h(" + src + ")";
    case ScalarType::BF16:
      if (f64) return (rtz ? "tr_d2bf_rtz(" : "tr_d2bf(") + src + ")";
      return (rtz ? "tr_f2bf_rtz(" : "tr_f2bf(") + src + ")";
    default:
      if (f64) return fmt::format("tr_d2{}({}, {})", fp8_suffix(to), src, rtz ? 1 : 0);
      return fmt::format("tr_f2{}({}, {})", fp8_suffix(to), src, rtz ? 1 : 0);  // float source: exact in double
  }
}

// ---- elementwise ops -----------------------------------------------------------------------

std::string CExpr::elementwise_expr(const Op& op, const std::vector<std::string>& a,
                                      const std::vector<std::string>& dec) const {
  const ir::Type& in = op.operands.empty() ? op.results[0]->type : op.operands[0]->type;
  const ir::Type& out = op.results[0]->type;
  const ScalarType S = in.scalar;
  const bool ptr = in.is_ptr;
  const bool fl = !ptr && ir::is_float(S);
  const bool b1 = !ptr && S == ScalarType::I1;
  const std::string T = ctype(in.element());
  // Operand k in the compute type: its decoded twin's element, or converted here.
  // Operands of arithmetic whose result is rounded back to S (which quiets a NaN) or is a
  // comparison need no quieting of their own (to_compute_arith).
  const bool requiets = quiets_nan_operands(op.kind) || op.kind == OpKind::Min || op.kind == OpKind::Max;
  auto F = [&](size_t k) {
    if (k < dec.size() && !dec[k].empty()) return dec[k];
    return requiets ? to_compute_arith(S, a[k]) : to_compute(S, a[k]);
  };
  auto W = [&](const std::string& e) { return from_compute(S, e); };
  auto bin = [&](const char* o) { return W(fmt::format("({} {} {})", F(0), o, F(1))); };

  switch (op.kind) {
    case OpKind::Add: case OpKind::Sub: case OpKind::Mul: {
      if (ptr) refuse(op, "arithmetic on pointers (use addptr)");
      const char* o = op.kind == OpKind::Add ? "+" : op.kind == OpKind::Sub ? "-" : "*";
      if (fl) return bin(o);
      if (b1) return fmt::format("(uint8_t)({} {} {})", a[0], op.kind == OpKind::Mul ? "&" : "^", a[1]);
      const char* f = op.kind == OpKind::Add ? "tr_add" : op.kind == OpKind::Sub ? "tr_sub" : "tr_mul";
      return tcall(f, T, a[0] + ", " + a[1]);
    }
    case OpKind::Div:
      if (!fl) refuse(op, "div needs float operands");
      if (gpu_approx_ && S == ScalarType::F32 && op.attr_str("rounding") != "rn")
        return fmt::format("tr_div_full({}, {})", F(0), F(1));
      return bin("/");
    case OpKind::IDiv: case OpKind::Rem: {
      if (fl) {
        if (op.kind == OpKind::IDiv) refuse(op, "idiv on floats");
        return W(fmt::format("{}({}, {})", S == ScalarType::F64 || cl_like() ? "fmod" : "fmodf", F(0), F(1)));
      }
      if (ptr) refuse(op, "division of pointers");
      const char* f = op.kind == OpKind::IDiv ? "tr_idiv" : "tr_irem";
      if (b1) return fmt::format("(uint8_t)({} & 1)", tcall(f, "uint8_t", a[0] + ", " + a[1]));
      return tcall(f, T, a[0] + ", " + a[1]);
    }
    case OpKind::And: case OpKind::Or: case OpKind::Xor: {
      if (fl || ptr) refuse(op, "bitwise op on non-integers");
      const char* o = op.kind == OpKind::And ? "&" : op.kind == OpKind::Or ? "|" : "^";
      return fmt::format("({})({} {} {})", T, a[0], o, a[1]);
    }
    case OpKind::Shl: case OpKind::Shr:
      if (fl || ptr) refuse(op, "shift of non-integers");
      if (b1) return fmt::format("(uint8_t)({} ? 0 : {})", a[1], a[0]);
      return tcall(op.kind == OpKind::Shl ? "tr_shl" : "tr_shr", T, a[0] + ", " + a[1]);
    case OpKind::Min: case OpKind::Max: {
      if (ptr) refuse(op, "min/max of pointers");
      bool mx = op.kind == OpKind::Max;
      if (fl) {
        bool prop = op.attr_int("propagate_nan", 0) != 0;
        const char* f = mx ? (prop ? "tr_fmax_nan" : "tr_fmax") : (prop ? "tr_fmin_nan" : "tr_fmin");
        return W(tcall(f, compute_type(S), F(0) + ", " + F(1)));
      }
      return tcall(mx ? "tr_imax" : "tr_imin", T, a[0] + ", " + a[1]);
    }
    case OpKind::Cmp: {
      std::string p = op.attr_str("pred");
      const char* o = p == "eq" ? "==" : p == "ne" ? "!=" : p == "lt" ? "<" : p == "le" ? "<=" : p == "gt" ? ">" : p == "ge" ? ">=" : nullptr;
      if (!o) refuse(op, "predicate '" + p + "'");
      if (fl) return fmt::format("(uint8_t)({} {} {})", F(0), o, F(1));
      return fmt::format("(uint8_t)({} {} {})", a[0], o, a[1]);
    }
    case OpKind::Neg:
      if (ptr) refuse(op, "negation of a pointer");
      if (S == ScalarType::F16 || S == ScalarType::BF16) return fmt::format("(uint16_t)({} ^ 0x8000u)", a[0]);
      if (ir::is_fp8(S)) return fmt::format("(uint8_t)({} ^ 0x80u)", a[0]);
      if (fl) return fmt::format("(-{})", a[0]);
      if (b1) return a[0];
      return tcall("tr_neg", T, a[0]);
    case OpKind::Not:
      if (fl || ptr) refuse(op, "bitwise not of a non-integer");
      if (b1) return fmt::format("(uint8_t)({} ^ 1)", a[0]);
      return fmt::format("({})~{}", T, a[0]);
    case OpKind::Select:
      return fmt::format("({} ? {} : {})", a[0], a[1], a[2]);
    case OpKind::Cast: {
      const ir::Type& src = op.operands[0]->type;
      if (out.is_ptr) {  // the address; integers extended by their signedness
        if (!src.is_ptr && !src.is_int()) refuse(op, "cast from " + src.str() + " to a pointer");
        if (!src.is_ptr && cl_like()) refuse(op, int_to_ptr_why(msl()));
        return src.is_ptr ? fmt::format("({})({})", type(out.element()), a[0])
                          : fmt::format("({})(uintptr_t)({})({})", type(out.element()),
                                        ir::is_signed_int(src.scalar) ? "int64_t" : "uint64_t", a[0]);
      }
      if (src.is_ptr) {  // the address, truncated (int1: != 0)
        if (!out.is_int()) refuse(op, "cast from a pointer to " + out.str());
        if (out.scalar == ScalarType::I1) return fmt::format("(uint8_t)({} != 0)", a[0]);
        return fmt::format("({})(uintptr_t)({})", ctype(out.element()), a[0]);
      }
      return cast_expr(op, src.scalar, out.scalar, op.attr_str("rounding"), a[0], dec.empty() ? "" : dec[0]);
    }
    case OpKind::Bitcast: {
      const ir::Type& src = op.operands[0]->type;
      if (src.is_ptr || out.is_ptr) {
        if (src.is_ptr && out.is_ptr) return fmt::format("({})({})", type(out.element()), a[0]);
        const ir::Type& other = src.is_ptr ? out : src;
        if (!other.is_int() || ir::bitwidth(other.scalar) != 64) refuse(op, "bitcast between a pointer and " + other.str());
        if (out.is_ptr && cl_like()) refuse(op, int_to_ptr_why(msl()));
        return src.is_ptr ? fmt::format("({})(uintptr_t)({})", ctype(out.element()), a[0])
                          : fmt::format("({})(uintptr_t)(uint64_t)({})", type(out.element()), a[0]);
      }
      if (ir::bitwidth(src.scalar) != ir::bitwidth(out.scalar)) refuse(op, "bitcast between different widths");
      if (src.scalar == ScalarType::I1) return a[0];
      return tcall("tr_bits", ctype(out.element()), a[0]);
    }
    case OpKind::AddPtr:
      return fmt::format("({} + (int64_t)({}))", a[0], a[1]);
    case OpKind::PtrToInt:
      return fmt::format("({})(uintptr_t)({})", ctype(out.element()), a[0]);
    case OpKind::IntToPtr:  // the value extended by its signedness
      if (cl_like()) refuse(op, int_to_ptr_why(msl()));
      return fmt::format("({})(uintptr_t)({})({})", type(out.element()),
                         ir::is_signed_int(S) ? "int64_t" : "uint64_t", a[0]);
    case OpKind::Math:
      break;
    default:
      refuse(op, "not an elementwise op");
  }

  // ---- math functions ----
  const MathFn f = op.math_fn();
  if (static_cast<int>(a.size()) != ir::math_fn_arity(f)) refuse(op, "wrong number of operands");
  if (ptr) refuse(op, "math on pointers");
  if (!fl) {
    switch (f) {
      case MathFn::Abs: return b1 ? a[0] : tcall("tr_iabs", T, a[0]);
      case MathFn::Umulhi: return b1 ? "(uint8_t)0" : tcall("tr_mulhi", T, a[0] + ", " + a[1]);
      case MathFn::Clz: return b1 ? fmt::format("(uint8_t)({} ^ 1)", a[0]) : tcall("tr_clz", T, a[0]);
      case MathFn::Popc: return b1 ? a[0] : tcall("tr_popc", T, a[0]);
      default: refuse(op, std::string(ir::math_fn_name(f)) + " on integers");
    }
  }
  const bool dbl = S == ScalarType::F64;
  auto lib = [&](MathFn g) {
    if (!dbl && tmath_name(g)) return std::string(tmath_name(g));
    return std::string(libm_name(g)) + (dbl || cl_like() ? "" : "f");  // OpenCL C: overloaded
  };
  if (gpu_approx_ && S == ScalarType::F32 && (f == MathFn::Exp || f == MathFn::Exp2) && !op.has_attr("precise"))
    return fmt::format("{}({})", f == MathFn::Exp ? "tr_exp_approx" : "tr_ex2_approx", F(0));
  switch (f) {
    case MathFn::Abs:
      if (S == ScalarType::F16 || S == ScalarType::BF16) return fmt::format("(uint16_t)({} & 0x7fffu)", a[0]);
      if (ir::is_fp8(S)) return fmt::format("(uint8_t)({} & 0x7fu)", a[0]);
      return fmt::format("{}({})", lib(f), a[0]);
    case MathFn::Fma:
      if (S == ScalarType::F32 || S == ScalarType::F64) break;
      // narrow types: the exact a*b + c rounded once (via a round-to-odd double)
      if (msl() && S == ScalarType::F16)  // exact a*b in fp32, the sum rounded to odd in fp32, then once to fp16
        return fmt::format("tr_f2h(tr_fma_odd_f({}, {}, {}))", F(0), F(1), F(2));
      if (msl()) refuse(op, "fma on " + std::string(ir::name(S)) + " is not lowered by the MSL renderer yet (it rounds through fp64, which Metal lacks)");
      return cast_expr(op, ScalarType::F64, S, "",
                       fmt::format("tr_fma_odd((double){}, (double){}, (double){})", F(0), F(1), F(2)));
    case MathFn::Rsqrt:
      return W(fmt::format("({} / {}({}))", dbl ? "1.0" : "1.0f", dbl || cl_like() ? "sqrt" : "sqrtf", F(0)));
    case MathFn::Isnan:
      return fmt::format("(uint8_t)({0} != {0})", F(0));
    case MathFn::Isinf:
      return fmt::format("(uint8_t)({}({}) != 0)", cl_like() ? "isinf" : "__builtin_isinf", F(0));
    case MathFn::Signbit:
      return fmt::format("(uint8_t)({}({}) != 0)", cl_like() ? "signbit" : "__builtin_signbit", F(0));
    case MathFn::Umulhi: case MathFn::Clz: case MathFn::Popc:
      refuse(op, std::string(ir::math_fn_name(f)) + " on floats");
    default:
      break;
  }
  if (!libm_name(f)) refuse(op, std::string("math function ") + ir::math_fn_name(f));
  if (msl() && f == MathFn::Erf) return W(fmt::format("tr_erff({})", F(0)));  // tmath.inc: no erf in Metal's library
  if (msl() && (f == MathFn::Erfc || f == MathFn::Log1p || f == MathFn::Expm1 || f == MathFn::Cbrt ||
                f == MathFn::Hypot))
    refuse(op, std::string(ir::math_fn_name(f)) + " is not lowered by the MSL renderer yet (the Metal standard library has no " +
                   libm_name(f) + ")");
  std::string call = lib(f) + "(";
  for (size_t i = 0; i < a.size(); ++i) call += (i ? ", " : "") + F(i);
  call += ")";
  return W(call);
}

}  // namespace tritium::codegen
