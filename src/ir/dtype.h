// Scalar element types of the Triton language and their properties.
//
// Names follow Triton's spelling (int1, int8, ..., uint64, fp16, bf16, fp32, fp64,
// fp8e4nv, fp8e5, fp8e4b15). `parse_scalar_type` also accepts the short forms used in
// Triton's AOT signatures (i32, u8, fp32, bf16, i1, *fp32 is handled by the caller).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tritium::ir {

// X-macro: (Enum, triton name, short signature name, bits, is_float, is_signed)
#define TRITIUM_SCALAR_TYPES(X)              \
  X(I1, "int1", "i1", 1, false, false)        \
  X(I8, "int8", "i8", 8, false, true)         \
  X(I16, "int16", "i16", 16, false, true)     \
  X(I32, "int32", "i32", 32, false, true)     \
  X(I64, "int64", "i64", 64, false, true)     \
  X(U8, "uint8", "u8", 8, false, false)       \
  X(U16, "uint16", "u16", 16, false, false)   \
  X(U32, "uint32", "u32", 32, false, false)   \
  X(U64, "uint64", "u64", 64, false, false)   \
  X(F8E4NV, "fp8e4nv", "fp8e4nv", 8, true, true) \
  X(F8E5, "fp8e5", "fp8e5", 8, true, true)    \
  X(F8E4B15, "fp8e4b15", "fp8e4b15", 8, true, true) \
  X(F16, "fp16", "fp16", 16, true, true)      \
  X(BF16, "bf16", "bf16", 16, true, true)     \
  X(F32, "fp32", "fp32", 32, true, true)      \
  X(F64, "fp64", "fp64", 64, true, true)

enum class ScalarType : uint8_t {
#define TRITIUM_X(e, n, s, b, f, sg) e,
  TRITIUM_SCALAR_TYPES(TRITIUM_X)
#undef TRITIUM_X
};

/// Triton's name of the type ("fp32", "int32", "uint8", "int1", ...).
std::string_view name(ScalarType t);
/// Short name used in AOT signatures and the IR printer ("fp32", "i32", "u8", "i1").
std::string_view short_name(ScalarType t);
/// Width in bits (int1 → 1).
int bitwidth(ScalarType t);
/// Storage size in bytes (int1 is stored as one byte, as in Triton).
int byte_size(ScalarType t);
bool is_float(ScalarType t);
bool is_int(ScalarType t);  // includes int1
bool is_signed_int(ScalarType t);  // int8..int64 (int1 is unsigned, as in Triton: its UINT_TYPES list)
bool is_unsigned_int(ScalarType t);
bool is_fp8(ScalarType t);
/// Mantissa bits of a float type including the implicit bit (fp32 → 24).
int float_mantissa_bits(ScalarType t);
/// Parses any spelling: "fp32", "float32", "f32", "i32", "int32", "u8", "uint8", "bf16",
/// "bfloat16", "fp16", "float16", "half", "i1", "int1", "bool", "fp64", "float64", ...
std::optional<ScalarType> parse_scalar_type(std::string_view s);

}  // namespace tritium::ir
