// main.cpp - `tritium-startup`: measures issue 2's startup targets on the cpu backend for
// every compile unit of the built-in suite (see startup.h and the usage page below), prints
// the table and the verdict, and exits 1 when a target fails. The cached-launch process is
// tritium-startup-child (child.cpp), built beside it.
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
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
    tritium-startup [--filter TEXT] [--repeat N] [--cold-repeat N] [--kernels-dir DIR]
                    [--keep-cache] [--compile-target S] [--launch-target MS] [--list]
                    [--no-progress]

DESCRIPTION
    For every distinct (file, function, signature) that `tritium bench` compiles
    (all kernels, all dtypes, small and large cases), on the cpu backend:

    cold compile   Module::from_file + Kernel::compile with an empty private cache
                   directory (a new one each time), wall time; the median of
                   --cold-repeat compiles. Separately timed: the
                   frontend and pass pipeline (Module::from_file + Kernel::ir) and
                   the C++ compiler alone (re-run on the generated source).
    cached launch  N fresh processes (tritium-startup-child, beside this program,
                   linked with tritium alone as a user's program is) with that warm
                   cache: load the module, compile (a disk-cache hit; checked),
                   allocate tiny buffers, launch once on grid (1, 1, 1),
                   synchronize. Reported as medians over the N runs: spawn to
                   exit (judged), spawn to after the launch, and in the child
                   main() to after the launch; plus the child's compile time.

    Repetitions go in rounds over all units (not one unit's in a row), so a burst
    of load from other processes disturbs one sample of many units rather than
    the median of one. The last line says how busy other processes kept the
    machine meanwhile.

    Then the max and median over units, and PASS/FAIL against the targets: the
    max cold compile under --compile-target, the max cached launch (spawn to
    exit) under --launch-target. The C++ compiler is $CXX, else the one tritium
    was built with. Speed depends on load: run it on an idle machine.

OPTIONS
    --filter TEXT        only units whose first case id contains TEXT
    --repeat N           cached-launch processes per unit (default 5)
    --cold-repeat N      cold compiles per unit (default 3)
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
  int repeat = 5, cold_repeat = 3;
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
      "load average {:.2f} {:.2f} {:.2f}; per unit: median of {} cold compiles, of {} cached-launch processes;\n"
      "caches under {}\n\n",
      tritium::version(), m.cpu_model, m.threads, cxx, load[0], load[1], load[2], o.cold_repeat, o.repeat, cache_base);
}

void progress(const Options& o, const std::string& line) {
  if (!o.no_progress) fmt::print(stderr, "{}\n", line);
}

/// CPU time of the whole machine (/proc/stat, all cores) and of this process and its
/// waited-for children, in seconds, with the wall clock.
struct CpuSample {
  double machine_busy_s = 0, machine_total_s = 0, ours_s = 0, wall_s = 0;
};

CpuSample cpu_sample() {
  CpuSample c;
  if (FILE* f = std::fopen("/proc/stat", "r")) {
    unsigned long long v[8] = {};
    if (std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
                    &v[7]) == 8) {
      const double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
      double total = 0;
      for (unsigned long long x : v) total += static_cast<double>(x);
      c.machine_total_s = total / hz;
      c.machine_busy_s = (total - static_cast<double>(v[3] + v[4])) / hz;  // minus idle and iowait
    }
    std::fclose(f);
  }
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage ru{};
    getrusage(who, &ru);
    c.ours_s += ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  }
  c.wall_s = 1e-9 * static_cast<double>(monotonic_ns());
  return c;
}

/// How busy other processes kept the machine while we measured (the noise on the figures).
std::string contention_line(const CpuSample& a, const CpuSample& b) {
  const double wall = b.wall_s - a.wall_s;
  if (wall <= 0 || b.machine_total_s <= a.machine_total_s) return "";
  const double cores = (b.machine_total_s - a.machine_total_s) / wall;
  const double other = std::max(0.0, (b.machine_busy_s - a.machine_busy_s) - (b.ours_s - a.ours_s)) / wall;
  return fmt::format("run: {:.0f} s wall; other processes kept {:.2f} of {:.0f} cores busy on average{}\n", wall,
                     other, cores, other > 0.2 ? " (measurements disturbed: rerun on an idle machine)" : "");
}

}  // namespace

int main(int argc, char** argv) {

  Options o;
  CLI::App app{"tritium-startup", "tritium-startup"};
  app.set_help_flag();
  app.add_flag("-h,--help", o.help);
  app.add_option("--filter", o.filter);
  app.add_option("--repeat", o.repeat);
  app.add_option("--cold-repeat", o.cold_repeat);
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
  if (o.repeat < 1 || o.cold_repeat < 1) {
    fmt::print(stderr, "tritium-startup: error: --repeat and --cold-repeat must be >= 1\n");
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
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    fmt::print(stderr, "tritium-startup: error: cannot resolve /proc/self/exe: {}\n", ec.message());
    return 1;
  }
  const std::string exe = (self.parent_path() / "tritium-startup-child").string();  // built beside this one
  if (!fs::exists(exe)) {
    fmt::print(stderr, "tritium-startup: error: {} is missing (built with tritium-startup)\n", exe);
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

  // Rounds over all units rather than all repetitions of one unit in a row, so a burst of
  // load from other processes spreads over many units' samples instead of one unit's median.
  const CpuSample before = cpu_sample();
  std::vector<UnitResult> results(units.size());
  std::vector<std::vector<ColdCompile>> colds(units.size());
  for (int rep = 0; rep < o.cold_repeat; ++rep)
    for (size_t i = 0; i < units.size(); ++i) {
      const fs::path root = base / fmt::format("u{:03}", i) / fmt::format("c{}", rep);
      colds[i].push_back(measure_cold_compile(units[i], o.kernels_dir, root));
      progress(o, fmt::format("cold compile {}/{} [{}/{}] {}: {:.3f} s{}", rep + 1, o.cold_repeat, i + 1,
                              units.size(), units[i].case_id, colds[i].back().total_s, colds[i].back().ok ? "" : " (FAILED)"));
    }
  for (size_t i = 0; i < units.size(); ++i) {
    results[i].unit = units[i];
    results[i].cold = median_cold(colds[i]);
  }
  for (int rep = 0; rep < o.repeat; ++rep)
    for (size_t i = 0; i < units.size(); ++i) {
      if (!results[i].cold.ok) continue;
      results[i].runs.push_back(run_cached_launch(exe, units[i], o.kernels_dir, base / fmt::format("u{:03}", i) / "c0"));
      const ChildRun& c = results[i].runs.back();
      progress(o, fmt::format("cached launch {}/{} [{}/{}] {}: {:.2f} ms{}", rep + 1, o.repeat, i + 1, units.size(),
                              units[i].case_id, c.exec_to_exit_ms, c.ok ? "" : " (FAILED)"));
    }
  const CpuSample after = cpu_sample();

  fmt::print("{}", format_report(results, o.targets));
  fmt::print("{}", contention_line(before, after));
  if (o.keep_cache) fmt::print("caches kept under {}\n", base.string());
  else fs::remove_all(base, ec);
  return exit_status(judge(results, o.targets));
}
