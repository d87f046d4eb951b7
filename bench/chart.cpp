// chart.cpp - the ratio and roofline charts as SVG (chart.h).
#include "chart.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tritium::bench {
namespace {

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else o += c;
  }
  return o;
}

bool compared(const CaseResult& r) { return r.compared && r.comparison.baseline_ok; }

// The x where the bars start: room for the longest label at ~6.8 px per character of the
// 11 px sans-serif font (renderers differ; wide enough for DejaVu Sans), 260 px at least.
double label_margin(const std::vector<std::string>& labels) {
  size_t n = 0;
  for (const std::string& l : labels) n = std::max(n, l.size());
  return std::max(260.0, 6.8 * static_cast<double>(n) + 16);
}

// Axis tick spacing: 1, 2 or 5 times a power of ten (0.25 up to 2.5), about 4 to 10 ticks.
double tick_step(double axis_max) {
  if (axis_max <= 2.5) return 0.25;
  const double raw = axis_max / 8, p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

std::string ratio_label(const CaseResult& r) { return r.info.id + " (" + r.comparison.baseline + ")"; }

std::string svg_open(double w, double h) {
  return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
                     "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" "
                     "fill=\"white\"/>\n",
                     w, h);
}

}  // namespace

RatioChartLayout ratio_chart_layout(const std::vector<CaseResult>& results) {
  RatioChartLayout l;
  double hi = 1.25;
  std::vector<std::string> labels;
  for (const CaseResult& r : results)
    if (compared(r)) {
      hi = std::max({hi, r.comparison.speedup.hi * 1.1, r.comparison.noise.hi * 1.1});
      labels.push_back(ratio_label(r));
    }
  // A ratio that is not finite (a zero time) must not stretch the axis to infinity.
  l.axis_max = std::isfinite(hi) ? std::min(hi, 1e6) : 1e6;
  l.left = label_margin(labels);
  return l;
}

std::string ratio_chart_svg(const std::vector<CaseResult>& results, const RunInfo& info) {
  std::vector<const CaseResult*> rows;
  for (const CaseResult& r : results)
    if (compared(r)) rows.push_back(&r);
  if (rows.empty()) return "";
  const RatioChartLayout L = ratio_chart_layout(results);
  const double h = L.top + L.row * static_cast<double>(rows.size()) + 50;
  const std::string subtitle =
      "median of interleaved rounds, whisker: 95% bootstrap interval; grey band: the A-vs-A noise interval; "
      "bar green/red: interval above/below 1";
  std::string s = svg_open(std::max(L.left + L.width + 40, 20 + 6.5 * static_cast<double>(subtitle.size())), h);
  s += fmt::format("<text x=\"10\" y=\"16\" font-size=\"13\">tritium {} on {}: speed-up over the baseline "
                   "(baseline time / tritium time; above 1: tritium faster)</text>\n<text x=\"10\" y=\"31\">"
                   "{}</text>\n",
                   esc(info.version), esc(info.backend), subtitle);
  const double y_end = L.top + L.row * static_cast<double>(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const CaseResult& r = *rows[i];
    const Comparison& c = r.comparison;
    const double y = L.top + L.row * static_cast<double>(i);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{} ({})</text>\n", L.left - 6,
                     y + L.row * 0.65, esc(r.info.id), esc(c.baseline));  // ratio_label()
    s += fmt::format("<rect class=\"bar\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" "
                     "fill=\"{}\" fill-opacity=\"0.8\"/>\n",
                     L.left, y + 5, L.x(c.speedup.median) - L.left, L.row - 10,
                     c.speedup.lo > 1 ? "#2b8a3e" : c.speedup.hi < 1 ? "#c92a2a" : "#868e96");
    // The noise band over the bar (translucent, outlined), so the bar does not hide it.
    if (c.noise.pairs > 0)
      s += fmt::format("<rect class=\"noise\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" "
                       "fill=\"#adb5bd\" fill-opacity=\"0.45\" stroke=\"#495057\" stroke-width=\"0.5\"/>\n",
                       L.x(c.noise.lo), y + 2, std::max(0.5, L.x(c.noise.hi) - L.x(c.noise.lo)), L.row - 4);
    s += fmt::format("<line class=\"ci\" x1=\"{:.2f}\" x2=\"{:.2f}\" y1=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"black\"/>\n",
                     L.x(c.speedup.lo), L.x(c.speedup.hi), y + L.row / 2, y + L.row / 2);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{:.2f}x</text>\n", L.x(c.speedup.hi) + 4, y + L.row * 0.65,
                     c.speedup.median);
  }
  s += fmt::format("<line x1=\"{0:.2f}\" x2=\"{0:.2f}\" y1=\"{1:.1f}\" y2=\"{2:.1f}\" stroke=\"black\" "
                   "stroke-dasharray=\"4 3\"/>\n",
                   L.x(1.0), L.top - 4, y_end);
  for (double t = 0, step = tick_step(L.axis_max); t <= L.axis_max * (1 + 1e-9); t += step)
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{:g}</text>\n", L.x(t), y_end + 16, t);
  s += "</svg>\n";
  return s;
}

std::string roofline_svg(const std::vector<CaseResult>& results, const RunInfo& info) {
  std::vector<std::pair<const CaseResult*, double>> frac;  // case, fraction of its roof
  for (const CaseResult& r : results) {
    if (!r.timed) continue;
    if (r.info.memory_bound && info.copy.bytes_per_s > 0)
      frac.emplace_back(&r, achieved_bytes_per_s(r) / info.copy.bytes_per_s);
    else if (!r.info.memory_bound && info.compute_peak_flops > 0)
      frac.emplace_back(&r, achieved_flops_per_s(r) / info.compute_peak_flops);
  }
  if (frac.empty()) return "";
  std::vector<std::string> labels;
  for (const auto& [r, f] : frac) labels.push_back(r->info.id);
  const double left = label_margin(labels), width = 420, row = 18, top = 44;
  double fmax = 1.0;
  for (const auto& [r, f] : frac) fmax = std::max(fmax, f * 1.05);
  const double panel1_end = top + row * static_cast<double>(frac.size());
  // Panel 2: the roofline of the compute-bound cases.
  std::vector<const CaseResult*> pts;
  for (const CaseResult& r : results)
    if (r.timed && !r.info.memory_bound && r.info.flops > 0 && r.info.bytes > 0) pts.push_back(&r);
  const bool panel2 = !pts.empty() && info.copy.bytes_per_s > 0;
  const double p2_top = panel1_end + 60, p2_h = 260;
  const std::string subtitle = fmt::format(
      "memory-bound: of the copy bandwidth, {}; compute-bound: {}",
      info.copy.bytes_per_s > 0 ? format_bytes_rate(info.copy.bytes_per_s) : std::string("not measured"),
      info.compute_peak_flops > 0
          ? fmt::format("of {}, {}", format_flops_rate(info.compute_peak_flops), info.compute_peak_source)
          : std::string("no compute roof measured"));
  const double svg_w = std::max(left + width + 60, 20 + 6.5 * static_cast<double>(subtitle.size()));
  std::string s = svg_open(svg_w, panel2 ? p2_top + p2_h + 60 : panel1_end + 40);
  s += fmt::format("<text x=\"10\" y=\"16\" font-size=\"13\">tritium {} on {}: fraction of the roof measured in "
                   "this run</text>\n<text x=\"10\" y=\"31\">{}</text>\n",
                   esc(info.version), esc(info.backend), esc(subtitle));
  for (size_t i = 0; i < frac.size(); ++i) {
    const double y = top + row * static_cast<double>(i);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 6, y + row * 0.7,
                     esc(frac[i].first->info.id));
    s += fmt::format("<rect class=\"roof\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{:.1f}\" "
                     "fill=\"#1c7ed6\"/>\n",
                     left, y + 3, width * frac[i].second / fmax, row - 6);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{:.0f}%</text>\n", left + width * frac[i].second / fmax + 4,
                     y + row * 0.7, 100 * frac[i].second);
  }
  s += fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1:.1f}\" y2=\"{2:.1f}\" stroke=\"black\" "
                   "stroke-dasharray=\"4 3\"/>\n<text x=\"{0:.1f}\" y=\"{3:.1f}\" text-anchor=\"middle\">100%</text>\n",
                   left + width / fmax, top - 4, panel1_end, panel1_end + 14);
  if (panel2) {
    // log10 axes spanning the points and the ridge point.
    double imin = 1e30, imax = 0, pmin = 1e30, pmax = info.compute_peak_flops;
    for (const CaseResult* r : pts) {
      const double ai = r->info.flops / r->info.bytes, rate = achieved_flops_per_s(*r);
      imin = std::min(imin, ai), imax = std::max(imax, ai), pmin = std::min(pmin, rate), pmax = std::max(pmax, rate);
    }
    if (info.compute_peak_flops > 0) {
      const double ridge = info.compute_peak_flops / info.copy.bytes_per_s;
      imin = std::min(imin, ridge), imax = std::max(imax, ridge);
    }
    const double lx0 = std::floor(std::log10(imin)) - 0.5, lx1 = std::ceil(std::log10(imax)) + 0.5;
    const double ly0 = std::floor(std::log10(std::min(pmin, info.copy.bytes_per_s * imin))) - 0.3,
                 ly1 = std::ceil(std::log10(pmax)) + 0.3;
    const auto X = [&](double ai) { return left + width * (std::log10(ai) - lx0) / (lx1 - lx0); };
    const auto Y = [&](double rate) { return p2_top + p2_h * (1 - (std::log10(rate) - ly0) / (ly1 - ly0)); };
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">roofline (log-log): flop/s against flops per byte</text>\n",
                     left, p2_top - 10);
    s += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" "
                     "stroke=\"#999\"/>\n",
                     left, p2_top, width, p2_h);
    // The roof: bandwidth x intensity up to the ridge, then flat at the peak.
    std::string path;
    for (int i = 0; i <= 64; ++i) {
      const double ai = std::pow(10.0, lx0 + (lx1 - lx0) * i / 64.0);
      double roof = info.copy.bytes_per_s * ai;
      if (info.compute_peak_flops > 0) roof = std::min(roof, info.compute_peak_flops);
      if (roof <= 0) continue;
      const double y = std::clamp(Y(roof), p2_top, p2_top + p2_h);
      path += fmt::format("{}{:.1f},{:.1f} ", path.empty() ? "M" : "L", X(ai), y);
    }
    s += fmt::format("<path class=\"roofline\" d=\"{}\" fill=\"none\" stroke=\"black\"/>\n", path);
    for (const CaseResult* r : pts)
      s += fmt::format("<circle class=\"point\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"#e8590c\"><title>{} "
                       "{:.3g} GFLOP/s</title></circle>\n",
                       X(r->info.flops / r->info.bytes), Y(achieved_flops_per_s(*r)), esc(r->info.id),
                       achieved_flops_per_s(*r) / 1e9);
    for (double e = std::ceil(lx0); e <= lx1; e += 1)
      s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">1e{:g}</text>\n",
                       X(std::pow(10.0, e)), p2_top + p2_h + 14, e);
    for (double e = std::ceil(ly0); e <= ly1; e += 1)
      s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">1e{:g}</text>\n", left - 4,
                       Y(std::pow(10.0, e)) + 4, e);
  }
  s += "</svg>\n";
  return s;
}

}  // namespace tritium::bench
