// previous.cpp - this run against an earlier result file (previous.h).
#include "previous.h"

#include <fmt/format.h>

#include <map>
#include <stdexcept>

#include "host_array.h"
#include "stats.h"

namespace tritium::bench {

std::map<std::string, std::vector<double>> previous_samples(const nlohmann::json& previous) {
  if (!previous.is_object() || !previous.contains("cases") || !previous["cases"].is_array())
    throw std::runtime_error("not a tritium bench --json file (no \"cases\" array)");
  std::map<std::string, std::vector<double>> samples;  // by "backend id"
  size_t index = 0;
  for (const auto& c : previous["cases"]) {
    const std::string where = fmt::format("case {}", index++);
    if (!c.is_object()) throw std::runtime_error(where + " is not an object");
    if (!c.contains("time_s")) continue;
    const auto& t = c["time_s"];
    if (!t.is_object() || !t.contains("samples") || !t["samples"].is_array())
      throw std::runtime_error(where + ": time_s has no samples array");
    std::vector<double> s;
    for (const auto& x : t["samples"]) {
      if (!x.is_number()) throw std::runtime_error(where + ": a time_s sample is not a number");
      s.push_back(x.get<double>());
    }
    const auto text = [&](const char* key) {
      return c.contains(key) && c[key].is_string() ? c[key].get<std::string>() : std::string();
    };
    if (!s.empty()) samples[text("backend") + " " + text("id")] = std::move(s);
  }
  return samples;
}

int compare_with_previous(std::vector<CaseResult>& results, const nlohmann::json& previous, const std::string& label) {
  const std::map<std::string, std::vector<double>> samples = previous_samples(previous);
  int matched = 0;
  for (CaseResult& r : results) {
    if (!r.timed) continue;
    auto it = samples.find(r.backend + " " + r.info.id);
    if (it == samples.end()) continue;
    Comparison& m = r.comparison;
    m = Comparison{};
    m.baseline = "previous run (" + label + ")";
    m.baseline_ok = true;
    m.interleaved = false;
    m.baseline_timing = summarize(it->second);
    m.again = {};
    m.speedup = unpaired_ratio(it->second, r.timing.samples, seed_from(r.info.id));
    r.compared = true;
    ++matched;
  }
  return matched;
}

}  // namespace tritium::bench
