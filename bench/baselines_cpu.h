// baselines_cpu.h - what `tritium bench` compares the cpu backend with (issue 7): for the
// memory-bound kernels a plainly written C++ loop, compiled -O3 -march=native -ffast-math so the
// compiler vectorizes it, its rows or elements spread over the same thread pool the cpu
// backend's programs run on; for matmul OpenBLAS's sgemm. Each works on the host arrays of
// a case's Problem (the same bytes the kernel reads), computes in fp32 as the kernels do,
// and is checked against the same float64 reference before it is timed.
//
// Shapes: [rows, cols] inputs with a row stride (elements), contiguous outputs; dtypes fp32,
// fp16 (_Float16; F16C conversions where the machine has them) and bf16 (uint16_t bits,
// round to nearest even on store).
#pragma once

#include <cstdint>
#include <string>

#include "host_dtype.h"

namespace tritium::bench::baseline {

/// out = a + b over n elements.
void vector_add(HostDtype t, const void* a, const void* b, void* out, int64_t n);
/// out = g * sigmoid(g) * u over n elements (SiLU-gated linear unit; Shazeer 2020).
void swiglu(HostDtype t, const void* g, const void* u, void* out, int64_t n);
/// Row softmax of x [rows, cols] (row stride x_stride) into out [rows, cols].
void softmax(HostDtype t, const void* x, void* out, int64_t rows, int64_t cols, int64_t x_stride);
/// RMSNorm: y = x * rsqrt(mean(x^2) + eps) * w (Zhang and Sennrich 2019).
void rmsnorm(HostDtype t, const void* x, const void* w, void* y, int64_t rows, int64_t cols, int64_t x_stride,
             float eps);
/// LayerNorm forward: y = (x - mean) * rstd * w + b; mean and rstd (fp32) per row (Ba et al.
/// 2016).
void layernorm(HostDtype t, const void* x, const void* w, const void* b, void* y, float* mean, float* rstd,
               int64_t rows, int64_t cols, int64_t x_stride, float eps);

/// Whether this build has OpenBLAS (matmul's baseline).
bool have_blas();
/// c [m, n] = a [m, k] @ b [k, n], all row-major and contiguous, through cblas_sgemm (16-bit
/// operands converted to fp32 and the result back, inside the timed call). Throws
/// std::runtime_error when the build has no OpenBLAS.
void matmul(HostDtype t, const void* a, const void* b, void* c, int64_t m, int64_t n, int64_t k);

/// The name the report gives each kind of baseline.
inline const char* kLoopName = "C++ loop";
inline const char* kBlasName = "OpenBLAS sgemm";

}  // namespace tritium::bench::baseline
