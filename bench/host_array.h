// host_array.h - host-side data of one bench case: a deterministic RNG and the host copy of
// a kernel buffer (elements stored as the bit patterns the kernel sees).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "host_dtype.h"

namespace tritium::bench {

/// Deterministic pseudo-random numbers (splitmix64): the same seed gives the same sequence on
/// every platform and standard library, unlike std::uniform_real_distribution.
class Rng {
 public:
  /// A generator started from `seed`.
  explicit Rng(uint64_t seed) : state_(seed) {}
  /// The next 64 random bits.
  uint64_t next();
  /// A double uniform in [lo, hi) (53 random bits).
  double uniform(double lo, double hi);

 private:
  uint64_t state_;
};

/// A 64-bit seed derived from `text` (FNV-1a), so each case id has its own stream.
uint64_t seed_from(const std::string& text);

/// The host copy of one kernel buffer: `count` elements of `dtype`, little-endian bit
/// patterns in `bytes`.
struct HostArray {
  std::string name;           ///< the kernel parameter it is passed as ("x", "out", ...)
  HostDtype dtype = HostDtype::F32;  ///< element dtype
  size_t count = 0;           ///< number of elements
  bool is_output = false;     ///< written by the kernel (poisoned before the launch)
  std::vector<uint8_t> bytes; ///< count * dtype_size(dtype) bytes

  /// Size in bytes.
  size_t byte_size() const { return bytes.size(); }
  /// Element `i` as the exact double it encodes.
  double get(size_t i) const;
  /// Stores `v` rounded to the dtype (nearest even) at element `i`.
  void set(size_t i, double v);
  /// Every element as a double, exactly as stored (the reference's inputs).
  std::vector<double> to_double() const;
};

/// An input array of `count` values uniform in [lo, hi), each rounded to `dtype` as stored.
/// Throws std::logic_error if every stored value came out zero (a useless test input).
HostArray random_array(const std::string& name, HostDtype dtype, size_t count, Rng& rng,
                       double lo, double hi);

/// An output array of `count` elements, every byte 0xFF: a NaN in fp32, fp16 and bf16 alike,
/// so elements the kernel never writes show up as NaN.
HostArray poisoned_array(const std::string& name, HostDtype dtype, size_t count);

/// The byte every output (and guard zone) is filled with before a launch.
inline constexpr uint8_t kPoisonByte = 0xFF;

}  // namespace tritium::bench
