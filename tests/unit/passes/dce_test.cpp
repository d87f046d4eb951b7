// Pass "dce": dead pure ops, unused if results and dead loop-carried values.
#include <gtest/gtest.h>

#include "../ir/ir_test_util.h"
#include "passes/dce.h"

namespace tritium::passes {
namespace {

using ir::InsertionGuard;
using ir::Op;
using ir::OpKind;
using ir::ScalarType;
using ir::Type;
using ir::Value;
using testing::at;
using testing::count_all_ops;
using testing::count_ops;
using testing::TestKernel;

const Type kI32 = Type::of(ScalarType::I32);

TEST(PassDce, RemovesDeadChainsKeepsSideEffects) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32});
  Value* a = k.b->binary(OpKind::Add, k.arg(1), k.arg(1), at(1));
  Value* b = k.b->binary(OpKind::Mul, a, a, at(2));
  k.b->binary(OpKind::Sub, b, a, at(3));                                     // dead chain a, b, sub
  Value* live = k.b->binary(OpKind::Xor, k.arg(1), k.arg(1), at(4));
  k.b->create(OpKind::Load, {k.arg(0)}, {kI32}, at(5));                      // not pure: kept
  k.b->create(OpKind::Assert, {k.ci(ScalarType::I1, 1)}, {}, at(6));          // side effect: kept
  k.b->create(OpKind::AtomicRMW, {k.arg(0), live}, {kI32}, at(7), {{"rmw", std::string("add")}});
  k.ret();
  eliminate_dead_code(*k.fn);
  ASSERT_EQ(k.errors(), "") << k.text();
  EXPECT_EQ(k.text(),
            "kernel @k(%0: ptr<i32>, %1: i32) {\n"
            "  %5 = xor %1, %1 : i32\n"
            "  %6 = load %0 : i32\n"
            "  %7 = constant {value = 1} : i1\n"
            "  assert %7\n"
            "  %8 = atomic_rmw %0, %5 {rmw = \"add\"} : i32\n"
            "  return\n"
            "}\n");
}

TEST(PassDce, RemovesDeadOpsInsideRegionsAndDeadReduce) {
  TestKernel k({Type::ptr(ScalarType::F32), Type::tensor(ScalarType::F32, {8})});
  Op* red = k.b->create_reduce(OpKind::Reduce, {k.arg(1)}, 0, {Type::of(ScalarType::F32)}, at(1));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&red->body());
    Value* s = k.b->binary(OpKind::Add, red->body().args[0], red->body().args[1], at(1));
    k.b->create(OpKind::Yield, {s}, {}, at(1));
  }
  Op* loop = k.b->create_for(k.ci(ScalarType::I32, 0), k.ci(ScalarType::I32, 4), k.ci(ScalarType::I32, 1), {}, at(2));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&loop->body());
    k.b->binary(OpKind::Mul, loop->body().args[0], loop->body().args[0], at(3));  // dead
    Value* f = k.b->cast(loop->body().args[0], ScalarType::F32, at(4));
    k.store(k.arg(0), f, 4);
    k.b->create(OpKind::Yield, {}, {}, at(4));
  }
  k.ret();
  eliminate_dead_code(*k.fn);
  ASSERT_EQ(k.errors(), "") << k.text();
  EXPECT_EQ(count_ops(*k.fn, OpKind::Reduce), 0);
  EXPECT_EQ(count_ops(*k.fn, OpKind::Mul), 0);
  EXPECT_EQ(count_ops(*k.fn, OpKind::Cast), 1);
  EXPECT_EQ(loop->body().ops.size(), 3u);
}

TEST(PassDce, UnusedIfResultsAndEmptyIf) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32, Type::of(ScalarType::I1)});
  Op* br = k.b->create_if(k.arg(2), {kI32, kI32}, at(1));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&br->body(0));
    Value* a = k.b->binary(OpKind::Add, k.arg(1), k.arg(1), at(2));
    Value* m = k.b->binary(OpKind::Mul, k.arg(1), k.arg(1), at(2));
    k.b->create(OpKind::Yield, {a, m}, {}, at(2));
    k.b->set_insertion_end(&br->body(1));
    k.b->create(OpKind::Yield, {k.arg(1), k.arg(1)}, {}, at(3));
  }
  Op* st = k.store(k.arg(0), br->result(1));
  // A second if whose only result is unused and whose branches compute nothing else.
  Op* br2 = k.b->create_if(k.arg(2), {kI32}, at(4));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&br2->body(0));
    Value* a = k.b->binary(OpKind::Add, k.arg(1), k.arg(1), at(5));
    k.b->create(OpKind::Yield, {a}, {}, at(5));
    k.b->set_insertion_end(&br2->body(1));
    k.b->create(OpKind::Yield, {k.arg(1)}, {}, at(6));
  }
  k.ret();
  eliminate_dead_code(*k.fn);
  ASSERT_EQ(k.errors(), "") << k.text();
  EXPECT_EQ(count_ops(*k.fn, OpKind::If), 1);
  ASSERT_EQ(br->results.size(), 1u);
  EXPECT_EQ(st->operand(1), br->result(0));
  EXPECT_EQ(br->result(0)->index, 0);
  EXPECT_EQ(count_ops(*k.fn, OpKind::Add), 0);
  EXPECT_EQ(count_ops(*k.fn, OpKind::Mul), 1);
}

TEST(PassDce, IfWithSideEffectsKeptWithoutResults) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32, Type::of(ScalarType::I1)});
  Op* br = k.b->create_if(k.arg(2), {kI32}, at(1));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&br->body(0));
    k.store(k.arg(0), k.arg(1), 2);
    k.b->create(OpKind::Yield, {k.arg(1)}, {}, at(2));
    k.b->set_insertion_end(&br->body(1));
    k.b->create(OpKind::Yield, {k.arg(1)}, {}, at(3));
  }
  k.ret();
  eliminate_dead_code(*k.fn);
  ASSERT_EQ(k.errors(), "") << k.text();
  EXPECT_EQ(count_ops(*k.fn, OpKind::If), 1);
  EXPECT_TRUE(br->results.empty());
  EXPECT_EQ(count_ops(*k.fn, OpKind::Store), 1);
}

/// for i in 0..n: a += i (result stored), b = b * b (unused), c = c + 1 (stored in body).
struct LoopCase {
  TestKernel k{{Type::ptr(ScalarType::I32), kI32}};
  Op* loop;
  Op* final_store;
  LoopCase() {
    Value* z = k.ci(ScalarType::I32, 0);
    Value* one = k.ci(ScalarType::I32, 1);
    loop = k.b->create_for(z, k.arg(1), one, {z, one, z}, at(2));
    {
      InsertionGuard g(*k.b);
      k.b->set_insertion_end(&loop->body());
      auto& args = loop->body().args;
      Value* a = k.b->binary(OpKind::Add, args[1], args[0], at(3));
      Value* b = k.b->binary(OpKind::Mul, args[2], args[2], at(4));
      Value* b2 = k.b->binary(OpKind::Add, b, args[2], at(4));
      Value* c = k.b->binary(OpKind::Add, args[3], one, at(5));
      k.store(k.arg(0), args[3], 5);
      k.b->create(OpKind::Yield, {a, b2, c}, {}, at(6));
    }
    final_store = k.store(k.arg(0), loop->result(0), 7);
    k.ret();
  }
};

TEST(PassDce, DeadLoopCarriedValueRemoved) {
  LoopCase c;
  eliminate_dead_code(*c.k.fn);
  ASSERT_EQ(c.k.errors(), "") << c.k.text();
  // b (and its mul/add chain) is gone; a is used after the loop; c feeds a store in the body.
  ASSERT_EQ(c.loop->results.size(), 2u) << c.k.text();
  EXPECT_EQ(c.loop->operands.size(), 5u);
  EXPECT_EQ(c.loop->body().args.size(), 3u);
  EXPECT_EQ(c.final_store->operand(1), c.loop->result(0));
  EXPECT_EQ(count_ops(*c.k.fn, OpKind::Mul), 0);
  EXPECT_EQ(c.loop->body().ops.size(), 4u);  // add a, add c, store, yield
  EXPECT_EQ(c.loop->body().args[2]->index, 2);
  EXPECT_EQ(c.loop->result(1)->index, 1);
}

TEST(PassDce, LoopWithoutUsesOrEffectsDisappears) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32});
  Value* z = k.ci(ScalarType::I32, 0);
  Op* loop = k.b->create_for(z, k.arg(1), k.ci(ScalarType::I32, 1), {z, z}, at(2));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&loop->body());
    auto& args = loop->body().args;
    // a and b depend on each other through pure ops only, both results unused.
    Value* a = k.b->binary(OpKind::Add, args[1], args[2], at(3));
    Value* b = k.b->binary(OpKind::Add, args[2], args[0], at(3));
    k.b->create(OpKind::Yield, {a, b}, {}, at(3));
  }
  k.ret();
  eliminate_dead_code(*k.fn);
  ASSERT_EQ(k.errors(), "") << k.text();
  EXPECT_EQ(count_all_ops(*k.fn), 1) << k.text();  // only `return` remains
}

TEST(PassDce, LoopCarriedValuesUsedAreKept) {
  // Both results are used: nothing changes.
  LoopCase c;
  c.k.fn->body.ops.pop_back();  // drop return to add more uses
  c.k.store(c.k.arg(0), c.loop->result(1), 8);
  c.k.store(c.k.arg(0), c.loop->result(2), 8);
  c.k.ret();
  std::string before = c.k.text();
  eliminate_dead_code(*c.k.fn);
  EXPECT_EQ(c.k.text(), before);
}

TEST(PassDce, SwappedLoopCarriedValuesAreKept) {
  // a' = b, b' = a: each body argument feeds the other's yield, so neither is removable by
  // the local rule; the loop stays (conservative, never wrong).
  TestKernel k({Type::ptr(ScalarType::I32), kI32});
  Value* z = k.ci(ScalarType::I32, 0);
  Op* loop = k.b->create_for(z, k.arg(1), k.ci(ScalarType::I32, 1), {z, z}, at(2));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&loop->body());
    k.b->create(OpKind::Yield, {loop->body().args[2], loop->body().args[1]}, {}, at(3));
  }
  k.ret();
  eliminate_dead_code(*k.fn);
  ASSERT_EQ(k.errors(), "");
  EXPECT_EQ(count_ops(*k.fn, OpKind::For), 1);
}

TEST(PassDce, WhileLoopsAreKept) {
  TestKernel k({kI32});
  Op* w = k.b->create_while({k.arg(0)}, {kI32}, at(1));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&w->body(0));
    Value* c = k.b->cmp("lt", w->body(0).args[0], k.arg(0), at(2));
    k.b->create(OpKind::Condition, {c, w->body(0).args[0]}, {}, at(2));
    k.b->set_insertion_end(&w->body(1));
    k.b->create(OpKind::Yield, {w->body(1).args[0]}, {}, at(3));
  }
  k.ret();
  eliminate_dead_code(*k.fn);
  EXPECT_EQ(count_ops(*k.fn, OpKind::While), 1);
  EXPECT_EQ(w->results.size(), 1u);
}

}  // namespace
}  // namespace tritium::passes

namespace tritium::passes {
namespace {

TEST(PassDce, HeaderExamplePrinted) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32});
  Value* z = k.ci(ScalarType::I32, 0);
  Value* one = k.ci(ScalarType::I32, 1);
  Op* loop = k.b->create_for(z, k.arg(1), one, {z, one}, at(2));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&loop->body());
    auto& a = loop->body().args;
    Value* s = k.b->binary(OpKind::Add, a[1], a[0], at(3));
    Value* p = k.b->binary(OpKind::Mul, a[2], a[2], at(4));
    k.b->create(OpKind::Yield, {s, p}, {}, at(5));
  }
  k.store(k.arg(0), loop->result(0));
  k.ret();
  EXPECT_EQ(k.text(),
            "kernel @k(%0: ptr<i32>, %1: i32) {\n"
            "  %2 = constant {value = 0} : i32\n"
            "  %3 = constant {value = 1} : i32\n"
            "  %4, %5 = for %2, %1, %3, %2, %3 : i32, i32 {\n"
            "   ^(%6: i32, %7: i32, %8: i32):\n"
            "    %9 = add %7, %6 : i32\n"
            "    %10 = mul %8, %8 : i32\n"
            "    yield %9, %10\n"
            "  }\n"
            "  store %0, %4\n"
            "  return\n"
            "}\n");
  eliminate_dead_code(*k.fn);
  EXPECT_EQ(k.text(),
            "kernel @k(%0: ptr<i32>, %1: i32) {\n"
            "  %2 = constant {value = 0} : i32\n"
            "  %3 = constant {value = 1} : i32\n"
            "  %4 = for %2, %1, %3, %2 : i32 {\n"
            "   ^(%6: i32, %7: i32):\n"
            "    %9 = add %7, %6 : i32\n"
            "    yield %9\n"
            "  }\n"
            "  store %0, %4\n"
            "  return\n"
            "}\n");
}

}  // namespace
}  // namespace tritium::passes
