// The compiler's -fstack-usage report read back (runtime/cpu/compiler.h): the stack figure
// the cpu and msl-emu backends check a kernel's programs against.
#include <gtest/gtest.h>

#include <string>

#include "runtime/cpu/compiler.h"

namespace {

using tritium::runtime::cpu::parse_stack_usage;
using tritium::runtime::cpu::stack_usage_from_line;
using tritium::runtime::cpu::stack_usage_line;
using tritium::runtime::cpu::StackUsage;

TEST(StackUsage, SumsEveryFrameAndNamesTheLargest) {
  // GCC 12's report for a two-function object (tab-separated; C++ signatures hold ':').
  const std::string report =
      "kernel.cpp:3:13:void tr_prog(const tritium_arg*, int32_t)\t6291368\tstatic\n"
      "kernel.cpp:9:17:void tr_emu::run_group(void*, int)\t48\tstatic\n"
      "kernel.cpp:12:1:int helper()\t16\tdynamic,bounded\n"
      "not a report line\n";
  const StackUsage s = parse_stack_usage(report);
  EXPECT_TRUE(s.measured);
  EXPECT_TRUE(s.bounded);
  EXPECT_EQ(s.bytes, 6291368 + 48 + 16);
  EXPECT_EQ(s.largest, "tr_prog");
  EXPECT_EQ(s.largest_bytes, 6291368);
  // It round-trips through the cache's line.
  const auto back = stack_usage_from_line(stack_usage_line(s));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->bytes, s.bytes);
  EXPECT_EQ(back->largest, s.largest);
  EXPECT_EQ(back->largest_bytes, s.largest_bytes);
  EXPECT_TRUE(back->measured && back->bounded);
}

TEST(StackUsage, AnUnboundedFrameOrNoReportIsNotAFigure) {
  const StackUsage d = parse_stack_usage("k.cpp:1:1:void f(int)\t32\tdynamic\n");
  EXPECT_TRUE(d.measured);
  EXPECT_FALSE(d.bounded);
  const StackUsage none = parse_stack_usage("");
  EXPECT_FALSE(none.measured);
  const auto back = stack_usage_from_line(stack_usage_line(none));
  ASSERT_TRUE(back);
  EXPECT_FALSE(back->measured);
  EXPECT_FALSE(stack_usage_from_line("garbage"));
}

}  // namespace
