// previous.h - `tritium bench --vs FILE.json`: this run against an earlier run's result
// file (tritium's own, for regressions; issue 7). Cases are matched by id and backend; the
// figure is the earlier median over this run's (above 1: this run is faster) with an
// unpaired bootstrap interval (stats.h unpaired_ratio). The runs are not interleaved, so no
// noise floor is measured and machine drift between them shows in the ratio.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report.h"

namespace tritium::bench {

/// The earlier run's tritium samples by "<backend> <id>". Throws std::runtime_error (naming
/// the case's index) when `previous` is not a `tritium bench --json` document: no "cases"
/// array, a case that is not an object, a time_s without a samples array, a sample that is
/// not a number. `tritium bench --vs FILE` calls it before the run.
std::map<std::string, std::vector<double>> previous_samples(const nlohmann::json& previous);

/// Compares every timed result with the same-id, same-backend case of `previous` (a
/// `tritium bench --json` document): sets compared and comparison (baseline "previous run
/// (<label>)", interleaved false, baseline_timing = the earlier samples, speedup, no noise). Returns how many
/// cases were matched. Throws std::runtime_error when `previous` is not such a document.
int compare_with_previous(std::vector<CaseResult>& results, const nlohmann::json& previous, const std::string& label);

}  // namespace tritium::bench
