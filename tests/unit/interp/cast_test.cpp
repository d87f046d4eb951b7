// Interpreter: cast / bitcast / constant semantics against hand-computed values.
#include <cmath>
#include <limits>

#include "interp_test_util.h"

namespace tritium::interp::testing {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

auto cast_to(ScalarType t, const std::string& rounding = "") {
  return [t, rounding](K& k, const std::vector<Value*>& v) { return k.b.cast(v[0], t, k.loc, rounding); };
}

TEST(InterpCast, Fp32ToFp16TiesRtzAndOverflow) {
  const float tie_even = 1.0f + std::ldexp(1.0f, -11);       // → 0x3C00 (RNE) / 0x3C00 (RTZ)
  const float tie_odd = 1.0f + 3 * std::ldexp(1.0f, -11);    // → 0x3C02 (RNE) / 0x3C01 (RTZ)
  const std::vector<float> x = {tie_even, tie_odd, -tie_odd, 65520.0f, -1e9f, kInf, kNaN, std::ldexp(1.0f, -25)};
  const std::vector<uint16_t> rne = {0x3C00, 0x3C02, 0xBC02, 0x7C00, 0xFC00, 0x7C00, 0 /*NaN*/, 0x0000};
  const std::vector<uint16_t> rtz = {0x3C00, 0x3C01, 0xBC01, 0x7BFF, 0xFBFF, 0x7C00, 0 /*NaN*/, 0x0000};
  std::vector<uint16_t> o1(8), o2(8);
  poison(o1);
  poison(o2);
  run_map({ScalarType::F32}, ScalarType::F16, 8, 8, {x.data()}, o1.data(), cast_to(ScalarType::F16));
  run_map({ScalarType::F32}, ScalarType::F16, 8, 8, {x.data()}, o2.data(), cast_to(ScalarType::F16, "rtz"));
  for (int i = 0; i < 8; ++i) {
    if (i == 6) {
      EXPECT_EQ(o1[i] & 0x7C00, 0x7C00);
      EXPECT_NE(o1[i] & 0x03FF, 0);
      EXPECT_NE(o2[i] & 0x03FF, 0);
      continue;
    }
    EXPECT_EQ(o1[i], rne[i]) << i;
    EXPECT_EQ(o2[i], rtz[i]) << i;
  }
}

TEST(InterpCast, Fp32ToBf16RneVersusRtz) {
  const std::vector<float> x = {1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20), 1.9999f, -1.9999f,
                                std::numeric_limits<float>::max()};
  const std::vector<uint16_t> rne = {0x3F81, 0x4000, 0xC000, 0x7F80};
  const std::vector<uint16_t> rtz = {0x3F80, 0x3FFF, 0xBFFF, 0x7F7F};
  std::vector<uint16_t> o1(4), o2(4);
  run_map({ScalarType::F32}, ScalarType::BF16, 4, 4, {x.data()}, o1.data(), cast_to(ScalarType::BF16));
  run_map({ScalarType::F32}, ScalarType::BF16, 4, 4, {x.data()}, o2.data(), cast_to(ScalarType::BF16, "rtz"));
  EXPECT_EQ(o1, rne);
  EXPECT_EQ(o2, rtz);
}

TEST(InterpCast, FloatToIntTruncatesSaturatesNaNIsZero) {
  // 12 cases padded to 16 lanes (tensor lengths are powers of two).
  std::vector<float> x = {2.9f, -2.9f, 1e10f, -1e10f, kNaN, kInf, -kInf, 127.9f, -128.5f, 300.0f, -0.5f, 0.5f};
  x.resize(16, 1.0f);
  const int64_t n = 16;
  std::vector<int32_t> i32(n);
  std::vector<int8_t> i8(n);
  std::vector<uint8_t> u8(n), b1(n);
  std::vector<int64_t> i64(n);
  poison(i32), poison(i8), poison(u8), poison(b1), poison(i64);
  run_map({ScalarType::F32}, ScalarType::I32, n, n, {x.data()}, i32.data(), cast_to(ScalarType::I32));
  run_map({ScalarType::F32}, ScalarType::I8, n, n, {x.data()}, i8.data(), cast_to(ScalarType::I8));
  run_map({ScalarType::F32}, ScalarType::U8, n, n, {x.data()}, u8.data(), cast_to(ScalarType::U8));
  run_map({ScalarType::F32}, ScalarType::I1, n, n, {x.data()}, b1.data(), cast_to(ScalarType::I1));
  run_map({ScalarType::F32}, ScalarType::I64, n, n, {x.data()}, i64.data(), cast_to(ScalarType::I64));
  i32.resize(12), i8.resize(12), u8.resize(12), b1.resize(12);
  EXPECT_EQ(i32, (std::vector<int32_t>{2, -2, INT32_MAX, INT32_MIN, 0, INT32_MAX, INT32_MIN, 127, -128, 300, 0, 0}));
  EXPECT_EQ(i8, (std::vector<int8_t>{2, -2, 127, -128, 0, 127, -128, 127, -128, 127, 0, 0}));
  EXPECT_EQ(u8, (std::vector<uint8_t>{2, 0, 255, 0, 0, 255, 0, 127, 0, 255, 0, 0}));
  EXPECT_EQ(b1, (std::vector<uint8_t>{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}));  // x != 0, NaN != 0
  EXPECT_EQ(i64[2], 10000000000LL);
  EXPECT_EQ(i64[5], INT64_MAX);
  EXPECT_EQ(i64[6], INT64_MIN);
  EXPECT_EQ(i64[15], 1);
}

TEST(InterpCast, IntToIntBySourceSignedness) {
  const std::vector<int8_t> x = {-1, 127, -128, 0};
  std::vector<int32_t> sext(4), zext(4);
  std::vector<uint8_t> b1(4);
  run_map({ScalarType::I8}, ScalarType::I32, 4, 4, {x.data()}, sext.data(), cast_to(ScalarType::I32));
  run_map({ScalarType::U8}, ScalarType::I32, 4, 4, {x.data()}, zext.data(), cast_to(ScalarType::I32));
  run_map({ScalarType::I8}, ScalarType::I1, 4, 4, {x.data()}, b1.data(), cast_to(ScalarType::I1));
  EXPECT_EQ(sext, (std::vector<int32_t>{-1, 127, -128, 0}));
  EXPECT_EQ(zext, (std::vector<int32_t>{255, 127, 128, 0}));
  EXPECT_EQ(b1, (std::vector<uint8_t>{1, 1, 1, 0}));
  // int1 source is 0/1 (never -1), also into signed targets and floats.
  const std::vector<uint8_t> bools = {1, 0, 1, 1};
  std::vector<int32_t> from_bool(4);
  std::vector<float> fb(4);
  run_map({ScalarType::I1}, ScalarType::I32, 4, 4, {bools.data()}, from_bool.data(), cast_to(ScalarType::I32));
  run_map({ScalarType::I1}, ScalarType::F32, 4, 4, {bools.data()}, fb.data(), cast_to(ScalarType::F32));
  EXPECT_EQ(from_bool, (std::vector<int32_t>{1, 0, 1, 1}));
  EXPECT_EQ(fb, (std::vector<float>{1, 0, 1, 1}));
  // Truncation: int32 → int8 keeps the low byte.
  const std::vector<int32_t> w = {0x1234, -129, 255, 128};
  std::vector<int8_t> t(4);
  run_map({ScalarType::I32}, ScalarType::I8, 4, 4, {w.data()}, t.data(), cast_to(ScalarType::I8));
  EXPECT_EQ(t, (std::vector<int8_t>{0x34, 127, -1, -128}));
}

TEST(InterpCast, IntToFloatRoundsOnce) {
  // 2^24 + 1 → fp32 tie → 2^24 (even); 2^24 + 3 → 2^24 + 4. int64 2^53+1 → fp32 via the
  // exact integer. uint32 0xFFFFFFFF → 2^32.
  const std::vector<int64_t> x = {(1 << 24) + 1, (1 << 24) + 3, (int64_t(1) << 53) + 1, -7};
  std::vector<float> o(4);
  std::vector<uint16_t> h(4);
  run_map({ScalarType::I64}, ScalarType::F32, 4, 4, {x.data()}, o.data(), cast_to(ScalarType::F32));
  run_map({ScalarType::I64}, ScalarType::F16, 4, 4, {x.data()}, h.data(), cast_to(ScalarType::F16));
  EXPECT_EQ(o[0], 16777216.0f);
  EXPECT_EQ(o[1], 16777220.0f);
  EXPECT_EQ(o[2], 9007199254740992.0f);
  EXPECT_EQ(o[3], -7.0f);
  EXPECT_EQ(h[0], 0x7C00);  // overflow → +Inf
  EXPECT_EQ(h[3], 0xC700);  // -7
  const std::vector<uint32_t> u = {0xFFFFFFFFu, 3};
  std::vector<float> uo(2);
  run_map({ScalarType::U32}, ScalarType::F32, 2, 2, {u.data()}, uo.data(), cast_to(ScalarType::F32));
  EXPECT_EQ(uo[0], 4294967296.0f);
  EXPECT_EQ(uo[1], 3.0f);
}

TEST(InterpCast, Fp8AndWidening) {
  const std::vector<float> x = {1.0f + 1.0f / 16, 1000.0f, -kInf, kNaN, 0.3f, 1.0f, 2.0f, -0.0f};
  std::vector<uint8_t> e4(8), e5(8);
  poison(e4), poison(e5);
  run_map({ScalarType::F32}, ScalarType::F8E4NV, 8, 8, {x.data()}, e4.data(), cast_to(ScalarType::F8E4NV));
  run_map({ScalarType::F32}, ScalarType::F8E5, 8, 8, {x.data()}, e5.data(), cast_to(ScalarType::F8E5));
  EXPECT_EQ(e4[0], 0x38);  // tie → even (1.0)
  EXPECT_EQ(e4[1], 0x7E);  // saturates at 448
  EXPECT_EQ(e4[2], 0xFE);
  EXPECT_EQ(e4[3], 0x7F);
  EXPECT_EQ(e4[4], 0x2A);  // 0.3 → 0.3125 = 1.25·2^-2 (e=5, m=2)
  EXPECT_EQ(e5[1], 0x64);  // 1000 → 1024 (e=25, m=0): nearer than 896
  EXPECT_EQ(e5[2], 0xFB);  // -Inf saturates to -57344
  EXPECT_EQ(e4[7], 0x80);  // -0 keeps its sign
  std::vector<float> back(8);
  run_map({ScalarType::F8E4NV}, ScalarType::F32, 8, 8, {e4.data()}, back.data(), cast_to(ScalarType::F32));
  EXPECT_EQ(back[0], 1.0f);
  EXPECT_EQ(back[1], 448.0f);
  EXPECT_EQ(back[2], -448.0f);
  EXPECT_TRUE(std::isnan(back[3]));
  EXPECT_EQ(back[4], 0.3125f);
  // fp16 → fp64 is exact; fp64 → fp16 rounds once.
  const std::vector<uint16_t> h = {0x0001, 0x7BFF, 0xBC01, 0};
  std::vector<double> d(4);
  run_map({ScalarType::F16}, ScalarType::F64, 4, 4, {h.data()}, d.data(), cast_to(ScalarType::F64));
  EXPECT_EQ(d[0], std::ldexp(1.0, -24));
  EXPECT_EQ(d[1], 65504.0);
  EXPECT_EQ(d[2], -(1.0 + std::ldexp(1.0, -10)));
}

TEST(InterpCast, BitcastAndConstants) {
  const std::vector<float> x = {1.0f, -2.0f};
  std::vector<int32_t> bits(2);
  run_map({ScalarType::F32}, ScalarType::I32, 2, 2, {x.data()}, bits.data(), [](K& k, const std::vector<Value*>& v) {
    return k.b.bitcast(v[0], v[0]->type.with_scalar(ScalarType::I32), k.loc);
  });
  EXPECT_EQ(bits[0], 0x3F800000);
  EXPECT_EQ(static_cast<uint32_t>(bits[1]), 0xC0000000u);
  // Constants: float value rounded RNE to fp16 (0.1 → 0x2E66), int truncated to int8.
  std::vector<uint16_t> h(2);
  run_map({ScalarType::F16}, ScalarType::F16, 2, 2, {x.data()}, h.data(),
          [](K& k, const std::vector<Value*>&) { return k.cf(ScalarType::F16, 0.1, {2}); });
  EXPECT_EQ(h[0], 0x2E66);
  EXPECT_EQ(h[1], 0x2E66);
  std::vector<int8_t> c(2);
  run_map({ScalarType::I8}, ScalarType::I8, 2, 2, {x.data()}, c.data(),
          [](K& k, const std::vector<Value*>&) { return k.ci(ScalarType::I8, 300, {2}); });
  EXPECT_EQ(c[0], 44);  // 300 mod 256
}

}  // namespace
}  // namespace tritium::interp::testing
