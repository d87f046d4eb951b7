// Kernel specialization: the launch signature a kernel is compiled for, in Triton's
// conventions (dtypes, constexpr values, integers equal to 1, divisibility by 16).
//
// AOT signature strings follow `triton.tools.compile`: one comma-separated entry per
// kernel parameter, in order:
//   "*fp32"      pointer to fp32            "*fp16:16"   pointer, address divisible by 16
//   "i32"        32-bit int argument        "i32:16"     int divisible by 16
//   "i64:1"      int specialized as == 1    "fp32"       float argument
//   "1024"       constexpr value (int)      "0.5"        constexpr float
//   "True"/"False" constexpr bool           "constexpr:name" is not used; a bare number is
//                                                        the constexpr value for that position.
//   "tensordesc<fp16[64, 64]>"  a host tensor descriptor (upstream's TensorDescriptor) of
//   fp16 elements and block shape 64x64, zero padding; "tensordesc<fp32[16, 32], nan>"
//   pads with NaN. Its launch arguments are the base pointer, one i32 per dimension (the
//   shape) and one i64 stride per dimension but the last (which is 1).
// A parameter declared `tl.constexpr` in the source must get a constexpr entry (or its
// default) and a non-constexpr parameter must get a typed entry.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ir/dtype.h"

namespace tritium::frontend {

/// A compile-time value bound to a constexpr parameter.
/// A dtype passed as a constexpr value (`tl.float16` for an `X_dtype: tl.constexpr` parameter).
struct DTypeValue {
  ir::ScalarType type = ir::ScalarType::F32;
  bool operator==(const DTypeValue&) const = default;
};
using ConstexprValue = std::variant<int64_t, double, bool, std::string, DTypeValue>;

/// One parameter of the launch signature.
struct ArgSpec {
  enum class Kind { Pointer, Scalar, Constexpr, TensorDesc };
  Kind kind = Kind::Scalar;
  ir::ScalarType dtype = ir::ScalarType::I32;  // pointee for pointers; value type for scalars
  int divisibility = 1;                        // 16 when known divisible by 16 (ints and pointers)
  bool equal_to_1 = false;                     // int scalars specialized as the constant 1
  ConstexprValue value = int64_t{0};           // for Constexpr
  bool is_none = false;                        // Constexpr entry "None" (Triton specializes None arguments)
  std::vector<int64_t> block_shape;            // TensorDesc: the block shape (1 to 5 dims)
  bool padding_nan = false;                    // TensorDesc: pad out-of-bounds loads with NaN (else zero)

  bool operator==(const ArgSpec&) const = default;
  /// Signature-string form of this entry ("*fp32:16", "i32", "128").
  std::string str() const;
};

/// The full specialization of one kernel: an ArgSpec per parameter, positionally, or
/// named (for constexprs given by keyword). `named` entries override defaults.
struct Specialization {
  std::vector<ArgSpec> args;                                // positional
  std::vector<std::pair<std::string, ArgSpec>> named;       // by parameter name
  bool operator==(const Specialization&) const = default;
  /// Canonical text (used in cache keys and generated-code comments).
  std::string str() const;
};

/// Parses an AOT signature string. Throws std::invalid_argument naming the bad entry.
std::vector<ArgSpec> parse_signature(const std::string& text);

}  // namespace tritium::frontend
