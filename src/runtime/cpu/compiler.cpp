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
#include "runtime/cache.h"


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

void compile_shared_object(const fs::path& source, const fs::path& output, bool portable,
                           const std::vector<std::string>& extra_flags) {
  std::vector<std::string> argv = compiler_command();
  for (auto& f : kernel_flags(portable)) argv.push_back(f);
  for (auto& f : extra_flags) argv.push_back(f);
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
}

}  // namespace tritium::runtime::cpu
