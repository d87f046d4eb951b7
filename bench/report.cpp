// report.cpp - the terminal table and the JSON document of a bench run.
#include "report.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tritium::bench {
namespace {

std::string format_bytes(int64_t b) {
  if (b <= 0) return "unknown";
  if (b % (int64_t{1} << 20) == 0) return fmt::format("{} MiB", b >> 20);
  return fmt::format("{} KiB", b >> 10);
}

std::string format_ratio(const CaseResult& r) {
  if (!r.error.empty()) return "-";
  if (std::isinf(r.check.worst_ratio)) return "inf";
  return fmt::format("{:.3f}", r.check.worst_ratio);
}

std::string format_err(const CaseResult& r) {
  if (!r.error.empty()) return "-";
  if (r.check.non_finite) return "NaN/Inf";
  return fmt::format("{:.2e}", r.check.max_abs_err);
}

// At most `max_lines` lines of `text`, each indented by two spaces.
std::string indent_lines(const std::string& text, size_t max_lines) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::string out;
  for (size_t i = 0; i < lines.size() && i < max_lines; ++i) out += "  " + lines[i] + "\n";
  if (lines.size() > max_lines)
    out += fmt::format("  ... ({} more lines; the full text is in the --json output)\n", lines.size() - max_lines);
  return out;
}

}  // namespace

double achieved_bytes_per_s(const CaseResult& r) {
  return r.timed && r.timing.median > 0 ? r.info.bytes / r.timing.median : 0.0;
}

double achieved_flops_per_s(const CaseResult& r) {
  return r.timed && r.timing.median > 0 ? r.info.flops / r.timing.median : 0.0;
}

double percent_of_copy(const CaseResult& r, const RunInfo& info) {
  if (info.copy.bytes_per_s <= 0) return 0.0;
  return 100.0 * achieved_bytes_per_s(r) / info.copy.bytes_per_s;
}

double ceiling_bytes_per_s(const CaseResult& r) {
  const double dt = r.ceiling_timing.median - r.ceiling_small_timing.median;
  if (!r.has_ceiling || dt <= 0) return 0;
  return (r.ceiling_bytes - r.ceiling_small_bytes) / dt;
}

std::pair<double, std::string> vendor_compute_peak(const std::vector<CaseResult>& results) {
  std::pair<double, std::string> best{0.0, ""};
  for (const CaseResult& r : results) {
    if (r.info.memory_bound || !r.compared || !r.comparison.baseline_ok || r.info.flops <= 0) continue;
    const double rate = r.info.flops / r.comparison.baseline_timing.median;
    if (rate > best.first) best = {rate, r.comparison.baseline + " on " + r.info.id};
  }
  return best;
}

double percent_of_compute_peak(const CaseResult& r, const RunInfo& info) {
  if (info.compute_peak_flops <= 0) return 0.0;
  return 100.0 * achieved_flops_per_s(r) / info.compute_peak_flops;
}

std::string format_bytes_rate(double bytes_per_s) {
  const double g = bytes_per_s / 1e9;
  return g >= 1000 ? fmt::format("{:.0f} GB/s", g) : fmt::format("{:.3g} GB/s", g);
}

std::string format_flops_rate(double flops_per_s) {
  if (flops_per_s >= 1e12) return fmt::format("{:.3g} TFLOP/s", flops_per_s / 1e12);
  return fmt::format("{:.3g} GFLOP/s", flops_per_s / 1e9);
}

std::string format_rate(const CaseResult& r) {
  if (!r.timed) return "-";
  if (r.info.memory_bound) return format_bytes_rate(achieved_bytes_per_s(r));
  return format_flops_rate(achieved_flops_per_s(r));
}

std::string format_seconds(double s) {
  if (s >= 1.0) return fmt::format("{:.3g} s", s);
  if (s >= 1e-3) return fmt::format("{:.3g} ms", s * 1e3);
  if (s >= 1e-6) return fmt::format("{:.3g} us", s * 1e6);
  return fmt::format("{:.3g} ns", s * 1e9);
}

std::string format_header(const RunInfo& info) {
  std::string copy = info.copy.bytes_per_s <= 0 ? fmt::format("not measured for the {} backend", info.backend)
                     : info.copy.method.empty()
                         ? fmt::format("{:.2f} GB/s (memcpy of {} MiB, {} threads, read + write)",
                                       info.copy.bytes_per_s / 1e9, info.copy.buffer_bytes >> 20,
                                       info.copy.threads)
                         : fmt::format("{:.2f} GB/s ({} of {} MiB, read + write)", info.copy.bytes_per_s / 1e9,
                                       info.copy.method, info.copy.buffer_bytes >> 20);
  return fmt::format("tritium {} bench | {} | {} threads | LLC {} | copy bandwidth {} | backend {}: {}\n",
                     info.version, info.machine.cpu_model, info.machine.threads,
                     format_bytes(info.machine.llc_bytes), copy, info.backend, info.device);
}

// Rounds below which an interval is not printed (the table shows n instead).
constexpr int kMinPairs = 5;

std::string format_speedup(const CaseResult& r) {
  if (!r.compared) return "";
  const Comparison& c = r.comparison;
  if (!c.baseline_ok) return "base wrong";
  // Fewer than kMinPairs rounds: no interval worth printing.
  if (c.speedup.pairs < kMinPairs) return fmt::format("{:.2f}x (n={})", c.speedup.median, c.speedup.pairs);
  return fmt::format("{:.2f}x [{:.2f}, {:.2f}]", c.speedup.median, c.speedup.lo, c.speedup.hi);
}

std::string format_noise(const CaseResult& r) {
  if (!r.compared || !r.comparison.baseline_ok || r.comparison.noise.pairs == 0) return "";
  const Comparison& c = r.comparison;
  if (c.noise.pairs < kMinPairs) return fmt::format("{:.2f} (n={})", c.noise.median, c.noise.pairs);
  return fmt::format("{:.2f} [{:.2f}, {:.2f}]", c.noise.median, c.noise.lo, c.noise.hi);
}

std::string format_table(const std::vector<CaseResult>& results, const RunInfo& info) {
  std::string out;
  const bool any_compared =
      std::any_of(results.begin(), results.end(), [](const CaseResult& r) { return r.compared; });
  const bool any_ceiling = info.copy.bytes_per_s > 0 &&
      std::any_of(results.begin(), results.end(), [](const CaseResult& r) { return r.has_ceiling; });
  const auto row = [&](const std::string& kernel, const std::string& shape, const std::string& dtype,
                       const std::string& backend, const std::string& err, const std::string& ratio,
                       const std::string& status, const std::string& median, const std::string& rate,
                       const std::string& pct, const std::string& ceil, const std::string& vs,
                       const std::string& noise) {
    out += fmt::format("{:<17} {:<15} {:<5} {:<7} {:>9} {:>8} {:<6} {:>10} {:>17} {:>6}", kernel, shape, dtype,
                       backend, err, ratio, status, median, rate, pct);
    if (any_ceiling) out += fmt::format(" {:>6}", ceil);
    if (any_compared) out += fmt::format("  {:<20} {:<18}", vs, noise);
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "\n";
  };
  row("kernel", "shape", "dtype", "backend", "max err", "err/tol", "result", "median", "throughput", "%roof",
      "%cache", "vs base [95% CI]", "A/A [95% CI]");
  int passed = 0, failed = 0;
  for (const CaseResult& r : results) {
    r.passed ? ++passed : ++failed;
    std::string pct = "-";
    if (r.timed && r.info.memory_bound && info.copy.bytes_per_s > 0)
      pct = fmt::format("{:.3g}%", percent_of_copy(r, info));
    else if (r.timed && !r.info.memory_bound && info.compute_peak_flops > 0)
      pct = fmt::format("{:.3g}%", percent_of_compute_peak(r, info));
    const std::string ceil = r.has_ceiling && info.copy.bytes_per_s > 0 && ceiling_bytes_per_s(r) > 0
                                 ? fmt::format("{:.3g}%", 100.0 * ceiling_bytes_per_s(r) / info.copy.bytes_per_s)
                                 : "-";
    row(r.info.kernel, r.info.shape, r.info.dtype, r.backend, format_err(r), format_ratio(r),
        r.passed ? "PASS" : "FAIL", r.timed ? format_seconds(r.timing.median) : "-", format_rate(r), pct, ceil,
        format_speedup(r), format_noise(r));
  }
  out += fmt::format("\n{} passed, {} failed (err/tol: worst |got - ref| / allowed over all outputs; "
                     "FAIL above 1, on NaN, or on a compile/launch error)\n",
                     passed, failed);
  out += fmt::format("%roof: memory-bound cases against the copy bandwidth above; compute-bound cases against {}\n",
                     info.compute_peak_flops > 0
                         ? fmt::format("the vendor library's best rate in this run, {} ({})",
                                       format_flops_rate(info.compute_peak_flops), info.compute_peak_source)
                         : std::string("no measured peak (none in this run)"));
  if (any_ceiling)
    out += "%cache: the same kernel on sub-grids whose arrays stay in the cache (no DRAM traffic; the extra bytes of "
           "a larger one over its extra time, so the fixed cost of a launch cancels), as % of the copy bandwidth: its "
           "ceiling on this machine. Under 100% the case is bound by its arithmetic here, not by memory.\n";
  for (const std::string& line : info.absent_backends) out += "not run: " + line + "\n";
  if (any_compared) {
    std::string names, earlier;
    int warm = 0;
    for (const CaseResult& r : results) {
      if (!r.compared) continue;
      std::string& list = r.comparison.interleaved ? names : earlier;
      if (list.find(r.comparison.baseline) == std::string::npos)
        list += (list.empty() ? "" : ", ") + r.comparison.baseline;
      if (r.comparison.interleaved && r.comparison.baseline_ok && !r.comparison.cache_cold()) ++warm;
    }
    if (!names.empty())
      out += fmt::format(
          "vs base: median over interleaved rounds (tritium, baseline, tritium again; the order rotates through "
          "all six, every call on the next copy of the arrays) of baseline time / tritium time, above 1 = tritium "
          "faster, with its bootstrap 95% interval (n = rounds when under {}); A/A: tritium against itself in "
          "the same rounds (the noise floor). Baselines: {}.\n",
          kMinPairs, names);
    if (warm > 0)
      out += fmt::format("  {} comparison(s) could not rotate through 2 x the last-level cache of arrays (capped at "
                         "4096 copies or 4 GiB): their calls may read cached data (cache_cold false in the JSON).\n",
                         warm);
    if (!earlier.empty())
      out += fmt::format(
          "vs base: {}: the earlier run's median time / this run's (above 1 = this run faster), unpaired "
          "bootstrap 95% interval; not interleaved, so no noise floor: drift between the runs shows in it.\n",
          earlier);
    for (const CaseResult& r : results)
      if (r.compared && !r.comparison.baseline_ok)
        out += fmt::format("  {}: not compared: {}\n", r.info.id, r.comparison.problem);
  }
  for (const CaseResult& r : results) {
    if (r.passed) continue;
    out += fmt::format("\nFAIL {}  ({} `{}` signature \"{}\")\n", r.info.id, r.info.file, r.info.function,
                       r.info.signature);
    if (!r.error.empty()) out += indent_lines(r.error, 12);
    for (const std::string& p : r.problems) out += indent_lines(p, 12);
    if (r.error.empty() && !r.check.passed()) {
      out += fmt::format("  {} of {} elements out of tolerance ({} NaN/Inf); worst: {}[{}] = {} vs reference {} "
                         "(allowed error {:.3g})\n  tolerance: {}\n",
                         r.check.bad, r.check.count, r.check.non_finite, r.worst_output, r.check.worst_index,
                         r.check.worst_got, r.check.worst_ref, r.check.worst_allowed, r.worst_tolerance);
    }
  }
  return out;
}

nlohmann::json to_json(const std::vector<CaseResult>& results, const RunInfo& info) {
  using nlohmann::json;
  json doc;
  doc["tritium_version"] = info.version;
  doc["machine"] = {{"cpu", info.machine.cpu_model},
                    {"threads", info.machine.threads},
                    {"llc_bytes", info.machine.llc_bytes}};
  doc["copy_bandwidth"] = {{"bytes_per_s", info.copy.bytes_per_s},
                           {"buffer_bytes", info.copy.buffer_bytes},
                           {"threads", info.copy.threads},
                           {"reps", info.copy.reps},
                           {"method", info.copy.method.empty() ? "host memcpy" : info.copy.method},
                           {"definition", "2 * buffer_bytes / median copy time (read + written)"}};
  doc["backend"] = info.backend;
  doc["compute_peak"] = {{"flops_per_s", info.compute_peak_flops},
                         {"source", info.compute_peak_source},
                         {"definition", "the vendor library's best flop rate in this run: on its compute-bound cases, and on "
                                        "cuda also a dedicated cuBLAS GEMM (source names which)"}};
  doc["absent_backends"] = info.absent_backends;
  doc["device"] = info.device;
  doc["quick"] = info.quick;
  doc["filter"] = info.filter;
  json cases = json::array();
  int failed = 0;
  for (const CaseResult& r : results) {
    if (!r.passed) ++failed;
    // Non-finite numbers are not JSON: ratios become null.
    const auto num = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
    json outputs = json::array();
    for (const OutputCheck& o : r.outputs)
      outputs.push_back({{"name", o.name},
                         {"tolerance", {{"abs", o.tol.abs}, {"rel", o.tol.rel}, {"mag_rel", o.tol.mag_rel},
                                        {"reason", o.tol.reason}}},
                         {"compared_elements", o.check.count},
                         {"bad_elements", o.check.bad},
                         {"non_finite_elements", o.check.non_finite},
                         {"max_abs_err", num(o.check.max_abs_err)},
                         {"err_over_tol", num(o.check.worst_ratio)},
                         {"worst_index", o.check.worst_index},
                         {"worst_got", num(o.check.worst_got)},
                         {"worst_ref", num(o.check.worst_ref)},
                         {"worst_allowed", num(o.check.worst_allowed)}});
    json c = {{"id", r.info.id},
              {"kernel", r.info.kernel},
              {"file", r.info.file},
              {"function", r.info.function},
              {"shape", r.info.shape},
              {"dtype", r.info.dtype},
              {"backend", r.backend},
              {"signature", r.info.signature},
              {"grid", r.info.grid},
              {"quick", r.info.quick},
              {"memory_bound", r.info.memory_bound},
              {"bytes", r.info.bytes},
              {"flops", r.info.flops},
              {"passed", r.passed},
              {"error", r.error},
              {"problems", r.problems},
              {"compared_elements", r.check.count},
              {"bad_elements", r.check.bad},
              {"non_finite_elements", r.check.non_finite},
              {"max_abs_err", num(r.check.max_abs_err)},
              {"err_over_tol", num(r.check.worst_ratio)},
              {"worst_output", r.worst_output},
              {"worst_tolerance", r.worst_tolerance},
              {"outputs", outputs},
              {"compile_s", r.compile_s},
              {"setup_s", r.setup_s}};
    if (r.timed) {
      c["time_s"] = {{"median", r.timing.median},
                     {"min", r.timing.min},
                     {"max", r.timing.max},
                     {"mean", r.timing.mean},
                     {"samples", r.timing.samples}};
      c["bytes_per_s"] = achieved_bytes_per_s(r);
      c["flops_per_s"] = achieved_flops_per_s(r);
      if (r.info.memory_bound && info.copy.bytes_per_s > 0)
        c["percent_of_copy_bandwidth"] = percent_of_copy(r, info);
      if (!r.info.memory_bound && info.compute_peak_flops > 0)
        c["percent_of_compute_peak"] = percent_of_compute_peak(r, info);
    }
    if (r.has_ceiling) {
      const double rate = ceiling_bytes_per_s(r);
      c["cache_ceiling"] = {
          {"grid", r.ceiling_grid},
          {"bytes", r.ceiling_bytes},
          {"time_s", {{"median", r.ceiling_timing.median}, {"samples", r.ceiling_timing.samples}}},
          {"small_grid_x", r.ceiling_small_x},
          {"small_bytes", r.ceiling_small_bytes},
          {"small_time_s", {{"median", r.ceiling_small_timing.median}, {"samples", r.ceiling_small_timing.samples}}},
          {"bytes_per_s", rate},
          {"method", "(bytes - small_bytes) / (median - small median), the two grids interleaved"}};
      if (info.copy.bytes_per_s > 0 && rate > 0) {
        c["cache_ceiling"]["percent_of_copy_bandwidth"] = 100.0 * rate / info.copy.bytes_per_s;
        c["cache_ceiling"]["bound"] = rate < info.copy.bytes_per_s ? "compute" : "memory";
      }
      if (r.timed && rate > 0) c["cache_ceiling"]["percent_of_ceiling"] = 100.0 * achieved_bytes_per_s(r) / rate;
    }
    if (r.compared) {
      const Comparison& m = r.comparison;
      const auto est = [&](const RatioEstimate& e) {
        return json{{"median", num(e.median)}, {"ci95_lo", num(e.lo)}, {"ci95_hi", num(e.hi)}, {"pairs", e.pairs}};
      };
      json cmp = {{"baseline", m.baseline}, {"baseline_ok", m.baseline_ok}, {"problem", m.problem}};
      if (m.baseline_ok && !m.interleaved) {
        cmp["interleaved"] = false;
        cmp["order"] = "not interleaved: the earlier run's tritium samples against this run's";
        cmp["baseline_time_s"] = {{"median", m.baseline_timing.median}, {"samples", m.baseline_timing.samples}};
        cmp["speedup"] = est(m.speedup);
        cmp["speedup"]["definition"] =
            "median of the earlier run's times / median of this run's, unpaired percentile bootstrap interval "
            "(no noise floor: machine drift between the runs shows in the ratio)";
      } else if (m.baseline_ok) {
        cmp["interleaved"] = true;
        cmp["rounds"] = m.rounds;
        cmp["buffer_sets"] = m.buffer_sets;
        cmp["set_bytes"] = m.set_bytes;
        cmp["llc_bytes"] = m.llc_bytes;
        cmp["cache_cold"] = m.cache_cold();
        cmp["order"] = "round r runs the (r mod 6)-th order of A, B, A2 (A = tritium, B = baseline, A2 = tritium "
                       "again); every call takes the next buffer set";
        cmp["baseline_time_s"] = {{"median", m.baseline_timing.median}, {"samples", m.baseline_timing.samples}};
        cmp["tritium_again_time_s"] = {{"median", m.again.median}, {"samples", m.again.samples}};
        cmp["speedup"] = est(m.speedup);
        cmp["speedup"]["definition"] = "median over rounds of baseline time / tritium time";
        cmp["noise_floor"] = est(m.noise);
        cmp["noise_floor"]["definition"] = "median over rounds of tritium (A2) time / tritium (A) time";
      }
      c["comparison"] = std::move(cmp);
    }
    cases.push_back(std::move(c));
  }
  doc["cases"] = std::move(cases);
  doc["summary"] = {{"cases", results.size()}, {"failed", failed}, {"passed", results.size() - failed}};
  return doc;
}

}  // namespace tritium::bench
