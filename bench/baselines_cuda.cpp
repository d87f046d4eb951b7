// baselines_cuda.cpp - cuBLAS through dlopen (no cuBLAS header is included: the few enum
// values used are those of CUDA 13's cublas_api.h and library_types.h).
#include "baselines_cuda.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include <tritium/tritium.h>

#include "device_clock.h"
#include "runtime/cuda/cuda_api.h"
#include "timing.h"

namespace tritium::bench::baseline {
namespace {

namespace fs = std::filesystem;

using cublasHandle_t = void*;
using cublasStatus_t = int;
constexpr int kOpN = 0;                 // CUBLAS_OP_N
constexpr int kR32F = 0;                // CUDA_R_32F
constexpr int kR16F = 2;                // CUDA_R_16F
constexpr int kR16BF = 14;              // CUDA_R_16BF
constexpr int kCompute32F = 68;         // CUBLAS_COMPUTE_32F
constexpr int kCompute32FFastTf32 = 77; // CUBLAS_COMPUTE_32F_FAST_TF32
constexpr int kGemmDefault = -1;        // CUBLAS_GEMM_DEFAULT

struct Cublas {
  std::string reason;  // "" when loaded
  cublasStatus_t (*create)(cublasHandle_t*) = nullptr;
  cublasStatus_t (*gemm_ex)(cublasHandle_t, int, int, int, int, int, const void*, const void*, int, int, const void*,
                            int, int, const void*, void*, int, int, int, int) = nullptr;
  const char* (*status_name)(cublasStatus_t) = nullptr;
  cublasHandle_t handle = nullptr;
};

std::vector<std::string> candidates() {
  if (const char* p = std::getenv("TRITIUM_CUBLAS"); p && *p) return {p};
  const char* names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
  std::vector<std::string> c(std::begin(names), std::end(names));
  for (const std::string& d : runtime::cuda::nvrtc_search_dirs()) {
    for (const char* n : names) c.push_back(d + "/" + n);
    if (d.ends_with("/cuda_nvrtc/lib"))
      for (const char* n : names) c.push_back(d.substr(0, d.size() - 14) + "cublas/lib/" + n);
  }
  return c;
}

Cublas& cublas() {
  static Cublas s;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string last = "no such file";
    for (const std::string& c : candidates()) {
      if (c.find('/') != std::string::npos && !fs::exists(c)) continue;
      dlerror();
      void* h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!h) {
        if (const char* e = dlerror()) last = e;
        continue;
      }
      s.create = reinterpret_cast<decltype(s.create)>(dlsym(h, "cublasCreate_v2"));
      s.gemm_ex = reinterpret_cast<decltype(s.gemm_ex)>(dlsym(h, "cublasGemmEx"));
      s.status_name = reinterpret_cast<decltype(s.status_name)>(dlsym(h, "cublasGetStatusName"));
      if (s.create && s.gemm_ex) return;
      last = c + " lacks cublasCreate_v2 or cublasGemmEx";
    }
    s.reason = fmt::format("libcublas not found (tried libcublas.so.{{13,12,}} via the loader and the CUDA "
                           "toolkit and pip wheel directories): {}",
                           last);
  });
  return s;
}

void check(const Cublas& s, cublasStatus_t st, const char* call) {
  if (st == 0) return;
  throw std::runtime_error(fmt::format("cublas: {} failed: {}", call,
                                       s.status_name ? s.status_name(st) : fmt::format("status {}", st)));
}

}  // namespace

std::string cublas_status() { return cublas().reason; }

void cublas_matmul(HostDtype t, const void* a, const void* b, void* c, int64_t m, int64_t n, int64_t k, bool tf32) {
  Cublas& s = cublas();
  if (!s.reason.empty()) throw std::runtime_error("cublas: " + s.reason);
  if (!s.handle) check(s, s.create(&s.handle), "cublasCreate_v2");
  const int type = t == HostDtype::F32 ? kR32F : t == HostDtype::F16 ? kR16F : t == HostDtype::BF16 ? kR16BF : -1;
  if (type < 0) throw std::runtime_error("cublas: matmul baseline needs fp32, fp16 or bf16 operands");
  const int compute = (t == HostDtype::F32 && tf32) ? kCompute32FFastTf32 : kCompute32F;
  const float alpha = 1.0f, beta = 0.0f;
  // Row-major C = A B is column-major C^T = B^T A^T: cuBLAS's (m, n, k) = (n, m, k) with B first.
  check(s,
        s.gemm_ex(s.handle, kOpN, kOpN, static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), &alpha, b, type,
                  static_cast<int>(n), a, type, static_cast<int>(k), &beta, c, type, static_cast<int>(n), compute,
                  kGemmDefault),
        "cublasGemmEx");
}

double cublas_peak_flops(Device& device, int64_t n, int reps) {
  if (device.name() != "cuda" || !cublas_status().empty()) return 0;
  try {
    const size_t elems = static_cast<size_t>(n) * static_cast<size_t>(n);
    // bf16 bits of uniform values in [-1, 1): a 64-bit LCG's top bits as a float's mantissa.
    std::vector<uint16_t> host(elems), host_b(elems);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (uint16_t& h : host) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      uint32_t bits = 0x3F800000u | static_cast<uint32_t>(x >> 41);  // [1, 2)
      float f;
      std::memcpy(&f, &bits, 4);
      f = (f - 1.5f) * 2.0f;  // [-1, 1)
      std::memcpy(&bits, &f, 4);
      h = static_cast<uint16_t>(bits >> 16);
    }
    // B: the same values in another order (a different matrix, not A again).
    for (size_t i = 0; i < elems; ++i) host_b[i] = host[(i * 7919 + 13) % elems];
    Buffer a = device.alloc(elems * 2), b = device.alloc(elems * 2), c = device.alloc(elems * 2);
    a.copy_from_host(host.data(), elems * 2);
    b.copy_from_host(host_b.data(), elems * 2);
    std::unique_ptr<DeviceClock> clock = clock_for(device);
    auto call = [&] { cublas_matmul(HostDtype::BF16, a.device_ptr(), b.device_ptr(), c.device_ptr(), n, n, n, false); };
    for (int i = 0; i < 3; ++i) clock->time(call);
    std::vector<double> t;
    for (int i = 0; i < std::max(1, reps); ++i) t.push_back(clock->time(call));
    const double med = median_of(t);
    return med > 0 ? 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) / med : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace tritium::bench::baseline
