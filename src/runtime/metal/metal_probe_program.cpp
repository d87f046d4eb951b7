// The Metal toolchain probe's program (see metal_probe_program.h).
#include "runtime/metal/metal_probe_program.h"

#include <stdexcept>

#include "codegen/metal/msl_codegen.h"
#include "frontend/codegen.h"
#include "frontend/parser.h"
#include "frontend/signature.h"
#include "frontend/source.h"
#include "passes/pipeline.h"

namespace tritium::runtime::metal {

const char* metal_probe_kernel_source() {
  return R"PY(import triton
import triton.language as tl


@triton.jit
def tritium_probe(x_ptr, w_ptr, out_ptr, total_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    tile = r[:, None] * BLOCK + r[None, :]
    x = tl.load(x_ptr + tile).to(tl.float16)
    w = tl.load(w_ptr + tile).to(tl.float16)
    acc = tl.dot(x, w)
    tl.store(out_ptr + tile, acc)
    tl.atomic_add(total_ptr, tl.sum(tl.sum(acc, axis=1), axis=0))
)PY";
}

const std::string& metal_probe_program() {
  static const std::string text = [] {
    frontend::Module module = frontend::parse_module(frontend::Source::from_string(metal_probe_kernel_source(),
                                                                                  "tritium_probe.py"));
    frontend::Specialization spec;
    spec.args = frontend::parse_signature("*fp32:16, *fp32:16, *fp32:16, *fp32, 32");
    frontend::GenOptions gen;
    gen.num_warps = 4;
    ir::Module ir = frontend::generate_ir(module, "tritium_probe", spec, gen);
    passes::run_pipeline(ir);
    runtime::CodegenOptions opts;
    opts.num_warps = 4;
    // Portable numerics: the dot as an FMA chain, so the probe also passes on GPUs without
    // simdgroup matrices (whose kernels the device renders without them).
    opts.portable_numerics = true;
    return codegen::render_msl_program(ir, opts, codegen::MslShape::Threadgroup).text;
  }();
  return text;
}

}  // namespace tritium::runtime::metal
