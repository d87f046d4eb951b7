// The pass pipeline (see pipeline.h): one list, run in order, with optional IR dumps and
// verification after every step.
#include "passes/pipeline.h"

#include <algorithm>
#include <stdexcept>

#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/cse.h"
#include "passes/dce.h"
#include "passes/fold.h"
#include "passes/inline.h"
#include "passes/licm.h"

namespace tritium::passes {
namespace {

using FunctionPass = void (*)(ir::Function&);

/// Runs a per-function pass over every function of the module.
template <FunctionPass P>
void each_function(ir::Module& m) {
  for (auto& f : m.functions) P(*f);
}

struct Pass {
  const char* name;
  void (*run)(ir::Module&);
};

// The pipeline, in order. After "inline" the module holds only the kernel.
constexpr Pass kPasses[] = {
    {"inline", inline_calls},
    {"fold", each_function<fold_constants>},
    {"cse", each_function<eliminate_common_subexpressions>},
    {"licm", each_function<hoist_loop_invariants>},
    {"dce", each_function<eliminate_dead_code>},
};

bool wants_dump(const PipelineOptions& o, const std::string& name) {
  return std::any_of(o.dump_after.begin(), o.dump_after.end(),
                     [&](const std::string& s) { return s == name || s == "all"; });
}

}  // namespace

std::vector<std::string> pipeline_pass_names() {
  std::vector<std::string> names;
  for (const Pass& p : kPasses) names.emplace_back(p.name);
  return names;
}

void run_pipeline(ir::Module& m, const PipelineOptions& options) {
  const auto names = pipeline_pass_names();
  for (const std::string& d : options.dump_after) {
    if (d == "all" || std::find(names.begin(), names.end(), d) != names.end()) continue;
    std::string known;
    for (const auto& n : names) known += n + ", ";
    throw std::invalid_argument("unknown pass '" + d + "' to dump after (known: " + known + "all)");
  }
  for (const Pass& p : kPasses) {
    p.run(m);
    // Dump before verifying, so a broken pass's output can still be inspected.
    if (options.dump && wants_dump(options, p.name)) options.dump(p.name, ir::print(m));
    if (options.verify_each)
      for (auto& f : m.functions) ir::verify_or_throw(*f, &m);
  }
}

}  // namespace tritium::passes
