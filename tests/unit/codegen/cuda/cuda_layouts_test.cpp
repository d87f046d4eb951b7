// The GF(2) layout algebra of the CUDA renderer (src/codegen/cuda/cuda_layouts.h), each
// function checked against its definition by enumerating every (register, lane, warp)
// position of the layouts involved, over blocked layouts of 1 to 8 warps, several orders and
// shapes with size-1 dims: is_simple on blocked and hand-built layouts; insert_dim /
// remove_dim, project, broadcast_fwd, reshape_layout, permute / unpermute, slice_layout,
// join_layout / drop_minor position by position; default_layout simple and surjective; and
// plan_layouts giving every tensor value of small kernels a layout of its own shape, the
// loads the layout of their pointers.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "codegen/cuda/cuda_layouts.h"
#include "../../passes/kernel_ir_util.h"

namespace {

namespace cl = tritium::codegen::cuda;
using tritium::layout::HwDim;
using tritium::layout::LinearLayout;
using Coord = LinearLayout::Coord;
using Shape = std::vector<int64_t>;

// Calls f(reg, lane, warp) at every position of `l` until it returns false; true if none did.
template <class F>
bool all_positions(const LinearLayout& l, F f) {
  for (int64_t w = 0; w < l.size(HwDim::Warp); ++w)
    for (int64_t ln = 0; ln < l.size(HwDim::Lane); ++ln)
      for (int64_t r = 0; r < l.size(HwDim::Register); ++r)
        if (!f(r, ln, w)) {
          ADD_FAILURE() << "at reg " << r << " lane " << ln << " warp " << w << " of " << cl::layout_key(l);
          return false;
        }
  return true;
}

int64_t numel(const Shape& s) { return std::accumulate(s.begin(), s.end(), int64_t{1}, std::multiplies<>()); }

int64_t row_major(const Shape& s, const Coord& c) {
  int64_t lin = 0;
  for (size_t d = 0; d < s.size(); ++d) lin = lin * s[d] + c[d];
  return lin;
}

// Every element of l.shape() is held by some position (counted, not through is_surjective).
bool covers(const LinearLayout& l) {
  std::vector<bool> held(static_cast<size_t>(numel(l.shape())), false);
  for (int64_t w = 0; w < l.size(HwDim::Warp); ++w)
    for (int64_t ln = 0; ln < l.size(HwDim::Lane); ++ln)
      for (int64_t r = 0; r < l.size(HwDim::Register); ++r) held[row_major(l.shape(), l.apply(r, ln, w))] = true;
  return std::all_of(held.begin(), held.end(), [](bool b) { return b; });
}

// `c` with the dims where operand_shape is 1 set to 0.
Coord zeroed(Coord c, const Shape& operand_shape) {
  for (size_t d = 0; d < c.size(); ++d) c[d] = operand_shape[d] == 1 ? 0 : c[d];
  return c;
}

int log2i(int64_t x) { return x <= 1 ? 0 : 1 + log2i(x / 2); }

// `s` with extent 1 at the dims set in `mask` (the operand shape of a broadcast to s).
Shape masked(Shape s, unsigned mask) {
  for (size_t d = 0; d < s.size(); ++d) s[d] = mask >> d & 1 ? 1 : s[d];
  return s;
}

std::vector<LinearLayout> samples() {
  return {
      LinearLayout::blocked({8}, {1}, {32}, {1}, {0}),                  // 1 warp, lanes beyond the shape
      LinearLayout::blocked({128}, {4}, {32}, {8}, {0}),                // 8 warps, most broadcast
      LinearLayout::blocked({64, 32}, {1, 4}, {4, 8}, {4, 1}, {1, 0}),  // 4 warps, row-major
      LinearLayout::blocked({16, 64}, {2, 1}, {8, 4}, {1, 2}, {0, 1}),  // 2 warps, column-major
      LinearLayout::blocked({1, 256}, {1, 2}, {1, 32}, {1, 4}, {1, 0}),
      LinearLayout::blocked({16, 1}, {1, 1}, {32, 1}, {2, 1}, {0, 1}),
      LinearLayout::blocked({4, 8, 16}, {1, 1, 4}, {2, 4, 4}, {2, 2, 1}, {2, 1, 0}),
      LinearLayout::blocked({32, 1, 8}, {2, 1, 2}, {4, 1, 8}, {1, 1, 8}, {0, 2, 1}),
      LinearLayout::blocked({2, 4}, {4, 1}, {2, 16}, {2, 2}, {1, 0}),  // a zero register bit too
  };
}

TEST(CudaLayouts, IsSimple) {
  for (const LinearLayout& l : samples()) EXPECT_TRUE(cl::is_simple(l)) << cl::layout_key(l);
  using B = std::vector<std::vector<Coord>>;
  EXPECT_TRUE(cl::is_simple(LinearLayout({4}, B{{{2}}, {{1}, {0}}, {}})));
  EXPECT_TRUE(cl::is_simple(LinearLayout({2, 2}, B{{{0, 1}}, {{1, 0}}, {}})));
  // A basis vector with two nonzero components.
  EXPECT_FALSE(cl::is_simple(LinearLayout({2, 2}, B{{{1, 1}, {0, 1}}, {}, {}})));
  // A non-power-of-two component (alone, it would produce coordinate bits 0 and 1 once each).
  EXPECT_FALSE(cl::is_simple(LinearLayout({4}, B{{{3}}, {}, {}})));
  EXPECT_FALSE(cl::is_simple(LinearLayout({4, 2}, B{{{0, 1}}, {{3, 0}}, {}})));
  // A coordinate bit produced twice (value 1 by a register and a lane bit; 2 by lane and warp).
  EXPECT_FALSE(cl::is_simple(LinearLayout({4}, B{{{1}, {2}}, {{1}}, {}})));
  EXPECT_FALSE(cl::is_simple(LinearLayout({4}, B{{{1}}, {{2}}, {{2}}})));
  // Coordinate value 2 produced by no bit.
  EXPECT_FALSE(cl::is_simple(LinearLayout({4}, B{{{1}}, {{0}}, {}})));
}

TEST(CudaLayouts, InsertAndRemoveDim) {
  for (const LinearLayout& l : samples())
    for (int a = 0; a <= static_cast<int>(l.shape().size()); ++a) {
      const LinearLayout e = cl::insert_dim(l, a);
      Shape s = l.shape();
      s.insert(s.begin() + a, 1);
      EXPECT_EQ(e.shape(), s);
      EXPECT_TRUE(cl::is_simple(e));
      EXPECT_TRUE(all_positions(l, [&](int64_t r, int64_t ln, int64_t w) {
        Coord c = l.apply(r, ln, w);
        c.insert(c.begin() + a, 0);
        return e.apply(r, ln, w) == c;
      }));
      EXPECT_EQ(cl::remove_dim(e, a), l);
    }
}

TEST(CudaLayouts, Project) {
  for (const LinearLayout& l : samples()) {
    const size_t rank = l.shape().size();
    for (unsigned mask = 1; mask < (1u << rank); ++mask) {  // dims set in mask are broadcast
      const Shape os = masked(l.shape(), mask);
      const LinearLayout p = cl::project(l, os);
      EXPECT_EQ(p.shape(), os);
      EXPECT_TRUE(cl::is_simple(p)) << cl::layout_key(p);
      EXPECT_TRUE(all_positions(l, [&](int64_t r, int64_t ln, int64_t w) {
        return p.apply(r, ln, w) == zeroed(l.apply(r, ln, w), os);
      }));
    }
  }
}

TEST(CudaLayouts, BroadcastForward) {
  for (const LinearLayout& full : samples()) {
    const Shape S = full.shape();
    const size_t rank = S.size();
    for (unsigned mask = 1; mask < (1u << rank); ++mask) {
      const Shape os = masked(S, mask);
      // Operands: the projection of a layout of the result shape, and a blocked layout.
      for (const LinearLayout& op : {cl::project(full, os), cl::default_layout(os, 4)}) {
        const LinearLayout b = cl::broadcast_fwd(op, S);
        SCOPED_TRACE(cl::layout_key(op) + " -> " + cl::layout_key(b));
        EXPECT_EQ(b.shape(), S);
        EXPECT_TRUE(covers(b));
        EXPECT_TRUE(cl::is_simple(b));
        ASSERT_EQ(b.bits(HwDim::Lane), op.bits(HwDim::Lane));
        ASSERT_EQ(b.bits(HwDim::Warp), op.bits(HwDim::Warp));
        // The new dims' bits go to op's broadcast lane / warp bits first, then to new registers.
        int need = 0, spare = 0;
        for (size_t d = 0; d < rank; ++d) need += log2i(S[d]) - log2i(os[d]);
        for (int k = 0; k < op.bits(HwDim::Lane); ++k) spare += op.apply(0, int64_t{1} << k, 0) == Coord(rank, 0);
        for (int k = 0; k < op.bits(HwDim::Warp); ++k) spare += op.apply(0, 0, int64_t{1} << k) == Coord(rank, 0);
        ASSERT_EQ(b.bits(HwDim::Register), op.bits(HwDim::Register) + std::max(0, need - spare));
        EXPECT_TRUE(all_positions(b, [&](int64_t r, int64_t ln, int64_t w) {
          return zeroed(b.apply(r, ln, w), os) == op.apply(r & (op.size(HwDim::Register) - 1), ln, w);
        }));
      }
    }
  }
}

TEST(CudaLayouts, ReshapeKeepsLinearIndex) {
  for (const LinearLayout& l : samples()) {
    const int64_t n = numel(l.shape());
    Shape rev(l.shape().rbegin(), l.shape().rend());
    std::vector<Shape> targets = {{n}, {1, n, 1}, {n / 2, 2}, {2, n / 2}, rev};
    if (n >= 16) targets.push_back({4, n / 16, 4});
    for (const Shape& s : targets) {
      const LinearLayout t = cl::reshape_layout(l, s);
      EXPECT_EQ(t.shape(), s);
      EXPECT_EQ(numel(t.shape()), n);
      EXPECT_TRUE(cl::is_simple(t)) << cl::layout_key(t);
      EXPECT_TRUE(all_positions(l, [&](int64_t r, int64_t ln, int64_t w) {
        return row_major(s, t.apply(r, ln, w)) == row_major(l.shape(), l.apply(r, ln, w));
      }));
    }
  }
}

TEST(CudaLayouts, PermuteAndUnpermute) {
  for (const LinearLayout& l : samples()) {
    std::vector<int64_t> perm(l.shape().size());
    std::iota(perm.begin(), perm.end(), 0);
    do {
      const LinearLayout p = cl::permute(l, perm);
      for (size_t i = 0; i < perm.size(); ++i) EXPECT_EQ(p.shape()[i], l.shape()[perm[i]]);
      EXPECT_TRUE(all_positions(l, [&](int64_t r, int64_t ln, int64_t w) {
        const Coord a = l.apply(r, ln, w), b = p.apply(r, ln, w);
        for (size_t i = 0; i < perm.size(); ++i)
          if (b[i] != a[perm[i]]) return false;
        return true;
      }));
      EXPECT_EQ(cl::unpermute(p, perm), l);
      EXPECT_EQ(cl::permute(cl::unpermute(l, perm), perm), l);
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

TEST(CudaLayouts, SliceLayout) {
  for (const LinearLayout& l : samples())
    for (int axis = 0; axis < static_cast<int>(l.shape().size()); ++axis) {
      std::vector<int> dropped;
      const LinearLayout s = cl::slice_layout(l, axis, &dropped);
      SCOPED_TRACE(cl::layout_key(l) + " axis " + std::to_string(axis));
      std::vector<int> along, kept;  // register bits whose single-bit position moves along axis
      for (int k = 0; k < l.bits(HwDim::Register); ++k)
        (l.apply(int64_t{1} << k, 0, 0)[axis] != 0 ? along : kept).push_back(k);
      EXPECT_EQ(dropped, along);
      Shape sh = l.shape();
      sh.erase(sh.begin() + axis);
      EXPECT_EQ(s.shape(), sh);
      EXPECT_TRUE(cl::is_simple(s));
      ASSERT_EQ(s.bits(HwDim::Register), static_cast<int>(kept.size()));
      ASSERT_EQ(s.bits(HwDim::Lane), l.bits(HwDim::Lane));
      ASSERT_EQ(s.bits(HwDim::Warp), l.bits(HwDim::Warp));
      EXPECT_TRUE(all_positions(s, [&](int64_t rs, int64_t ln, int64_t w) {
        int64_t r = 0;
        for (size_t i = 0; i < kept.size(); ++i) r |= ((rs >> i) & 1) << kept[i];
        Coord c = l.apply(r, ln, w);
        c.erase(c.begin() + axis);
        return s.apply(rs, ln, w) == c;
      }));
    }
}

TEST(CudaLayouts, JoinAndDropMinor) {
  for (const LinearLayout& l : samples()) {
    const LinearLayout j = cl::join_layout(l);
    Shape sh = l.shape();
    sh.push_back(2);
    EXPECT_EQ(j.shape(), sh);
    EXPECT_TRUE(cl::is_simple(j));
    ASSERT_EQ(j.bits(HwDim::Register), l.bits(HwDim::Register) + 1);
    ASSERT_EQ(j.bits(HwDim::Lane), l.bits(HwDim::Lane));
    ASSERT_EQ(j.bits(HwDim::Warp), l.bits(HwDim::Warp));
    const int64_t nreg = l.size(HwDim::Register);
    EXPECT_TRUE(all_positions(j, [&](int64_t r, int64_t ln, int64_t w) {
      Coord c = l.apply(r % nreg, ln, w);
      c.push_back(r / nreg);  // the new top register bit holds the minor coordinate
      return j.apply(r, ln, w) == c;
    }));
    const LinearLayout d = cl::drop_minor(j);
    EXPECT_EQ(d.shape(), l.shape());
    EXPECT_TRUE(all_positions(l, [&](int64_t r, int64_t ln, int64_t w) {
      return d.apply(r, ln, w) == l.apply(r, ln, w);  // registers below l.size(Register)
    }));
  }
}

TEST(CudaLayouts, DefaultLayoutIsSimpleAndSurjective) {
  const std::vector<Shape> shapes = {{1}, {8}, {128}, {64, 32}, {1, 256}, {16, 1}, {4, 8, 16}};
  for (const Shape& s : shapes)
    for (int nw : {1, 4, 8}) {
      const LinearLayout l = cl::default_layout(s, nw);
      SCOPED_TRACE(cl::layout_key(l) + " warps " + std::to_string(nw));
      EXPECT_EQ(l.shape(), s);
      EXPECT_EQ(l.bits(HwDim::Lane), 5);
      EXPECT_EQ(l.bits(HwDim::Warp), log2i(nw));
      EXPECT_TRUE(cl::is_simple(l));
      EXPECT_TRUE(covers(l));
    }
}

// Every tensor value (op results, and block arguments of regions) has a layout of its shape.
void check_plan(const cl::LayoutPlan& plan, const tritium::ir::Block& b, int* loads) {
  auto check = [&](const tritium::ir::Value* v) {
    if (!v->type.is_tensor()) return;
    ASSERT_NO_THROW(plan.of(v)) << "%" << v->id;
    EXPECT_EQ(plan.of(v).shape(), v->type.shape) << "%" << v->id;
    EXPECT_TRUE(cl::is_simple(plan.of(v))) << "%" << v->id << " " << cl::layout_key(plan.of(v));
  };
  for (const auto& op : b.ops) {
    for (const auto* r : op->results) check(r);
    if (op->kind == tritium::ir::OpKind::Load && op->operands[0]->type.is_tensor()) {
      ++*loads;
      EXPECT_EQ(plan.of(op->results[0]), plan.of(op->operands[0])) << "load %" << op->results[0]->id;
    }
    for (const auto& reg : op->regions) {
      for (const auto* a : reg->block.args) check(a);
      check_plan(plan, reg->block, loads);
    }
  }
}

TEST(CudaLayouts, PlanGivesEveryTensorALayoutOfItsShape) {
  const std::string reduce_text = R"(import triton
import triton.language as tl
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    rows = tl.arange(0, BLOCK)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    v = tl.load(x + rows * BLOCK + cols)
    s = tl.sum(v, axis=1)
    tl.store(y + tl.arange(0, BLOCK), s)
)";
  const std::string loop_text = R"(import triton
import triton.language as tl
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for i in range(0, n):
        a = tl.load(x + i * BLOCK + offs)
        acc += a[:, None] * a[None, :]
    t = tl.trans(acc)
    tl.store(y + tl.arange(0, BLOCK * BLOCK), tl.reshape(t, (BLOCK * BLOCK,)))
)";
  for (const std::string& text : {reduce_text, loop_text})
    for (int nw : {1, 4}) {
      auto k = tritium::testing::kernel_ir_from_text(text, "k", "*fp32:16, *fp32:16, i32, 32");
      const cl::LayoutPlan plan = cl::plan_layouts(k->fn(), nw);
      int loads = 0;
      check_plan(plan, k->fn().body, &loads);
      EXPECT_EQ(loads, 1);
    }
}

}  // namespace
