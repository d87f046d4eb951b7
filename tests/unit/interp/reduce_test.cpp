// Interpreter: reduce in the canonical halving-tree order, multi-operand reduce (argmax with
// tie-breaking), batched versus per-combine region evaluation, and scan.
#include <cmath>

#include "interp_test_util.h"

namespace tritium::interp::testing {
namespace {

// Adds a sum-reduce of `x` along `axis` (combine: lhs + rhs) and returns its result.
Value* sum_reduce(K& k, Value* x, int axis) {
  std::vector<int64_t> shape = x->type.shape;
  shape.erase(shape.begin() + axis);
  Op* red = k.b.create_reduce(OpKind::Reduce, {x}, axis, {x->type.with_shape(shape)}, k.loc);
  ir::InsertionGuard g(k.b);
  k.b.set_insertion_end(&red->body());
  Value* s = k.bin(OpKind::Add, red->body().args[0], red->body().args[1]);
  k.b.create(OpKind::Yield, {s}, {}, k.loc);
  return red->result(0);
}

// The canonical order, written out independently: halve, combining i with i + n/2.
float tree_sum(std::vector<float> v) {
  for (size_t n = v.size(); n > 1; n /= 2)
    for (size_t i = 0; i < n / 2; ++i) v[i] = v[i] + v[i + n / 2];
  return v[0];
}

TEST(InterpReduce, SumFollowsTheCanonicalOrder) {
  // x = [1e8, 1, -1e8, 1]: canonical ((x0+x2) + (x1+x3)) = 0 + 2 = 2; a sequential sum
  // gives ((1e8+1)-1e8)+1 = 1 (fp32 ulp at 1e8 is 8); adjacent pairs give 0.
  K k;
  Value* x = k.ptr_arg(ScalarType::F32);
  Value* out = k.ptr_arg(ScalarType::F32);
  k.store(out, sum_reduce(k, k.load(k.addptr(x, k.range(0, 4))), 0));
  k.ret();
  std::vector<float> xs = {1e8f, 1.0f, -1e8f, 1.0f}, o(1);
  poison(o);
  run(k.m, {1, 1, 1}, {P(xs.data()), P(o.data())});
  EXPECT_EQ(o[0], 2.0f);
  float seq = 0;
  for (float v : xs) seq += v;
  EXPECT_EQ(seq, 1.0f) << "the example must distinguish the orders";
}

TEST(InterpReduce, SumAlongEachAxisMatchesTreeOrderExactly) {
  const int64_t R = 4, C = 1024;
  K k;
  Value* x = k.ptr_arg(ScalarType::F32);
  Value* rows = k.ptr_arg(ScalarType::F32);
  Value* cols = k.ptr_arg(ScalarType::F32);
  Value* r = k.b.expand_dims(k.range(0, R), 1, k.loc);
  Value* c = k.b.expand_dims(k.range(0, C), 0, k.loc);
  Value* offs = k.bin(OpKind::Add, k.b.broadcast(k.bin(OpKind::Mul, r, k.ci(ScalarType::I32, C, {R, 1})), {R, C}, k.loc),
                      k.b.broadcast(c, {R, C}, k.loc));
  Value* t = k.load(k.addptr(x, offs));
  k.store(k.addptr(rows, k.range(0, R)), sum_reduce(k, t, 1));  // [R]
  k.store(k.addptr(cols, k.range(0, C)), sum_reduce(k, t, 0));  // [C]
  k.ret();
  std::vector<float> xs = random_floats(R * C, 41, 0.001f, 1000.0f), ro(R), co(C);
  poison(ro);
  poison(co);
  run(k.m, {1, 1, 1}, {P(xs.data()), P(ro.data()), P(co.data())});
  for (int64_t i = 0; i < R; ++i) {
    std::vector<float> row(xs.begin() + i * C, xs.begin() + (i + 1) * C);
    ASSERT_EQ(fbits(ro[i]), fbits(tree_sum(row))) << i;
    double exact = 0;
    for (float v : row) exact += v;
    // Sanity bound (independent of the order): |err| <= log2(C)·eps·Σ|x|.
    double mag = 0;
    for (float v : row) mag += std::fabs(v);
    ASSERT_LE(std::fabs(ro[i] - exact), 10 * 0x1p-24 * mag);
  }
  for (int64_t j = 0; j < C; ++j) {
    std::vector<float> col(R);
    for (int64_t i = 0; i < R; ++i) col[i] = xs[i * C + j];
    ASSERT_EQ(fbits(co[j]), fbits(tree_sum(col))) << j;
  }
}

TEST(InterpReduce, IntegerSumWraps) {
  K k;
  Value* x = k.ptr_arg(ScalarType::I32);
  Value* out = k.ptr_arg(ScalarType::I32);
  k.store(out, sum_reduce(k, k.load(k.addptr(x, k.range(0, 8))), 0));
  k.ret();
  std::vector<int32_t> xs = {INT32_MAX, 1, 5, -3, 7, 0, 2, 9}, o(1);
  run(k.m, {1, 1, 1}, {P(xs.data()), P(o.data())});
  int64_t wide = 0;
  for (int32_t v : xs) wide += v;
  EXPECT_EQ(o[0], static_cast<int32_t>(wide));
}

// argmax as a 2-operand reduce: (v, i) pairs; the larger value wins, ties go to the lower
// index. With `via_if`, the combine selects through an `if` op (forcing per-combine
// evaluation); otherwise through cmp/and/or/select (batched evaluation).
void build_argmax(K& k, int64_t n, bool via_if) {
  Value* x = k.ptr_arg(ScalarType::F32);
  Value* out_v = k.ptr_arg(ScalarType::F32);
  Value* out_i = k.ptr_arg(ScalarType::I32);
  Value* idx = k.range(0, n);
  Value* v = k.load(k.addptr(x, idx));
  Op* red = k.b.create_reduce(OpKind::Reduce, {v, idx}, 0, {Type::of(ScalarType::F32), Type::of(ScalarType::I32)}, k.loc);
  {
    ir::InsertionGuard g(k.b);
    k.b.set_insertion_end(&red->body());
    auto& a = red->body().args;  // v1, i1, v2, i2
    Value* gt = k.cmp("gt", a[0], a[2]);
    Value* eq = k.cmp("eq", a[0], a[2]);
    Value* lt_i = k.cmp("lt", a[1], a[3]);
    Value* take_lhs = k.bin(OpKind::Or, gt, k.bin(OpKind::And, eq, lt_i));
    if (via_if) {
      Op* iff = k.b.create_if(take_lhs, {Type::of(ScalarType::F32), Type::of(ScalarType::I32)}, k.loc);
      {
        ir::InsertionGuard g2(k.b);
        k.b.set_insertion_end(&iff->body(0));
        k.b.create(OpKind::Yield, {a[0], a[1]}, {}, k.loc);
        k.b.set_insertion_end(&iff->body(1));
        k.b.create(OpKind::Yield, {a[2], a[3]}, {}, k.loc);
      }
      k.b.create(OpKind::Yield, {iff->result(0), iff->result(1)}, {}, k.loc);
    } else {
      k.b.create(OpKind::Yield, {k.b.select(take_lhs, a[0], a[2], k.loc), k.b.select(take_lhs, a[1], a[3], k.loc)}, {},
                 k.loc);
    }
  }
  k.store(out_v, red->result(0));
  k.store(out_i, red->result(1));
  k.ret();
}

TEST(InterpReduce, ArgmaxTieBreaksToLowestIndexBatchedAndPerCombine) {
  const int64_t n = 256;
  std::mt19937_64 gen(51);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<float> xs(n);
    for (float& v : xs) v = static_cast<float>(static_cast<int>(gen() % 50)) - 25.0f;  // many ties
    float best = xs[0];
    int32_t best_i = 0;
    for (int32_t i = 1; i < n; ++i)
      if (xs[i] > best) best = xs[i], best_i = i;
    for (bool via_if : {false, true}) {
      K k;
      build_argmax(k, n, via_if);
      std::vector<float> ov(1);
      std::vector<int32_t> oi(1);
      poison(ov);
      poison(oi);
      run(k.m, {1, 1, 1}, {P(xs.data()), P(ov.data()), P(oi.data())});
      ASSERT_EQ(ov[0], best) << trial;
      ASSERT_EQ(oi[0], best_i) << trial << " via_if=" << via_if;
    }
  }
}

TEST(InterpScan, InclusiveCumsumForwardAndReverse) {
  const int64_t R = 2, C = 8;
  for (int reverse : {0, 1}) {
    K k;
    Value* x = k.ptr_arg(ScalarType::F32);
    Value* out = k.ptr_arg(ScalarType::F32);
    Value* r = k.b.expand_dims(k.range(0, R), 1, k.loc);
    Value* c = k.b.expand_dims(k.range(0, C), 0, k.loc);
    Value* offs = k.bin(OpKind::Add, k.b.broadcast(k.bin(OpKind::Mul, r, k.ci(ScalarType::I32, C, {R, 1})), {R, C}, k.loc),
                        k.b.broadcast(c, {R, C}, k.loc));
    Value* t = k.load(k.addptr(x, offs));
    Op* scan = k.b.create_reduce(OpKind::Scan, {t}, 1, {t->type}, k.loc);
    scan->attrs["reverse"] = int64_t(reverse);
    {
      ir::InsertionGuard g(k.b);
      k.b.set_insertion_end(&scan->body());
      k.b.create(OpKind::Yield, {k.bin(OpKind::Add, scan->body().args[0], scan->body().args[1])}, {}, k.loc);
    }
    k.store(k.addptr(out, offs), scan->result(0));
    k.ret();
    std::vector<float> xs = random_floats(R * C, 61 + reverse, 0.1f, 1e4f), o(R * C);
    poison(o);
    run(k.m, {1, 1, 1}, {P(xs.data()), P(o.data())});
    for (int64_t i = 0; i < R; ++i) {
      float acc = 0;
      for (int64_t s = 0; s < C; ++s) {
        const int64_t j = reverse ? C - 1 - s : s;
        acc = s == 0 ? xs[i * C + j] : acc + xs[i * C + j];
        ASSERT_EQ(fbits(o[i * C + j]), fbits(acc)) << i << "," << j << " reverse=" << reverse;
      }
    }
  }
}

}  // namespace
}  // namespace tritium::interp::testing
