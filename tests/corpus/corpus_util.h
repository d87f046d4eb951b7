// Kernel-corpus harness (tests/corpus): kernels written in the styles real users bring
// (Triton tutorials, Liger, flash-linear-attention, GPTQ-style int4, Inductor output), kept
// as files under tests/corpus/kernels/, compiled for the CPU backend through the public API
// and checked against float64 references written in each test as plain loops.
//
//   auto k = corpus::compile("liger_rmsnorm.py", "_rms_norm_forward_kernel", "*fp32, ..., 1024");
//   auto x = corpus::upload(xs);                 // inputs: fresh random values, never zero
//   corpus::Output<float> y(n);                  // outputs: NaN-poisoned, with a guard tail
//   k.launch({rows}, {x, y, n});
//   corpus::expect_close(corpus::widen(y.get()), want, 2e-6, 1e-6, "rmsnorm y");
//
// Output<T> allocates `n + guard` elements, fills all of them with poison<T>() (a NaN for
// floats, 0xAB bytes for integers and 16-bit floats' NaN 0x7E5A), and get() fails the test if
// a guard element changed (a write past the end). expect_close never passes a NaN.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "tritium/tritium.h"

namespace corpus {

using tritium::cdiv;

// ---- random inputs -----------------------------------------------------------------------

/// A generator seeded from the current test's name (so a failure reproduces on its own):
/// the conformance harness's (tests/conformance/conformance_util.cpp, linked in).
std::mt19937_64& rng();

/// `n` uniform values in [lo, hi], never exactly zero.
std::vector<float> uniform(size_t n, float lo = -1.f, float hi = 1.f);
/// `n` uniform integers in [lo, hi] (inclusive).
std::vector<int64_t> uniform_int(size_t n, int64_t lo, int64_t hi);

/// 16-bit float data (fp16, or bf16 from uniform_bf16): the bit patterns to upload and
/// their exact values.
struct Half {
  std::vector<uint16_t> bits;
  std::vector<double> vals;
};
/// `n` uniform values in [lo, hi] rounded to fp16 (never zero after rounding).
Half uniform_half(size_t n, float lo = -1.f, float hi = 1.f);

/// `n` uniform values in [lo, hi] rounded to bf16 (never zero after rounding).
Half uniform_bf16(size_t n, float lo = -1.f, float hi = 1.f);
/// Exact value of a bf16 bit pattern, element-wise.
std::vector<double> widen_bf16(const std::vector<uint16_t>& v);

/// binary16 bits of `v` rounded to nearest even (once, from the double; overflow gives inf).
uint16_t to_half(double v);
/// Exact value of a binary16 bit pattern.
double half_value(uint16_t h);

/// Element-wise conversions to double for comparisons.
std::vector<double> widen(const std::vector<float>& v);
std::vector<double> widen_half(const std::vector<uint16_t>& v);
template <class T>
std::vector<double> widen_int(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

// ---- compiling and buffers -------------------------------------------------------------------

/// The device the corpus runs on: the CPU backend, or the one named by the environment
/// variable CORPUS_BACKEND (e.g. "interp", to compare the reference interpreter by hand).
const tritium::Device& device();
/// True when device() runs fp32 dots at input_precision "tf32" (upstream's default) on tf32
/// tensor cores: the cuda backend in native numerics (operands rounded to 10 mantissa bits,
/// 2^-11 each); the other backends compute them as ieee.
bool dot_tf32();
/// Path of a corpus kernel file (tests/corpus/kernels/<file>).
std::string kernel_path(const std::string& file);

/// Compiles kernel `kernel` of tests/corpus/kernels/`file` for device().
tritium::CompiledKernel compile(const std::string& file, const std::string& kernel, const std::string& signature,
                                const std::map<std::string, tritium::ConstexprValue>& constexprs = {},
                                const tritium::CompileOptions& options = {});

/// The `@triton.autotune` configs of a corpus kernel, as tritium evaluated its decorator.
std::vector<tritium::AutotuneConfig> autotune_configs(const std::string& file, const std::string& kernel);
/// Compiles an `@triton.autotune` kernel AOT with config number `config` of its decorator
/// (its meta-parameters, num_warps and num_stages; Kernel::resolve_meta) plus `constexprs`
/// for the parameters no config sets.
tritium::CompiledKernel compile_autotuned(const std::string& file, const std::string& kernel,
                                          const std::string& signature, int config,
                                          const std::map<std::string, tritium::ConstexprValue>& constexprs = {});
/// Triton's `kernel[grid](*args, **meta)` through the autotuner (Kernel::run): times every
/// config on the first call for a key, then launches the fastest. Returns the config used.
int run_autotuned(const std::string& file, const std::string& kernel, const tritium::GridFn& grid,
                  const std::vector<tritium::Arg>& args, const tritium::Meta& meta = {});
/// An integer meta-parameter of a grid function's META.
int64_t meta_int(const tritium::Meta& meta, const std::string& name);

/// Uploads `v` to device().
template <class T>
tritium::Buffer upload(const std::vector<T>& v) {
  return device().upload(v);
}

/// The poison an output of element type T starts as.
template <class T>
T poison() {
  if constexpr (std::is_floating_point_v<T>) {
    return std::numeric_limits<T>::quiet_NaN();
  } else if constexpr (sizeof(T) == 2) {
    return static_cast<T>(0x7E5A);  // a NaN as fp16 and as bf16 (an odd integer otherwise)
  } else {
    T v;
    std::memset(&v, 0xAB, sizeof v);
    return v;
  }
}

/// An output buffer of `n` elements of T plus `guard` guard elements, all poisoned (or, with
/// `init`, holding `init` followed by the poisoned guard: an in-place argument).
template <class T>
class Output {
 public:
  explicit Output(size_t n, size_t guard = 16) : n_(n), guard_(guard) {
    buf_ = device().alloc((n + guard) * sizeof(T));
    buf_.fill(poison<T>());
  }
  Output(const std::vector<T>& init, size_t guard = 16) : Output(init.size(), guard) {
    if (!init.empty()) buf_.copy_from_host(init.data(), init.size() * sizeof(T));
  }
  operator tritium::Arg() const { return tritium::Arg(buf_); }  // NOLINT(google-explicit-constructor)
  const tritium::Buffer& buffer() const { return buf_; }
  /// Poisons every element again (before a second launch that must rewrite them all).
  void repoison() { buf_.fill(poison<T>()); }
  /// The `n` elements; fails the test when a guard element was overwritten.
  std::vector<T> get() const {
    std::vector<T> all = buf_.download<T>();
    T p = poison<T>();
    for (size_t i = n_; i < n_ + guard_; ++i)
      if (std::memcmp(&all[i], &p, sizeof(T)) != 0) {
        ADD_FAILURE() << "write past the end of an output of " << n_ << " elements (guard element " << i - n_ << ")";
        break;
      }
    all.resize(n_);
    return all;
  }

 private:
  tritium::Buffer buf_;
  size_t n_, guard_;
};

// ---- checks ---------------------------------------------------------------------------------

/// Expects |got[i] - want[i]| <= abs + rel * |want[i]| for every i. NaN in `got` fails (an
/// unwritten element reads as the NaN poison), and so does a NaN in `want` (a bad reference).
/// Reports the first few failures and the largest error seen; returns the number of failures.
size_t expect_close(const std::vector<double>& got, const std::vector<double>& want, double rel, double abs,
                    const std::string& what);
/// The same with a tolerance per element (|got[i] - want[i]| <= tol[i]).
size_t expect_within(const std::vector<double>& got, const std::vector<double>& want, const std::vector<double>& tol,
                     const std::string& what);

/// Expects got == want element-wise (integers, indices, bit patterns).
template <class T, class U>
void expect_equal(const std::vector<T>& got, const std::vector<U>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (static_cast<int64_t>(got[i]) != static_cast<int64_t>(want[i]) && bad++ < 5)
      ADD_FAILURE() << what << "[" << i << "]: got " << static_cast<int64_t>(got[i]) << ", want "
                    << static_cast<int64_t>(want[i]);
  EXPECT_EQ(bad, 0) << what << ": " << bad << " of " << got.size() << " elements differ";
}

}  // namespace corpus
