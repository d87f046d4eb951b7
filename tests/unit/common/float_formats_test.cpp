// Tests of src/common/float_formats.h against independent oracles: the compiler's _Float16
// conversions (libgcc, correctly rounded), hand-computed encodings, and brute-force
// nearest-value searches over every encoding of a format.
#include "common/float_formats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

using namespace tritium;
constexpr auto RNE = Rounding::kNearestEven;
constexpr auto RTZ = Rounding::kTowardZero;

uint16_t bits_of_half(_Float16 h) {
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
_Float16 half_of_bits(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return h;
}
float f(uint32_t bits) { return float_from_bits(bits); }

// ------------------------------------------------------------------------------- fp16

TEST(Fp16, ExhaustiveDecodeMatchesCompilerAndRoundTrips) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const float mine = fp16_to_fp32(static_cast<uint16_t>(h));
    const float ref = static_cast<float>(half_of_bits(static_cast<uint16_t>(h)));
    const double generic = fp_decode(FloatFormat::F16, h);
    if (std::isnan(ref)) {
      ASSERT_TRUE(std::isnan(mine)) << std::hex << h;
      ASSERT_TRUE(std::isnan(generic)) << std::hex << h;
      ASSERT_EQ(std::signbit(mine), std::signbit(ref)) << std::hex << h;
      ASSERT_TRUE(std::isnan(fp16_to_fp32(fp32_to_fp16(mine))));
      ASSERT_EQ(fp32_to_fp16(mine), h | 0x0200u) << "NaN keeps sign and payload, gains the quiet bit";
      continue;
    }
    ASSERT_EQ(bits_of(mine), bits_of(ref)) << std::hex << h;
    ASSERT_EQ(bits_of(static_cast<double>(mine)), bits_of(generic)) << std::hex << h;
    ASSERT_EQ(fp32_to_fp16(mine), h) << std::hex << h;
    ASSERT_EQ(fp32_to_fp16(mine, RTZ), h) << std::hex << h;
    ASSERT_EQ(fp64_to_fp16(generic), h) << std::hex << h;
  }
}

TEST(Fp16, RandomFp32AndFp64MatchCompilerConversion) {
  std::mt19937_64 gen(11);
  // Exponents around the fp16 range (including subnormal and overflow regions) plus fully
  // random patterns.
  std::uniform_int_distribution<uint32_t> mant(0, (1u << 23) - 1), exp(127 - 30, 127 + 18), any;
  for (int i = 0; i < 400000; ++i) {
    const uint32_t u = (i & 1) ? any(gen) : ((any(gen) & 0x80000000u) | (exp(gen) << 23) | mant(gen));
    const float x = f(u);
    if (std::isnan(x)) continue;
    ASSERT_EQ(fp32_to_fp16(x), bits_of_half(static_cast<_Float16>(x))) << std::hex << u;
    const double d = static_cast<double>(x) * (1.0 + std::ldexp(1.0, -40));  // bits below fp32
    ASSERT_EQ(fp64_to_fp16(d), bits_of_half(static_cast<_Float16>(d))) << d;
  }
}

TEST(Fp16, TiesToEvenAndOverflow) {
  EXPECT_EQ(fp32_to_fp16(1.0f + std::ldexp(1.0f, -11)), 0x3C00u);      // tie → even 1.0
  EXPECT_EQ(fp32_to_fp16(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02u);  // tie → even 0x3C02
  EXPECT_EQ(fp32_to_fp16(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3C01u);  // above tie
  EXPECT_EQ(fp32_to_fp16(-(1.0f + 3 * std::ldexp(1.0f, -11))), 0xBC02u);
  EXPECT_EQ(fp32_to_fp16(65519.0f), 0x7BFFu);  // below the tie with 65536: max finite
  EXPECT_EQ(fp32_to_fp16(65520.0f), 0x7C00u);  // tie between 65504 (odd) and 2^16: → +Inf
  EXPECT_EQ(fp32_to_fp16(-1e6f), 0xFC00u);
  EXPECT_EQ(fp32_to_fp16(65520.0f, RTZ), 0x7BFFu);  // RTZ overflow: max finite
  EXPECT_EQ(fp32_to_fp16(-1e30f, RTZ), 0xFBFFu);
  EXPECT_EQ(fp32_to_fp16(std::numeric_limits<float>::infinity(), RTZ), 0x7C00u);  // Inf stays Inf
  EXPECT_EQ(fp32_to_fp16(1.99951171875f + 0.0004f, RTZ), 0x3FFFu);  // 1.9999... truncates
  EXPECT_EQ(fp32_to_fp16(-0.0f), 0x8000u);
}

TEST(Fp16, Subnormals) {
  EXPECT_EQ(fp32_to_fp16(std::ldexp(1.0f, -24)), 0x0001u);             // smallest subnormal
  EXPECT_EQ(fp32_to_fp16(std::ldexp(1.0f, -25)), 0x0000u);             // tie with 0 → even 0
  EXPECT_EQ(fp32_to_fp16(std::ldexp(1.5f, -25)), 0x0001u);             // above the tie
  EXPECT_EQ(fp32_to_fp16(3 * std::ldexp(1.0f, -25)), 0x0002u);         // tie 1|2 → 2
  EXPECT_EQ(fp32_to_fp16(-std::ldexp(1.0f, -26)), 0x8000u);            // underflow keeps the sign
  EXPECT_EQ(fp32_to_fp16(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -25)), 0x0400u);  // carry into min normal
  EXPECT_EQ(fp32_to_fp16(std::ldexp(1023.0f, -24)), 0x03FFu);          // largest subnormal
  EXPECT_EQ(fp32_to_fp16(std::ldexp(1.9f, -25), RTZ), 0x0000u);
  EXPECT_EQ(fp16_to_fp32(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(fp16_to_fp32(0x83FF), -std::ldexp(1023.0f, -24));
}

// ------------------------------------------------------------------------------- bf16

TEST(Bf16, RneVersusRtzHandValues) {
  const float one = 1.0f;
  EXPECT_EQ(fp32_to_bf16(one), 0x3F80u);
  EXPECT_EQ(fp32_to_bf16(1.0f + std::ldexp(1.0f, -8)), 0x3F80u);      // tie → even
  EXPECT_EQ(fp32_to_bf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82u);  // tie → even
  EXPECT_EQ(fp32_to_bf16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)), 0x3F81u);
  EXPECT_EQ(fp32_to_bf16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20), RTZ), 0x3F80u);
  EXPECT_EQ(fp32_to_bf16(1.9999f), 0x4000u);
  EXPECT_EQ(fp32_to_bf16(1.9999f, RTZ), 0x3FFFu);
  EXPECT_EQ(fp32_to_bf16(-1.9999f, RTZ), 0xBFFFu);
  EXPECT_EQ(fp32_to_bf16(std::numeric_limits<float>::max()), 0x7F80u);       // RNE overflow → Inf
  EXPECT_EQ(fp32_to_bf16(std::numeric_limits<float>::max(), RTZ), 0x7F7Fu);  // RTZ → max finite
  EXPECT_EQ(fp32_to_bf16(std::numeric_limits<float>::denorm_min()), 0x0000u);  // tie with 0 → 0
  EXPECT_EQ(fp32_to_bf16(f(0x00018000u)), 0x0002u);  // subnormal tie 1|2 → 2
  const uint16_t nan = fp32_to_bf16(f(0x7F800001u), RTZ);  // payload only in the low bits
  EXPECT_TRUE(std::isnan(bf16_to_fp32(nan))) << "must not truncate to Inf";
  EXPECT_EQ(bf16_to_fp32(0x3F81), 1.0f + std::ldexp(1.0f, -7));
}

TEST(Bf16, FastPathsEqualGenericRounding) {
  std::mt19937_64 gen(5);
  std::uniform_int_distribution<uint32_t> any;
  for (int i = 0; i < 300000; ++i) {
    const uint32_t u = any(gen);
    const float x = f(u);
    for (Rounding r : {RNE, RTZ}) {
      const uint16_t fast = fp32_to_bf16(x, r);
      const uint32_t gen_bits = fp_encode(FloatFormat::BF16, static_cast<double>(x), r);
      if (std::isnan(x)) {
        ASSERT_TRUE(std::isnan(bf16_to_fp32(fast)));
        ASSERT_EQ(fast, gen_bits) << std::hex << u;
        continue;
      }
      ASSERT_EQ(fast, gen_bits) << std::hex << u;
      // Independent check: the result brackets x correctly.
      const float y = bf16_to_fp32(fast);
      if (r == RTZ && std::isfinite(x)) {
        ASSERT_LE(std::fabs(y), std::fabs(x)) << std::hex << u;
      }
    }
  }
}

TEST(Bf16, Fp64SourceRoundsOnce) {
  // 1 + 2^-8 + 2^-40: via fp32 the 2^-40 is lost (ties to 1.0); directly it rounds up.
  const double x = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  EXPECT_EQ(fp64_to_bf16(x), 0x3F81u);
  EXPECT_EQ(fp32_to_bf16(static_cast<float>(x)), 0x3F80u);
}

// -------------------------------------------------------------------------------- fp8

struct Fp8Case {
  FloatFormat fmt;
  uint8_t bits;
  double value;
};

TEST(Fp8, HandTables) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const Fp8Case cases[] = {
      // fp8e4nv: s e4 m3, bias 7, no Inf, NaN = 0x7F/0xFF
      {FloatFormat::F8E4NV, 0x00, 0.0},      {FloatFormat::F8E4NV, 0x01, 0.001953125},  // 2^-9
      {FloatFormat::F8E4NV, 0x07, 0.013671875},                                       // 7·2^-9
      {FloatFormat::F8E4NV, 0x08, 0.015625}, {FloatFormat::F8E4NV, 0x38, 1.0},
      {FloatFormat::F8E4NV, 0x39, 1.125},    {FloatFormat::F8E4NV, 0x3F, 1.875},
      {FloatFormat::F8E4NV, 0x40, 2.0},      {FloatFormat::F8E4NV, 0x77, 240.0},
      {FloatFormat::F8E4NV, 0x78, 256.0},    {FloatFormat::F8E4NV, 0x7E, 448.0},
      {FloatFormat::F8E4NV, 0xBA, -1.25},    {FloatFormat::F8E4NV, 0xFE, -448.0},
      {FloatFormat::F8E4NV, 0x7F, nan},      {FloatFormat::F8E4NV, 0xFF, nan},
      // fp8e5: s e5 m2, bias 15, IEEE Inf/NaN
      {FloatFormat::F8E5, 0x01, 1.52587890625e-05},  // 2^-16
      {FloatFormat::F8E5, 0x03, 4.57763671875e-05},  // 3·2^-16
      {FloatFormat::F8E5, 0x04, 6.103515625e-05},    // 2^-14
      {FloatFormat::F8E5, 0x3C, 1.0},        {FloatFormat::F8E5, 0x3D, 1.25},
      {FloatFormat::F8E5, 0x7B, 57344.0},    {FloatFormat::F8E5, 0x7C, inf},
      {FloatFormat::F8E5, 0xFC, -inf},       {FloatFormat::F8E5, 0x7D, nan},
      {FloatFormat::F8E5, 0xC2, -3.0},
      // fp8e4b15: s e4 m3, bias 15, every code finite
      {FloatFormat::F8E4B15, 0x01, 7.62939453125e-06},  // 2^-17
      {FloatFormat::F8E4B15, 0x08, 6.103515625e-05},    // 2^-14
      {FloatFormat::F8E4B15, 0x78, 1.0},     {FloatFormat::F8E4B15, 0x7F, 1.875},
      {FloatFormat::F8E4B15, 0xFF, -1.875},  {FloatFormat::F8E4B15, 0x70, 0.5},
  };
  for (const Fp8Case& c : cases) {
    const double got = fp_decode(c.fmt, c.bits);
    const float fast = fp8_to_fp32(c.fmt, c.bits);
    if (std::isnan(c.value)) {
      EXPECT_TRUE(std::isnan(got)) << format_info(c.fmt).name << " " << int(c.bits);
      EXPECT_TRUE(std::isnan(fast));
    } else {
      EXPECT_EQ(got, c.value) << format_info(c.fmt).name << " " << int(c.bits);
      EXPECT_EQ(static_cast<double>(fast), c.value);
      // Finite values round-trip; fp8e5's ±Inf encode to ±max (saturating conversions), and
      // fp8e4b15's ±1.875 (0x7F / 0xFF) to ±1.75: no conversion produces 0x7F (upstream).
      uint32_t back = std::isinf(c.value) ? (c.bits & 0x80u) | 0x7Bu : c.bits;
      if (c.fmt == FloatFormat::F8E4B15 && (c.bits & 0x7Fu) == 0x7Fu) back = (c.bits & 0x80u) | 0x7Eu;
      EXPECT_EQ(fp_encode(c.fmt, c.value), back) << format_info(c.fmt).name << " " << int(c.bits);
    }
  }
}

TEST(Fp8, SaturationInfNaN) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(fp_encode(FloatFormat::F8E4NV, 1000.0), 0x7Eu);
  EXPECT_EQ(fp_encode(FloatFormat::F8E4NV, 464.0), 0x7Eu);  // tie 448|480 → even 448 (also max)
  EXPECT_EQ(fp_encode(FloatFormat::F8E4NV, inf), 0x7Eu);
  EXPECT_EQ(fp_encode(FloatFormat::F8E4NV, -inf), 0xFEu);
  EXPECT_EQ(fp_encode(FloatFormat::F8E4NV, nan), 0x7Fu);
  EXPECT_EQ(fp_encode(FloatFormat::F8E4NV, -nan), 0x7Fu);
  EXPECT_EQ(fp_encode(FloatFormat::F8E5, 60000.0), 0x7Bu);
  EXPECT_EQ(fp_encode(FloatFormat::F8E5, inf), 0x7Bu);
  EXPECT_EQ(fp_encode(FloatFormat::F8E5, -1e10, RTZ), 0xFBu);
  EXPECT_EQ(fp_encode(FloatFormat::F8E5, nan), 0x7Fu);
  EXPECT_EQ(fp_encode(FloatFormat::F8E5, inf, RTZ), 0x7Cu);  // RTZ keeps ±Inf (upstream, sm_90)
  EXPECT_EQ(fp_encode(FloatFormat::F8E5, -inf, RTZ), 0xFCu);
  // fp8e4b15 as upstream converts to it: ±1.75 (0x7E) is the largest result, NaN gives 0x7E,
  // ties go away from zero, and RTZ is ignored.
  EXPECT_EQ(fp_encode(FloatFormat::F8E4B15, 2.0), 0x7Eu);
  EXPECT_EQ(fp_encode(FloatFormat::F8E4B15, 1.8), 0x7Eu);
  EXPECT_EQ(fp_encode(FloatFormat::F8E4B15, -inf), 0xFEu);
  EXPECT_EQ(fp_encode(FloatFormat::F8E4B15, nan), 0x7Eu);
  EXPECT_EQ(fp_encode(FloatFormat::F8E4B15, 1.0 + 1.0 / 16), 0x79u);  // tie 1 | 1.125 → away
  EXPECT_EQ(fp_encode(FloatFormat::F8E4B15, -(1.0 + 1.0 / 16)), 0xF9u);
  EXPECT_EQ(fp_encode(FloatFormat::F8E4B15, 1.1, RTZ), 0x79u);  // nearest, not toward zero
  EXPECT_EQ(fp_encode(FloatFormat::F8E4B15, std::ldexp(1.0, -18)), 0x01u);  // tie 0 | min subnormal → away
  EXPECT_EQ(fp_decode(FloatFormat::F8E4B15, 0x7F), 1.875);  // decodes, but is never produced
  EXPECT_EQ(fp_encode(FloatFormat::F8E4NV, 1.0 + 1.0 / 16), 0x38u);  // tie → even
  EXPECT_EQ(fp_encode(FloatFormat::F8E4NV, 1.0 + 3.0 / 16), 0x3Au);  // tie → even
  EXPECT_EQ(fp_encode(FloatFormat::F8E4NV, 1.0 + 3.0 / 16, RTZ), 0x39u);
  EXPECT_EQ(fp_encode(FloatFormat::F8E4NV, std::ldexp(1.0, -10)), 0x00u);  // tie 0|2^-9 → 0
  EXPECT_EQ(fp_encode(FloatFormat::F8E4NV, std::ldexp(3.0, -11)), 0x01u);  // 0.75 of the min subnormal → up
  EXPECT_EQ(fp_encode(FloatFormat::F8E4NV, std::ldexp(3.0, -10)), 0x02u);  // tie codes 1|2 → even 2
}

// Nearest encoding by brute force over all 256 codes (ties to the even code), saturating.
uint8_t brute_fp8(FloatFormat fmt, double x, Rounding r) {
  const FloatFormatInfo& fi = format_info(fmt);
  static std::vector<double> tables[6];  // decoded codes, per format (built once)
  std::vector<double>& table = tables[static_cast<int>(fmt)];
  if (table.empty())
    for (int c = 0; c < 256; ++c) table.push_back(fp_decode(fmt, static_cast<uint32_t>(c)));
  if (std::isnan(x)) return static_cast<uint8_t>(fi.nan_bits);
  if (fi.ties_away) r = RNE;  // fp8e4b15: nearest, ties away, RTZ ignored
  const double maxv = fp_decode(fmt, fi.max_finite);
  if (x > maxv) return static_cast<uint8_t>(fi.max_finite);
  if (x < -maxv) return static_cast<uint8_t>(fi.max_finite | 0x80u);
  int best = -1;
  double best_d = 0;
  for (int c = 0; c < 256; ++c) {
    const double v = table[c];
    if (!std::isfinite(v) || std::fabs(v) > maxv) continue;
    if (v == 0 && std::signbit(v) != std::signbit(x)) continue;  // keep the sign of zero
    if (r == RTZ && (std::fabs(v) > std::fabs(x) || (v != 0 && std::signbit(v) != std::signbit(x)))) continue;
    const double d = std::fabs(v - x);
    const bool tie_wins =
        best >= 0 && (fi.ties_away ? std::fabs(v) > std::fabs(table[best]) : ((c & 1) == 0 && (best & 1) == 1));
    if (best < 0 || d < best_d || (d == best_d && tie_wins)) {
      best = c;
      best_d = d;
    }
  }
  return static_cast<uint8_t>(best);
}

TEST(Fp8, RandomValuesMatchBruteForceNearest) {
  std::mt19937_64 gen(3);
  const FloatFormat fmts[] = {FloatFormat::F8E4NV, FloatFormat::F8E5, FloatFormat::F8E4B15};
  for (FloatFormat fmt : fmts) {
    const double maxv = fp_decode(fmt, format_info(fmt).max_finite);
    std::uniform_real_distribution<double> lg(std::log2(maxv) - 22, std::log2(maxv) + 1);
    for (int i = 0; i < 6000; ++i) {
      double x = std::exp2(lg(gen));
      if (i & 1) x = -x;
      if (i % 7 == 0) x = static_cast<double>(static_cast<float>(x));  // fp32-exact inputs too
      for (Rounding r : {RNE, RTZ}) {
        ASSERT_EQ(fp_encode(fmt, x, r), brute_fp8(fmt, x, r)) << format_info(fmt).name << " x=" << x;
        ASSERT_EQ(fp32_to_fp8(fmt, static_cast<float>(x), r), brute_fp8(fmt, static_cast<float>(x), r));
      }
    }
    // Every code's midpoint with its successor (exact ties) and round trips.
    for (int c = 0; c < 127; ++c) {
      const double v = fp_decode(fmt, c);
      if (!std::isfinite(v)) continue;
      ASSERT_EQ(fp_encode(fmt, v), static_cast<uint32_t>(c)) << format_info(fmt).name << " " << c;
      const double w = fp_decode(fmt, c + 1);
      if (!std::isfinite(w)) continue;
      const uint32_t top = format_info(fmt).max_finite;
      uint32_t tie = (c & 1) ? c + 1 : c;
      if (format_info(fmt).ties_away) tie = std::min<uint32_t>(c + 1, top);  // away from zero, saturating
      ASSERT_EQ(fp_encode(fmt, (v + w) / 2), tie) << format_info(fmt).name << " " << c;
      ASSERT_EQ(fp_encode(fmt, -(v + w) / 2), tie | 0x80u);
    }
  }
}

// ------------------------------------------------------------------- integers and fp32

TEST(IntToFloat, RoundsOnceFromTheExactInteger) {
  // 2^53 + 1 is not a double: via fp64 it would tie down to 2^53 and then stay there.
  const int64_t big = (int64_t(1) << 53) + 1;
  EXPECT_EQ(fp_encode_int64(FloatFormat::F32, big), bits_of(static_cast<float>(big)));
  // bf16 of 2^40 + 2^32 + 1: exact tie would be 2^40 + 2^32 (bf16 ulp 2^33 at 2^40); +1 breaks it.
  const int64_t v = (int64_t(1) << 40) + (int64_t(1) << 32) + 1;
  EXPECT_EQ(fp_encode_int64(FloatFormat::BF16, v), 0x5381u);  // 2^40·(1 + 2^-7)
  EXPECT_EQ(fp_encode_int64(FloatFormat::BF16, v - 1), 0x5380u);  // exact tie → even
  EXPECT_EQ(fp_encode_int64(FloatFormat::F16, 65519), 0x7BFFu);
  EXPECT_EQ(fp_encode_int64(FloatFormat::F16, -70000), 0xFC00u);
  EXPECT_EQ(fp_encode_int64(FloatFormat::F16, INT64_MIN), 0xFC00u);
  EXPECT_EQ(fp_encode_uint64(FloatFormat::F32, UINT64_MAX), 0x5F800000u);  // 2^64
  std::mt19937_64 gen(9);
  for (int i = 0; i < 100000; ++i) {
    const int64_t x = static_cast<int64_t>(gen()) >> (gen() % 64);
    ASSERT_EQ(fp_encode_int64(FloatFormat::F32, x), bits_of(static_cast<float>(x))) << x;
    ASSERT_EQ(fp_encode_int64(FloatFormat::F16, x), bits_of_half(static_cast<_Float16>(x))) << x;
  }
}

TEST(Fp32, RtzFromFp64) {
  EXPECT_EQ(fp64_to_fp32(1.0 + std::ldexp(1.0, -24) * 1.5, RTZ), 1.0f);
  EXPECT_EQ(fp64_to_fp32(1.0 + std::ldexp(1.0, -24) * 1.5), 1.0f + std::ldexp(1.0f, -23));
  EXPECT_EQ(fp64_to_fp32(-1e300, RTZ), -std::numeric_limits<float>::max());
  EXPECT_EQ(fp64_to_fp32(1e-300, RTZ), 0.0f);
  std::mt19937_64 gen(2);
  for (int i = 0; i < 100000; ++i) {
    const double x = double_from_bits(gen());
    if (std::isnan(x)) continue;
    ASSERT_EQ(bits_of(static_cast<float>(x)), fp_encode(FloatFormat::F32, x)) << x;  // generic == hardware RNE
    const float t = fp64_to_fp32(x, RTZ);
    if (std::isinf(x)) {
      ASSERT_EQ(t, static_cast<float>(x));
    } else {
      ASSERT_LE(std::fabs(static_cast<double>(t)), std::fabs(x));
      ASSERT_TRUE(std::fabs(x) > std::numeric_limits<float>::max() ||
                  std::fabs(static_cast<double>(std::nextafter(t, x > 0 ? INFINITY : -INFINITY))) > std::fabs(x) ||
                  static_cast<double>(t) == x)
          << x;
    }
  }
}

// ---------------------------------------------------------------------- narrow fma

TEST(FmaNarrow, HandCasesNeedingOneRounding) {
  // fp16: a·b = 1.5 + 2^-10 + 2^-11 is the midpoint between 0x3E01 and 0x3E02; c = ∓2^-24
  // decides the direction. (Rounding a·b+c to fp32 first would hit the tie.)
  const double a = fp_decode(FloatFormat::F16, 0x3C01), b = 1.5;
  EXPECT_EQ(fp_fma_narrow(FloatFormat::F16, a, b, -std::ldexp(1.0, -24)), 0x3E01u);
  EXPECT_EQ(fp_fma_narrow(FloatFormat::F16, a, b, std::ldexp(1.0, -24)), 0x3E02u);
  EXPECT_EQ(fp_fma_narrow(FloatFormat::F16, a, b, 0.0), 0x3E02u);  // exact tie → even
  // bf16: a·b = 1.5 + 2^-7 + 2^-8 (midpoint of 0x3FC1|0x3FC2); c = ∓2^-100 is far below
  // fp64's resolution at 1.5, so only round-to-odd keeps its direction.
  const double ab = fp_decode(FloatFormat::BF16, 0x3F81);
  EXPECT_EQ(fp_fma_narrow(FloatFormat::BF16, ab, 1.5, -std::ldexp(1.0, -100)), 0x3FC1u);
  EXPECT_EQ(fp_fma_narrow(FloatFormat::BF16, ab, 1.5, std::ldexp(1.0, -100)), 0x3FC2u);
  EXPECT_EQ(fp_fma_narrow(FloatFormat::BF16, ab, 1.5, 0.0), 0x3FC2u);
  EXPECT_EQ(fp_fma_narrow(FloatFormat::F16, 300.0, 300.0, 0.0), 0x7C00u);  // overflow → Inf
  EXPECT_TRUE(std::isnan(fp_decode(FloatFormat::F16, fp_fma_narrow(FloatFormat::F16, INFINITY, 0.0, 1.0))));
}

// Exact fp16 fma oracle: every fp16 value is an integer multiple of 2^-24, so a·b + c is an
// integer multiple of 2^-48 below 2^81 in magnitude: exact in __int128. The nearest fp16
// is found by binary search over the sorted positive finite fp16 values scaled by 2^48.
TEST(FmaNarrow, Fp16AgainstExactIntegerArithmetic) {
  std::vector<__int128> scaled;  // index = code 0..0x7BFF
  for (uint32_t c = 0; c <= 0x7BFF; ++c) scaled.push_back(static_cast<__int128>(std::ldexp(fp_decode(FloatFormat::F16, c), 48)));
  const __int128 inf_threshold = static_cast<__int128>(std::ldexp(65520.0, 48));
  auto as_scaled = [](double v) { return static_cast<__int128>(std::ldexp(v, 24)); };  // exact multiples of 2^-24
  std::mt19937_64 gen(17);
  std::uniform_int_distribution<uint32_t> code(0, 0xFBFF);
  int checked = 0;
  for (int i = 0; i < 200000; ++i) {
    uint32_t ca = code(gen), cb = code(gen), cc = code(gen);
    if ((ca & 0x7C00) == 0x7C00 || (cb & 0x7C00) == 0x7C00 || (cc & 0x7C00) == 0x7C00) continue;
    if (i % 3 == 0) cb = 0x3C00 | (cb & 0x83FF);  // keep |a·b| within range more often
    const double a = fp_decode(FloatFormat::F16, ca), b = fp_decode(FloatFormat::F16, cb),
                 c = fp_decode(FloatFormat::F16, cc);
    const __int128 exact = as_scaled(a) * as_scaled(b) + (as_scaled(c) << 24);
    const bool neg = exact < 0;
    const __int128 mag = neg ? -exact : exact;
    uint32_t want;
    if (mag >= inf_threshold) {
      want = 0x7C00;
    } else {
      const auto it = std::lower_bound(scaled.begin(), scaled.end(), mag);
      uint32_t hi = static_cast<uint32_t>(it - scaled.begin());
      if (hi > 0x7BFF) hi = 0x7BFF;  // beyond max but below the Inf threshold
      if (scaled[hi] == mag) {
        want = hi;
      } else {
        const uint32_t lo = hi - 1;
        const __int128 dl = mag - scaled[lo], dh = scaled[hi] - mag;
        want = dl < dh ? lo : dh < dl ? hi : ((lo & 1) ? hi : lo);
        if (scaled[hi] < mag) want = 0x7BFF;  // (only when hi was clamped)
      }
    }
    if (exact == 0) continue;  // the sign of an exact zero is a separate rule
    want |= neg ? 0x8000u : 0u;
    ASSERT_EQ(fp_fma_narrow(FloatFormat::F16, a, b, c), want) << std::hex << ca << " " << cb << " " << cc;
    ++checked;
  }
  EXPECT_GT(checked, 100000);
}

}  // namespace
