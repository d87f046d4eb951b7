// CPU backend: tl.dot 32x32x32 with fp32 and fp16 operands (fp32 accumulator), and int8
// operands (int32 accumulator), against float64 / exact integer loops.
#include <gtest/gtest.h>

#include <cmath>

#include "cpu_test_util.h"

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

}  // namespace
}  // namespace tritium::cputest
