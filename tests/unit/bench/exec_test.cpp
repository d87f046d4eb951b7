// Tests of the bench's per-case pipeline (bench/exec.h) on the reference interpreter:
// a correct kernel passes; a kernel that writes out of bounds, leaves an element unwritten,
// writes into an input or does not compile fails, with the reason recorded. The kernels are
// small variants of vector_add written here; data and reference come from the suite's
// vector_add/fp32 quick case.
#include "bench/exec.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <stdexcept>
#include <string>

namespace {

using namespace tritium::bench;

const char* const kKernels = R"(import triton
import triton.language as tl


@triton.jit
def add_ok(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def add_unmasked_store(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x + y)


@triton.jit
def add_skips_last(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n - 1
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def add_writes_input(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)
    tl.store(x_ptr + offs, y, mask=mask)


@triton.jit
def add_bad_source(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.no_such_function(offs))
)";

class BenchExec : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::filesystem::temp_directory_path() / ("tritium_bench_exec_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "variants.py") << kKernels;
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }

  // The vector_add/fp32 quick case (n = 100003), launched through `function` of variants.py.
  CaseResult run(const std::string& function, const std::function<void(Case&, ExecContext&)>& tweak = {}) {
    Case c;
    for (const Case& s : all_cases())
      if (s.id == "vector_add/fp32/100003") c = s;
    if (!c.make) throw std::runtime_error("vector_add/fp32/100003 is not in the suite");
    c.file = "variants.py";
    c.function = function;
    tritium::Device dev = tritium::Device::get("interp");
    ExecContext ctx;
    ctx.device = &dev;
    ctx.kernels_dir = dir_.string();
    ctx.plan.warmup = 0;
    ctx.plan.repeat = 1;
    if (tweak) tweak(c, ctx);
    return run_case(c, ctx);
  }

  static std::filesystem::path dir_;
};

std::filesystem::path BenchExec::dir_;

TEST_F(BenchExec, CorrectKernelPassesAndIsTimed) {
  const CaseResult r = run("add_ok");
  EXPECT_TRUE(r.passed) << r.error;
  EXPECT_TRUE(r.error.empty());
  EXPECT_TRUE(r.problems.empty());
  EXPECT_EQ(r.check.count, 100003u);
  EXPECT_LE(r.check.worst_ratio, 1.0);
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].name, "out");
  EXPECT_TRUE(r.timed);
  EXPECT_EQ(r.timing.samples.size(), 1u);
  EXPECT_GT(r.timing.median, 0.0);
}

// The cache ceiling (cache_ceiling.h): with a tiny "cache" the sub-grids are 8 and 2 programs
// per thread, launched on the same arrays and timed interleaved; their shares of the bytes
// are recorded.
TEST_F(BenchExec, CacheCeilingIsTimedOnASubGrid) {
  const CaseResult r = run("add_ok", [](Case& c, ExecContext& ctx) {
    c.even_programs = true;  // not quite (100003 is ragged), enough to exercise the path
    ctx.cache_ceiling = true;
    ctx.llc_bytes = 4096;
    ctx.threads = 1;
  });
  ASSERT_TRUE(r.passed) << r.error;
  ASSERT_TRUE(r.has_ceiling);
  EXPECT_EQ(r.ceiling_grid, (std::array<int64_t, 3>{8, 1, 1}));
  EXPECT_DOUBLE_EQ(r.ceiling_bytes, r.info.bytes * 8 / 98);
  EXPECT_EQ(r.ceiling_small_x, 2);
  EXPECT_DOUBLE_EQ(r.ceiling_small_bytes, r.info.bytes * 2 / 98);
  ASSERT_EQ(r.ceiling_timing.samples.size(), 1u);  // one interleaved round: large, small
  ASSERT_EQ(r.ceiling_small_timing.samples.size(), 1u);
  EXPECT_GT(r.ceiling_timing.median, 0.0);
  EXPECT_GT(r.ceiling_small_timing.median, 0.0);
  // Off by default (GPU backends, and the tests above).
  EXPECT_FALSE(run("add_ok").has_ceiling);
}

TEST_F(BenchExec, OutOfBoundsStoreHitsTheGuard) {
  const CaseResult r = run("add_unmasked_store");
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(r.check.passed());  // every in-bounds element is right...
  ASSERT_EQ(r.problems.size(), 1u);  // ...but the last block wrote past the end of out
  EXPECT_NE(r.problems[0].find("out-of-bounds write"), std::string::npos) << r.problems[0];
  EXPECT_NE(r.problems[0].find("'out'"), std::string::npos) << r.problems[0];
  EXPECT_FALSE(r.timed);
}

TEST_F(BenchExec, UnwrittenElementShowsAsNaN) {
  const CaseResult r = run("add_skips_last");
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.check.bad, 1u);
  EXPECT_EQ(r.check.non_finite, 1u);
  EXPECT_EQ(r.check.worst_index, 100002u);
  EXPECT_TRUE(std::isnan(r.check.worst_got));
}

TEST_F(BenchExec, WriteIntoAnInputIsReported) {
  const CaseResult r = run("add_writes_input");
  EXPECT_FALSE(r.passed);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_NE(r.problems[0].find("modified input array 'x'"), std::string::npos) << r.problems[0];
}

TEST_F(BenchExec, CompileErrorIsAFailureWithItsMessage) {
  const CaseResult r = run("add_bad_source");
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.error.find("no_such_function"), std::string::npos) << r.error;
  EXPECT_FALSE(r.timed);
}

}  // namespace

// Compared with its baseline (the C++ loop): checked first, then interleaved rounds, each
// arm with one sample a round, the arrays rotated through enough copies to span twice the
// given last-level cache (3 arrays of 100003 fp32 = 1.2 MB; 2 x 4 MiB needs 7 sets).
TEST_F(BenchExec, ComparedWithItsBaselineRoundByRound) {
  const CaseResult r = run("add_ok", [](Case&, ExecContext& ctx) {
    ctx.compare = true;
    ctx.llc_bytes = int64_t{4} << 20;
    ctx.plan.repeat = 4;
  });
  ASSERT_TRUE(r.passed) << r.error;
  ASSERT_TRUE(r.compared);
  const Comparison& c = r.comparison;
  EXPECT_TRUE(c.baseline_ok) << c.problem;
  EXPECT_EQ(c.baseline, "C++ loop");
  EXPECT_EQ(c.rounds, 4);
  EXPECT_EQ(c.buffer_sets, 7);
  EXPECT_EQ(c.set_bytes, 3 * 100003 * 4);
  EXPECT_TRUE(c.cache_cold());
  EXPECT_EQ(r.timing.samples.size(), 4u);
  EXPECT_EQ(c.baseline_timing.samples.size(), 4u);
  EXPECT_EQ(c.again.samples.size(), 4u);
  EXPECT_EQ(c.speedup.pairs, 4);
  // The ratio is the baseline's time over the kernel's, round by round: the median of the
  // four per-round ratios is the mean of the middle two.
  std::vector<double> ratios;
  for (size_t i = 0; i < 4; ++i) ratios.push_back(c.baseline_timing.samples[i] / r.timing.samples[i]);
  std::sort(ratios.begin(), ratios.end());
  EXPECT_NEAR(c.speedup.median, 0.5 * (ratios[1] + ratios[2]), 1e-12 * ratios[3]);
  EXPECT_LE(c.speedup.lo, c.speedup.median);
  EXPECT_GE(c.speedup.hi, c.speedup.median);
}

// A baseline that computes something else is caught by the case's reference and not timed;
// the kernel is still timed alone.
TEST_F(BenchExec, AWrongBaselineIsReportedNotTimed) {
  const CaseResult r = run("add_ok", [](Case& c, ExecContext& ctx) {
    ctx.compare = true;
    c.run_baseline = [](std::vector<HostArray>& a) {
      for (size_t i = 0; i + 4 <= a[2].bytes.size(); i += 4) std::memcpy(&a[2].bytes[i], &a[0].bytes[i], 4);  // out = x
    };
  });
  ASSERT_TRUE(r.passed) << r.error;
  ASSERT_TRUE(r.compared);
  EXPECT_FALSE(r.comparison.baseline_ok);
  EXPECT_NE(r.comparison.problem.find("the baseline's output 'out' is outside the case's tolerance"),
            std::string::npos)
      << r.comparison.problem;
  EXPECT_TRUE(r.timed);
  EXPECT_EQ(r.timing.samples.size(), 1u);
}

TEST(BenchRotation, SetsSpanTwiceTheCacheUpToTheCaps) {
  using tritium::bench::buffer_rotation;
  // 1 MB arrays against a 50 MB L2: 100 sets, 100 MB, cold.
  auto r = buffer_rotation(1000000, 50000000);
  EXPECT_EQ(r.sets, 100);
  EXPECT_TRUE(r.cache_cold);
  // Not a multiple: rounded up (2 x 10 / 3 -> 7 sets, 21 bytes >= 20).
  EXPECT_EQ(buffer_rotation(3, 10).sets, 7);
  // Arrays already twice the cache: one set suffices and is cold.
  r = buffer_rotation(int64_t{1} << 30, int64_t{256} << 20);
  EXPECT_EQ(r.sets, 1);
  EXPECT_TRUE(r.cache_cold);
  // 80 KB arrays against 480 MiB: 12583 sets wanted, 4096 allowed: not cold.
  r = buffer_rotation(80000, int64_t{480} << 20);
  EXPECT_EQ(r.sets, tritium::bench::kMaxBufferSets);
  EXPECT_FALSE(r.cache_cold);
  // 3 MB arrays against 4 GiB of cache: the byte cap (4 GiB / 3 MB = 1431 sets) binds first.
  r = buffer_rotation(3000000, int64_t{4} << 30);
  EXPECT_EQ(r.sets, static_cast<int>(tritium::bench::kMaxBufferSetBytes / 3000000));
  EXPECT_FALSE(r.cache_cold);
  // Unknown sizes: no rotation.
  EXPECT_EQ(buffer_rotation(0, 1 << 20).sets, 1);
  EXPECT_FALSE(buffer_rotation(1000, 0).cache_cold);
}
