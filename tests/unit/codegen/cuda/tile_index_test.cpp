// The split of a shared-memory tile index into a per-thread part and a per-register
// constant (Emitter::tile_index_split, src/codegen/cuda/cuda_emit_dot.cpp), which the
// software pipeline's cp.async copies use: for every (register, lane, warp) position of
// the operand layouts a pipelined dot loads with — row-major and column-major blocked
// layouts of 4 and 8 warps, 16-byte vectors along either dimension, tiles of 32 to 256
// columns (32-, 64- and 128-byte swizzles, 64-column blocks) — the index of the element's
// coordinate must equal index(lane / warp part) combined with the register's constant by
// the operation the split names (+ only where the constant's bits cannot meet the lane /
// warp part's). A tile whose extents are not powers of two is not split.
#include <gtest/gtest.h>

#include "codegen/cuda/cuda_emitter.h"

namespace {

using tritium::codegen::cuda::Emitter;
using tritium::layout::HwDim;
using tritium::layout::LinearLayout;

struct Case {
  LinearLayout l;
  int cdim;  // the dimension of the tile's columns
};

uint32_t index_at(const LinearLayout::Coord& c, int cdim, int64_t R, int64_t C) {
  const size_t cd = static_cast<size_t>(cdim), rd = 1 - cd;
  return Emitter::tile_index_value(static_cast<uint32_t>(c[rd] * C + c[cd]), R, C);
}

TEST(CudaTileIndex, SplitEqualsTheIndexAtEveryPosition) {
  const std::vector<Case> cases = {
      // A [128, 64] fp16, 8 warps, 8-element vectors along K (matmul's a tile).
      {LinearLayout::blocked({128, 64}, {1, 8}, {4, 8}, {8, 1}, {1, 0}), 1},
      // B [64, 256] fp16, 8 warps, vectors along N: 64-column blocks, 128-byte swizzle.
      {LinearLayout::blocked({64, 256}, {1, 8}, {1, 32}, {8, 1}, {1, 0}), 1},
      // K-major B^T [256, 64] read with columns along dim 0 (attention's k^T).
      {LinearLayout::blocked({64, 256}, {8, 1}, {8, 4}, {1, 8}, {0, 1}), 0},
      // 4 warps, [64, 32] (64-byte swizzle) and [32, 16] (32-byte swizzle).
      {LinearLayout::blocked({64, 32}, {1, 8}, {8, 4}, {4, 1}, {1, 0}), 1},
      {LinearLayout::blocked({32, 16}, {1, 8}, {16, 2}, {2, 2}, {1, 0}), 1},
      // 4-element vectors and a tile narrower than the lanes (broadcast lanes).
      {LinearLayout::blocked({16, 128}, {2, 4}, {2, 16}, {2, 2}, {1, 0}), 1},
  };
  for (const Case& c : cases) {
    const LinearLayout& l = c.l;
    const int64_t R = l.shape()[static_cast<size_t>(1 - c.cdim)], C = l.shape()[static_cast<size_t>(c.cdim)];
    int adds = 0, xors = 0;
    for (int64_t r = 0; r < l.size(HwDim::Register); ++r) {
      uint32_t K = 0;
      const int op = Emitter::tile_index_split(l, c.cdim, R, C, r, &K);
      ASSERT_NE(op, 0);
      (op == 1 ? adds : xors)++;
      for (int64_t w = 0; w < l.size(HwDim::Warp); ++w)
        for (int64_t ln = 0; ln < l.size(HwDim::Lane); ++ln) {
          const uint32_t full = index_at(l.apply(r, ln, w), c.cdim, R, C);
          const uint32_t hw = index_at(l.apply(0, ln, w), c.cdim, R, C);
          const uint32_t got = op == 1 ? hw + K : hw ^ K;
          ASSERT_EQ(got, full) << "shape " << R << "x" << C << " reg " << r << " lane " << ln << " warp " << w;
        }
    }
    EXPECT_GT(adds, 0) << "the vectors' constants should be plain offsets in " << R << "x" << C;
    (void)xors;
  }
}

TEST(CudaTileIndex, IndexIsABijectionOfTheTile) {
  // Every element of the tile gets its own index in [0, R*C): the layouts are permutations.
  for (auto [R, C] : std::vector<std::pair<int64_t, int64_t>>{{128, 64}, {64, 256}, {64, 32}, {32, 16}, {16, 128}}) {
    std::vector<int> seen(static_cast<size_t>(R * C), 0);
    for (uint32_t i = 0; i < R * C; ++i) {
      const uint32_t t = Emitter::tile_index_value(i, R, C);
      ASSERT_LT(t, R * C);
      ++seen[t];
    }
    for (int s : seen) ASSERT_EQ(s, 1) << R << "x" << C;
  }
}

TEST(CudaTileIndex, NonPowerOfTwoTilesAreNotSplit) {
  const LinearLayout l = LinearLayout::blocked({64, 32}, {1, 8}, {8, 4}, {4, 1}, {1, 0});
  uint32_t K = 7;
  EXPECT_EQ(Emitter::tile_index_split(l, 1, 48, 32, 1, &K), 0);
  EXPECT_EQ(Emitter::tile_index_split(l, 1, 64, 24, 1, &K), 0);
}

}  // namespace
