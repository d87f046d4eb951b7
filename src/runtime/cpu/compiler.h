// Invoking the system C++ compiler for the CPU backend, and the identity strings that
// enter cache keys (compiler binary, flags, host CPU).
//
// The compiler is $CXX (split on whitespace, so "ccache g++" works), else the compiler
// tritium itself was built with (TRITIUM_CXX_COMPILER), else `c++`. Kernels are built with
//   -std=gnu++20 -O3 -march=native -fPIC -shared -ffp-contract=off -fno-fast-math
//   -fno-math-errno -fno-trapping-math -fno-builtin-<f> for every transcendental libm function
// Contraction is off in both numerics modes (the reference interpreter does not contract);
// -fno-math-errno and -fno-trapping-math change no result (errno and floating-point
// exception flags are not observable by kernels) but let the compiler if-convert and
// vectorise selects over floating-point values; -fno-builtin-<f> keeps the compiler from
// constant-folding expf & co. with a different (correctly rounded) result than the libm
// call made at run time. Never -ffast-math.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace tritium::runtime::cpu {

/// The compiler command (program and leading arguments).
std::vector<std::string> compiler_command();

/// A string identifying the compiler for cache keys: the command, the resolved path of
/// the program, and its size and modification time (no process is started).
const std::string& compiler_identity();

/// A string identifying the host processor (model name and feature flags), because
/// kernels are built with -march=native.
const std::string& host_cpu_identity();

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

/// Compiles the C++ file `source` into the shared object `output` (kernel_flags, then
/// `extra_flags`, e.g. msl-emu's include path). On failure throws std::runtime_error with the
/// command, the compiler's messages and the source path.
void compile_shared_object(const std::filesystem::path& source, const std::filesystem::path& output,
                           bool portable, const std::vector<std::string>& extra_flags = {});

}  // namespace tritium::runtime::cpu
