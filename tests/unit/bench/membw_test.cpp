// Tests of the host copy roof (bench/membw.h): both ways of copying are measured and the
// roof is the faster; the report names both rates. Rates are not asserted against any
// speed (the bench measures, tests do not time), only their relation and presence.
#include "bench/membw.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace tritium::bench;

TEST(Membw, TheRoofIsTheFasterOfMemcpyAndTheStreamingCopy) {
  // 8 MiB + 100 bytes over 3 threads: slices that do not start on a line boundary.
  const CopyBandwidth bw = measure_copy_bandwidth((size_t{8} << 20) + 100, 3, 3);
  EXPECT_EQ(bw.buffer_bytes, (size_t{8} << 20) + 100);
  EXPECT_EQ(bw.threads, 3);
  EXPECT_GT(bw.memcpy_bytes_per_s, 0.0);
#if defined(__SSE2__)
  EXPECT_GT(bw.stream_bytes_per_s, 0.0);
  EXPECT_NE(bw.method.find("memcpy"), std::string::npos) << bw.method;
  EXPECT_NE(bw.method.find("non-temporal"), std::string::npos) << bw.method;
#else
  EXPECT_EQ(bw.stream_bytes_per_s, 0.0);
#endif
  EXPECT_EQ(bw.bytes_per_s, std::max(bw.memcpy_bytes_per_s, bw.stream_bytes_per_s));
}

}  // namespace
