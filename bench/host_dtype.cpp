// host_dtype.cpp - exact fp32/fp16/bf16 conversions for the bench's host data.
#include "host_dtype.h"

#include <bit>
#include <cmath>
#include <limits>

namespace tritium::bench {
namespace {

// Binary format parameters: significand bits p (implicit bit included), minimum normal
// exponent, exponent bias, exponent field width.
struct Format {
  int p;
  int emin;
  int bias;
  int exp_bits;
};

Format format_of(HostDtype t) {
  switch (t) {
    case HostDtype::F32: return {24, -126, 127, 8};
    case HostDtype::F16: return {11, -14, 15, 5};
    case HostDtype::BF16: return {8, -126, 127, 8};
  }
  return {24, -126, 127, 8};
}

double max_finite(const Format& f) {
  // (2 - 2^(1-p)) * 2^emax, emax = bias.
  return std::ldexp(2.0 - std::ldexp(1.0, 1 - f.p), f.bias);
}

}  // namespace

const char* dtype_name(HostDtype t) {
  switch (t) {
    case HostDtype::F32: return "fp32";
    case HostDtype::F16: return "fp16";
    case HostDtype::BF16: return "bf16";
  }
  return "?";
}

size_t dtype_size(HostDtype t) { return t == HostDtype::F32 ? 4 : 2; }

double unit_roundoff(HostDtype t) { return std::ldexp(1.0, -format_of(t).p); }

double min_subnormal(HostDtype t) {
  const Format f = format_of(t);
  return std::ldexp(1.0, f.emin - (f.p - 1));
}

double round_to_dtype(double v, HostDtype t) {
  if (std::isnan(v) || std::isinf(v) || v == 0.0) return v;
  const Format f = format_of(t);
  int e = std::ilogb(v);
  if (e < f.emin) e = f.emin;
  const int q = e - (f.p - 1);  // exponent of the quantum (one ulp) at v
  // Scaling by a power of two is exact; nearbyint rounds ties to even in the default mode.
  const double r = std::ldexp(std::nearbyint(std::ldexp(v, -q)), q);
  if (std::fabs(r) > max_finite(f)) return std::copysign(std::numeric_limits<double>::infinity(), v);
  return r;
}

uint32_t encode_dtype(double v, HostDtype t) {
  if (t == HostDtype::F32) return std::bit_cast<uint32_t>(static_cast<float>(v));
  const Format f = format_of(t);
  const int width = 1 + f.exp_bits + (f.p - 1);
  const uint32_t sign = std::signbit(v) ? (1u << (width - 1)) : 0u;
  const uint32_t exp_all_ones = ((1u << f.exp_bits) - 1) << (f.p - 1);
  if (std::isnan(v)) return sign | exp_all_ones | (1u << (f.p - 2));  // quiet NaN
  const double r = round_to_dtype(v, t);
  if (std::isinf(r)) return sign | exp_all_ones;
  const double a = std::fabs(r);
  if (a == 0.0) return sign;
  const int e = std::ilogb(a);
  if (e < f.emin) {  // subnormal: exponent field 0, significand = a / min_subnormal
    return sign | static_cast<uint32_t>(std::ldexp(a, -(f.emin - (f.p - 1))));
  }
  const uint32_t mant = static_cast<uint32_t>(std::ldexp(a, -(e - (f.p - 1)))) - (1u << (f.p - 1));
  return sign | (static_cast<uint32_t>(e + f.bias) << (f.p - 1)) | mant;
}

double decode_dtype(uint32_t bits, HostDtype t) {
  if (t == HostDtype::F32) return static_cast<double>(std::bit_cast<float>(bits));
  const Format f = format_of(t);
  const int width = 1 + f.exp_bits + (f.p - 1);
  const bool neg = (bits >> (width - 1)) & 1u;
  const uint32_t exp_field = (bits >> (f.p - 1)) & ((1u << f.exp_bits) - 1);
  const uint32_t mant = bits & ((1u << (f.p - 1)) - 1);
  double a;
  if (exp_field == (1u << f.exp_bits) - 1) {
    a = mant ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else if (exp_field == 0) {
    a = std::ldexp(static_cast<double>(mant), f.emin - (f.p - 1));
  } else {
    a = std::ldexp(static_cast<double>(mant | (1u << (f.p - 1))),
                   static_cast<int>(exp_field) - f.bias - (f.p - 1));
  }
  return neg ? -a : a;
}

}  // namespace tritium::bench
