// stats.cpp - ratio, bootstrap interval and interleaving order of A/B comparisons (stats.h).
#include "stats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tritium::bench {
namespace {

uint64_t splitmix64(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<Arm> interleaved_order(int rounds) {
  // The six orders of the three arms, each arm in each position twice per six rounds.
  static const Arm kOrders[6][3] = {{Arm::A, Arm::B, Arm::A2}, {Arm::B, Arm::A2, Arm::A}, {Arm::A2, Arm::A, Arm::B},
                                    {Arm::A, Arm::A2, Arm::B}, {Arm::B, Arm::A, Arm::A2}, {Arm::A2, Arm::B, Arm::A}};
  std::vector<Arm> order;
  for (int r = 0; r < rounds; ++r) order.insert(order.end(), kOrders[r % 6], kOrders[r % 6] + 3);
  return order;
}

RatioEstimate unpaired_ratio(const std::vector<double>& num_in, const std::vector<double>& den_in, uint64_t seed,
                             int resamples) {
  RatioEstimate e;
  // Non-positive times are not measurements (as in paired_ratio): dropped.
  std::vector<double> pn, pd;
  for (double x : num_in) if (x > 0 && std::isfinite(x)) pn.push_back(x);
  for (double x : den_in) if (x > 0 && std::isfinite(x)) pd.push_back(x);
  const std::vector<double>& num = pn;
  const std::vector<double>& den = pd;
  if (num.empty() || den.empty()) return e;
  e.pairs = static_cast<int>(std::min(num.size(), den.size()));
  e.median = quantile(num, 0.5) / quantile(den, 0.5);
  std::vector<double> ratios, a(num.size()), b(den.size());
  uint64_t s = seed;
  for (int k = 0; k < resamples; ++k) {
    for (double& x : a) x = num[splitmix64(s) % num.size()];
    for (double& x : b) x = den[splitmix64(s) % den.size()];
    ratios.push_back(quantile(a, 0.5) / quantile(b, 0.5));
  }
  e.lo = quantile(ratios, 0.025);
  e.hi = quantile(ratios, 0.975);
  return e;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const size_t i = static_cast<size_t>(std::floor(pos));
  if (i + 1 >= v.size()) return v.back();
  return v[i] + (pos - static_cast<double>(i)) * (v[i + 1] - v[i]);
}

RatioEstimate paired_ratio(const std::vector<double>& num, const std::vector<double>& den, uint64_t seed,
                           int resamples) {
  if (num.size() != den.size()) throw std::invalid_argument("paired_ratio: the two arms have different lengths");
  std::vector<double> r;
  for (size_t i = 0; i < num.size(); ++i)
    if (num[i] > 0 && den[i] > 0) r.push_back(num[i] / den[i]);
  RatioEstimate e;
  e.pairs = static_cast<int>(r.size());
  if (r.empty()) return e;
  e.median = quantile(r, 0.5);
  std::vector<double> medians;
  medians.reserve(static_cast<size_t>(std::max(resamples, 1)));
  std::vector<double> sample(r.size());
  uint64_t s = seed;
  for (int k = 0; k < resamples; ++k) {
    for (double& x : sample) x = r[splitmix64(s) % r.size()];
    medians.push_back(quantile(sample, 0.5));
  }
  e.lo = quantile(medians, 0.025);
  e.hi = quantile(medians, 0.975);
  return e;
}

}  // namespace tritium::bench
