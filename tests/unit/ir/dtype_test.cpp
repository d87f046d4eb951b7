// Scalar type table: names, widths, classes and parsing (expected values written by hand).
#include <gtest/gtest.h>

#include <string>

#include "ir/dtype.h"

namespace tritium::ir {
namespace {

struct Row {
  ScalarType t;
  const char* name;
  const char* short_name;
  int bits, bytes;
  bool is_float, is_signed, is_unsigned, is_fp8;
  int mantissa;
};

// Every scalar type, with properties taken from the Triton language reference.
const Row kRows[] = {
    {ScalarType::I1, "int1", "i1", 1, 1, false, false, true, false, 0},  // unsigned, as in Triton
    {ScalarType::I8, "int8", "i8", 8, 1, false, true, false, false, 0},
    {ScalarType::I16, "int16", "i16", 16, 2, false, true, false, false, 0},
    {ScalarType::I32, "int32", "i32", 32, 4, false, true, false, false, 0},
    {ScalarType::I64, "int64", "i64", 64, 8, false, true, false, false, 0},
    {ScalarType::U8, "uint8", "u8", 8, 1, false, false, true, false, 0},
    {ScalarType::U16, "uint16", "u16", 16, 2, false, false, true, false, 0},
    {ScalarType::U32, "uint32", "u32", 32, 4, false, false, true, false, 0},
    {ScalarType::U64, "uint64", "u64", 64, 8, false, false, true, false, 0},
    {ScalarType::F8E4NV, "fp8e4nv", "fp8e4nv", 8, 1, true, false, false, true, 4},
    {ScalarType::F8E5, "fp8e5", "fp8e5", 8, 1, true, false, false, true, 3},
    {ScalarType::F8E4B15, "fp8e4b15", "fp8e4b15", 8, 1, true, false, false, true, 4},
    {ScalarType::F16, "fp16", "fp16", 16, 2, true, false, false, false, 11},
    {ScalarType::BF16, "bf16", "bf16", 16, 2, true, false, false, false, 8},
    {ScalarType::F32, "fp32", "fp32", 32, 4, true, false, false, false, 24},
    {ScalarType::F64, "fp64", "fp64", 64, 8, true, false, false, false, 53},
};

TEST(IrDtype, NamesAndShortNames) {
  for (const Row& r : kRows) {
    EXPECT_EQ(name(r.t), r.name);
    EXPECT_EQ(short_name(r.t), r.short_name) << r.name;
  }
}

TEST(IrDtype, WidthsAndByteSizes) {
  for (const Row& r : kRows) {
    EXPECT_EQ(bitwidth(r.t), r.bits) << r.name;
    EXPECT_EQ(byte_size(r.t), r.bytes) << r.name;
  }
}

TEST(IrDtype, Classes) {
  for (const Row& r : kRows) {
    EXPECT_EQ(is_float(r.t), r.is_float) << r.name;
    EXPECT_EQ(is_int(r.t), !r.is_float) << r.name;
    EXPECT_EQ(is_signed_int(r.t), r.is_signed) << r.name;
    EXPECT_EQ(is_unsigned_int(r.t), r.is_unsigned) << r.name;
    EXPECT_EQ(is_fp8(r.t), r.is_fp8) << r.name;
  }
}

TEST(IrDtype, MantissaBitsIncludeTheImplicitBit) {
  for (const Row& r : kRows) EXPECT_EQ(float_mantissa_bits(r.t), r.mantissa) << r.name;
}

TEST(IrDtype, ParsesTritonAndShortNames) {
  for (const Row& r : kRows) {
    EXPECT_EQ(parse_scalar_type(r.name), r.t) << r.name;
    EXPECT_EQ(parse_scalar_type(r.short_name), r.t) << r.short_name;
  }
}

TEST(IrDtype, ParsesAliases) {
  EXPECT_EQ(parse_scalar_type("bool"), ScalarType::I1);
  EXPECT_EQ(parse_scalar_type("float32"), ScalarType::F32);
  EXPECT_EQ(parse_scalar_type("f32"), ScalarType::F32);
  EXPECT_EQ(parse_scalar_type("float"), ScalarType::F32);
  EXPECT_EQ(parse_scalar_type("float16"), ScalarType::F16);
  EXPECT_EQ(parse_scalar_type("half"), ScalarType::F16);
  EXPECT_EQ(parse_scalar_type("bfloat16"), ScalarType::BF16);
  EXPECT_EQ(parse_scalar_type("float64"), ScalarType::F64);
  EXPECT_EQ(parse_scalar_type("double"), ScalarType::F64);
  EXPECT_EQ(parse_scalar_type("fp8e4m3"), ScalarType::F8E4NV);
  EXPECT_EQ(parse_scalar_type("fp8e5m2"), ScalarType::F8E5);
}

TEST(IrDtype, RejectsUnknownSpellings) {
  for (const char* s : {"", "int33", "i128", "fp32 ", " fp32", "FP32", "*fp32", "ptr", "tensor"})
    EXPECT_FALSE(parse_scalar_type(s).has_value()) << "'" << s << "'";
}

}  // namespace
}  // namespace tritium::ir
