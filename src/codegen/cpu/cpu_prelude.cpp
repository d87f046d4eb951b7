// The runtime header embedded at the top of every generated CPU translation unit. It has
// no includes beyond two C headers, declares the libm functions it uses, and defines the
// exact numerics of every op the renderer lowers to a helper (integer wrap, division by
// zero, shifts, saturating casts, fp16/bf16/fp8 conversions, NaN-aware min/max, atomics).
// These definitions mirror the reference interpreter (src/interp/) bit for bit.
#include "codegen/cpu/cpu_codegen.h"

namespace tritium::codegen::cpu {

const char* cpu_prelude() {
  return R"TRPRELUDE(// ---- tritium cpu prelude -------------------------------------------------------
#include <stdint.h>
#include <string.h>
extern "C" {
int snprintf(char*, unsigned long, const char*, ...) noexcept;
float expf(float) noexcept; double exp(double) noexcept;
float exp2f(float) noexcept; double exp2(double) noexcept;
float logf(float) noexcept; double log(double) noexcept;
float log2f(float) noexcept; double log2(double) noexcept;
float sqrtf(float) noexcept; double sqrt(double) noexcept;
float sinf(float) noexcept; double sin(double) noexcept;
float cosf(float) noexcept; double cos(double) noexcept;
float erff(float) noexcept; double erf(double) noexcept;
float floorf(float) noexcept; double floor(double) noexcept;
float ceilf(float) noexcept; double ceil(double) noexcept;
float fabsf(float) noexcept; double fabs(double) noexcept;
float fmaf(float, float, float) noexcept; double fma(double, double, double) noexcept;
float tanhf(float) noexcept; double tanh(double) noexcept;
float log1pf(float) noexcept; double log1p(double) noexcept;
float expm1f(float) noexcept; double expm1(double) noexcept;
float powf(float, float) noexcept; double pow(double, double) noexcept;
float truncf(float) noexcept; double trunc(double) noexcept;
float roundf(float) noexcept; double round(double) noexcept;
float rintf(float) noexcept; double rint(double) noexcept;
float erfcf(float) noexcept; double erfc(double) noexcept;
float tanf(float) noexcept; double tan(double) noexcept;
float atanf(float) noexcept; double atan(double) noexcept;
float atan2f(float, float) noexcept; double atan2(double, double) noexcept;
float asinf(float) noexcept; double asin(double) noexcept;
float acosf(float) noexcept; double acos(double) noexcept;
float sinhf(float) noexcept; double sinh(double) noexcept;
float coshf(float) noexcept; double cosh(double) noexcept;
float exp10f(float) noexcept; double exp10(double) noexcept;
float log10f(float) noexcept; double log10(double) noexcept;
float cbrtf(float) noexcept; double cbrt(double) noexcept;
float hypotf(float, float) noexcept; double hypot(double, double) noexcept;
float copysignf(float, float) noexcept; double copysign(double, double) noexcept;
float fmodf(float, float) noexcept; double fmod(double, double) noexcept;
}

typedef union tritium_arg { void* ptr; int64_t i64; uint64_t u64; double f64; float f32; } tritium_arg;
typedef struct tritium_host {
  void (*print)(const char* line);
  void (*assert_fail)(const char* message, const char* file, int line, const char* func, int64_t pid_x,
                      int64_t pid_y, int64_t pid_z);
} tritium_host;

#define TR_INLINE static inline __attribute__((always_inline))
#define TR_SLOW static __attribute__((noinline, const))  // large, pure, off the fast paths

template <class To, class From> TR_INLINE To tr_bits(From x) { return __builtin_bit_cast(To, x); }

// ---- integers: wrap-around arithmetic through unsigned types ----------------------------
template <class T> struct tr_uw { typedef uint32_t type; };  // unsigned, at least 32 bits
template <> struct tr_uw<int64_t> { typedef uint64_t type; };
template <> struct tr_uw<uint64_t> { typedef uint64_t type; };
template <class T> struct tr_signed { enum { value = (T)(-1) < (T)0 }; };
template <class T> struct tr_limits {
  static constexpr T min() { return tr_signed<T>::value ? (T)((typename tr_uw<T>::type)1 << (sizeof(T) * 8 - 1)) : (T)0; }
  static constexpr T max() { return (T)~min(); }
};

template <class T> TR_INLINE T tr_add(T a, T b) { typedef typename tr_uw<T>::type U; return (T)((U)a + (U)b); }
template <class T> TR_INLINE T tr_sub(T a, T b) { typedef typename tr_uw<T>::type U; return (T)((U)a - (U)b); }
template <class T> TR_INLINE T tr_mul(T a, T b) { typedef typename tr_uw<T>::type U; return (T)((U)a * (U)b); }
template <class T> TR_INLINE T tr_neg(T a) { typedef typename tr_uw<T>::type U; return (T)((U)0 - (U)a); }
// Division truncates toward zero. x / 0 = -1 (all ones) and x % 0 = x; MIN / -1 = MIN and
// MIN % -1 = 0 (no trap).
template <class T> TR_INLINE T tr_idiv(T a, T b) {
  if (b == 0) return (T)-1;
  if (tr_signed<T>::value && b == (T)-1) return tr_neg(a);
  return (T)(a / b);
}
template <class T> TR_INLINE T tr_irem(T a, T b) {
  if (b == 0) return a;
  if (tr_signed<T>::value && b == (T)-1) return (T)0;
  return (T)(a % b);
}
// Shift amounts are read as unsigned; an amount >= the bit width gives 0 (shl, logical
// shr) or the sign fill (arithmetic shr).
template <class T> TR_INLINE T tr_shl(T a, T b) {
  typedef typename tr_uw<T>::type U;
  return (U)b >= sizeof(T) * 8 ? (T)0 : (T)((U)a << (U)b);
}
template <class T> TR_INLINE T tr_shr(T a, T b) {
  typedef typename tr_uw<T>::type U;
  if ((U)b >= sizeof(T) * 8) return (tr_signed<T>::value && a < 0) ? (T)-1 : (T)0;
  return (T)(a >> (U)b);
}
template <class T> TR_INLINE T tr_imin(T a, T b) { return b < a ? b : a; }
template <class T> TR_INLINE T tr_imax(T a, T b) { return a < b ? b : a; }
template <class T> TR_INLINE T tr_iabs(T a) { return (tr_signed<T>::value && a < 0) ? tr_neg(a) : a; }
template <class T> TR_INLINE typename tr_uw<T>::type tr_ubits(T a) {  // a's bits, zero-extended
  typedef typename tr_uw<T>::type U;
  return sizeof(T) == sizeof(U) ? (U)a : (U)((U)a & (((U)1 << (sizeof(T) * 8)) - 1));
}
template <class T> TR_INLINE T tr_clz(T a) {
  typedef typename tr_uw<T>::type U;
  U u = tr_ubits(a);
  if (u == 0) return (T)(sizeof(T) * 8);
  int n = sizeof(U) == 8 ? __builtin_clzll((unsigned long long)u) : __builtin_clz((unsigned)u);
  return (T)(n - (int)(sizeof(U) * 8 - sizeof(T) * 8));
}
template <class T> TR_INLINE T tr_popc(T a) {
  typedef typename tr_uw<T>::type U;
  U u = tr_ubits(a);
  return (T)(sizeof(U) == 8 ? __builtin_popcountll((unsigned long long)u) : __builtin_popcount((unsigned)u));
}
// High half of the UNSIGNED double-width product of the operands' bits (any int type).
template <class T> TR_INLINE T tr_mulhi(T a, T b) {
  if (sizeof(T) == 8) return (T)(uint64_t)(((unsigned __int128)(uint64_t)a * (unsigned __int128)(uint64_t)b) >> 64);
  return (T)(((uint64_t)tr_ubits(a) * (uint64_t)tr_ubits(b)) >> (sizeof(T) * 8));
}

// ---- floats: min / max -------------------------------------------------------------------
// propagate_nan = 0: the non-NaN operand wins (both NaN: the first); propagate_nan = 1: the
// first NaN operand wins. min(-0, +0) = -0 and max(-0, +0) = +0 in either order.
template <class F> TR_INLINE F tr_fmin(F a, F b) {
  if (a != a) return (b != b) ? a : b;
  if (b != b) return a;
  if (a < b) return a;
  if (b < a) return b;
  return __builtin_signbit(a) ? a : b;
}
template <class F> TR_INLINE F tr_fmax(F a, F b) {
  if (a != a) return (b != b) ? a : b;
  if (b != b) return a;
  if (a > b) return a;
  if (b > a) return b;
  return __builtin_signbit(a) ? b : a;
}
template <class F> TR_INLINE F tr_fmin_nan(F a, F b) { return (a != a) ? a : (b != b) ? b : tr_fmin(a, b); }
template <class F> TR_INLINE F tr_fmax_nan(F a, F b) { return (a != a) ? a : (b != b) ? b : tr_fmax(a, b); }

// ---- small float formats ------------------------------------------------------------------
TR_INLINE double tr_pow2(int e) { return tr_bits<double>((uint64_t)(e + 1023) << 52); }  // -1022 <= e <= 1023

// Rounds x once into a binary format with `eb` exponent bits, `mb` stored mantissa bits and
// bias `bias` (RNE, or toward zero when rtz). `ieee`: the all-ones exponent encodes Inf / NaN.
// `sat`: overflow and Inf saturate to max_bits (else RNE overflow gives Inf, RTZ overflow
// max_bits). NaN: IEEE non-saturating formats keep the sign and leading payload bits and set
// the quiet bit; the others give `nan_bits`. (Same results as src/common/float_formats.h.)
TR_SLOW uint32_t tr_encode(double x, int eb, int mb, int bias, int ieee, int sat, uint32_t max_bits,
                             uint32_t nan_bits, int rtz) {
  uint64_t u = tr_bits<uint64_t>(x);
  uint32_t sign = (uint32_t)(u >> 63) << (eb + mb);
  uint32_t inf_bits = ((1u << eb) - 1) << mb;
  uint64_t mag = u & 0x7fffffffffffffffull;
  if (mag > 0x7ff0000000000000ull) {  // NaN
    if (!ieee || sat) return nan_bits;
    return sign | inf_bits | (1u << (mb - 1)) | (uint32_t)((mag >> (52 - mb)) & ((1u << (mb - 1)) - 1));
  }
  if (mag == 0x7ff0000000000000ull) return sign | ((sat || !ieee) ? max_bits : inf_bits);
  if (mag == 0) return sign;
  double a = tr_bits<double>(mag);
  int e = (int)(mag >> 52) - 1023;
  int emin = 1 - bias;
  int qe = (e < emin ? emin : e) - mb;
  double q = a * tr_pow2(-qe);  // the value in units of the last place (exact)
  double n = (double)(uint64_t)q;
  double frac = q - n;
  if (!rtz && (frac > 0.5 || (frac == 0.5 && ((uint64_t)n & 1)))) n += 1;
  uint64_t ni = (uint64_t)n;
  uint64_t bits = e < emin ? ni : ((uint64_t)(e + bias) << mb) + ni - ((uint64_t)1 << mb);
  if (bits > max_bits) return sign | ((sat || rtz || !ieee) ? max_bits : inf_bits);
  return sign | (uint32_t)bits;
}
// Decodes a small-format value exactly into a float (NaN keeps sign and payload).
TR_INLINE float tr_decode(uint32_t b, int eb, int mb, int bias, int ieee, int fn_nan) {
  uint32_t sign = (b >> (eb + mb)) & 1, e = (b >> mb) & ((1u << eb) - 1), m = b & ((1u << mb) - 1);
  float v;
  if ((ieee && e == (1u << eb) - 1) || (fn_nan && e == (1u << eb) - 1 && m == (1u << mb) - 1)) {
    v = (m || fn_nan) ? tr_bits<float>(0x7fc00000u | (m << (23 - mb))) : tr_bits<float>(0x7f800000u);
  } else if (e == 0) {
    v = (float)((double)m * tr_pow2(1 - bias - mb));
  } else {
    v = (float)((double)((1u << mb) | m) * tr_pow2((int)e - bias - mb));
  }
  return sign ? -v : v;
}
// a*b + c for values of at most 24 significant bits (a*b is exact in double), as a double
// rounded to odd: a following rounding to a narrow format is then the single rounding of
// the exact a*b + c.
TR_INLINE double tr_fma_odd(double a, double b, double c) {
  double p = a * b;
  double s = p + c;
  if (p != p || c != c || __builtin_isinf(p) || __builtin_isinf(c)) return s;
  double bp = s - p, ap = s - bp;
  double err = (p - ap) + (c - bp);
  if (err != 0.0 && s != 0.0) {
    uint64_t sb = tr_bits<uint64_t>(s);
    if ((sb & 1) == 0) s = tr_bits<double>(((err > 0.0) == (s > 0.0)) ? sb + 1 : sb - 1);
  }
  return s;
}

// fp16 (stored as its bit pattern). Branch-free integer / float code that the C++ compiler
// vectorises (GCC 12 does not vectorise _Float16 conversions without AVX512-FP16); the
// well-known scaling formulations, exhaustively checked against correctly rounded
// conversion. NaN: sign and payload kept, made quiet.
TR_INLINE float tr_h2f(uint16_t h) {  // exact
  uint32_t w = (uint32_t)h << 16;
  uint32_t sign = w & 0x80000000u;
  uint32_t two_w = w + w;
  // normals, Inf and NaN: rebias the exponent by +224 and scale by 2^-112
  float normalized = tr_bits<float>((two_w >> 4) + (0xe0u << 23)) * 0x1p-112f;
  // subnormals: the mantissa placed under the exponent of 0.5, minus 0.5
  float denormalized = tr_bits<float>((two_w >> 17) | (126u << 23)) - 0.5f;
  return tr_bits<float>(sign | tr_bits<uint32_t>(two_w < (1u << 27) ? denormalized : normalized));
}
TR_INLINE uint16_t tr_f2h(float f) {  // round to nearest even
  // Scaling by 2^112 then 2^-110 turns overflow into Inf; adding a power of two chosen from
  // the exponent makes the float adder round the dropped bits exactly once.
  float base = (__builtin_fabsf(f) * 0x1p112f) * 0x1p-110f;
  uint32_t w = tr_bits<uint32_t>(f);
  uint32_t shl1_w = w + w;
  uint32_t sign = w & 0x80000000u;
  uint32_t bias = shl1_w & 0xff000000u;
  bias = bias < 0x71000000u ? 0x71000000u : bias;
  base = tr_bits<float>((bias >> 1) + 0x07800000u) + base;
  uint32_t bits = tr_bits<uint32_t>(base);
  uint32_t nonsign = ((bits >> 13) & 0x7c00u) + (bits & 0x0fffu);
  uint32_t nan = 0x7e00u | ((w >> 13) & 0x3ffu);
  return (uint16_t)((sign >> 16) | (shl1_w > 0xff000000u ? nan : nonsign));
}
// n floats rounded to fp16 (RNE), the same bits as tr_f2h element by element: the store
// fast paths write a row of fp32 results to a local array and convert it here. With F16C
// (x86 since 2012) 8 lanes per vcvtps2ph, immediate 0 = round to nearest even, which quiets
// a NaN and keeps its top payload bits exactly as tr_f2h does (checked over all 2^32 floats
// by tests/unit/codegen/cpu/cpu_prelude_test.cpp). The software conversion above costs
// ~14 vector ops per 16 lanes: in the fp16 elementwise kernels it, not memory, was the limit.
static inline void tr_f2h_n(uint16_t* __restrict d, const float* __restrict s, int64_t n) {
  int64_t i = 0;
#if defined(__F16C__) && defined(__AVX__)
  typedef float tr_v8f __attribute__((vector_size(32)));
  typedef short tr_v8s __attribute__((vector_size(16)));
  for (; i + 8 <= n; i += 8) {
    tr_v8f x;
    memcpy(&x, s + i, sizeof x);
    const tr_v8s h = __builtin_ia32_vcvtps2ph256(x, 0);
    memcpy(d + i, &h, sizeof h);
  }
#endif
  for (; i < n; ++i) d[i] = tr_f2h(s[i]);
}
TR_INLINE uint16_t tr_d2h(double d) { return (uint16_t)tr_encode(d, 5, 10, 15, 1, 0, 0x7bff, 0, 0); }
TR_INLINE uint16_t tr_d2h_rtz(double d) { return (uint16_t)tr_encode(d, 5, 10, 15, 1, 0, 0x7bff, 0, 1); }
// bf16 (stored as its bit pattern).
TR_INLINE float tr_bf2f(uint16_t b) {  // NaN comes back quiet
  uint32_t u = (uint32_t)b << 16;
  if ((u & 0x7fffffffu) > 0x7f800000u) u |= 0x00400000u;
  return tr_bits<float>(u);
}
TR_INLINE uint16_t tr_f2bf(float f) {
  uint32_t u = tr_bits<uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
TR_INLINE uint16_t tr_f2bf_rtz(float f) {
  uint32_t u = tr_bits<uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);
  return (uint16_t)(u >> 16);
}
TR_INLINE uint16_t tr_d2bf(double d) { return (uint16_t)tr_encode(d, 8, 7, 127, 1, 0, 0x7f7f, 0, 0); }
TR_INLINE uint16_t tr_d2bf_rtz(double d) { return (uint16_t)tr_encode(d, 8, 7, 127, 1, 0, 0x7f7f, 0, 1); }
// fp64 -> fp32 toward zero.
TR_INLINE float tr_d2f_rtz(double d) {
  float f = (float)d;
  if (f != f || __builtin_isinf(d)) return f;
  if (__builtin_fabs((double)f) > __builtin_fabs(d)) f = __builtin_nextafterf(f, 0.0f);
  return f;
}
// fp8 formats: e4m3fn ("fp8e4nv", bias 7, no inf, NaN 0x7f/0xff), e5m2 ("fp8e5", bias 15,
// IEEE-like), e4m3 with bias 15 ("fp8e4b15", every encoding finite). Downcasts saturate to
// the largest finite value (also for Inf) and turn NaN into 0x7f.
TR_INLINE float tr_e4nv2f(uint8_t b) { return tr_decode(b, 4, 3, 7, 0, 1); }
TR_INLINE float tr_e52f(uint8_t b) { return tr_decode(b, 5, 2, 15, 1, 0); }
TR_INLINE float tr_e4b152f(uint8_t b) { return tr_decode(b, 4, 3, 15, 0, 0); }
TR_INLINE uint8_t tr_d2e4nv(double d, int rtz) { return (uint8_t)tr_encode(d, 4, 3, 7, 0, 1, 0x7e, 0x7f, rtz); }
TR_INLINE uint8_t tr_d2e5(double d, int rtz) { return (uint8_t)tr_encode(d, 5, 2, 15, 1, 1, 0x7b, 0x7f, rtz); }
TR_INLINE uint8_t tr_d2e4b15(double d, int rtz) { return (uint8_t)tr_encode(d, 4, 3, 15, 0, 1, 0x7f, 0x7f, rtz); }

// 64-bit integers to double, rounding to odd (exact below 2^53): a following
// round-to-nearest into a format of <= 51 mantissa bits is then correctly rounded.
TR_INLINE double tr_u64_odd(uint64_t m) {
  if (m < (1ull << 53)) return (double)m;
  int sh = 11 - __builtin_clzll(m);
  uint64_t q = m >> sh;
  if (m & ((1ull << sh) - 1)) q |= 1;
  return (double)q * (double)(1ull << sh);
}
TR_INLINE double tr_i64_odd(int64_t x) {
  return x < 0 ? -tr_u64_odd((uint64_t)0 - (uint64_t)x) : tr_u64_odd((uint64_t)x);
}

// Float to integer: truncate toward zero, saturate to the type's range, NaN -> 0.
template <class T> TR_INLINE T tr_f2i(double x) {
  if (x != x) return (T)0;
  double t = __builtin_trunc(x);
  double lo = (double)tr_limits<T>::min();
  double hi = tr_signed<T>::value ? tr_pow2((int)sizeof(T) * 8 - 1) : tr_pow2((int)sizeof(T) * 8);
  if (t < lo) return tr_limits<T>::min();
  if (t >= hi) return tr_limits<T>::max();
  return (T)t;
}

// True when base + sum_d c_d * [0, n_d - 1] lies within [lo, hi] (exact arithmetic): the
// guard of the contiguous fast paths (no intermediate offset wraps).
TR_INLINE bool tr_aff_in(__int128 lo, __int128 hi, __int128 base, __int128 c0, int64_t n0, __int128 c1, int64_t n1,
                         __int128 c2, int64_t n2, __int128 c3, int64_t n3) {
  __int128 mn = base, mx = base, t;
  t = c0 * (n0 - 1); if (t < 0) mn += t; else mx += t;
  t = c1 * (n1 - 1); if (t < 0) mn += t; else mx += t;
  t = c2 * (n2 - 1); if (t < 0) mn += t; else mx += t;
  t = c3 * (n3 - 1); if (t < 0) mn += t; else mx += t;
  return mn >= lo && mx <= hi;
}

// ---- atomics (sequentially consistent) -----------------------------------------------------
template <class T> TR_INLINE T tr_atomic_xchg(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
template <class T> TR_INLINE T tr_atomic_add(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
template <class T> TR_INLINE T tr_atomic_and(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
template <class T> TR_INLINE T tr_atomic_or(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
template <class T> TR_INLINE T tr_atomic_xor(T* p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }
template <class T> TR_INLINE T tr_atomic_max(T* p, T v) {
  T old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
  while (old < v && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {}
  return old;
}
template <class T> TR_INLINE T tr_atomic_min(T* p, T v) {
  T old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
  while (v < old && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {}
  return old;
}
template <class T> TR_INLINE T tr_atomic_cas(T* p, T cmp, T v) {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return cmp;
}
// Replaces *p by update(*p) atomically (compare-and-swap loop on the bit pattern B);
// returns the old bits.
template <class B, class FN> TR_INLINE B tr_atomic_update(B* p, FN update) {
  B old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
  while (!__atomic_compare_exchange_n(p, &old, update(old), false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {}
  return old;
}
// ---- end of prelude ------------------------------------------------------------------------
)TRPRELUDE";
}

}  // namespace tritium::codegen::cpu
