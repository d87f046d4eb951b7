// baselines_cpu.cpp - the cpu backend's baselines (baselines_cpu.h). Compiled with -O3
// -march=native -ffast-math (bench/CMakeLists.txt) so that the loops vectorize for this
// machine, exp through glibc's vector math library (libmvec), as a performance-minded
// author would build them; no infinities or NaNs are relied on (a row's maximum starts
// from its first element), and each baseline is checked against the case's reference.
#include "baselines_cpu.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <vector>

#include "runtime/cpu/thread_pool.h"

#if defined(__F16C__)
#include <immintrin.h>
#endif

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

// Conversions of a run of elements to and from fp32: loops the compiler vectorizes (bf16:
// shifts and integer rounding), F16C's 8-wide conversions for fp16 where the machine has
// them (GCC 12 does not vectorize _Float16 conversions by itself).
template <class D>
void to_f32(const typename D::T* src, float* dst, int64_t n) {
#if defined(__F16C__)
  if constexpr (std::is_same_v<D, F16>) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
      _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i))));
    for (; i < n; ++i) dst[i] = D::ld(src[i]);
    return;
  }
#endif
  for (int64_t i = 0; i < n; ++i) dst[i] = D::ld(src[i]);
}

template <class D>
void from_f32(const float* src, typename D::T* dst, int64_t n) {
#if defined(__F16C__)
  if constexpr (std::is_same_v<D, F16>) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i),
                       _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    for (; i < n; ++i) dst[i] = D::st(src[i]);
    return;
  }
#endif
  for (int64_t i = 0; i < n; ++i) dst[i] = D::st(src[i]);
}

constexpr int64_t kChunk = 2048;  // elements converted at a time (fits L1 as fp32)

// fn(chunk of x as fp32, chunk of y as fp32, out chunk as fp32, n) over n elements, in
// chunks, the slices spread over the thread pool.
template <class D, class F>
void binary_chunks(const void* a, const void* b, void* out, int64_t n, F&& fn) {
  using T = typename D::T;
  const T* x = static_cast<const T*>(a);
  const T* y = static_cast<const T*>(b);
  T* o = static_cast<T*>(out);
  parallel_for(n, [&](int64_t lo, int64_t hi) {
    alignas(64) float fx[kChunk], fy[kChunk], fo[kChunk];
    for (int64_t c = lo; c < hi; c += kChunk) {
      const int64_t m = std::min(kChunk, hi - c);
      to_f32<D>(x + c, fx, m);
      to_f32<D>(y + c, fy, m);
      fn(fx, fy, fo, m);
      from_f32<D>(fo, o + c, m);
    }
  });
}

}  // namespace

void vector_add(HostDtype t, const void* a, const void* b, void* out, int64_t n) {
  dispatch<void>(t, [&](auto d) {
    using D = decltype(d);
    if constexpr (std::is_same_v<D, F32>) {
      const float* x = static_cast<const float*>(a);
      const float* y = static_cast<const float*>(b);
      float* o = static_cast<float*>(out);
      parallel_for(n, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) o[i] = x[i] + y[i];
      });
    } else {
      binary_chunks<D>(a, b, out, n, [](const float* x, const float* y, float* o, int64_t m) {
        for (int64_t i = 0; i < m; ++i) o[i] = x[i] + y[i];
      });
    }
  });
}

void swiglu(HostDtype t, const void* g, const void* u, void* out, int64_t n) {
  dispatch<void>(t, [&](auto d) {
    using D = decltype(d);
    binary_chunks<D>(g, u, out, n, [](const float* x, const float* y, float* o, int64_t m) {
      for (int64_t i = 0; i < m; ++i) o[i] = x[i] / (1.0f + std::exp(-x[i])) * y[i];
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
        to_f32<D>(in + r * x_stride, e.data(), cols);
        float m = e[0];
        for (int64_t j = 1; j < cols; ++j) m = std::max(m, e[j]);
        float s = 0;
        for (int64_t j = 0; j < cols; ++j) s += (e[j] = std::exp(e[j] - m));
        const float inv = 1.0f / s;
        for (int64_t j = 0; j < cols; ++j) e[j] *= inv;
        from_f32<D>(e.data(), o + r * cols, cols);
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
    T* o = static_cast<T*>(y);
    std::vector<float> wf(static_cast<size_t>(cols));
    to_f32<D>(static_cast<const T*>(w), wf.data(), cols);
    parallel_for(rows, [&](int64_t lo, int64_t hi) {
      std::vector<float> v(static_cast<size_t>(cols));
      for (int64_t r = lo; r < hi; ++r) {
        to_f32<D>(in + r * x_stride, v.data(), cols);
        float ss = 0;
        for (int64_t j = 0; j < cols; ++j) ss += v[j] * v[j];
        const float rs = 1.0f / std::sqrt(ss / static_cast<float>(cols) + eps);
        for (int64_t j = 0; j < cols; ++j) v[j] = v[j] * rs * wf[j];
        from_f32<D>(v.data(), o + r * cols, cols);
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
    T* o = static_cast<T*>(y);
    std::vector<float> wf(static_cast<size_t>(cols)), bf(static_cast<size_t>(cols));
    to_f32<D>(static_cast<const T*>(w), wf.data(), cols);
    to_f32<D>(static_cast<const T*>(b), bf.data(), cols);
    parallel_for(rows, [&](int64_t lo, int64_t hi) {
      std::vector<float> v(static_cast<size_t>(cols));
      for (int64_t r = lo; r < hi; ++r) {
        to_f32<D>(in + r * x_stride, v.data(), cols);
        float s = 0;
        for (int64_t j = 0; j < cols; ++j) s += v[j];
        const float mu = s / static_cast<float>(cols);
        float var = 0;
        for (int64_t j = 0; j < cols; ++j) var += (v[j] - mu) * (v[j] - mu);
        const float rs = 1.0f / std::sqrt(var / static_cast<float>(cols) + eps);
        for (int64_t j = 0; j < cols; ++j) v[j] = (v[j] - mu) * rs * wf[j] + bf[j];
        from_f32<D>(v.data(), o + r * cols, cols);
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
