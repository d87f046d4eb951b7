// Implementation of the conversions declared in float_formats.h: one generic rounding
// routine (fp_encode_parts) that every conversion reduces to, plus fast paths checked
// against it by the unit tests.
#include "common/float_formats.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace tritium {
namespace {

// name, bits, exp_bits, mant_bits, bias, ieee_special, saturating, max_finite, nan_bits, ties_away
constexpr std::array<FloatFormatInfo, 6> kFormats = {{
    {"fp16", 16, 5, 10, 15, true, false, 0x7BFFu, 0x7E00u, false},
    {"bf16", 16, 8, 7, 127, true, false, 0x7F7Fu, 0x7FC0u, false},
    {"fp32", 32, 8, 23, 127, true, false, 0x7F7FFFFFu, 0x7FC00000u, false},
    {"fp8e4nv", 8, 4, 3, 7, false, true, 0x7Eu, 0x7Fu, false},
    {"fp8e5", 8, 5, 2, 15, true, true, 0x7Bu, 0x7Fu, false},
    {"fp8e4b15", 8, 4, 3, 15, false, true, 0x7Eu, 0x7Eu, true},
}};

// Encoding of a NaN whose sign is `neg` and whose payload (without the quiet bit) has its
// leading bits in `payload_hi` (bit 63 = first payload bit after the quiet bit).
uint32_t encode_nan(const FloatFormatInfo& fi, bool neg, uint64_t payload_hi) {
  if (!fi.ieee_special) return fi.nan_bits;  // fp8e4nv (canonical), fp8e4b15 (no NaN: +1.75, as upstream)
  if (fi.saturating) return fi.nan_bits;     // fp8e5: PTX .satfinite gives the canonical NaN
  const uint32_t sign = neg ? (1u << (fi.bits - 1)) : 0u;
  const uint32_t exp_all = ((1u << fi.exp_bits) - 1u) << fi.mant_bits;
  const uint32_t quiet = 1u << (fi.mant_bits - 1);
  const int keep = fi.mant_bits - 1;  // payload bits below the quiet bit
  const uint32_t payload = keep > 0 ? static_cast<uint32_t>(payload_hi >> (64 - keep)) : 0u;
  return sign | exp_all | quiet | payload;
}

uint32_t encode_overflow(const FloatFormatInfo& fi, bool neg, Rounding r) {
  const uint32_t sign = neg ? (1u << (fi.bits - 1)) : 0u;
  if (fi.saturating || r == Rounding::kTowardZero) return sign | fi.max_finite;
  return sign | (((1u << fi.exp_bits) - 1u) << fi.mant_bits);  // ±Inf
}

}  // namespace

const FloatFormatInfo& format_info(FloatFormat f) { return kFormats[static_cast<size_t>(f)]; }

uint32_t bits_of(float x) { return std::bit_cast<uint32_t>(x); }
uint64_t bits_of(double x) { return std::bit_cast<uint64_t>(x); }
float float_from_bits(uint32_t b) { return std::bit_cast<float>(b); }
double double_from_bits(uint64_t b) { return std::bit_cast<double>(b); }

double fp_decode(FloatFormat f, uint32_t bits) {
  const FloatFormatInfo& fi = format_info(f);
  const bool neg = (bits >> (fi.bits - 1)) & 1u;
  const uint32_t exp_mask = (1u << fi.exp_bits) - 1u;
  const uint32_t e = (bits >> fi.mant_bits) & exp_mask;
  const uint32_t m = bits & ((1u << fi.mant_bits) - 1u);
  auto nan_with_payload = [&](uint32_t mant) {
    // sign | exp all ones | quiet | payload (the format's mantissa, left-aligned)
    uint64_t d = 0x7FF8000000000000ull | (static_cast<uint64_t>(mant) << (52 - fi.mant_bits));
    if (neg) d |= 0x8000000000000000ull;
    return double_from_bits(d);
  };
  if (fi.ieee_special && e == exp_mask) {
    if (m == 0) return neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return nan_with_payload(m);
  }
  if (f == FloatFormat::F8E4NV && e == exp_mask && m == ((1u << fi.mant_bits) - 1u)) return nan_with_payload(m);
  double v;
  if (e == 0) {
    v = std::ldexp(static_cast<double>(m), 1 - fi.bias - fi.mant_bits);
  } else {
    v = std::ldexp(static_cast<double>(m | (1u << fi.mant_bits)), static_cast<int>(e) - fi.bias - fi.mant_bits);
  }
  return neg ? -v : v;
}

uint32_t fp_encode_parts(FloatFormat f, bool neg, uint64_t mag, int exp2, Rounding r) {
  const FloatFormatInfo& fi = format_info(f);
  const uint32_t sign = neg ? (1u << (fi.bits - 1)) : 0u;
  if (mag == 0) return sign;
  const int M = fi.mant_bits;
  const int emin = 1 - fi.bias;  // exponent of the smallest normal
  // Value = mag·2^exp2; its leading bit is at 2^E.
  const int E = (63 - std::countl_zero(mag)) + exp2;
  const int qe = (E < emin ? emin : E) - M;  // exponent of one unit in the last place (ulp)
  const int shift = qe - exp2;                // low bits of mag that fall below the ulp
  uint64_t q;                                 // the value in ulps, truncated toward zero
  bool up = false;
  if (fi.ties_away) r = Rounding::kNearestEven;  // fp8e4b15: upstream ignores rtz (see the header)
  if (shift <= 0) {
    q = mag << (-shift);  // exact; q < 2^(M+1)
  } else if (shift >= 64) {
    q = 0;
    // Half an ulp is 2^(shift-1) units of 2^exp2 and mag < 2^64: only shift == 64 can reach
    // it; a tie rounds to the even q = 0.
    if (r == Rounding::kNearestEven && shift == 64) up = mag > (1ull << 63) || (fi.ties_away && mag == (1ull << 63));
  } else {
    q = mag >> shift;
    const uint64_t rem = mag & ((1ull << shift) - 1ull);
    const uint64_t half = 1ull << (shift - 1);
    if (r == Rounding::kNearestEven) up = rem > half || (rem == half && (fi.ties_away || (q & 1ull)));
  }
  if (up) ++q;
  // bits = ((qe + M + bias - 1) << M) + q covers subnormals (qe = emin - M makes the exponent
  // term zero) and lets a mantissa carry ripple into the exponent.
  const int64_t exp_term = static_cast<int64_t>(qe) + M + fi.bias - 1;
  const uint64_t mag_bits = (static_cast<uint64_t>(exp_term) << M) + q;
  if (mag_bits > fi.max_finite) return encode_overflow(fi, neg, r);
  return sign | static_cast<uint32_t>(mag_bits);
}

uint32_t fp_encode(FloatFormat f, double x, Rounding r) {
  const FloatFormatInfo& fi = format_info(f);
  const uint64_t b = bits_of(x);
  const bool neg = b >> 63;
  const uint32_t e = static_cast<uint32_t>(b >> 52) & 0x7FFu;
  const uint64_t m = b & ((1ull << 52) - 1ull);
  if (e == 0x7FF) {
    if (m != 0) return encode_nan(fi, neg, m << 12 << 1);  // payload after the quiet bit
    // ±Inf: exact in IEEE formats (also under RTZ); saturating formats clamp, except
    // fp8e5 under RTZ, which keeps ±Inf (upstream on sm_90).
    const uint32_t sign = neg ? (1u << (fi.bits - 1)) : 0u;
    const bool keep_inf = fi.ieee_special && (!fi.saturating || r == Rounding::kTowardZero);
    if (!keep_inf) return sign | fi.max_finite;
    return sign | (((1u << fi.exp_bits) - 1u) << fi.mant_bits);
  }
  if (e == 0) return fp_encode_parts(f, neg, m, -1074, r);
  return fp_encode_parts(f, neg, m | (1ull << 52), static_cast<int>(e) - 1075, r);
}

uint32_t fp_encode_int64(FloatFormat f, int64_t v, Rounding r) {
  const bool neg = v < 0;
  const uint64_t mag = neg ? (~static_cast<uint64_t>(v) + 1ull) : static_cast<uint64_t>(v);
  return fp_encode_parts(f, neg, mag, 0, r);
}

uint32_t fp_encode_uint64(FloatFormat f, uint64_t v, Rounding r) { return fp_encode_parts(f, false, v, 0, r); }

uint32_t fp_fma_narrow(FloatFormat f, double a, double b, double c) {
  const double p = a * b;  // exact: both factors have <= 24 significant bits and a small exponent
  if (std::isnan(p) || std::isnan(c) || std::isinf(p) || std::isinf(c)) return fp_encode(f, p + c);
  double s = p + c;
  // TwoSum: s + err == p + c exactly.
  const double bp = s - p;
  const double ap = s - bp;
  const double err = (p - ap) + (c - bp);
  if (err != 0.0 && s != 0.0) {
    uint64_t sb = bits_of(s);
    if ((sb & 1ull) == 0) {
      // Round to odd: step to the odd neighbour on the side of the exact value.
      const bool away = (err > 0.0) == (s > 0.0);
      sb = away ? sb + 1 : sb - 1;
      s = double_from_bits(sb);
    }
  }
  return fp_encode(f, s);
}

// ---- fast paths ------------------------------------------------------------------------

float fp16_to_fp32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1Fu;
  const uint32_t m = h & 0x3FFu;
  uint32_t out;
  if (e == 0x1F) {
    out = sign | 0x7F800000u | (m << 13) | (m ? 0x00400000u : 0u);
  } else if (e != 0) {
    out = sign | ((e + 112u) << 23) | (m << 13);
  } else if (m == 0) {
    out = sign;
  } else {
    // subnormal: m·2^-24; normalize.
    const int lead = 31 - std::countl_zero(m);  // 0..9
    const uint32_t mant = (m << (23 - lead)) & 0x7FFFFFu;
    const uint32_t exp = static_cast<uint32_t>(lead - 24 + 127);
    out = sign | (exp << 23) | mant;
  }
  return float_from_bits(out);
}

uint16_t fp32_to_fp16(float x, Rounding r) {
  return static_cast<uint16_t>(fp_encode(FloatFormat::F16, static_cast<double>(x), r));
}
uint16_t fp64_to_fp16(double x, Rounding r) { return static_cast<uint16_t>(fp_encode(FloatFormat::F16, x, r)); }

float bf16_to_fp32(uint16_t b) {
  uint32_t u = static_cast<uint32_t>(b) << 16;
  if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu)) u |= 0x00400000u;  // quiet the NaN
  return float_from_bits(u);
}

uint16_t fp32_to_bf16(float x, Rounding r) {
  const uint32_t u = bits_of(x);
  if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu))
    return static_cast<uint16_t>((u >> 16) | 0x0040u);  // NaN: keep sign/payload, set quiet
  if (r == Rounding::kTowardZero) return static_cast<uint16_t>(u >> 16);
  return static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
uint16_t fp64_to_bf16(double x, Rounding r) { return static_cast<uint16_t>(fp_encode(FloatFormat::BF16, x, r)); }

float fp8_to_fp32(FloatFormat f, uint8_t bits) {
  // 256-entry tables built once from the generic decoder.
  struct Tables {
    std::array<std::array<float, 256>, 3> t;
    Tables() {
      const FloatFormat fs[3] = {FloatFormat::F8E4NV, FloatFormat::F8E5, FloatFormat::F8E4B15};
      for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 256; ++i) t[k][i] = static_cast<float>(fp_decode(fs[k], static_cast<uint32_t>(i)));
    }
  };
  static const Tables tables;
  const int k = f == FloatFormat::F8E4NV ? 0 : f == FloatFormat::F8E5 ? 1 : 2;
  return tables.t[k][bits];
}

uint8_t fp32_to_fp8(FloatFormat f, float x, Rounding r) {
  return static_cast<uint8_t>(fp_encode(f, static_cast<double>(x), r));
}

float fp64_to_fp32(double x, Rounding r) {
  if (r == Rounding::kNearestEven) return static_cast<float>(x);
  return float_from_bits(fp_encode(FloatFormat::F32, x, r));
}

}  // namespace tritium
