// Interpreter: dot against float64 triple loops (tolerance from K and the accumulator's
// epsilon) and, bit for bit, against the specified fma chain written out in the test.
#include <chrono>
#include <cmath>

#include "common/float_formats.h"
#include "interp_test_util.h"

namespace tritium::interp::testing {
namespace {

// Offsets of an R×C row-major tile (optionally batched: B×R×C).
Value* tile(K& k, int64_t b, int64_t rows, int64_t cols) {
  std::vector<int64_t> shape = b > 1 ? std::vector<int64_t>{b, rows, cols} : std::vector<int64_t>{rows, cols};
  const int rank = static_cast<int>(shape.size());
  Value* total = nullptr;
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    Value* r = k.range(0, shape[d]);
    for (int e = 0; e < rank; ++e)
      if (e != d) r = k.b.expand_dims(r, e, k.loc);
    std::vector<int64_t> one(rank, 1);
    one[d] = shape[d];
    r = k.bin(OpKind::Mul, r, k.ci(ScalarType::I32, stride, one));
    r = k.b.broadcast(r, shape, k.loc);
    total = total ? k.bin(OpKind::Add, total, r) : r;
    stride *= shape[d];
  }
  return total;
}

// kernel(a*, b*, acc*, out*): out = dot(a, b, acc) on one tile.
void build_dot(K& k, ScalarType in, ScalarType acc_t, int64_t B, int64_t M, int64_t N, int64_t Kd) {
  Value* a = k.ptr_arg(in);
  Value* b = k.ptr_arg(in);
  Value* acc = k.ptr_arg(acc_t);
  Value* out = k.ptr_arg(acc_t);
  Value* av = k.load(k.addptr(a, tile(k, B, M, Kd)));
  Value* bv = k.load(k.addptr(b, tile(k, B, Kd, N)));
  Value* co = tile(k, B, M, N);
  Value* cv = k.load(k.addptr(acc, co));
  Value* d = k.b.create(OpKind::Dot, {av, bv, cv}, {cv->type}, k.loc, {{"input_precision", std::string("ieee")}})->result();
  k.store(k.addptr(out, co), d);
  k.ret();
}

TEST(InterpDot, Fp32Matmul128IsAnFmaChainAndCloseToFloat64) {
  const int64_t M = 128, N = 128, Kd = 128;
  std::vector<float> a = random_floats(M * Kd, 71, 0.1f, 2.0f), b = random_floats(Kd * N, 72, 0.1f, 2.0f),
                     acc = random_floats(M * N, 73, 0.1f, 2.0f), out(M * N);
  poison(out);
  K k;
  build_dot(k, ScalarType::F32, ScalarType::F32, 1, M, N, Kd);
  const auto t0 = std::chrono::steady_clock::now();
  run(k.m, {1, 1, 1}, {P(a.data()), P(b.data()), P(acc.data()), P(out.data())});
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(secs, 2.0) << "128^3 matmul must be fast (well under a second on a normal machine)";
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float chain = acc[i * N + j];
      double exact = acc[i * N + j], mag = std::fabs(acc[i * N + j]);
      for (int64_t kk = 0; kk < Kd; ++kk) {
        chain = std::fma(a[i * Kd + kk], b[kk * N + j], chain);
        exact += static_cast<double>(a[i * Kd + kk]) * b[kk * N + j];
        mag += std::fabs(static_cast<double>(a[i * Kd + kk]) * b[kk * N + j]);
      }
      ASSERT_EQ(fbits(out[i * N + j]), fbits(chain)) << i << "," << j;
      // Sequential fma chain: |err| <= K·u·Σ|terms| with u = 2^-24 (one rounding per step).
      ASSERT_LE(std::fabs(out[i * N + j] - exact), Kd * 0x1p-24 * mag) << i << "," << j;
    }
}

TEST(InterpDot, Fp16InputsFp32AccumulatorAndBatched) {
  const int64_t B = 2, M = 16, N = 32, Kd = 16;
  std::mt19937_64 gen(74);
  std::uniform_int_distribution<uint32_t> code(0x3000, 0x4400);  // ~0.125..4
  std::vector<uint16_t> a(B * M * Kd), b(B * Kd * N);
  for (auto& v : a) v = static_cast<uint16_t>(code(gen) | ((gen() & 1) << 15));
  for (auto& v : b) v = static_cast<uint16_t>(code(gen) | ((gen() & 1) << 15));
  std::vector<float> acc(B * M * N, 0.0f), out(B * M * N);
  poison(out);
  K k;
  build_dot(k, ScalarType::F16, ScalarType::F32, B, M, N, Kd);
  run(k.m, {1, 1, 1}, {P(a.data()), P(b.data()), P(acc.data()), P(out.data())});
  for (int64_t z = 0; z < B; ++z)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        float chain = 0.0f;
        for (int64_t kk = 0; kk < Kd; ++kk)
          chain = std::fma(static_cast<float>(half_from(a[(z * M + i) * Kd + kk])),
                           static_cast<float>(half_from(b[(z * Kd + kk) * N + j])), chain);
        ASSERT_EQ(fbits(out[(z * M + i) * N + j]), fbits(chain)) << z << "," << i << "," << j;
      }
}

TEST(InterpDot, Fp16AccumulatorRoundsEveryStep) {
  const int64_t M = 16, N = 16, Kd = 32;
  std::mt19937_64 gen(75);
  std::uniform_int_distribution<uint32_t> code(0x3400, 0x3FFF);  // 0.25..2
  std::vector<uint16_t> a(M * Kd), b(Kd * N), acc(M * N), out(M * N);
  for (auto& v : a) v = static_cast<uint16_t>(code(gen));
  for (auto& v : b) v = static_cast<uint16_t>(code(gen) | ((gen() & 1) << 15));
  for (auto& v : acc) v = static_cast<uint16_t>(code(gen));
  poison(out);
  K k;
  build_dot(k, ScalarType::F16, ScalarType::F16, 1, M, N, Kd);
  run(k.m, {1, 1, 1}, {P(a.data()), P(b.data()), P(acc.data()), P(out.data())});
  int differs_from_fp32_acc = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      _Float16 r = half_from(acc[i * N + j]);
      float wide = static_cast<float>(r);
      for (int64_t kk = 0; kk < Kd; ++kk) {
        const double x = static_cast<double>(half_from(a[i * Kd + kk])), y = static_cast<double>(half_from(b[kk * N + j]));
        r = static_cast<_Float16>(x * y + static_cast<double>(r));  // exact in fp64 here, one rounding to fp16
        wide = std::fma(static_cast<float>(x), static_cast<float>(y), wide);
      }
      ASSERT_EQ(out[i * N + j], half_bits(r)) << i << "," << j;
      if (half_bits(static_cast<_Float16>(wide)) != half_bits(r)) ++differs_from_fp32_acc;
    }
  EXPECT_GT(differs_from_fp32_acc, 0) << "the per-step rounding must be observable";
}

TEST(InterpDot, Int8ToInt32Wraps) {
  const int64_t M = 16, N = 16, Kd = 64;
  std::mt19937_64 gen(76);
  std::vector<int8_t> a(M * Kd), b(Kd * N);
  for (auto& v : a) v = static_cast<int8_t>(gen());
  for (auto& v : b) v = static_cast<int8_t>(gen());
  std::vector<int32_t> acc(M * N), out(M * N);
  for (auto& v : acc) v = static_cast<int32_t>(gen());  // large: the sum wraps sometimes
  poison(out);
  K k;
  build_dot(k, ScalarType::I8, ScalarType::I32, 1, M, N, Kd);
  run(k.m, {1, 1, 1}, {P(a.data()), P(b.data()), P(acc.data()), P(out.data())});
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      int64_t s = acc[i * N + j];
      for (int64_t kk = 0; kk < Kd; ++kk) s += int64_t(a[i * Kd + kk]) * b[kk * N + j];
      ASSERT_EQ(out[i * N + j], static_cast<int32_t>(s)) << i << "," << j;  // modulo 2^32
    }
}

TEST(InterpPerf, MillionElementVectorAdd) {
  const int64_t n = 1 << 20;
  std::vector<float> x = random_floats(n, 77), y = random_floats(n, 78), out(n);
  poison(out);
  const auto t0 = std::chrono::steady_clock::now();
  run_map({ScalarType::F32, ScalarType::F32}, ScalarType::F32, n, 1 << 16, {x.data(), y.data()}, out.data(),
          [](K& k, const std::vector<Value*>& v) { return k.bin(OpKind::Add, v[0], v[1]); });
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(secs, 2.0);
  for (int64_t i = 0; i < n; i += 997) ASSERT_EQ(out[i], x[i] + y[i]);
  ASSERT_EQ(out[n - 1], x[n - 1] + y[n - 1]);
}

}  // namespace
}  // namespace tritium::interp::testing
