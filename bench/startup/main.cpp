// main.cpp - `tritium-startup`: measures issue 2's startup targets on the cpu backend for
// every compile unit of the built-in suite (see startup.h and the usage page below), prints
// the table and the verdict, and exits 1 when a target fails. `--child` (hidden) is the
// cached-launch process it re-executes itself as.
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <tritium/tritium.h>

#include "bench/membw.h"
#include "bench/startup/startup.h"
#include "bench/startup/startup_report.h"
#include "bench/suite.h"
#include "runtime/cpu/compiler.h"

namespace {

namespace fs = std::filesystem;
using namespace tritium::bench;
using namespace tritium::bench::startup;

const char* const kUsage = R"(NAME
    tritium-startup - measure cold-compile and cached-launch startup times (cpu)

SYNOPSIS
    tritium-startup [--filter TEXT] [--repeat N] [--kernels-dir DIR] [--keep-cache]
                    [--compile-target S] [--launch-target MS] [--list] [--no-progress]

DESCRIPTION
    For every distinct (file, function, signature) that `tritium bench` compiles
    (all kernels, all dtypes, small and large cases), on the cpu backend:

    cold compile   Module::from_file + Kernel::compile with an empty private cache
                   directory (one per unit), wall time. Separately timed: the
                   frontend and pass pipeline (Module::from_file + Kernel::ir) and
                   the C++ compiler alone (re-run on the generated source).
    cached launch  N fresh processes (this program re-executed) with that warm
                   cache: load the module, compile (a disk-cache hit; checked),
                   allocate tiny buffers, launch once on grid (1, 1, 1),
                   synchronize. Reported as medians over the N runs: spawn to
                   exit (judged), spawn to after the launch, and in the child
                   main() to after the launch; plus the child's compile time.

    Then the max and median over units, and PASS/FAIL against the targets: the
    max cold compile under --compile-target, the max cached launch (spawn to
    exit) under --launch-target. The C++ compiler is $CXX, else the one tritium
    was built with. Speed depends on load: run it on an idle machine.

OPTIONS
    --filter TEXT        only units whose first case id contains TEXT
    --repeat N           cached-launch processes per unit (default 5)
    --kernels-dir DIR    the suite's kernel files (default: $TRITIUM_KERNELS_DIR,
                         else kernels/ of the source tree)
    --keep-cache         keep the cache directories (their path is printed)
    --compile-target S   cold-compile target in seconds (default 1)
    --launch-target MS   cached-launch target in milliseconds (default 5)
    --list               print the compile units and exit
    --no-progress        no progress lines on standard error
    -h, --help           show this page

EXAMPLES
    build/bench/startup/tritium-startup
    build/bench/startup/tritium-startup --filter vector_add --repeat 20

EXIT STATUS
    0 when both targets pass; 1 when a target fails or a unit failed (compile
    error, child error, no cache hit in the child); 2 for a usage error.
)";

std::string default_kernels_dir() {
  if (const char* env = std::getenv("TRITIUM_KERNELS_DIR"); env && *env) return env;
  return std::string(TRITIUM_SOURCE_DIR) + "/kernels";
}

struct Options {
  std::string filter, kernels_dir;
  int repeat = 5;
  bool keep_cache = false, list = false, no_progress = false, help = false;
  Targets targets;
};

std::string header(const std::string& cache_base, const Options& o) {
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) != 3) load[0] = load[1] = load[2] = -1;
  std::string cxx;
  for (const std::string& w : tritium::runtime::cpu::compiler_command()) cxx += (cxx.empty() ? "" : " ") + w;
  const MachineInfo m = machine_info();
  return fmt::format(
      "tritium-startup {}: cpu backend, {} ({} threads), compiler {}\n"
      "load average {:.2f} {:.2f} {:.2f}; {} cached-launch processes per unit; caches under {}\n\n",
      tritium::version(), m.cpu_model, m.threads, cxx, load[0], load[1], load[2], o.repeat, cache_base);
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t main_ns = monotonic_ns();  // first: the child's clock starts here
  if (argc >= 2 && std::strcmp(argv[1], "--child") == 0) return child_main(argc, argv, main_ns);

  Options o;
  CLI::App app{"tritium-startup", "tritium-startup"};
  app.set_help_flag();
  app.add_flag("-h,--help", o.help);
  app.add_option("--filter", o.filter);
  app.add_option("--repeat", o.repeat);
  app.add_option("--kernels-dir", o.kernels_dir);
  app.add_flag("--keep-cache", o.keep_cache);
  app.add_option("--compile-target", o.targets.compile_s);
  app.add_option("--launch-target", o.targets.launch_ms);
  app.add_flag("--list", o.list);
  app.add_flag("--no-progress", o.no_progress);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "tritium-startup: error: {}\nTry 'tritium-startup --help'.\n", e.what());
    return 2;
  }
  if (o.help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (o.repeat < 1) {
    fmt::print(stderr, "tritium-startup: error: --repeat must be >= 1, got {}\n", o.repeat);
    return 2;
  }
  if (o.kernels_dir.empty()) o.kernels_dir = default_kernels_dir();

  std::vector<CompileUnit> units = compile_units(all_cases());
  std::erase_if(units, [&](const CompileUnit& u) { return u.case_id.find(o.filter) == std::string::npos; });
  if (units.empty()) {
    fmt::print(stderr, "tritium-startup: error: no unit matches --filter '{}' (try --list)\n", o.filter);
    return 2;
  }
  if (o.list) {
    for (const CompileUnit& u : units) fmt::print("{:<32} {} `{}`  \"{}\"\n", u.case_id, u.file, u.function, u.signature);
    return 0;
  }

  std::error_code ec;
  const std::string exe = fs::read_symlink("/proc/self/exe", ec).string();
  if (ec) {
    fmt::print(stderr, "tritium-startup: error: cannot resolve /proc/self/exe: {}\n", ec.message());
    return 1;
  }
  std::string base_tmpl = (fs::temp_directory_path() / "tritium-startup-XXXXXX").string();
  if (!mkdtemp(base_tmpl.data())) {
    fmt::print(stderr, "tritium-startup: error: cannot create a directory under {}\n",
               fs::temp_directory_path().string());
    return 1;
  }
  const fs::path base = base_tmpl;
  fmt::print("{}", header(base.string(), o));
  std::fflush(stdout);

  std::vector<UnitResult> results;
  for (size_t i = 0; i < units.size(); ++i) {
    UnitResult r;
    r.unit = units[i];
    const fs::path root = base / fmt::format("u{:03}", i);
    r.cold = measure_cold_compile(r.unit, o.kernels_dir, root);
    if (r.cold.ok)
      for (int k = 0; k < o.repeat; ++k) r.runs.push_back(run_cached_launch(exe, r.unit, o.kernels_dir, root));
    if (!o.no_progress)
      fmt::print(stderr, "[{}/{}] {}: compile {:.3f} s, cached launch {:.2f} ms{}\n", i + 1, units.size(),
                 r.unit.case_id, r.cold.total_s, r.launch_ms(), r.ok() ? "" : " (FAILED)");
    results.push_back(std::move(r));
  }

  fmt::print("{}", format_report(results, o.targets));
  if (o.keep_cache) fmt::print("caches kept under {}\n", base.string());
  else fs::remove_all(base, ec);
  return exit_status(judge(results, o.targets));
}
