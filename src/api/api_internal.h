// Internals of the public API (include/tritium/tritium.h): the shared state behind Module
// and CompiledKernel handles, the compile path (parse → IR → passes → device), and the
// translation of internal exceptions into tritium::Error.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "frontend/signature.h"
#include "frontend/source.h"
#include "ir/ir.h"
#include "runtime/device.h"
#include "tritium/tritium.h"

namespace tritium::detail {

/// A parsed module plus its in-memory cache of compiled kernels.
struct ModuleState {
  frontend::SourceRef source;  ///< the text every AST/IR location points into
  frontend::Module ast;        ///< the parse (top-level host code skipped)
  std::mutex mu;               ///< guards `cache`
  /// Cache key (kernel | specialization | options | device) → compiled kernel.
  std::map<std::string, std::shared_ptr<CompiledState>> cache;
};

/// Everything a CompiledKernel handle shares.
struct CompiledState {
  std::shared_ptr<ModuleState> module;      ///< keeps the SourceRef (IR locations) alive
  std::shared_ptr<runtime::Device> device;  ///< the device it was compiled for
  std::string name;                         ///< kernel name
  std::string signature;                    ///< canonical specialization text
  std::vector<ArgInfo> args;                ///< runtime parameters in launch order
  std::string ir_text;                      ///< IR after the pipeline
  std::unique_ptr<ir::Module> ir;           ///< the IR itself (owned; locations into `module`)
  std::unique_ptr<runtime::LoadedKernel> loaded;  ///< the device's loaded kernel
};

/// The IR of one specialization, after the pass pipeline.
struct Lowered {
  std::unique_ptr<ir::Module> ir;
  std::string ir_text;
  std::string signature;      ///< canonical text of the specialization
  std::vector<ArgInfo> args;  ///< runtime parameters in launch order
};

/// Checks `options` (num_warps a power of two in [1, 64], num_stages >= 0, known dump pass
/// names). Throws Error(Usage).
void validate_options(const CompileOptions& options);

/// Builds the specialization for kernel `kernel` (parameters `params`) from an AOT signature
/// and named constexprs, and the runtime-parameter list (dtype, divisibility, ==1) in launch
/// order. Throws Error(Signature) naming the offending entry or parameter.
frontend::Specialization resolve_specialization(const std::string& kernel, const std::vector<Parameter>& params,
                                                const std::string& signature,
                                                const std::map<std::string, ConstexprValue>& constexprs,
                                                std::vector<ArgInfo>* runtime_args);

/// Parses, generates and runs the pipeline for one specialization. Throws like Kernel::ir().
Lowered lower(const ModuleState& module, const std::string& kernel, const std::vector<Parameter>& params,
              const std::string& signature, const CompileOptions& options,
              const std::map<std::string, ConstexprValue>& constexprs);

/// The cache-key part of `options` (everything but the dumps).
std::string options_key(const CompileOptions& options);

/// Call inside a catch block: rethrows the current exception as a tritium::Error.
/// frontend::CompileError → CompileError; tritium::Error unchanged; std::logic_error →
/// Error(Internal); std::bad_alloc → Error(Device); any other std::exception → Error of
/// `fallback` kind with `context` prefixed to its message ("context: what").
[[noreturn]] void rethrow_as_error(ErrorKind fallback, const std::string& context);

/// Converts a frontend diagnostic into the public CompileError.
CompileError to_api_error(const frontend::CompileError& e);

}  // namespace tritium::detail
