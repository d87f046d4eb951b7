// The runtime header embedded at the top of every generated CPU translation unit. It has
// no includes beyond two C headers, declares the libm functions it uses, embeds the scalar
// prelude (codegen/scalar_prelude.h: the exact numerics of every op the renderer lowers to
// a helper, shared with the CUDA renderer) and adds what only the CPU needs: bulk fp16
// conversions, streaming stores, next-program prefetch, fast-path guards and atomics.
// These definitions mirror the reference interpreter (src/interp/) bit for bit.
#include <string>

#include "codegen/cpu/cpu_codegen.h"
#include "codegen/scalar_prelude.h"

namespace tritium::codegen::cpu {

const char* cpu_prelude() {
  // Built once; the kernel cache key hashes the whole generated source, prelude included,
  // so a change of either text never reuses an old compiled kernel.
  static const std::string text = std::string(R"TRPRELUDE(// ---- tritium cpu prelude -------------------------------------------------------
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
#if defined(__APPLE__)  // Apple's libm names them __exp10f / __exp10
float __exp10f(float) noexcept; double __exp10(double) noexcept;
#define exp10f __exp10f
#define exp10 __exp10
#else
float exp10f(float) noexcept; double exp10(double) noexcept;
#endif
float log10f(float) noexcept; double log10(double) noexcept;
float cbrtf(float) noexcept; double cbrt(double) noexcept;
float hypotf(float, float) noexcept; double hypot(double, double) noexcept;
float copysignf(float, float) noexcept; double copysign(double, double) noexcept;
float fmodf(float, float) noexcept; double fmod(double, double) noexcept;
}

typedef union tritium_arg { void* ptr; int64_t i64; uint64_t u64; double f64; float f32; } tritium_arg;
typedef struct tritium_bounds { const void* base; uint64_t bytes; } tritium_bounds;
typedef struct tritium_host {
  void (*print)(const char* line);
  void (*assert_fail)(const char* message, const char* file, int line, const char* func, int64_t pid_x,
                      int64_t pid_y, int64_t pid_z);
  int64_t stream_min_bytes;
  const tritium_bounds* bounds;
} tritium_host;

#define TR_INLINE static inline __attribute__((always_inline))
#define TR_SLOW static __attribute__((noinline, const))  // large, pure, off the fast paths

)TRPRELUDE") + sanitize_prelude_text() + scalar_prelude_text() + R"TRPRELUDE(// n floats rounded to fp16 (RNE), the same bits as tr_f2h element by element: the store
// fast paths write a row of fp32 results to a local array and convert it here. With F16C
// (x86 since 2012) 8 lanes per vcvtps2ph, immediate 0 = round to nearest even, which quiets
// a NaN and keeps its top payload bits exactly as tr_f2h does (checked over all 2^32 floats
// by tests/unit/codegen/cpu/cpu_prelude_test.cpp). The software conversion above costs
// ~14 vector ops per 16 lanes: in the fp16 elementwise kernels it, not memory, was the limit.
// The empty asm keeps each result in a register until a plain vector store: GCC otherwise
// folds the store into vcvtps2ph's memory form, which on AMD Zen 4 took 2.4x as long per
// element as the register form plus a store (0.072 vs 0.030 ns, 256 floats in L1).
static inline void tr_f2h_n(uint16_t* __restrict d, const float* __restrict s, int64_t n) {
  int64_t i = 0;
#if defined(__AVX512F__)
  typedef float tr_v16f __attribute__((vector_size(64)));
  typedef short tr_v16s __attribute__((vector_size(32)));
  for (; i + 16 <= n; i += 16) {
    tr_v16f x;
    memcpy(&x, s + i, sizeof x);
    tr_v16s h = __builtin_ia32_vcvtps2ph512_mask(x, 0, (tr_v16s){}, (unsigned short)0xffff);
    __asm__("" : "+v"(h));
    memcpy(d + i, &h, sizeof h);
  }
#endif
#if defined(__F16C__) && defined(__AVX__)
  typedef float tr_v8f __attribute__((vector_size(32)));
  typedef short tr_v8s __attribute__((vector_size(16)));
  for (; i + 8 <= n; i += 8) {
    tr_v8f x;
    memcpy(&x, s + i, sizeof x);
    tr_v8s h = __builtin_ia32_vcvtps2ph256(x, 0);
    __asm__("" : "+x"(h));
    memcpy(d + i, &h, sizeof h);
  }
#endif
  for (; i < n; ++i) d[i] = tr_f2h(s[i]);
}
// n floats rounded to bf16 (RNE), the same bits as tr_f2bf element by element: the bf16
// store fast paths convert their fp32 results here, a chunk at a time. With AVX512-BF16 32
// lanes per vcvtne2ps2bf16, which rounds to nearest even and quiets a NaN keeping its top
// payload bits exactly as tr_f2bf does, but flushes subnormal inputs to zero: a group of 32
// holding a subnormal (vfpclassps, class 0x20) takes the scalar path. Checked over all 2^32
// floats by tests/unit/codegen/cpu/cpu_prelude_test.cpp. tr_f2bf vectorized costs ~11
// vector ops per 16 lanes (masks, the rounding bias, a two-source pack), this one ~2.
static inline void tr_f2bf_n(uint16_t* __restrict d, const float* __restrict s, int64_t n) {
  int64_t i = 0;
#if defined(__AVX512BF16__) && defined(__AVX512DQ__)
  typedef float tr_v16f __attribute__((vector_size(64)));
  typedef short tr_v32s __attribute__((vector_size(64)));
  for (; i + 32 <= n; i += 32) {
    tr_v16f lo, hi;
    memcpy(&lo, s + i, sizeof lo);
    memcpy(&hi, s + i + 16, sizeof hi);
    if (__builtin_ia32_fpclassps512_mask(lo, 0x20, (unsigned short)0xffff) |
        __builtin_ia32_fpclassps512_mask(hi, 0x20, (unsigned short)0xffff)) {
      for (int64_t k = i; k < i + 32; ++k) d[k] = tr_f2bf(s[k]);
      continue;
    }
    tr_v32s r;
    __asm__("vcvtne2ps2bf16 %2, %1, %0" : "=v"(r) : "v"(hi), "v"(lo));  // lanes 0-15 from lo
    memcpy(d + i, &r, sizeof r);
  }
#endif
  for (; i < n; ++i) d[i] = tr_f2bf(s[i]);
}
// n fp16 values decoded to floats, the same bits as tr_h2f element by element (exact; NaN
// quiet with its payload kept): the renderer fills an fp16 load's "decoded twin" with it
// when the load's value is used as a number (Emitter::decoded), so consumers read floats.
// With F16C 8 lanes per vcvtph2ps (16 with AVX-512F); checked over all 65,536 encodings by
// tests/unit/codegen/cpu/cpu_prelude_test.cpp. tr_h2f costs ~10 vector ops per 16 lanes.
static inline void tr_h2f_n(float* __restrict d, const uint16_t* __restrict s, int64_t n) {
  int64_t i = 0;
#if defined(__AVX512F__)
  typedef float tr_v16f __attribute__((vector_size(64)));
  typedef short tr_v16s __attribute__((vector_size(32)));
  for (; i + 16 <= n; i += 16) {
    tr_v16s h;
    memcpy(&h, s + i, sizeof h);
    const tr_v16f x = __builtin_ia32_vcvtph2ps512_mask(h, (tr_v16f){}, (unsigned short)0xffff, 4);
    memcpy(d + i, &x, sizeof x);
  }
#endif
#if defined(__F16C__) && defined(__AVX__)
  typedef float tr_v8f __attribute__((vector_size(32)));
  typedef short tr_v8s __attribute__((vector_size(16)));
  for (; i + 8 <= n; i += 8) {
    tr_v8s h;
    memcpy(&h, s + i, sizeof h);
    const tr_v8f x = __builtin_ia32_vcvtph2ps256(h);
    memcpy(d + i, &x, sizeof x);
  }
#endif
  for (; i < n; ++i) d[i] = tr_h2f(s[i]);
}
// ---- streaming stores ------------------------------------------------------------------------
// A launch that writes more than the caches hold gains from non-temporal stores: they skip
// the read-for-ownership of each destination line (a third of the traffic of a streaming
// kernel) and do not evict the inputs. The store fast path decides per store op and launch
// (host->stream_min_bytes, set by the runtime: -1 never, else the estimated bytes the
// launch's programs write through that op must reach it), computes the row in chunks of
// 1 KiB into an L1-resident buffer and hands each chunk to tr_stream_n: whole aligned
// 64-byte lines go out with movntdq, the ragged head and tail with ordinary stores. The
// values written are the same; only the cache policy differs. Non-temporal stores are
// weakly ordered, so tritium_run ends with tr_stream_fence (sfence) before the runtime
// sees its programs finish. Elsewhere than x86-64 the chunks are copied (TR_STREAM 0).
#if defined(__x86_64__) && defined(__SSE2__)
#define TR_STREAM 1
#else
#define TR_STREAM 0
#endif
TR_INLINE void tr_stream_n(void* __restrict dst, const void* __restrict src, int64_t bytes) {
  char* d = (char*)dst;
  const char* s = (const char*)src;
#if TR_STREAM
  int64_t head = (int64_t)((64 - ((uintptr_t)d & 63)) & 63);
  if (head > bytes) head = bytes;
  memcpy(d, s, (size_t)head);
  d += head, s += head, bytes -= head;
  for (; bytes >= 64; bytes -= 64, d += 64, s += 64) {
#if defined(__AVX512F__)
    typedef long long tr_v8l __attribute__((vector_size(64)));
    tr_v8l x;
    memcpy(&x, s, 64);
    __builtin_ia32_movntdq512((tr_v8l*)d, x);
#elif defined(__AVX__)
    typedef long long tr_v4l __attribute__((vector_size(32)));
    tr_v4l x0, x1;
    memcpy(&x0, s, 32);
    memcpy(&x1, s + 32, 32);
    __builtin_ia32_movntdq256((tr_v4l*)d, x0);
    __builtin_ia32_movntdq256((tr_v4l*)(d + 32), x1);
#else
    typedef long long tr_v2l __attribute__((vector_size(16)));
    for (int k = 0; k < 64; k += 16) {
      tr_v2l x;
      memcpy(&x, s + k, 16);
      __builtin_ia32_movntdq((tr_v2l*)(d + k), x);
    }
#endif
  }
#endif
  memcpy(d, s, (size_t)bytes);
}
TR_INLINE void tr_stream_fence() {
#if TR_STREAM
  __builtin_ia32_sfence();
#endif
}
// ---- prefetching the next program's rows ------------------------------------------------------
// A program that reads a row from memory and then computes on it (softmax: a reduction, an
// exp per element, a second reduction) leaves the memory system idle while it computes, and
// the next program starts with a cold row. tritium_run keeps, per rank-1 load ("site"), the
// row the site read first in the previous program; when a program's first row at that site
// is `r`, the program stride is r - previous, as a stride prefetcher finds it. Every row the
// site then reads in this program, at any loop depth, predicts the next program's row at
// row + stride and queues it (tr_pf_note, emitted by the load). The strip-mined compute
// loops (loop_nest, and the value loops of row stores) prefetch one line of the queue per 16
// elements (in strips of up to 256), so the next program's rows arrive while this program computes: memory and
// arithmetic overlap, which the hardware prefetchers (that stop at 4 KiB pages) leave to
// chance. Measured on the 2-core CI-class VM (docs/perf/2026-12-05-cpu-prefetch.md).
// Prefetches are hints: a wrong prediction costs bandwidth, never a fault or a value.
typedef struct tr_pf {
  uintptr_t first[8];           // per site: the first row it read in the previous program (0: none)
  intptr_t stride[8];           // per site: this program's first row minus that (0: no prediction)
  uintptr_t cur[8], end[8];     // ring of predicted rows: entries i .. n-1 (mod 8) still to fetch
  uint32_t seen;                // sites that have read a row in this program
  int n, i;                     // rows queued / rows done in this program
} tr_pf;
TR_INLINE void tr_pf_note(tr_pf* pf, int site, const void* row, int64_t bytes) {
  const uintptr_t r = (uintptr_t)row;
  if (!(pf->seen & (1u << site))) {
    pf->seen |= 1u << site;
    const uintptr_t prev = pf->first[site];
    pf->first[site] = r;
    pf->stride[site] = prev ? (intptr_t)(r - prev) : 0;
  }
  if (pf->stride[site] == 0 || pf->n - pf->i == 8) return;  // the same row each program, or full
  const uintptr_t next = r + (uintptr_t)pf->stride[site], stop = next + (uintptr_t)bytes;
  for (int k = pf->i; k < pf->n; ++k)
    if (pf->end[k & 7] == stop) return;  // another site (or pass) already queued this row
  pf->cur[pf->n & 7] = next & ~(uintptr_t)63;
  pf->end[pf->n & 7] = stop;
  ++pf->n;
}
// Prefetches the next `lines` lines of the queue (compute loops call it once per strip of
// 16 * lines elements, outside the vectorized inner loop).
// Unrolled on purpose (a strip asks for at most 16 lines): the kernel flags' peeling limit
// (runtime/cpu/compiler.cpp) would otherwise leave a loop here, measured ~6 % slower on
// SwiGLU-rows bf16.
TR_INLINE void tr_pf_step(tr_pf* pf, int lines) {
#pragma GCC unroll 16
  for (; lines > 0 && pf->i != pf->n; --lines) {
    const int k = pf->i & 7;
    __builtin_prefetch((const void*)pf->cur[k]);
    pf->cur[k] += 64;
    if (pf->cur[k] >= pf->end[k]) ++pf->i;
  }
}
// tr_f2h_n / tr_f2bf_n with streaming stores: the same bits, converted 512 at a time into a
// local chunk (`conv` is one of the two; inlined).
TR_INLINE void tr_f2x_n_stream(uint16_t* d, const float* __restrict s, int64_t n,
                               void (*conv)(uint16_t* __restrict, const float* __restrict, int64_t)) {
  alignas(64) uint16_t buf[512];
  for (int64_t c = 0; c < n; c += 512) {
    const int64_t m = n - c < 512 ? n - c : 512;
    conv(buf, s + c, m);
    tr_stream_n(d + c, buf, m * (int64_t)sizeof(uint16_t));
  }
}
static inline void tr_f2h_n_stream(uint16_t* d, const float* __restrict s, int64_t n) { tr_f2x_n_stream(d, s, n, tr_f2h_n); }
static inline void tr_f2bf_n_stream(uint16_t* d, const float* __restrict s, int64_t n) { tr_f2x_n_stream(d, s, n, tr_f2bf_n); }
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

// True when the byte ranges [a, a + an) and [b, b + bn) intersect: a store about to write
// [b, b + bn) first copies a load that is read in place from [a, a + an).
TR_INLINE bool tr_overlap(const void* a, int64_t an, const void* b, int64_t bn) {
  const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
  return bn > 0 && x < y + (uintptr_t)bn && y < x + (uintptr_t)an;
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
)TRPRELUDE" +
      "// ---- end of prelude ------------------------------------------------------------------------\n";
  return text.c_str();
}

}  // namespace tritium::codegen::cpu
