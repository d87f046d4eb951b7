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
// the next program starts with a cold row. tritium_run keeps, per rank-1 load at the
// kernel's top level ("site"), the row the previous program read; a program that reads its
// row at `r` predicts the next program's at r + (r - previous), as a stride prefetcher does,
// and queues it (the note is emitted just before the program's first compute loop). The
// strip-mined compute loops (loop_nest) then prefetch one line of the queue per 16
// elements, so the next rows arrive while this program computes.
// Prefetches are hints: a wrong prediction costs bandwidth, never a fault or a value.
typedef struct tr_pf {
  uintptr_t last[8];            // per site: the row the previous program read (0: none yet)
  uintptr_t cur[8], end[8];     // this program's queue of predicted rows
  int n, i;                     // queue length, the entry being prefetched
} tr_pf;
TR_INLINE void tr_pf_note(tr_pf* pf, int site, const void* row, int64_t bytes) {
  const uintptr_t r = (uintptr_t)row, prev = pf->last[site];
  if (r == 0) return;  // the load took its general path: no row
  pf->last[site] = r;
  if (prev == 0 || prev == r || pf->n == 8) return;
  const uintptr_t next = r + (r - prev);
  pf->cur[pf->n] = next & ~(uintptr_t)63;
  pf->end[pf->n] = next + (uintptr_t)bytes;
  ++pf->n;
}
TR_INLINE void tr_pf_step(tr_pf* pf) {
  if (pf->i >= pf->n) return;
  __builtin_prefetch((const void*)pf->cur[pf->i]);
  pf->cur[pf->i] += 64;
  if (pf->cur[pf->i] >= pf->end[pf->i]) ++pf->i;
}
// tr_f2h_n with streaming stores: the same bits, converted 512 at a time into a local chunk.
static inline void tr_f2h_n_stream(uint16_t* d, const float* __restrict s, int64_t n) {
  alignas(64) uint16_t buf[512];
  for (int64_t c = 0; c < n; c += 512) {
    const int64_t m = n - c < 512 ? n - c : 512;
    tr_f2h_n(buf, s + c, m);
    tr_stream_n(d + c, buf, m * (int64_t)sizeof(uint16_t));
  }
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
