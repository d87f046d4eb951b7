// The pass pipeline: one readable list of passes run over the IR after code generation.
//   inline → fold → cse → licm → dce
// Each pass lives in its own file pair with one documented entry point.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace tritium::passes {

struct PipelineOptions {
  /// Names of passes after which `dump` is called with the printed IR ("all" = every pass).
  std::vector<std::string> dump_after;
  std::function<void(const std::string& pass, const std::string& ir_text)> dump;
  bool verify_each = true;  // run the verifier after every pass (internal errors are thrown)
};

/// Names of the passes in pipeline order.
std::vector<std::string> pipeline_pass_names();
/// Runs the pipeline over `m` in place; afterwards `m` holds only the kernel (helpers inlined).
/// Throws std::invalid_argument (before running anything) for a name in `dump_after` that is
/// neither a pass nor "all"; frontend::CompileError for refused calls (see inline.h); and
/// std::logic_error when `verify_each` finds invalid IR after a pass.
void run_pipeline(ir::Module& m, const PipelineOptions& options = {});

}  // namespace tritium::passes
