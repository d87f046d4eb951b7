// startup_report.cpp - per-unit medians, the summary over units and the text report.
#include "bench/startup/startup_report.h"

#include <algorithm>

#include <fmt/format.h>

#include "bench/timing.h"

namespace tritium::bench::startup {
namespace {

double median_over(const std::vector<ChildRun>& runs, double ChildRun::*field) {
  std::vector<double> v;
  for (const ChildRun& r : runs)
    if (r.ok) v.push_back(r.*field);
  return median_of(std::move(v));
}

double max_of(const std::vector<double>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

std::string pass_fail(bool pass) { return pass ? "PASS" : "FAIL"; }

}  // namespace

bool UnitResult::ok() const {
  if (!cold.ok || runs.empty()) return false;
  for (const ChildRun& r : runs)
    if (!r.ok || r.builds != 0 || r.cache_hits == 0) return false;
  return true;
}

double UnitResult::launch_ms() const { return median_over(runs, &ChildRun::exec_to_exit_ms); }
double UnitResult::in_child_ms() const { return median_over(runs, &ChildRun::main_to_launched_ms); }
double UnitResult::exec_to_launched_ms() const { return median_over(runs, &ChildRun::exec_to_launched_ms); }
double UnitResult::child_compile_ms() const { return median_over(runs, &ChildRun::compile_ms); }

Verdict judge(const std::vector<UnitResult>& results, const Targets& targets) {
  Verdict v;
  std::vector<double> compile, launch, in_child;
  for (const UnitResult& r : results) {
    ++v.units;
    if (!r.ok()) {
      ++v.failed_units;
      continue;
    }
    compile.push_back(r.cold.total_s);
    launch.push_back(r.launch_ms());
    in_child.push_back(r.in_child_ms());
  }
  v.compile_max_s = max_of(compile);
  v.compile_median_s = median_of(compile);
  v.launch_max_ms = max_of(launch);
  v.launch_median_ms = median_of(launch);
  v.in_child_max_ms = max_of(in_child);
  v.in_child_median_ms = median_of(in_child);
  const bool all_ok = v.failed_units == 0 && v.units > 0;
  v.compile_pass = all_ok && v.compile_max_s < targets.compile_s;
  v.launch_pass = all_ok && v.launch_max_ms < targets.launch_ms;
  return v;
}

int exit_status(const Verdict& v) { return v.compile_pass && v.launch_pass ? 0 : 1; }

std::string format_report(const std::vector<UnitResult>& results, const Targets& targets) {
  std::string s;
  s += fmt::format("{:<18} {:<5} {:<30} {:>9} {:>9} {:>8} {:>7} | {:>9} {:>9} {:>9} {:>8}\n", "kernel", "dtype",
                   "first case", "compile s", "front ms", "c++ s", "src KiB", "launch ms", "to-launch", "in-child",
                   "hit-comp");
  s += std::string(136, '-') + "\n";
  std::string failures;
  for (const UnitResult& r : results) {
    if (!r.cold.ok) {
      s += fmt::format("{:<18} {:<5} {:<30} {:>9}\n", r.unit.kernel, r.unit.dtype, r.unit.case_id, "ERROR");
      failures += fmt::format("  {}: cold compile: {}\n", r.unit.case_id, r.cold.error);
      continue;
    }
    s += fmt::format("{:<18} {:<5} {:<30} {:>9.3f} {:>9.2f} {:>8.3f} {:>7.1f} | ", r.unit.kernel, r.unit.dtype,
                     r.unit.case_id, r.cold.total_s, r.cold.frontend_s * 1e3, r.cold.cxx_s, r.cold.source_bytes / 1024.0);
    s += r.ok() ? fmt::format("{:>9.2f} {:>9.2f} {:>9.2f} {:>8.2f}\n", r.launch_ms(), r.exec_to_launched_ms(),
                               r.in_child_ms(), r.child_compile_ms())
                 : fmt::format("{:>9}\n", "ERROR");
    for (size_t i = 0; i < r.runs.size(); ++i) {
      const ChildRun& c = r.runs[i];
      if (!c.ok) failures += fmt::format("  {}: child {}: {}\n", r.unit.case_id, i + 1, c.error);
      else if (c.builds != 0 || c.cache_hits == 0)
        failures += fmt::format("  {}: child {}: no disk-cache hit (hits {}, builds {})\n", r.unit.case_id, i + 1,
                                c.cache_hits, c.builds);
    }
  }
  const Verdict v = judge(results, targets);
  s += std::string(136, '-') + "\n";
  if (!failures.empty()) s += "failures:\n" + failures;
  s += fmt::format("units: {} ({} failed)\n", v.units, v.failed_units);
  s += fmt::format("cold compile     : max {:.3f} s, median {:.3f} s   target < {:g} s   {}\n", v.compile_max_s,
                   v.compile_median_s, targets.compile_s, pass_fail(v.compile_pass));
  s += fmt::format("cached launch    : max {:.2f} ms, median {:.2f} ms (spawn to exit)   target < {:g} ms   {}\n",
                   v.launch_max_ms, v.launch_median_ms, targets.launch_ms, pass_fail(v.launch_pass));
  s += fmt::format("  in-child main() to launched: max {:.2f} ms, median {:.2f} ms\n", v.in_child_max_ms,
                   v.in_child_median_ms);
  return s;
}

}  // namespace tritium::bench::startup
