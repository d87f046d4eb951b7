// Finding and parsing the Python files a kernel's file imports, so jit helpers and module
// constants defined in other files resolve as Python's import system would find them
// (`from fla.ops.utils.op import exp`, `from .utils import helper`, `import mylib.kern as k`).
//
// Search, for `from A.B import c` / `import A.B` seen in file F:
//   * relative imports (level L >= 1): the directory of F, then L - 1 parents up;
//   * absolute imports: the directory above F's outermost package (walking up from F's
//     directory while it holds an __init__.py), F's own directory (Python puts the
//     script's directory on sys.path), then each directory of the TRITIUM_PYTHONPATH and
//     PYTHONPATH environment variables (colon-separated), in that order;
//   * in each: A/B.py, else A/B/__init__.py.
// A module is parsed at most once per process for a given (path, size, modification time);
// parsed modules are never freed (IR locations point into their sources).
#pragma once
#include <map>
#include <mutex>
#include <string>

#include "frontend/ast.h"

namespace tritium::frontend {

/// The outcome of an import lookup.
struct LoadedModule {
  const Module* module = nullptr;  ///< null when not found (then `why_not` says where it looked)
  std::string path;                ///< the file parsed
  bool is_package = false;         ///< an __init__.py
  std::string why_not;
};

/// `dotted` with a leading `tritium` package spelled `triton`: the Python package's own
/// names (`import tritium.language as tl`, `@tritium.jit`) are Triton's. Other paths are
/// returned unchanged.
std::string triton_alias(const std::string& dotted);

/// True for `triton` and its submodules (resolved by tritium itself, never searched for),
/// and for `tritium` and its submodules (triton_alias).
bool is_triton_module(const std::string& dotted);

/// True for modules that are never Python files of the user's (the Python standard library,
/// torch, numpy, ...: `torch`, `torch.nn`, `os.path`); imports of them are not searched for.
bool is_host_module(const std::string& dotted);

/// Loads module `dotted` (empty for `from . import x`) imported with `level` leading dots
/// by `importer`. Never throws for a missing module (see why_not); a file that does not
/// tokenize is reported as CompileError by the parser, as for the kernel's own file.
LoadedModule load_module(const Module& importer, const std::string& dotted, int level);

/// The imported files one kernel module has seen: the parse of each file as it was when
/// first imported. While a PinScope naming it is alive on this thread, imports resolve to
/// these parses even after the file changes on disk (as Python keeps the module it
/// imported), so every specialization of the module compiles the same helpers.
struct PinnedImports {
  std::mutex mu;
  std::map<std::string, const Module*> files;  ///< canonical path → parse
};

/// Marks that code evaluated at compile time read an input besides the kernel module's own
/// text and tritium itself: another Python file (an import resolved by this loader) or the
/// process environment (os.environ / os.getenv in host code). From then on this process
/// neither uses nor records cache entries found without lowering (Kernel::compile): their
/// key covers the module text, not such inputs. Sticky for the process.
void note_dynamic_input();
/// Whether note_dynamic_input() was called in this process.
bool dynamic_inputs_seen();
/// Clears the mark (tests only: each test of the lowering-free cache starts unmarked).
void reset_dynamic_inputs_for_testing();
/// Counts compile-time output on this thread (tl.static_print): a compile that printed
/// records no lowering-free cache entry, so the print comes again at every compile.
void note_compile_time_output();
/// This thread's count so far.
uint64_t compile_time_outputs();

/// Makes `pins` the current thread's PinnedImports for its lifetime (the previous one is
/// restored after; nullptr: none).
class PinScope {
 public:
  explicit PinScope(PinnedImports* pins);
  ~PinScope();
  PinScope(const PinScope&) = delete;
  PinScope& operator=(const PinScope&) = delete;

 private:
  PinnedImports* prev_;
};

}  // namespace tritium::frontend
