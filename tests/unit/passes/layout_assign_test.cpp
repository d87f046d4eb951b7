// Layout assignment (src/passes/layout_assign.h) on small kernels: a vector add runs in one
// layout with no conversion but the rematerialized constant; a row reduction's result has
// the sliced layout; an access with unknown alignment gets scalar accesses; a transposed
// store converts; and across the built-in suite every tensor value gets a layout that covers
// it (a layout for each value, no exception).
#include <gtest/gtest.h>

#include "bench/suite.h"
#include "kernel_ir_util.h"
#include "passes/layout_assign.h"

#ifndef TRITIUM_TEST_DIR
#error "TRITIUM_TEST_DIR must name the tests directory"
#endif

namespace {

using tritium::ir::OpKind;
using tritium::layout::HwDim;
using tritium::passes::assign_layouts;
using tritium::passes::LayoutPlan;

std::unique_ptr<tritium::testing::KernelIr> build(const std::string& text, const std::string& kernel,
                                                  const std::string& sig) {
  return tritium::testing::kernel_ir_from_text(text, kernel, sig, "la.py");
}

const tritium::ir::Op* first(const tritium::ir::Function& fn, OpKind k) {
  for (const auto& op : fn.body.ops)
    if (op->kind == k) return op.get();
  return nullptr;
}

const char* kHeader = "import triton\nimport triton.language as tl\n\n@triton.jit\n";

TEST(LayoutAssign, VectorAddRunsInTheLoadsLayout) {
  auto b = build(std::string(kHeader) +
                     "def k(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr):\n"
                     "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                     "    m = offs < n\n"
                     "    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m) * 2.0, "
                     "mask=m)\n",
                 "k", "*fp32:16, *fp32:16, *fp32:16, i32, 1024");
  const auto& fn = b->fn();
  LayoutPlan plan = assign_layouts(fn, 4);
  const tritium::ir::Op* load = first(fn, OpKind::Load);
  const tritium::ir::Op* store = first(fn, OpKind::Store);
  ASSERT_TRUE(load && store);
  const auto& L = plan.layouts.at(load->results[0]);
  EXPECT_EQ(L.size(HwDim::Register), 8);  // 4-wide vectors, the 512-element tile twice
  EXPECT_EQ(L.basis(HwDim::Lane, 0), (tritium::layout::LinearLayout::Coord{4}));
  EXPECT_EQ(plan.layouts.at(store->operands[1]), L) << "the sum stays in the loads' layout";
  for (const auto& c : plan.conversions) EXPECT_TRUE(c.remat) << "only constants / ranges / splats are re-laid out";
}

TEST(LayoutAssign, UnknownAlignmentGivesScalarAccesses) {
  auto b = build(std::string(kHeader) + "def k(x_ptr, o_ptr):\n    offs = tl.arange(0, 256)\n"
                                        "    tl.store(o_ptr + offs, tl.load(x_ptr + offs))\n",
                 "k", "*fp32, *fp32");
  const auto& fn = b->fn();
  LayoutPlan plan = assign_layouts(fn, 4);
  const auto& L = plan.layouts.at(first(fn, OpKind::Load)->results[0]);
  EXPECT_EQ(L.basis(HwDim::Lane, 0), (tritium::layout::LinearLayout::Coord{1}));
}

TEST(LayoutAssign, ReductionResultIsTheSlicedLayout) {
  auto b = build(std::string(kHeader) +
                     "def k(x_ptr, o_ptr):\n"
                     "    r = tl.arange(0, 16)[:, None]\n"
                     "    c = tl.arange(0, 64)[None, :]\n"
                     "    x = tl.load(x_ptr + r * 64 + c)\n"
                     "    tl.store(o_ptr + tl.arange(0, 16), tl.sum(x, axis=1))\n",
                 "k", "*fp32:16, *fp32:16");
  const auto& fn = b->fn();
  LayoutPlan plan = assign_layouts(fn, 4);
  const tritium::ir::Op* red = first(fn, OpKind::Reduce);
  ASSERT_NE(red, nullptr);
  EXPECT_EQ(plan.layouts.at(red->results[0]), plan.layouts.at(red->operands[0]).sliced(1));
}

TEST(LayoutAssign, StoringATransposeNeedsAConversion) {
  auto b = build(std::string(kHeader) +
                     "def k(x_ptr, o_ptr):\n"
                     "    r = tl.arange(0, 32)[:, None]\n"
                     "    c = tl.arange(0, 32)[None, :]\n"
                     "    x = tl.load(x_ptr + r * 32 + c)\n"
                     "    tl.store(o_ptr + r * 32 + c, tl.trans(x))\n",
                 "k", "*fp32:16, *fp32:16");
  const auto& fn = b->fn();
  LayoutPlan plan = assign_layouts(fn, 4);
  const tritium::ir::Op* store = first(fn, OpKind::Store);
  bool value_converted = false;
  for (const auto& c : plan.conversions)
    if (c.op == store && c.operand == 1) value_converted = !c.remat;
  EXPECT_TRUE(value_converted);
}

TEST(LayoutAssign, EveryTensorOfTheSuiteGetsACoveringLayout) {
  size_t values = 0;
  for (const auto& c : tritium::bench::select_cases(tritium::bench::all_cases(), true, "")) {
    SCOPED_TRACE(c.file + " " + c.function);
    auto b = tritium::testing::kernel_ir(
        tritium::frontend::Source::from_file(std::string(TRITIUM_TEST_DIR) + "/../kernels/" + c.file), c.function,
        c.signature);
    LayoutPlan plan = assign_layouts(b->fn(), 4);
    for (const auto& [v, l] : plan.layouts) {
      EXPECT_EQ(l.shape(), v->type.shape);
      EXPECT_TRUE(l.is_surjective());
      ++values;
    }
  }
  EXPECT_GT(values, 200u);
}

}  // namespace
