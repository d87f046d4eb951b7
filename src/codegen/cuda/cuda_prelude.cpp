// The device-side prelude of every generated CUDA unit (see cuda_codegen.h): fixed-width
// integer types (NVRTC has no C library headers), the launch slot union, the scalar prelude
// with every helper a __device__ function, warp shuffles of any element type, atomics with
// the interpreter's semantics (codegen/cpu's prelude has the host versions), and the failure
// report.
#include "codegen/cuda/cuda_codegen.h"
#include "codegen/scalar_prelude.h"

#include <string>

namespace tritium::codegen::cuda {

const char* cuda_prelude() {
  static const std::string text = std::string(R"TRCUDA(// ---- tritium cuda prelude ------------------------------------------------------
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef unsigned long long uintptr_t;
typedef union tritium_arg { void* ptr; int64_t i64; uint64_t u64; double f64; float f32; } tritium_arg;

#define TR_INLINE static __device__ __forceinline__
#define TR_SLOW static __device__ __noinline__
#define TR_HD __host__ __device__
// The GCC builtins the scalar prelude and the expressions use, as CUDA's device functions
// (NVRTC knows __builtin_bit_cast but not these; every one is exact or correctly rounded).
#define __builtin_fabsf fabsf
#define __builtin_fabs fabs
#define __builtin_fmaf fmaf
#define __builtin_trunc trunc
#define __builtin_nextafterf nextafterf
#define __builtin_isinf isinf
#define __builtin_signbit signbit
#define __builtin_clz __clz
#define __builtin_clzll __clzll
#define __builtin_popcount __popc
#define __builtin_popcountll __popcll
)TRCUDA") + scalar_prelude_text() + R"TRCUDA(
extern __shared__ __align__(1024) unsigned char tr_dyn_smem[];

// ---- asynchronous copies global -> shared (cp.async, sm_80+; software pipelining) ------
// `n` bytes when `pred`, else zero-filled with nothing read (src-size 0).
TR_INLINE void tr_cp_async16(uint32_t dst, const void* src, bool pred) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(pred ? 16 : 0) : "memory");
}
TR_INLINE void tr_cp_async8(uint32_t dst, const void* src, bool pred) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(dst), "l"(src), "r"(pred ? 8 : 0) : "memory");
}
TR_INLINE void tr_cp_async4(uint32_t dst, const void* src, bool pred) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst), "l"(src), "r"(pred ? 4 : 0) : "memory");
}
// An fp32 value rounded to tf32 (10 mantissa bits; nearest, ties away from zero), as the
// fp32 bits the tf32 tensor-core dot reads (cuda_emit_mma_narrow.cpp).
TR_INLINE float tr_tf32(float f) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(f));
  return __uint_as_float(r);
}
// ---- warpgroup MMA (wgmma, sm_90a; cuda_emit_wgmma.cpp) ---------------------------------
// A shared-memory matrix descriptor: start address, leading / stride dimension byte offsets
// (each >> 4) and the swizzle mode (PTX ISA, "Matrix Descriptor Format").
TR_INLINE uint64_t tr_wg_desc(uint32_t addr, uint32_t lbo, uint32_t sbo, uint32_t mode) {
  return (uint64_t)((addr & 0x3FFFFu) >> 4) | ((uint64_t)((lbo & 0x3FFFFu) >> 4) << 16) |
         ((uint64_t)((sbo & 0x3FFFFu) >> 4) << 32) | ((uint64_t)mode << 62);
}
TR_INLINE void tr_fence_async_smem() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
TR_INLINE void tr_wg_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
TR_INLINE void tr_wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
// (wgmma.wait_group is emitted inline, with the accumulator registers as its operands.)
TR_INLINE void tr_cp_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> TR_INLINE void tr_cp_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }
// ---- bulk tensor copies (TMA, sm_90a; cuda_emit_tma.cpp) ---------------------------------
// mbarriers in shared memory (32-bit shared addresses): one arrival (the issuing thread's
// expect_tx) plus the bytes the copies deliver complete a phase.
// Orders this thread's earlier generic-proxy memory accesses (global and shared) before later
// async-proxy ones (bulk tensor copies reading what the program stored).
TR_INLINE void tr_fence_proxy_async() { asm volatile("fence.proxy.async;" ::: "memory"); }
TR_INLINE void tr_mbar_init(uint32_t bar) { asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory"); }
TR_INLINE void tr_mbar_inval(uint32_t bar) { asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(bar) : "memory"); }
TR_INLINE void tr_mbar_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
TR_INLINE void tr_mbar_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
TR_INLINE bool tr_mbar_try_wait(uint32_t bar, uint32_t parity) {
  uint32_t ok;
  asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
               : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
  return ok != 0;
}
TR_INLINE void tr_mbar_wait(uint32_t bar, uint32_t parity) {
  while (!tr_mbar_try_wait(bar, parity)) {
  }
}
// Box {c0 (innermost), c1} of the 2-D tensor map at `tm` (global) into shared memory at dst,
// completing `bytes` on mbarrier `bar`; elements outside the tensor arrive as zeros.
TR_INLINE void tr_tma_load_2d(uint32_t dst, const void* tm, int32_t c0, int32_t c1, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
      "l"(tm), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}
// Writes a 2-D tiled tensor map (128 bytes) to `tm` (global, 128-byte aligned), called by the
// 32 threads of one warp: they zero a 128-byte staging area at shared address `stage`, lane
// 0 sets the fields there with tensormap.replace, the warp copies it out with the release
// fence of the tensormap proxy and lane 0 (the thread that issues the copies) acquires it
// (PTX ISA, "tensormap.replace", "tensormap.cp_fenceproxy"). The map: a [dim1][dim0] tensor
// of 16-bit elements (ELEMTYPE: PTX's .f16 = 6, .bf16 = 10) at `base` (16-byte aligned), rows
// `stride1` bytes apart (a multiple of 16), boxes of [box1][box0] elements, swizzle mode SWZ
// (0 none, 1 32B, 2 64B, 3 128B), zero fill; the fields as cuTensorMapEncodeTiled takes them.
template <uint32_t ELEMTYPE, uint32_t SWZ>
TR_INLINE void tr_tmap_2d(unsigned char* tm, uint32_t stage, const void* base, uint32_t dim0, uint32_t dim1,
                          uint64_t stride1, uint32_t box0, uint32_t box1) {
  const uint32_t lane = threadIdx.x & 31u, zero = 0u, one = 1u;
  asm volatile("st.shared.u32 [%0], %1;" ::"r"(stage + 4u * lane), "r"(zero) : "memory");
  __syncwarp();
  if (lane == 0) {
    asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;" ::"r"(stage), "l"(base) : "memory");
    asm volatile("tensormap.replace.tile.rank.shared::cta.b1024.b32 [%0], %1;" ::"r"(stage), "r"(one) : "memory");
    asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 0, %1;" ::"r"(stage), "r"(box0) : "memory");
    asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(stage), "r"(box1) : "memory");
    asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 0, %1;" ::"r"(stage), "r"(dim0) : "memory");
    asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(stage), "r"(dim1) : "memory");
    asm volatile("tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 0, %1;" ::"r"(stage), "l"(stride1)
                 : "memory");
    asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 0, %1;" ::"r"(stage), "r"(one)
                 : "memory");
    asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(stage), "r"(one)
                 : "memory");
    asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%0], %1;" ::"r"(stage), "n"(ELEMTYPE) : "memory");
    asm volatile("tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [%0], 0;" ::"r"(stage) : "memory");
    asm volatile("tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%0], %1;" ::"r"(stage), "n"(SWZ) : "memory");
    asm volatile("tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%0], 0;" ::"r"(stage) : "memory");
  }
  __syncwarp();
  asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;" ::"l"(tm),
               "r"(stage)
               : "memory");
  if (lane == 0) asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(tm) : "memory");
}

// ---- warp shuffles of any element type (by its bits) -------------------------------------
// Native numerics (c_expr.h, gpu_approx): the approximate instructions upstream Triton
// emits for fp32 `/`, tl.exp and tl.exp2 (subnormals kept: no .ftz).
TR_INLINE float tr_ex2_approx(float x) {
  float r;
  asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
TR_INLINE float tr_exp_approx(float x) { return tr_ex2_approx(x * 1.44269504088896341f); }
TR_INLINE float tr_div_full(float a, float b) {
  float r;
  asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
// The shared-memory index of element i of a swizzled row-major tile with 2^lgc columns
// (cuda_emit_dot.cpp): its 16-byte chunk XOR the row's low bits (mask).
TR_INLINE uint32_t tr_swz(uint32_t i, int lgc, uint32_t mask) { return i ^ (((i >> lgc) & mask) << 3); }
// Element i of a row-major [R][2^lgc] tile stored as column blocks [2^lgc / 2^lgw][R][2^lgw].
TR_INLINE uint32_t tr_tile_block(uint32_t i, int lgc, uint32_t R, int lgw) {
  const uint32_t row = i >> lgc, col = i & ((1u << lgc) - 1u);
  return (((col >> lgw) * R + row) << lgw) | (col & ((1u << lgw) - 1u));
}
template <class T> TR_INLINE T tr_shfl_xor(T v, int mask) {
  if constexpr (sizeof(T) == 8) {
    return tr_bits<T>((uint64_t)__shfl_xor_sync(0xffffffffu, (unsigned long long)tr_bits<uint64_t>(v), mask));
  } else if constexpr (sizeof(T) == 4) {
    return tr_bits<T>(__shfl_xor_sync(0xffffffffu, tr_bits<uint32_t>(v), mask));
  } else if constexpr (sizeof(T) == 2) {
    return tr_bits<T>((uint16_t)__shfl_xor_sync(0xffffffffu, (uint32_t)tr_bits<uint16_t>(v), mask));
  } else {
    return tr_bits<T>((uint8_t)__shfl_xor_sync(0xffffffffu, (uint32_t)tr_bits<uint8_t>(v), mask));
  }
}

// ---- atomics (the old value returned; sequentially consistent fences emitted around) -----
template <int N> struct tr_small_bits { typedef uint8_t type; };
template <> struct tr_small_bits<2> { typedef uint16_t type; };
// Replaces *p by update(*p) atomically (compare-and-swap loop on the bit pattern B, 1 to 8
// bytes); returns the old bits.
template <class B, class FN> TR_INLINE B tr_atomic_update(B* p, FN update) {
  if constexpr (sizeof(B) == 8) {
    unsigned long long* a = (unsigned long long*)p;
    unsigned long long old = *(volatile unsigned long long*)a, assumed;
    do {
      assumed = old;
      old = atomicCAS(a, assumed, (unsigned long long)tr_bits<uint64_t>(update(tr_bits<B>((uint64_t)assumed))));
    } while (old != assumed);
    return tr_bits<B>((uint64_t)old);
  } else if constexpr (sizeof(B) == 4) {
    unsigned int* a = (unsigned int*)p;
    unsigned int old = *(volatile unsigned int*)a, assumed;
    do {
      assumed = old;
      old = atomicCAS(a, assumed, tr_bits<uint32_t>(update(tr_bits<B>(assumed))));
    } while (old != assumed);
    return tr_bits<B>(old);
  } else {  // 1 or 2 bytes: a CAS on the aligned 32-bit word holding them
    typedef typename tr_small_bits<sizeof(B)>::type W;
    const uintptr_t addr = (uintptr_t)p;
    unsigned int* a = (unsigned int*)(addr & ~(uintptr_t)3);
    const unsigned int sh = (unsigned int)(addr & 3) * 8u;
    const unsigned int m = (sizeof(B) == 2 ? 0xffffu : 0xffu) << sh;
    unsigned int old = *(volatile unsigned int*)a, assumed;
    do {
      assumed = old;
      const B cur = tr_bits<B>((W)((assumed & m) >> sh));
      const unsigned int nb = (unsigned int)tr_bits<W>(update(cur));
      old = atomicCAS(a, assumed, (assumed & ~m) | ((nb << sh) & m));
    } while (old != assumed);
    return tr_bits<B>((W)((old & m) >> sh));
  }
}
template <class T> TR_INLINE T tr_atomic_add(T* p, T v) {
  if constexpr (sizeof(T) == 4) return (T)atomicAdd((unsigned int*)p, (unsigned int)v);
  else if constexpr (sizeof(T) == 8) return (T)atomicAdd((unsigned long long*)p, (unsigned long long)v);
  else return tr_atomic_update(p, [&](T o) { return tr_add<T>(o, v); });
}
template <class T> TR_INLINE T tr_atomic_and(T* p, T v) {
  if constexpr (sizeof(T) == 4) return (T)atomicAnd((unsigned int*)p, (unsigned int)v);
  else if constexpr (sizeof(T) == 8) return (T)atomicAnd((unsigned long long*)p, (unsigned long long)v);
  else return tr_atomic_update(p, [&](T o) { return (T)(o & v); });
}
template <class T> TR_INLINE T tr_atomic_or(T* p, T v) {
  if constexpr (sizeof(T) == 4) return (T)atomicOr((unsigned int*)p, (unsigned int)v);
  else if constexpr (sizeof(T) == 8) return (T)atomicOr((unsigned long long*)p, (unsigned long long)v);
  else return tr_atomic_update(p, [&](T o) { return (T)(o | v); });
}
template <class T> TR_INLINE T tr_atomic_xor(T* p, T v) {
  if constexpr (sizeof(T) == 4) return (T)atomicXor((unsigned int*)p, (unsigned int)v);
  else if constexpr (sizeof(T) == 8) return (T)atomicXor((unsigned long long*)p, (unsigned long long)v);
  else return tr_atomic_update(p, [&](T o) { return (T)(o ^ v); });
}
template <class T> TR_INLINE T tr_atomic_xchg(T* p, T v) {
  if constexpr (sizeof(T) == 4) return tr_bits<T>(atomicExch((unsigned int*)p, tr_bits<uint32_t>(v)));
  else if constexpr (sizeof(T) == 8) return tr_bits<T>((uint64_t)atomicExch((unsigned long long*)p, (unsigned long long)tr_bits<uint64_t>(v)));
  else return tr_atomic_update(p, [&](T o) { return v; });
}
template <class T> TR_INLINE T tr_atomic_max(T* p, T v) {
  if constexpr (sizeof(T) == 4 && tr_signed<T>::value) return (T)atomicMax((int*)p, (int)v);
  else if constexpr (sizeof(T) == 4) return (T)atomicMax((unsigned int*)p, (unsigned int)v);
  else if constexpr (sizeof(T) == 8 && tr_signed<T>::value) return (T)atomicMax((long long*)p, (long long)v);
  else if constexpr (sizeof(T) == 8) return (T)atomicMax((unsigned long long*)p, (unsigned long long)v);
  else return tr_atomic_update(p, [&](T o) { return tr_imax<T>(o, v); });
}
template <class T> TR_INLINE T tr_atomic_min(T* p, T v) {
  if constexpr (sizeof(T) == 4 && tr_signed<T>::value) return (T)atomicMin((int*)p, (int)v);
  else if constexpr (sizeof(T) == 4) return (T)atomicMin((unsigned int*)p, (unsigned int)v);
  else if constexpr (sizeof(T) == 8 && tr_signed<T>::value) return (T)atomicMin((long long*)p, (long long)v);
  else if constexpr (sizeof(T) == 8) return (T)atomicMin((unsigned long long*)p, (unsigned long long)v);
  else return tr_atomic_update(p, [&](T o) { return tr_imin<T>(o, v); });
}
template <class T> TR_INLINE T tr_atomic_cas(T* p, T cmp, T v) {
  if constexpr (sizeof(T) == 4) return tr_bits<T>(atomicCAS((unsigned int*)p, tr_bits<uint32_t>(cmp), tr_bits<uint32_t>(v)));
  else if constexpr (sizeof(T) == 8)
    return tr_bits<T>((uint64_t)atomicCAS((unsigned long long*)p, (unsigned long long)tr_bits<uint64_t>(cmp), (unsigned long long)tr_bits<uint64_t>(v)));
  else return tr_atomic_update(p, [&](T o) { return o == cmp ? v : o; });
}

// ---- failures ----------------------------------------------------------------------------
// The lowest (program, site) that failed: key = linear program id * 65536 + site (1-based);
// the runtime fills *f with all ones before the launch and reads it after.
TR_INLINE void tr_fail_report(unsigned long long* f, int site) {
  const unsigned long long linear = (unsigned long long)blockIdx.x +
      (unsigned long long)gridDim.x * ((unsigned long long)blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
  atomicMin(f, linear * 65536ull + (unsigned long long)site);
}
// ---- end of prelude ----------------------------------------------------------------------------
)TRCUDA";
  return text.c_str();
}

}  // namespace tritium::codegen::cuda
