// ir::dot_params: the parameters derived for dots of several shapes and dtypes, and every
// refusal with the exact message the renderers (cpu, cuda) report at the dot's location.
#include "ir/dot_params.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir_test_util.h"

namespace tritium::ir {
namespace {

using testing::at;
using testing::TestKernel;
using S = ScalarType;

Type T(S s, std::vector<int64_t> shape) { return Type::tensor(s, std::move(shape)); }

/// A kernel whose arguments are the operands a, b, acc and whose one op is a dot of them with
/// result type `res` (default: acc's type) at line 7; `prec` ("" for none) is its
/// input_precision attribute.
struct DotKernel {
  TestKernel k;
  const Op* dot;
  DotKernel(Type a, Type b, Type acc, const std::string& prec = "", const Type* res = nullptr)
      : k({a, b, acc}) {
    std::map<std::string, Attr> attrs;
    if (!prec.empty()) attrs["input_precision"] = prec;
    dot = k.b->create(OpKind::Dot, {k.arg(0), k.arg(1), k.arg(2)}, {res ? *res : acc}, at(7), attrs);
  }
};

TEST(DotParams, Fp32TwoDimensional) {
  DotKernel d(T(S::F32, {32, 16}), T(S::F32, {16, 64}), T(S::F32, {32, 64}));
  const DotParams p = dot_params(*d.dot, "cpu");
  EXPECT_EQ(p.rank, 2u);
  EXPECT_EQ(p.B, 1);
  EXPECT_EQ(p.M, 32);
  EXPECT_EQ(p.K, 16);
  EXPECT_EQ(p.N, 64);
  EXPECT_EQ(p.operand, S::F32);
  EXPECT_EQ(p.acc, S::F32);
  EXPECT_EQ(p.compute, S::F32);
  EXPECT_TRUE(p.is_float);
  EXPECT_FALSE(p.narrow_acc);
  EXPECT_EQ(p.input_precision, "ieee");  // the default when the attribute is absent
}

TEST(DotParams, BatchedFp16WithFp32Accumulator) {
  DotKernel d(T(S::F16, {4, 16, 32}), T(S::F16, {4, 32, 8}), T(S::F32, {4, 16, 8}), "tf32");
  const DotParams p = dot_params(*d.dot, "cuda");
  EXPECT_EQ(p.rank, 3u);
  EXPECT_EQ(p.B, 4);
  EXPECT_EQ(p.M, 16);
  EXPECT_EQ(p.K, 32);
  EXPECT_EQ(p.N, 8);
  EXPECT_EQ(p.operand, S::F16);
  EXPECT_EQ(p.acc, S::F32);
  EXPECT_EQ(p.compute, S::F32);
  EXPECT_FALSE(p.narrow_acc);
  EXPECT_EQ(p.input_precision, "tf32");
}

TEST(DotParams, NarrowFloatAccumulators) {
  for (S acc : {S::F16, S::BF16}) {
    DotKernel d(T(acc, {16, 16}), T(acc, {16, 32}), T(acc, {16, 32}));
    const DotParams p = dot_params(*d.dot, "cpu");
    EXPECT_TRUE(p.narrow_acc) << name(acc);
    EXPECT_EQ(p.acc, acc);
    EXPECT_EQ(p.compute, S::F32) << name(acc);  // each step rounded once from a*b + r
    EXPECT_EQ(p.N, 32);
  }
}

TEST(DotParams, Fp64AndFp8) {
  DotKernel d64(T(S::F64, {16, 16}), T(S::F64, {16, 16}), T(S::F64, {16, 16}));
  EXPECT_EQ(dot_params(*d64.dot, "cpu").compute, S::F64);
  DotKernel d8(T(S::F8E5, {16, 32}), T(S::F8E5, {32, 16}), T(S::F32, {16, 16}), "ieee");
  const DotParams p = dot_params(*d8.dot, "cpu");
  EXPECT_EQ(p.operand, S::F8E5);
  EXPECT_EQ(p.compute, S::F32);
  EXPECT_EQ(p.K, 32);
}

TEST(DotParams, IntegerDotComputesInTheAccumulatorType) {
  DotKernel d(T(S::I8, {16, 64}), T(S::I8, {64, 16}), T(S::I32, {16, 16}));
  const DotParams p = dot_params(*d.dot, "cpu");
  EXPECT_FALSE(p.is_float);
  EXPECT_FALSE(p.narrow_acc);
  EXPECT_EQ(p.operand, S::I8);
  EXPECT_EQ(p.acc, S::I32);
  EXPECT_EQ(p.compute, S::I32);
  EXPECT_EQ(p.K, 64);
}

/// Expects dot_params(dot, backend) to throw a CompileError at the dot (line 7) whose message
/// is exactly `message`.
void expect_refused(const DotKernel& d, const std::string& backend, const std::string& message) {
  try {
    dot_params(*d.dot, backend);
    ADD_FAILURE() << "accepted; expected: " << message;
  } catch (const frontend::CompileError& e) {
    EXPECT_EQ(e.message(), message);
    EXPECT_EQ(e.loc().line, 7u) << message;
  }
}

TEST(DotParams, RefusesWhatNoRendererRuns) {
  const Type f32x16 = T(S::F32, {16, 16});
  const std::string cpu = "cpu backend: dot not supported: ";
  expect_refused(DotKernel(T(S::F32, {16}), T(S::F32, {16}), T(S::F32, {16})), "cpu",
                 cpu + "dot needs rank-2 or rank-3 operands");
  expect_refused(DotKernel(T(S::F32, {2, 2, 16, 16}), T(S::F32, {2, 2, 16, 16}), T(S::F32, {2, 2, 16, 16})), "cpu",
                 cpu + "dot needs rank-2 or rank-3 operands");
  expect_refused(DotKernel(f32x16, T(S::F32, {2, 16, 16}), f32x16), "cpu", cpu + "dot needs rank-2 or rank-3 operands");
  expect_refused(DotKernel(T(S::F32, {16, 32}), f32x16, f32x16), "cpu", cpu + "dot shapes");  // K of a != rows of b
  expect_refused(DotKernel(f32x16, f32x16, T(S::F32, {16, 32})), "cpu", cpu + "dot shapes");  // acc not M x N
  expect_refused(DotKernel(f32x16, f32x16, f32x16, "bf16x3"), "cpu", cpu + "input_precision 'bf16x3'");
  expect_refused(DotKernel(T(S::F16, {16, 16}), f32x16, f32x16), "cpu", cpu + "operands of different dtypes");
  Type p16 = Type::ptr(S::F32).with_shape({16, 16});
  expect_refused(DotKernel(p16, p16, f32x16), "cpu", cpu + "pointer operands");
  expect_refused(DotKernel(f32x16, f32x16, T(S::I32, {16, 16})), "cpu", cpu + "fp32 operands with a int32 accumulator");
  expect_refused(DotKernel(T(S::I8, {16, 16}), T(S::I8, {16, 16}), f32x16), "cpu", cpu + "int8 operands with a fp32 accumulator");
  expect_refused(DotKernel(T(S::I1, {16, 16}), T(S::I1, {16, 16}), T(S::I1, {16, 16})), "cpu",
                 cpu + "int1 operands with a int1 accumulator");
  expect_refused(DotKernel(T(S::F64, {16, 16}), T(S::F64, {16, 16}), f32x16), "cpu",
                 cpu + "fp64 operands need an fp64 accumulator");
  expect_refused(DotKernel(f32x16, f32x16, T(S::F8E4NV, {16, 16})), "cpu", cpu + "accumulator type fp8e4nv");
}

TEST(DotParams, RefusalNamesTheBackendAndUsesTheResultDtype) {
  // The accumulator dtype is the result's: an fp32 acc operand with an int32 result is refused.
  const Type i32x16 = T(S::I32, {16, 16});
  DotKernel d(T(S::F32, {16, 16}), T(S::F32, {16, 16}), T(S::F32, {16, 16}), "", &i32x16);
  expect_refused(d, "cuda", "cuda backend: dot not supported: fp32 operands with a int32 accumulator");
}

}  // namespace
}  // namespace tritium::ir
