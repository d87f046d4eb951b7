// Coalesced blocked layouts from axis facts (src/layout/choose.h): the layouts Triton's
// coalescing picks for the suite's access patterns (1-D fp32 / fp16 blocks, a row-major
// fp16 tile), and the fallbacks when alignment or size limit the vector.
#include <gtest/gtest.h>

#include "layout/choose.h"

namespace {

using tritium::layout::BlockedParams;
using tritium::layout::coalesced;
using tritium::passes::AxisInfo;

AxisInfo facts(std::vector<int64_t> contig, std::vector<int64_t> div) {
  return AxisInfo{contig, div, std::vector<int64_t>(contig.size(), 1)};
}

TEST(CoalescedLayout, OneDimensionalBlocksGetSixteenByteVectors) {
  // tl.load(x_ptr + pid * 1024 + arange(0, 1024)), x_ptr:16, 4 warps.
  BlockedParams f32 = coalesced({1024}, facts({1024}, {16}), 4, 4);
  EXPECT_EQ(f32, (BlockedParams{{4}, {32}, {4}, {0}}));
  BlockedParams f16 = coalesced({1024}, facts({1024}, {16}), 2, 4);
  EXPECT_EQ(f16.size_per_thread, std::vector<int64_t>{8});
  // Every element is held exactly once (the 512-element tile repeats in registers).
  auto L = f32.layout({1024});
  EXPECT_TRUE(L.is_surjective());
  EXPECT_TRUE(L.is_injective());
  EXPECT_EQ(L.size(tritium::layout::HwDim::Register), 8);
}

TEST(CoalescedLayout, AlignmentAndShareLimitTheVector) {
  // Only 4-byte alignment known: scalar fp32 accesses.
  EXPECT_EQ(coalesced({1024}, facts({1024}, {4}), 4, 4).size_per_thread, std::vector<int64_t>{1});
  // 8-byte alignment: 2 fp32 per access.
  EXPECT_EQ(coalesced({1024}, facts({1024}, {8}), 4, 4).size_per_thread, std::vector<int64_t>{2});
  // 64 elements over 128 threads: one each, the rest broadcast.
  BlockedParams small = coalesced({64}, facts({64}, {16}), 4, 4);
  EXPECT_EQ(small, (BlockedParams{{1}, {32}, {4}, {0}}));
  EXPECT_TRUE(small.layout({64}).is_surjective());
  EXPECT_FALSE(small.layout({64}).is_injective());
}

TEST(CoalescedLayout, RowMajorTileVariesAlongColumns) {
  // A [64, 64] fp16 tile, contiguous along columns, 16-byte aligned rows, 4 warps: Triton's
  // #blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>.
  BlockedParams p = coalesced({64, 64}, facts({1, 64}, {2, 16}), 2, 4);
  EXPECT_EQ(p, (BlockedParams{{1, 8}, {4, 8}, {4, 1}, {1, 0}}));
  EXPECT_TRUE(p.layout({64, 64}).is_injective());
  // Column-major access (contiguous along rows): order flips.
  BlockedParams c = coalesced({64, 64}, facts({64, 1}, {16, 2}), 2, 4);
  EXPECT_EQ(c.order, (std::vector<int>{0, 1}));
  EXPECT_EQ(c.size_per_thread, (std::vector<int64_t>{8, 1}));
}

}  // namespace
