// CodegenOptions::simdgroup_matrices: the metal device clears it on GPUs without simdgroup
// matrices (before Apple GPU family 7); native-numerics dots then stay FMA chains.
#include <gtest/gtest.h>

#include "codegen/metal/msl_codegen.h"
#include "frontend/codegen.h"
#include "frontend/parser.h"
#include "frontend/signature.h"
#include "frontend/source.h"
#include "passes/pipeline.h"

namespace {

tritium::ir::Module dot_module() {
  using namespace tritium;
  // Static: the IR's locations point into the parsed source, which must outlive them.
  static const frontend::Module module = frontend::parse_module(frontend::Source::from_string(R"PY(import triton
import triton.language as tl

@triton.jit
def mm(a, b, c):
    i = tl.arange(0, 16)
    t = i[:, None] * 16 + i[None, :]
    tl.store(c + t, tl.dot(tl.load(a + t), tl.load(b + t)))
)PY",
                                                                                 "mm.py"));
  frontend::Specialization spec;
  spec.args = frontend::parse_signature("*fp16, *fp16, *fp32");
  ir::Module m = frontend::generate_ir(module, "mm", spec, {});
  passes::run_pipeline(m);
  return m;
}

}  // namespace

TEST(MslCodegen, SimdgroupMatricesOnlyWhereTheGpuHasThem) {
  const tritium::ir::Module m = dot_module();
  tritium::runtime::CodegenOptions opts;  // native numerics
  const std::string with = tritium::codegen::render_msl_program(m, opts).text;
  opts.simdgroup_matrices = false;
  const std::string without = tritium::codegen::render_msl_program(m, opts).text;
  EXPECT_NE(with.find("simdgroup_multiply_accumulate("), std::string::npos);
  EXPECT_EQ(without.find("simdgroup_float8x8"), std::string::npos);
  EXPECT_EQ(without.find("the serial shape"), std::string::npos) << "still the threadgroup shape";
}
