// problem.h - one concrete instance of a bench case: the host arrays, the launch arguments
// that refer to them, and the expected outputs with their tolerances.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "host_array.h"
#include "tolerance.h"

namespace tritium::bench {

/// One launch argument, in kernel-parameter order (constexpr parameters excluded).
struct LaunchArg {
  /// What the argument is.
  enum class Kind { Buffer, Int, Float };
  Kind kind = Kind::Int;
  int buffer = -1;         ///< index into Problem::arrays (Kind::Buffer)
  size_t byte_offset = 0;  ///< bytes into that array (Kind::Buffer)
  int64_t i = 0;           ///< value (Kind::Int)
  double f = 0;            ///< value (Kind::Float)

  /// A pointer to array `index`, `byte_offset` bytes in.
  static LaunchArg buf(int index, size_t byte_offset = 0);
  /// An integer scalar.
  static LaunchArg integer(int64_t v);
  /// A floating-point scalar.
  static LaunchArg real(double v);
};

/// The expected content of one output array.
struct Expected {
  int buffer = -1;          ///< index into Problem::arrays (an output)
  std::vector<double> ref;  ///< float64 reference, one value per element of the array
  std::vector<double> mag;  ///< per-element magnitude for Tolerance::mag_rel, or empty
  Tolerance tol;            ///< allowed error (with its reason)
};

/// A case's data: inputs already rounded to their dtype, outputs poisoned.
struct Problem {
  std::vector<HostArray> arrays;   ///< every buffer the kernel receives
  std::vector<LaunchArg> args;     ///< the launch arguments
  std::vector<Expected> expected;  ///< one entry per output array
};

}  // namespace tritium::bench
