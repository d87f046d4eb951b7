// `tritium bench --vs FILE.json` (bench/previous.h): cases matched by id and backend with an
// earlier run's samples; the ratio is earlier median / this median.
#include <gtest/gtest.h>

#include "bench/previous.h"

using namespace tritium::bench;

namespace {

CaseResult timed(const std::string& id, const std::string& backend, std::vector<double> samples) {
  CaseResult r;
  r.info.id = id;
  r.backend = backend;
  r.passed = r.timed = true;
  r.timing = summarize(std::move(samples));
  return r;
}

}  // namespace

TEST(BenchPrevious, CasesAreMatchedByIdAndBackend) {
  const nlohmann::json prev = {
      {"cases",
       {{{"id", "add/fp32/1"}, {"backend", "cpu"}, {"time_s", {{"samples", {2.0, 2.2, 1.8}}}}},
        {{"id", "add/fp32/1"}, {"backend", "cuda"}, {"time_s", {{"samples", {0.1}}}}},
        {{"id", "mm/fp32/1"}, {"backend", "cpu"}, {"passed", false}}}}};  // failed then: no times
  std::vector<CaseResult> now = {timed("add/fp32/1", "cpu", {1.0, 1.1, 0.9}), timed("mm/fp32/1", "cpu", {1.0}),
                                 timed("sm/fp32/1", "cpu", {1.0})};
  EXPECT_EQ(compare_with_previous(now, prev, "old.json"), 1);
  ASSERT_TRUE(now[0].compared);
  EXPECT_EQ(now[0].comparison.baseline, "previous run (old.json)");
  EXPECT_DOUBLE_EQ(now[0].comparison.speedup.median, 2.0);  // medians 2.0 then, 1.0 now
  EXPECT_EQ(now[0].comparison.noise.pairs, 0);              // no noise floor across runs
  EXPECT_FALSE(now[1].compared);
  EXPECT_FALSE(now[2].compared);
  EXPECT_THROW(compare_with_previous(now, nlohmann::json::array(), "x"), std::runtime_error);
}

TEST(BenchPrevious, AMalformedFileIsRefusedNamingTheCase) {
  const auto refused = [](const nlohmann::json& doc, const std::string& what) {
    try {
      previous_samples(doc);
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << "accepted: " << doc.dump();
  };
  refused({{"cases", 5}}, "no \"cases\" array");
  refused({{"cases", {5}}}, "case 0 is not an object");
  refused({{"cases", {{{"id", "a"}, {"time_s", {{"samples", "x"}}}}}}}, "case 0: time_s has no samples array");
  refused({{"cases", {{{"id", "a"}}, {{"id", "b"}, {"time_s", {{"samples", {1.0, "x"}}}}}}}},
          "case 1: a time_s sample is not a number");
  EXPECT_EQ(previous_samples({{"cases", {{{"id", "a"}, {"backend", "cpu"}, {"time_s", {{"samples", {1.0}}}}}}}}).size(),
            1u);
}

TEST(BenchPrevious, TheComparisonSaysItIsNotInterleaved) {
  const nlohmann::json prev = {{"cases", {{{"id", "a"}, {"backend", "cpu"}, {"time_s", {{"samples", {2.0}}}}}}}};
  std::vector<CaseResult> now = {timed("a", "cpu", {1.0})};
  ASSERT_EQ(compare_with_previous(now, prev, "old.json"), 1);
  EXPECT_FALSE(now[0].comparison.interleaved);
  const nlohmann::json doc = to_json(now, RunInfo{});
  const auto& cmp = doc["cases"][0]["comparison"];
  EXPECT_EQ(cmp["interleaved"], false);
  EXPECT_FALSE(cmp.contains("noise_floor")) << "no noise floor across runs";
  EXPECT_FALSE(cmp.contains("rounds"));
  EXPECT_NE(format_table(now, RunInfo{}).find("not interleaved, so no noise floor"), std::string::npos);
}
