// CPU backend: broadcasting, reductions (sum along each axis, a 2-operand argmax) and
// scans, against references written in the test.
#include <gtest/gtest.h>

#include <algorithm>

#include "cpu_test_util.h"

namespace tritium::cputest {
namespace {

constexpr int64_t M = 16, N = 32;

/// 2-D offsets r_m[:, None] * N + r_n[None, :] as a [M, N] i32 tensor.
Value* offsets_2d(KernelBuilder& k, int64_t m, int64_t n) {
  Value* rm = k.b.expand_dims(k.range(m), 1, k.loc);  // [m, 1]
  Value* rn = k.b.expand_dims(k.range(n), 0, k.loc);  // [1, n]
  Value* rows = k.b.broadcast(k.bin(OpKind::Mul, rm, k.splat(k.i32(n), {m, 1})), {m, n}, k.loc);
  Value* cols = k.b.broadcast(rn, {m, n}, k.loc);
  return k.bin(OpKind::Add, rows, cols);
}

/// Reduce `v` along `axis` with a single-op combine region `kind` (add / max / ...).
Value* reduce_simple(KernelBuilder& k, Value* v, int axis, OpKind kind) {
  auto shape = v->type.shape;
  shape.erase(shape.begin() + axis);
  Type rt = shape.empty() ? v->type.element() : v->type.with_shape(shape);
  ir::Op* red = k.b.create_reduce(OpKind::Reduce, {v}, axis, {rt}, k.loc);
  ir::InsertionGuard g(k.b);
  k.b.set_insertion_end(&red->body());
  Value* c = k.b.binary(kind, red->body().args[0], red->body().args[1], k.loc);
  k.b.create(OpKind::Yield, {c}, {}, k.loc);
  return red->result(0);
}

/// Canonical reduction order, written independently of the generated code: pairwise
/// halving, element i combined with element i + n/2 (lower index on the left).
float pairwise_sum(std::vector<float> v) {
  for (size_t h = v.size() / 2; h >= 1; h /= 2)
    for (size_t i = 0; i < h; ++i) v[i] = v[i] + v[i + h];
  return v[0];
}

TEST(CpuReduce, BroadcastThenSumOverEachAxis) {
  // y = x + b[None, :]; col[j] = sum_i y[i, j]; row[i] = sum_j y[i, j]
  KernelBuilder k("bcast_sum");
  Value* x = k.ptr_param(ScalarType::F32);
  Value* bias = k.ptr_param(ScalarType::F32);
  Value* col = k.ptr_param(ScalarType::F32);
  Value* row = k.ptr_param(ScalarType::F32);
  Value* xv = k.load(k.ptrs(x, offsets_2d(k, M, N)));
  Value* bv = k.load(k.ptrs(bias, k.range(N)));
  Value* bb = k.b.broadcast(k.b.expand_dims(bv, 0, k.loc), {M, N}, k.loc);
  Value* y = k.bin(OpKind::Add, xv, bb);
  k.store(k.ptrs(col, k.range(N)), reduce_simple(k, y, 0, OpKind::Add));
  k.store(k.ptrs(row, k.range(M)), reduce_simple(k, y, 1, OpKind::Add));
  k.ret();

  std::mt19937 rng(11);
  std::vector<float> xs(M * N), bs(N), cols(N, NAN), rows(M, NAN);
  for (auto& v : xs) v = rand_nonzero(rng, -10, 10);
  for (auto& v : bs) v = rand_nonzero(rng, -1, 1);
  auto kernel = compile(k.module);
  kernel->launch({1, 1, 1}, {arg_ptr(xs.data()), arg_ptr(bs.data()), arg_ptr(cols.data()), arg_ptr(rows.data())});

  // Tolerance vs float64: a pairwise sum of n fp32 terms errs by at most
  // log2(n) * 2^-24 * sum|terms| (plus the rounding of each term x + b, 2^-24 |term|).
  for (int64_t j = 0; j < N; ++j) {
    std::vector<float> terms(M);
    double exact = 0, mag = 0;
    for (int64_t i = 0; i < M; ++i) {
      terms[i] = xs[i * N + j] + bs[j];
      exact += static_cast<double>(xs[i * N + j]) + bs[j];
      mag += std::fabs(terms[i]);
    }
    ASSERT_EQ(bits_of(cols[j]), bits_of(pairwise_sum(terms))) << "column " << j;
    ASSERT_NEAR(cols[j], exact, (std::log2(double(M)) + 1) * 0x1p-24 * mag) << "column " << j;
  }
  for (int64_t i = 0; i < M; ++i) {
    std::vector<float> terms(N);
    double exact = 0, mag = 0;
    for (int64_t j = 0; j < N; ++j) {
      terms[j] = xs[i * N + j] + bs[j];
      exact += static_cast<double>(xs[i * N + j]) + bs[j];
      mag += std::fabs(terms[j]);
    }
    ASSERT_EQ(bits_of(rows[i]), bits_of(pairwise_sum(terms))) << "row " << i;
    ASSERT_NEAR(rows[i], exact, (std::log2(double(N)) + 1) * 0x1p-24 * mag) << "row " << i;
  }
}

TEST(CpuReduce, ArgmaxTwoOperandRegion) {
  // Row-wise argmax over [M, N] with ties resolved to the lowest index:
  // combine((v1, i1), (v2, i2)) = v2 > v1 || (v2 == v1 && i2 < i1) ? (v2, i2) : (v1, i1)
  KernelBuilder k("argmax");
  Value* x = k.ptr_param(ScalarType::F32);
  Value* out_v = k.ptr_param(ScalarType::F32);
  Value* out_i = k.ptr_param(ScalarType::I32);
  Value* xv = k.load(k.ptrs(x, offsets_2d(k, M, N)));
  Value* idx = k.b.broadcast(k.b.expand_dims(k.range(N), 0, k.loc), {M, N}, k.loc);
  ir::Op* red = k.b.create_reduce(OpKind::Reduce, {xv, idx}, 1,
                                  {Type::tensor(ScalarType::F32, {M}), Type::tensor(ScalarType::I32, {M})}, k.loc);
  {
    ir::InsertionGuard g(k.b);
    k.b.set_insertion_end(&red->body());
    auto& a = red->body().args;  // v1, i1, v2, i2
    Value* gt = k.b.cmp("gt", a[2], a[0], k.loc);
    Value* eq = k.b.cmp("eq", a[2], a[0], k.loc);
    Value* lt = k.b.cmp("lt", a[3], a[1], k.loc);
    Value* take = k.bin(OpKind::Or, gt, k.bin(OpKind::And, eq, lt));
    Value* v = k.b.select(take, a[2], a[0], k.loc);
    Value* i = k.b.select(take, a[3], a[1], k.loc);
    k.b.create(OpKind::Yield, {v, i}, {}, k.loc);
  }
  k.store(k.ptrs(out_v, k.range(M)), red->result(0));
  k.store(k.ptrs(out_i, k.range(M)), red->result(1));
  k.ret();

  std::mt19937 rng(12);
  std::uniform_int_distribution<int> d(1, 9);  // small integers: many ties
  std::vector<float> xs(M * N);
  for (auto& v : xs) v = static_cast<float>(d(rng)) * (d(rng) > 5 ? -1.0f : 1.0f);
  std::vector<float> vals(M, NAN);
  std::vector<int32_t> idxs(M, -99);
  auto kernel = compile(k.module);
  kernel->launch({1, 1, 1}, {arg_ptr(xs.data()), arg_ptr(vals.data()), arg_ptr(idxs.data())});
  int ties = 0;
  for (int64_t i = 0; i < M; ++i) {
    int64_t best = 0;
    for (int64_t j = 1; j < N; ++j)
      if (xs[i * N + j] > xs[i * N + best]) best = j;
    for (int64_t j = best + 1; j < N; ++j) ties += xs[i * N + j] == xs[i * N + best];
    EXPECT_EQ(idxs[i], best) << "row " << i;
    EXPECT_EQ(vals[i], xs[i * N + best]) << "row " << i;
  }
  EXPECT_GT(ties, 0);  // the data exercises the tie rule
}

TEST(CpuReduce, FullReductionToScalarAndMax) {
  // s = sum(x) over a 1-D block (a scalar result), m = max(x); out = [s, m]
  const int64_t n = 256;
  KernelBuilder k("scalar_reduce");
  Value* x = k.ptr_param(ScalarType::F32);
  Value* out = k.ptr_param(ScalarType::F32);
  Value* xv = k.load(k.ptrs(x, k.range(n)));
  Value* s = reduce_simple(k, xv, 0, OpKind::Add);
  Value* m = reduce_simple(k, xv, 0, OpKind::Max);
  k.store(out, s);
  k.store(k.addptr(out, k.i32(1)), m);
  k.ret();
  std::mt19937 rng(13);
  std::vector<float> xs(n), res(2, NAN);
  for (auto& v : xs) v = rand_nonzero(rng, -1000, 1000);
  auto kernel = compile(k.module);
  kernel->launch({1, 1, 1}, {arg_ptr(xs.data()), arg_ptr(res.data())});
  EXPECT_EQ(bits_of(res[0]), bits_of(pairwise_sum(xs)));
  EXPECT_EQ(res[1], *std::max_element(xs.begin(), xs.end()));
}

TEST(CpuReduce, CumsumScanInt32) {
  // Inclusive prefix sums along axis 1 of an [M, N] int32 tensor (exact, order-free).
  KernelBuilder k("cumsum");
  Value* x = k.ptr_param(ScalarType::I32);
  Value* out = k.ptr_param(ScalarType::I32);
  Value* offs = offsets_2d(k, M, N);
  Value* xv = k.load(k.ptrs(x, offs));
  ir::Op* scan = k.b.create_reduce(OpKind::Scan, {xv}, 1, {xv->type}, k.loc);
  {
    ir::InsertionGuard g(k.b);
    k.b.set_insertion_end(&scan->body());
    k.b.create(OpKind::Yield, {k.bin(OpKind::Add, scan->body().args[0], scan->body().args[1])}, {}, k.loc);
  }
  k.store(k.ptrs(out, offs), scan->result(0));
  k.ret();
  std::mt19937 rng(14);
  std::uniform_int_distribution<int> d(-1000, 1000);
  std::vector<int32_t> xs(M * N), res(M * N, 0x7eadbeef);
  for (auto& v : xs) do v = d(rng); while (v == 0);
  auto kernel = compile(k.module);
  kernel->launch({1, 1, 1}, {arg_ptr(xs.data()), arg_ptr(res.data())});
  for (int64_t i = 0; i < M; ++i) {
    int32_t acc = 0;
    for (int64_t j = 0; j < N; ++j) {
      acc += xs[i * N + j];
      ASSERT_EQ(res[i * N + j], acc) << i << "," << j;
    }
  }
}

}  // namespace
}  // namespace tritium::cputest
