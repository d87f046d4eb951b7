// ir::Builder: operand/result count checks, insertion points and the structured-op helpers.
#include <gtest/gtest.h>

#include <stdexcept>

#include "ir_test_util.h"

namespace tritium::ir {
namespace {

using testing::at;
using testing::TestKernel;

const Type kI32 = Type::of(ScalarType::I32);

TEST(IrBuilder, RejectsWrongOperandCounts) {
  TestKernel k({kI32, Type::ptr(ScalarType::I32)});
  Value* a = k.arg(0);
  Value* p = k.arg(1);
  EXPECT_THROW(k.b->create(OpKind::Add, {a}, {kI32}, at(1)), std::logic_error);
  EXPECT_THROW(k.b->create(OpKind::Add, {a, a, a}, {kI32}, at(1)), std::logic_error);
  EXPECT_THROW(k.b->create(OpKind::Neg, {}, {kI32}, at(1)), std::logic_error);
  EXPECT_THROW(k.b->create(OpKind::Select, {a, a}, {kI32}, at(1)), std::logic_error);
  EXPECT_THROW(k.b->create(OpKind::Load, {}, {kI32}, at(1)), std::logic_error);
  EXPECT_THROW(k.b->create(OpKind::Load, {p, a, a, a}, {kI32}, at(1)), std::logic_error);
  EXPECT_THROW(k.b->create(OpKind::Store, {p}, {}, at(1)), std::logic_error);
  EXPECT_THROW(k.b->create(OpKind::For, {a, a}, {}, at(1), {}, 1), std::logic_error);
  EXPECT_THROW(k.b->create(OpKind::Constant, {a}, {kI32}, at(1)), std::logic_error);
  EXPECT_THROW(k.b->create(OpKind::If, {}, {}, at(1), {}, 2), std::logic_error);
  EXPECT_TRUE(k.fn->body.ops.empty()) << "a rejected op must not be inserted";
}

TEST(IrBuilder, RejectsWrongResultCounts) {
  TestKernel k({kI32, Type::ptr(ScalarType::I32)});
  Value* a = k.arg(0);
  EXPECT_THROW(k.b->create(OpKind::Add, {a, a}, {}, at(1)), std::logic_error);
  EXPECT_THROW(k.b->create(OpKind::Add, {a, a}, {kI32, kI32}, at(1)), std::logic_error);
  EXPECT_THROW(k.b->create(OpKind::Store, {k.arg(1), a}, {kI32}, at(1)), std::logic_error);
  EXPECT_THROW(k.b->create(OpKind::Split, {a}, {kI32}, at(1)), std::logic_error);
  EXPECT_TRUE(k.fn->body.ops.empty());
}

TEST(IrBuilder, RejectsNullOperandAndMissingInsertionPoint) {
  TestKernel k({kI32});
  EXPECT_THROW(k.b->create(OpKind::Add, {k.arg(0), nullptr}, {kI32}, at(1)), std::logic_error);
  Builder fresh(*k.fn);
  EXPECT_THROW(fresh.create(OpKind::Add, {k.arg(0), k.arg(0)}, {kI32}, at(1)), std::logic_error);
}

TEST(IrBuilder, VariadicOpsAcceptAnyCount) {
  TestKernel k({kI32});
  Value* a = k.arg(0);
  EXPECT_NO_THROW(k.b->create(OpKind::Print, {}, {}, at(1)));
  EXPECT_NO_THROW(k.b->create(OpKind::Print, {a, a, a, a}, {}, at(1)));
  EXPECT_NO_THROW(k.b->create(OpKind::Call, {a, a}, {kI32, kI32, kI32}, at(1), {{"callee", std::string("f")}}));
  EXPECT_EQ(k.fn->body.ops.size(), 3u);
}

TEST(IrBuilder, CreateSetsResultsParentsAndIds) {
  TestKernel k({kI32, kI32});
  Value* s = k.b->binary(OpKind::Add, k.arg(0), k.arg(1), at(7));
  ASSERT_NE(s->def, nullptr);
  EXPECT_EQ(s->def->kind, OpKind::Add);
  EXPECT_EQ(s->def->parent, &k.fn->body);
  EXPECT_EQ(s->def->loc.line, 7u);
  EXPECT_EQ(s->index, 0);
  EXPECT_EQ(s->id, 2u);  // ids 0 and 1 are the parameters
  EXPECT_EQ(s->type, kI32);
  EXPECT_EQ(k.fn->value_count(), 3u);
  EXPECT_EQ(k.arg(1)->block, &k.fn->body);
  EXPECT_EQ(k.arg(1)->index, 1);
}

TEST(IrBuilder, InsertionBeforeAndGuard) {
  TestKernel k({kI32});
  Value* first = k.ci(ScalarType::I32, 1);
  Value* last = k.ci(ScalarType::I32, 3);
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_before(&k.fn->body, 1);
    k.ci(ScalarType::I32, 2);
    k.ci(ScalarType::I32, 25);  // lands after the previous insertion, still before `last`
  }
  Value* after = k.ci(ScalarType::I32, 4);  // guard restored "append at end"
  auto& ops = k.fn->body.ops;
  ASSERT_EQ(ops.size(), 5u);
  EXPECT_EQ(ops[0]->result(), first);
  EXPECT_EQ(ops[1]->attr_int("value"), 2);
  EXPECT_EQ(ops[2]->attr_int("value"), 25);
  EXPECT_EQ(ops[3]->result(), last);
  EXPECT_EQ(ops[4]->result(), after);
}

TEST(IrBuilder, ConvenienceTypes) {
  TestKernel k({Type::tensor(ScalarType::F16, {8}), Type::of(ScalarType::F32)});
  Value* t = k.arg(0);
  Value* s = k.arg(1);
  EXPECT_EQ(k.b->cmp("lt", t, t, at(1))->type, Type::tensor(ScalarType::I1, {8}));
  EXPECT_EQ(k.b->cast(t, ScalarType::F32, at(1))->type, Type::tensor(ScalarType::F32, {8}));
  Value* rtz = k.b->cast(s, ScalarType::F16, at(1), "rtz");
  EXPECT_EQ(rtz->def->attr_str("rounding"), "rtz");
  EXPECT_FALSE(k.b->cast(s, ScalarType::F16, at(1))->def->has_attr("rounding"));
  EXPECT_EQ(k.b->splat(s, {4, 2}, at(1))->type, Type::tensor(ScalarType::F32, {4, 2}));
  Value* e = k.b->expand_dims(t, 0, at(1));
  EXPECT_EQ(e->type, Type::tensor(ScalarType::F16, {1, 8}));
  EXPECT_EQ(e->def->attr_int("axis"), 0);
  EXPECT_EQ(k.b->broadcast(e, {4, 8}, at(1))->type, Type::tensor(ScalarType::F16, {4, 8}));
  Value* m = k.b->math(MathFn::Exp, {s}, s->type, at(1));
  EXPECT_EQ(m->def->math_fn(), MathFn::Exp);
  Value* c = k.ci(ScalarType::I64, -5);
  EXPECT_EQ(c->def->attr_int("value"), -5);
  Value* f = k.cf(ScalarType::F32, 0.5);
  EXPECT_EQ(f->def->attr_float("value"), 0.5);
}

TEST(IrBuilder, StructuredOps) {
  TestKernel k({kI32, Type::of(ScalarType::F32), Type::tensor(ScalarType::F32, {16})});
  Value* i = k.arg(0);
  Op* loop = k.b->create_for(i, i, i, {k.arg(1), k.arg(2)}, at(1));
  ASSERT_EQ(loop->regions.size(), 1u);
  ASSERT_EQ(loop->body().args.size(), 3u);
  EXPECT_EQ(loop->body().args[0]->type, kI32);
  EXPECT_EQ(loop->body().args[2]->type, Type::tensor(ScalarType::F32, {16}));
  EXPECT_EQ(loop->body().parent, loop);
  ASSERT_EQ(loop->results.size(), 2u);
  EXPECT_EQ(loop->result(1)->type, Type::tensor(ScalarType::F32, {16}));
  EXPECT_EQ(loop->operands.size(), 5u);

  Value* c = k.b->cmp("eq", i, i, at(2));
  Op* br = k.b->create_if(c, {kI32}, at(2));
  EXPECT_EQ(br->regions.size(), 2u);
  EXPECT_TRUE(br->body(0).args.empty());
  EXPECT_EQ(br->body(1).parent, br);

  Op* w = k.b->create_while({i, k.arg(1)}, {kI32}, at(3));
  EXPECT_EQ(w->body(0).args.size(), 2u);
  EXPECT_EQ(w->body(0).args[1]->type, Type::of(ScalarType::F32));
  EXPECT_EQ(w->body(1).args.size(), 1u);
  EXPECT_EQ(w->results.size(), 1u);

  Op* red = k.b->create_reduce(OpKind::Reduce, {k.arg(2)}, 0, {Type::of(ScalarType::F32)}, at(4));
  EXPECT_EQ(red->attr_int("axis"), 0);
  ASSERT_EQ(red->body().args.size(), 2u);
  EXPECT_EQ(red->body().args[0]->type, Type::of(ScalarType::F32));
}

TEST(IrBuilder, AttributeAccessorsCheckKinds) {
  TestKernel k({kI32});
  Op* op = k.b->create(OpKind::Hint, {k.arg(0)}, {kI32}, at(1),
                       {{"multiple_of", std::vector<int64_t>{16}}, {"name", std::string("x")}, {"n", int64_t{3}}});
  EXPECT_EQ(op->attr_ints("multiple_of"), std::vector<int64_t>{16});
  EXPECT_EQ(op->attr_int("missing", 9), 9);
  EXPECT_EQ(op->attr_float("n"), 3.0);  // ints read as floats
  EXPECT_THROW(op->attr_int("name"), std::logic_error);
  EXPECT_THROW(op->attr_str("n"), std::logic_error);
  EXPECT_THROW(op->attr_ints("n"), std::logic_error);
}

}  // namespace
}  // namespace tritium::ir
