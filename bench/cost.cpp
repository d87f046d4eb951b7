// cost.cpp - byte and flop counts of the suite kernels (formulas documented in cost.h).
#include "cost.h"

namespace tritium::bench {
namespace {
double d(int64_t v) { return static_cast<double>(v); }
double d(size_t v) { return static_cast<double>(v); }
}  // namespace

double bytes_vector_add(int64_t n, size_t s) { return 3.0 * d(n) * d(s); }

double bytes_swiglu(int64_t n, size_t s) { return 3.0 * d(n) * d(s); }

double bytes_softmax(int64_t rows, int64_t cols, size_t s_in, size_t s_out) {
  return d(rows) * d(cols) * (d(s_in) + d(s_out));
}

double bytes_rmsnorm(int64_t rows, int64_t cols, size_t s_x, size_t s_w, size_t s_y) {
  return d(rows) * d(cols) * (d(s_x) + d(s_y)) + d(cols) * d(s_w);
}

double bytes_layernorm(int64_t rows, int64_t cols, size_t s_x, size_t s_wb, size_t s_y) {
  return d(rows) * d(cols) * (d(s_x) + d(s_y)) + 2.0 * d(cols) * d(s_wb) + 2.0 * d(rows) * 4.0;
}

double bytes_matmul(int64_t M, int64_t N, int64_t K, size_t s_ab, size_t s_c) {
  return (d(M) * d(K) + d(K) * d(N)) * d(s_ab) + d(M) * d(N) * d(s_c);
}

double flops_matmul(int64_t M, int64_t N, int64_t K) { return 2.0 * d(M) * d(N) * d(K); }

double bytes_attention(int64_t Z, int64_t H, int64_t N, int64_t D, size_t s) {
  return 4.0 * d(Z) * d(H) * d(N) * d(D) * d(s) + 4.0 * d(Z) * d(H) * d(N);
}

double flops_attention(int64_t Z, int64_t H, int64_t N, int64_t D, bool causal) {
  const double full = 4.0 * d(Z) * d(H) * d(N) * d(N) * d(D);
  return causal ? full / 2.0 : full;
}

}  // namespace tritium::bench
