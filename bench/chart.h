// chart.h - the charts `tritium bench --json FILE` writes next to the JSON (issue 7), as SVG
// (no library: a few elements each):
//   * ratio chart: one horizontal bar per compared case, its length the median speed-up
//     over the baseline (baseline time / tritium time) on a linear axis from 0, a whisker
//     for its bootstrap 95% interval, a grey band for the A-vs-A noise interval around 1,
//     and a line at 1 (parity);
//   * roofline chart: (1) every timed case's fraction of its roof measured in the run, as
//     a bar (memory-bound cases: achieved bytes/s over the copy bandwidth; compute-bound:
//     achieved flops/s over the vendor library's best rate); (2) for compute-bound cases
//     the classic roofline, log-log: achieved flops/s against arithmetic intensity (flops
//     per byte moved) under min(copy bandwidth x intensity, compute peak) (S. Williams, A.
//     Waterman and D. Patterson, "Roofline", CACM 52(4), 2009).
#pragma once

#include <string>
#include <vector>

#include "report.h"

namespace tritium::bench {

/// Geometry of the ratio chart, shared with its test.
struct RatioChartLayout {
  double left = 260;     ///< x of the axis origin (labels to its left), px
  double width = 480;    ///< length of the axis, px
  double row = 22;       ///< height of one case's row, px
  double top = 40;       ///< y of the first row, px
  double axis_max = 0;   ///< the ratio at the right end of the axis
  /// x of ratio `v`.
  double x(double v) const { return left + width * v / axis_max; }
};

/// The ratio chart's layout for `results`: axis_max is 1.1 x the largest interval bound
/// (at least 1.25, so that parity is always in view).
RatioChartLayout ratio_chart_layout(const std::vector<CaseResult>& results);

/// The ratio chart (SVG text) of the compared cases of `results`; "" when none was compared.
std::string ratio_chart_svg(const std::vector<CaseResult>& results, const RunInfo& info);

/// The roofline chart (SVG text; see the file comment). "" when nothing was timed.
std::string roofline_svg(const std::vector<CaseResult>& results, const RunInfo& info);

}  // namespace tritium::bench
