// passes::known_positive: which loop steps the compiler proves >= 1, so the renderers leave
// out the run-time "step must be positive" check (and, on cuda, the failure word that makes
// a launch wait for its stream). Sound only: anything that may be <= 0 in some launch (a
// run-time argument, program_id, arithmetic that may wrap, a narrowing cast) must stay
// checked, and the kernels whose steps stay checked must still render the check.
#include <gtest/gtest.h>

#include <string>

#include "codegen/cpu/cpu_codegen.h"
#include "codegen/cuda/cuda_codegen.h"
#include "kernel_ir_util.h"
#include "passes/known_positive.h"

namespace {

std::string kernel_with_step(const std::string& step) {
  return "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(p, n, s, s64):\n"
         "    acc = tl.zeros((), tl.int64)\n    for i in tl.range(tl.program_id(0), n, " +
         step + "):\n        acc += i\n    tl.store(p + tl.program_id(0), acc)\n";
}

const tritium::ir::Op* find_for(const tritium::ir::Block& b) {
  for (const auto& op : b.ops) {
    if (op->kind == tritium::ir::OpKind::For) return op.get();
    for (const auto& r : op->regions)
      if (const tritium::ir::Op* f = find_for(r->block)) return f;
  }
  return nullptr;
}

struct Rendered {
  bool proven = false;
  size_t cuda_fail_sites = 0;
  bool cpu_checks = false;
};

Rendered render(const std::string& step) {
  auto k = tritium::testing::kernel_ir_from_text(kernel_with_step(step), "k", "*i64, i32, i32, i64");
  const tritium::ir::Op* loop = find_for(k->fn().body);
  EXPECT_NE(loop, nullptr) << step;
  Rendered r;
  if (!loop) return r;
  r.proven = tritium::passes::known_positive(loop->operands[2]);
  tritium::runtime::CodegenOptions o;
  r.cuda_fail_sites = tritium::codegen::render_cuda(k->ir, o).fail_sites.size();
  r.cpu_checks = tritium::codegen::render_cpu(k->ir, o).find("loop step must be positive") != std::string::npos;
  return r;
}

TEST(KnownPositive, ProvenStepsRenderNoRunTimeCheck) {
  for (const char* step : {"tl.num_programs(0)", "tl.num_programs(2)", "tl.num_programs(0).to(tl.int64)",
                           "tl.maximum(s, tl.num_programs(1))", "3"}) {
    const Rendered r = render(step);
    EXPECT_TRUE(r.proven) << step;
    EXPECT_EQ(r.cuda_fail_sites, 0u) << step;
    EXPECT_FALSE(r.cpu_checks) << step;
  }
}

TEST(KnownPositive, StepsThatMayBeNonPositiveKeepTheCheck) {
  for (const char* step : {"s", "s64", "tl.program_id(0) + 0", "tl.num_programs(0) * s",
                           "tl.num_programs(0) * 2",  // wraps past 2^31 programs' worth
                           "tl.num_programs(0) - 1", "tl.num_programs(0).to(tl.int64).to(tl.int8)",
                           "tl.minimum(s, tl.num_programs(0))"}) {
    const Rendered r = render(step);
    EXPECT_FALSE(r.proven) << step;
    EXPECT_EQ(r.cuda_fail_sites, 1u) << step;
    EXPECT_TRUE(r.cpu_checks) << step;
  }
}

}  // namespace
