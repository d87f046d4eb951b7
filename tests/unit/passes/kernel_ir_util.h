// Test helper: the IR of one kernel specialization after the pass pipeline, built from
// source text or a file through the frontend (for tests of analyses over real kernels).
#pragma once
#include <memory>
#include <string>

#include "frontend/codegen.h"
#include "frontend/parser.h"
#include "passes/pipeline.h"

namespace tritium::testing {

/// Owns the source and parse the IR's locations point into.
struct KernelIr {
  frontend::SourceRef src;
  frontend::Module mod;
  ir::Module ir;
  const ir::Function& fn() const { return *ir.functions.front(); }
};

inline std::unique_ptr<KernelIr> kernel_ir(frontend::SourceRef src, const std::string& kernel, const std::string& sig) {
  auto k = std::make_unique<KernelIr>();
  k->src = std::move(src);
  k->mod = frontend::parse_module(k->src);
  frontend::Specialization spec;
  spec.args = frontend::parse_signature(sig);
  k->ir = frontend::generate_ir(k->mod, kernel, spec);
  passes::run_pipeline(k->ir);
  return k;
}

/// From source text (diagnostics name it `name`).
inline std::unique_ptr<KernelIr> kernel_ir_from_text(const std::string& text, const std::string& kernel,
                                                      const std::string& sig, const std::string& name = "test.py") {
  return kernel_ir(frontend::Source::from_string(text, name), kernel, sig);
}

}  // namespace tritium::testing
