// Conformance harness: compiles one Triton-language kernel from a string for the
// reference interpreter ("interp") and the CPU backend ("cpu"), launches both on the same
// inputs with poisoned outputs, checks that the two backends produce BIT-IDENTICAL
// outputs (the interpreter is the executable specification), and hands the outputs back
// for comparison with expected values computed independently in the test.
//
// The cuda backend joins (cuda_check below): every kernel is also compiled for the GPU with
// NVRTC (PTX for compute_90 and an sm_90 cubin, no GPU needed; TRITIUM_NO_NVRTC=1 skips),
// and where a GPU is present it runs there twice. In portable numerics it must give the
// interpreter's bits, with two allowances: a NaN may carry another payload (NVIDIA's arithmetic returns the canonical
// NaN; payloads are not part of the contract, interpreter.h), and outputs of kernels calling
// a libm-backed math function (sin, cos, erf, tanh, pow, the sin / cos of tl.randn and tl.pair_uniform_to_normal, ...: CUDA's
// library differs from glibc's by an ulp or two) may differ by up to 4 ulp (fp32 / fp64) or
// 1 ulp (fp16 / bf16). In native numerics (the case's own options; skipped when the case
// asks for portable) the approximations upstream Triton uses (div.full, ex2.approx, tensor
// cores) may move float outputs: each fp32 / fp16 / bf16 element must be within a relative
// 2^-14 (fp32), 2^-9 (fp16) or 2^-6 (bf16) of the interpreter's, against the larger of the
// two and the argument's largest written magnitude; NaN where the interpreter has NaN, the
// same infinities; fp64 and integer outputs as in portable numerics. Float element types come from the signature's pointer types. A case
// whose outputs depend on the order in which a program's lanes apply atomics (the old
// values returned) declares it with order_free(): on the GPU that order is not defined.
//
// The opencl backend joins where an OpenCL device is present (PoCL on CI: scripts/test sets
// TRITIUM_REQUIRE_OPENCL=1, and then a missing device fails): every case also runs there in
// portable numerics and must give the interpreter's bits with the allowances of the cuda
// portable comparison (NaN payloads; up to 4 / 1 ulp for kernels calling a libm-backed
// function, the device's OpenCL math library being another libm). Ops the OpenCL C
// renderer refuses as "not lowered ... yet" (atomics, device_print) skip that run, loudly
// in the test log; any other refusal, build error or difference fails the case.
//
// The msl-emu backend always joins: every case is also rendered as Metal shading language
// (the threadgroup shape where the threadgroup renderer lowers the kernel, else the serial
// shape), compiled as C++ against tritium's emulated <metal_stdlib> and run on the CPU. In
// portable numerics it must give the interpreter's bits exactly (the emulator's math
// library is the interpreter's), except in kernels calling erf (tritium's own on Metal, which
// has none: the cuda comparison's libm allowance applies) and in the outputs order_free()
// names (a threadgroup's threads apply atomics in thread order); in native numerics (when
// the case does not ask for portable) it is compared as the cuda backend's native run.
// What the MSL renderer refuses as "not lowered by the MSL renderer yet", and fp64 ("Metal
// has no double"), skips those runs, loudly in the test log; any other refusal, build error
// or difference fails the case.
//
//   Case c(kSrc, "kernel", "*fp32, *fp32, i32, 128");
//   c.in(x).out<float>(n).scalar(n);           // arguments in parameter order
//   auto r = c.run({1});                        // grid
//   std::vector<float> y = r.get<float>(1);     // output of argument 1
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "tritium/tritium.h"

namespace conformance {

/// A fresh seeded generator per test (seed from the test name, so a failure reproduces).
std::mt19937_64& rng();

/// `n` uniform values in [lo, hi] that are never exactly zero.
std::vector<float> rand_f32(size_t n, float lo = -4.f, float hi = 4.f);
std::vector<double> rand_f64(size_t n, double lo = -4., double hi = 4.);
/// `n` uniform integers in [lo, hi] excluding zero when `nonzero`.
template <class T>
std::vector<T> rand_int(size_t n, int64_t lo, int64_t hi, bool nonzero = true) {
  std::uniform_int_distribution<int64_t> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) {
    int64_t r;
    do r = d(rng()); while (nonzero && r == 0);
    x = static_cast<T>(r);
  }
  return v;
}

/// Poison pattern for an output of element type T (NaN for floats, 0x5A bytes otherwise).
template <class T>
T poison() {
  if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::quiet_NaN();
  T v;
  std::memset(&v, 0x5A, sizeof v);
  return v;
}

/// Outputs of one run: raw bytes per buffer argument (index = argument position).
struct Result {
  std::vector<std::vector<uint8_t>> bytes;
  template <class T>
  std::vector<T> get(size_t arg) const {
    const auto& b = bytes.at(arg);
    std::vector<T> v(b.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
    return v;
  }
};

class Case {
 public:
  Case(std::string source, std::string kernel, std::string signature, tritium::CompileOptions opts = {})
      : source_(std::move(source)), kernel_(std::move(kernel)), signature_(std::move(signature)), opts_(opts) {}

  /// An input buffer (copied in before the launch).
  template <class T>
  Case& in(const std::vector<T>& v) {
    Param p;
    p.kind = Param::Buffer;
    p.bytes.resize(v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(p.bytes.data(), v.data(), p.bytes.size());
    params_.push_back(std::move(p));
    return *this;
  }
  /// An output buffer of `n` elements of T, filled with poison<T>() before the launch.
  template <class T>
  Case& out(size_t n) {
    return in(std::vector<T>(n, poison<T>()));
  }
  /// A scalar argument.
  Case& scalar(tritium::Arg a) {
    Param p;
    p.kind = Param::Scalar;
    p.scalar = std::make_shared<tritium::Arg>(a);
    params_.push_back(std::move(p));
    return *this;
  }
  /// Arguments (by index; none given: every argument) whose contents depend on the order
  /// in which a program's lanes apply atomics (see the file comment): the cuda run is
  /// compiled and launched, and only the other arguments are compared.
  Case& order_free(std::vector<int> args = {}) {
    order_free_ = true;
    order_free_args_ = std::move(args);
    return *this;
  }
  /// The kernel has a dot of fp32 operands at input_precision "tf32" (upstream's default):
  /// in native numerics the GPU runs it on tf32 tensor cores (operands rounded to 10
  /// mantissa bits), so its fp32 outputs may differ from the interpreter's (which computes
  /// ieee) by 2^-7 of the output's scale instead of 2^-14 — K products of two 2^-11
  /// roundings each, against outputs of the products' magnitude. The test's own check
  /// against its float64 reference is the precise one.
  Case& tf32_dot() {
    tf32_dot_ = true;
    return *this;
  }
  /// Runs on interp and cpu; expects bit-identical buffers; returns the interp result.
  Result run(const tritium::Grid& grid);
  /// Runs on one backend only (with the case's options, or `opts`).
  Result run_on(const std::string& backend, const tritium::Grid& grid);
  Result run_on(const std::string& backend, const tritium::Grid& grid, const tritium::CompileOptions& opts);

 private:
  struct Param {
    enum Kind { Buffer, Scalar } kind = Buffer;
    std::vector<uint8_t> bytes;
    std::shared_ptr<tritium::Arg> scalar;
  };
  /// Compiles for the GPU (NVRTC) and, where a GPU is present, runs there and compares
  /// with the interpreter's result `ref` (see the file comment).
  void cuda_check(const tritium::Grid& grid, const Result& ref);
  /// Compares a cuda run `c` with the interpreter's `ref` (see the file comment); `native`:
  /// the run used native numerics.
  void compare_cuda(const Result& ref, const Result& c, bool native, const char* backend = "cuda") const;
  /// Runs on the opencl backend (portable numerics) where a device is present and compares
  /// with `ref` (see the file comment).
  void opencl_check(const tritium::Grid& grid, const Result& ref);
  /// Runs on the msl-emu backend (the case's own options) and requires the interpreter's
  /// bits (see the file comment).
  void msl_emu_check(const tritium::Grid& grid, const Result& ref);
  /// Fails the test for each output of `r` that is not byte for byte `ref`'s (the
  /// interpreter's), naming `backend`, the argument and the first differing byte.
  /// ADD_FAILURE for each output whose bytes differ from `ref`'s (`skip_order_free`: not
  /// the outputs order_free() names, whose values depend on the order of a program's threads).
  void expect_same_bytes(const Result& ref, const Result& r, const char* backend, bool skip_order_free = false) const;
  std::string source_, kernel_, signature_;
  tritium::CompileOptions opts_;
  std::vector<Param> params_;
  bool order_free_ = false;
  std::vector<int> order_free_args_;  // empty with order_free_: all
  bool tf32_dot_ = false;
};

/// True when the cuda backend has a GPU to run on (cases then also run there).
bool gpu_present();

/// Bits of a float / double (for exact comparisons that also distinguish NaN payloads and ±0).
uint32_t bits(float f);
uint64_t bits(double d);

/// Asserts |got - want| <= tol for every element; NaN in `got` always fails. `what` names the case.
void expect_close(const std::vector<float>& got, const std::vector<double>& want, double rel, double abs,
                  const std::string& what);

/// Expected-compile-error helper: compiling must throw tritium::CompileError whose message
/// contains `needle`; returns the error for location checks.
tritium::CompileError expect_compile_error(const std::string& source, const std::string& kernel,
                                           const std::string& signature, const std::string& needle);

}  // namespace conformance
