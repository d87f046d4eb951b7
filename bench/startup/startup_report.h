// startup_report.h - the results of a `tritium-startup` run per compile unit, the summary
// over units (max and median) and the verdict against issue 2's targets: a cold compile
// under 1 s per kernel, a cached kernel launched under 5 ms from a new process.
#pragma once

#include <string>
#include <vector>

#include "bench/startup/startup.h"

namespace tritium::bench::startup {

/// Everything measured for one compile unit.
struct UnitResult {
  CompileUnit unit;            ///< what was compiled
  ColdCompile cold;            ///< the cold compile (the median of several: median_cold)
  std::vector<ChildRun> runs;  ///< the cached-launch child processes, in order

  /// True when the cold compile and every child run succeeded, each child with a disk-cache
  /// hit and no C++ compiler run.
  bool ok() const;
  /// Median over the runs of exec_to_exit_ms (spawn to waitpid: the figure judged).
  double launch_ms() const;
  /// Median over the runs of main_to_launched_ms (in the child: main() to after the launch).
  double in_child_ms() const;
  /// Median over the runs of exec_to_launched_ms (spawn to after the launch).
  double exec_to_launched_ms() const;
  /// Median over the runs of the child's compile (cache hit) time.
  double child_compile_ms() const;
};

/// The targets (defaults: issue 2).
struct Targets {
  double compile_s = 1.0;  ///< a cold compile must take less than this
  double launch_ms = 5.0;  ///< a cached launch from a new process must take less than this
};

/// The summary over units and the verdict.
struct Verdict {
  int units = 0;               ///< units measured
  int failed_units = 0;        ///< units with an error or a cache miss (see UnitResult::ok)
  double compile_max_s = 0;    ///< max over units of the cold compile
  double compile_median_s = 0; ///< median over units of the cold compile
  double launch_max_ms = 0;    ///< max over units of UnitResult::launch_ms
  double launch_median_ms = 0; ///< median over units of UnitResult::launch_ms
  double in_child_max_ms = 0;  ///< max over units of UnitResult::in_child_ms
  double in_child_median_ms = 0;  ///< median over units of UnitResult::in_child_ms
  bool compile_pass = false;   ///< compile_max_s < target and no failed unit
  bool launch_pass = false;    ///< launch_max_ms < target and no failed unit
};

/// Summarizes `results` (only successful units enter the max/median) against `targets`.
Verdict judge(const std::vector<UnitResult>& results, const Targets& targets);

/// The table (one row per unit: kernel, dtype, case, cold compile s with its frontend and
/// C++ compiler parts, cached-launch ms spawn-to-exit, spawn-to-launch and in-child), the
/// failures, the max/median lines and the PASS/FAIL verdict for both targets.
std::string format_report(const std::vector<UnitResult>& results, const Targets& targets);

/// The process exit status for `v`: 0 when both targets pass, 1 otherwise.
int exit_status(const Verdict& v);

}  // namespace tritium::bench::startup
