#include "runtime/cpu/compiler.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "common/process_environ.h"
#include "frontend/source.h"
#include "runtime/cache.h"
#include "runtime/cpu/thread_pool.h"


#ifndef TRITIUM_CXX_COMPILER
#define TRITIUM_CXX_COMPILER "c++"
#endif

namespace tritium::runtime::cpu {
namespace fs = std::filesystem;

namespace {

/// Transcendental libm functions the generated code calls; see the file comment of compiler.h.
constexpr const char* kNoBuiltin[] = {
    "exp",   "expf",   "exp2",  "exp2f",  "log",    "logf",   "log2",   "log2f",  "sin",   "sinf",
    "cos",   "cosf",   "erf",   "erff",   "tanh",   "tanhf",  "log1p",  "log1pf", "expm1", "expm1f",
    "pow",   "powf",   "erfc",  "erfcf",  "tan",    "tanf",   "atan",   "atanf",  "atan2", "atan2f",
    "asin",  "asinf",  "acos",  "acosf",  "sinh",   "sinhf",  "cosh",   "coshf",  "exp10", "exp10f",
    "log10", "log10f", "cbrt",  "cbrtf",  "hypot",  "hypotf",
};

std::string resolve_on_path(const std::string& prog) {
  if (prog.find('/') != std::string::npos) return prog;
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    fs::path p = fs::path(dir) / prog;
    if (::access(p.c_str(), X_OK) == 0) return p.string();
  }
  return prog;
}

}  // namespace

std::vector<std::string> compiler_command() {
  std::string cmd;
  if (const char* cxx = std::getenv("CXX"); cxx && *cxx) cmd = cxx;
  else cmd = TRITIUM_CXX_COMPILER;
  std::vector<std::string> out;
  std::stringstream ss(cmd);
  std::string word;
  while (ss >> word) out.push_back(word);
  if (out.empty()) out.push_back("c++");
  return out;
}

const std::string& compiler_identity() {
  static const std::string id = [] {
    std::string s;
    for (auto& w : compiler_command()) {
      s += w + " ";
      if (w.empty() || w[0] == '-') continue;
      std::error_code ec;
      fs::path real = fs::canonical(resolve_on_path(w), ec);
      if (ec) continue;
      struct stat st {};
      if (::stat(real.c_str(), &st) == 0)
        s += fmt::format("[{} size={} mtime={}] ", real.string(), static_cast<long long>(st.st_size),
                         static_cast<long long>(st.st_mtime));
    }
    return s;
  }();
  return id;
}

const std::string& host_cpu_identity() {
  static const std::string id = [] {
    std::ifstream in("/proc/cpuinfo");
    std::string line, model, flags;
    while (std::getline(in, line)) {
      if (model.empty() && line.rfind("model name", 0) == 0) model = line;
      if (flags.empty() && (line.rfind("flags", 0) == 0 || line.rfind("Features", 0) == 0)) flags = line;
      if (!model.empty() && !flags.empty()) break;
    }
    return model + "\n" + flags;
  }();
  return id;
}

bool is_gnu_compiler(const std::vector<std::string>& command) {
  // The compiler is the last word that is not an option ("ccache g++ -m64" -> g++), named
  // by the file it resolves to: Debian's c++ -> /etc/alternatives -> x86_64-linux-gnu-g++-12.
  for (auto it = command.rbegin(); it != command.rend(); ++it) {
    if (it->empty() || (*it)[0] == '-') continue;
    std::error_code ec;
    fs::path real = fs::canonical(resolve_on_path(*it), ec);
    const std::string name = (ec ? fs::path(*it) : real).filename().string();
    if (name.find("clang") != std::string::npos) return false;
    return name.find("g++") != std::string::npos || name.find("gcc") != std::string::npos;
  }
  return false;
}

std::vector<std::string> kernel_flags(bool portable) {
  (void)portable;
#if defined(__aarch64__)  // Apple clang on arm64 takes -mcpu=native, not -march=native
  const char* native = "-mcpu=native";
#else
  const char* native = "-march=native";
#endif
  std::vector<std::string> f = {"-std=gnu++20",        "-O3",           native,   "-fPIC",
                                "-shared",             "-ffp-contract=off", "-fno-fast-math", "-fno-math-errno",
                                "-fno-trapping-math",  "-fvisibility=hidden", "-w"};
  for (const char* fn : kNoBuiltin) f.push_back(std::string("-fno-builtin-") + fn);
#if defined(__x86_64__)
  // Where -march=native has AVX-512, use all of it: GCC 12 defaults to 256-bit vectors there,
  // and the fp16/bf16 conversion loops are compute-bound at that width (measured 2026-12-01
  // on the 2-core Xeon CI machine: fp16 vector add 12.2 ms vs 16.2 ms at 2^25 elements).
  f.push_back("-mprefer-vector-width=512");
#endif
  // GCC's complete peeling replaces a loop of known trip count by copies of its body while
  // the copies stay under max-completely-peeled-insns (default 200) instructions. The
  // generated code's block loops (rows of 16 lanes, reduction trees, tails of conversion
  // loops) all qualify, and each copy is then optimised again: most of a cold compile of
  // the attention kernels. At 100 the worst suite kernel (attention, causal, fp16 / bf16,
  // 2x2x100x128) compiles in ~0.65 s instead of ~1.0 s with run times unchanged within
  // the noise of an interleaved A/B; a limit on the copies instead
  // (max-completely-peel-times=4) compiled faster still but made attention bf16
  // 1x4x1024x128 5 % slower (docs/perf/2026-12-06-cpu-cold-compile.md). Clang has no such
  // parameter.
  static const bool gnu = is_gnu_compiler(compiler_command());
  if (gnu) f.push_back("--param=max-completely-peeled-insns=100");
  return f;
}

ProcessResult run_process(const std::vector<std::string>& argv, const fs::path& log) {
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid;
  int rc = posix_spawnp(&pid, cargv[0], &fa, nullptr, cargv.data(), process_environ());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot run '" + argv[0] + "': " + std::strerror(rc));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed: " + std::string(std::strerror(errno)));
  }
  ProcessResult r;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) r.exit_code = 128 + WTERMSIG(status);
  r.output = read_file_bytes(log).value_or("");
  return r;
}

StackUsage parse_stack_usage(const std::string& report) {
  StackUsage s;
  std::istringstream in(report);
  std::string line;
  while (std::getline(in, line)) {
    // "file:line:col:function<TAB>bytes<TAB>qualifier"; the function's text may hold ':'.
    const size_t t1 = line.find('\t');
    if (t1 == std::string::npos) continue;
    const size_t t2 = line.find('\t', t1 + 1);
    const std::string num = line.substr(t1 + 1, t2 == std::string::npos ? std::string::npos : t2 - t1 - 1);
    const std::string qual = t2 == std::string::npos ? std::string() : line.substr(t2 + 1);
    int64_t bytes = 0;
    try {
      size_t used = 0;
      bytes = std::stoll(num, &used);
      if (used != num.size() || bytes < 0) continue;
    } catch (const std::exception&) {
      continue;
    }
    s.measured = true;
    if (qual.rfind("dynamic", 0) == 0 && qual != "dynamic,bounded") s.bounded = false;
    s.bytes += bytes;
    if (bytes > s.largest_bytes) {
      std::string where = line.substr(0, t1);
      // Drop "file:line:col:" (three fields) to keep the function's name.
      size_t at = std::string::npos, from = 0;
      for (int k = 0; k < 3; ++k) {
        at = where.find(':', from);
        if (at == std::string::npos) break;
        from = at + 1;
      }
      std::string name = at == std::string::npos ? where : where.substr(from);
      // "void tr_program(float*, int)" -> "tr_program": the name, without return type and
      // parameters (generated signatures are long).
      name = name.substr(0, name.find('('));
      if (const size_t sp = name.rfind(' '); sp != std::string::npos) name = name.substr(sp + 1);
      s.largest = name;
      s.largest_bytes = bytes;
    }
  }
  return s;
}

std::string stack_usage_line(const StackUsage& s) {
  if (!s.measured) return "unmeasured";
  return fmt::format("{} {} {} {}", s.bytes, s.bounded ? 1 : 0, s.largest_bytes, s.largest);
}

std::optional<StackUsage> stack_usage_from_line(const std::string& line) {
  StackUsage s;
  if (line == "unmeasured") return s;
  std::istringstream in(line);
  int bounded = 0;
  if (!(in >> s.bytes >> bounded >> s.largest_bytes)) return std::nullopt;
  in >> std::ws;
  std::getline(in, s.largest);
  s.measured = true;
  s.bounded = bounded != 0;
  return s;
}

StackUsage compile_shared_object(const fs::path& source, const fs::path& output, bool portable,
                                 const std::vector<std::string>& extra_flags) {
  std::vector<std::string> argv = compiler_command();
  for (auto& f : kernel_flags(portable)) argv.push_back(f);
  for (auto& f : extra_flags) argv.push_back(f);
  argv.push_back("-fstack-usage");
  argv.push_back("-o");
  argv.push_back(output.string());
  argv.push_back(source.string());
  fs::path log = output;
  log += ".log";
  ProcessResult r = run_process(argv, log);
  std::error_code ec;
  fs::remove(log, ec);
  if (r.exit_code != 0) {
    std::string cmd;
    for (auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
    throw std::runtime_error("cpu backend: the C++ compiler failed (exit " + std::to_string(r.exit_code) +
                             ")\n  command: " + cmd + "\n  source kept at: " + source.string() + "\n" + r.output);
  }
  // GCC names the report after the output and the source ("kernel.so-kernel.su"), older
  // compilers after the source alone: every .su file of the output's directory is read.
  std::string report;
  for (const auto& e : fs::directory_iterator(output.parent_path(), ec))
    if (e.path().extension() == ".su") {
      std::ifstream in(e.path());
      std::stringstream ss;
      ss << in.rdbuf();
      report += ss.str();
      if (!report.empty() && report.back() != '\n') report += '\n';
    }
  return parse_stack_usage(report);
}

void check_stack(const ir::Function& fn, const StackUsage& s, int64_t available, const std::string& backend,
                 const std::string& unit, const std::string& why, const std::string& where,
                 const std::string& remedy) {
  if (!s.measured || !s.bounded || s.bytes <= available) return;
  throw frontend::CompileError(
      fn.loc, fmt::format("{}: kernel @{} needs {} bytes of stack per {} ({}; the largest frame, {}'s, is {} bytes); "
                          "{} {} — {}",
                          backend, fn.name, s.bytes, unit, why, s.largest, s.largest_bytes, where, available, remedy));
}

void check_program_stack(const ir::Function& fn, const StackUsage& s, const std::string& backend) {
  check_stack(fn, s, static_cast<int64_t>(kProgramStackBytes), backend, "program",
              "its tensors are local arrays, whole", "the worker threads have",
              "smaller blocks or fewer tensors live at once reduce it");
}

std::optional<StackUsage> cached_stack_usage(const DiskCache& cache, const std::string& key) {
  std::optional<std::string> line = cache.read(key, "stack");
  if (!line) return std::nullopt;
  return stack_usage_from_line(*line);
}

}  // namespace tritium::runtime::cpu
