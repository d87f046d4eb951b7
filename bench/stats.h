// stats.h - the arithmetic of an interleaved A/B comparison (issue 7): per-pair time ratios,
// their median, a bootstrap 95% interval of that median, and the order the arms run in.
//
// A comparison times three arms call by call: A (tritium), B (the baseline) and A again (A2,
// the noise floor: the same kernel compared with itself). One round runs each arm once, so
// the three calls of a round share one thermal and frequency window; round r runs the arms
// in the (r mod 6)-th of their six orders, so over six rounds each arm sits in each position
// twice and follows each other arm three times (a call's position in its round - first after
// the previous round's calls, or right after another arm - biases neither arm). Callers give
// each call its own array set in turn (exec.cpp), so no call reads what the previous one
// left in the cache. Round i gives the pair ratio B_i / A_i (how many times faster tritium
// is than the baseline: above 1, tritium is faster) and the noise ratio A2_i / A_i.
// The interval is the percentile bootstrap (B. Efron and R. J. Tibshirani, "An Introduction
// to the Bootstrap", 1993, ch. 13): the rounds resampled with replacement `resamples` times,
// the median of each resample, the 2.5th and 97.5th percentiles of those medians. The
// resampling stream is splitmix64 from a fixed seed, so a run's interval is reproducible.
#pragma once

#include <cstdint>
#include <vector>

namespace tritium::bench {

/// The arms of an interleaved comparison.
enum class Arm { A, B, A2 };

/// The order of the calls of `rounds` rounds (3 x rounds entries): round r is the
/// (r mod 6)-th of {A B A2}, {B A2 A}, {A2 A B}, {A A2 B}, {B A A2}, {A2 B A}.
std::vector<Arm> interleaved_order(int rounds);

/// The median of a per-pair ratio and its bootstrap interval.
struct RatioEstimate {
  double median = 0;  ///< median over the rounds of num_i / den_i
  double lo = 0;      ///< 2.5th percentile of the bootstrap medians
  double hi = 0;      ///< 97.5th percentile of the bootstrap medians
  int pairs = 0;      ///< rounds used (pairs with a non-positive time are dropped)
};

/// Median of num[i] / den[i] over the pairs and its percentile-bootstrap 95% interval
/// (`resamples` resamples, seeded by `seed`). num and den must have the same length
/// (std::invalid_argument otherwise); an empty input gives all zeros.
RatioEstimate paired_ratio(const std::vector<double>& num, const std::vector<double>& den, uint64_t seed = 1,
                           int resamples = 2000);

/// The ratio of two unpaired sample sets (e.g. a previous run's times against this run's):
/// median(num) / median(den), and the percentile-bootstrap 95% interval of that ratio with
/// each set resampled independently. Non-positive and non-finite samples are dropped;
/// pairs is the smaller remaining set's size; an empty set gives all zeros.
RatioEstimate unpaired_ratio(const std::vector<double>& num, const std::vector<double>& den, uint64_t seed = 1,
                             int resamples = 2000);

/// The q-quantile (0 <= q <= 1) of `v` by linear interpolation between order statistics
/// (type 7 of Hyndman and Fan, 1996; numpy's default); 0 for an empty vector.
double quantile(std::vector<double> v, double q);

}  // namespace tritium::bench
