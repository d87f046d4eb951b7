// Invoking the system C++ compiler for the CPU backend, and the identity strings that
// enter cache keys (compiler binary, flags, host CPU).
//
// The compiler is $CXX (split on whitespace, so "ccache g++" works), else the compiler
// tritium itself was built with (TRITIUM_CXX_COMPILER), else `c++`. Kernels are built with
//   -std=gnu++20 -O3 -march=native -fPIC -shared -ffp-contract=off -fno-fast-math
//   -fno-math-errno -fno-trapping-math -fno-builtin-<f> for every transcendental libm function
// (plus, on x86-64, -mprefer-vector-width=512, and for GCC --param=max-completely-peeled-insns=100)
// Contraction is off in both numerics modes (the reference interpreter does not contract);
// -fno-math-errno and -fno-trapping-math change no result (errno and floating-point
// exception flags are not observable by kernels) but let the compiler if-convert and
// vectorise selects over floating-point values; -fno-builtin-<f> keeps the compiler from
// constant-folding expf & co. with a different (correctly rounded) result than the libm
// call made at run time. Never -ffast-math.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "runtime/cache.h"

namespace tritium::runtime::cpu {

/// The compiler command (program and leading arguments).
std::vector<std::string> compiler_command();

/// A string identifying the compiler for cache keys: the command, the resolved path of
/// the program, and its size and modification time (no process is started).
const std::string& compiler_identity();

/// A string identifying the host processor (model name and feature flags), because
/// kernels are built with -march=native.
const std::string& host_cpu_identity();

/// Whether `command` (see compiler_command) runs GCC: its last non-option word, resolved on
/// PATH and through symbolic links, names g++ or gcc and not clang. Decides the GCC-only
/// tuning parameters of kernel_flags; a wrong guess costs compile time, never a result.
bool is_gnu_compiler(const std::vector<std::string>& command);

/// The flags kernels are compiled with (`portable` keeps the same flags today: the CPU
/// backend never contracts; the argument is there so the modes can diverge).
std::vector<std::string> kernel_flags(bool portable);

/// Result of running a child process.
struct ProcessResult {
  int exit_code = -1;   ///< exit status, or 128 + signal number
  std::string output;   ///< stdout and stderr, interleaved
};

/// Runs `argv` (argv[0] looked up on PATH) with stdout and stderr captured through the
/// file `log`. Throws std::runtime_error when the program cannot be started.
ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& log);

/// The stack a built object's functions need, from the compiler's -fstack-usage report
/// (one "file:line:col:function<TAB>bytes<TAB>static|dynamic|dynamic,bounded" line per
/// function that has a frame; GCC since 4.6, Clang since 13).
///
/// `bytes` sums every function's frame: an upper bound on the stack of any chain of calls
/// in the object, since generated code never recurses (a chain holds each function at most
/// once). Tensors are local arrays (cpu, the serial MSL shape) or per-thread arrays (the
/// threadgroup MSL shape), so they dominate it. `measured` is false when the compiler wrote
/// no report, `bounded` false when a frame has no static bound (alloca or a variable-length
/// array, which tritium's renderers do not emit): then the figure is not a bound.
struct StackUsage {
  bool measured = false;
  bool bounded = true;
  int64_t bytes = 0;
  std::string largest;        ///< the function with the largest frame
  int64_t largest_bytes = 0;  ///< its frame
};

/// Parses a -fstack-usage report (see StackUsage); lines that do not parse are skipped.
StackUsage parse_stack_usage(const std::string& report);
/// StackUsage as one line for the disk cache ("<bytes> <bounded> <largest_bytes> <largest>"),
/// and back (nullopt for a line that does not parse).
std::string stack_usage_line(const StackUsage& s);
std::optional<StackUsage> stack_usage_from_line(const std::string& line);

/// Compiles the C++ file `source` into the shared object `output` (kernel_flags, then
/// `extra_flags`, e.g. msl-emu's include path, then -fstack-usage) and returns the stack its
/// functions need (the compiler's report, read from `output`'s directory, which should hold
/// nothing else of the kind: a scratch directory). On failure throws std::runtime_error
/// with the command, the compiler's messages and the source path.
StackUsage compile_shared_object(const std::filesystem::path& source, const std::filesystem::path& output,
                                 bool portable, const std::vector<std::string>& extra_flags = {});

/// Throws frontend::CompileError at `fn` (the kernel's definition) when `s` exceeds
/// `available` bytes: "<backend>: kernel @<k> needs <n> bytes of stack per <unit> (<why>;
/// the largest frame, <f>'s, is <b> bytes); <where> <available> — <remedy>". Does nothing
/// for an unmeasured or unbounded `s`.
void check_stack(const ir::Function& fn, const StackUsage& s, int64_t available, const std::string& backend,
                 const std::string& unit, const std::string& why, const std::string& where,
                 const std::string& remedy);

/// check_stack for code that runs on the thread pool's workers (thread_pool.h,
/// kProgramStackBytes): the cpu backend's programs, msl-emu's serial shape.
void check_program_stack(const ir::Function& fn, const StackUsage& s, const std::string& backend);

/// The StackUsage stored in `cache` under `key` (entry "stack", stack_usage_line), or
/// nullopt when there is none (an object built before it was recorded: build again).
std::optional<StackUsage> cached_stack_usage(const DiskCache& cache, const std::string& key);

}  // namespace tritium::runtime::cpu
