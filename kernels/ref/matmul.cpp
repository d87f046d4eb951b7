// Matrix-multiplication reference. See reference.h.
#include "ref/reference.h"

namespace tritium::ref {

void ref_matmul(const double* a, const double* b, double* c, int64_t M, int64_t N, int64_t K) {
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t n = 0; n < N; ++n) {
      double acc = 0.0;
      for (int64_t k = 0; k < K; ++k) acc += a[m * K + k] * b[k * N + n];
      c[m * N + n] = acc;
    }
  }
}

}  // namespace tritium::ref
