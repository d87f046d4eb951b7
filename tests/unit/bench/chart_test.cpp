// The bench's SVG charts (bench/chart.h): one bar per compared case whose length is the
// median speed-up on the axis, a whisker at the interval's bounds, parity in view; the
// roofline's fraction bars. Positions are recomputed here from the layout's definition.
#include <gtest/gtest.h>

#include <limits>
#include <regex>

#include "bench/chart.h"

using namespace tritium::bench;

namespace {

CaseResult compared_case(const std::string& id, double median, double lo, double hi) {
  CaseResult r;
  r.info.id = id;
  r.info.memory_bound = true;
  r.info.bytes = 1e6;
  r.passed = r.timed = r.compared = true;
  r.timing.median = 1e-3;
  r.comparison.baseline = "C++ loop";
  r.comparison.baseline_ok = true;
  r.comparison.speedup = {median, lo, hi, 10};
  r.comparison.noise = {1.0, 0.97, 1.04, 10};
  return r;
}

std::vector<double> attr(const std::string& svg, const std::string& cls, const std::string& name) {
  std::vector<double> out;
  const std::regex re("class=\"" + cls + "\"[^>]*?" + name + "=\"([0-9.]+)\"");
  for (std::sregex_iterator it(svg.begin(), svg.end(), re), end; it != end; ++it) out.push_back(std::stod((*it)[1]));
  return out;
}

}  // namespace

TEST(BenchChart, RatioBarsAreTheMedianAndWhiskersTheInterval) {
  std::vector<CaseResult> results = {compared_case("a/fp32/1", 2.0, 1.8, 2.5), compared_case("b/fp16/2", 0.5, 0.45, 0.6)};
  CaseResult alone;  // not compared: no bar
  alone.info.id = "c/fp32/3";
  results.push_back(alone);
  RunInfo info;
  const std::string svg = ratio_chart_svg(results, info);
  const RatioChartLayout L = ratio_chart_layout(results);
  EXPECT_DOUBLE_EQ(L.axis_max, 2.5 * 1.1);
  const std::vector<double> widths = attr(svg, "bar", "width");
  ASSERT_EQ(widths.size(), 2u);
  EXPECT_NEAR(widths[0], L.width * 2.0 / L.axis_max, 0.01);
  EXPECT_NEAR(widths[1], L.width * 0.5 / L.axis_max, 0.01);
  const std::vector<double> x1 = attr(svg, "ci", "x1"), x2 = attr(svg, "ci", "x2");
  ASSERT_EQ(x1.size(), 2u);
  EXPECT_NEAR(x1[0], L.left + L.width * 1.8 / L.axis_max, 0.01);
  EXPECT_NEAR(x2[0], L.left + L.width * 2.5 / L.axis_max, 0.01);
  EXPECT_NE(svg.find("a/fp32/1 (C++ loop)"), std::string::npos);
  EXPECT_EQ(svg.find("c/fp32/3"), std::string::npos);
  // Parity stays in view when every case is slower than its baseline.
  EXPECT_DOUBLE_EQ(ratio_chart_layout({compared_case("d/fp32/1", 0.3, 0.2, 0.4)}).axis_max, 1.25);
  EXPECT_EQ(ratio_chart_svg({alone}, info), "");
}

TEST(BenchChart, RooflineBarsAreTheFractionOfEachRoof) {
  RunInfo info;
  info.copy.bytes_per_s = 10e9;
  info.compute_peak_flops = 100e9;
  CaseResult mem = compared_case("add/fp32/1", 1, 1, 1);  // 1e6 bytes in 1e-3 s: 1 GB/s = 10% of copy
  CaseResult mm;
  mm.info.id = "mm/fp32/1";
  mm.info.memory_bound = false;
  mm.info.flops = 5e7, mm.info.bytes = 1e5;  // 5e10 flop/s = 50% of the peak
  mm.timed = mm.passed = true;
  mm.timing.median = 1e-3;
  const std::string svg = roofline_svg({mem, mm}, info);
  const std::vector<double> w = attr(svg, "roof", "width");
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NEAR(w[1] / w[0], 5.0, 1e-3);  // 50% against 10%
  EXPECT_NE(svg.find("class=\"point\""), std::string::npos);  // the matmul on the log-log roofline
  EXPECT_NE(svg.find(">10%<"), std::string::npos);
  EXPECT_NE(svg.find(">50%<"), std::string::npos);
}

TEST(BenchChart, AHugeRatioKeepsTheAxisTicksFewAndFinite) {
  // A 729x speed-up once produced 812 tick labels; an infinite one must not hang.
  for (double big : {729.0, 1e300, std::numeric_limits<double>::infinity()}) {
    const std::string svg = ratio_chart_svg({compared_case("a/fp32/1", big, big, big)}, RunInfo{});
    const std::regex tick("text-anchor=\"middle\">[0-9.e+]+</text>");
    const auto n = std::distance(std::sregex_iterator(svg.begin(), svg.end(), tick), std::sregex_iterator());
    EXPECT_GE(n, 3) << big;
    EXPECT_LE(n, 12) << big;
  }
}

TEST(BenchChart, TheNoiseBandIsDrawnOverTheBar) {
  const std::string svg = ratio_chart_svg({compared_case("a/fp32/1", 2.0, 1.8, 2.5)}, RunInfo{});
  const size_t bar = svg.find("class=\"bar\""), noise = svg.find("class=\"noise\"");
  ASSERT_NE(bar, std::string::npos);
  ASSERT_NE(noise, std::string::npos);
  EXPECT_LT(bar, noise) << "SVG paints in document order: the band must come after the bar";
}
