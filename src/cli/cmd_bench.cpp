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
  // Given, they must be meaningful; left out, they keep BenchOptions' "automatic" values.
  cmd.add_option("--repeat", o.repeat)->check(CLI::PositiveNumber);
  cmd.add_option("--warmup", o.warmup)->check(CLI::NonNegativeNumber);
  cmd.add_flag("--list", o.list_only);
  cmd.add_flag("--no-progress", o.no_progress);
  cmd.add_option("--kernels-dir", o.kernels_dir);
}

int run_bench_command(const BenchArgs& a) {
  return bench::run_bench(a.options);
}

}  // namespace tritium::cli
