// Pass "licm": hoisting of loop-invariant pure ops out of `for` bodies.
#include <gtest/gtest.h>

#include "../ir/ir_test_util.h"
#include "passes/licm.h"

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

TEST(PassLicm, HoistsInvariantChainPrinted) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32});
  Value* z = k.ci(ScalarType::I32, 0);
  Value* one = k.ci(ScalarType::I32, 1);
  Op* loop = k.b->create_for(z, k.arg(1), one, {}, at(2));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&loop->body());
    Value* iv = loop->body().args[0];
    Value* m = k.b->binary(OpKind::Mul, k.arg(1), k.arg(1), at(3));   // invariant
    Value* a = k.b->binary(OpKind::Add, m, iv, at(4));                 // uses iv: stays
    Value* s = k.b->binary(OpKind::Sub, m, one, at(5));                // invariant through m
    Value* l = k.b->create(OpKind::Load, {k.arg(0)}, {kI32}, at(6))->result();  // never hoisted
    Value* x = k.b->binary(OpKind::Xor, a, s, at(7));
    k.store(k.arg(0), k.b->binary(OpKind::Add, x, l, at(7)), 7);
    k.b->create(OpKind::Yield, {}, {}, at(7));
  }
  k.ret();
  hoist_loop_invariants(*k.fn);
  ASSERT_EQ(k.errors(), "") << k.text();
  EXPECT_EQ(k.text(),
            "kernel @k(%0: ptr<i32>, %1: i32) {\n"
            "  %2 = constant {value = 0} : i32\n"
            "  %3 = constant {value = 1} : i32\n"
            "  %5 = mul %1, %1 : i32\n"
            "  %7 = sub %5, %3 : i32\n"
            "  for %2, %1, %3 {\n"
            "   ^(%4: i32):\n"
            "    %6 = add %5, %4 : i32\n"
            "    %8 = load %0 : i32\n"
            "    %9 = xor %6, %7 : i32\n"
            "    %10 = add %9, %8 : i32\n"
            "    store %0, %10\n"
            "    yield\n"
            "  }\n"
            "  return\n"
            "}\n");
}

TEST(PassLicm, NestedLoops) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32});
  Value* z = k.ci(ScalarType::I32, 0);
  Value* one = k.ci(ScalarType::I32, 1);
  Op* outer = k.b->create_for(z, k.arg(1), one, {}, at(2));
  Value *both, *inner_only, *stays;
  Op* inner;
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&outer->body());
    Value* i = outer->body().args[0];
    inner = k.b->create_for(z, k.arg(1), one, {}, at(3));
    k.b->set_insertion_end(&inner->body());
    Value* j = inner->body().args[0];
    both = k.b->binary(OpKind::Mul, k.arg(1), one, at(4));     // invariant in both loops
    inner_only = k.b->binary(OpKind::Mul, i, i, at(5));        // depends on the outer iv
    stays = k.b->binary(OpKind::Add, inner_only, j, at(6));    // depends on the inner iv
    k.store(k.arg(0), k.b->binary(OpKind::Add, stays, both, at(7)), 7);
    k.b->create(OpKind::Yield, {}, {}, at(7));
    k.b->set_insertion_end(&outer->body());
    k.b->create(OpKind::Yield, {}, {}, at(8));
  }
  k.ret();
  hoist_loop_invariants(*k.fn);
  ASSERT_EQ(k.errors(), "") << k.text();
  EXPECT_EQ(both->def->parent, &k.fn->body);
  EXPECT_EQ(inner_only->def->parent, &outer->body());
  EXPECT_EQ(stays->def->parent, &inner->body());
}

TEST(PassLicm, OpsInsideIfAndLoopCarriedStay) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32, Type::of(ScalarType::I1)});
  Value* z = k.ci(ScalarType::I32, 0);
  Op* loop = k.b->create_for(z, k.arg(1), k.ci(ScalarType::I32, 1), {z}, at(2));
  Value *in_if, *carried;
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&loop->body());
    Op* br = k.b->create_if(k.arg(2), {}, at(3));
    k.b->set_insertion_end(&br->body(0));
    in_if = k.b->binary(OpKind::Mul, k.arg(1), k.arg(1), at(4));
    k.store(k.arg(0), in_if, 4);
    k.b->create(OpKind::Yield, {}, {}, at(4));
    k.b->set_insertion_end(&br->body(1));
    k.b->create(OpKind::Yield, {}, {}, at(4));
    k.b->set_insertion_end(&loop->body());
    carried = k.b->binary(OpKind::Add, loop->body().args[1], k.arg(1), at(5));
    k.b->create(OpKind::Yield, {carried}, {}, at(5));
  }
  k.store(k.arg(0), loop->result(0));
  k.ret();
  hoist_loop_invariants(*k.fn);
  ASSERT_EQ(k.errors(), "");
  EXPECT_NE(in_if->def->parent, &k.fn->body);
  EXPECT_EQ(carried->def->parent, &loop->body());
}

TEST(PassLicm, NoSpeculativeTraps) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32, Type::of(ScalarType::F32)});
  Value* z = k.ci(ScalarType::I32, 0);
  Value* four = k.ci(ScalarType::I32, 4);
  Value* m1 = k.ci(ScalarType::I32, -1);
  Op* loop = k.b->create_for(z, k.arg(1), k.ci(ScalarType::I32, 1), {}, at(2));
  Value *by_arg, *by_four, *by_m1, *rem_arg, *f2i, *i2f;
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&loop->body());
    by_arg = k.b->binary(OpKind::IDiv, four, k.arg(1), at(3));   // divisor may be 0
    by_four = k.b->binary(OpKind::IDiv, k.arg(1), four, at(4));  // safe
    by_m1 = k.b->binary(OpKind::IDiv, k.arg(1), m1, at(5));      // INT_MIN / -1 traps
    rem_arg = k.b->binary(OpKind::Rem, four, k.arg(1), at(6));
    f2i = k.b->cast(k.arg(2), ScalarType::I32, at(7));           // may be out of range
    i2f = k.b->cast(k.arg(1), ScalarType::F32, at(8));           // safe
    for (Value* v : {by_arg, by_four, by_m1, rem_arg, f2i}) k.store(k.arg(0), v, 9);
    k.b->create(OpKind::Store, {k.b->create(OpKind::Bitcast, {k.arg(0)}, {Type::ptr(ScalarType::F32)}, at(9))->result(), i2f}, {}, at(9));
    k.b->create(OpKind::Yield, {}, {}, at(9));
  }
  k.ret();
  hoist_loop_invariants(*k.fn);
  ASSERT_EQ(k.errors(), "") << k.text();
  EXPECT_EQ(by_arg->def->parent, &loop->body());
  EXPECT_EQ(by_four->def->parent, &k.fn->body);
  EXPECT_EQ(by_m1->def->parent, &loop->body());
  EXPECT_EQ(rem_arg->def->parent, &loop->body());
  EXPECT_EQ(f2i->def->parent, &loop->body());
  EXPECT_EQ(i2f->def->parent, &k.fn->body);
  EXPECT_EQ(count_ops(*k.fn, OpKind::Store), 6);
}

}  // namespace
}  // namespace tritium::passes
