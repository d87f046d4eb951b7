// tritium's standard library in the Triton language: parts of `triton.language` that
// upstream Triton itself writes as @triton.jit Python (random.py today; standard.py-style
// helpers later) are written the same way here, as .py files in src/frontend/stdlib/,
// embedded into the binary at build time (cmake/embed_stdlib.cmake), parsed once per
// process by tritium's own parser and compiled by its own code generator exactly like user
// code. Each file is one namespace ("random.py" → `triton.language.random`); the names in
// its module-level `__all__` are also bound into `triton.language` itself (`tl.randint`).
// Values are CValue::Kind::JitFn whose `fn_module` is the stdlib module, so names inside
// stdlib code resolve in that module, never in the user's. Errors raised inside stdlib
// code are reported by the code generator at the user's call site (codegen_call.cpp).
// How to add a module: src/frontend/stdlib/README.md.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "frontend/value.h"

namespace tritium::frontend::stdlib {

/// One embedded source file (the generated stdlib_sources.cpp defines the list).
struct EmbeddedSource {
  const char* file;  ///< file name under src/frontend/stdlib/, e.g. "random.py"
  const char* text;  ///< its full text
};
/// Every embedded .py file, in file-name order.
const std::vector<EmbeddedSource>& embedded_sources();

/// One parsed stdlib module.
struct StdModule {
  std::string name;                 ///< "random"
  std::string ns;                   ///< its namespace, "triton.language.random"
  Module module;                    ///< the parsed source (diagnostics name it "<tritium-stdlib>/random.py")
  std::vector<std::string> exports; ///< `__all__`: the names bound into triton.language
};
/// Every stdlib module, parsed on first use (thread-safe; the modules live until exit).
/// A stdlib file that does not parse, or a malformed `__all__`, is a bug of tritium:
/// std::logic_error naming the file.
const std::vector<StdModule>& modules();

/// The stdlib binding of `attr` in namespace `ns`, or nullopt: `ns` "triton.language" gives
/// the exported jit functions, `triton.language.<module>` every top-level jit function of
/// that module whose name does not start with '_', and "triton.language" also gives the
/// module namespaces themselves (`tl.random`).
std::optional<CValue> lookup(const std::string& ns, const std::string& attr);

/// True when `m` is one of the stdlib modules.
bool is_stdlib_module(const Module* m);
/// True when `src` is the source of a stdlib module (for diagnostics).
bool is_stdlib_source(const Source* src);

}  // namespace tritium::frontend::stdlib
