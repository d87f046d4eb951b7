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
#include <stdint.h>
#define __METAL_VERSION__ 310
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
namespace metal {
struct uint3 { uint x, y, z; };
template <class T, class F> inline T as_type(F x) {
  static_assert(sizeof(T) == sizeof(F), "as_type between types of different sizes");
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

const char* msl_emu_stdlib() { return kStdlib; }

std::string msl_emu_driver(const std::vector<ir::Type>& params, size_t nsites) {
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
  return fmt::format(
      "\n// ---- msl-emu launcher (not part of the MSL program) ----\n"
      "typedef union tritium_arg {{ void* ptr; int64_t i64; uint64_t u64; float f32; }} tritium_arg;\n"
      "extern \"C\" __attribute__((visibility(\"default\"))) void tritium_msl_run(const tritium_arg* args, "
      "const int32_t grid[3], int64_t first, int64_t end, uint32_t* status) {{\n"
      "  (void)args; (void)status;\n"
      "{}"
      "  const metal::uint3 n = {{(uint)grid[0], (uint)grid[1], (uint)grid[2]}};\n"
      "  for (int64_t p = first; p < end; ++p) {{\n"
      "    const int64_t rest = p / grid[0];\n"
      "    const metal::uint3 id = {{(uint)(p % grid[0]), (uint)(rest % grid[1]), (uint)(rest / grid[1])}};\n"
      "    tritium_kernel({}id, n);\n"
      "  }}\n"
      "}}\n",
      bind, call);
}

}  // namespace tritium::codegen
