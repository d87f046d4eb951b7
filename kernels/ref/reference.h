// Float64 reference implementations of the built-in kernels in kernels/*.py.
//
// These are the host references that kernel outputs are compared against. They
// are written from the mathematical definitions, independently of the kernels
// (no tiling, no online rescaling, no exp2), as plain loops in double precision.
// They depend on nothing but the C++ standard library.
//
// Conventions for every function below:
//   * All arrays are row-major and contiguous (the last index varies fastest);
//     strided kernel launches are compared after the caller gathers the data.
//   * Sizes are element counts (int64_t). Inputs are never modified.
//   * Output arrays must not alias input arrays unless a function says so.
//   * Results are computed in double; accumulation runs in ascending index
//     order, so a given input always gives the same bits.
#pragma once

#include <cstdint>

namespace tritium::ref {

/// kernels/vector_add.py `add_kernel`.
/// out[i] = x[i] + y[i] for 0 <= i < n. out may alias x or y.
void ref_vector_add(const double* x, const double* y, double* out, int64_t n);

/// kernels/swiglu.py `swiglu_kernel` / `swiglu_rows_kernel`.
/// out[i] = silu(gate[i]) * up[i] with silu(g) = g / (1 + exp(-g)), 0 <= i < n.
/// For the 2-D kernel pass the contiguous [rows, cols] arrays with n = rows*cols.
void ref_swiglu(const double* gate, const double* up, double* out, int64_t n);

/// kernels/softmax.py `softmax_kernel` / `softmax_online_kernel`.
/// x, y: [rows, cols]. For each row r:
///   y[r, c] = exp(x[r, c] - max_c' x[r, c']) / sum_c' exp(x[r, c'] - max x[r, :]).
/// Each output row sums to 1 (up to rounding). Requires cols >= 1.
void ref_softmax(const double* x, double* y, int64_t rows, int64_t cols);

/// kernels/rmsnorm.py `rmsnorm_kernel`.
/// x, y: [rows, cols]; w: [cols]. For each row r:
///   rstd[r] = 1 / sqrt(sum_c x[r, c]^2 / cols + eps)
///   y[r, c] = x[r, c] * rstd[r] * w[c]
void ref_rmsnorm(const double* x, const double* w, double* y, int64_t rows, int64_t cols,
                 double eps);

/// kernels/layernorm.py `layernorm_kernel`.
/// x, y: [rows, cols]; w, b: [cols]; mean, rstd: [rows]. For each row r:
///   mean[r] = sum_c x[r, c] / cols
///   var     = sum_c (x[r, c] - mean[r])^2 / cols            (biased, two-pass)
///   rstd[r] = 1 / sqrt(var + eps)
///   y[r, c] = (x[r, c] - mean[r]) * rstd[r] * w[c] + b[c]
/// mean and rstd may be null when not wanted.
void ref_layernorm(const double* x, const double* w, const double* b, double* y, double* mean,
                   double* rstd, int64_t rows, int64_t cols, double eps);

/// kernels/matmul.py `matmul_kernel`.
/// a: [M, K], b: [K, N], c: [M, N], all row-major contiguous.
///   c[m, n] = sum_{k=0}^{K-1} a[m, k] * b[k, n]     (k ascending; 0 when K == 0)
void ref_matmul(const double* a, const double* b, double* c, int64_t M, int64_t N, int64_t K);

/// kernels/flash_attention.py `attn_fwd_kernel`.
/// q, k, v, o: [Z, H, N, D] contiguous (batch, head, sequence, head dim); the
/// query and key sequences have the same length N. lse: [Z * H, N], may be null.
/// For each (z, h) and query row i, over the allowed keys J(i) = {0..N-1}, or
/// {0..i} when causal:
///   s_j    = sm_scale * sum_d q[z,h,i,d] * k[z,h,j,d]
///   lse    = log(sum_{j in J(i)} exp(s_j))       NATURAL log, computed stably as
///            max_j s_j + log(sum_j exp(s_j - max_j s_j))
///   o[z,h,i,:] = sum_{j in J(i)} exp(s_j - lse) * v[z,h,j,:]
///   lse[(z*H + h)*N + i] = lse
/// The kernel's M output holds exactly this natural-log value (it converts its
/// internal log2-domain maximum back), so the two compare directly. If a log2
/// value is wanted (Triton tutorial convention), it is lse / ln(2).
void ref_attention(const double* q, const double* k, const double* v, double* o, double* lse,
                   int64_t Z, int64_t H, int64_t N, int64_t D, double sm_scale, bool causal);

}  // namespace tritium::ref
