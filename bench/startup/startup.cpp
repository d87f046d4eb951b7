// startup.cpp - compile units of the suite, the cold-compile measurement, and the parent
// side of the cached-launch child process (see startup.h; the child is child.cpp).
#include "bench/startup/startup.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <sstream>
#include <tuple>

#include <fmt/format.h>
#include <tritium/tritium.h>

#include "bench/timing.h"
#include "runtime/cache.h"
#include "runtime/cpu/compiler.h"
#include "runtime/cpu/cpu_device.h"

extern char** environ;

namespace tritium::bench::startup {
namespace fs = std::filesystem;

namespace {

double seconds_since(int64_t start_ns) { return static_cast<double>(monotonic_ns() - start_ns) * 1e-9; }

/// Regular files below `root`, skipping the cache's scratch directory ROOT/tmp.
std::vector<fs::path> cache_files(const fs::path& root) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_directory() && it->path().filename() == "tmp" && it.depth() == 0) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) out.push_back(it->path());
  }
  return out;
}

/// The value of "key=" in a line of space-separated key=value pairs (0 when missing).
int64_t field(const std::string& line, const std::string& key) {
  const std::string k = " " + key + "=";
  const size_t p = line.find(k);
  return p == std::string::npos ? 0 : std::strtoll(line.c_str() + p + k.size(), nullptr, 10);
}

}  // namespace

int64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

std::vector<CompileUnit> compile_units(const std::vector<Case>& cases) {
  std::vector<CompileUnit> out;
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  for (const Case& c : cases) {
    if (!seen.insert({c.file, c.function, c.signature}).second) continue;
    out.push_back(CompileUnit{c.kernel, c.dtype, c.id, c.file, c.function, c.signature});
  }
  return out;
}

ColdCompile measure_cold_compile(const CompileUnit& u, const std::string& kernels_dir, const fs::path& cache_root) {
  ColdCompile r;
  const std::string path = (fs::path(kernels_dir) / u.file).string();
  try {
    if (!cache_files(cache_root).empty()) throw Error(ErrorKind::Usage, "cache directory is not empty: " + cache_root.string());
    // A private device, so its on-disk cache is `cache_root` whatever TRITIUM_CACHE_DIR says.
    Device device(std::shared_ptr<runtime::Device>(runtime::cpu::make_cpu_device({cache_root})));
    const uint64_t builds_before = runtime::cpu::cpu_compile_counters().builds;

    int64_t t = monotonic_ns();
    {
      Module m = Module::from_file(path);
      CompiledKernel k = m.kernel(u.function).compile(device, u.signature);
      r.total_s = seconds_since(t);
      r.source_bytes = k.source().size();
    }
    if (runtime::cpu::cpu_compile_counters().builds != builds_before + 1)
      throw Error(ErrorKind::Internal, "the cold compile did not run the C++ compiler exactly once");

    t = monotonic_ns();
    {
      Module m = Module::from_file(path);
      (void)m.kernel(u.function).ir(u.signature);
    }
    r.frontend_s = seconds_since(t);

    const std::vector<fs::path> files = cache_files(cache_root);
    r.cache_entries = static_cast<int>(files.size());
    fs::path source;
    for (const fs::path& f : files)
      if (f.extension() == ".cpp") source = f;
    if (source.empty()) throw Error(ErrorKind::Internal, "no generated .cpp entry in " + cache_root.string());
    runtime::DiskCache cache(cache_root);
    const fs::path scratch = cache.make_scratch_dir();
    t = monotonic_ns();
    runtime::cpu::compile_shared_object(source, scratch / "kernel.so", false);
    r.cxx_s = seconds_since(t);
    std::error_code ec;
    fs::remove_all(scratch, ec);
    r.ok = true;
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return r;
}

ColdCompile median_cold(const std::vector<ColdCompile>& runs) {
  ColdCompile m;
  if (runs.empty()) {
    m.error = "not measured";
    return m;
  }
  m = runs.front();
  std::vector<double> total, frontend, cxx;
  for (const ColdCompile& r : runs) {
    if (!r.ok && m.ok) {
      m.ok = false;
      m.error = r.error;
    }
    total.push_back(r.total_s);
    frontend.push_back(r.frontend_s);
    cxx.push_back(r.cxx_s);
  }
  m.total_s = median_of(total);
  m.frontend_s = median_of(frontend);
  m.cxx_s = median_of(cxx);
  return m;
}

ChildRun run_cached_launch(const std::string& exe, const CompileUnit& u, const std::string& kernels_dir,
                           const fs::path& cache_root) {
  ChildRun r;
  const std::string path = (fs::path(kernels_dir) / u.file).string();
  std::vector<std::string> argv_s = {exe, path, u.function, u.signature};
  std::vector<std::string> env_s;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "TRITIUM_CACHE_DIR=", 18) != 0) env_s.emplace_back(*e);
  env_s.push_back("TRITIUM_CACHE_DIR=" + cache_root.string());
  std::vector<char*> argv, envp;
  for (auto& s : argv_s) argv.push_back(s.data());
  for (auto& s : env_s) envp.push_back(s.data());
  argv.push_back(nullptr);
  envp.push_back(nullptr);

  const std::string log = cache_root.string() + ".child.out";
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);

  pid_t pid = 0;
  const int64_t spawn_ns = monotonic_ns();
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), envp.data());
  int status = 0;
  if (rc == 0)
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  const int64_t exit_ns = monotonic_ns();
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    r.error = fmt::format("cannot run '{}': {}", exe, std::strerror(rc));
    return r;
  }

  const std::string out = runtime::read_file_bytes(log).value_or("");
  std::error_code ec;
  fs::remove(log, ec);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  const size_t at = out.find("tritium-startup-child ");
  if (code != 0 || at == std::string::npos) {
    r.error = fmt::format("child exited with status {}: {}", code, out);
    return r;
  }
  const std::string line = out.substr(at, out.find('\n', at) - at);
  const int64_t main_ns = field(line, "main_ns"), compiled_ns = field(line, "compiled_ns"),
                launched_ns = field(line, "launched_ns");
  auto ms = [](int64_t ns) { return static_cast<double>(ns) * 1e-6; };
  r.exec_to_main_ms = ms(main_ns - spawn_ns);
  r.main_to_launched_ms = ms(launched_ns - main_ns);
  r.exec_to_launched_ms = ms(launched_ns - spawn_ns);
  r.exec_to_exit_ms = ms(exit_ns - spawn_ns);
  r.compile_ms = ms(compiled_ns - field(line, "loading_ns"));
  r.cache_hits = static_cast<uint64_t>(field(line, "hits"));
  r.builds = static_cast<uint64_t>(field(line, "builds"));
  r.input_hits = static_cast<uint64_t>(field(line, "input_hits"));
  r.ok = true;
  return r;
}

}  // namespace tritium::bench::startup
