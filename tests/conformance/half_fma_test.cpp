// tl.fma on fp16 operands: the exact a*b + c rounded ONCE to fp16 (as upstream's fma.rn.f16),
// checked against a rounding written here in exact 128-bit integer arithmetic (every fp16
// product and sum is an integer multiple of 2^-48 below 2^33). The cases that matter are a
// product exactly halfway between two fp16 values with a tiny c deciding the direction, which
// an fp32 or fp64 sum rounded first could get wrong. Run on interp, cpu, opencl and msl-emu
// by the harness (msl-emu rounds to odd in fp32, Metal having no double).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "conformance_util.h"
#include "halfbits.h"

using namespace conformance;

namespace {

const char* kSrc = R"(
import triton
import triton.language as tl

@triton.jit
def k(a, b, c, out, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out + offs, tl.fma(tl.load(a + offs), tl.load(b + offs), tl.load(c + offs)))
)";

// fp16 bits -> the value times 2^24, as an exact signed integer (finite inputs).
__int128 scaled24(uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const __int128 mag = e == 0 ? m : (static_cast<__int128>(1024 + m) << (e - 1));
  return (h & 0x8000) ? -mag : mag;
}

// The fp16 nearest (ties to even) to v * 2^-48 for an exact integer v; overflow gives inf.
uint16_t round_scaled48(__int128 v) {
  const uint16_t s = v < 0 ? 0x8000 : 0;
  unsigned __int128 m = v < 0 ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  if (m == 0) return s;  // an exact zero sum is +0 unless both addends are -0 (inputs here are nonzero)
  int top = 127;
  while (!((m >> top) & 1)) --top;
  const int q = std::max(top - 10, 24);  // quantum 2^(q-48): 11 significant bits, at least 2^-24
  unsigned __int128 r = m >> q;
  const unsigned __int128 rest = m & ((static_cast<unsigned __int128>(1) << q) - 1), half = static_cast<unsigned __int128>(1) << (q - 1);
  if (rest > half || (rest == half && (r & 1))) ++r;
  const double val = std::ldexp(static_cast<double>(r), q - 48);
  if (val > 65504.0) return static_cast<uint16_t>(s | 0x7c00);
  return static_cast<uint16_t>(s | exact_half(val));
}

}  // namespace

TEST(ConformanceHalfFma, RoundsTheExactResultOnce) {
  const int n = 128;
  std::vector<uint16_t> a(n), b(n), c(n);
  auto fa = rand_f32(n, -8.f, 8.f), fb = rand_f32(n, -8.f, 8.f), fc = rand_f32(n, -64.f, 64.f);
  for (int i = 0; i < n; ++i) a[i] = half_rne(fa[i]), b[i] = half_rne(fb[i]), c[i] = half_rne(fc[i]);
  // Ties broken by a tiny c: 1.5 * (1 + 2^-10) = 1.5 + 1.5*2^-10 lies halfway between fp16
  // neighbours of spacing 2^-10 around 1.5; c = ±2^-24 decides. Also a product near the
  // overflow threshold, and subnormal results.
  const uint16_t tie_a = 0x3e00 /* 1.5 */, tie_b = 0x3c01 /* 1 + 2^-10 */;
  const uint16_t cases[][3] = {{tie_a, tie_b, 0x0001}, {tie_a, tie_b, 0x8001}, {tie_a, tie_b, 0x0000},
                               {0x5bff, 0x5bff, 0x0001} /* 255.9^2 */, {0x7bff, 0x3c00, 0x5000} /* 65504 + 32 */,
                               {0x0400, 0x3800, 0x8001} /* 2^-14 / 2 - 2^-24 */, {0x1400, 0x1400, 0x0003}};
  for (size_t i = 0; i < std::size(cases); ++i) a[i] = cases[i][0], b[i] = cases[i][1], c[i] = cases[i][2];
  Case k(kSrc, "k", "*fp16, *fp16, *fp16, *fp16, 128");
  k.in(a).in(b).in(c).out<uint16_t>(n);
  auto r = k.run({1});
  auto got = r.get<uint16_t>(3);
  for (int i = 0; i < n; ++i) {
    const __int128 exact = scaled24(a[i]) * scaled24(b[i]) + (scaled24(c[i]) << 24);
    EXPECT_EQ(got[i], round_scaled48(exact)) << "fma(" << std::hex << a[i] << ", " << b[i] << ", " << c[i] << ")";
  }
  EXPECT_EQ(got[0], 0x3e02);  // 1.5 + 1.5 * 2^-10 + 2^-24: above the tie, up
  EXPECT_EQ(got[1], 0x3e01);  // below the tie, down
}
