// `tritium bench`: parses the benchmark options and hands them to the benchmark library
// (bench/bench.h, target tritium_bench), which runs, checks and times the built-in suite.
#include <fmt/format.h>

#include "cli/commands.h"

namespace tritium::cli {

void declare_bench(CLI::App& cmd, BenchArgs& a) {
  bench::BenchOptions& o = a.options;
  cmd.add_flag("-h,--help", a.help);
  cmd.add_option("--backend", o.backend);
  cmd.add_option("--filter", o.filter);
  cmd.add_flag("--quick", o.quick);
  cmd.add_option("--dtype", o.dtype);
  cmd.add_option("--vs", o.vs);
  cmd.add_option("--json", o.json_path);
  cmd.add_option("--repeat", o.repeat);
  cmd.add_option("--warmup", o.warmup);
  cmd.add_flag("--list", o.list_only);
  cmd.add_flag("--no-progress", o.no_progress);
  cmd.add_option("--kernels-dir", o.kernels_dir);
}

int run_bench_command(const BenchArgs& a) {
  if (a.options.repeat < 0) {
    fmt::print(stderr, "tritium bench: error: --repeat must be >= 0, got {}\n", a.options.repeat);
    return 2;
  }
  return bench::run_bench(a.options);
}

}  // namespace tritium::cli
