// upstream.h - `tritium bench --backend cuda` against upstream Triton, torch and torch SDPA
// (issue 7): the in-process harness cannot load Triton, so it runs the Python driver
// kernels/tools/bench_upstream.py (upstream Triton compiling the same kernels/*.py sources,
// tritium's cuda backend through libtritium_c.so, and the strongest library baseline of each
// kernel, interleaved call by call with CUDA events; its statistics are
// kernels/tools/bench_stats.py) when torch and triton are importable, and turns the driver's
// JSON into the bench's own results for the charts and the JSON file.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report.h"

namespace tritium::bench {

/// What the driver is run with.
struct UpstreamOptions {
  std::string python;       ///< interpreter (upstream_python())
  std::string kernels_dir;  ///< the suite's kernels/ (the driver is kernels_dir/tools/bench_upstream.py)
  std::string library;      ///< libtritium_c.so for the tritium arm ("" leaves tritium out)
  std::string json_path;    ///< where the driver writes its JSON (required)
  bool quick = false;       ///< --quick
  std::string only;         ///< the driver's --only (a substring of its case names; "" for all)
  std::string dtype;        ///< "fp32", "fp16", "bf16" or "" for all
};

/// The Python interpreter that runs the driver: $TRITIUM_PYTHON when set, else "python3".
std::string upstream_python();

/// "" when `python` can import torch and triton and torch sees a CUDA device, else why not
/// (one line, for the bench's "not run" list). Runs `python -c ...` (no shell), its output
/// discarded.
std::string upstream_status(const std::string& python);

/// The C library the driver loads for the tritium arm: $TRITIUM_C_LIBRARY when set, else
/// capi/libtritium_c.so beside the running tritium executable (the build tree's layout);
/// "" when neither exists.
std::string tritium_c_library();

/// The driver's command line (argv, argv[0] the interpreter) for `o`.
std::vector<std::string> upstream_command(const UpstreamOptions& o);

/// Runs the driver (its stdout and stderr are ours: its progress and table go straight to
/// the terminal) and returns its exit status (0: all results right; 1: a wrong result or a
/// tritium compile/launch error; 127: could not start). Throws std::runtime_error when the
/// process cannot be spawned.
int run_upstream(const UpstreamOptions& o);

/// The bench's results from the driver's JSON (schema in bench_upstream.py's --json help):
/// per driver case with a tritium arm, two CaseResults with the id "kernel/dtype/shape"
/// (compared when timed), one against upstream
/// Triton (comparison.baseline "Triton <version>", speedup = tritium_vs_triton) and one
/// against the library (comparison.baseline the driver's baseline, speedup =
/// tritium_vs_baseline), each with the driver's A-vs-A noise ratio and tritium's samples as
/// the timing. Cases without a tritium arm give one result, "kernel/dtype/shape (Triton)",
/// for Triton against the library (Triton's samples as its timing).
/// A case with a wrong or failed arm gives a failed result naming it. Throws
/// std::runtime_error (naming the key) on a malformed document.
std::vector<CaseResult> upstream_results(const nlohmann::json& driver);

/// tritium's driver timings of this run (`now`) against an earlier run's (`before`, the
/// "upstream" section of an earlier `--json` file), case by case (matched by kernel, dtype
/// and shape): a header naming `label`, then per case the earlier and the present median
/// and earlier / present with its unpaired bootstrap 95% interval (above 1: this run is
/// faster; not interleaved, so drift between the runs shows in it). One line says so when
/// no case matched. Throws std::runtime_error on a malformed document.
std::string format_upstream_vs_previous(const nlohmann::json& now, const nlohmann::json& before,
                                        const std::string& label);

/// The RunInfo for charting upstream_results(): `base` with the driver's measured copy
/// bandwidth (its 1 GiB torch copy_) and compute peak (best cuBLAS rate of the run).
RunInfo upstream_info(const nlohmann::json& driver, RunInfo base);

}  // namespace tritium::bench
