// tolerance.h - how close a kernel output must be to its float64 reference, and the check.
//
// Element i of an output passes when
//
//     |got_i - ref_i| <= abs + rel * |ref_i| + mag_rel * mag_i
//
// where mag_i is an optional per-element magnitude the error scales with when the result
// can be much smaller than the terms it is computed from (a dot product: sum_k |a_ik b_kj|;
// LayerNorm: |xhat w| + |b|). A NaN or infinity where the reference is finite always fails.
// Each case states its bound and the reason next to it (cases_*.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tritium::bench {

/// The allowed error of one output (see the file comment for the formula).
struct Tolerance {
  double abs = 0;      ///< absolute part (e.g. half the smallest subnormal of the output)
  double rel = 0;      ///< part relative to |ref_i|
  double mag_rel = 0;  ///< part relative to mag_i (only when a magnitude array is given)
  std::string reason;  ///< one line: where the bound comes from

  /// The allowed error at an element with reference `ref` and magnitude `mag`.
  double allowed(double ref, double mag) const;
};

/// The outcome of comparing one output with its reference.
struct CheckResult {
  size_t count = 0;          ///< elements compared
  size_t bad = 0;            ///< elements over tolerance (NaN/Inf included)
  size_t non_finite = 0;     ///< elements that are NaN or Inf where the reference is finite
  double max_abs_err = 0;    ///< largest |got - ref| over finite elements
  double worst_ratio = 0;    ///< largest |got - ref| / allowed (inf for NaN or allowed == 0)
  size_t worst_index = 0;    ///< element of worst_ratio
  double worst_got = 0;      ///< got at worst_index
  double worst_ref = 0;      ///< ref at worst_index
  double worst_allowed = 0;  ///< allowed error at worst_index

  /// True when every element is within tolerance (and count matched).
  bool passed() const { return bad == 0; }
};

/// Compares `got` with `ref` element by element under `tol`; `mag` may be empty (then
/// mag_i = 0) or hold one magnitude per element. A size mismatch counts every element bad.
CheckResult check_output(const std::vector<double>& got, const std::vector<double>& ref,
                         const std::vector<double>& mag, const Tolerance& tol);

/// Merges the result of another output of the same case into `into` (worst of both).
void merge_check(CheckResult& into, const CheckResult& other);

}  // namespace tritium::bench
