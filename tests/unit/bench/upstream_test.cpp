// upstream (bench/upstream.h): the driver's command line, and its JSON turned into the
// bench's compared results (the ratios, intervals, noise floor and samples carried over, a
// wrong arm failing the case, a malformed document refused naming the key).
#include <gtest/gtest.h>

#include "bench/upstream.h"
#include "scoped_env.h"

using tritium::bench::CaseResult;
using tritium::bench::UpstreamOptions;

namespace {

// A driver document: one memory-bound case with a tritium arm, one matmul case without.
nlohmann::json fixture() {
  return nlohmann::json::parse(R"({
    "driver": "kernels/tools/bench_upstream.py", "gpu": "NVIDIA H200", "triton": "3.6.0",
    "torch": "2.11.0", "tritium": "0.1.0", "copy_bytes_per_s": 4.0e12,
    "compute_peak_flops": 6.0e14, "compute_peak_source": "cublas on matmul (4096, 4096, 4096) bfloat16",
    "cases": [
      {"kernel": "rmsnorm", "shape": [4096, 8192], "dtype": "bfloat16", "unit": "GB/s",
       "bytes": 134234112.0, "flops": 0.0, "baseline": "torch",
       "checks": {"triton": {"rel_err": 1e-3, "bound": 1e-2, "ok": true, "error": ""},
                  "tritium": {"rel_err": 1e-3, "bound": 1e-2, "ok": true, "error": ""},
                  "torch": {"rel_err": 2e-3, "bound": 1e-2, "ok": true, "error": ""}},
       "timed": true, "rounds": 3,
       "arms": {"triton": {"median_s": 4e-5, "samples_s": [4e-5, 4.1e-5, 3.9e-5]},
                "tritium": {"median_s": 3.8e-5, "samples_s": [3.8e-5, 3.7e-5, 3.9e-5]},
                "torch": {"median_s": 6e-5, "samples_s": [6e-5, 6e-5, 6.1e-5]},
                "tritium'": {"median_s": 3.8e-5, "samples_s": [3.8e-5, 3.8e-5, 3.8e-5]}},
       "ratios": {"tritium_vs_triton": {"median": 1.05, "lo": 1.01, "hi": 1.08, "pairs": 3},
                  "tritium_vs_baseline": {"median": 1.58, "lo": 1.5, "hi": 1.6, "pairs": 3},
                  "triton_vs_baseline": {"median": 1.5, "lo": 1.45, "hi": 1.55, "pairs": 3},
                  "noise": {"median": 1.0, "lo": 0.98, "hi": 1.02, "pairs": 3}},
       "percent_of_roof": {"tritium": 88.3}, "target": 0.9, "meets_target": true},
      {"kernel": "matmul", "shape": [512, 512, 512], "dtype": "float16", "unit": "TFLOP/s",
       "bytes": 0.0, "flops": 268435456.0, "baseline": "cublas",
       "checks": {"triton": {"rel_err": 1e-4, "bound": 1e-2, "ok": true, "error": ""},
                  "tritium": {"rel_err": null, "bound": 0.0, "ok": false, "error": "compile error: x.py:3:4"},
                  "cublas": {"rel_err": 1e-4, "bound": 1e-2, "ok": true, "error": ""}},
       "timed": true, "rounds": 2,
       "arms": {"triton": {"median_s": 1e-5, "samples_s": [1e-5, 1e-5]},
                "cublas": {"median_s": 9e-6, "samples_s": [9e-6, 9e-6]},
                "triton'": {"median_s": 1e-5, "samples_s": [1e-5, 1e-5]}},
       "ratios": {"triton_vs_baseline": {"median": 0.9, "lo": 0.88, "hi": 0.92, "pairs": 2},
                  "noise": {"median": 1.0, "lo": 0.99, "hi": 1.01, "pairs": 2}},
       "percent_of_roof": {}, "target": null, "meets_target": null}
    ]})");
}

}  // namespace

TEST(Upstream, CommandCarriesTheOptions) {
  UpstreamOptions o;
  o.python = "python3";
  o.kernels_dir = "/src/kernels";
  o.library = "/b/capi/libtritium_c.so";
  o.json_path = "/tmp/x.json";
  o.quick = true;
  o.only = "rmsnorm";
  o.dtype = "bf16";
  const std::vector<std::string> want = {"python3", "/src/kernels/tools/bench_upstream.py", "--json", "/tmp/x.json",
                                         "--tritium", "/b/capi/libtritium_c.so", "--quick", "--only", "rmsnorm",
                                         "--dtype", "bf16"};
  EXPECT_EQ(tritium::bench::upstream_command(o), want);
  o.library.clear();
  o.quick = false;
  o.only.clear();
  o.dtype.clear();
  EXPECT_EQ(tritium::bench::upstream_command(o).size(), 4u) << "tritium left out, no filters";
}

TEST(Upstream, ACaseWithTritiumGivesOneComparisonWithTritonAndOneWithTheLibrary) {
  const std::vector<CaseResult> r = tritium::bench::upstream_results(fixture());
  ASSERT_EQ(r.size(), 3u);
  const CaseResult &vs_triton = r[0], &vs_torch = r[1];
  EXPECT_EQ(vs_triton.info.id, "rmsnorm/bf16/4096x8192");
  EXPECT_EQ(vs_torch.info.id, "rmsnorm/bf16/4096x8192");
  for (const CaseResult* c : {&vs_triton, &vs_torch}) {
    EXPECT_TRUE(c->passed);
    EXPECT_TRUE(c->timed);
    EXPECT_TRUE(c->compared);
    EXPECT_TRUE(c->info.memory_bound);
    EXPECT_DOUBLE_EQ(c->info.bytes, 134234112.0);
    EXPECT_DOUBLE_EQ(c->timing.median, 3.8e-5) << "tritium's samples are the case's timing";
    EXPECT_DOUBLE_EQ(c->comparison.noise.hi, 1.02);
    EXPECT_EQ(c->comparison.again.samples.size(), 3u);
  }
  EXPECT_EQ(vs_triton.comparison.baseline, "Triton 3.6.0");
  EXPECT_DOUBLE_EQ(vs_triton.comparison.speedup.median, 1.05);
  EXPECT_DOUBLE_EQ(vs_triton.comparison.speedup.lo, 1.01);
  EXPECT_DOUBLE_EQ(vs_triton.comparison.baseline_timing.median, 4e-5);
  EXPECT_EQ(vs_torch.comparison.baseline, "torch");
  EXPECT_DOUBLE_EQ(vs_torch.comparison.speedup.median, 1.58);
  EXPECT_DOUBLE_EQ(vs_torch.comparison.baseline_timing.median, 6e-5);
  EXPECT_EQ(vs_torch.comparison.speedup.pairs, 3);
}

TEST(Upstream, AFailedTritiumArmFailsTheCaseAndTritonIsComparedWithTheLibrary) {
  const CaseResult m = tritium::bench::upstream_results(fixture())[2];
  EXPECT_FALSE(m.passed);
  ASSERT_EQ(m.problems.size(), 1u);
  EXPECT_NE(m.problems[0].find("tritium: compile error: x.py:3:4"), std::string::npos) << m.problems[0];
  EXPECT_EQ(m.info.id, "matmul/fp16/512x512x512 (Triton)");
  EXPECT_FALSE(m.info.memory_bound);
  EXPECT_DOUBLE_EQ(m.comparison.speedup.median, 0.9);
  EXPECT_DOUBLE_EQ(m.timing.median, 1e-5) << "Triton's samples";
}

TEST(Upstream, AWrongResultNamesTheArmAndTheError) {
  nlohmann::json d = fixture();
  d["cases"][0]["checks"]["torch"] = {{"rel_err", 0.5}, {"bound", 0.01}, {"ok", false}, {"error", ""}};
  d["cases"][0]["checks"]["triton"] = {{"rel_err", nullptr}, {"bound", 0.01}, {"ok", false}, {"error", ""}};
  const CaseResult r = tritium::bench::upstream_results(d)[0];
  EXPECT_FALSE(r.passed);
  ASSERT_EQ(r.problems.size(), 2u);
  std::string all = r.problems[0] + " | " + r.problems[1];
  EXPECT_NE(all.find("torch: relative error 0.5 over bound 0.01"), std::string::npos) << all;
  EXPECT_NE(all.find("triton: relative error NaN/Inf"), std::string::npos) << all;
}

TEST(Upstream, RunInfoTakesTheDriversRoofs) {
  tritium::bench::RunInfo base;
  base.backend = "cuda";
  const auto info = tritium::bench::upstream_info(fixture(), base);
  EXPECT_DOUBLE_EQ(info.copy.bytes_per_s, 4.0e12);
  EXPECT_DOUBLE_EQ(info.compute_peak_flops, 6.0e14);
  EXPECT_EQ(info.device, "NVIDIA H200");
  EXPECT_EQ(info.backend, "cuda");
}

TEST(Upstream, AMalformedDocumentIsRefusedNamingTheKey) {
  nlohmann::json d = fixture();
  d["cases"][0].erase("arms");
  try {
    tritium::bench::upstream_results(d);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("case rmsnorm has no 'arms'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(tritium::bench::upstream_results(nlohmann::json::object()), std::runtime_error);
}

TEST(Upstream, StatusNamesTheInterpreterThatCannotRunTheDriver) {
  const std::string why = tritium::bench::upstream_status("/nonexistent/python3");
  EXPECT_NE(why.find("/nonexistent/python3"), std::string::npos) << why;
  EXPECT_NE(why.find("TRITIUM_PYTHON"), std::string::npos) << why;
}

TEST(Upstream, TheCLibraryComesFromTheEnvironmentWhenItExists) {
  {
    ScopedEnv env("TRITIUM_C_LIBRARY", "/nonexistent/libtritium_c.so");
    EXPECT_EQ(tritium::bench::tritium_c_library(), "");
  }
  {
    ScopedEnv env("TRITIUM_C_LIBRARY", "/proc/self/exe");
    EXPECT_EQ(tritium::bench::tritium_c_library(), "/proc/self/exe");
  }
}

TEST(Upstream, ATimedArmWithoutSamplesIsMalformed) {
  nlohmann::json d = fixture();
  d["cases"][0]["arms"]["tritium"]["samples_s"] = nlohmann::json::array();
  EXPECT_THROW(tritium::bench::upstream_results(d), std::runtime_error);
  d = fixture();
  d["cases"][0]["arms"]["torch"]["samples_s"] = {1e-5, "x"};
  EXPECT_THROW(tritium::bench::upstream_results(d), std::runtime_error);
}

TEST(Upstream, TritiumsDriverTimesAreComparedWithAnEarlierRun) {
  nlohmann::json before = fixture(), now = fixture();
  // This run's tritium twice as fast on rmsnorm: earlier / now = 2.
  for (auto& x : now["cases"][0]["arms"]["tritium"]["samples_s"]) x = x.get<double>() / 2;
  const std::string text = tritium::bench::format_upstream_vs_previous(now, before, "old.json");
  EXPECT_NE(text.find("against old.json"), std::string::npos) << text;
  EXPECT_NE(text.find("rmsnorm/bf16/4096x8192"), std::string::npos) << text;
  EXPECT_NE(text.find("2.000x ["), std::string::npos) << text;  // medians 3.8e-5 then, 1.9e-5 now
  EXPECT_EQ(text.find("matmul"), std::string::npos) << "no tritium arm there, nothing to compare";
  before["cases"].erase(0);
  EXPECT_NE(tritium::bench::format_upstream_vs_previous(now, before, "old.json").find("no case of this run"),
            std::string::npos);
}
