// time_interleaved (bench/timing.h): the calls follow stats.h's interleaved order, warm-up
// rounds first, each arm's time goes to its own samples, and the round count follows the
// plan. A fake clock advanced by each call makes the times exact.
#include <gtest/gtest.h>

#include "bench/stats.h"
#include "bench/timing.h"

using tritium::bench::Arm;
using tritium::bench::TimingPlan;

TEST(InterleavedTiming, CallsFollowTheInterleavedOrderAndTimesLandInTheirArm) {
  double t = 0;
  std::vector<std::pair<Arm, int>> calls;
  auto call = [&](Arm arm, int round) {
    calls.emplace_back(arm, round);
    t += arm == Arm::A ? 1.0 : arm == Arm::B ? 3.0 : 1.5;  // the baseline 3x slower, A2 noisy
  };
  TimingPlan plan;
  plan.warmup = 2;
  plan.repeat = 5;
  const auto r = tritium::bench::time_interleaved(call, plan, [&] { return t; });
  EXPECT_EQ(r.rounds, 5);
  ASSERT_EQ(calls.size(), 3u * (2 + 5));
  // Warm-up rounds 0, 1, then timed rounds 0..4, each in the interleaved order.
  const std::vector<Arm> warm = tritium::bench::interleaved_order(2), timed = tritium::bench::interleaved_order(5);
  for (size_t i = 0; i < warm.size(); ++i) {
    EXPECT_EQ(calls[i].first, warm[i]) << i;
    EXPECT_EQ(calls[i].second, static_cast<int>(i / 3));
  }
  for (size_t i = 0; i < timed.size(); ++i) {
    EXPECT_EQ(calls[warm.size() + i].first, timed[i]) << i;
    EXPECT_EQ(calls[warm.size() + i].second, static_cast<int>(i / 3)) << "buffer sets rotate by round";
  }
  ASSERT_EQ(r.a.samples.size(), 5u);
  EXPECT_DOUBLE_EQ(r.a.median, 1.0);
  EXPECT_DOUBLE_EQ(r.b.median, 3.0);
  EXPECT_DOUBLE_EQ(r.a2.median, 1.5);
  EXPECT_DOUBLE_EQ(tritium::bench::paired_ratio(r.b.samples, r.a.samples).median, 3.0);
}

TEST(InterleavedTiming, RoundsContinueUntilTheMinimumTimeThenStopAtTheBudget) {
  double t = 0;
  auto call = [&](Arm, int) { t += 0.01; };
  TimingPlan plan;
  plan.warmup = 0;
  plan.repeat = 3;
  plan.min_time_s = 0.1;  // A takes 0.01 s a round: 10 rounds
  EXPECT_EQ(tritium::bench::time_interleaved(call, plan, [&] { return t; }).rounds, 10);
  plan.max_repeat = 6;
  EXPECT_EQ(tritium::bench::time_interleaved(call, plan, [&] { return t; }).rounds, 6);
  plan.max_repeat = 1000;
  plan.min_time_s = 10;
  plan.budget_s = 0.045;  // stops once A's total (0.01 a round) passes the budget: after 5
  EXPECT_EQ(tritium::bench::time_interleaved(call, plan, [&] { return t; }).rounds, 5);
}

TEST(InterleavedTiming, MeasuredCallsReturnTheirOwnDurationsAsSamples) {
  // Each call reports its duration (as CUDA events do); there is no clock to read.
  std::vector<std::pair<Arm, int>> calls;
  auto timed_call = [&](Arm arm, int round) {
    calls.emplace_back(arm, round);
    return arm == Arm::A ? 0.002 : arm == Arm::B ? 0.005 : 0.0025 + 0.0001 * round;
  };
  TimingPlan plan;
  plan.warmup = 1;
  plan.repeat = 4;
  const auto r = tritium::bench::time_interleaved_measured(timed_call, plan);
  EXPECT_EQ(r.rounds, 4);
  ASSERT_EQ(calls.size(), 3u * (1 + 4));
  const std::vector<Arm> timed = tritium::bench::interleaved_order(4);
  for (size_t i = 0; i < timed.size(); ++i) EXPECT_EQ(calls[3 + i].first, timed[i]) << i;
  ASSERT_EQ(r.a2.samples.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(r.a2.samples[static_cast<size_t>(i)], 0.0025 + 0.0001 * i);
  EXPECT_DOUBLE_EQ(r.b.median, 0.005);
  EXPECT_DOUBLE_EQ(tritium::bench::paired_ratio(r.b.samples, r.a.samples).median, 2.5);
}

TEST(InterleavedTiming, MeasuredCallsCountTowardsTheTimeLimits) {
  // 1/16 s per call (exact in binary): min_time_s = 10/16 needs 10 rounds of A; warm-up by
  // time (0.3 s over all three arms' durations, 3/16 s a round) takes 2 rounds.
  int calls = 0;
  auto timed_call = [&](Arm, int) {
    ++calls;
    return 0.0625;
  };
  TimingPlan plan;
  plan.warmup = 1;
  plan.warmup_s = 0.3;
  plan.repeat = 3;
  plan.min_time_s = 0.625;
  const auto r = tritium::bench::time_interleaved_measured(timed_call, plan);
  EXPECT_EQ(r.rounds, 10);
  EXPECT_EQ(calls, 3 * (2 + 10));
}

TEST(LaunchTiming, MeasuredLaunchesAreTheSamples) {
  int n = 0;
  TimingPlan plan;
  plan.warmup = 2;
  plan.repeat = 5;
  const auto r = tritium::bench::time_launches_measured([&] { return 0.001 * ++n; }, plan);
  ASSERT_EQ(r.samples.size(), 5u);
  EXPECT_DOUBLE_EQ(r.samples.front(), 0.003) << "two warm-up launches first";
  EXPECT_DOUBLE_EQ(r.median, 0.005);
  EXPECT_EQ(n, 7);
}
