// extern "C" wrappers over kernels/ref/reference.h so Python (ctypes) can call the
// float64 references. Used only by check_with_triton_interpreter.py; build with
//   g++ -std=c++20 -O2 -shared -fPIC -Ikernels kernels/ref/*.cpp \
//       kernels/tools/ref_capi.cpp -o /tmp/libtritium_kernel_refs.so
#include "ref/reference.h"

using namespace tritium::ref;

extern "C" {

void kref_vector_add(const double* x, const double* y, double* out, int64_t n) {
  ref_vector_add(x, y, out, n);
}
void kref_swiglu(const double* g, const double* u, double* out, int64_t n) {
  ref_swiglu(g, u, out, n);
}
void kref_softmax(const double* x, double* y, int64_t rows, int64_t cols) {
  ref_softmax(x, y, rows, cols);
}
void kref_rmsnorm(const double* x, const double* w, double* y, int64_t rows, int64_t cols,
                  double eps) {
  ref_rmsnorm(x, w, y, rows, cols, eps);
}
void kref_layernorm(const double* x, const double* w, const double* b, double* y, double* mean,
                    double* rstd, int64_t rows, int64_t cols, double eps) {
  ref_layernorm(x, w, b, y, mean, rstd, rows, cols, eps);
}
void kref_matmul(const double* a, const double* b, double* c, int64_t M, int64_t N, int64_t K) {
  ref_matmul(a, b, c, M, N, K);
}
void kref_attention(const double* q, const double* k, const double* v, double* o, double* lse,
                    int64_t Z, int64_t H, int64_t N, int64_t D, double sm_scale, int causal) {
  ref_attention(q, k, v, o, lse, Z, H, N, D, sm_scale, causal != 0);
}

}  // extern "C"
