// cost.h - bytes moved and floating-point operations of each suite kernel, the figures the
// bench divides by the measured time (GB/s for memory-bound kernels, TFLOP/s for the
// compute-bound ones). Sizes are element counts; s_* are element sizes in bytes.
//
// "Bytes moved" is the compulsory traffic: every input element read once and every output
// element written once. Kernels that read an input twice (softmax_online, the normalization
// loops of rmsnorm/layernorm) are credited only the compulsory bytes, so their GB/s is what a
// user of the kernel gets, not what the memory system carried.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tritium::bench {

/// vector_add: read x and y, write out: 3 * n * s.
double bytes_vector_add(int64_t n, size_t s);

/// swiglu (flat or rows): read gate and up, write out: 3 * n * s.
double bytes_swiglu(int64_t n, size_t s);

/// softmax (single-pass or online): read x, write y: rows * cols * (s_in + s_out).
double bytes_softmax(int64_t rows, int64_t cols, size_t s_in, size_t s_out);

/// rmsnorm: read x, write y, read w once: rows * cols * (s_x + s_y) + cols * s_w.
double bytes_rmsnorm(int64_t rows, int64_t cols, size_t s_x, size_t s_w, size_t s_y);

/// layernorm: read x, write y, read w and b once, write fp32 mean and rstd per row:
/// rows * cols * (s_x + s_y) + 2 * cols * s_wb + 2 * rows * 4.
double bytes_layernorm(int64_t rows, int64_t cols, size_t s_x, size_t s_wb, size_t s_y);

/// matmul: read A [M, K] and B [K, N] once, write C [M, N]: (M*K + K*N) * s_ab + M*N * s_c.
double bytes_matmul(int64_t M, int64_t N, int64_t K, size_t s_ab, size_t s_c);

/// matmul: one multiply and one add per (m, n, k): 2 * M * N * K.
double flops_matmul(int64_t M, int64_t N, int64_t K);

/// attention: read Q, K, V, write O ([Z, H, N, D] each, element size s) and the fp32 LSE
/// [Z*H, N]: 4 * Z * H * N * D * s + 4 * Z * H * N.
double bytes_attention(int64_t Z, int64_t H, int64_t N, int64_t D, size_t s);

/// attention: Q K^T and P V, 2 * N * N * D each per (z, h): 4 * Z * H * N^2 * D; half of it
/// when causal (only the keys j <= i count, the usual convention).
double flops_attention(int64_t Z, int64_t H, int64_t N, int64_t D, bool causal);

}  // namespace tritium::bench
