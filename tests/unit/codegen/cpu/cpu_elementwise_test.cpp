// CPU backend: elementwise kernels (vector add in several dtypes, integer division,
// float -> bf16 / fp16 / int casts) against independently computed expectations.
#include <gtest/gtest.h>

#include <climits>

#include "cpu_test_util.h"

namespace tritium::cputest {
namespace {

/// out[i] = x[i] + y[i] for i < n, BLOCK elements per program, masked tail.
ir::Module vector_add(ScalarType t, int64_t block) {
  KernelBuilder k("vadd");
  Value* x = k.ptr_param(t);
  Value* y = k.ptr_param(t);
  Value* out = k.ptr_param(t);
  Value* n = k.param(Type::of(ScalarType::I32));
  auto [offs, mask] = k.block_offsets(block, n);
  Value* xv = k.load(k.ptrs(x, offs), mask);
  Value* yv = k.load(k.ptrs(y, offs), mask);
  k.store(k.ptrs(out, offs), k.bin(OpKind::Add, xv, yv), mask);
  k.ret();
  return std::move(k.module);
}

template <class T>
void run_vadd(ScalarType t, const std::vector<T>& x, const std::vector<T>& y, std::vector<T>& out, int n) {
  auto kernel = compile(vector_add(t, 64));
  int32_t grid = (n + 63) / 64;
  kernel->launch({grid, 1, 1}, {arg_ptr((void*)x.data()), arg_ptr((void*)y.data()), arg_ptr(out.data()), arg_i64(n)});
}

TEST(CpuElementwise, VectorAddF32) {
  const int n = 1000, cap = 1030;  // n not a multiple of the block; 30 sentinels past n
  std::mt19937 rng(1);
  std::vector<float> x(cap), y(cap), out(cap, -12345.0f);
  for (int i = 0; i < cap; ++i) x[i] = rand_nonzero(rng, -100, 100), y[i] = rand_nonzero(rng, -100, 100);
  run_vadd(ScalarType::F32, x, y, out, n);
  for (int i = 0; i < n; ++i) {
    // The sum of two floats rounded once: compute in double, round to float.
    float want = static_cast<float>(static_cast<double>(x[i]) + static_cast<double>(y[i]));
    ASSERT_EQ(bits_of(out[i]), bits_of(want)) << "i=" << i;
  }
  for (int i = n; i < cap; ++i) ASSERT_EQ(out[i], -12345.0f) << "masked element written at " << i;
}

TEST(CpuElementwise, VectorAddF16) {
  const int n = 777, cap = 800;
  std::mt19937 rng(2);
  std::vector<uint16_t> x(cap), y(cap), out(cap, 0x7e01);  // sentinel: a NaN pattern
  for (int i = 0; i < cap; ++i) x[i] = ref_f16(rand_nonzero(rng, -8, 8)), y[i] = ref_f16(rand_nonzero(rng, -8, 8));
  run_vadd(ScalarType::F16, x, y, out, n);
  for (int i = 0; i < n; ++i) {
    // fp16 + fp16 is exact in double; one rounding to fp16.
    uint16_t want = ref_f16(ref_f16_value(x[i]) + ref_f16_value(y[i]));
    ASSERT_EQ(out[i], want) << "i=" << i;
  }
  for (int i = n; i < cap; ++i) ASSERT_EQ(out[i], 0x7e01) << i;
}

TEST(CpuElementwise, VectorAddBF16) {
  const int n = 500, cap = 520;
  std::mt19937 rng(3);
  std::vector<uint16_t> x(cap), y(cap), out(cap, 0x7fa1);
  for (int i = 0; i < cap; ++i) {
    x[i] = ref_bf16_rne(rand_nonzero(rng, -4, 4));
    y[i] = ref_bf16_rne(rand_nonzero(rng, -4, 4));
  }
  run_vadd(ScalarType::BF16, x, y, out, n);
  int rounded = 0;
  for (int i = 0; i < n; ++i) {
    double exact = ref_bf16_value(x[i]) + ref_bf16_value(y[i]);
    uint16_t want = ref_bf16_rne(exact);
    rounded += ref_bf16_value(want) != exact;
    ASSERT_EQ(out[i], want) << "i=" << i << " exact=" << exact;
  }
  EXPECT_GT(rounded, n / 4);  // the test exercises rounding, not just exact sums
  for (int i = n; i < cap; ++i) ASSERT_EQ(out[i], 0x7fa1) << i;
}

TEST(CpuElementwise, VectorAddI8Wraps) {
  const int n = 300, cap = 320;
  std::mt19937 rng(4);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> x(cap), y(cap), out(cap, 77);
  for (int i = 0; i < cap; ++i) {
    do x[i] = static_cast<int8_t>(d(rng)); while (x[i] == 0);
    do y[i] = static_cast<int8_t>(d(rng)); while (y[i] == 0);
  }
  x[0] = 127, y[0] = 1;     // wraps to -128
  x[1] = -128, y[1] = -1;   // wraps to 127
  run_vadd(ScalarType::I8, x, y, out, n);
  for (int i = 0; i < n; ++i) {
    int s = (x[i] + y[i]) & 0xff;
    int8_t want = static_cast<int8_t>(s >= 128 ? s - 256 : s);
    ASSERT_EQ(out[i], want) << "i=" << i;
  }
  EXPECT_EQ(out[0], -128);
  EXPECT_EQ(out[1], 127);
  for (int i = n; i < cap; ++i) ASSERT_EQ(out[i], 77) << i;
}

/// q[i] = a[i] / b[i], r[i] = a[i] % b[i] (C truncation) for n = BLOCK elements.
ir::Module int_divmod(ScalarType t, int64_t block) {
  KernelBuilder k("divmod");
  Value* a = k.ptr_param(t);
  Value* b = k.ptr_param(t);
  Value* q = k.ptr_param(t);
  Value* r = k.ptr_param(t);
  Value* offs = k.range(block);
  Value* av = k.load(k.ptrs(a, offs));
  Value* bv = k.load(k.ptrs(b, offs));
  k.store(k.ptrs(q, offs), k.bin(OpKind::IDiv, av, bv));
  k.store(k.ptrs(r, offs), k.bin(OpKind::Rem, av, bv));
  k.ret();
  return std::move(k.module);
}

TEST(CpuElementwise, IntDivisionTruncatesLikeC) {
  // Hand-computed expectations; x / 0 = -1 and x % 0 = x, INT_MIN / -1 = INT_MIN, % = 0.
  struct Case { int32_t a, b, q, r; };
  const Case cases[] = {
      {7, 2, 3, 1},    {-7, 2, -3, -1}, {7, -2, -3, 1},   {-7, -2, 3, -1},  {6, 3, 2, 0},
      {-6, 4, -1, -2}, {1, 5, 0, 1},    {-1, 5, 0, -1},   {INT_MIN, -1, INT_MIN, 0},
      {INT_MIN, 2, -1073741824, 0},     {INT_MAX, -1, -INT_MAX, 0}, {5, 0, -1, 5}, {-5, 0, -1, -5},
      {123456789, -1000, -123456, 789}, {-123456789, 1000, -123456, -789}, {3, 7, 0, 3},
  };
  const int block = 16;
  std::vector<int32_t> a(block), b(block), q(block, 0x5a5a5a5a), r(block, 0x5a5a5a5a);
  for (int i = 0; i < block; ++i) a[i] = cases[i].a, b[i] = cases[i].b;
  auto kernel = compile(int_divmod(ScalarType::I32, block));
  kernel->launch({1, 1, 1}, {arg_ptr(a.data()), arg_ptr(b.data()), arg_ptr(q.data()), arg_ptr(r.data())});
  for (int i = 0; i < block; ++i) {
    EXPECT_EQ(q[i], cases[i].q) << cases[i].a << " / " << cases[i].b;
    EXPECT_EQ(r[i], cases[i].r) << cases[i].a << " % " << cases[i].b;
  }
}

TEST(CpuElementwise, Int8AndUnsignedDivision) {
  {
    std::vector<int8_t> a = {-128, -128, 100, -100, -7, 7, 0, 1}, b = {-1, 3, -7, 7, 0, -3, 5, 1};
    std::vector<int8_t> q(8, 99), r(8, 99);
    auto kernel = compile(int_divmod(ScalarType::I8, 8));
    kernel->launch({1, 1, 1}, {arg_ptr(a.data()), arg_ptr(b.data()), arg_ptr(q.data()), arg_ptr(r.data())});
    std::vector<int8_t> wq = {-128, -42, -14, -14, -1, -2, 0, 1}, wr = {0, -2, 2, -2, -7, 1, 0, 0};
    EXPECT_EQ(q, wq);
    EXPECT_EQ(r, wr);
  }
  {
    std::vector<uint32_t> a = {0xffffffffu, 10, 0x80000000u, 5}, b = {2, 3, 0xffffffffu, 0};
    std::vector<uint32_t> q(4, 9), r(4, 9);
    auto kernel = compile(int_divmod(ScalarType::U32, 4));
    kernel->launch({1, 1, 1}, {arg_ptr(a.data()), arg_ptr(b.data()), arg_ptr(q.data()), arg_ptr(r.data())});
    std::vector<uint32_t> wq = {0x7fffffffu, 3, 0, 0xffffffffu}, wr = {1, 1, 0x80000000u, 5};
    EXPECT_EQ(q, wq);
    EXPECT_EQ(r, wr);
  }
}

/// out[i] = cast(x[i]) with the given rounding.
ir::Module cast_kernel(ScalarType from, ScalarType to, int64_t block, const std::string& rounding) {
  KernelBuilder k("cast");
  Value* x = k.ptr_param(from);
  Value* out = k.ptr_param(to);
  Value* offs = k.range(block);
  Value* xv = k.load(k.ptrs(x, offs));
  k.store(k.ptrs(out, offs), k.b.cast(xv, to, k.loc, rounding));
  k.ret();
  return std::move(k.module);
}

TEST(CpuElementwise, F32ToBF16RoundingModes) {
  // Hand values: (input bits, RNE result, RTZ result).
  struct Case { uint32_t in; uint16_t rne, rtz; };
  const Case cases[] = {
      {0x3f800000, 0x3f80, 0x3f80},  // 1.0
      {0x3f808000, 0x3f80, 0x3f80},  // 1 + 2^-8: halfway, ties to even (down)
      {0x3f818000, 0x3f82, 0x3f81},  // 1 + 3*2^-8: halfway, ties to even (up)
      {0x3f808001, 0x3f81, 0x3f80},  // just above halfway
      {0x3f807fff, 0x3f80, 0x3f80},  // just below halfway
      {0xbf818000, 0xbf82, 0xbf81},  // negative halfway
      {0x7f7fffff, 0x7f80, 0x7f7f},  // FLT_MAX: overflows to inf when rounding to nearest
      {0x7f800000, 0x7f80, 0x7f80},  // inf
      {0xff800000, 0xff80, 0xff80},  // -inf
      {0x7fc00000, 0x7fc0, 0x7fc0},  // quiet NaN
      {0x7f800001, 0x7fc0, 0x7fc0},  // NaN with a low payload stays NaN (quietened)
      {0x00012345, 0x0001, 0x0001},  // subnormal
      {0x80000000, 0x8000, 0x8000},  // -0
      {0x40490fdb, 0x4049, 0x4049},  // pi
      {0x3eaaaaab, 0x3eab, 0x3eaa},  // 1/3
      {0x477fffff, 0x4780, 0x477f},  // carry into the exponent
  };
  const int block = 16;
  std::vector<float> x(block);
  for (int i = 0; i < block; ++i) x[i] = float_of(cases[i].in);
  for (std::string mode : {"rtne", "rtz"}) {
    std::vector<uint16_t> out(block, 0x1234);
    auto kernel = compile(cast_kernel(ScalarType::F32, ScalarType::BF16, block, mode));
    kernel->launch({1, 1, 1}, {arg_ptr(x.data()), arg_ptr(out.data())});
    for (int i = 0; i < block; ++i)
      EXPECT_EQ(out[i], mode == "rtz" ? cases[i].rtz : cases[i].rne)
          << mode << " input 0x" << std::hex << cases[i].in << " got 0x" << out[i];
  }
}

TEST(CpuElementwise, F32ToF16RoundingModes) {
  struct Case { uint32_t in; uint16_t rne, rtz; };
  const Case cases[] = {
      {0x3f800000, 0x3c00, 0x3c00},  // 1.0
      {0x3f801000, 0x3c00, 0x3c00},  // 1 + 2^-11: halfway, ties to even (down)
      {0x3f803000, 0x3c02, 0x3c01},  // 1 + 3*2^-11: halfway, ties to even (up)
      {0x477fe000, 0x7bff, 0x7bff},  // 65504 = max fp16
      {0x477ff000, 0x7c00, 0x7bff},  // 65520: rounds to inf / truncates to max
      {0x47800000, 0x7c00, 0x7bff},  // 65536
      {0x33800000, 0x0001, 0x0001},  // 2^-24: smallest subnormal
      {0x33000000, 0x0000, 0x0000},  // 2^-25: halfway to 0, ties to even
      {0x33400000, 0x0001, 0x0000},  // 1.5 * 2^-25
      {0xbf803000, 0xbc02, 0xbc01},  // negative
      {0x7f800000, 0x7c00, 0x7c00},  // inf
      {0x7fc00000, 0x7e00, 0x7e00},  // NaN
      {0x80000000, 0x8000, 0x8000},  // -0
      {0x3eaaaaab, 0x3555, 0x3555},  // 1/3
      {0x38800000, 0x0400, 0x0400},  // 2^-14: smallest normal
      {0x387ff000, 0x0400, 0x03ff},  // just below the smallest normal
  };
  const int block = 16;
  std::vector<float> x(block);
  for (int i = 0; i < block; ++i) x[i] = float_of(cases[i].in);
  for (std::string mode : {"rtne", "rtz"}) {
    std::vector<uint16_t> out(block, 0x1234);
    auto kernel = compile(cast_kernel(ScalarType::F32, ScalarType::F16, block, mode));
    kernel->launch({1, 1, 1}, {arg_ptr(x.data()), arg_ptr(out.data())});
    for (int i = 0; i < block; ++i)
      EXPECT_EQ(out[i], mode == "rtz" ? cases[i].rtz : cases[i].rne)
          << mode << " input 0x" << std::hex << cases[i].in << " got 0x" << out[i];
  }
}

TEST(CpuElementwise, FloatToIntSaturates) {
  const float nan = std::nanf("");
  std::vector<float> x = {1.9f, -1.9f, 3e9f, -3e9f, nan, INFINITY, -INFINITY, 2147483520.0f};
  {
    std::vector<int32_t> out(8, 7);
    auto kernel = compile(cast_kernel(ScalarType::F32, ScalarType::I32, 8, ""));
    kernel->launch({1, 1, 1}, {arg_ptr(x.data()), arg_ptr(out.data())});
    std::vector<int32_t> want = {1, -1, INT_MAX, INT_MIN, 0, INT_MAX, INT_MIN, 2147483520};
    EXPECT_EQ(out, want);
  }
  {
    std::vector<uint8_t> out(8, 7);
    auto kernel = compile(cast_kernel(ScalarType::F32, ScalarType::U8, 8, ""));
    kernel->launch({1, 1, 1}, {arg_ptr(x.data()), arg_ptr(out.data())});
    std::vector<uint8_t> want = {1, 0, 255, 0, 0, 255, 0, 255};
    EXPECT_EQ(out, want);
  }
}

}  // namespace
}  // namespace tritium::cputest
