// Scaled dot-product attention reference (materializes each score row). See reference.h.
#include "ref/reference.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tritium::ref {

void ref_attention(const double* q, const double* k, const double* v, double* o, double* lse,
                   int64_t Z, int64_t H, int64_t N, int64_t D, double sm_scale, bool causal) {
  std::vector<double> s(static_cast<size_t>(std::max<int64_t>(N, 1)));
  for (int64_t zh = 0; zh < Z * H; ++zh) {
    const int64_t base = zh * N * D;
    const double* qh = q + base;
    const double* kh = k + base;
    const double* vh = v + base;
    double* oh = o + base;
    for (int64_t i = 0; i < N; ++i) {
      const int64_t n_keys = causal ? i + 1 : N;  // keys j < n_keys are attended to
      double mx = -INFINITY;
      for (int64_t j = 0; j < n_keys; ++j) {
        double dot = 0.0;
        for (int64_t d = 0; d < D; ++d) dot += qh[i * D + d] * kh[j * D + d];
        s[j] = sm_scale * dot;
        mx = std::fmax(mx, s[j]);
      }
      double sum = 0.0;
      for (int64_t j = 0; j < n_keys; ++j) {
        s[j] = std::exp(s[j] - mx);
        sum += s[j];
      }
      for (int64_t d = 0; d < D; ++d) {
        double acc = 0.0;
        for (int64_t j = 0; j < n_keys; ++j) acc += s[j] * vh[j * D + d];
        oh[i * D + d] = acc / sum;
      }
      if (lse) lse[zh * N + i] = mx + std::log(sum);
    }
  }
}

}  // namespace tritium::ref
