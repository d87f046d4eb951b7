// bench.h - `tritium bench`: run the built-in kernel suite, check each case
// against its float64 reference, time it and report bandwidth/throughput.
#pragma once

#include <string>

namespace tritium::bench {

/// Options of one `tritium bench` run (filled by the CLI from its flags).
struct BenchOptions {
  /// Backend name ("cpu", "interp", ...); empty selects the best available.
  std::string backend;
  /// Only cases whose id ("kernel/dtype/shape") contains this substring run;
  /// empty runs every case.
  std::string filter;
  /// Run the small CI set instead of the full suite.
  bool quick = false;
  /// Only cases of this dtype ("fp32", "fp16", "bf16"); empty: every dtype.
  std::string dtype;
  /// What each case is timed against: "auto" (every baseline this backend has: "library"
  /// then, on cuda, "upstream"); "library" (the in-process baselines, interleaved call by
  /// call with an A-vs-A noise floor: on cpu a plain C++ loop or OpenBLAS, on cuda cuBLAS);
  /// "upstream" (cuda only: tritium timed alone, then kernels/tools/bench_upstream.py:
  /// upstream Triton on the same sources, tritium and torch / cuBLAS / SDPA); "none"
  /// (tritium alone); or the path of an earlier run's --json file (previous.h: tritium
  /// timed alone, then compared with that run case by case).
  std::string vs = "auto";
  /// When non-empty, write every figure of the run as JSON to this path.
  std::string json_path;
  /// Timed repetitions per case (median is reported); 0 picks a default.
  int repeat = 0;
  /// Warm-up launches before timing; negative picks a default.
  int warmup = -1;
  /// Print the case list and exit without compiling anything.
  bool list_only = false;
  /// Suppress the progress indication on stderr.
  bool no_progress = false;
  /// Directory of the suite's kernel files; empty: $TRITIUM_KERNELS_DIR, else the
  /// source tree's kernels/.
  std::string kernels_dir;
};

/// Runs the suite described by `opts`; prints the table to stdout and
/// progress to stderr. Returns the process exit status: 0 when every selected
/// case passed, 1 when any case failed (wrong result, NaN, compile or launch
/// error), 2 for a usage error (unknown backend, no case matches the filter).
int run_bench(const BenchOptions& opts);

}  // namespace tritium::bench
