// msl-emu's two texts (see msl_emu.h): the emulated <metal_stdlib> and the launcher.
#include "codegen/metal/msl_emu.h"

#include <fmt/format.h>

#include "codegen/c_expr.h"
#include "ir/dtype.h"

namespace tritium::codegen {
namespace {

const char* const kStdlib = R"TREMU(// ---- msl-emu: <metal_stdlib> for the C++ compiler ---------------------------------------
// What an MSL program of tritium's uses of Metal, in C++ (codegen/metal/msl_emu.h).
#pragma once
#define TR_EMU_STACK {STACK}
#define TR_EMU_HEADER {HEADER}
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#if defined(__APPLE__) && !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700  // macOS declares the ucontext functions only then
#endif
#include <ucontext.h>
#define __METAL_VERSION__ 310
#define TR_MSL_EMU 1
#define kernel
#define device
#define constant const
#define thread
#define threadgroup
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
static_assert(sizeof(ulong) == 8 && sizeof(long) == 8, "msl-emu needs an LP64 host (Metal's long is 64-bit)");
extern "C" {
float sinf(float) noexcept; float cosf(float) noexcept; float tanf(float) noexcept;
float asinf(float) noexcept; float acosf(float) noexcept; float atanf(float) noexcept;
float atan2f(float, float) noexcept; float sinhf(float) noexcept; float coshf(float) noexcept;
float tanhf(float) noexcept; float powf(float, float) noexcept; float exp10f(float) noexcept;
float log10f(float) noexcept; float expf(float) noexcept; float exp2f(float) noexcept;
float logf(float) noexcept; float log2f(float) noexcept; float fmodf(float, float) noexcept;
}
namespace tr_emu {
// ---- threadgroups of many threads: one fiber per thread ------------------------------------
// A threadgroup runs on one host thread: each of its n threads is a fiber with its own stack,
// started in thread order; a fiber runs until it waits at a barrier or returns, then the next
// runnable one runs. threadgroup_barrier waits until all n threads have arrived (a
// generation count per barrier); simd_shuffle_xor exchanges values through the simdgroup's
// slots between two waits for the simdgroup's 32 threads. A round over all fibers in which
// none can run means some thread waits at a barrier the others never reach (undefined
// behaviour on Metal): the launch fails. Fibers switch with a few instructions on x86-64
// (callee-saved registers and the stack pointer, as the SysV ABI defines them), through
// ucontext elsewhere.
// The fibers' memory is the launcher's arena (msl_emu.h, kMslEmuArena*): this struct at its
// start, then kMaxThreads stacks of kStack bytes, each with a guard page at its bottom.
enum { kStack = TR_EMU_STACK, kMaxThreads = 1024, kHeader = TR_EMU_HEADER };
struct Group {
  int n = 0, cur = 0, alive = 0;
  unsigned tg_gen = 0;
  int tg_arrived = 0;
  unsigned simd_gen[kMaxThreads / 32];
  int simd_arrived[kMaxThreads / 32];
  uint64_t slot[kMaxThreads];
  unsigned char done[kMaxThreads];
  unsigned char wait_kind[kMaxThreads];  // 0 runnable, 1 threadgroup barrier, 2 simdgroup barrier
  unsigned wait_gen[kMaxThreads];
  unsigned char* stacks = nullptr;
  void (*run)(void*, unsigned) = nullptr;
  void* arg = nullptr;
#if defined(__x86_64__) && defined(__ELF__)
  void* sched_sp = nullptr;
  void* sp[kMaxThreads];
#else
  ucontext_t sched;
  ucontext_t* ctx = nullptr;
#endif
};
inline Group*& current() {
  static thread_local Group* g = nullptr;
  return g;
}
#if defined(__x86_64__) && defined(__ELF__)
// tr_emu_switch(save, to): pushes the callee-saved registers, stores the stack pointer in
// *save, loads `to` and pops the registers saved there.
extern "C" void tr_emu_switch(void** save, void* to);
asm(".text\n"
    ".p2align 4\n"
    ".hidden tr_emu_switch\n"
    ".globl tr_emu_switch\n"
    ".type tr_emu_switch,@function\n"
    "tr_emu_switch:\n"
    "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
    "  subq $8, %rsp\n  stmxcsr (%rsp)\n  fnstcw 4(%rsp)\n"
    "  movq %rsp, (%rdi)\n"
    "  movq %rsi, %rsp\n"
    "  ldmxcsr (%rsp)\n  fldcw 4(%rsp)\n  addq $8, %rsp\n"
    "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
    "  ret\n"
    ".size tr_emu_switch, .-tr_emu_switch\n");
#endif
inline void yield_to_scheduler() {
  Group* g = current();
#if defined(__x86_64__) && defined(__ELF__)
  tr_emu_switch(&g->sp[g->cur], g->sched_sp);
#else
  swapcontext(&g->ctx[g->cur], &g->sched);
#endif
}
inline void tg_barrier() {
  Group* g = current();
  if (!g) return;  // one thread per threadgroup: nothing to wait for
  if (++g->tg_arrived == g->n) {
    g->tg_arrived = 0;
    ++g->tg_gen;
    return;
  }
  g->wait_kind[g->cur] = 1;
  g->wait_gen[g->cur] = g->tg_gen;
  yield_to_scheduler();
}
inline void simd_barrier() {
  Group* g = current();
  const int s = g->cur >> 5, width = g->n < 32 ? g->n : 32;
  if (++g->simd_arrived[s] == width) {
    g->simd_arrived[s] = 0;
    ++g->simd_gen[s];
    return;
  }
  g->wait_kind[g->cur] = 2;
  g->wait_gen[g->cur] = g->simd_gen[s];
  yield_to_scheduler();
}
inline uint64_t simd_exchange(uint64_t v, unsigned lane_mask) {
  Group* g = current();
  if (!g) return v;  // a single thread: its own value
  const int me = g->cur;
  g->slot[me] = v;
  simd_barrier();
  const int from = (me & ~31) | ((me & 31) ^ (int)(lane_mask & 31));
  const uint64_t r = from < g->n ? g->slot[from] : v;
  simd_barrier();
  return r;
}
inline void fiber_main() {
  Group* g = current();
  const int me = g->cur;
  g->run(g->arg, (unsigned)me);
  g->done[me] = 1;
  --g->alive;
#if defined(__x86_64__) && defined(__ELF__)
  tr_emu_switch(&g->sp[me], g->sched_sp);  // never resumed
  __builtin_trap();
#endif
}
// Runs one threadgroup of n threads in `arena`, thread t calling run(arg, t); 0, or 1 on a
// barrier some threads never reach.
inline int run_group(void* arena, int n, void (*run)(void*, unsigned), void* arg) {
  static_assert(sizeof(Group) <= kHeader, "the fiber group does not fit the arena's header");
  Group* g = (Group*)arena;
  g->stacks = (unsigned char*)arena + kHeader;
#if !(defined(__x86_64__) && defined(__ELF__))
  static thread_local ucontext_t ctx[kMaxThreads];
  g->ctx = ctx;
#endif
  g->n = n, g->alive = n, g->tg_gen = 0, g->tg_arrived = 0, g->run = run, g->arg = arg;
  memset(g->simd_gen, 0, sizeof g->simd_gen);
  memset(g->simd_arrived, 0, sizeof g->simd_arrived);
  memset(g->done, 0, sizeof g->done);
  memset(g->wait_kind, 0, sizeof g->wait_kind);
  for (int t = 0; t < n; ++t) {
    unsigned char* top = g->stacks + (size_t)(t + 1) * kStack;  // 16-byte aligned
#if defined(__x86_64__) && defined(__ELF__)
    // The frame tr_emu_switch pops: mxcsr / x87 control word, six registers, then the
    // return address fiber_main (entered with the stack 8 mod 16, as after a call).
    uint64_t* f = (uint64_t*)top - 2;
    f[1] = 0;
    f[0] = (uint64_t)(uintptr_t)&fiber_main;
    f -= 6;
    for (int k = 0; k < 6; ++k) f[k] = 0;
    f -= 1;
    uint32_t csr[2];
    __asm__ volatile("stmxcsr %0\n fnstcw %1" : "=m"(csr[0]), "=m"(csr[1]));
    memcpy(f, csr, 8);
    g->sp[t] = f;
#else
    getcontext(&g->ctx[t]);
    g->ctx[t].uc_stack.ss_sp = top - kStack;
    g->ctx[t].uc_stack.ss_size = kStack;
    g->ctx[t].uc_link = &g->sched;
    makecontext(&g->ctx[t], fiber_main, 0);
#endif
  }
  current() = g;
  int failed = 0;
  while (g->alive > 0) {
    bool ran = false;
    for (int t = 0; t < n; ++t) {
      if (g->done[t]) continue;
      if (g->wait_kind[t] == 1 && g->tg_gen == g->wait_gen[t]) continue;
      if (g->wait_kind[t] == 2 && g->simd_gen[t >> 5] == g->wait_gen[t]) continue;
      g->wait_kind[t] = 0;
      g->cur = t;
      ran = true;
#if defined(__x86_64__) && defined(__ELF__)
      tr_emu_switch(&g->sched_sp, g->sp[t]);
#else
      swapcontext(&g->sched, &g->ctx[t]);
#endif
    }
    if (!ran) {
      failed = 1;
      break;
    }
  }
  current() = nullptr;
  return failed;
}
}  // namespace tr_emu
namespace metal {
struct uint3 { uint x, y, z; };
struct alignas(8) uint2 {
  uint x, y;
  uint2() = default;
  uint2(uint a, uint b) : x(a), y(b) {}
};
struct alignas(16) uint4 {
  uint x, y, z, w;
  uint4() = default;
  uint4(uint a, uint b, uint c, uint d) : x(a), y(b), z(c), w(d) {}
};
template <class T> struct tr_is_ptr { enum { value = 0 }; };
template <class T> struct tr_is_ptr<T*> { enum { value = 1 }; };
template <class T> struct tr_is_ptr<T* const> { enum { value = 1 }; };
template <class T, class F> inline T as_type(F x) {
  static_assert(sizeof(T) == sizeof(F), "as_type between types of different sizes");
  static_assert(!tr_is_ptr<T>::value && !tr_is_ptr<F>::value, "as_type on a pointer (Metal has no such cast)");
  return __builtin_bit_cast(T, x);
}
// Correctly rounded or exact (Metal without fast math).
inline float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
inline float sqrt(float x) { return __builtin_sqrtf(x); }
inline float trunc(float x) { return __builtin_truncf(x); }
inline float fabs(float x) { return __builtin_fabsf(x); }
inline float floor(float x) { return __builtin_floorf(x); }
inline float ceil(float x) { return __builtin_ceilf(x); }
inline float rint(float x) { return __builtin_rintf(x); }
inline float round(float x) { return __builtin_roundf(x); }
inline float copysign(float x, float y) { return __builtin_copysignf(x, y); }
inline float fmod(float x, float y) { return fmodf(x, y); }
inline bool isinf(float x) { return __builtin_isinf(x); }
inline bool signbit(float x) { return __builtin_signbit(x); }
// Through the C library (Metal's library is another libm: results may differ by an ulp).
inline float sin(float x) { return sinf(x); }
inline float cos(float x) { return cosf(x); }
inline float tan(float x) { return tanf(x); }
inline float asin(float x) { return asinf(x); }
inline float acos(float x) { return acosf(x); }
inline float atan(float x) { return atanf(x); }
inline float atan2(float y, float x) { return atan2f(y, x); }
inline float sinh(float x) { return sinhf(x); }
inline float cosh(float x) { return coshf(x); }
inline float tanh(float x) { return tanhf(x); }
inline float pow(float x, float y) { return powf(x, y); }
inline float exp10(float x) { return exp10f(x); }
inline float log10(float x) { return log10f(x); }
inline float exp(float x) { return expf(x); }
inline float exp2(float x) { return exp2f(x); }
inline float log(float x) { return logf(x); }
inline float log2(float x) { return log2f(x); }
// Integers.
inline uint clz(uint x) { return x ? (uint)__builtin_clz(x) : 32u; }
inline ulong clz(ulong x) { return x ? (ulong)__builtin_clzl(x) : 64ul; }
inline uint popcount(uint x) { return (uint)__builtin_popcount(x); }
inline ulong popcount(ulong x) { return (ulong)__builtin_popcountl(x); }
inline ulong mulhi(ulong a, ulong b) { return (ulong)(((unsigned __int128)a * b) >> 64); }
// Device atomics (the run-time failure word; tl.atomic_* through compare-and-swap) and the
// device-memory fence.
struct atomic_uint { uint v; };
enum memory_order { memory_order_relaxed, memory_order_seq_cst };
enum thread_scope { thread_scope_thread, thread_scope_simdgroup, thread_scope_threadgroup, thread_scope_device };
enum class mem_flags { mem_none = 0, mem_device = 1, mem_threadgroup = 2, mem_texture = 4 };
constexpr mem_flags operator|(mem_flags a, mem_flags b) { return (mem_flags)((int)a | (int)b); }
// Threadgroup barriers and simdgroup shuffles among the fibers of tr_emu::run_group.
inline void threadgroup_barrier(mem_flags) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  tr_emu::tg_barrier();
}
inline uint simd_shuffle_xor(uint v, ushort mask) { return (uint)tr_emu::simd_exchange(v, mask); }
// Simdgroup matrices (the 8x8 fp32 ones tl.dot uses in native numerics): each thread of
// the simdgroup holds the whole matrix (Metal spreads it over the 32 lanes; the operations
// are collective, so every lane computes the same); multiply-accumulate as an fma chain
// over k ascending per element (the hardware's order is its own).
struct simdgroup_float8x8 {
  float v[64];
};
inline void simdgroup_load(simdgroup_float8x8& d, const float* src, ulong elements_per_row = 8) {
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) d.v[i * 8 + j] = src[(ulong)i * elements_per_row + (ulong)j];
}
inline void simdgroup_store(const simdgroup_float8x8& a, float* dst, ulong elements_per_row = 8) {
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) dst[(ulong)i * elements_per_row + (ulong)j] = a.v[i * 8 + j];
}
inline void simdgroup_multiply_accumulate(simdgroup_float8x8& d, const simdgroup_float8x8& a,
                                          const simdgroup_float8x8& b, const simdgroup_float8x8& c) {
  simdgroup_float8x8 r;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      float s = c.v[i * 8 + j];
      for (int k = 0; k < 8; ++k) s = __builtin_fmaf(a.v[i * 8 + k], b.v[k * 8 + j], s);
      r.v[i * 8 + j] = s;
    }
  d = r;
}
// Threadgroup atomics (tl.histogram's bins): a threadgroup's fibers share one host thread.
struct atomic_int { int v; };
inline int atomic_fetch_add_explicit(atomic_int* a, int v, memory_order) {
  const int o = a->v;
  a->v = (int)((unsigned)o + (unsigned)v);
  return o;
}
inline void atomic_thread_fence(mem_flags, memory_order, thread_scope) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline uint atomic_load_explicit(atomic_uint* a, memory_order) { return __atomic_load_n(&a->v, __ATOMIC_RELAXED); }
inline bool atomic_compare_exchange_weak_explicit(atomic_uint* a, uint* expected, uint desired, memory_order,
                                                  memory_order) {
  return __atomic_compare_exchange_n(&a->v, expected, desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}
inline uint atomic_fetch_min_explicit(atomic_uint* a, uint v, memory_order) {
  uint old = __atomic_load_n(&a->v, __ATOMIC_RELAXED);
  while (v < old && !__atomic_compare_exchange_n(&a->v, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}
}  // namespace metal
// Metal has neither: a program that uses one fails here as it would on Metal.
#pragma GCC poison double __int128
)TREMU";

}  // namespace

const char* msl_emu_stdlib() {
  static const std::string text = [] {
    std::string t = kStdlib;
    auto put = [&t](const char* key, size_t v) { t.replace(t.find(key), std::string(key).size(), std::to_string(v)); };
    put("{STACK}", kMslEmuStackBytes);
    put("{HEADER}", kMslEmuArenaHeaderBytes);
    return t;
  }();
  return text.c_str();
}

std::string msl_emu_driver(const std::vector<ir::Type>& params, size_t nsites, int threads, int64_t threadgroup_bytes,
                           bool sanitize) {
  std::string bind, call;
  for (size_t k = 0; k < params.size(); ++k) {
    const ir::Type& t = params[k];
    const std::string ct = CExpr::ctype(t);
    std::string v;
    if (t.is_ptr) v = fmt::format("({})args[{}].ptr", ct, k);
    else if (t.scalar == ir::ScalarType::F32) v = fmt::format("args[{}].f32", k);
    else if (t.scalar == ir::ScalarType::I1) v = fmt::format("(uchar)(args[{}].u64 != 0)", k);
    else if (ir::is_signed_int(t.scalar) && !ir::is_float(t.scalar)) v = fmt::format("({})args[{}].i64", ct, k);
    else v = fmt::format("({})args[{}].u64", ct, k);
    const std::string decl = t.is_ptr ? ct + " const" : t.scalar == ir::ScalarType::I1 ? "const uchar" : "const " + ct;
    bind += fmt::format("  {} b{} = {};\n", decl, k, v);
    call += fmt::format("b{}, ", k);
  }
  if (nsites) call += "(metal::atomic_uint*)status, ";
  std::string head = fmt::format(
      "\n// ---- msl-emu launcher (not part of the MSL program) ----\n"
      "typedef union tritium_arg {{ void* ptr; int64_t i64; uint64_t u64; float f32; }} tritium_arg;\n");
  if (sanitize)
    head += "extern \"C\" __attribute__((visibility(\"default\"))) void tritium_msl_sanitize(const tritium_host* h) "
            "{ tr_san_host = *h; }\n";
  const std::string entry =
      "extern \"C\" __attribute__((visibility(\"default\"))) int tritium_msl_run(const tritium_arg* args, "
      "const int32_t grid[3], int64_t first, int64_t end, uint32_t* status, void* arena) {\n"
      "  (void)args; (void)status; (void)arena;\n";
  if (threads <= 1)
    return head + entry +
           fmt::format("{}"
                       "  const metal::uint3 n = {{(uint)grid[0], (uint)grid[1], (uint)grid[2]}};\n"
                       "  for (int64_t p = first; p < end; ++p) {{\n"
                       "    const int64_t rest = p / grid[0];\n"
                       "    const metal::uint3 id = {{(uint)(p % grid[0]), (uint)(rest % grid[1]), (uint)(rest / grid[1])}};\n"
                       "    tritium_kernel({}id, n);\n"
                       "  }}\n"
                       "  return 0;\n"
                       "}}\n",
                       bind, call);
  // The threadgroup shape: one group of fibers per program (tr_emu::run_group), its
  // threadgroup memory filled with a pattern first (Metal leaves it undefined: a read before
  // a write shows).
  return head +
         fmt::format("struct tr_launch {{ const tritium_arg* args; uint32_t* status; uchar* smem; metal::uint3 id, n; }};\n"
                     "static void tr_thread(void* p, unsigned tid) {{\n"
                     "  const tr_launch* L = (const tr_launch*)p;\n"
                     "  const tritium_arg* args = L->args;\n"
                     "  uint32_t* status = L->status;\n"
                     "  (void)args; (void)status;\n"
                     "{}"
                     "  tritium_kernel({}L->smem, L->id, L->n, tid);\n"
                     "}}\n",
                     bind, call) +
         entry +
         fmt::format("  alignas(16) static thread_local uchar smem[{0}];\n"
                     "  tr_launch L = {{args, status, smem, {{0, 0, 0}}, {{(uint)grid[0], (uint)grid[1], (uint)grid[2]}}}};\n"
                     "  for (int64_t p = first; p < end; ++p) {{\n"
                     "    const int64_t rest = p / grid[0];\n"
                     "    L.id = metal::uint3{{(uint)(p % grid[0]), (uint)(rest % grid[1]), (uint)(rest / grid[1])}};\n"
                     "    memset(smem, 0xa5, sizeof smem);\n"
                     "    if (tr_emu::run_group(arena, {1}, tr_thread, &L)) return 1;\n"
                     "  }}\n"
                     "  return 0;\n"
                     "}}\n",
                     threadgroup_bytes, threads);
}

}  // namespace tritium::codegen
