// ir::Type: printing, element counts and the shape/element helpers.
#include <gtest/gtest.h>

#include "ir/types.h"

namespace tritium::ir {
namespace {

TEST(IrTypes, StrOfScalarsPointersAndTensors) {
  EXPECT_EQ(Type::of(ScalarType::F32).str(), "fp32");
  EXPECT_EQ(Type::of(ScalarType::I1).str(), "i1");
  EXPECT_EQ(Type::of(ScalarType::U8).str(), "u8");
  EXPECT_EQ(Type::ptr(ScalarType::F16).str(), "ptr<fp16>");
  EXPECT_EQ(Type::tensor(ScalarType::F32, {128, 64}).str(), "tensor<128x64xfp32>");
  EXPECT_EQ(Type::tensor(ScalarType::I32, {1024}).str(), "tensor<1024xi32>");
  EXPECT_EQ(Type::ptr(ScalarType::BF16).with_shape({16}).str(), "tensor<16xptr<bf16>>");
  EXPECT_EQ(Type::tensor(ScalarType::I64, {2, 1, 4}).str(), "tensor<2x1x4xi64>");
}

TEST(IrTypes, Numel) {
  EXPECT_EQ(Type::of(ScalarType::F32).numel(), 1);
  EXPECT_EQ(Type::ptr(ScalarType::F32).numel(), 1);
  EXPECT_EQ(Type::tensor(ScalarType::F32, {128, 64}).numel(), 8192);
  EXPECT_EQ(Type::tensor(ScalarType::F32, {2, 1, 4}).numel(), 8);
  EXPECT_EQ(Type::tensor(ScalarType::F32, {1}).numel(), 1);
}

TEST(IrTypes, ScalarTensorAndRank) {
  Type s = Type::of(ScalarType::I32);
  Type t = Type::tensor(ScalarType::I32, {4, 8});
  EXPECT_TRUE(s.is_scalar());
  EXPECT_FALSE(s.is_tensor());
  EXPECT_EQ(s.rank(), 0);
  EXPECT_TRUE(t.is_tensor());
  EXPECT_FALSE(t.is_scalar());
  EXPECT_EQ(t.rank(), 2);
}

TEST(IrTypes, ElementAndReshaping) {
  Type p = Type::ptr(ScalarType::F16).with_shape({32});
  EXPECT_EQ(p.element(), Type::ptr(ScalarType::F16));
  EXPECT_EQ(p.with_shape({4, 8}).str(), "tensor<4x8xptr<fp16>>");
  // with_scalar drops the pointer: it names the loaded element type.
  EXPECT_EQ(p.with_scalar(ScalarType::F16), Type::tensor(ScalarType::F16, {32}));
  EXPECT_EQ(Type::of(ScalarType::I8).with_shape({2}), Type::tensor(ScalarType::I8, {2}));
}

TEST(IrTypes, Predicates) {
  EXPECT_TRUE(Type::of(ScalarType::BF16).is_float());
  EXPECT_FALSE(Type::ptr(ScalarType::F32).is_float());
  EXPECT_TRUE(Type::of(ScalarType::U64).is_int());
  EXPECT_FALSE(Type::ptr(ScalarType::I32).is_int());
  EXPECT_TRUE(Type::tensor(ScalarType::I1, {4}).is_bool());
  EXPECT_FALSE(Type::of(ScalarType::I8).is_bool());
}

TEST(IrTypes, Equality) {
  EXPECT_EQ(Type::tensor(ScalarType::F32, {4}), Type::tensor(ScalarType::F32, {4}));
  EXPECT_NE(Type::tensor(ScalarType::F32, {4}), Type::tensor(ScalarType::F32, {8}));
  EXPECT_NE(Type::of(ScalarType::F32), Type::ptr(ScalarType::F32));
  EXPECT_NE(Type::of(ScalarType::I32), Type::of(ScalarType::U32));
  EXPECT_NE(Type::of(ScalarType::F32), Type::tensor(ScalarType::F32, {1}));
}

}  // namespace
}  // namespace tritium::ir
