// Shared by the cuda runtime tests: a hand-written CUDA C++ module using the features the
// generated code will need, and the NVRTC / GPU requirement helpers.
//
//   NVRTC tests FAIL when NVRTC is missing, unless TRITIUM_NO_NVRTC=1 (then they skip):
//   CI must notice a missing NVRTC.
//   GPU tests skip without a usable device, unless TRITIUM_REQUIRE_GPU=1 (scripts/gpu-check
//   sets it on the H200): then a missing device is a failure.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/cuda/cuda_api.h"

namespace tritium::runtime::cuda::testing {

inline bool env_is_1(const char* name) {
  const char* v = std::getenv(name);
  return v && std::string(v) == "1";
}

/// Skips (TRITIUM_NO_NVRTC=1) or fails the current test when NVRTC is unavailable.
#define TRITIUM_REQUIRE_NVRTC()                                                                            \
  do {                                                                                                     \
    ::tritium::runtime::cuda::Availability nvrtc_st_ = ::tritium::runtime::cuda::nvrtc_status();            \
    if (!nvrtc_st_.available) {                                                                            \
      if (::tritium::runtime::cuda::testing::env_is_1("TRITIUM_NO_NVRTC"))                                 \
        GTEST_SKIP() << "TRITIUM_NO_NVRTC=1: " << nvrtc_st_.reason;                                        \
      FAIL() << "NVRTC is required for this test (set TRITIUM_NO_NVRTC=1 to skip): " << nvrtc_st_.reason;  \
    }                                                                                                      \
  } while (0)

/// Skips the current test without a usable GPU (fails instead when TRITIUM_REQUIRE_GPU=1).
#define TRITIUM_REQUIRE_GPU()                                                                           \
  do {                                                                                                  \
    ::tritium::runtime::cuda::Availability gpu_st_ = ::tritium::runtime::cuda::driver_status();          \
    if (!gpu_st_.available) {                                                                           \
      if (::tritium::runtime::cuda::testing::env_is_1("TRITIUM_REQUIRE_GPU"))                           \
        FAIL() << "TRITIUM_REQUIRE_GPU=1 but the cuda driver is unavailable: " << gpu_st_.reason;       \
      GTEST_SKIP() << "no CUDA device: " << gpu_st_.reason;                                             \
    }                                                                                                   \
  } while (0)

/// Kernels (extern "C", so the entry names are plain):
///   vadd_f32(x, y, out, n)          out = x + y; 4 elements per thread through 16-byte
///                                   float4 loads/stores, scalar tail
///   block_sum(x, sums, sums_h, sums_bf, n)
///                                   per block: butterfly __shfl_xor_sync within each warp,
///                                   warp totals through shared memory + __syncthreads, a
///                                   second butterfly in warp 0; the total also as half and
///                                   bfloat16 (round to nearest even)
///   reverse_dyn(x, out, per_thread) each block reverses its blockDim.x*per_thread floats
///                                   through dynamic (extern) shared memory
///   trap_kernel()                   traps (an asynchronous launch failure)
inline const char* kTestKernels = R"CUDA(
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void vadd_f32(const float* __restrict__ x, const float* __restrict__ y,
                                    float* __restrict__ out, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < n) {
    float4 a = *reinterpret_cast<const float4*>(x + i);
    float4 b = *reinterpret_cast<const float4*>(y + i);
    *reinterpret_cast<float4*>(out + i) = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  } else {
    for (int k = i; k < n; ++k) out[k] = x[k] + y[k];
  }
}

float warp_butterfly_sum(float v) {  // -default-device: a __device__ function
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

extern "C" __global__ void block_sum(const float* x, float* sums, __half* sums_h, __nv_bfloat16* sums_bf,
                                     int n) {
  __shared__ float warp_sums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = warp_butterfly_sum(i < n ? x[i] : 0.0f);
  if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    float w = warp_butterfly_sum(threadIdx.x < (blockDim.x >> 5) ? warp_sums[threadIdx.x] : 0.0f);
    if (threadIdx.x == 0) {
      sums[blockIdx.x] = w;
      sums_h[blockIdx.x] = __float2half_rn(w);
      sums_bf[blockIdx.x] = __float2bfloat16_rn(w);
    }
  }
}

extern "C" __global__ void reverse_dyn(const float* x, float* out, int per_thread) {
  extern __shared__ float buf[];
  const int count = blockDim.x * per_thread;
  const float* src = x + blockIdx.x * count;
  for (int k = threadIdx.x; k < count; k += blockDim.x) buf[k] = src[k];
  __syncthreads();
  for (int k = threadIdx.x; k < count; k += blockDim.x) out[blockIdx.x * count + k] = buf[count - 1 - k];
}

extern "C" __global__ void trap_kernel() { __trap(); }
)CUDA";

}  // namespace tritium::runtime::cuda::testing
