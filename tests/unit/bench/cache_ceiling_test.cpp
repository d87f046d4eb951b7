// Tests of the cache-resident ceiling (bench/cache_ceiling.h, its timing in bench/exec.cpp
// and its report): the sub-grid's size and bytes, the cases that get none, the launch on a
// device, and the table column / JSON fields. No speed is asserted: report inputs are made
// up, and the one real launch (the interpreter) only has to produce a positive time.
#include "bench/cache_ceiling.h"

#include <gtest/gtest.h>

#include "bench/report.h"

namespace {

using namespace tritium::bench;

Case rows_case(int64_t rows, double bytes) {
  Case c;
  c.id = "k/fp32/rows";
  c.kernel = "k";
  c.grid = {rows, 1, 1};
  c.memory_bound = true;
  c.even_programs = true;
  c.bytes = bytes;
  return c;
}

TEST(BenchCacheCeiling, SubGridMovesAQuarterOfTheCache) {
  // 8192 rows of 32 KiB each (in + out); a 32 MiB cache: 8 MiB = 256 rows.
  const Case c = rows_case(8192, 8192.0 * 32768);
  EXPECT_EQ(ceiling_target_bytes(int64_t{32} << 20), int64_t{8} << 20);
  const CeilingGrid g = ceiling_grid(c, int64_t{32} << 20, 2);
  ASSERT_TRUE(g.ok);
  EXPECT_EQ(g.grid, (std::array<int64_t, 3>{256, 1, 1}));
  EXPECT_DOUBLE_EQ(g.bytes, 256.0 * 32768);
  EXPECT_EQ(g.small_x, 64);  // a quarter
  EXPECT_DOUBLE_EQ(g.small_bytes, 64.0 * 32768);
  // Unknown cache size: 8 MiB.
  EXPECT_EQ(ceiling_target_bytes(0), int64_t{8} << 20);
  EXPECT_EQ(ceiling_grid(c, 0, 2).grid[0], 256);
}

TEST(BenchCacheCeiling, AtLeastEightProgramsPerThreadAndOtherAxesKept) {
  // Rows of 4 MiB: the cache target would allow 2; 16 threads need 128 programs.
  Case c = rows_case(4096, 4096.0 * (4 << 20));
  CeilingGrid g = ceiling_grid(c, int64_t{32} << 20, 16);
  ASSERT_TRUE(g.ok);
  EXPECT_EQ(g.grid[0], 128);
  EXPECT_EQ(g.small_x, 32);
  // A 2-D grid keeps its y extent; x provides ceil(8 * threads / y) slices.
  c = rows_case(4096, 4096.0 * 4 * (1 << 20));
  c.grid = {4096, 4, 1};
  g = ceiling_grid(c, int64_t{32} << 20, 16);
  ASSERT_TRUE(g.ok);
  EXPECT_EQ(g.grid, (std::array<int64_t, 3>{32, 4, 1}));
  EXPECT_DOUBLE_EQ(g.bytes, 32.0 * (4 << 20));
  EXPECT_EQ(g.small_x, 8);  // 2 programs per thread: 32 / 4 slices of 4
  // Where a quarter would leave fewer than 2 programs per thread, 2 per thread.
  c = rows_case(4096, 4096.0 * 32768);
  g = ceiling_grid(c, int64_t{1} << 20, 64);  // target 8 rows, floor 512, quarter 128
  ASSERT_TRUE(g.ok);
  EXPECT_EQ(g.grid[0], 512);
  EXPECT_EQ(g.small_x, 128);
}

TEST(BenchCacheCeiling, NoCeilingWhereItWouldNotMeanAnything) {
  Case c = rows_case(8192, 8192.0 * 32768);
  c.memory_bound = false;  // matmul, attention: their roof is the compute peak
  EXPECT_FALSE(ceiling_grid(c, int64_t{32} << 20, 2).ok);
  c = rows_case(8192, 8192.0 * 32768);
  c.even_programs = false;  // a ragged last block: a sub-grid's share of the bytes is unknown
  EXPECT_FALSE(ceiling_grid(c, int64_t{32} << 20, 2).ok);
  c = rows_case(64, 64.0 * 32768);  // the whole grid is about cache-sized already
  EXPECT_FALSE(ceiling_grid(c, int64_t{32} << 20, 2).ok);
  c = rows_case(1024, 1024.0 * 32768);  // 256 of 1024 rows: exactly a quarter is still allowed
  EXPECT_TRUE(ceiling_grid(c, int64_t{32} << 20, 2).ok);
  c = rows_case(1023, 1023.0 * 32768);
  EXPECT_FALSE(ceiling_grid(c, int64_t{32} << 20, 2).ok);
}

TEST(BenchCacheCeiling, ReportedAsPercentOfCopyWithItsBound) {
  RunInfo info;
  info.copy.bytes_per_s = 40e9;
  CaseResult r;
  r.info = rows_case(8192, 8e9);
  r.info.shape = "8192x1024";
  r.info.dtype = "fp32";
  r.backend = "cpu";
  r.passed = true;
  r.timed = true;
  r.timing.samples = {0.5};
  r.timing.median = 0.5;  // 16 GB/s: 40% of copy
  r.has_ceiling = true;
  r.ceiling_grid = {256, 1, 1};
  r.ceiling_bytes = 2.5e8;
  r.ceiling_timing.samples = {0.0135};
  r.ceiling_timing.median = 0.0135;
  r.ceiling_small_x = 64;
  r.ceiling_small_bytes = 0.625e8;
  r.ceiling_small_timing.samples = {0.0041};
  r.ceiling_small_timing.median = 0.0041;  // 1.875e8 more bytes in 9.4 ms more: 20 GB/s, 50% of copy
  EXPECT_NEAR(ceiling_bytes_per_s(r), 1.875e8 / 0.0094, 1.0);
  const std::string table = format_table({r}, info);
  EXPECT_NE(table.find("%cache"), std::string::npos) << table;
  EXPECT_NE(table.find(" 40% "), std::string::npos) << table;
  EXPECT_NE(table.find("49.9%"), std::string::npos) << table;
  const nlohmann::json j = to_json({r}, info);
  const nlohmann::json& cc = j["cases"][0]["cache_ceiling"];
  EXPECT_NEAR(cc["bytes_per_s"].get<double>(), 1.875e8 / 0.0094, 1.0);
  EXPECT_NEAR(cc["percent_of_copy_bandwidth"].get<double>(), 100.0 * (1.875e8 / 0.0094) / 40e9, 1e-9);
  EXPECT_NEAR(cc["percent_of_ceiling"].get<double>(), 100.0 * 16e9 / (1.875e8 / 0.0094), 1e-9);
  EXPECT_EQ(cc["small_grid_x"], 64);
  EXPECT_EQ(cc["bound"], "compute");
  EXPECT_EQ(cc["grid"][0], 256);
  r.ceiling_timing.median = 0.0041 + 1.875e8 / 50e9;  // 50 GB/s: memory is the limit
  EXPECT_EQ(to_json({r}, info)["cases"][0]["cache_ceiling"]["bound"], "memory");
  r.ceiling_timing.median = 0.004;  // the larger grid was not slower (noise): no rate, no bound
  EXPECT_EQ(ceiling_bytes_per_s(r), 0.0);
  EXPECT_FALSE(to_json({r}, info)["cases"][0]["cache_ceiling"].contains("bound"));
  EXPECT_NE(format_table({r}, info).find("%cache"), std::string::npos);  // the column, with "-"
  r.has_ceiling = false;  // none measured: no column, no field
  EXPECT_EQ(format_table({r}, info).find("%cache"), std::string::npos);
  EXPECT_FALSE(to_json({r}, info)["cases"][0].contains("cache_ceiling"));
}

}  // namespace
