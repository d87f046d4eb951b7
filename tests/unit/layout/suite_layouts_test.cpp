// The layout groundwork on real kernels: for every case of the built-in suite (kernels/*.py,
// the signatures `tritium bench` uses), axis analysis and the coalesced layout choice run
// on every load and store of the compiled IR without error, every chosen layout covers its
// tensor (each element has a holder), and the ":16"-aligned contiguous accesses of the
// suite get vectors wider than one element.
#include <gtest/gtest.h>

#include <cstdio>

#include "../passes/kernel_ir_util.h"
#include "bench/suite.h"
#include "ir/dtype.h"
#include "layout/choose.h"
#include "passes/axis_info.h"

#ifndef TRITIUM_TEST_DIR
#error "TRITIUM_TEST_DIR must name the tests directory"
#endif

namespace {

TEST(SuiteLayouts, EveryAccessGetsACoveringCoalescedLayout) {
  int accesses = 0, vectorized = 0;
  for (const auto& c : tritium::bench::select_cases(tritium::bench::all_cases(), true, "")) {
    SCOPED_TRACE(c.file + " " + c.function + " " + c.signature);
    auto k = tritium::testing::kernel_ir(
        tritium::frontend::Source::from_file(std::string(TRITIUM_TEST_DIR) + "/../kernels/" + c.file), c.function,
        c.signature);
    const tritium::ir::Function& fn = k->fn();
    tritium::passes::AxisAnalysis axis(fn);
    std::function<void(const tritium::ir::Block&)> walk = [&](const tritium::ir::Block& b) {
      for (const auto& op : b.ops) {
        for (const auto& r : op->regions) walk(r->block);
        if (op->kind != tritium::ir::OpKind::Load && op->kind != tritium::ir::OpKind::Store) continue;
        const tritium::ir::Value* ptr = op->operands[0];
        if (!ptr->type.is_tensor()) continue;
        const auto facts = axis.get(ptr);
        const auto p = tritium::layout::coalesced(ptr->type.shape, facts, tritium::ir::byte_size(ptr->type.scalar), 4);
        const auto L = p.layout(ptr->type.shape);
        EXPECT_TRUE(L.is_surjective());
        ++accesses;
        int64_t vec = 1;
        for (int64_t v : p.size_per_thread) vec *= v;
        if (vec > 1) ++vectorized;
      }
    };
    walk(fn.body);
  }
  std::printf("suite layouts: %d accesses, %d vectorized\n", accesses, vectorized);
  EXPECT_GT(accesses, 30);
  EXPECT_GT(vectorized, 0) << "the ':16' contiguous accesses should be vectorized";
}

}  // namespace
