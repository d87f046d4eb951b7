// Names of the language: attributes of the triton / triton.language / tl.math / libdevice
// namespaces, and the Python builtins a kernel may call (upstream
// triton/language/__init__.py, math.py, extra/cuda/libdevice.py, and code_generator.py's
// builtin_namespace).
#include <set>

#include "frontend/builtins_impl.h"
#include "frontend/stdlib/stdlib.h"

#ifndef TRITIUM_VERSION
#define TRITIUM_VERSION "unknown"
#endif

namespace tritium::frontend {

namespace {

std::optional<ir::ScalarType> dtype_name(const std::string& n) {
  static const std::pair<const char*, ir::ScalarType> kTypes[] = {
      {"int1", ir::ScalarType::I1},        {"int8", ir::ScalarType::I8},       {"int16", ir::ScalarType::I16},
      {"int32", ir::ScalarType::I32},      {"int64", ir::ScalarType::I64},     {"uint8", ir::ScalarType::U8},
      {"uint16", ir::ScalarType::U16},     {"uint32", ir::ScalarType::U32},    {"uint64", ir::ScalarType::U64},
      {"float16", ir::ScalarType::F16},    {"bfloat16", ir::ScalarType::BF16}, {"float32", ir::ScalarType::F32},
      {"float64", ir::ScalarType::F64},    {"float8e4nv", ir::ScalarType::F8E4NV},
      {"float8e5", ir::ScalarType::F8E5},  {"float8e4b15", ir::ScalarType::F8E4B15},
  };
  for (const auto& [name, t] : kTypes)
    if (n == name) return t;
  return std::nullopt;
}

// Functions of triton.language (supported, handled by the code generator, or refused
// with "not supported yet" by call_builtin).
const std::set<std::string>& tl_functions() {
  static const std::set<std::string> s = {
      // supported
      "program_id", "num_programs", "arange", "full", "zeros", "zeros_like", "cdiv", "load", "store", "where",
      "maximum", "minimum", "clamp", "abs", "exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sin",
      "cos", "erf", "floor", "ceil", "fma", "sigmoid", "softmax", "fdiv", "div_rn", "umulhi", "cast", "sum",
      "max", "min", "argmax", "argmin", "xor_sum", "reduce_or", "reduce", "dot", "trans", "permute", "reshape",
      "view", "expand_dims", "broadcast_to", "broadcast", "ravel", "join", "split", "interleave", "item",
      "multiple_of", "max_contiguous", "max_constancy", "static_assert", "static_print", "device_print",
      "device_assert", "debug_barrier", "assume", "add", "sub", "mul", "swizzle2d", "pointer_type",
      "atomic_add", "atomic_and", "atomic_cas", "atomic_max", "atomic_min", "atomic_or", "atomic_xchg", "atomic_xor",
      "associative_scan", "cumsum", "cumprod", "flip", "sort", "topk", "bitonic_merge", "map_elementwise", "cat", "gather", "histogram", "make_block_ptr", "advance", "make_tensor_descriptor",
      "load_tensor_descriptor", "store_tensor_descriptor",
      // markers / code generator
      "constexpr", "const", "tensor", "dtype", "range", "static_range",
      // refused for now
      "tensor_descriptor", "tensor_descriptor_type", "inline_asm_elementwise",
      "dot_scaled", "condition", "float8e4b8", "float8e5b16",
      "void", "block_type", "tuple", "tuple_type", "slice", "pi32_t", "constexpr_type", "target_info",
  };
  return s;
}

// triton.language.math (math.py) exports exactly these.
const std::set<std::string>& math_functions() {
  static const std::set<std::string> s = {"umulhi", "exp",  "exp2",    "fma",  "log",    "log2",
                                          "cos",    "rsqrt", "sin",    "sqrt", "sqrt_rn", "abs",
                                          "fdiv",   "div_rn", "erf",   "floor", "ceil"};
  return s;
}

bool is_libdevice_ns(const std::string& ns) {
  return ns == "libdevice" || ns == "triton.language.extra.libdevice" || ns == "triton.language.extra.cuda.libdevice";
}

}  // namespace

std::optional<CValue> namespace_attr(const std::string& ns, const std::string& attr) {
  // Names written in the Triton language (tl.randint, tl.random.*): stdlib/stdlib.h.
  if (auto v = stdlib::lookup(ns, attr)) return v;
  if (ns == "triton") {
    if (attr == "language") return CValue::ns("triton.language");
    if (attr == "cdiv" || attr == "next_power_of_2" || attr == "jit") return CValue::builtin("triton." + attr);
    // The version the Python package reports when it stands in for triton (compat.py), so
    // module-level `if triton.__version__ >= "3.6":` blocks read as they run in Python.
    if (attr == "__version__") return CValue::of_str(std::string("3.6.0+tritium.") + TRITIUM_VERSION);
    return std::nullopt;
  }
  if (ns == "triton.language") {
    if (auto t = dtype_name(attr)) return CValue::of_dtype(ir::Type::of(*t));
    if (attr == "math") return CValue::ns("triton.language.math");
    if (attr == "extra") return CValue::ns("triton.language.extra");
    // triton.language.core / .standard: the modules upstream defines tl's names in; their
    // public names are tl's (tl.core.static_range, `from triton.language.standard import sum`).
    if (attr == "core" || attr == "standard") return CValue::ns("triton.language");
    if (attr == "get_int_dtype") return CValue::builtin("get_int_dtype");
    if (attr == "PropagateNan") return CValue::ns("triton.language.PropagateNan");
    if (attr == "TRITON_MAX_TENSOR_NUMEL") return CValue::of_int(1 << 20);
    if (tl_functions().count(attr)) return CValue::builtin(attr);
    return std::nullopt;
  }
  if (ns == "triton.language.math") {
    if (math_functions().count(attr)) return CValue::builtin("math." + attr);
    return std::nullopt;
  }
  if (ns == "triton.language.PropagateNan") {
    if (attr == "ALL" || attr == "NONE") return CValue::of_str("PropagateNan." + attr);
    return std::nullopt;
  }
  if (ns == "triton.language.extra") {
    if (attr == "cuda") return CValue::ns("triton.language.extra.cuda");
    if (attr == "libdevice") return CValue::ns("libdevice");
    return std::nullopt;
  }
  if (ns == "triton.language.extra.cuda") {
    if (attr == "libdevice") return CValue::ns("libdevice");
    if (attr == "gdc_wait" || attr == "gdc_launch_dependents") return CValue::builtin("cuda." + attr);
    return std::nullopt;
  }
  // Every libdevice name resolves; call_builtin refuses the ones tritium cannot compute.
  if (is_libdevice_ns(ns)) return CValue::builtin("libdevice." + attr);
  return std::nullopt;
}

std::optional<CValue> python_builtin(const std::string& name) {
  // code_generator.py's builtin_namespace: len, list, range, float, int, isinstance, getattr,
  // hasattr, print (device_print), min, max. tritium adds abs and bool on constexprs.
  static const std::set<std::string> kNames = {"len",     "list",    "range", "float", "int", "isinstance",
                                               "getattr", "hasattr", "print", "min",   "max", "abs",
                                               "bool"};
  if (kNames.count(name)) return CValue::builtin("py." + name);
  return std::nullopt;
}

}  // namespace tritium::frontend
