// The A/B comparison's arithmetic (bench/stats.h): interleaving order, per-pair ratio
// median, quantiles and the bootstrap interval. Expected values are computed by hand (or
// from the definition with an independent brute-force sort), not by the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "bench/stats.h"

using tritium::bench::Arm;
using tritium::bench::interleaved_order;
using tritium::bench::paired_ratio;
using tritium::bench::quantile;

TEST(BenchStats, EachRoundRunsEveryArmOnceInEachOfTheSixOrdersInTurn) {
  const std::vector<Arm> o = interleaved_order(4);
  const std::vector<Arm> want = {Arm::A,  Arm::B, Arm::A2, Arm::B, Arm::A2, Arm::A,
                                 Arm::A2, Arm::A, Arm::B,  Arm::A, Arm::A2, Arm::B};
  EXPECT_EQ(o, want);
  EXPECT_TRUE(interleaved_order(0).empty());
}

TEST(BenchStats, OverSixRoundsEveryArmHoldsEveryPositionTwiceAndFollowsEveryOtherThrice) {
  const std::vector<Arm> o = interleaved_order(12);
  ASSERT_EQ(o.size(), 36u);
  int at[3][3] = {};       // [arm][position], first six rounds
  int before[3][3] = {};   // [x][y]: x runs earlier than y in the round
  for (size_t r = 0; r < 6; ++r) {
    for (size_t p = 0; p < 3; ++p) {
      ++at[static_cast<int>(o[3 * r + p])][p];
      for (size_t q = p + 1; q < 3; ++q) ++before[static_cast<int>(o[3 * r + p])][static_cast<int>(o[3 * r + q])];
    }
  }
  for (int a = 0; a < 3; ++a)
    for (int p = 0; p < 3; ++p) EXPECT_EQ(at[a][p], 2) << "arm " << a << " position " << p;
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 3; ++y)
      if (x != y) EXPECT_EQ(before[x][y], 3) << x << " before " << y;
  // The pattern repeats every six rounds.
  EXPECT_TRUE(std::equal(o.begin(), o.begin() + 18, o.begin() + 18));
}

TEST(BenchStats, QuantilesInterpolateBetweenOrderStatistics) {
  EXPECT_DOUBLE_EQ(quantile({3, 1, 2}, 0.5), 2);
  EXPECT_DOUBLE_EQ(quantile({4, 1, 3, 2}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile({10, 20, 30, 40, 50}, 0.25), 20);
  EXPECT_DOUBLE_EQ(quantile({10, 20}, 0.975), 19.75);  // 10 + 0.975 * 10
  EXPECT_DOUBLE_EQ(quantile({7}, 0.025), 7);
  EXPECT_DOUBLE_EQ(quantile({}, 0.5), 0);
}

TEST(BenchStats, TheRatioIsTheMedianOfPerPairRatiosNotARatioOfMedians) {
  // Pairs (num, den): ratios 2, 3, 0.5, 4, 1 -> median 2. The ratio of medians would be
  // median(num) / median(den) = 4 / 2 = 2 as well, so a second set tells them apart:
  const std::vector<double> num = {2, 6, 1, 8, 4}, den = {1, 2, 2, 2, 4};
  EXPECT_DOUBLE_EQ(paired_ratio(num, den).median, 2);
  // ratios 10, 1, 1 -> median 1; medians 10 / 2 = 5.
  EXPECT_DOUBLE_EQ(paired_ratio({20, 2, 10}, {2, 2, 10}).median, 1);
  EXPECT_THROW(paired_ratio({1, 2}, {1}), std::invalid_argument);
  // Non-positive times (a failed measurement) are dropped, not divided by.
  const auto e = paired_ratio({4, 0, 9}, {2, 1, -1});
  EXPECT_EQ(e.pairs, 1);
  EXPECT_DOUBLE_EQ(e.median, 2);
}

TEST(BenchStats, TheIntervalHoldsTheMedianAndNarrowsWithConsistentPairs) {
  // Identical ratios: every resample's median is that ratio.
  const auto same = paired_ratio(std::vector<double>(50, 3.0), std::vector<double>(50, 1.5));
  EXPECT_DOUBLE_EQ(same.lo, 2.0);
  EXPECT_DOUBLE_EQ(same.hi, 2.0);
  // Ratios 1.00, 1.01, ..., 1.99 (100 pairs): the median 1.495 lies in the interval, which
  // is near the median's standard error (about 1.25 sigma / sqrt(n) = 0.036 for a uniform
  // spread of sd 0.29) on each side, far narrower than the ratios' own spread.
  std::vector<double> num, den;
  for (int i = 0; i < 100; ++i) num.push_back(1.0 + i / 100.0), den.push_back(1.0);
  const auto e = paired_ratio(num, den, 7);
  EXPECT_NEAR(e.median, 1.495, 1e-12);
  EXPECT_LT(e.lo, e.median);
  EXPECT_GT(e.hi, e.median);
  EXPECT_GT(e.lo, 1.38);
  EXPECT_LT(e.hi, 1.61);
  // Reproducible from the seed; another seed moves the bounds a little, not the median.
  const auto again = paired_ratio(num, den, 7), other = paired_ratio(num, den, 8);
  EXPECT_EQ(again.lo, e.lo);
  EXPECT_EQ(again.hi, e.hi);
  EXPECT_EQ(other.median, e.median);
  EXPECT_NEAR(other.lo, e.lo, 0.03);
}

TEST(BenchStats, TheBootstrapCoversTheTrueMedianAtAboutItsNominalRate) {
  // 200 simulated comparisons of 31 pairs whose ratios are 1.2 times a log-uniform noise
  // factor symmetric about 1 (true median 1.2): a 95% interval should miss it about 10
  // times; allow 2 to 25 (the bootstrap of a median is somewhat conservative at small n).
  uint64_t s = 12345;
  auto next = [&s] {  // an LCG, independent of the code under test's splitmix64
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(s >> 11) / 9007199254740992.0;
  };
  int misses = 0;
  for (int t = 0; t < 200; ++t) {
    std::vector<double> num, den;
    for (int i = 0; i < 31; ++i) {
      num.push_back(1.2 * std::exp(0.2 * (next() - 0.5)));
      den.push_back(1.0);
    }
    const auto e = paired_ratio(num, den, static_cast<uint64_t>(t + 1), 1000);
    misses += (1.2 < e.lo || 1.2 > e.hi);
  }
  EXPECT_GE(misses, 2);
  EXPECT_LE(misses, 25);
}

TEST(BenchStats, UnpairedRatioIsTheRatioOfMedians) {
  // medians 6 and 2 (a previous run's times against this run's): 3x.
  const auto e = tritium::bench::unpaired_ratio({5, 6, 7}, {1, 2, 3, 100});
  EXPECT_DOUBLE_EQ(e.median, 6.0 / 2.5);
  EXPECT_EQ(e.pairs, 3);
  EXPECT_LE(e.lo, e.median);
  EXPECT_GE(e.hi, e.median);
  // Each bound is a ratio of two resampled medians: within [min(num)/max(den), max(num)/min(den)].
  EXPECT_GE(e.lo, 5.0 / 100);
  EXPECT_LE(e.hi, 7.0 / 1);
  EXPECT_EQ(tritium::bench::unpaired_ratio({}, {1}).median, 0);
  const auto same = tritium::bench::unpaired_ratio(std::vector<double>(9, 4.0), std::vector<double>(5, 2.0));
  EXPECT_DOUBLE_EQ(same.lo, 2.0);
  EXPECT_DOUBLE_EQ(same.hi, 2.0);
}

TEST(BenchStats, UnpairedRatioDropsSamplesThatAreNotTimes) {
  // medians 2 (of 2, 2, 2 once -1 and NaN are dropped) over 1: 2, not a negative ratio.
  const auto e = tritium::bench::unpaired_ratio({2, -1, 2, std::nan(""), 2}, {1, 1, 0});
  EXPECT_DOUBLE_EQ(e.median, 2.0);
  EXPECT_EQ(e.pairs, 2);  // 3 numerators and 2 denominators left
  EXPECT_EQ(tritium::bench::unpaired_ratio({-1}, {1}).pairs, 0);
}
