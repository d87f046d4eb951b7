// Tests of the bench's host fp32/fp16/bf16 conversions (bench/host_dtype.h) against
// hand-computed bit patterns and exhaustive round trips.
#include "bench/host_dtype.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace {

using tritium::bench::decode_dtype;
using tritium::bench::encode_dtype;
using tritium::bench::HostDtype;
using tritium::bench::round_to_dtype;

TEST(BenchHostDtype, Fp16HandPatterns) {
  EXPECT_EQ(encode_dtype(1.0, HostDtype::F16), 0x3C00u);
  EXPECT_EQ(encode_dtype(-2.0, HostDtype::F16), 0xC000u);
  EXPECT_EQ(encode_dtype(0.5, HostDtype::F16), 0x3800u);
  EXPECT_EQ(encode_dtype(65504.0, HostDtype::F16), 0x7BFFu);          // largest finite
  EXPECT_EQ(encode_dtype(65519.99, HostDtype::F16), 0x7BFFu);         // just under the halfway point
  EXPECT_EQ(encode_dtype(65520.0, HostDtype::F16), 0x7C00u);          // halfway to 2^16: ties to even = inf
  EXPECT_EQ(encode_dtype(std::ldexp(1.0, -14), HostDtype::F16), 0x0400u);  // smallest normal
  EXPECT_EQ(encode_dtype(std::ldexp(1.0, -24), HostDtype::F16), 0x0001u);  // smallest subnormal
  EXPECT_EQ(encode_dtype(std::ldexp(1.0, -25), HostDtype::F16), 0x0000u);  // tie between 0 and 2^-24: even = 0
  EXPECT_EQ(encode_dtype(std::ldexp(3.0, -26), HostDtype::F16), 0x0001u);  // 0.75 of a subnormal step: up
  EXPECT_EQ(encode_dtype(std::ldexp(3.0, -25), HostDtype::F16), 0x0002u);  // 1.5 steps: tie to even (2)
  EXPECT_EQ(encode_dtype(1.0 + std::ldexp(1.0, -11), HostDtype::F16), 0x3C00u);      // tie: down to even
  EXPECT_EQ(encode_dtype(1.0 + 3 * std::ldexp(1.0, -11), HostDtype::F16), 0x3C02u);  // tie: up to even
  EXPECT_EQ(encode_dtype(-0.0, HostDtype::F16), 0x8000u);
  EXPECT_EQ(encode_dtype(INFINITY, HostDtype::F16), 0x7C00u);
  EXPECT_EQ(encode_dtype(NAN, HostDtype::F16) & 0x7C00u, 0x7C00u);
  EXPECT_NE(encode_dtype(NAN, HostDtype::F16) & 0x03FFu, 0u);
}

TEST(BenchHostDtype, Bf16HandPatterns) {
  EXPECT_EQ(encode_dtype(1.0, HostDtype::BF16), 0x3F80u);
  EXPECT_EQ(encode_dtype(-1.0, HostDtype::BF16), 0xBF80u);
  EXPECT_EQ(encode_dtype(3.14159265358979, HostDtype::BF16), 0x4049u);  // 3.140625
  EXPECT_EQ(decode_dtype(0x4049u, HostDtype::BF16), 3.140625);
  EXPECT_EQ(encode_dtype(1.0 + std::ldexp(1.0, -8), HostDtype::BF16), 0x3F80u);  // tie: even
  EXPECT_EQ(encode_dtype(std::ldexp(1.0, -133), HostDtype::BF16), 0x0001u);      // smallest subnormal
  EXPECT_EQ(encode_dtype(3.5e38, HostDtype::BF16), 0x7F80u);                      // past max: inf
}

TEST(BenchHostDtype, DecodeSpecials) {
  EXPECT_EQ(decode_dtype(0x7BFFu, HostDtype::F16), 65504.0);
  EXPECT_EQ(decode_dtype(0x0001u, HostDtype::F16), std::ldexp(1.0, -24));
  EXPECT_EQ(decode_dtype(0x3555u, HostDtype::F16), 0.333251953125);
  EXPECT_TRUE(std::isinf(decode_dtype(0xFC00u, HostDtype::F16)));
  // The poison pattern (all ones) is a NaN in every float dtype.
  EXPECT_TRUE(std::isnan(decode_dtype(0xFFFFu, HostDtype::F16)));
  EXPECT_TRUE(std::isnan(decode_dtype(0xFFFFu, HostDtype::BF16)));
  EXPECT_TRUE(std::isnan(decode_dtype(0xFFFFFFFFu, HostDtype::F32)));
}

TEST(BenchHostDtype, ExhaustiveRoundTrip16Bit) {
  for (HostDtype t : {HostDtype::F16, HostDtype::BF16}) {
    for (uint32_t b = 0; b < 0x10000u; ++b) {
      const double v = decode_dtype(b, t);
      if (std::isnan(v)) continue;
      ASSERT_EQ(encode_dtype(v, t), b) << "pattern " << b;
      ASSERT_EQ(round_to_dtype(v, t), v);
    }
  }
}

TEST(BenchHostDtype, Fp16RoundingMatchesCompilerConversion) {
  // _Float16 (a GCC extension on x86-64) converts with the hardware/libgcc rounding: an
  // implementation independent of ours.
  uint64_t s = 12345;
  for (int i = 0; i < 20000; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const float f = std::ldexp(static_cast<float>(s >> 40) / 16777216.0f, static_cast<int>(s % 40) - 28) *
                    ((s >> 20) & 1 ? -1.0f : 1.0f);
    const _Float16 h = static_cast<_Float16>(f);
    ASSERT_EQ(round_to_dtype(f, HostDtype::F16), static_cast<double>(h)) << f;
  }
}

TEST(BenchHostDtype, RoundoffAndSizes) {
  EXPECT_EQ(tritium::bench::unit_roundoff(HostDtype::F32), std::ldexp(1.0, -24));
  EXPECT_EQ(tritium::bench::unit_roundoff(HostDtype::F16), std::ldexp(1.0, -11));
  EXPECT_EQ(tritium::bench::unit_roundoff(HostDtype::BF16), std::ldexp(1.0, -8));
  EXPECT_EQ(tritium::bench::min_subnormal(HostDtype::F16), std::ldexp(1.0, -24));
  EXPECT_EQ(tritium::bench::dtype_size(HostDtype::BF16), 2u);
  EXPECT_EQ(tritium::bench::dtype_size(HostDtype::F32), 4u);
}

}  // namespace
