// Row-wise references: softmax, RMSNorm, LayerNorm. See reference.h.
#include "ref/reference.h"

#include <cmath>

namespace tritium::ref {

void ref_softmax(const double* x, double* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = x + r * cols;
    double* yr = y + r * cols;
    double mx = xr[0];
    for (int64_t c = 1; c < cols; ++c) mx = std::fmax(mx, xr[c]);
    double sum = 0.0;
    for (int64_t c = 0; c < cols; ++c) {
      yr[c] = std::exp(xr[c] - mx);
      sum += yr[c];
    }
    for (int64_t c = 0; c < cols; ++c) yr[c] /= sum;
  }
}

void ref_rmsnorm(const double* x, const double* w, double* y, int64_t rows, int64_t cols,
                 double eps) {
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = x + r * cols;
    double* yr = y + r * cols;
    double sum_sq = 0.0;
    for (int64_t c = 0; c < cols; ++c) sum_sq += xr[c] * xr[c];
    const double rstd = 1.0 / std::sqrt(sum_sq / static_cast<double>(cols) + eps);
    for (int64_t c = 0; c < cols; ++c) yr[c] = xr[c] * rstd * w[c];
  }
}

void ref_layernorm(const double* x, const double* w, const double* b, double* y, double* mean,
                   double* rstd, int64_t rows, int64_t cols, double eps) {
  const double n = static_cast<double>(cols);
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = x + r * cols;
    double* yr = y + r * cols;
    double sum = 0.0;
    for (int64_t c = 0; c < cols; ++c) sum += xr[c];
    const double mu = sum / n;
    double sum_sq = 0.0;
    for (int64_t c = 0; c < cols; ++c) sum_sq += (xr[c] - mu) * (xr[c] - mu);
    const double rs = 1.0 / std::sqrt(sum_sq / n + eps);
    for (int64_t c = 0; c < cols; ++c) yr[c] = (xr[c] - mu) * rs * w[c] + b[c];
    if (mean) mean[r] = mu;
    if (rstd) rstd[r] = rs;
  }
}

}  // namespace tritium::ref
