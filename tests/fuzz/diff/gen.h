// The differential fuzzer's kernel generator: random, well-typed Triton-language kernels.
//
// A generated kernel works on a 2-D problem of n_rows x n_cols elements tiled by
// BM x BN programs (grid = cdiv(n_rows, BM) x cdiv(n_cols, BN)), so ragged edges and masks
// are always exercised. It reads 2-D inputs (pointer loads with mask / other, or block
// pointers with boundary_check and padding), a row vector and a column vector, and the
// scalar arguments; computes a random chain of elementwise ops (arithmetic with Triton's
// promotion and weak Python scalars, integer division / modulo / shifts including division
// by zero and over-wide shifts — pinned by the interpreter's semantics — bitwise ops, casts
// and bitcasts, comparisons and where, min / max / clamp, tritium's own exp / exp2 / log /
// log2 / sqrt, fma), broadcasts of vectors, reductions and scans along either axis, dots
// (square tiles of 16 or 32, fp16 / bf16 / fp32 ieee / int8 operands), trans, loops with a
// loop-carried accumulator, and an if on a scalar; and stores a 2-D output (pointer or
// block-pointer store) and the per-program row reductions of a second output.
//
// Everything is drawn from one 64-bit seed with tritium's own SplitMix64 (not <random>'s
// distributions, whose results differ between standard libraries), so `generate(seed)`
// is the same kernel everywhere. Changing the generator changes what a seed means; the
// committed regressions (tests/fuzz/regressions/) therefore store the kernel source, not
// the seed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fuzz {

/// SplitMix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): the generator's only source of randomness.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) (n > 0; the modulo bias is irrelevant here).
  uint64_t below(uint64_t n) { return next() % n; }
  /// True with probability num / den.
  bool chance(int num, int den) { return below(static_cast<uint64_t>(den)) < static_cast<uint64_t>(num); }
};

/// One buffer argument of a generated kernel.
struct BufferSpec {
  std::string name;   ///< the parameter's name in the source
  std::string dtype;  ///< signature dtype ("fp32", "i8", "u32", "bf16", ...)
  int64_t elements = 0;
  bool output = false;  ///< poisoned before the launch and compared afterwards
};

/// A generated (or replayed) test case: everything needed to run it.
struct Case {
  std::string source;     ///< the module's Python text (one @triton.jit kernel, "fuzz_kernel")
  std::string signature;  ///< AOT signature, constexprs in place
  std::vector<BufferSpec> buffers;  ///< the pointer parameters, in parameter order (they come first)
  int64_t n_rows = 0, n_cols = 0;   ///< the problem's extent (the first two scalar arguments)
  float s0 = 0.f;                   ///< fp32 scalar argument
  int32_t k0 = 0;                   ///< i32 scalar argument
  int32_t n_iter = 0;               ///< i32 scalar argument: the loops' trip count
  int64_t grid_x = 1, grid_y = 1;
  uint64_t input_seed = 0;  ///< seeds the inputs' values (inputs.h)
  bool libm = false;        ///< calls a libm-backed function (a few ulp allowed across backends)
};

/// The random kernel of `seed`.
Case generate(uint64_t seed);

}  // namespace fuzz
