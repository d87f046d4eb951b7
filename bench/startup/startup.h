// startup.h - the startup measurements of issue 2 (`tritium-startup`, bench/startup/):
//   (a) cold compile: Module::from_file + Kernel::compile with an empty private cache, per
//       compile unit of the built-in suite, split into frontend+passes and C++ compiler time;
//   (b) cached launch from a new process: a fresh child process (tritium-startup-child,
//       child.cpp, linked with tritium_core alone) loads the module, compiles (a disk-cache
//       hit), allocates tiny buffers, launches once on grid (1, 1, 1) and synchronizes.
//
// Clocks: every timestamp is CLOCK_MONOTONIC (system-wide), so the parent's "just before
// posix_spawn" and the child's "entered main()" / "after the launch" are comparable.
//
// Speed is measured here and judged by the harness (startup_report.h), never asserted in tests.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/suite.h"

namespace tritium::bench::startup {

/// One distinct (file, function, signature) of the suite: what `tritium bench` compiles.
struct CompileUnit {
  std::string kernel;     ///< display name of the first case using it ("softmax_online")
  std::string dtype;      ///< "fp32", "fp16" or "bf16"
  std::string case_id;    ///< id of the first case using it ("softmax/fp32/64x1000")
  std::string file;       ///< kernel file relative to the kernels directory ("softmax.py")
  std::string function;   ///< the @triton.jit function
  std::string signature;  ///< AOT signature, constexpr values in place
};

/// The distinct compile units of `cases`, in first-use order (cases sharing file, function and
/// signature give one unit).
std::vector<CompileUnit> compile_units(const std::vector<Case>& cases);

/// A cold compile of one unit. Times in seconds; all three come from separate runs.
struct ColdCompile {
  bool ok = false;         ///< compiled (and the C++ compiler ran: the cache was empty)
  std::string error;       ///< why not, when !ok
  double total_s = 0;      ///< Module::from_file + Kernel::compile, empty cache
  double frontend_s = 0;   ///< Module::from_file + Kernel::ir: parse, IR, pass pipeline
  double cxx_s = 0;        ///< the C++ compiler alone, re-run on the cached generated source
  size_t source_bytes = 0; ///< size of the generated C++ source
  int cache_entries = 0;   ///< files in the cache directory afterwards (.cpp, .stack and .so entries)
};

/// Compiles `u` (from `kernels_dir`) on a fresh cpu device whose cache is `cache_root` (must
/// be empty or missing). Never throws: failures are reported in the result.
ColdCompile measure_cold_compile(const CompileUnit& u, const std::string& kernels_dir,
                                 const std::filesystem::path& cache_root);

/// Several cold compiles of one unit merged: ok when all are, the first error, and the median
/// of each time (sizes from the first). An empty list gives a failed result.
ColdCompile median_cold(const std::vector<ColdCompile>& runs);

/// One cached-launch child process. Times in milliseconds from CLOCK_MONOTONIC stamps.
struct ChildRun {
  bool ok = false;             ///< exited 0 and reported its stamps
  std::string error;           ///< why not (exit status and the child's output)
  double exec_to_main_ms = 0;  ///< parent before posix_spawn -> child entered main()
  double main_to_launched_ms = 0;  ///< child main() -> after the first launch + synchronize
  double exec_to_launched_ms = 0;  ///< parent before posix_spawn -> after the first launch
  double exec_to_exit_ms = 0;      ///< parent before posix_spawn -> waitpid returned
  double compile_ms = 0;       ///< in the child: Module::from_file + Kernel::compile (cache hit)
  uint64_t cache_hits = 0;     ///< the child's cpu compile counters: disk-cache hits ...
  uint64_t builds = 0;         ///< ... and C++ compiler runs (0 for a warm cache)
  uint64_t input_hits = 0;     ///< ... of the hits, those found without lowering
};

/// Spawns `exe FILE FUNCTION SIGNATURE` with TRITIUM_CACHE_DIR=`cache_root` and waits for
/// it. `exe` is the tritium-startup-child executable (child.cpp), which prints one line
/// "tritium-startup-child key=value ..." on success. Never throws.
ChildRun run_cached_launch(const std::string& exe, const CompileUnit& u, const std::string& kernels_dir,
                           const std::filesystem::path& cache_root);

/// CLOCK_MONOTONIC now, in nanoseconds.
int64_t monotonic_ns();

}  // namespace tritium::bench::startup
