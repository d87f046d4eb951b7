// The streaming-store policy of the CPU runtime (runtime/cpu/stream_policy.h).
#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>

#include "runtime/cpu/stream_policy.h"

namespace tritium::runtime::cpu {
namespace {

TEST(CpuStreamPolicy, Settings) {
  EXPECT_EQ(stream_min_bytes_for("never", 1 << 20, 4), -1);
  EXPECT_EQ(stream_min_bytes_for("0", 1 << 20, 4), -1);
  EXPECT_EQ(stream_min_bytes_for("always", 1 << 20, 4), 0);
  EXPECT_EQ(stream_min_bytes_for("1", 1 << 20, 4), 0);
  EXPECT_EQ(stream_min_bytes_for("123456", 1 << 20, 4), 123456);
}

TEST(CpuStreamPolicy, AutoIsTwiceTheTotalL2) {
  EXPECT_EQ(stream_min_bytes_for("", 2 << 20, 2), int64_t{8} << 20);
  EXPECT_EQ(stream_min_bytes_for("auto", 1 << 20, 16), int64_t{32} << 20);
  EXPECT_EQ(stream_min_bytes_for("auto", 0, 16), int64_t{8} << 20);  // size unknown
  EXPECT_EQ(stream_min_bytes_for("auto", 1 << 20, 0), int64_t{8} << 20);
}

TEST(CpuStreamPolicy, RejectsOtherValues) {
  for (const char* v : {"yes", "-5", "12k", " 1", "1.5"})
    EXPECT_THROW(stream_min_bytes_for(v, 1 << 20, 4), std::runtime_error) << v;
}

TEST(CpuStreamPolicy, ReadsTheEnvironmentEachCall) {
  setenv("TRITIUM_CPU_STREAM_STORES", "never", 1);
  EXPECT_EQ(stream_min_bytes(), -1);
  setenv("TRITIUM_CPU_STREAM_STORES", "4096", 1);
  EXPECT_EQ(stream_min_bytes(), 4096);
  unsetenv("TRITIUM_CPU_STREAM_STORES");
  EXPECT_GT(stream_min_bytes(), 0);
}

}  // namespace
}  // namespace tritium::runtime::cpu
