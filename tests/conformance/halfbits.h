// 16-bit float helpers for the conformance tests, written from the IEEE 754 binary16 and
// bfloat16 definitions (independent of tritium's own conversions).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace conformance {

/// Exact value of an IEEE binary16 bit pattern.
inline float half_to_float(uint16_t h) {
  int sign = h >> 15, ex = (h >> 10) & 0x1F, man = h & 0x3FF;
  double v;
  if (ex == 0)
    v = std::ldexp(static_cast<double>(man), -24);
  else if (ex == 31)
    v = man ? NAN : INFINITY;
  else
    v = std::ldexp(1024.0 + man, ex - 25);
  return static_cast<float>(sign ? -v : v);
}

/// Exact value of a bfloat16 bit pattern.
inline float bf16_to_float(uint16_t b) {
  uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// binary16 bits of a finite value that is exactly representable (e.g. a small integer
/// or k/2^m); checks nothing — used to build inputs.
inline uint16_t exact_half(double v) {
  uint16_t s = v < 0 ? 0x8000 : 0;
  v = std::fabs(v);
  if (v == 0) return s;
  int e;
  double m = std::frexp(v, &e);  // v = m * 2^e, m in [0.5, 1)
  int ex = e - 1 + 15;
  if (ex <= 0) return static_cast<uint16_t>(s | static_cast<uint16_t>(std::ldexp(v, 24)));
  uint16_t man = static_cast<uint16_t>(std::ldexp(m * 2 - 1, 10));
  return static_cast<uint16_t>(s | (ex << 10) | man);
}

/// binary16 round-to-nearest-even of a float (normal and subnormal range, overflow to inf).
inline uint16_t half_rne(float f) {
  double v = f;
  uint16_t s = std::signbit(v) ? 0x8000 : 0;
  v = std::fabs(v);
  if (std::isnan(v)) return 0x7E00;
  int e;
  std::frexp(v, &e);
  int q = std::max(e - 11, -24);  // quantum exponent: 11 significant bits, min 2^-24
  double r = std::nearbyint(std::ldexp(v, -q));  // default rounding mode: to nearest even
  double rv = std::ldexp(r, q);
  if (rv > 65504.0) return static_cast<uint16_t>(s | 0x7C00);  // rounded past max finite
  return static_cast<uint16_t>(s | exact_half(rv));
}

/// bfloat16 bits of a float, round-to-nearest-even (finite inputs).
inline uint16_t bf16_rne(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  uint32_t lsb = (u >> 16) & 1;
  return static_cast<uint16_t>((u + 0x7FFF + lsb) >> 16);
}

}  // namespace conformance

namespace conformance {

/// binary16 round-toward-zero of a float (finite; overflow gives the max finite 65504).
inline uint16_t half_rtz(float f) {
  double v = f;
  uint16_t s = std::signbit(v) ? 0x8000 : 0;
  v = std::fabs(v);
  int e;
  std::frexp(v, &e);
  int q = std::max(e - 11, -24);
  double rv = std::ldexp(std::trunc(std::ldexp(v, -q)), q);
  if (rv > 65504.0) rv = 65504.0;
  return static_cast<uint16_t>(s | exact_half(rv));
}

/// bfloat16 round-toward-zero of a float: the upper 16 bits.
inline uint16_t bf16_rtz(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>(u >> 16);
}

}  // namespace conformance
