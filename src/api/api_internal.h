// Internals of the public API (include/tritium/tritium.h): the shared state behind Module
// and CompiledKernel handles, the compile path (parse → IR → passes → device), and the
// translation of internal exceptions into tritium::Error.
#pragma once
#include <map>
#include <unordered_map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "frontend/module_loader.h"
#include "frontend/ast.h"
#include "frontend/decorators.h"
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
  mutable std::mutex mu;               ///< guards `cache`
  /// Cache key (kernel | specialization | options | device) → compiled kernel.
  std::map<std::string, std::shared_ptr<CompiledState>> cache;
  /// Kernel name → its evaluated decorators (guarded by `mu`).
  std::map<std::string, std::shared_ptr<const frontend::KernelDecls>> decls;
  /// Autotuning results: kernel | layer | device | options | key values → config index (guarded by `mu`).
  std::map<std::string, int> tuned;
  /// Kernel::run's specializations by the JIT signature text as built (before it is parsed
  /// and canonicalized), the named constexprs, options and device: a launch that repeats
  /// an earlier one's specialization skips the signature parsing (guarded by `mu`).
  std::unordered_map<std::string, CompiledKernel> jit_cache;
  /// Module::set_host_globals's values (frozen once `compiled` is set).
  std::map<std::string, frontend::ConstexprValue> host_globals;
  mutable bool compiled = false;  ///< a kernel of this module was lowered (guarded by `mu`)
  /// The files this module's kernels import, as first parsed: every entry point that
  /// resolves names holds a frontend::PinScope on it, so a helper file edited on disk after
  /// the first compile does not change later specializations (Python keeps the module it
  /// imported; a new Module reads the files anew).
  mutable frontend::PinnedImports pins;
};

/// Everything a CompiledKernel handle shares.
struct CompiledState {
  /// Keeps the text IR locations point into alive. Not the ModuleState: its cache holds
  /// this state, and a reference back would make a cycle that leaks every compiled module.
  frontend::SourceRef source;
  std::shared_ptr<runtime::Device> device;  ///< the device it was compiled for
  std::string name;                         ///< kernel name
  std::string signature;                    ///< canonical specialization text
  std::vector<ArgInfo> args;                ///< runtime parameters in launch order
  std::string ir_text;                      ///< IR after the pipeline
  std::unique_ptr<ir::Module> ir;           ///< the IR itself (owned; locations into `module`)
  std::unique_ptr<runtime::LoadedKernel> loaded;  ///< the device's loaded kernel
  bool sanitize = false;                    ///< compiled in sanitize mode: launches pass bounds
  /// Set when the kernel came from a cache hit without lowering (Kernel::compile): `ir` is
  /// null and `ir_text` empty until CompiledKernel::ir() asks, which lowers again from
  /// `source` (parsed anew) with these.
  struct Relower {
    std::vector<Parameter> params;
    std::string signature;
    CompileOptions options;
    std::map<std::string, ConstexprValue> constexprs;
  };
  std::unique_ptr<Relower> relower;
  std::mutex relower_mu;  ///< guards the lazy ir_text
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

/// The evaluated decorators of jit function `kernel` (cached in the module state). Throws
/// the public CompileError.
std::shared_ptr<const frontend::KernelDecls> kernel_decls(ModuleState& module, const std::string& kernel);

/// A decorator-computed value as a constexpr (int, float, bool or str); CompileError at
/// `loc` naming `what` otherwise.
ConstexprValue to_constexpr(const frontend::PyValue& v, frontend::SrcLoc loc, const std::string& what);
/// A constexpr value as a host Python value.
frontend::PyValue to_py(const ConstexprValue& v);
/// The signature entry of a constexpr value ("128", "0.5", "True", "'x'", "tl.float16").
std::string constexpr_text(const ConstexprValue& v);
/// Public constexpr value → the frontend's (DType names parsed; Error(Usage) for an unknown dtype).
frontend::ConstexprValue to_frontend(const ConstexprValue& v);
/// The frontend's constexpr value → the public one (dtypes by their short name, "fp16").
ConstexprValue from_frontend(const frontend::ConstexprValue& v);

/// Evaluates the heuristics of `decl` in order into `meta` over the dict `args` (which
/// grows with each value set, as upstream's). `aot` adds a hint for `tritium compile`.
void apply_heuristics(const ModuleState& module, const frontend::FunctionDef& fn, const frontend::HeuristicsDecl& decl,
                      frontend::PyValue& args, Meta& meta, bool aot);

/// The cache-key part of `options` (everything but the dumps).
std::string options_key(const CompileOptions& options);

/// Whether a compile with `options` is in sanitize mode: options.sanitize, or the
/// environment's TRITIUM_SANITIZE=1 (read at each compile).
bool sanitize_enabled(const CompileOptions& options);

/// Call inside a catch block: rethrows the current exception as a tritium::Error.
/// frontend::CompileError → CompileError; tritium::Error unchanged; std::logic_error →
/// Error(Internal); std::bad_alloc → Error(Device); any other std::exception → Error of
/// `fallback` kind with `context` prefixed to its message ("context: what").
[[noreturn]] void rethrow_as_error(ErrorKind fallback, const std::string& context);

/// Converts a frontend diagnostic into the public CompileError.
CompileError to_api_error(const frontend::CompileError& e);

}  // namespace tritium::detail
