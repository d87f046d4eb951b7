// Bit-exact conversions between fp64/fp32 and the narrow float formats of the Triton
// language: fp16, bf16, fp8e4nv, fp8e5, fp8e4b15 (and fp32 itself, for round-toward-zero
// narrowing from fp64 and for integer sources).
//
// Every conversion rounds exactly once, from the exact source value, with either
// round-to-nearest-even (RNE, the default) or round-toward-zero (RTZ, Triton's
// `fp_downcast_rounding="rtz"`). Subnormals of every format are produced and read
// (no flush to zero). The behaviour at the edges, per format:
//
//   format    layout            bias  max finite        Inf   NaN encodings      on overflow / ±Inf input
//   fp16      s e5 m10 (IEEE)    15   65504  (0x7BFF)   yes   e=31, m!=0          RNE: ±Inf; RTZ: ±max; Inf→Inf
//   bf16      s e8 m7  (IEEE)   127   3.39e38 (0x7F7F)  yes   e=255, m!=0         RNE: ±Inf; RTZ: ±max; Inf→Inf
//   fp32      s e8 m23 (IEEE)   127   3.40e38           yes   e=255, m!=0         RNE: ±Inf; RTZ: ±max; Inf→Inf
//   fp8e5     s e5 m2  (IEEE)    15   57344  (0x7B)     yes   e=31, m!=0          saturates: ±57344 (±Inf too; RTZ keeps ±Inf)
//   fp8e4nv   s e4 m3  (e4m3fn)   7   448    (0x7E)     no    0x7F, 0xFF          saturates: ±448   (also for ±Inf)
//   fp8e4b15  s e4 m3            15   1.75   (0x7E) *   no    none                saturates: ±1.75  (also for ±Inf)
//   (* 0x7F decodes to 1.875, but no conversion produces it)
//
// Why: upstream Triton converts to fp8e4nv / fp8e5 on NVIDIA with PTX
// `cvt.rn.satfinite.{e4m3,e5m2}x2`, whose `.satfinite` clamps results beyond the largest
// finite value (infinities included) to ±MAX_NORM and turns NaN into NaN. fp16 / bf16 / fp32
// follow IEEE 754 (PTX `cvt.rn.f16.f32`, `cvt.rz.f16.f32`, `cvt.rn.bf16.f32`): RNE overflow
// gives ±Inf, RTZ overflow gives ±max finite. fp8e4b15 (Triton's pre-Hopper format, bias 15,
// every encoding finite) has neither Inf nor NaN; upstream converts to it with its own bit
// manipulation, which rounds to nearest with ties AWAY from zero, clamps to ±1.75 (0x7E /
// 0xFE), maps NaN to 0x7E and ignores fp_downcast_rounding="rtz"; tritium does the same.
// Measured on an H200 with upstream Triton 3.6 (kernels/tools/upstream_fp8.py, 2026-12-01):
// from fp32 and fp16, every one of 1024 inputs per format (ties, midpoints ± 1 ulp,
// subnormals, overflow, ±Inf, NaN) and all 256 decodes agree with this file; fp32 -> fp8e5
// with RTZ truncates, clamps finite overflow to ±57344 and keeps ±Inf.
//
// NaN results: fp16/bf16/fp32 keep the sign and the leading payload bits of the source NaN
// and set the quiet bit (what x86 `cvtsd2ss` / F16C `vcvtps2ph` do); fp8e4nv and fp8e5 give
// the canonical 0x7F (PTX `.satfinite`), fp8e4b15 0x7E. Widening (decoding) keeps sign and payload.
// NaN *bits* are not part of tritium's cross-backend bit-identity contract (GPUs produce
// canonical NaNs from arithmetic); "is NaN" is.
#pragma once
#include <cstdint>

namespace tritium {

/// The narrow (and fp32) formats handled here. fp64 is the exchange format and needs none.
enum class FloatFormat : uint8_t { F16, BF16, F32, F8E4NV, F8E5, F8E4B15 };

/// Rounding of a conversion: to nearest, ties to even (default), or toward zero.
enum class Rounding : uint8_t { kNearestEven, kTowardZero };

/// Static description of a format (see the table at the top of this file).
struct FloatFormatInfo {
  const char* name;
  int bits;            ///< total width (8, 16 or 32)
  int exp_bits;        ///< exponent field width
  int mant_bits;       ///< explicit mantissa bits (without the implicit bit)
  int bias;            ///< exponent bias
  bool ieee_special;   ///< the all-ones exponent encodes Inf (m=0) and NaN (m!=0)
  bool saturating;     ///< conversions clamp overflow and ±Inf to ±max finite
  uint32_t max_finite; ///< encoding (positive) of the largest finite value
  uint32_t nan_bits;   ///< canonical NaN produced for non-IEEE formats (0x7F for fp8; 0x7E for fp8e4b15)
  bool ties_away;      ///< rounds to nearest with ties away from zero, RTZ ignored (fp8e4b15)
};

/// Properties of `f`.
const FloatFormatInfo& format_info(FloatFormat f);

/// The exact value of encoding `bits` of format `f` as a double (every value of every format
/// here is exactly representable in fp64). NaN → quiet NaN with the same sign and payload in
/// the leading mantissa bits; Inf → ±Inf; fp8e4nv 0x7F/0xFF → ±NaN.
double fp_decode(FloatFormat f, uint32_t bits);

/// Rounds the double `x` once to format `f` (see the file comment for overflow, Inf, NaN).
uint32_t fp_encode(FloatFormat f, double x, Rounding r = Rounding::kNearestEven);

/// Rounds the exact value (-1)^neg · mag · 2^exp2 (mag an unsigned integer) to format `f`;
/// mag = 0 gives ±0. Every other conversion reduces to this routine.
uint32_t fp_encode_parts(FloatFormat f, bool neg, uint64_t mag, int exp2,
                         Rounding r = Rounding::kNearestEven);

/// Rounds the integer `v` (signed) to format `f`, exactly once (no detour through fp64).
uint32_t fp_encode_int64(FloatFormat f, int64_t v, Rounding r = Rounding::kNearestEven);
/// Rounds the unsigned integer `v` to format `f`, exactly once.
uint32_t fp_encode_uint64(FloatFormat f, uint64_t v, Rounding r = Rounding::kNearestEven);

/// fp32 → double → format `f` rounding: `fp_encode(f, double(x), r)` (the widening is exact).
inline uint32_t fp_encode_f32(FloatFormat f, float x, Rounding r = Rounding::kNearestEven) {
  return fp_encode(f, static_cast<double>(x), r);
}

/// a·b + c with a single rounding to format `f` (RNE). a, b, c must be values of a format
/// with at most 24 significant bits (fp16, bf16, fp8; so a·b is exact in fp64): the sum is
/// formed in fp64 with round-to-odd, which makes the second rounding to `f` exact
/// (fp64 has more than 2·p+1 bits for every narrow p here).
uint32_t fp_fma_narrow(FloatFormat f, double a, double b, double c);

// ---- fast paths (each equal, bit for bit, to the generic routines above) --------------

/// fp16 bits → fp32 (exact).
float fp16_to_fp32(uint16_t bits);
/// fp32 → fp16 bits.
uint16_t fp32_to_fp16(float x, Rounding r = Rounding::kNearestEven);
/// fp64 → fp16 bits (one rounding, not via fp32).
uint16_t fp64_to_fp16(double x, Rounding r = Rounding::kNearestEven);
/// bf16 bits → fp32 (exact: the bf16 bits are the top half of the fp32 bits).
float bf16_to_fp32(uint16_t bits);
/// fp32 → bf16 bits.
uint16_t fp32_to_bf16(float x, Rounding r = Rounding::kNearestEven);
/// fp64 → bf16 bits (one rounding, not via fp32).
uint16_t fp64_to_bf16(double x, Rounding r = Rounding::kNearestEven);
/// fp8 bits of format `f` (F8E4NV, F8E5 or F8E4B15) → fp32 (exact).
float fp8_to_fp32(FloatFormat f, uint8_t bits);
/// fp32 → fp8 bits of format `f` (saturating, see the table).
uint8_t fp32_to_fp8(FloatFormat f, float x, Rounding r = Rounding::kNearestEven);
/// fp64 → fp32 with rounding `r` (RNE is the hardware conversion; RTZ is exact truncation,
/// with overflow to ±FLT_MAX).
float fp64_to_fp32(double x, Rounding r = Rounding::kNearestEven);

/// Raw bits of a float / double (memcpy, no aliasing issues).
uint32_t bits_of(float x);
/// Raw bits of a double.
uint64_t bits_of(double x);
/// The float with raw bits `b`.
float float_from_bits(uint32_t b);
/// The double with raw bits `b`.
double double_from_bits(uint64_t b);

}  // namespace tritium
