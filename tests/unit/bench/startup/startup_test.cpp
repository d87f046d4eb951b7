// Tests of the startup measurements (bench/startup): the suite's compile units, a cold compile
// that fills an empty private cache, a cached-launch child process (the built
// tritium-startup-child, TRITIUM_STARTUP_PATH) that hits that cache without running the C++
// compiler, detection of a miss and of a failing child, and the verdict logic. No speed is asserted here: speed is
// measured by the harness, never by a unit test.
#include "bench/startup/startup.h"
#include "bench/startup/startup_report.h"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#ifndef TRITIUM_STARTUP_PATH
#error "TRITIUM_STARTUP_PATH must name the tritium-startup-child executable"
#endif

namespace {

namespace fs = std::filesystem;
using namespace tritium::bench;
using namespace tritium::bench::startup;

const std::string kKernels = std::string(TRITIUM_SOURCE_DIR) + "/kernels";

// A fresh private directory, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string t = (fs::temp_directory_path() / "tritium_startup_test_XXXXXX").string();
    if (!mkdtemp(t.data())) throw std::runtime_error("mkdtemp failed");
    path_ = t;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Cache entries (regular files outside ROOT/tmp) by extension.
std::map<std::string, int> entries(const fs::path& root) {
  std::map<std::string, int> out;
  if (!fs::exists(root)) return out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    if (it.depth() == 0 && it->is_directory() && it->path().filename() == "tmp") it.disable_recursion_pending();
    else if (it->is_regular_file()) ++out[it->path().extension().string()];
  }
  return out;
}

CompileUnit unit_of(const std::string& case_id) {
  for (const CompileUnit& u : compile_units(all_cases()))
    if (u.case_id == case_id) return u;
  throw std::runtime_error("no unit " + case_id);
}

TEST(StartupUnits, OnePerDistinctFileFunctionSignatureCoveringEveryKernelAndDtype) {
  const std::vector<Case> cases = all_cases();
  const std::vector<CompileUnit> units = compile_units(cases);
  std::set<std::tuple<std::string, std::string, std::string>> distinct;
  for (const Case& c : cases) distinct.insert({c.file, c.function, c.signature});
  ASSERT_EQ(units.size(), distinct.size());
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  std::map<std::string, std::set<std::string>> dtypes;
  for (const CompileUnit& u : units) {
    EXPECT_TRUE(seen.insert({u.file, u.function, u.signature}).second) << u.case_id;
    dtypes[u.kernel].insert(u.dtype);
  }
  for (const Case& c : cases) EXPECT_EQ(dtypes[c.kernel].size(), 3u) << c.kernel;
  // A case id names its unit's kernel and dtype.
  for (const CompileUnit& u : units) EXPECT_EQ(u.case_id.rfind(u.kernel + "/" + u.dtype + "/", 0), 0u) << u.case_id;
}

TEST(StartupMeasure, ColdCompileFillsTheCacheAndTheChildHitsItWithoutTheCompiler) {
  TempDir tmp;
  const fs::path cache = tmp.path() / "cache";
  const CompileUnit u = unit_of("vector_add/fp32/100003");

  const ColdCompile cold = measure_cold_compile(u, kKernels, cache);
  ASSERT_TRUE(cold.ok) << cold.error;
  EXPECT_GT(cold.total_s, 0);
  EXPECT_GT(cold.frontend_s, 0);
  EXPECT_GT(cold.cxx_s, 0);
  EXPECT_GT(cold.source_bytes, 0u);
  std::map<std::string, int> after_cold = entries(cache);
  EXPECT_EQ(after_cold[".so"], 1);
  EXPECT_EQ(after_cold[".cpp"], 1);
  EXPECT_EQ(after_cold[".stack"], 1);  // the compiler's stack-usage figures (cpu_device.cpp)
  EXPECT_EQ(after_cold[".inputs"], 1);  // found by its inputs, without lowering (Kernel::compile)
  EXPECT_EQ(cold.cache_entries, 4);

  for (int i = 0; i < 2; ++i) {
    const ChildRun r = run_cached_launch(TRITIUM_STARTUP_PATH, u, kKernels, cache);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.cache_hits, 1u);
    EXPECT_EQ(r.builds, 0u);  // the child never ran the C++ compiler
    EXPECT_EQ(r.input_hits, 1u);  // nor lowered the kernel
    EXPECT_GT(r.exec_to_main_ms, 0);
    EXPECT_GT(r.main_to_launched_ms, 0);
    EXPECT_GT(r.compile_ms, 0);
    EXPECT_LT(r.compile_ms, r.main_to_launched_ms);
    EXPECT_LT(r.exec_to_main_ms, r.exec_to_launched_ms);
    EXPECT_LE(r.exec_to_launched_ms, r.exec_to_exit_ms);
  }
  EXPECT_EQ(entries(cache), after_cold);  // no new entry: hits only

  UnitResult res{u, cold, {}};
  res.runs.push_back(run_cached_launch(TRITIUM_STARTUP_PATH, u, kKernels, cache));
  EXPECT_TRUE(res.ok());
  EXPECT_GT(res.launch_ms(), 0);
  EXPECT_GT(res.in_child_ms(), 0);
}

TEST(StartupMeasure, RefusesANonEmptyCacheForAColdCompile) {
  TempDir tmp;
  const fs::path cache = tmp.path() / "cache";
  const CompileUnit u = unit_of("vector_add/fp32/100003");
  ASSERT_TRUE(measure_cold_compile(u, kKernels, cache).ok);
  const ColdCompile again = measure_cold_compile(u, kKernels, cache);
  EXPECT_FALSE(again.ok);
  EXPECT_NE(again.error.find("not empty"), std::string::npos) << again.error;
}

TEST(StartupMeasure, AChildWithAnEmptyCacheIsAMissAndTheUnitFails) {
  TempDir tmp;
  const CompileUnit u = unit_of("vector_add/fp32/100003");
  const ChildRun r = run_cached_launch(TRITIUM_STARTUP_PATH, u, kKernels, tmp.path() / "empty");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.cache_hits, 0u);
  EXPECT_EQ(r.builds, 1u);
  ColdCompile cold;
  cold.ok = true;
  UnitResult res{u, cold, {r}};
  EXPECT_FALSE(res.ok());
  const std::string report = format_report({res}, Targets{});
  EXPECT_NE(report.find("no disk-cache hit"), std::string::npos) << report;
}

TEST(StartupMeasure, AFailingChildIsReportedWithItsMessage) {
  TempDir tmp;
  CompileUnit u = unit_of("vector_add/fp32/100003");
  u.function = "no_such_kernel";
  const ChildRun r = run_cached_launch(TRITIUM_STARTUP_PATH, u, kKernels, tmp.path() / "cache");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("no_such_kernel"), std::string::npos) << r.error;
}

TEST(StartupMeasure, MedianColdTakesEachMedianAndFailsWhenAnyRunFailed) {
  std::vector<ColdCompile> runs(3);
  const double totals[] = {0.5, 0.1, 0.3}, fronts[] = {0.01, 0.03, 0.02}, cxxs[] = {0.2, 0.4, 0.3};
  for (int i = 0; i < 3; ++i) {
    runs[i].ok = true;
    runs[i].total_s = totals[i];
    runs[i].frontend_s = fronts[i];
    runs[i].cxx_s = cxxs[i];
    runs[i].source_bytes = 100;
  }
  ColdCompile m = median_cold(runs);
  EXPECT_TRUE(m.ok);
  EXPECT_DOUBLE_EQ(m.total_s, 0.3);
  EXPECT_DOUBLE_EQ(m.frontend_s, 0.02);
  EXPECT_DOUBLE_EQ(m.cxx_s, 0.3);
  EXPECT_EQ(m.source_bytes, 100u);
  runs[2].ok = false;
  runs[2].error = "boom";
  m = median_cold(runs);
  EXPECT_FALSE(m.ok);
  EXPECT_EQ(m.error, "boom");
  EXPECT_FALSE(median_cold({}).ok);
}

// A successful synthetic unit: cold compile `compile_s`, every child run `launch_ms`.
UnitResult synthetic(const std::string& kernel, double compile_s, double launch_ms) {
  UnitResult r;
  r.unit = CompileUnit{kernel, "fp32", kernel + "/fp32/8", kernel + ".py", kernel + "_kernel", "*fp32"};
  r.cold.ok = true;
  r.cold.total_s = compile_s;
  for (int i = 0; i < 3; ++i) {
    ChildRun c;
    c.ok = true;
    c.cache_hits = 1;
    c.exec_to_exit_ms = launch_ms + i;  // median = launch_ms + 1
    c.main_to_launched_ms = launch_ms / 2;
    r.runs.push_back(c);
  }
  return r;
}

TEST(StartupReport, VerdictJudgesTheMaxAgainstBothTargets) {
  const Targets t{1.0, 5.0};
  const std::vector<UnitResult> fine = {synthetic("a", 0.2, 1.0), synthetic("b", 0.4, 2.0), synthetic("c", 0.9, 3.0)};
  Verdict v = judge(fine, t);
  EXPECT_EQ(v.units, 3);
  EXPECT_EQ(v.failed_units, 0);
  EXPECT_DOUBLE_EQ(v.compile_max_s, 0.9);
  EXPECT_DOUBLE_EQ(v.compile_median_s, 0.4);
  EXPECT_DOUBLE_EQ(v.launch_max_ms, 4.0);
  EXPECT_DOUBLE_EQ(v.launch_median_ms, 3.0);
  EXPECT_TRUE(v.compile_pass);
  EXPECT_TRUE(v.launch_pass);
  EXPECT_EQ(exit_status(v), 0);
  const std::string report = format_report(fine, t);
  EXPECT_NE(report.find("a/fp32/8"), std::string::npos);
  EXPECT_EQ(report.find("FAIL"), std::string::npos) << report;

  std::vector<UnitResult> slow_compile = fine;
  slow_compile.push_back(synthetic("d", 1.5, 1.0));
  v = judge(slow_compile, t);
  EXPECT_FALSE(v.compile_pass);
  EXPECT_TRUE(v.launch_pass);
  EXPECT_EQ(exit_status(v), 1);
  EXPECT_NE(format_report(slow_compile, t).find("FAIL"), std::string::npos);

  std::vector<UnitResult> slow_launch = fine;
  slow_launch.push_back(synthetic("e", 0.1, 4.5));  // median 5.5 ms
  v = judge(slow_launch, t);
  EXPECT_TRUE(v.compile_pass);
  EXPECT_FALSE(v.launch_pass);
  EXPECT_EQ(exit_status(v), 1);

  std::vector<UnitResult> broken = fine;
  broken.push_back(synthetic("f", 0.1, 1.0));
  broken.back().runs[1].ok = false;  // one failed child fails the unit and both targets
  v = judge(broken, t);
  EXPECT_EQ(v.failed_units, 1);
  EXPECT_FALSE(v.compile_pass);
  EXPECT_FALSE(v.launch_pass);
  EXPECT_EQ(exit_status(judge({}, t)), 1);  // nothing measured is not a pass
}

}  // namespace
