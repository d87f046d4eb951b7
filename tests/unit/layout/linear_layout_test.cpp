// Linear layouts (src/layout/linear_layout.h) against tables worked out by hand from the
// definition of Triton's blocked layout: thread-local elements first, then lanes, then
// warps, along `order` (fastest first), the tile repeated in registers to cover the shape
// and broadcast where it is larger.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "layout/linear_layout.h"

namespace {

using tritium::layout::HwDim;
using tritium::layout::LinearLayout;

TEST(LinearLayout, Blocked1DWithElementsPerThread) {
  // 8 elements, 2 per thread, 4 lanes: lane l holds 2l and 2l + 1.
  LinearLayout L = LinearLayout::blocked({8}, {2}, {4}, {1}, {0});
  EXPECT_EQ(L.table(), "lane 0: 0 1\nlane 1: 2 3\nlane 2: 4 5\nlane 3: 6 7\n");
  EXPECT_TRUE(L.is_surjective());
  EXPECT_TRUE(L.is_injective());
}

TEST(LinearLayout, TileRepeatsInRegistersWhenTheShapeIsLarger) {
  // 16 elements, 1 per thread, 4 lanes, 2 warps: the 8-element tile repeats once, in the
  // one register bit: element = 8 r + 4 w + l.
  LinearLayout L = LinearLayout::blocked({16}, {1}, {4}, {2}, {0});
  ASSERT_EQ(L.size(HwDim::Register), 2);
  for (int r = 0; r < 2; ++r)
    for (int l = 0; l < 4; ++l)
      for (int w = 0; w < 2; ++w) EXPECT_EQ(L.linear_index(r, l, w), 8 * r + 4 * w + l) << r << l << w;
  EXPECT_TRUE(L.is_injective());
}

TEST(LinearLayout, LanesBeyondASmallTensorAreBroadcast) {
  // 4 elements over 8 lanes: lanes 4..7 hold the same elements as 0..3.
  LinearLayout L = LinearLayout::blocked({4}, {1}, {8}, {1}, {0});
  EXPECT_EQ(L.table(), "lane 0: 0\nlane 1: 1\nlane 2: 2\nlane 3: 3\nlane 4: 0\nlane 5: 1\nlane 6: 2\nlane 7: 3\n");
  EXPECT_EQ(L.basis(HwDim::Lane, 2), (LinearLayout::Coord{0}));
  EXPECT_TRUE(L.is_surjective());
  EXPECT_FALSE(L.is_injective());
  // The holder of an element with every broadcast bit zero.
  EXPECT_EQ(L.position_of({3}), (std::vector<int64_t>{0, 3, 0}));
}

TEST(LinearLayout, Blocked2DRowMajorOrder) {
  // shape [4, 8], 2 consecutive columns per thread, lanes 2 x 4 (4 along columns first:
  // order [1, 0]), warps 2 x 1: thread (lane l, warp w) holds row 2w + l/4, columns
  // 2 (l % 4) and 2 (l % 4) + 1.
  LinearLayout L = LinearLayout::blocked({4, 8}, {1, 2}, {2, 4}, {2, 1}, {1, 0});
  for (int w = 0; w < 2; ++w)
    for (int l = 0; l < 8; ++l)
      for (int r = 0; r < 2; ++r) {
        const auto c = L.apply(r, l, w);
        EXPECT_EQ(c[0], 2 * w + l / 4) << r << " " << l << " " << w;
        EXPECT_EQ(c[1], 2 * (l % 4) + r) << r << " " << l << " " << w;
      }
  EXPECT_TRUE(L.is_surjective());
  EXPECT_TRUE(L.is_injective());
  // Every element has exactly one holder, and position_of inverts apply.
  std::set<std::pair<int64_t, int64_t>> seen;
  for (int w = 0; w < 2; ++w)
    for (int l = 0; l < 8; ++l)
      for (int r = 0; r < 2; ++r) {
        const auto c = L.apply(r, l, w);
        EXPECT_TRUE(seen.insert({c[0], c[1]}).second);
        EXPECT_EQ(L.position_of(c), (std::vector<int64_t>{r, l, w}));
      }
  EXPECT_EQ(seen.size(), 32u);
}

TEST(LinearLayout, ColumnMajorOrderPutsLanesDownColumnsFirst) {
  // shape [4, 4], order [0, 1] (rows fastest): lane l holds (l % 4, l / 4).
  LinearLayout L = LinearLayout::blocked({4, 4}, {1, 1}, {4, 4}, {1, 1}, {0, 1});
  for (int l = 0; l < 16; ++l) EXPECT_EQ(L.apply(0, l, 0), (LinearLayout::Coord{l % 4, l / 4})) << l;
}

TEST(LinearLayout, CustomBasesXorTogether) {
  // A swizzle-like map: lane bit 0 → (1, 1), lane bit 1 → (0, 1): lane 3 = (1, 0).
  LinearLayout L({2, 2}, {{}, {{1, 1}, {0, 1}}, {}});
  EXPECT_EQ(L.apply(0, 3, 0), (LinearLayout::Coord{1, 0}));
  EXPECT_TRUE(L.is_injective());
  EXPECT_EQ(L.position_of({1, 0}), (std::vector<int64_t>{0, 3, 0}));
}

TEST(LinearLayout, SliceForAReductionAndTheBitsToCombine) {
  // The [4, 8] tile above reduced along columns (dim 1): the register (one column step)
  // is combined in-thread, lane bits 0 and 1 (column steps 2 and 4) by shuffles, no warp
  // bit; the result is rows, with lanes 0..3 broadcast (same row) and warps on rows 2, 3.
  LinearLayout L = LinearLayout::blocked({4, 8}, {1, 2}, {2, 4}, {2, 1}, {1, 0});
  EXPECT_EQ(L.bits_along(HwDim::Register, 1), std::vector<int>{0});
  EXPECT_EQ(L.bits_along(HwDim::Lane, 1), (std::vector<int>{0, 1}));
  EXPECT_TRUE(L.bits_along(HwDim::Warp, 1).empty());
  EXPECT_EQ(L.bits_along(HwDim::Lane, 0), std::vector<int>{2});
  LinearLayout S = L.sliced(1);
  EXPECT_EQ(S.shape(), std::vector<int64_t>{4});
  EXPECT_EQ(S.size(HwDim::Register), 1);
  for (int w = 0; w < 2; ++w)
    for (int l = 0; l < 8; ++l) EXPECT_EQ(S.apply(0, l, w), (LinearLayout::Coord{2 * w + l / 4})) << l << " " << w;
  EXPECT_TRUE(S.is_surjective());
  EXPECT_FALSE(S.is_injective());  // lanes 0..3 of a warp share a row
  // Reduced along rows (dim 0) instead: lane bit 2 and the warp bit combine.
  EXPECT_EQ(L.bits_along(HwDim::Warp, 0), std::vector<int>{0});
  LinearLayout R = L.sliced(0);
  EXPECT_EQ(R.size(HwDim::Register), 2);
  EXPECT_EQ(R.apply(1, 3, 1), (LinearLayout::Coord{7}));
  EXPECT_THROW(L.sliced(2), std::invalid_argument);
}

TEST(LinearLayout, InvalidInputsAreRefused) {
  EXPECT_THROW(LinearLayout::blocked({6}, {1}, {4}, {1}, {0}), std::invalid_argument);     // not a power of two
  EXPECT_THROW(LinearLayout::blocked({8, 8}, {1}, {4}, {1}, {0}), std::invalid_argument);  // rank mismatch
  EXPECT_THROW(LinearLayout::blocked({8, 8}, {1, 1}, {4, 8}, {1, 1}, {0, 0}), std::invalid_argument);  // order
  EXPECT_THROW(LinearLayout({4}, {{{4}}, {}, {}}), std::invalid_argument);  // coordinate outside the shape
  LinearLayout L({4}, {{}, {{1}}, {}});  // one lane bit: only elements 0 and 1 are held
  EXPECT_FALSE(L.is_surjective());
  EXPECT_THROW(L.position_of({3}), std::invalid_argument);
  EXPECT_THROW(L.apply(0, 2, 0), std::invalid_argument);  // lane out of range
}

}  // namespace
