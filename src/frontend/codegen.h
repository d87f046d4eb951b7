// AST → IR code generation for one kernel specialization (the counterpart of upstream
// Triton's code_generator.py): binds names, evaluates constexprs, unrolls static_range,
// resolves static if/else, emits structured control flow for dynamic ones, and emits one
// ir::Function per (jit function, argument types) with `call` ops to helpers (inlined by
// the "inline" pass).
#pragma once
#include <optional>
#include <string>

#include "frontend/ast.h"
#include "frontend/signature.h"
#include "ir/ir.h"

namespace tritium::frontend {

struct GenOptions {
  bool debug = false;     // tl.device_assert active
  int num_warps = 4;      // visible to kernels? (not in Triton's language) — kept for completeness
  int num_stages = 3;
  /// Values of the kernel module's globals as the host evaluated them (tritium::Module::
  /// set_host_globals); they replace the source's evaluation of those names. Not owned.
  const std::map<std::string, ConstexprValue>* host_globals = nullptr;
};

/// Generates IR for kernel `kernel_name` of `module` specialized by `spec`.
/// The result holds the kernel (is_kernel = true, first function) and every jit helper
/// it calls. The kernel's parameters are the non-constexpr parameters, in order (pointer
/// → ptr<dtype>, scalar → its dtype; ints specialized equal to 1 are still parameters but
/// their uses see the constant 1).
/// Throws CompileError (file:line:col + source line + caret) for every user error.
ir::Module generate_ir(const Module& module, const std::string& kernel_name, const Specialization& spec,
                       const GenOptions& options = {});

/// Names of every top-level function of `module` decorated as a jit kernel
/// (`@triton.jit`, `@jit`, `@triton.jit(...)`, possibly under autotune/heuristics).
std::vector<std::string> jit_function_names(const Module& module);

/// The value the frontend gives the module-level dotted name `path` of `module` ("BLOCK",
/// "cfg.BLOCK" through an imported Python file), as a comparison key: "None", "True" /
/// "False", "int:<decimal>", "float:<shortest round-trip>" (inf, -inf, nan), "str:<text>",
/// "dtype:<short name>", "(<key>,<key>,...)" for tuples. nullopt when the name is unbound,
/// not such a value, or cannot be evaluated. (The Python package compares it with the
/// live Python value of a name a kernel reads, to refuse a difference it cannot pass on.)
std::optional<std::string> global_value_key(const Module& module, const std::string& path,
                                            const GenOptions& options = {});

/// The value the frontend gives the default of parameter `param` of the jit function bound
/// to module-level dotted name `path` (evaluated where the `def` stands, in the function's
/// own module), as a key in global_value_key's format; nullopt when there is no such
/// function, parameter or default, or it is not such a value or cannot be evaluated.
/// Where the jit (or constexpr) function bound to module-level dotted name `path` of
/// `module` is defined, as the frontend resolves the name: its source's name (a file path
/// for files), the line of its first decorator (its `def` when it has none) and the line of
/// its `def`. nullopt when the name is not such a function or cannot be resolved.
struct FunctionLocation {
  std::string file;
  int64_t first_line = 0, def_line = 0;
};
std::optional<FunctionLocation> function_location(const Module& module, const std::string& path,
                                                  const GenOptions& options = {});

std::optional<std::string> default_value_key(const Module& module, const std::string& path, const std::string& param,
                                             const GenOptions& options = {});

}  // namespace tritium::frontend
