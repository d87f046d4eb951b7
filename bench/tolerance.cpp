// tolerance.cpp - element-wise comparison of kernel outputs with float64 references.
#include "tolerance.h"

#include <cmath>
#include <limits>

namespace tritium::bench {

double Tolerance::allowed(double ref, double mag) const {
  return abs + rel * std::fabs(ref) + mag_rel * std::fabs(mag);
}

CheckResult check_output(const std::vector<double>& got, const std::vector<double>& ref,
                         const std::vector<double>& mag, const Tolerance& tol) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  CheckResult r;
  r.count = ref.size();
  if (got.size() != ref.size() || (!mag.empty() && mag.size() != ref.size())) {
    r.bad = r.count == 0 ? 1 : r.count;
    r.worst_ratio = kInf;
    return r;
  }
  for (size_t i = 0; i < ref.size(); ++i) {
    const double g = got[i], e = ref[i];
    const double allowed = tol.allowed(e, mag.empty() ? 0.0 : mag[i]);
    double ratio;
    if (!std::isfinite(g)) {
      // Only an identical infinity can match (the suite's references are finite).
      const bool same_inf = std::isinf(g) && g == e;
      if (!same_inf) ++r.non_finite;
      ratio = same_inf ? 0.0 : kInf;
    } else {
      const double err = std::fabs(g - e);  // NaN when e is NaN: treated as a failure below
      if (!std::isnan(err) && err > r.max_abs_err) r.max_abs_err = err;
      if (std::isnan(err)) ratio = kInf;
      else if (err == 0.0) ratio = 0.0;
      else ratio = allowed > 0.0 ? err / allowed : kInf;
    }
    if (!(ratio <= 1.0)) ++r.bad;
    if (i == 0 || ratio > r.worst_ratio) {
      r.worst_ratio = ratio;
      r.worst_index = i;
      r.worst_got = g;
      r.worst_ref = e;
      r.worst_allowed = allowed;
    }
  }
  return r;
}

void merge_check(CheckResult& into, const CheckResult& other) {
  const bool other_worse = other.worst_ratio > into.worst_ratio || into.count == 0;
  into.count += other.count;
  into.bad += other.bad;
  into.non_finite += other.non_finite;
  if (other.max_abs_err > into.max_abs_err) into.max_abs_err = other.max_abs_err;
  if (other_worse) {
    into.worst_ratio = other.worst_ratio;
    into.worst_index = other.worst_index;
    into.worst_got = other.worst_got;
    into.worst_ref = other.worst_ref;
    into.worst_allowed = other.worst_allowed;
  }
}

}  // namespace tritium::bench
