// report.h - results of a bench run and their presentation: the terminal table (with a
// header line naming the machine and its measured copy bandwidth) and the JSON file.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "membw.h"
#include "stats.h"
#include "suite.h"
#include "timing.h"
#include "tolerance.h"

namespace tritium::bench {

/// The comparison of one output array with its reference.
struct OutputCheck {
  std::string name;   ///< the output's parameter name ("out", "M", "rstd", ...)
  Tolerance tol;      ///< the tolerance it was held to
  CheckResult check;  ///< the outcome
};

/// An interleaved comparison of the case with its baseline (stats.h, timing.h).
struct Comparison {
  std::string baseline;     ///< the baseline's name ("C++ loop", "OpenBLAS sgemm")
  bool baseline_ok = false; ///< its outputs were within the case's tolerances (else not timed)
  /// Timed call by call in the same rounds (else an earlier run's samples against this
  /// run's, previous.h: no rounds, no noise floor).
  bool interleaved = true;
  std::string problem;      ///< why it was not timed ("" when it was)
  int rounds = 0;           ///< interleaved rounds timed
  int buffer_sets = 1;      ///< input / output sets rotated through, one per call in turn
  int64_t set_bytes = 0;    ///< bytes of one set (every array of the case)
  int64_t llc_bytes = 0;    ///< the last-level cache (GPU: L2) the rotation is sized against
  /// buffer_sets x set_bytes >= 2 x llc_bytes (false: a cap of the rotation was hit).
  bool cache_cold() const { return llc_bytes > 0 && int64_t{buffer_sets} * set_bytes >= 2 * llc_bytes; }
  TimingResult baseline_timing;  ///< the baseline's calls
  TimingResult again;            ///< tritium's second arm (the noise floor)
  RatioEstimate speedup;    ///< baseline time / tritium time, per round: above 1, tritium is faster
  RatioEstimate noise;      ///< tritium's second arm / its first, per round: the A-vs-A floor
};

/// The outcome of one case.
struct CaseResult {
  Case info;               ///< the case (its make function is not used by the report)
  std::string backend;     ///< backend it ran on
  bool passed = false;     ///< compiled, launched, within tolerance everywhere, guards intact
  std::string error;       ///< why it failed when the result was not even compared (compile, launch)
  std::vector<std::string> problems;  ///< further failure details (guard overwritten, input changed)
  std::vector<OutputCheck> outputs;  ///< one entry per output array
  CheckResult check;       ///< all outputs merged (worst ratio, max error)
  std::string worst_output;     ///< name of the output with the worst ratio
  std::string worst_tolerance;  ///< that output's tolerance reason
  bool timed = false;      ///< timings were taken (only for correct results)
  TimingResult timing;     ///< launch timings
  double compile_s = 0;    ///< time of the compile call (cache hits are fast)
  double setup_s = 0;      ///< time to generate inputs and references
  bool compared = false;   ///< `comparison` holds an interleaved run against the baseline
  Comparison comparison;
  /// The cache-resident ceiling (cache_ceiling.h), timed on host backends for memory-bound
  /// cases: the same kernel on `ceiling_grid` (fewer programs along x), moving
  /// `ceiling_bytes` per launch from the cache, interleaved with the same grid cut to
  /// `ceiling_small_x` programs along x (`ceiling_small_bytes`).
  bool has_ceiling = false;
  std::array<int64_t, 3> ceiling_grid{1, 1, 1};
  double ceiling_bytes = 0;
  TimingResult ceiling_timing;
  int64_t ceiling_small_x = 1;
  double ceiling_small_bytes = 0;
  TimingResult ceiling_small_timing;
};

/// Run-wide facts printed in the header and stored in the JSON.
struct RunInfo {
  MachineInfo machine;           ///< host processor
  CopyBandwidth copy;            ///< measured copy bandwidth (0 if not measured)
  std::string backend;           ///< backend name
  std::string device;            ///< the backend's device description
  std::string version;           ///< tritium version
  bool quick = false;            ///< --quick
  std::string filter;            ///< --filter
  /// The compute roof of compute-bound cases, measured in the same run: the best flop rate
  /// the vendor library (the matmul baseline: OpenBLAS on cpu) reached on any case; 0 when
  /// none ran. compute_peak_source names the library and the case.
  double compute_peak_flops = 0;
  std::string compute_peak_source;
  /// One line per backend this machine lacks, with the reason (the bench says so rather
  /// than leave them out silently).
  std::vector<std::string> absent_backends;
};

/// The vendor library's best flop rate over the compared compute-bound cases of `results`
/// (flops / the baseline's median time), and "<baseline> on <case id>"; {0, ""} when none.
std::pair<double, std::string> vendor_compute_peak(const std::vector<CaseResult>& results);

/// The compute-bound case's flop rate as a percentage of info.compute_peak_flops (0 if
/// unknown).
double percent_of_compute_peak(const CaseResult& r, const RunInfo& info);

/// Achieved bandwidth in bytes per second (0 when not timed).
double achieved_bytes_per_s(const CaseResult& r);
/// Achieved flop rate per second (0 when not timed or no flops).
double achieved_flops_per_s(const CaseResult& r);
/// Achieved bandwidth as a percentage of the measured copy bandwidth (0 if unknown).
double percent_of_copy(const CaseResult& r, const RunInfo& info);

/// The cache-resident ceiling's rate, bytes/s: the extra bytes of the larger sub-grid over
/// the extra median time it takes (ceiling_bytes - ceiling_small_bytes) / (median - small
/// median); 0 without a ceiling or when the larger was not slower (noise).
double ceiling_bytes_per_s(const CaseResult& r);

/// "1.23 ms", "456 us", "2.5 s" (three significant digits).
std::string format_seconds(double s);

/// "123 GB/s" (three significant digits; whole GB/s from 1000 up: "4212 GB/s").
std::string format_bytes_rate(double bytes_per_s);
/// "1.23 TFLOP/s" from 1e12 up, else "456 GFLOP/s" (three significant digits).
std::string format_flops_rate(double flops_per_s);

/// The throughput column: "12.3 GB/s" for memory-bound cases; "1.23 TFLOP/s" for
/// compute-bound ones (in GFLOP/s below 1 TFLOP/s, so CPU figures stay readable); "-" when
/// not timed.
std::string format_rate(const CaseResult& r);

/// The header line: machine, threads, LLC, measured copy bandwidth, backend.
std::string format_header(const RunInfo& info);

/// The results table (one row per case) followed by a summary line and, for every failed
/// case, the details (worst element, its reference, the allowed error and why; or the error
/// text).
std::string format_table(const std::vector<CaseResult>& results, const RunInfo& info);

/// Every figure of the run as JSON (machine, copy bandwidth, each case with its signature,
/// grid, bytes, flops, errors, tolerance, all timing samples and derived rates).
nlohmann::json to_json(const std::vector<CaseResult>& results, const RunInfo& info);

}  // namespace tritium::bench
