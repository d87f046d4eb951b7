// Exhaustive accuracy check of src/common/tmath.inc: runs tr_expf, tr_exp2f, tr_logf and
// tr_log2f on all 2^32 binary32 inputs (or every STRIDE-th bit pattern) and compares each
// result with the libm function in double, reporting the largest error in ulps of the
// correctly rounded float result (subnormal results: units of 2^-149) and any special-value
// mismatch (NaN vs non-NaN, wrong infinity, wrong sign of zero). Not part of the build:
//
//   g++ -std=gnu++20 -O3 -march=native -ffp-contract=off -fno-fast-math -fno-math-errno \
//       -fno-trapping-math -pthread -I. tests/tools/tmath_exhaustive.cpp -o /tmp/tmath_exhaustive
//   /tmp/tmath_exhaustive [STRIDE] [THREADS]
//
// The flags are the generated kernels' (src/runtime/cpu/compiler.cpp). Exit status 1 when
// an error exceeds 1 ulp or a special value is wrong.
#include <stdint.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "src/common/tmath.inc"

namespace {

double ulp_of(float cr) {  // ulp of the correctly rounded result's binade
  float a = std::fabs(cr);
  if (a < 0x1p-126f) return 0x1p-149;
  int e;
  std::frexp(a, &e);  // a = m 2^e, m in [0.5, 1)
  return std::ldexp(1.0, e - 24);
}

struct Stat {
  double max_ulp = 0;
  uint32_t worst = 0;
  uint64_t bad_special = 0;
  uint32_t first_bad = 0;
};

// Error of y against the double reference ref; -1 flags a special-value mismatch.
double err_ulp(float y, double ref) {
  if (std::isnan(ref)) return std::isnan(y) ? 0.0 : -1.0;
  if (std::isnan(y)) return -1.0;
  float cr = (float)ref;
  if (std::isinf(cr)) return (y == cr) ? 0.0 : -1.0;
  if (std::isinf(y)) return -1.0;
  if (cr == 0 && y == 0 && std::signbit(cr) != std::signbit(y)) return -1.0;
  return std::fabs((double)y - ref) / ulp_of(cr);
}

template <class F, class R>
void run(const char* name, F f, R ref, uint64_t stride, unsigned threads, bool* fail) {
  std::vector<Stat> st(threads);
  std::vector<std::thread> th;
  const uint64_t n = (1ull << 32) / stride;
  for (unsigned t = 0; t < threads; ++t) {
    th.emplace_back([&, t] {
      Stat s;
      const uint64_t lo = n * t / threads, hi = n * (t + 1) / threads;
      float in[1024], out[1024];
      for (uint64_t i = lo; i < hi; i += 1024) {
        const uint64_t m = hi - i < 1024 ? hi - i : 1024;
        for (uint64_t k = 0; k < m; ++k) {
          uint32_t b = (uint32_t)((i + k) * stride);
          std::memcpy(&in[k], &b, 4);
        }
        for (uint64_t k = 0; k < m; ++k) out[k] = f(in[k]);  // vectorized
        for (uint64_t k = 0; k < m; ++k) {
          double e = err_ulp(out[k], ref((double)in[k]));
          if (e < 0) {
            if (!s.bad_special) std::memcpy(&s.first_bad, &in[k], 4);
            ++s.bad_special;
          } else if (e > s.max_ulp) {
            s.max_ulp = e;
            std::memcpy(&s.worst, &in[k], 4);
          }
        }
      }
      st[t] = s;
    });
  }
  for (auto& x : th) x.join();
  Stat all;
  for (auto& s : st) {
    if (s.max_ulp > all.max_ulp) { all.max_ulp = s.max_ulp; all.worst = s.worst; }
    if (s.bad_special && !all.bad_special) all.first_bad = s.first_bad;
    all.bad_special += s.bad_special;
  }
  float w;
  std::memcpy(&w, &all.worst, 4);
  std::printf("%-9s max %.6f ulp at x = %a (0x%08x); special-value mismatches: %llu", name, all.max_ulp, (double)w,
              all.worst, (unsigned long long)all.bad_special);
  if (all.bad_special) std::printf(" (first at bits 0x%08x)", all.first_bad);
  std::printf("\n");
  if (all.max_ulp > 1.0 || all.bad_special) *fail = true;
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t stride = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1;
  const unsigned threads = argc > 2 ? (unsigned)std::atoi(argv[2]) : std::thread::hardware_concurrency();
  std::printf("tmath exhaustive check: every %llu-th of 2^32 inputs, %u threads\n", (unsigned long long)stride,
              threads);
  bool fail = false;
  run("tr_expf", [](float x) { return tr_expf(x); }, [](double x) { return std::exp(x); }, stride, threads, &fail);
  run("tr_exp2f", [](float x) { return tr_exp2f(x); }, [](double x) { return std::exp2(x); }, stride, threads, &fail);
  run("tr_logf", [](float x) { return tr_logf(x); }, [](double x) { return std::log(x); }, stride, threads, &fail);
  run("tr_log2f", [](float x) { return tr_log2f(x); }, [](double x) { return std::log2(x); }, stride, threads, &fail);
  return fail ? 1 : 0;
}
