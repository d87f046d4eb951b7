// baselines_cuda.h - what `tritium bench --backend cuda` compares matmul with in-process
// (issue 7): cuBLAS's cublasGemmEx, loaded with dlopen at first use so tritium builds and
// runs where no CUDA toolkit is installed. The memory-bound kernels, attention and upstream
// Triton are compared through the Python driver (kernels/tools/bench_upstream.py: torch's
// fused ops, torch SDPA, Triton on the same sources), which `tritium bench` runs when torch
// and triton are importable.
#pragma once

#include <cstdint>
#include <string>

#include "host_dtype.h"

namespace tritium {
class Device;
}

namespace tritium::bench::baseline {

/// The report's name of the cuda matmul baseline.
inline constexpr const char* kCublasName = "cuBLAS GemmEx";

/// "" when cuBLAS is loadable here, else why not ("libcublas not found: tried ...").
/// Searched: libcublas.so.13, .so.12, .so through the dynamic loader, then in the
/// directories tritium searches for NVRTC (runtime/cuda/cuda_api.h: $CUDA_HOME/lib64,
/// /usr/local/cuda/lib64, the pip wheels' nvidia/cu13/lib), and nvidia/cublas/lib beside a
/// CUDA 12 wheel's nvidia/cuda_nvrtc/lib. $TRITIUM_CUBLAS (a full path) overrides.
std::string cublas_status();

/// c [m, n] = a [m, k] @ b [k, n] on the current CUDA context's default stream, row-major
/// and contiguous device pointers of dtype `t` (fp32, fp16, bf16; c has a's dtype); fp32
/// accumulation (CUBLAS_COMPUTE_32F), with tf32 tensor cores for fp32 operands when `tf32`
/// (CUBLAS_COMPUTE_32F_FAST_TF32, what tl.dot's default input_precision does on NVIDIA).
/// Enqueued, not waited for. One cuBLAS handle per process, created at first use. Throws
/// std::runtime_error naming the call and the cuBLAS status when cuBLAS is missing or fails.
void cublas_matmul(HostDtype t, const void* a, const void* b, void* c, int64_t m, int64_t n, int64_t k, bool tf32);

/// The compute roof of the cuda run, measured the way copy bandwidth is: cuBLAS's bf16
/// tensor-core rate on one square n x n x n GEMM (default 8192), inputs uniform in [-1, 1)
/// (not zeros: tensor cores draw less power, and clock higher, on zeros), 3 untimed calls
/// then `reps` timed with CUDA events; 2 n^3 over the median time, in flop/s. 0 when
/// cuBLAS is missing, `device` is not "cuda" or the call fails.
double cublas_peak_flops(Device& device, int64_t n = 8192, int reps = 10);

}  // namespace tritium::bench::baseline
