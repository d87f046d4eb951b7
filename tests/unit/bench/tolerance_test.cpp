// Tests of the bench's output check (bench/tolerance.h): the allowed-error formula, NaN and
// infinity handling, magnitudes and merging.
#include "bench/tolerance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace {

using tritium::bench::check_output;
using tritium::bench::CheckResult;
using tritium::bench::Tolerance;

const Tolerance kTol{1e-3, 1e-2, 0.0, "test"};  // allowed = 1e-3 + 1e-2 |ref|

TEST(BenchTolerance, AllowedFormula) {
  const Tolerance t{1.0, 0.5, 0.25, ""};
  EXPECT_DOUBLE_EQ(t.allowed(-4.0, 8.0), 1.0 + 2.0 + 2.0);
  EXPECT_DOUBLE_EQ(t.allowed(0.0, 0.0), 1.0);
}

TEST(BenchTolerance, WithinAndJustOutside) {
  const std::vector<double> ref = {2.0, -3.0, 0.0};
  // allowed: 0.021, 0.031, 0.001
  CheckResult ok = check_output({2.02, -3.03, 0.0009}, ref, {}, kTol);
  EXPECT_TRUE(ok.passed());
  EXPECT_EQ(ok.bad, 0u);
  EXPECT_NEAR(ok.max_abs_err, 0.03, 1e-12);
  EXPECT_NEAR(ok.worst_ratio, 0.03 / 0.031, 1e-9);
  EXPECT_EQ(ok.worst_index, 1u);

  CheckResult bad = check_output({2.0, -3.0, 0.0011}, ref, {}, kTol);
  EXPECT_FALSE(bad.passed());
  EXPECT_EQ(bad.bad, 1u);
  EXPECT_EQ(bad.worst_index, 2u);
  EXPECT_NEAR(bad.worst_ratio, 1.1, 1e-9);
  EXPECT_EQ(bad.worst_got, 0.0011);
  EXPECT_EQ(bad.worst_ref, 0.0);
}

TEST(BenchTolerance, NanAndInfinityNeverPass) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const Tolerance huge{1e300, 1e300, 0.0, ""};
  CheckResult r = check_output({1.0, nan, inf, -inf}, {1.0, 1.0, 1.0, 1.0}, {}, huge);
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.bad, 3u);
  EXPECT_EQ(r.non_finite, 3u);
  EXPECT_TRUE(std::isinf(r.worst_ratio));
  EXPECT_EQ(r.max_abs_err, 0.0);  // only finite elements count towards the max error
  // A NaN reference (never produced by the suite) fails too rather than passing silently.
  EXPECT_FALSE(check_output({1.0}, {nan}, {}, huge).passed());
}

TEST(BenchTolerance, ZeroToleranceNeedsExactValues) {
  const Tolerance exact{0.0, 0.0, 0.0, ""};
  EXPECT_TRUE(check_output({1.5, -2.0}, {1.5, -2.0}, {}, exact).passed());
  CheckResult r = check_output({1.5, -2.0 + 1e-15}, {1.5, -2.0}, {}, exact);
  EXPECT_FALSE(r.passed());
  EXPECT_TRUE(std::isinf(r.worst_ratio));
}

TEST(BenchTolerance, MagnitudeScalesTheBound) {
  // A result near zero that comes from large terms (cancellation) is judged against mag.
  const Tolerance t{0.0, 0.0, 1e-6, ""};
  EXPECT_TRUE(check_output({1e-7}, {0.0}, {1.0}, t).passed());
  EXPECT_FALSE(check_output({1e-5}, {0.0}, {1.0}, t).passed());
  EXPECT_FALSE(check_output({1e-7}, {0.0}, {}, t).passed());  // no magnitude: nothing allowed
}

TEST(BenchTolerance, SizeMismatchFailsEverything) {
  CheckResult r = check_output({1.0}, {1.0, 2.0}, {}, kTol);
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.bad, 2u);
  EXPECT_FALSE(check_output({1.0, 2.0}, {1.0, 2.0}, {1.0}, kTol).passed());
}

TEST(BenchTolerance, MergeKeepsTheWorst) {
  CheckResult a = check_output({1.0, 2.001}, {1.0, 2.0}, {}, kTol);
  CheckResult b = check_output({5.1}, {5.0}, {}, kTol);
  tritium::bench::merge_check(a, b);
  EXPECT_EQ(a.count, 3u);
  EXPECT_EQ(a.bad, 1u);
  EXPECT_NEAR(a.max_abs_err, 0.1, 1e-12);
  EXPECT_NEAR(a.worst_ratio, 0.1 / 0.051, 1e-9);
  EXPECT_EQ(a.worst_index, 0u);
  EXPECT_EQ(a.worst_got, 5.1);
}

}  // namespace
