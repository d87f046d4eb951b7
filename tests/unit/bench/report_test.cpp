// Tests of the bench's derived figures and presentation (bench/report.h, bench/timing.h):
// rates, percentages, units, the JSON document and the repetition logic. No speed is
// asserted: durations are made up, launches are counted, and the time-based plans use
// launches that sleep 1 ms (a lower bound, so only the counts' bounds are checked).
#include "bench/report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

namespace {

using namespace tritium::bench;

CaseResult fake_result(bool memory_bound, double bytes, double flops, double median_s) {
  CaseResult r;
  r.info.id = "k/fp32/8";
  r.info.kernel = "k";
  r.info.shape = "8";
  r.info.dtype = "fp32";
  r.info.memory_bound = memory_bound;
  r.info.bytes = bytes;
  r.info.flops = flops;
  r.backend = "cpu";
  r.passed = true;
  r.timed = true;
  r.timing.samples = {median_s};
  r.timing.median = median_s;
  return r;
}

TEST(BenchReport, RatesAndPercentOfCopy) {
  RunInfo info;
  info.copy.bytes_per_s = 4e9;
  const CaseResult mem = fake_result(true, 1e9, 0, 0.5);
  EXPECT_DOUBLE_EQ(achieved_bytes_per_s(mem), 2e9);
  EXPECT_DOUBLE_EQ(percent_of_copy(mem, info), 50.0);
  EXPECT_EQ(format_rate(mem), "2 GB/s");
  const CaseResult mm = fake_result(false, 1e6, 3e12, 2.0);
  EXPECT_DOUBLE_EQ(achieved_flops_per_s(mm), 1.5e12);
  EXPECT_EQ(format_rate(mm), "1.5 TFLOP/s");
  EXPECT_EQ(format_rate(fake_result(false, 1e6, 3e9, 2.0)), "1.5 GFLOP/s");
  CaseResult untimed = mem;
  untimed.timed = false;
  EXPECT_EQ(achieved_bytes_per_s(untimed), 0.0);
  EXPECT_EQ(format_rate(untimed), "-");
  info.copy.bytes_per_s = 0;  // not measured
  EXPECT_EQ(percent_of_copy(mem, info), 0.0);
}

TEST(BenchReport, GpuBackendsShowNoPercentOfTheHostCopy) {
  EXPECT_TRUE(host_copy_is_roofline("cpu"));
  EXPECT_TRUE(host_copy_is_roofline("interp"));
  EXPECT_FALSE(host_copy_is_roofline("cuda"));
  EXPECT_FALSE(host_copy_is_roofline("opencl"));
  RunInfo info;
  info.backend = "cuda";
  info.copy.bytes_per_s = 0;
  EXPECT_NE(format_header(info).find("copy bandwidth not measured for the cuda backend"), std::string::npos)
      << format_header(info);
  const std::string table = format_table({fake_result(true, 1e6, 0, 1e-3)}, info);
  // Only the column heading "%roof" and its footnote carry a percent sign: the row shows "-".
  EXPECT_EQ(std::count(table.begin(), table.end(), '%'), 2) << table;
  EXPECT_NE(table.find("%roof: memory-bound cases against the copy bandwidth"), std::string::npos);
}

TEST(BenchReport, SecondsFormatting) {
  EXPECT_EQ(format_seconds(2.5), "2.5 s");
  EXPECT_EQ(format_seconds(0.0123), "12.3 ms");
  EXPECT_EQ(format_seconds(4.56e-4), "456 us");
  EXPECT_EQ(format_seconds(7e-8), "70 ns");
}

TEST(BenchReport, TableAndJsonOfAFailure) {
  RunInfo info;
  info.backend = "cpu";
  info.copy.bytes_per_s = 1e9;
  CaseResult bad = fake_result(true, 1e6, 0, 1e-3);
  bad.passed = false;
  bad.timed = false;
  bad.check.count = 8;
  bad.check.bad = 1;
  bad.check.non_finite = 1;
  bad.check.worst_ratio = std::numeric_limits<double>::infinity();
  bad.check.worst_got = std::nan("");
  bad.worst_output = "out";
  const std::string table = format_table({fake_result(true, 1e6, 0, 1e-3), bad}, info);
  EXPECT_NE(table.find("1 passed, 1 failed"), std::string::npos) << table;
  EXPECT_NE(table.find("FAIL k/fp32/8"), std::string::npos) << table;
  EXPECT_NE(table.find("NaN/Inf"), std::string::npos) << table;
  const nlohmann::json j = to_json({bad}, info);
  EXPECT_TRUE(j["cases"][0]["err_over_tol"].is_null());  // inf is not JSON
  EXPECT_EQ(j["cases"][0]["passed"], false);
  EXPECT_EQ(j["summary"]["failed"], 1);
  EXPECT_FALSE(j["cases"][0].contains("time_s"));
  EXPECT_NO_THROW((void)j.dump());
}

TEST(BenchTiming, MedianAndRepetitions) {
  EXPECT_EQ(median_of({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(median_of({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_EQ(median_of({}), 0.0);
  int launches = 0, syncs = 0;
  TimingPlan plan;
  plan.warmup = 2;
  plan.repeat = 5;
  const TimingResult r = time_launches([&] { ++launches; }, [&] { ++syncs; }, plan);
  EXPECT_EQ(launches, 7);
  EXPECT_EQ(syncs, 6);  // once after the warm-up, once per timed launch
  ASSERT_EQ(r.samples.size(), 5u);
  EXPECT_LE(r.min, r.median);
  EXPECT_LE(r.median, r.max);
  // A budget already exhausted still leaves three timed launches.
  plan.budget_s = 1e-12;
  plan.warmup = 0;
  launches = 0;
  EXPECT_EQ(time_launches([&] { ++launches; }, [] {}, plan).samples.size(), 3u);
  EXPECT_EQ(launches, 3);
  // Warm-up and repetition by time: a launch that takes ~1 ms, warmed up for 20 ms and
  // timed for at least 30 ms, gives more launches than the counts alone would.
  TimingPlan timed;
  timed.warmup = 1;
  timed.repeat = 2;
  timed.warmup_s = 0.02;
  timed.min_time_s = 0.03;
  timed.max_repeat = 1000;
  launches = 0;
  const auto sleepy = [&] {
    ++launches;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  };
  const TimingResult t = time_launches(sleepy, [] {}, timed);
  // Bounds that hold however slow the machine is: timing stops once the samples add up to
  // min_time_s, and a launch sleeps at least 1 ms, so at most 31 samples and 21 warm-ups.
  double total = 0;
  for (double x : t.samples) total += x;
  EXPECT_GE(total, 0.03);
  EXPECT_GE(t.samples.size(), 2u);
  EXPECT_LE(t.samples.size(), 31u);
  const int warm = launches - static_cast<int>(t.samples.size());
  EXPECT_GE(warm, 1);
  EXPECT_LE(warm, 21);
  // max_repeat caps the timed launches.
  timed.max_repeat = 4;
  EXPECT_EQ(time_launches(sleepy, [] {}, timed).samples.size(), 4u);
}

}  // namespace

TEST(BenchReport, FewRoundsShowTheirCountNotAnInterval) {
  CaseResult r = fake_result(true, 1e6, 0, 1e-3);
  r.compared = true;
  r.comparison.baseline = "C++ loop";
  r.comparison.baseline_ok = true;
  r.comparison.speedup = {0.64, 0.64, 0.64, 1};
  r.comparison.noise = {0.53, 0.53, 0.53, 1};
  const std::string t = format_table({r}, RunInfo{});
  EXPECT_NE(t.find("0.64x (n=1)"), std::string::npos) << t;
  EXPECT_NE(t.find("0.53 (n=1)"), std::string::npos) << t;
  EXPECT_EQ(t.find("[0.64, 0.64]"), std::string::npos) << t;
  r.comparison.speedup.pairs = r.comparison.noise.pairs = 5;
  EXPECT_NE(format_table({r}, RunInfo{}).find("0.64x [0.64, 0.64]"), std::string::npos);
}
