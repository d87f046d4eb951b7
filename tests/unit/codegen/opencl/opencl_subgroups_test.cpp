// The work-group shape with lane exchanges by cl_intel_subgroups shuffles (OpenCLLimits::
// intel_subgroups, chosen by the device after its probe): the text requires sub-groups of
// 32 and has no local exchange array or barrier around a shuffle. Which devices run it: PoCL
// 5 (the H200 machine's CPU platform; docs/design.md, "OpenCL backend"); not PoCL 3.1 (CI),
// which offers no sub-groups, so the launches are checked there, the text here.
#include <gtest/gtest.h>

#include "codegen/opencl/opencl_codegen.h"
#include "frontend/codegen.h"
#include "frontend/parser.h"
#include "frontend/signature.h"
#include "frontend/source.h"
#include "passes/pipeline.h"

namespace {

// A row sum of fp32 (lane bits), an int64 max (a 64-bit value as two words) and a dot.
tritium::ir::Module reduce_module() {
  using namespace tritium;
  // Static: the IR's locations point into the parsed source, which must outlive them.
  static const frontend::Module module = frontend::parse_module(frontend::Source::from_string(R"PY(import triton
import triton.language as tl

@triton.jit
def rows(x, big, out, out_big):
    i = tl.arange(0, 32)
    j = tl.arange(0, 64)
    t = i[:, None] * 64 + j[None, :]
    tl.store(out + i, tl.sum(tl.load(x + t), axis=1))
    tl.store(out_big + i, tl.max(tl.load(big + t), axis=1))
)PY",
                                                                                 "rows.py"));
  frontend::Specialization spec;
  spec.args = frontend::parse_signature("*fp32, *i64, *fp32, *i64");
  ir::Module m = frontend::generate_ir(module, "rows", spec, {});
  passes::run_pipeline(m);
  return m;
}

}  // namespace

TEST(OpenCLCodegen, SubgroupShufflesReplaceTheLocalExchange) {
  const tritium::ir::Module m = reduce_module();
  tritium::runtime::CodegenOptions opts;
  opts.portable_numerics = true;
  tritium::codegen::OpenCLLimits limits;
  const std::string local = tritium::codegen::render_opencl_program(m, opts, tritium::codegen::OpenCLShape::WorkGroup,
                                                                    limits)
                                .text;
  limits.intel_subgroups = true;
  const std::string sg = tritium::codegen::render_opencl_program(m, opts, tritium::codegen::OpenCLShape::WorkGroup,
                                                                 limits)
                             .text;
  EXPECT_NE(local.find("tr_xchg[tr_tid ^ "), std::string::npos);
  EXPECT_EQ(local.find("intel_sub_group"), std::string::npos);
  EXPECT_NE(local.find("lanes exchanged through local memory"), std::string::npos);

  EXPECT_EQ(sg.find("tr_xchg"), std::string::npos);
  EXPECT_NE(sg.find("#pragma OPENCL EXTENSION cl_intel_subgroups : enable"), std::string::npos);
  EXPECT_NE(sg.find("__attribute__((reqd_work_group_size(128, 1, 1))) __attribute__((intel_reqd_sub_group_size(32)))"),
            std::string::npos);
  EXPECT_NE(sg.find("as_float(intel_sub_group_shuffle_xor(as_uint("), std::string::npos);
  EXPECT_NE(sg.find("intel_sub_group_shuffle_xor((uint)("), std::string::npos) << "int64 as two 32-bit words";
  EXPECT_NE(sg.find("lanes exchanged by sub-group shuffles (cl_intel_subgroups, sub-groups of 32)"), std::string::npos);
  // Fewer barriers: the local exchange needs two per lane step, the shuffles none.
  auto count = [](const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_LT(count(sg, "barrier(CLK_"), count(local, "barrier(CLK_"));
}
