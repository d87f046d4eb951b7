// ir/clone.h: deep copies of ops with regions, value remapping and the editing helpers.
#include <gtest/gtest.h>

#include <set>

#include "ir/clone.h"
#include "ir_test_util.h"

namespace tritium::ir {
namespace {

using testing::at;
using testing::TestKernel;

const Type kI32 = Type::of(ScalarType::I32);

/// Builds `for %lb..%ub step 1 { if iv > 0 { yield iv * acc } else { yield acc } }` into k.
Op* build_loop(TestKernel& k, Value* lb, Value* ub, Value* init) {
  Value* one = k.ci(ScalarType::I32, 1);
  Op* loop = k.b->create_for(lb, ub, one, {init}, at(2));
  InsertionGuard g(*k.b);
  k.b->set_insertion_end(&loop->body());
  Value* iv = loop->body().args[0];
  Value* acc = loop->body().args[1];
  Value* c = k.b->cmp("gt", iv, lb, at(3));
  Op* br = k.b->create_if(c, {kI32}, at(3));
  k.b->set_insertion_end(&br->body(0));
  Value* m = k.b->binary(OpKind::Mul, iv, acc, at(4));
  m->name = "prod";
  k.b->create(OpKind::Yield, {m}, {}, at(4));
  k.b->set_insertion_end(&br->body(1));
  k.b->create(OpKind::Yield, {acc}, {}, at(5));
  k.b->set_insertion_end(&loop->body());
  k.b->create(OpKind::Yield, {br->result(0)}, {}, at(6));
  return loop;
}

/// Every value defined (result or block argument) inside `op`, itself included.
std::set<const Value*> defined_in(Op& op) {
  std::set<const Value*> s(op.results.begin(), op.results.end());
  for (auto& r : op.regions) {
    s.insert(r->block.args.begin(), r->block.args.end());
    walk(r->block, [&](Op& o) {
      s.insert(o.results.begin(), o.results.end());
      for (auto& rr : o.regions) s.insert(rr->block.args.begin(), rr->block.args.end());
    });
  }
  return s;
}

TEST(IrClone, DeepCopyWithinAFunction) {
  TestKernel k({kI32, kI32, kI32, Type::ptr(ScalarType::I32)});
  Op* loop = build_loop(k, k.arg(0), k.arg(1), k.arg(2));
  ValueMap map;
  map[k.arg(2)] = k.arg(1);  // the copy starts from a different init
  Op* copy = clone_op(*k.b, *loop, map);
  k.store(k.arg(3), loop->result(0));
  k.store(k.arg(3), copy->result(0));
  k.ret();
  EXPECT_EQ(k.errors(), "") << k.text();
  // Same structure, fresh values, the init remapped, outside values (lb, ub) shared.
  EXPECT_EQ(copy->operands[0], k.arg(0));
  EXPECT_EQ(copy->operands[1], k.arg(1));
  EXPECT_EQ(copy->operands[3], k.arg(1));
  auto a = defined_in(*loop), b = defined_in(*copy);
  EXPECT_EQ(a.size(), b.size());
  for (const Value* v : b) EXPECT_EQ(a.count(v), 0u) << "clone reuses value %" << v->id;
  EXPECT_EQ(map.at(loop->result(0)), copy->result(0));
  EXPECT_EQ(map.at(loop->body().args[0]), copy->body().args[0]);
  const Op& inner_if = *copy->body().ops[1];
  ASSERT_EQ(inner_if.kind, OpKind::If);
  const Op& mul = *inner_if.body(0).ops[0];
  EXPECT_EQ(mul.kind, OpKind::Mul);
  EXPECT_EQ(mul.operands[0], copy->body().args[0]);
  EXPECT_EQ(mul.results[0]->name, "prod");
  EXPECT_EQ(mul.loc.line, 4u);
  EXPECT_EQ(mul.parent, &inner_if.body(0));
  EXPECT_EQ(inner_if.parent, &copy->body());
  EXPECT_EQ(copy->body().parent, copy);
  EXPECT_EQ(copy->attrs, loop->attrs);
}

TEST(IrClone, CopyIntoAnotherFunction) {
  TestKernel src({kI32, kI32, kI32});
  Op* loop = build_loop(src, src.arg(0), src.arg(1), src.arg(2));
  TestKernel dst({kI32, Type::ptr(ScalarType::I32)}, "dst");
  ValueMap map;
  for (int i = 0; i < 3; ++i) map[src.arg(i)] = dst.arg(0);
  // The constant `one` lives outside the loop in src: copy it first, as an inliner would.
  clone_op(*dst.b, *src.fn->body.ops[0], map);
  Op* copy = clone_op(*dst.b, *loop, map);
  dst.store(dst.arg(1), copy->result(0));
  dst.ret();
  EXPECT_EQ(dst.errors(), "") << dst.text();
  // The verifier's dominance check above proves no value of `src` leaked into `dst`; the
  // copy has the same op kinds in the same nesting order.
  std::vector<OpKind> ka, kb;
  walk(loop->body(), [&](Op& o) { ka.push_back(o.kind); });
  walk(copy->body(), [&](Op& o) { kb.push_back(o.kind); });
  EXPECT_EQ(ka, kb);
  EXPECT_EQ(ka.size(), 6u);  // cmp, if, mul, yield, yield, yield
}

TEST(IrClone, CloneOpsSkipsTerminator) {
  TestKernel k({kI32});
  Op* loop = build_loop(k, k.arg(0), k.arg(0), k.arg(0));
  Block dst;
  Builder b(*k.fn);
  b.set_insertion_end(&dst);
  ValueMap map;
  clone_ops(b, loop->body(), map, /*skip_terminator=*/true);
  ASSERT_EQ(dst.ops.size(), 2u);
  EXPECT_EQ(dst.ops[0]->kind, OpKind::Cmp);
  EXPECT_EQ(dst.ops[1]->kind, OpKind::If);
  clone_ops(b, loop->body(), map);
  EXPECT_EQ(dst.ops.back()->kind, OpKind::Yield);
}

TEST(IrClone, EditingHelpers) {
  TestKernel k({kI32});
  Value* a = k.ci(ScalarType::I32, 1);
  Value* b = k.ci(ScalarType::I32, 2);
  Value* c = k.ci(ScalarType::I32, 3);
  EXPECT_EQ(index_in_parent(*b->def), 1u);
  Op* loop = k.b->create_for(a, b, c, {a, b, c}, at(2));
  move_ops(k.fn->body, 1, 3, loop->body(), 0);  // moves constants 2 and 3 into the body
  ASSERT_EQ(loop->body().ops.size(), 2u);
  EXPECT_EQ(b->def->parent, &loop->body());
  EXPECT_EQ(index_in_parent(*c->def), 1u);
  EXPECT_EQ(index_in_parent(*loop), 1u);
  auto taken = take_op(loop->body(), 0);
  EXPECT_EQ(taken->result(), b);
  EXPECT_EQ(loop->body().ops.size(), 1u);
  Value* r2 = loop->result(2);
  erase_result(*loop, 1);
  EXPECT_EQ(loop->results.size(), 2u);
  EXPECT_EQ(r2->index, 1);
  Value* a3 = loop->body().args[3];
  erase_block_arg(loop->body(), 1);
  EXPECT_EQ(loop->body().args.size(), 3u);
  EXPECT_EQ(a3->index, 2);
  EXPECT_THROW(erase_result(*loop, 5), std::logic_error);
  EXPECT_THROW(take_op(loop->body(), 3), std::logic_error);
  EXPECT_EQ(lookup(ValueMap{}, a), a);
}

}  // namespace
}  // namespace tritium::ir
