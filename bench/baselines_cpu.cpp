// baselines_cpu.cpp - the cpu backend's baselines (baselines_cpu.h). Compiled with -O3
// -march=native (bench/CMakeLists.txt) so that the loops vectorize for this machine, as the
// cpu backend's generated code does.
#include "baselines_cpu.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <vector>

#include "runtime/cpu/thread_pool.h"

#ifdef TRITIUM_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace tritium::bench::baseline {
namespace {

struct F32 {
  using T = float;
  static float ld(T v) { return v; }
  static T st(float f) { return f; }
};
struct F16 {
  using T = _Float16;
  static float ld(T v) { return static_cast<float>(v); }
  static T st(float f) { return static_cast<_Float16>(f); }
};
struct BF16 {
  using T = uint16_t;
  static float ld(T v) {
    const uint32_t u = static_cast<uint32_t>(v) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  static T st(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<T>((u >> 16) | 0x40u);  // NaN stays NaN
    u += 0x7fffu + ((u >> 16) & 1u);
    return static_cast<T>(u >> 16);
  }
};

// Calls fn(begin, end) on contiguous slices of [0, n), one per worker of the cpu backend's
// thread pool.
void parallel_for(int64_t n, const std::function<void(int64_t, int64_t)>& fn) {
  runtime::cpu::ThreadPool& pool = runtime::cpu::ThreadPool::global();
  const int64_t w = pool.size();
  pool.run([&](unsigned i) {
    const int64_t b = n * i / w, e = n * (i + 1) / w;
    if (b < e) fn(b, e);
  });
}

template <class D, class F>
void dispatch(HostDtype t, F&& f) {
  switch (t) {
    case HostDtype::F32: f(F32{}); break;
    case HostDtype::F16: f(F16{}); break;
    case HostDtype::BF16: f(BF16{}); break;
  }
}

}  // namespace

void vector_add(HostDtype t, const void* a, const void* b, void* out, int64_t n) {
  dispatch<void>(t, [&](auto d) {
    using D = decltype(d);
    using T = typename D::T;
    const T* x = static_cast<const T*>(a);
    const T* y = static_cast<const T*>(b);
    T* o = static_cast<T*>(out);
    parallel_for(n, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) o[i] = D::st(D::ld(x[i]) + D::ld(y[i]));
    });
  });
}

void swiglu(HostDtype t, const void* g, const void* u, void* out, int64_t n) {
  dispatch<void>(t, [&](auto d) {
    using D = decltype(d);
    using T = typename D::T;
    const T* x = static_cast<const T*>(g);
    const T* y = static_cast<const T*>(u);
    T* o = static_cast<T*>(out);
    parallel_for(n, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) {
        const float a = D::ld(x[i]);
        o[i] = D::st(a / (1.0f + std::exp(-a)) * D::ld(y[i]));
      }
    });
  });
}

void softmax(HostDtype t, const void* x, void* out, int64_t rows, int64_t cols, int64_t x_stride) {
  dispatch<void>(t, [&](auto d) {
    using D = decltype(d);
    using T = typename D::T;
    const T* in = static_cast<const T*>(x);
    T* o = static_cast<T*>(out);
    parallel_for(rows, [&](int64_t lo, int64_t hi) {
      std::vector<float> e(static_cast<size_t>(cols));
      for (int64_t r = lo; r < hi; ++r) {
        const T* row = in + r * x_stride;
        float m = -INFINITY;
        for (int64_t j = 0; j < cols; ++j) m = std::fmax(m, D::ld(row[j]));
        float s = 0;
        for (int64_t j = 0; j < cols; ++j) s += (e[j] = std::exp(D::ld(row[j]) - m));
        const float inv = 1.0f / s;
        for (int64_t j = 0; j < cols; ++j) o[r * cols + j] = D::st(e[j] * inv);
      }
    });
  });
}

void rmsnorm(HostDtype t, const void* x, const void* w, void* y, int64_t rows, int64_t cols, int64_t x_stride,
             float eps) {
  dispatch<void>(t, [&](auto d) {
    using D = decltype(d);
    using T = typename D::T;
    const T* in = static_cast<const T*>(x);
    const T* wt = static_cast<const T*>(w);
    T* o = static_cast<T*>(y);
    parallel_for(rows, [&](int64_t lo, int64_t hi) {
      for (int64_t r = lo; r < hi; ++r) {
        const T* row = in + r * x_stride;
        float ss = 0;
        for (int64_t j = 0; j < cols; ++j) ss += D::ld(row[j]) * D::ld(row[j]);
        const float rs = 1.0f / std::sqrt(ss / static_cast<float>(cols) + eps);
        for (int64_t j = 0; j < cols; ++j) o[r * cols + j] = D::st(D::ld(row[j]) * rs * D::ld(wt[j]));
      }
    });
  });
}

void layernorm(HostDtype t, const void* x, const void* w, const void* b, void* y, float* mean, float* rstd,
               int64_t rows, int64_t cols, int64_t x_stride, float eps) {
  dispatch<void>(t, [&](auto d) {
    using D = decltype(d);
    using T = typename D::T;
    const T* in = static_cast<const T*>(x);
    const T* wt = static_cast<const T*>(w);
    const T* bs = static_cast<const T*>(b);
    T* o = static_cast<T*>(y);
    parallel_for(rows, [&](int64_t lo, int64_t hi) {
      for (int64_t r = lo; r < hi; ++r) {
        const T* row = in + r * x_stride;
        float s = 0;
        for (int64_t j = 0; j < cols; ++j) s += D::ld(row[j]);
        const float mu = s / static_cast<float>(cols);
        float v = 0;
        for (int64_t j = 0; j < cols; ++j) v += (D::ld(row[j]) - mu) * (D::ld(row[j]) - mu);
        const float rs = 1.0f / std::sqrt(v / static_cast<float>(cols) + eps);
        for (int64_t j = 0; j < cols; ++j)
          o[r * cols + j] = D::st((D::ld(row[j]) - mu) * rs * D::ld(wt[j]) + D::ld(bs[j]));
        mean[r] = mu;
        rstd[r] = rs;
      }
    });
  });
}

bool have_blas() {
#ifdef TRITIUM_HAVE_OPENBLAS
  return true;
#else
  return false;
#endif
}

void matmul(HostDtype t, const void* a, const void* b, void* c, int64_t m, int64_t n, int64_t k) {
#ifdef TRITIUM_HAVE_OPENBLAS
  if (t == HostDtype::F32) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
                static_cast<int>(k), 1.0f, static_cast<const float*>(a), static_cast<int>(k),
                static_cast<const float*>(b), static_cast<int>(n), 0.0f, static_cast<float*>(c), static_cast<int>(n));
    return;
  }
  std::vector<float> fa(static_cast<size_t>(m * k)), fb(static_cast<size_t>(k * n)), fc(static_cast<size_t>(m * n));
  dispatch<void>(t, [&](auto d) {
    using D = decltype(d);
    using T = typename D::T;
    for (size_t i = 0; i < fa.size(); ++i) fa[i] = D::ld(static_cast<const T*>(a)[i]);
    for (size_t i = 0; i < fb.size(); ++i) fb[i] = D::ld(static_cast<const T*>(b)[i]);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
                static_cast<int>(k), 1.0f, fa.data(), static_cast<int>(k), fb.data(), static_cast<int>(n), 0.0f,
                fc.data(), static_cast<int>(n));
    for (size_t i = 0; i < fc.size(); ++i) static_cast<T*>(c)[i] = D::st(fc[i]);
  });
#else
  (void)t, (void)a, (void)b, (void)c, (void)m, (void)n, (void)k;
  throw std::runtime_error("this build has no OpenBLAS (install libopenblas-dev and rebuild)");
#endif
}

}  // namespace tritium::bench::baseline
