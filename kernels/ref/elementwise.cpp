// Element-wise references: vector add and SwiGLU. See reference.h.
#include "ref/reference.h"

#include <cmath>

namespace tritium::ref {

void ref_vector_add(const double* x, const double* y, double* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = x[i] + y[i];
}

void ref_swiglu(const double* gate, const double* up, double* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double g = gate[i];
    const double silu = g / (1.0 + std::exp(-g));
    out[i] = silu * up[i];
  }
}

}  // namespace tritium::ref
