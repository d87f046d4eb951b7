// run.cpp - `tritium bench`: picks the backend and the cases, measures the machine's copy
// bandwidth, runs every case (progress on stderr), prints the table, writes the JSON.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <tuple>

#include <fmt/format.h>
#include <tritium/tritium.h>

#include "baselines_cuda.h"
#include "bench.h"
#include "chart.h"
#include "previous.h"
#include "exec.h"
#include "device_clock.h"
#include "membw.h"
#include "report.h"
#include "suite.h"
#include "upstream.h"

namespace tritium::bench {
namespace {

int usage_error(const std::string& msg) {
  fmt::print(stderr, "tritium bench: error: {}\n", msg);
  return 2;
}

void print_list(const std::vector<Case>& cases) {
  for (const Case& c : cases)
    fmt::print("{:<42} {:<5} grid ({}, {}, {})  {} `{}`  \"{}\"\n", c.id, c.quick ? "quick" : "", c.grid[0],
               c.grid[1], c.grid[2], c.file, c.function, c.signature);
}

// One line per stage on a terminal (overwritten in place), one line per finished case
// otherwise.
class Progress {
 public:
  Progress(bool enabled, size_t total) : enabled_(enabled), tty_(isatty(2)), total_(total) {}
  void stage(size_t i, const std::string& id, const std::string& s) {
    if (!enabled_ || !tty_) return;
    const size_t width = 24, filled = width * i / std::max<size_t>(total_, 1);
    fmt::print(stderr, "\r\033[K[{}{}] {}/{} {} ({})", std::string(filled, '#'), std::string(width - filled, '.'),
               i + 1, total_, id, s);
    std::fflush(stderr);
  }
  void done(size_t i, const CaseResult& r) {
    if (!enabled_) return;
    const std::string what = r.passed ? (r.timed ? format_seconds(r.timing.median) : "") : "FAIL";
    if (tty_) fmt::print(stderr, "\r\033[K");
    if (!tty_ || !r.passed) fmt::print(stderr, "[{}/{}] {} {}\n", i + 1, total_, r.info.id, what);
    std::fflush(stderr);
  }
  void message(const std::string& m) {
    if (enabled_) fmt::print(stderr, "{}\n", m);
  }

 private:
  bool enabled_, tty_;
  size_t total_;
};

}  // namespace

int run_bench(const BenchOptions& opts) {
  if (opts.repeat < 0) return usage_error("--repeat must be >= 1");
  nlohmann::json previous;  // --vs FILE, checked here, before anything runs
  const bool named_vs = opts.vs == "auto" || opts.vs == "none" || opts.vs == "library" || opts.vs == "upstream";
  if (!named_vs) {
    std::ifstream in(opts.vs);
    if (!in)
      return usage_error(fmt::format("--vs must be auto, library, upstream, none or an earlier run's --json file; "
                                     "cannot read '{}'",
                                     opts.vs));
    try {
      in >> previous;
    } catch (const std::exception& e) {
      return usage_error(fmt::format("--vs {}: not JSON: {}", opts.vs, e.what()));
    }
    try {
      previous_samples(previous);
      if (previous.contains("upstream")) upstream_results(previous["upstream"]);
    } catch (const std::exception& e) {
      return usage_error(fmt::format("--vs {}: {}", opts.vs, e.what()));
    }
  }
  if (!opts.dtype.empty() && opts.dtype != "fp32" && opts.dtype != "fp16" && opts.dtype != "bf16")
    return usage_error(fmt::format("--dtype must be fp32, fp16 or bf16, got '{}'", opts.dtype));
  std::vector<Case> cases = select_cases(all_cases(), opts.quick, opts.filter);
  if (!opts.dtype.empty())
    cases.erase(std::remove_if(cases.begin(), cases.end(), [&](const Case& c) { return c.dtype != opts.dtype; }),
                cases.end());
  if (cases.empty())
    return usage_error(fmt::format("no case matches{}{}{} (try --list)", opts.quick ? " --quick" : "",
                                   opts.filter.empty() ? "" : " --filter '" + opts.filter + "'",
                                   opts.dtype.empty() ? "" : " --dtype " + opts.dtype));
  if (opts.list_only) {
    print_list(cases);
    return 0;
  }

  std::string backend;
  std::unique_ptr<Device> device;
  try {
    backend = opts.backend.empty() ? Device::best_backend() : opts.backend;
    device = std::make_unique<Device>(Device::get(backend));
  } catch (const std::exception& e) {
    return usage_error(e.what());
  }

  const bool has_library = backend == "cpu" || backend == "cuda";
  if (opts.vs == "library" && !has_library)
    return usage_error(fmt::format("--vs library: the {} backend has no in-process baselines (cpu and cuda have)",
                                   backend));
  if (opts.vs == "upstream" && backend != "cuda")
    return usage_error(fmt::format("--vs upstream runs upstream Triton on an NVIDIA GPU: it needs --backend cuda, "
                                   "not {}",
                                   backend));

  Progress progress(!opts.no_progress, cases.size());
  RunInfo info;
  info.machine = machine_info();
  info.backend = backend;
  info.device = device->description();
  info.version = tritium::version();
  info.quick = opts.quick;
  info.filter = opts.filter;
  for (const BackendInfo& b : Device::list())
    if (!b.available) info.absent_backends.push_back(fmt::format("{} ({})", b.name, b.reason));
  if (host_copy_is_roofline(backend)) {
    progress.message("tritium bench: measuring memory copy bandwidth ...");
    info.copy = measure_copy_bandwidth();
  } else if (backend == "cuda") {
    progress.message("tritium bench: measuring the GPU's copy bandwidth ...");
    info.copy.bytes_per_s = measure_device_copy_bandwidth(*device);
    info.copy.buffer_bytes = size_t{1} << 30;
    info.copy.reps = 20;
    info.copy.method = "cuMemcpyDtoD on the GPU, CUDA events";
  }
  fmt::print("{}", format_header(info));
  std::fflush(stdout);

  ExecContext ctx;
  ctx.device = device.get();
  ctx.kernels_dir = opts.kernels_dir.empty() ? default_kernels_dir() : opts.kernels_dir;
  ctx.numerics.dot_tf32 = backend == "cuda";
  // The cpu baselines run on host memory (the cpu backend); cuBLAS on cuda's device memory.
  ctx.compare = (opts.vs == "auto" || opts.vs == "library") && has_library;
  // --vs FILE on cuda runs the driver too, so its LLM-sized cases are compared with FILE's.
  const bool run_driver = backend == "cuda" && (opts.vs == "auto" || opts.vs == "upstream" || !previous.is_null());
  ctx.llc_bytes = info.machine.llc_bytes;
  ctx.cache_ceiling = info.copy.bytes_per_s > 0 && host_copy_is_roofline(backend);
  ctx.threads = info.machine.threads;
  if (backend == "cuda") {
    const auto props = device->properties();
    const auto l2 = props.find("l2_cache_size");
    ctx.llc_bytes = l2 == props.end() ? 0 : l2->second;
  }
  ctx.plan.warmup = opts.warmup >= 0 ? opts.warmup : 2;
  ctx.plan.repeat = opts.repeat > 0 ? opts.repeat : 10;
  // Without --repeat/--warmup, slow cases stop after ~2 s of timed launches (3 at least)
  // and skip the warm-up when the checked launch took long.
  const bool automatic = opts.repeat <= 0 && opts.warmup < 0;
  ctx.plan.budget_s = automatic ? 2.0 : 0.0;
  // Automatic mode also warms up for 0.2 s and times for at least 0.5 s (see TimingPlan).
  ctx.plan.warmup_s = automatic ? 0.2 : 0.0;
  ctx.plan.min_time_s = automatic ? 0.5 : 0.0;

  std::vector<CaseResult> results;
  bool any_failed = false;
  for (size_t i = 0; i < cases.size(); ++i) {
    ctx.progress = [&, i](const std::string& s) { progress.stage(i, cases[i].id, s); };
    results.push_back(run_case(cases[i], ctx));
    progress.done(i, results.back());
    any_failed = any_failed || !results.back().passed;
  }

  std::tie(info.compute_peak_flops, info.compute_peak_source) = vendor_compute_peak(results);
  if (backend == "cuda" && ctx.compare) {
    // The suite's matmuls are too small to reach the GPU's compute roof: measure it.
    progress.message("tritium bench: measuring cuBLAS's bf16 rate at 8192^3 (the compute roof) ...");
    const double peak = baseline::cublas_peak_flops(*device);
    if (peak > info.compute_peak_flops) {
      info.compute_peak_flops = peak;
      info.compute_peak_source = "cuBLAS GemmEx bf16 8192x8192x8192, median of 10";
    }
  }
  if (!previous.is_null()) {
    try {
      const int n = compare_with_previous(results, previous, opts.vs);
      fmt::print("compared with {}: {} of {} cases matched (by id and backend)\n", opts.vs, n, results.size());
    } catch (const std::exception& e) {
      return usage_error(fmt::format("--vs {}: {}", opts.vs, e.what()));
    }
  }
  fmt::print("\n{}", format_table(results, info));
  std::fflush(stdout);
  const std::string stem = opts.json_path.size() > 5 && opts.json_path.ends_with(".json")
                               ? opts.json_path.substr(0, opts.json_path.size() - 5)
                               : opts.json_path;

  // On cuda, upstream Triton, torch and torch SDPA through the Python driver (upstream.h).
  nlohmann::json upstream;
  if (run_driver) {
    UpstreamOptions u;
    u.python = upstream_python();
    const std::string why = upstream_status(u.python);
    if (!why.empty()) {
      fmt::print("not run: upstream Triton, torch and torch SDPA baselines: {}\n", why);
      // Asked for by name, its absence is a failure; under auto it is a line in the report.
      if (opts.vs == "upstream") {
        fmt::print(stderr, "tritium bench: error: --vs upstream: {}\n", why);
        any_failed = true;
      }
    } else {
      u.kernels_dir = ctx.kernels_dir;
      u.library = tritium_c_library();
      u.quick = opts.quick;
      u.only = opts.filter;  // the driver's ids are "kernel/dtype/shape" too
      u.dtype = opts.dtype;
      char tmp[] = "/tmp/tritium-upstream-XXXXXX.json";
      if (stem.empty()) {
        const int fd = ::mkstemps(tmp, 5);
        if (fd >= 0) ::close(fd);
        u.json_path = tmp;
      } else {
        u.json_path = stem + ".upstream.json";
      }
      fmt::print("\nupstream Triton, tritium and the library on the same GPU (kernels/tools/bench_upstream.py{}):\n",
                 u.library.empty() ? "; libtritium_c.so not found, tritium left out" : "");
      std::fflush(stdout);
      try {
        const int rc = run_upstream(u);
        any_failed = any_failed || rc != 0;
        std::ifstream in(u.json_path);
        if (in) in >> upstream;
        if (upstream.is_null()) {
          fmt::print(stderr, "tritium bench: error: the upstream driver exited {} without writing {}\n", rc,
                     u.json_path);
          any_failed = true;
        } else if (!previous.is_null()) {
          if (!previous.contains("upstream"))
            fmt::print("{} has no upstream section: the driver's cases are not compared with it\n", opts.vs);
          else
            fmt::print("{}", format_upstream_vs_previous(upstream, previous["upstream"], opts.vs));
        }
      } catch (const std::exception& e) {
        fmt::print("tritium bench: upstream driver: {}\n", e.what());
        any_failed = true;
      }
      if (stem.empty()) std::remove(tmp);
    }
  }

  if (!opts.json_path.empty()) {
    std::ofstream out(opts.json_path);
    nlohmann::json doc = to_json(results, info);
    if (!upstream.is_null()) doc["upstream"] = upstream;
    // Compiler diagnostics may carry bytes that are not UTF-8: replace rather than throw.
    out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    if (!out) {
      fmt::print(stderr, "tritium bench: error: cannot write '{}'\n", opts.json_path);
      return 1;
    }
    // The charts next to the JSON: FILE.ratios.svg and FILE.roofline.svg (chart.h), and
    // FILE.upstream.ratios.svg / FILE.upstream.roofline.svg for the driver's cases.
    std::vector<std::pair<std::string, std::string>> charts = {{".ratios.svg", ratio_chart_svg(results, info)},
                                                               {".roofline.svg", roofline_svg(results, info)}};
    if (!upstream.is_null()) {
      try {
        const std::vector<CaseResult> up = upstream_results(upstream);
        const RunInfo up_info = upstream_info(upstream, info);
        charts.emplace_back(".upstream.ratios.svg", ratio_chart_svg(up, up_info));
        // One roofline bar per driver case (its two comparisons share tritium's timing).
        std::vector<CaseResult> roof;
        for (const CaseResult& r : up)
          if (roof.empty() || roof.back().info.id != r.info.id) roof.push_back(r);
        charts.emplace_back(".upstream.roofline.svg", roofline_svg(roof, up_info));
      } catch (const std::exception& e) {
        fmt::print(stderr, "tritium bench: {}\n", e.what());
        any_failed = true;
      }
    }
    for (const auto& [suffix, svg] : charts) {
      if (svg.empty()) continue;
      std::ofstream chart(stem + suffix);
      chart << svg;
      chart.close();
      if (!chart) {
        fmt::print(stderr, "tritium bench: error: cannot write '{}'\n", stem + suffix);
        any_failed = true;
        continue;
      }
      fmt::print("chart: {}\n", stem + suffix);
    }
  }
  return any_failed ? 1 : 0;
}

}  // namespace tritium::bench
