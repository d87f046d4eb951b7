// upstream.cpp - running kernels/tools/bench_upstream.py and reading its JSON (upstream.h).
#include "upstream.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "common/process_environ.h"

namespace fs = std::filesystem;

namespace tritium::bench {
namespace {

// Spawns argv (no shell); `quiet` sends its stdout and stderr to /dev/null. Returns the exit
// status (128 + signal when killed).
int spawn_and_wait(const std::vector<std::string>& argv, bool quiet) {
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  if (quiet) {
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
  }
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, cargv[0], &fa, nullptr, cargv.data(), process_environ());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error(fmt::format("cannot run '{}': {}", argv[0], std::strerror(rc)));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error(fmt::format("waitpid failed: {}", std::strerror(errno)));
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

const nlohmann::json& at(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key))
    throw std::runtime_error(fmt::format("upstream driver JSON: {} has no '{}'", where, key));
  return j.at(key);
}

// An arm's samples, summarized; a timed arm without samples is a malformed document.
TimingResult samples_of(const nlohmann::json& arm, const std::string& where) {
  const nlohmann::json& s = at(arm, "samples_s", where);
  if (!s.is_array() || s.empty()) throw std::runtime_error("upstream driver JSON: " + where + " has an arm without samples");
  std::vector<double> v;
  for (const auto& x : s) {
    if (!x.is_number()) throw std::runtime_error("upstream driver JSON: " + where + " has a sample that is not a number");
    v.push_back(x.get<double>());
  }
  return summarize(std::move(v));
}

RatioEstimate ratio_of(const nlohmann::json& r) {
  RatioEstimate e;
  e.median = r.value("median", 0.0);
  e.lo = r.value("lo", 0.0);
  e.hi = r.value("hi", 0.0);
  e.pairs = r.value("pairs", 0);
  return e;
}

std::string shape_text(const nlohmann::json& shape) {
  std::string s;
  for (const auto& d : shape) s += (s.empty() ? "" : "x") + std::to_string(d.get<int64_t>());
  return s;
}

// "float16" -> "fp16" (the bench's names).
std::string dtype_text(const std::string& torch_name) {
  if (torch_name == "float32") return "fp32";
  if (torch_name == "float16") return "fp16";
  if (torch_name == "bfloat16") return "bf16";
  return torch_name;
}

}  // namespace

std::string upstream_python() {
  const char* p = std::getenv("TRITIUM_PYTHON");
  return p && *p ? p : "python3";
}

std::string upstream_status(const std::string& python) {
  const std::vector<std::string> argv = {
      python, "-c", "import sys, torch, triton; sys.exit(0 if torch.cuda.is_available() else 3)"};
  int rc = 0;
  try {
    rc = spawn_and_wait(argv, true);
  } catch (const std::exception& e) {
    return fmt::format("{} (set TRITIUM_PYTHON to an interpreter with torch and triton)", e.what());
  }
  if (rc == 0) return "";
  if (rc == 3) return fmt::format("torch under {} sees no CUDA device", python);
  return fmt::format("{} cannot import torch and triton (set TRITIUM_PYTHON to an interpreter that can)", python);
}

std::string tritium_c_library() {
  if (const char* p = std::getenv("TRITIUM_C_LIBRARY"); p && *p) return fs::exists(p) ? p : "";
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  const fs::path lib = exe.parent_path() / "capi" / "libtritium_c.so";
  return fs::exists(lib, ec) ? lib.string() : "";
}

std::vector<std::string> upstream_command(const UpstreamOptions& o) {
  std::vector<std::string> argv = {o.python, (fs::path(o.kernels_dir) / "tools" / "bench_upstream.py").string(),
                                   "--json", o.json_path};
  if (!o.library.empty()) argv.insert(argv.end(), {"--tritium", o.library});
  if (o.quick) argv.push_back("--quick");
  if (!o.only.empty()) argv.insert(argv.end(), {"--only", o.only});
  if (!o.dtype.empty()) argv.insert(argv.end(), {"--dtype", o.dtype});
  return argv;
}

int run_upstream(const UpstreamOptions& o) {
  if (o.json_path.empty()) throw std::invalid_argument("run_upstream: json_path is required");
  return spawn_and_wait(upstream_command(o), false);
}

std::vector<CaseResult> upstream_results(const nlohmann::json& driver) {
  const std::string triton_name = "Triton " + driver.value("triton", std::string("?"));
  std::vector<CaseResult> out;
  for (const nlohmann::json& c : at(driver, "cases", "the document")) {
    const std::string kernel = at(c, "kernel", "a case").get<std::string>();
    const std::string where = "case " + kernel;
    Case info;
    info.kernel = kernel;
    info.shape = shape_text(at(c, "shape", where));
    info.dtype = dtype_text(at(c, "dtype", where).get<std::string>());
    info.file = "upstream";
    info.memory_bound = at(c, "unit", where).get<std::string>() == "GB/s";
    info.bytes = at(c, "bytes", where).get<double>();
    info.flops = at(c, "flops", where).get<double>();
    const std::string library = at(c, "baseline", where).get<std::string>();
    const nlohmann::json& arms = at(c, "arms", where);
    const nlohmann::json& ratios = at(c, "ratios", where);
    const bool has_tritium = arms.contains("tritium");

    CaseResult base;
    base.info = info;
    base.backend = "cuda";
    base.passed = true;
    for (const auto& [arm, check] : at(c, "checks", where).items()) {
      if (at(check, "ok", where).get<bool>()) continue;
      base.passed = false;
      const std::string err = check.value("error", std::string());
      base.problems.push_back(err.empty() ? fmt::format("{}: relative error {} over bound {}", arm,
                                                         check.at("rel_err").is_null() ? std::string("NaN/Inf")
                                                                                       : check.at("rel_err").dump(),
                                                         check.value("bound", 0.0))
                                          : fmt::format("{}: {}", arm, err));
    }
    const std::string first = has_tritium ? "tritium" : "triton";
    base.timed = at(c, "timed", where).get<bool>() && arms.contains(first);
    if (base.timed) base.timing = samples_of(arms.at(first), where);

    // `against_arm`: the arm the ratio is taken against ("triton" or the library's).
    auto compared = [&](const std::string& against_arm, const std::string& against, const char* ratio_key) {
      CaseResult r = base;
      r.info.id = fmt::format("{}/{}/{}", kernel, r.info.dtype, r.info.shape);
      if (!r.timed || !ratios.contains(ratio_key)) return r;
      r.compared = true;
      Comparison& cmp = r.comparison;
      cmp.baseline = against;
      cmp.baseline_ok = true;
      cmp.rounds = c.value("rounds", 0);
      if (arms.contains(against_arm))
        cmp.baseline_timing = samples_of(arms.at(against_arm), where);
      const std::string noise_arm = first + "'";
      if (arms.contains(noise_arm))
        cmp.again = samples_of(arms.at(noise_arm), where);
      cmp.speedup = ratio_of(ratios.at(ratio_key));
      if (ratios.contains("noise")) cmp.noise = ratio_of(ratios.at("noise"));
      return r;
    };
    if (has_tritium) {
      out.push_back(compared("triton", triton_name, "tritium_vs_triton"));
      out.push_back(compared(library, library, "tritium_vs_baseline"));
    } else {
      CaseResult r = compared(library, library, "triton_vs_baseline");
      r.info.id = fmt::format("{}/{}/{} (Triton)", kernel, r.info.dtype, r.info.shape);
      out.push_back(r);
    }
  }
  return out;
}

std::string format_upstream_vs_previous(const nlohmann::json& now, const nlohmann::json& before,
                                        const std::string& label) {
  // tritium's samples by id: the "vs Triton" results carry them (the first of each pair).
  const auto tritium_samples = [](const nlohmann::json& doc) {
    std::map<std::string, std::vector<double>> m;
    for (const CaseResult& r : upstream_results(doc))
      if (r.timed && r.comparison.baseline.rfind("Triton", 0) == 0 && !m.count(r.info.id))
        m[r.info.id] = r.timing.samples;
    return m;
  };
  const auto a = tritium_samples(before), b = tritium_samples(now);
  std::string out = fmt::format("\ntritium in the driver's cases against {} (earlier median / this median, unpaired "
                                "bootstrap 95% interval; above 1: this run faster):\n",
                                label);
  int matched = 0;
  for (const auto& [id, samples] : b) {
    const auto it = a.find(id);
    if (it == a.end()) continue;
    ++matched;
    const RatioEstimate e = unpaired_ratio(it->second, samples, 1);
    out += fmt::format("  {:<36} {:>10} -> {:>10}  {:.3f}x [{:.3f}, {:.3f}]\n", id, format_seconds(median_of(it->second)),
                       format_seconds(median_of(samples)), e.median, e.lo, e.hi);
  }
  if (matched == 0) out += "  no case of this run is in the earlier file\n";
  return out;
}

RunInfo upstream_info(const nlohmann::json& driver, RunInfo base) {
  base.copy.bytes_per_s = at(driver, "copy_bytes_per_s", "the document").get<double>();
  base.copy.buffer_bytes = size_t{1} << 30;
  base.copy.reps = 20;
  base.copy.method = "torch copy_ of 1 GiB on the GPU, CUDA events";
  base.compute_peak_flops = at(driver, "compute_peak_flops", "the document").get<double>();
  base.compute_peak_source = driver.value("compute_peak_source", std::string());
  base.device = driver.value("gpu", base.device);
  return base;
}

}  // namespace tritium::bench
