// Pass "cse": merging of identical pure ops, attribute/type sensitivity and region scoping.
#include <gtest/gtest.h>

#include "../ir/ir_test_util.h"
#include "passes/cse.h"

namespace tritium::passes {
namespace {

using ir::InsertionGuard;
using ir::Op;
using ir::OpKind;
using ir::ScalarType;
using ir::Type;
using ir::Value;
using testing::at;
using testing::count_ops;
using testing::TestKernel;

const Type kI32 = Type::of(ScalarType::I32);
const Type kF32 = Type::of(ScalarType::F32);

TEST(PassCse, MergesIdenticalExpressionsPrinted) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32, kI32});
  Value* a = k.b->binary(OpKind::Add, k.arg(1), k.arg(2), at(2));
  Value* b = k.b->binary(OpKind::Add, k.arg(1), k.arg(2), at(3));
  Value* m = k.b->binary(OpKind::Mul, a, b, at(4));
  Value* m2 = k.b->binary(OpKind::Mul, a, a, at(5));  // equal to m once b → a
  k.store(k.arg(0), m);
  k.store(k.arg(0), m2);
  k.ret();
  eliminate_common_subexpressions(*k.fn);
  ASSERT_EQ(k.errors(), "");
  EXPECT_EQ(k.text(),
            "kernel @k(%0: ptr<i32>, %1: i32, %2: i32) {\n"
            "  %3 = add %1, %2 : i32\n"
            "  %5 = mul %3, %3 : i32\n"
            "  store %0, %5\n"
            "  store %0, %5\n"
            "  return\n"
            "}\n");
}

TEST(PassCse, AttributesTypesAndOperandOrderDistinguish) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32, kI32, kF32});
  Value* lt = k.b->cmp("lt", k.arg(1), k.arg(2), at(1));
  Value* gt = k.b->cmp("gt", k.arg(1), k.arg(2), at(1));
  Value* f16 = k.b->cast(k.arg(3), ScalarType::F16, at(1));
  Value* f64 = k.b->cast(k.arg(3), ScalarType::F64, at(1));
  Value* ab = k.b->binary(OpKind::Sub, k.arg(1), k.arg(2), at(1));
  Value* ba = k.b->binary(OpKind::Sub, k.arg(2), k.arg(1), at(1));
  Value* c1 = k.ci(ScalarType::I32, 1);
  Value* c1b = k.ci(ScalarType::I32, 1);
  Value* c1u = k.ci(ScalarType::U32, 1);
  Value* c1t = k.ci(Type::tensor(ScalarType::I32, {4}), 1);
  eliminate_common_subexpressions(*k.fn);
  ASSERT_EQ(k.errors(), "");
  // Only the two identical i32 constants merge.
  EXPECT_EQ(k.fn->body.ops.size(), 9u) << k.text();
  for (Value* v : {lt, gt, f16, f64, ab, ba, c1, c1u, c1t}) EXPECT_NE(v->def, nullptr);
  (void)c1b;
}

TEST(PassCse, FloatConstantsComparedBitwise) {
  TestKernel k({Type::ptr(ScalarType::F32)});
  Value* pz = k.cf(ScalarType::F32, 0.0);
  Value* nz = k.cf(ScalarType::F32, -0.0);
  Value* h1 = k.cf(ScalarType::F32, 0.5);
  Value* h2 = k.cf(ScalarType::F32, 0.5);
  Op* s1 = k.store(k.arg(0), pz);
  Op* s2 = k.store(k.arg(0), nz);
  Op* s3 = k.store(k.arg(0), h1);
  Op* s4 = k.store(k.arg(0), h2);
  k.ret();
  eliminate_common_subexpressions(*k.fn);
  EXPECT_EQ(s1->operand(1), pz);
  EXPECT_EQ(s2->operand(1), nz) << "-0.0 must not be replaced by 0.0";
  EXPECT_EQ(s3->operand(1), h1);
  EXPECT_EQ(s4->operand(1), h1);
}

TEST(PassCse, ImpureOpsAreNotMerged) {
  TestKernel k({Type::ptr(ScalarType::I32)});
  Value* l1 = k.b->create(OpKind::Load, {k.arg(0)}, {kI32}, at(1))->result();
  k.store(k.arg(0), l1);
  Value* l2 = k.b->create(OpKind::Load, {k.arg(0)}, {kI32}, at(2))->result();
  Op* s = k.store(k.arg(0), l2);
  Value* r1 = k.b->create(OpKind::AtomicRMW, {k.arg(0), l1}, {kI32}, at(3), {{"rmw", std::string("add")}})->result();
  Value* r2 = k.b->create(OpKind::AtomicRMW, {k.arg(0), l1}, {kI32}, at(3), {{"rmw", std::string("add")}})->result();
  k.store(k.arg(0), r1);
  k.store(k.arg(0), r2);
  k.ret();
  eliminate_common_subexpressions(*k.fn);
  EXPECT_EQ(count_ops(*k.fn, OpKind::Load), 2);
  EXPECT_EQ(count_ops(*k.fn, OpKind::AtomicRMW), 2);
  EXPECT_EQ(s->operand(1), l2);
}

TEST(PassCse, OuterValuesReusedInsideRegions) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32});
  Value* outer = k.b->binary(OpKind::Mul, k.arg(1), k.arg(1), at(1));
  Op* loop = k.b->create_for(k.arg(1), k.arg(1), k.arg(1), {}, at(2));
  Op* inner_store;
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&loop->body());
    Value* again = k.b->binary(OpKind::Mul, k.arg(1), k.arg(1), at(3));
    inner_store = k.store(k.arg(0), again);
    k.b->create(OpKind::Yield, {}, {}, at(3));
  }
  k.store(k.arg(0), outer);
  k.ret();
  eliminate_common_subexpressions(*k.fn);
  ASSERT_EQ(k.errors(), "");
  EXPECT_EQ(inner_store->operand(1), outer);
  EXPECT_EQ(loop->body().ops.size(), 2u);
}

TEST(PassCse, InnerValuesNotReusedOutsideOrInSiblings) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32, Type::of(ScalarType::I1)});
  Op* br = k.b->create_if(k.arg(2), {}, at(1));
  Op* then_store;
  Op* else_store;
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&br->body(0));
    then_store = k.store(k.arg(0), k.b->binary(OpKind::Mul, k.arg(1), k.arg(1), at(2)));
    k.b->create(OpKind::Yield, {}, {}, at(2));
    k.b->set_insertion_end(&br->body(1));
    else_store = k.store(k.arg(0), k.b->binary(OpKind::Mul, k.arg(1), k.arg(1), at(3)));
    k.b->create(OpKind::Yield, {}, {}, at(3));
  }
  Value* after = k.b->binary(OpKind::Mul, k.arg(1), k.arg(1), at(4));
  Op* after_store = k.store(k.arg(0), after);
  k.ret();
  eliminate_common_subexpressions(*k.fn);
  ASSERT_EQ(k.errors(), "") << k.text();
  EXPECT_EQ(count_ops(*k.fn, OpKind::Mul), 3);
  EXPECT_EQ(then_store->operand(1)->def->parent, &br->body(0));
  EXPECT_EQ(else_store->operand(1)->def->parent, &br->body(1));
  EXPECT_EQ(after_store->operand(1), after);
}

TEST(PassCse, OpsWithRegionsAreNotMerged) {
  TestKernel k({Type::ptr(ScalarType::F32), Type::tensor(ScalarType::F32, {8})});
  Op* stores[2];
  for (int i = 0; i < 2; ++i) {
    Op* red = k.b->create_reduce(OpKind::Reduce, {k.arg(1)}, 0, {kF32}, at(1));
    {
      InsertionGuard g(*k.b);
      k.b->set_insertion_end(&red->body());
      Value* s = k.b->binary(OpKind::Add, red->body().args[0], red->body().args[1], at(1));
      k.b->create(OpKind::Yield, {s}, {}, at(1));
    }
    stores[i] = k.store(k.arg(0), red->result(0));
  }
  k.ret();
  eliminate_common_subexpressions(*k.fn);
  ASSERT_EQ(k.errors(), "");
  EXPECT_EQ(count_ops(*k.fn, OpKind::Reduce), 2);
  EXPECT_NE(stores[0]->operand(1), stores[1]->operand(1));
}

}  // namespace
}  // namespace tritium::passes
