// The scalar prelude: C++ helpers that define the exact numerics of every op a C-family
// renderer lowers to a call (codegen/c_expr.h): wrap-around integer arithmetic, division by
// zero, shift clamping, NaN-aware min / max, the fp16 / bf16 / fp8 conversions, saturating
// float-to-int casts, and (appended from src/common/tmath.inc) tritium's fp32 exp / exp2 /
// log / log2. The same text is embedded by the CPU prelude (plain C++) and the CUDA prelude
// (every helper a __device__ function), so both reproduce the reference interpreter's bits.
//
// The embedding text must first include <stdint.h> (or define its types) and define
//   TR_INLINE  a small always-inlined function ("static inline __attribute__((always_inline))"
//              on the CPU, "static __device__ __forceinline__" on CUDA);
//   TR_SLOW    a large pure function kept out of line;
// and may define TR_HD (constexpr helpers callable from device code: "__host__ __device__").
// It uses only GCC / NVCC builtins both compilers accept (__builtin_bit_cast, __builtin_fmaf,
// __builtin_clz(ll), __builtin_popcount(ll), __builtin_trunc, __builtin_isinf,
// __builtin_nextafterf, unsigned __int128).
#pragma once

namespace tritium::codegen {

/// The scalar prelude text (see the file comment), tmath.inc included at its end.
const char* scalar_prelude_text();

/// The part of the prelude that is C as well as C++ (small float formats, fp16 / bf16 / fp8
/// conversions, 64-bit integer-to-double rounding): it needs TR_INLINE, TR_SLOW, the
/// uint32_t / uint64_t types and the macros TR_AS_F32 / TR_AS_U32 / TR_AS_F64 / TR_AS_U64
/// (bit casts), TR_ISINF, TR_FABSF, TR_FABS, TR_NEXTAFTERF, TR_CLZ64 and TR_U64(c) (a 64-bit
/// unsigned literal), which scalar_prelude_text() defines for C++ and the OpenCL C prelude
/// (codegen/opencl) for OpenCL C.
const char* scalar_prelude_shared_text();

}  // namespace tritium::codegen
