// previous.cpp - this run against an earlier result file (previous.h).
#include "previous.h"

#include <map>
#include <stdexcept>

#include "host_array.h"
#include "stats.h"

namespace tritium::bench {

int compare_with_previous(std::vector<CaseResult>& results, const nlohmann::json& previous, const std::string& label) {
  if (!previous.is_object() || !previous.contains("cases") || !previous["cases"].is_array())
    throw std::runtime_error("not a tritium bench --json file (no \"cases\" array)");
  std::map<std::string, std::vector<double>> samples;  // by "backend id"
  for (const auto& c : previous["cases"]) {
    if (!c.contains("time_s") || !c["time_s"].contains("samples")) continue;
    std::vector<double> s = c["time_s"]["samples"].get<std::vector<double>>();
    if (!s.empty()) samples[c.value("backend", "") + " " + c.value("id", "")] = std::move(s);
  }
  int matched = 0;
  for (CaseResult& r : results) {
    if (!r.timed) continue;
    auto it = samples.find(r.backend + " " + r.info.id);
    if (it == samples.end()) continue;
    Comparison& m = r.comparison;
    m = Comparison{};
    m.baseline = "previous run (" + label + ")";
    m.baseline_ok = true;
    m.baseline_timing = summarize(it->second);
    m.again = {};
    m.speedup = unpaired_ratio(it->second, r.timing.samples, seed_from(r.info.id));
    r.compared = true;
    ++matched;
  }
  return matched;
}

}  // namespace tritium::bench
