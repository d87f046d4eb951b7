// CPU backend: tl.dot 32x32x32 with fp32 and fp16 operands (fp32 accumulator), and int8
// operands (int32 accumulator), against float64 / exact integer loops.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>

#include "cpu_test_util.h"
#include "interp/interpreter.h"

namespace tritium::cputest {
namespace {

constexpr int64_t D = 32;  // M = N = K

/// c = dot(a, b, acc = c_in) for [D, D] tiles; a, b of dtype `in`, c of dtype `acc`.
ir::Module dot_kernel(ScalarType in, ScalarType acc) {
  KernelBuilder k("dot");
  Value* a = k.ptr_param(in);
  Value* b = k.ptr_param(in);
  Value* c = k.ptr_param(acc);
  Value* rm = k.b.expand_dims(k.range(D), 1, k.loc);
  Value* rn = k.b.expand_dims(k.range(D), 0, k.loc);
  Value* offs = k.bin(OpKind::Add, k.b.broadcast(k.bin(OpKind::Mul, rm, k.splat(k.i32(D), {D, 1})), {D, D}, k.loc),
                      k.b.broadcast(rn, {D, D}, k.loc));
  Value* av = k.load(k.ptrs(a, offs));
  Value* bv = k.load(k.ptrs(b, offs));
  Value* cv = k.load(k.ptrs(c, offs));
  Value* d = k.b.create(OpKind::Dot, {av, bv, cv}, {cv->type}, k.loc, {{"input_precision", std::string("ieee")}})->result();
  k.store(k.ptrs(c, offs), d);
  k.ret();
  return std::move(k.module);
}

/// Checks c (fp32) against exact float64 sums and against a sequential fmaf chain over k
/// ascending (the documented order), given operand values as doubles.
void check_f32_dot(const std::vector<double>& a, const std::vector<double>& b, const std::vector<float>& c0,
                   const std::vector<float>& c) {
  for (int64_t i = 0; i < D; ++i)
    for (int64_t j = 0; j < D; ++j) {
      double exact = c0[i * D + j], mag = std::fabs(c0[i * D + j]);
      float chain = c0[i * D + j];
      for (int64_t k = 0; k < D; ++k) {
        exact += a[i * D + k] * b[k * D + j];
        mag += std::fabs(a[i * D + k] * b[k * D + j]);
        chain = std::fmaf(static_cast<float>(a[i * D + k]), static_cast<float>(b[k * D + j]), chain);
      }
      float got = c[i * D + j];
      ASSERT_FALSE(std::isnan(got)) << i << "," << j;
      // A chain of K fused multiply-adds rounds K times: |err| <= K * 2^-24 * sum|terms|.
      ASSERT_NEAR(got, exact, D * 0x1p-24 * mag) << i << "," << j;
      ASSERT_EQ(bits_of(got), bits_of(chain)) << "not the k-ascending fma chain at " << i << "," << j;
    }
}

TEST(CpuDot, F32Operands) {
  std::mt19937 rng(31);
  std::vector<float> a(D * D), b(D * D), c(D * D);
  for (auto& v : a) v = rand_nonzero(rng, -1, 1);
  for (auto& v : b) v = rand_nonzero(rng, -1, 1);
  for (auto& v : c) v = rand_nonzero(rng, -1, 1);
  std::vector<float> c0 = c;
  auto kernel = compile(dot_kernel(ScalarType::F32, ScalarType::F32));
  kernel->launch({1, 1, 1}, {arg_ptr(a.data()), arg_ptr(b.data()), arg_ptr(c.data())});
  check_f32_dot(std::vector<double>(a.begin(), a.end()), std::vector<double>(b.begin(), b.end()), c0, c);
}

TEST(CpuDot, F16OperandsF32Accumulator) {
  std::mt19937 rng(32);
  std::vector<uint16_t> a(D * D), b(D * D);
  std::vector<double> ad(D * D), bd(D * D);
  for (int64_t i = 0; i < D * D; ++i) {
    a[i] = ref_f16(rand_nonzero(rng, -2, 2));
    b[i] = ref_f16(rand_nonzero(rng, -2, 2));
    ad[i] = ref_f16_value(a[i]);
    bd[i] = ref_f16_value(b[i]);
  }
  std::vector<float> c(D * D);
  for (auto& v : c) v = rand_nonzero(rng, -1, 1);
  std::vector<float> c0 = c;
  auto kernel = compile(dot_kernel(ScalarType::F16, ScalarType::F32));
  kernel->launch({1, 1, 1}, {arg_ptr(a.data()), arg_ptr(b.data()), arg_ptr(c.data())});
  check_f32_dot(ad, bd, c0, c);
}

TEST(CpuDot, I8OperandsI32AccumulatorExact) {
  std::mt19937 rng(33);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> a(D * D), b(D * D);
  std::vector<int32_t> c(D * D);
  for (auto& v : a) do v = static_cast<int8_t>(d(rng)); while (v == 0);
  for (auto& v : b) do v = static_cast<int8_t>(d(rng)); while (v == 0);
  for (auto& v : c) v = d(rng) * 1000;
  std::vector<int32_t> c0 = c;
  auto kernel = compile(dot_kernel(ScalarType::I8, ScalarType::I32));
  kernel->launch({1, 1, 1}, {arg_ptr(a.data()), arg_ptr(b.data()), arg_ptr(c.data())});
  for (int64_t i = 0; i < D; ++i)
    for (int64_t j = 0; j < D; ++j) {
      int64_t want = c0[i * D + j];
      for (int64_t k = 0; k < D; ++k) want += int64_t{a[i * D + k]} * b[k * D + j];
      ASSERT_EQ(c[i * D + j], want) << i << "," << j;
    }
}

/// A tiled matmul as Triton writes it: loop-carried pointer tiles advanced by BK each
/// iteration, masks for ragged edges, acc = dot(a, b, acc) carried across K tiles.
TEST(CpuDot, TiledMatmulWithCarriedPointersAndMasks) {
  const int64_t BM = 16, BN = 32, BK = 16;
  const int M = 40, N = 72, K = 56;  // none a multiple of its block
  KernelBuilder k("matmul");
  Value* A = k.ptr_param(ScalarType::F32);
  Value* Bp = k.ptr_param(ScalarType::F32);
  Value* C = k.ptr_param(ScalarType::F32);
  Value* Mv = k.param(Type::of(ScalarType::I32));
  Value* Nv = k.param(Type::of(ScalarType::I32));
  Value* Kv = k.param(Type::of(ScalarType::I32));
  Value* rm = k.bin(OpKind::Add, k.splat(k.bin(OpKind::Mul, k.pid(0), k.i32(BM)), {BM}), k.range(BM));
  Value* rn = k.bin(OpKind::Add, k.splat(k.bin(OpKind::Mul, k.pid(1), k.i32(BN)), {BN}), k.range(BN));
  Value* rk = k.range(BK);
  auto col = [&](Value* r) { return k.b.expand_dims(r, 1, k.loc); };
  auto row = [&](Value* r) { return k.b.expand_dims(r, 0, k.loc); };
  auto grid2 = [&](Value* rows, Value* stride, Value* cols, int64_t R, int64_t Cn) {
    Value* a = k.b.broadcast(k.bin(OpKind::Mul, col(rows), k.splat(stride, {R, 1})), {R, Cn}, k.loc);
    return k.bin(OpKind::Add, a, k.b.broadcast(row(cols), {R, Cn}, k.loc));
  };
  Value* aptr = k.ptrs(A, grid2(rm, Kv, rk, BM, BK));
  Value* bptr = k.ptrs(Bp, grid2(rk, Nv, rn, BK, BN));
  Value* acc0 = k.splat(k.const_of(Type::of(ScalarType::F32), 0.0), {BM, BN});
  Value* zero = k.const_of(Type::of(ScalarType::F32), 0.0);
  ir::Op* loop = k.b.create_for(k.i32(0), Kv, k.i32(BK), {acc0, aptr, bptr}, k.loc);
  {
    ir::InsertionGuard g(k.b);
    k.b.set_insertion_end(&loop->body());
    auto& a = loop->body().args;  // kk, acc, a_ptrs, b_ptrs
    Value* left = k.bin(OpKind::Sub, Kv, a[0]);
    Value* am = k.bin(OpKind::And, k.b.broadcast(k.b.cmp("lt", col(rm), k.splat(Mv, {BM, 1}), k.loc), {BM, BK}, k.loc),
                      k.b.broadcast(k.b.cmp("lt", row(rk), k.splat(left, {1, BK}), k.loc), {BM, BK}, k.loc));
    Value* bm = k.bin(OpKind::And, k.b.broadcast(k.b.cmp("lt", col(rk), k.splat(left, {BK, 1}), k.loc), {BK, BN}, k.loc),
                      k.b.broadcast(k.b.cmp("lt", row(rn), k.splat(Nv, {1, BN}), k.loc), {BK, BN}, k.loc));
    Value* av = k.load(a[2], am, k.splat(zero, {BM, BK}));
    Value* bv = k.load(a[3], bm, k.splat(zero, {BK, BN}));
    Value* d = k.b.create(OpKind::Dot, {av, bv, a[1]}, {a[1]->type}, k.loc)->result();
    Value* an = k.addptr(a[2], k.splat(k.i32(BK), {BM, BK}));
    Value* bn = k.addptr(a[3], k.splat(k.bin(OpKind::Mul, k.i32(BK), Nv), {BK, BN}));
    k.b.create(OpKind::Yield, {d, an, bn}, {}, k.loc);
  }
  Value* cmask = k.bin(OpKind::And, k.b.broadcast(k.b.cmp("lt", col(rm), k.splat(Mv, {BM, 1}), k.loc), {BM, BN}, k.loc),
                       k.b.broadcast(k.b.cmp("lt", row(rn), k.splat(Nv, {1, BN}), k.loc), {BM, BN}, k.loc));
  k.store(k.ptrs(C, grid2(rm, Nv, rn, BM, BN)), loop->result(0), cmask);
  k.ret();

  std::mt19937 rng(34);
  std::vector<float> a(M * K), b(K * N), c(M * N, NAN), c_interp(M * N, NAN);
  for (auto& v : a) v = rand_nonzero(rng, -1, 1);
  for (auto& v : b) v = rand_nonzero(rng, -1, 1);
  auto kernel = compile(k.module);
  const std::array<int32_t, 3> grid = {(M + BM - 1) / BM, (N + BN - 1) / BN, 1};
  kernel->launch(grid, {arg_ptr(a.data()), arg_ptr(b.data()), arg_ptr(c.data()), arg_i64(M), arg_i64(N), arg_i64(K)});
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double exact = 0, mag = 0;
      float chain = 0;  // masked-off k lanes add fma(0, 0, acc) = acc exactly
      for (int kk = 0; kk < K; ++kk) {
        exact += double(a[i * K + kk]) * b[kk * N + j];
        mag += std::fabs(double(a[i * K + kk]) * b[kk * N + j]);
        chain = std::fmaf(a[i * K + kk], b[kk * N + j], chain);
      }
      ASSERT_NEAR(c[i * N + j], exact, K * 0x1p-24 * mag) << i << "," << j;
      ASSERT_EQ(bits_of(c[i * N + j]), bits_of(chain)) << i << "," << j;
    }
  // The reference interpreter gives the same bytes.
  interp::Options io;
  interp::run(k.module, grid, {arg_ptr(a.data()), arg_ptr(b.data()), arg_ptr(c_interp.data()), arg_i64(M), arg_i64(N), arg_i64(K)}, io);
  EXPECT_EQ(0, std::memcmp(c.data(), c_interp.data(), c.size() * sizeof(float)));
}

}  // namespace
}  // namespace tritium::cputest
