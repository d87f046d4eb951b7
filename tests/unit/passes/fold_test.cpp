// Pass "fold": identities, tensor constants, constant control flow and exact printed IR.
#include <gtest/gtest.h>

#include "../ir/ir_test_util.h"
#include "kernel_ir_util.h"
#include "passes/fold.h"

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

/// A kernel with parameters (ptr<i32>, i32 x); tests store results through the pointer.
struct Case {
  TestKernel k{{Type::ptr(ScalarType::I32), kI32}};
  Value* x() const { return k.arg(1); }
  /// Stores `v` and returns the store, whose operand 1 is inspected after folding.
  Op* keep(Value* v) { return k.store(k.arg(0), v); }
  void fold() {
    k.ret();
    ASSERT_EQ(k.errors(), "") << k.text();
    fold_constants(*k.fn);
    ASSERT_EQ(k.errors(), "") << k.text();
  }
};

TEST(PassFold, IntegerIdentities) {
  Case c;
  auto& b = *c.k.b;
  Value* x = c.x();
  Value* zero = c.k.ci(ScalarType::I32, 0);
  Value* one = c.k.ci(ScalarType::I32, 1);
  Value* ones = c.k.ci(ScalarType::I32, -1);
  struct Expect { Op* store; Value* want; };
  std::vector<Expect> e = {
      {c.keep(b.binary(OpKind::Add, x, zero, at(2))), x},  {c.keep(b.binary(OpKind::Add, zero, x, at(2))), x},
      {c.keep(b.binary(OpKind::Sub, x, zero, at(2))), x},  {c.keep(b.binary(OpKind::Mul, x, one, at(2))), x},
      {c.keep(b.binary(OpKind::Mul, one, x, at(2))), x},   {c.keep(b.binary(OpKind::Mul, x, zero, at(2))), zero},
      {c.keep(b.binary(OpKind::Mul, zero, x, at(2))), zero}, {c.keep(b.binary(OpKind::And, x, ones, at(2))), x},
      {c.keep(b.binary(OpKind::And, x, zero, at(2))), zero}, {c.keep(b.binary(OpKind::Or, x, zero, at(2))), x},
      {c.keep(b.binary(OpKind::Or, ones, x, at(2))), ones}, {c.keep(b.binary(OpKind::Xor, x, zero, at(2))), x},
      {c.keep(b.binary(OpKind::Shl, x, zero, at(2))), x},  {c.keep(b.binary(OpKind::Shr, x, zero, at(2))), x},
      {c.keep(b.binary(OpKind::IDiv, x, one, at(2))), x},
  };
  // Not identities: 0 - x, x // 0, 1 << x, x * x.
  Op* s1 = c.keep(b.binary(OpKind::Sub, zero, x, at(3)));
  Op* s2 = c.keep(b.binary(OpKind::IDiv, x, zero, at(3)));
  Op* s3 = c.keep(b.binary(OpKind::Shl, one, x, at(3)));
  c.fold();
  for (size_t i = 0; i < e.size(); ++i) EXPECT_EQ(e[i].store->operand(1), e[i].want) << "case " << i << "\n" << c.k.text();
  EXPECT_EQ(s1->operand(1)->def->kind, OpKind::Sub);
  EXPECT_EQ(s2->operand(1)->def->kind, OpKind::IDiv);
  EXPECT_EQ(s3->operand(1)->def->kind, OpKind::Shl);
}

TEST(PassFold, UnsignedAllOnesIdentity) {
  TestKernel k({Type::ptr(ScalarType::U8), Type::of(ScalarType::U8)});
  Value* m255 = k.ci(ScalarType::U8, 255);
  Value* m127 = k.ci(ScalarType::U8, 127);
  Op* a = k.store(k.arg(0), k.b->binary(OpKind::And, k.arg(1), m255, at(2)));
  Op* b = k.store(k.arg(0), k.b->binary(OpKind::And, k.arg(1), m127, at(2)));
  k.ret();
  fold_constants(*k.fn);
  EXPECT_EQ(a->operand(1), k.arg(1));
  EXPECT_EQ(b->operand(1)->def->kind, OpKind::And);
}

TEST(PassFold, FloatIdentitiesAreNotApplied) {
  // x + 0.0 is not x for x = -0.0; x * 0.0 is not 0 for inf/NaN; x * 1.0 is kept too.
  TestKernel k({Type::ptr(ScalarType::F32), kF32});
  Value* z = k.cf(ScalarType::F32, 0.0);
  Value* o = k.cf(ScalarType::F32, 1.0);
  k.store(k.arg(0), k.b->binary(OpKind::Add, k.arg(1), z, at(2)));
  k.store(k.arg(0), k.b->binary(OpKind::Mul, k.arg(1), z, at(2)));
  k.store(k.arg(0), k.b->binary(OpKind::Mul, k.arg(1), o, at(2)));
  k.ret();
  std::string before = k.text();
  fold_constants(*k.fn);
  EXPECT_EQ(k.text(), before);
}

TEST(PassFold, SelectAndAddPtr) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32, kI32, Type::of(ScalarType::I1)});
  Value* t = k.ci(ScalarType::I1, 1);
  Value* f = k.ci(ScalarType::I1, 0);
  Op* s1 = k.store(k.arg(0), k.b->select(t, k.arg(1), k.arg(2), at(2)));
  Op* s2 = k.store(k.arg(0), k.b->select(f, k.arg(1), k.arg(2), at(2)));
  Op* s3 = k.store(k.arg(0), k.b->select(k.arg(3), k.arg(2), k.arg(2), at(2)));
  Op* s4 = k.store(k.arg(0), k.b->select(k.arg(3), k.arg(1), k.arg(2), at(2)));
  Value* p = k.b->create(OpKind::AddPtr, {k.arg(0), k.ci(ScalarType::I64, 0)}, {k.arg(0)->type}, at(3))->result();
  Op* s5 = k.store(p, k.arg(1));
  k.ret();
  fold_constants(*k.fn);
  EXPECT_EQ(k.errors(), "");
  EXPECT_EQ(s1->operand(1), k.arg(1));
  EXPECT_EQ(s2->operand(1), k.arg(2));
  EXPECT_EQ(s3->operand(1), k.arg(2));
  EXPECT_EQ(s4->operand(1)->def->kind, OpKind::Select);
  EXPECT_EQ(s5->operand(0), k.arg(0));
}

TEST(PassFold, TensorConstants) {
  Type t4 = Type::tensor(ScalarType::I32, {4});
  TestKernel k({Type::ptr(ScalarType::I32).with_shape({2, 4}), t4});
  Value* six = k.ci(ScalarType::I32, 6);
  Value* seven = k.ci(ScalarType::I32, 7);
  Value* prod = k.b->binary(OpKind::Mul, six, seven, at(2));
  Value* splat = k.b->splat(prod, {4}, at(3));
  Value* sum = k.b->binary(OpKind::Add, k.arg(1), splat, at(4));         // not constant: stays
  Value* twice = k.b->binary(OpKind::Add, splat, splat, at(5));          // tensor + tensor constant
  Value* e = k.b->expand_dims(twice, 0, at(6));
  Value* bc = k.b->broadcast(e, {2, 4}, at(7));
  Value* e2 = k.b->expand_dims(sum, 0, at(8));
  Value* s2 = k.b->broadcast(e2, {2, 4}, at(8));
  Op* st1 = k.store(k.arg(0), bc);
  Op* st2 = k.store(k.arg(0), s2);
  k.ret();
  fold_constants(*k.fn);
  ASSERT_EQ(k.errors(), "") << k.text();
  Value* c = st1->operand(1);
  ASSERT_EQ(c->def->kind, OpKind::Constant) << k.text();
  EXPECT_EQ(c->type, Type::tensor(ScalarType::I32, {2, 4}));
  EXPECT_EQ(c->def->attr_int("value"), 84);  // 2 * (6 * 7)
  EXPECT_EQ(st2->operand(1)->def->kind, OpKind::Broadcast);
  const Op& add = *st2->operand(1)->def->operand(0)->def->operand(0)->def;
  ASSERT_EQ(add.kind, OpKind::Add);
  ASSERT_EQ(add.operand(1)->def->kind, OpKind::Constant);
  EXPECT_EQ(add.operand(1)->type, t4);
  EXPECT_EQ(add.operand(1)->def->attr_int("value"), 42);
}

TEST(PassFold, PrintedBeforeAndAfter) {
  TestKernel k({Type::ptr(ScalarType::I32).with_shape({4}), Type::tensor(ScalarType::I32, {4})});
  Value* a = k.ci(ScalarType::I32, 6);
  Value* b = k.ci(ScalarType::I32, 7);
  Value* m = k.b->binary(OpKind::Mul, a, b, at(2));
  Value* s = k.b->splat(m, {4}, at(3));
  Value* r = k.b->binary(OpKind::Add, k.arg(1), s, at(4));
  k.store(k.arg(0), r);
  k.ret();
  EXPECT_EQ(k.text(),
            "kernel @k(%0: tensor<4xptr<i32>>, %1: tensor<4xi32>) {\n"
            "  %2 = constant {value = 6} : i32\n"
            "  %3 = constant {value = 7} : i32\n"
            "  %4 = mul %2, %3 : i32\n"
            "  %5 = splat %4 : tensor<4xi32>\n"
            "  %6 = add %1, %5 : tensor<4xi32>\n"
            "  store %0, %6\n"
            "  return\n"
            "}\n");
  fold_constants(*k.fn);
  EXPECT_EQ(k.text(),
            "kernel @k(%0: tensor<4xptr<i32>>, %1: tensor<4xi32>) {\n"
            "  %2 = constant {value = 6} : i32\n"
            "  %3 = constant {value = 7} : i32\n"
            "  %7 = constant {value = 42} : i32\n"
            "  %8 = constant {value = 42} : tensor<4xi32>\n"
            "  %6 = add %1, %8 : tensor<4xi32>\n"
            "  store %0, %6\n"
            "  return\n"
            "}\n");
}

/// if (cond) { store 1; yield x + 1 } else { store 2; yield x * 3 } → stored result.
struct IfCase {
  TestKernel k{{Type::ptr(ScalarType::I32), kI32}};
  Op* br = nullptr;
  Op* final_store = nullptr;
  explicit IfCase(int64_t cond) {
    Value* c = k.ci(ScalarType::I1, cond);
    br = k.b->create_if(c, {kI32}, at(2));
    {
      InsertionGuard g(*k.b);
      k.b->set_insertion_end(&br->body(0));
      k.store(k.arg(0), k.ci(ScalarType::I32, 1, 3), 3);
      Value* t = k.b->binary(OpKind::Add, k.arg(1), k.ci(ScalarType::I32, 1, 3), at(3));
      k.b->create(OpKind::Yield, {t}, {}, at(3));
      k.b->set_insertion_end(&br->body(1));
      k.store(k.arg(0), k.ci(ScalarType::I32, 2, 4), 4);
      Value* e = k.b->binary(OpKind::Mul, k.arg(1), k.ci(ScalarType::I32, 3, 4), at(4));
      k.b->create(OpKind::Yield, {e}, {}, at(4));
    }
    final_store = k.store(k.arg(0), br->result(0), 5);
    k.ret();
  }
};

TEST(PassFold, IfWithConstantConditionTrue) {
  IfCase c(1);
  fold_constants(*c.k.fn);
  ASSERT_EQ(c.k.errors(), "") << c.k.text();
  EXPECT_EQ(count_ops(*c.k.fn, OpKind::If), 0);
  EXPECT_EQ(count_ops(*c.k.fn, OpKind::Store), 2);
  Value* v = c.final_store->operand(1);
  ASSERT_EQ(v->def->kind, OpKind::Add);
  EXPECT_EQ(v->def->operand(0), c.k.arg(1));
  EXPECT_EQ(v->def->parent, &c.k.fn->body);
  // The then-branch's store (of 1) now runs unconditionally, before the final store.
  const Op& first_store = *c.k.fn->body.ops[2];
  ASSERT_EQ(first_store.kind, OpKind::Store);
  EXPECT_EQ(first_store.operand(1)->def->attr_int("value"), 1);
}

TEST(PassFold, IfWithConstantConditionFalse) {
  IfCase c(0);
  fold_constants(*c.k.fn);
  ASSERT_EQ(c.k.errors(), "") << c.k.text();
  EXPECT_EQ(count_ops(*c.k.fn, OpKind::If), 0);
  Value* v = c.final_store->operand(1);
  ASSERT_EQ(v->def->kind, OpKind::Mul);
  EXPECT_EQ(v->def->operand(1)->def->attr_int("value"), 3);
}

TEST(PassFold, IfWithComputedConstantConditionAndNestedFolds) {
  // cond = (3 < 5) folds to true, then the taken branch's own `2 * 4` folds to 8.
  TestKernel k({Type::ptr(ScalarType::I32)});
  Value* c = k.b->cmp("lt", k.ci(ScalarType::I32, 3), k.ci(ScalarType::I32, 5), at(1));
  Op* br = k.b->create_if(c, {kI32}, at(2));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&br->body(0));
    Value* m = k.b->binary(OpKind::Mul, k.ci(ScalarType::I32, 2), k.ci(ScalarType::I32, 4), at(3));
    k.b->create(OpKind::Yield, {m}, {}, at(3));
    k.b->set_insertion_end(&br->body(1));
    k.b->create(OpKind::Yield, {k.ci(ScalarType::I32, 9)}, {}, at(4));
  }
  Op* st = k.store(k.arg(0), br->result(0));
  k.ret();
  fold_constants(*k.fn);
  ASSERT_EQ(k.errors(), "") << k.text();
  ASSERT_EQ(st->operand(1)->def->kind, OpKind::Constant);
  EXPECT_EQ(st->operand(1)->def->attr_int("value"), 8);
}

TEST(PassFold, IfWithRuntimeConditionIsKept) {
  TestKernel k({Type::ptr(ScalarType::I32), Type::of(ScalarType::I1)});
  Op* br = k.b->create_if(k.arg(1), {}, at(2));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&br->body(0));
    Value* m = k.b->binary(OpKind::Mul, k.ci(ScalarType::I32, 2), k.ci(ScalarType::I32, 4), at(3));
    Op* st = k.store(k.arg(0), m);
    (void)st;
    k.b->create(OpKind::Yield, {}, {}, at(3));
    k.b->set_insertion_end(&br->body(1));
    k.b->create(OpKind::Yield, {}, {}, at(4));
  }
  k.ret();
  fold_constants(*k.fn);
  ASSERT_EQ(k.errors(), "");
  ASSERT_EQ(count_ops(*k.fn, OpKind::If), 1);
  const Op& st = *br->body(0).ops[br->body(0).ops.size() - 2];
  ASSERT_EQ(st.kind, OpKind::Store);
  EXPECT_EQ(st.operand(1)->def->attr_int("value"), 8);  // folded inside the region
}

/// for i in range(lb, ub, step) carrying acc (init 5): acc = acc + i; store acc.
Op* make_loop(TestKernel& k, Value* lb, Value* ub, Value* st) {
  Value* init = k.ci(lb->type, 5);
  Op* loop = k.b->create_for(lb, ub, st, {init}, at(2));
  InsertionGuard g(*k.b);
  k.b->set_insertion_end(&loop->body());
  Value* n = k.b->binary(OpKind::Add, loop->body().args[1], loop->body().args[0], at(3));
  k.store(k.arg(0), n, 3);
  k.b->create(OpKind::Yield, {n}, {}, at(3));
  return loop;
}

TEST(PassFold, ZeroTripForIsRemoved) {
  for (auto [lb, ub] : {std::pair<int64_t, int64_t>{5, 5}, {7, 3}, {0, -1}}) {
    TestKernel k({Type::ptr(ScalarType::I32)});
    Op* loop = make_loop(k, k.ci(ScalarType::I32, lb), k.ci(ScalarType::I32, ub), k.ci(ScalarType::I32, 1));
    Value* init = loop->operand(3);
    Op* st = k.store(k.arg(0), loop->result(0));
    k.ret();
    fold_constants(*k.fn);
    ASSERT_EQ(k.errors(), "") << k.text();
    EXPECT_EQ(count_ops(*k.fn, OpKind::For), 0) << lb << ".." << ub;
    EXPECT_EQ(count_ops(*k.fn, OpKind::Store), 1) << "the body's store never runs";
    EXPECT_EQ(st->operand(1), init);
  }
}

TEST(PassFold, ForThatMayRunIsKept) {
  struct C { ScalarType t; int64_t lb, ub, step; };
  for (C c : {C{ScalarType::I32, -1, 0, 1},        // one trip (signed compare)
              C{ScalarType::I32, 0, 4, 1},
              C{ScalarType::I32, 4, 0, -1},         // negative step: not folded
              C{ScalarType::U32, 0, -1, 1}}) {      // 0 .. 2^32-1 as unsigned
    TestKernel k({Type::ptr(c.t)});
    make_loop(k, k.ci(c.t, c.lb), k.ci(c.t, c.ub), k.ci(c.t, c.step));
    k.ret();
    fold_constants(*k.fn);
    ASSERT_EQ(k.errors(), "") << k.text();
    EXPECT_EQ(count_ops(*k.fn, OpKind::For), 1) << c.lb << ".." << c.ub << " step " << c.step;
  }
  // Unsigned zero trip: 4000000000 >= 1 as u32 (negative if read as signed).
  TestKernel k({Type::ptr(ScalarType::U32)});
  make_loop(k, k.ci(ScalarType::U32, 4000000000), k.ci(ScalarType::U32, 1), k.ci(ScalarType::U32, 1));
  k.ret();
  fold_constants(*k.fn);
  EXPECT_EQ(count_ops(*k.fn, OpKind::For), 0);
  // Runtime bounds: kept.
  TestKernel r({Type::ptr(ScalarType::I32), kI32});
  make_loop(r, r.ci(ScalarType::I32, 0), r.arg(1), r.ci(ScalarType::I32, 1));
  r.ret();
  fold_constants(*r.fn);
  EXPECT_EQ(count_ops(*r.fn, OpKind::For), 1);
}

TEST(PassFold, SideEffectsAndLoadsAreNotFolded) {
  TestKernel k({Type::ptr(ScalarType::I32)});
  Value* v = k.b->create(OpKind::Load, {k.arg(0)}, {kI32}, at(1))->result();
  Value* z = k.ci(ScalarType::I32, 0);
  Op* st = k.store(k.arg(0), k.b->binary(OpKind::Mul, v, z, at(2)));
  k.b->create(OpKind::Assert, {k.ci(ScalarType::I1, 1)}, {}, at(3));
  k.ret();
  fold_constants(*k.fn);
  EXPECT_EQ(count_ops(*k.fn, OpKind::Load), 1);
  EXPECT_EQ(count_ops(*k.fn, OpKind::Assert), 1);
  EXPECT_EQ(st->operand(1), z);  // load * 0 → 0 (the load itself stays)
}

// A for loop's values carried unchanged — a block pointer's base, shape and strides, and
// offsets advanced by 0 — are read as their initial values, and DCE drops those slots: the
// loop below carries only the accumulator and the two offsets tl.advance moves.
TEST(PassFold, ValuesCarriedUnchangedAreTheirInitialValues) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def bp(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_bp = tl.make_block_ptr(a_ptr, shape=(M, K), strides=(K, 1), offsets=(0, 0), block_shape=(BM, BK), order=(1, 0))
    b_bp = tl.make_block_ptr(b_ptr, shape=(K, N), strides=(N, 1), offsets=(0, 0), block_shape=(BK, BN), order=(1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_bp, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc)
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc)
)";
  auto k = testing::kernel_ir_from_text(src, "bp", "*fp16:16, *fp16:16, *fp32:16, i32, i32:16, i32:16, 64, 64, 32");
  const Op* loop = nullptr;
  for (const auto& op : k->fn().body.ops)
    if (op->kind == OpKind::For) loop = op.get();
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->results.size(), 3u) << "acc and the two advanced offsets";
}

}  // namespace
}  // namespace tritium::passes
