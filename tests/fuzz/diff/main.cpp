// tritium_fuzz_diff: the differential fuzzer (issue 8). Generates random well-typed
// Triton-language kernels (gen.h), runs each on the IR interpreter and on every available
// backend, and fails on any difference beyond the numerics contract (diff_run.h).
//
//   tritium_fuzz_diff --count 40 --seed 1          # CI's bounded budget (ctest fuzz_diff)
//   tritium_fuzz_diff --seconds 3600 --save DIR    # on demand; failing cases saved as JSON
//   tritium_fuzz_diff --replay tests/fuzz/regressions   # saved cases (ctest fuzz_diff_regressions)
//   tritium_fuzz_diff --print 1234                 # the kernel of seed 1234
//
// Backends: interp (the reference), cpu (portable and native numerics), msl-emu and opencl
// (portable) where available, cuda where a GPU is present (portable), else the cuda
// backend's NVRTC compile where NVRTC loads (TRITIUM_NO_NVRTC=1 skips). --backends LIST
// narrows that. Exit status: 0 when every case agrees, 1 on a difference, a refusal of a
// generated kernel, or an error; 2 on bad usage.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "case_io.h"
#include "diff_run.h"
#include "gen.h"
#include "tritium/tritium.h"

namespace {

struct Options {
  uint64_t seed = 1;
  bool seed_given = false;
  int64_t count = -1;
  double seconds = -1;
  std::vector<std::string> backends;
  std::string save_dir, replay;
  bool verbose = false;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "tritium_fuzz_diff: %s\nusage: tritium_fuzz_diff [--seed N] [--count N] [--seconds S] "
               "[--backends a,b] [--save DIR] [--replay FILE|DIR] [--print SEED] [--verbose]\n",
               why.c_str());
  std::exit(2);
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

bool available(const std::string& name) {
  for (const auto& b : tritium::Device::list())
    if (b.name == name) return b.available;
  return false;
}

std::vector<std::string> default_backends() {
  std::vector<std::string> out{"cpu", "msl-emu"};
  if (available("opencl")) out.push_back("opencl");
  if (available("cuda")) {
    out.push_back("cuda");
  } else if (!std::getenv("TRITIUM_NO_NVRTC")) {
    try {
      fuzz::run_case(fuzz::generate(1), "nvrtc", true);
      out.push_back("nvrtc");
    } catch (const std::exception&) {  // no NVRTC here: nothing to compile with
    }
  }
  return out;
}

struct Tally {
  int64_t cases = 0, failures = 0;
  std::map<std::string, int64_t> ran, unsupported, reasons;
};

// Runs one case everywhere; returns the failure text (empty: agreement).
std::string check(const fuzz::Case& c, const std::vector<std::string>& backends, Tally& t) {
  fuzz::RunResult ref;
  try {
    ref = fuzz::run_case(c, "interp", true);
  } catch (const std::exception& e) {
    return std::string("interp: ") + e.what();
  }
  if (ref.status != fuzz::Status::Ran) return "the generated kernel is refused: " + ref.message;
  for (const auto& b : backends) {
    for (bool portable : {true, false}) {
      if (!portable && b != "cpu") continue;
      const std::string label = b + (portable ? "" : " (native)");
      fuzz::RunResult r;
      try {
        r = fuzz::run_case(c, b, portable);
      } catch (const std::exception& e) {
        return label + ": " + e.what();
      }
      if (r.status == fuzz::Status::Unsupported) {
        ++t.unsupported[label];
        const size_t at = r.message.find("error: ");
        std::string why = r.message.substr(at == std::string::npos ? 0 : at + 7);
        why = why.substr(0, why.find('\n'));
        ++t.reasons[label + ": " + why.substr(0, 120)];
        continue;
      }
      if (r.status == fuzz::Status::Refused) return label + " refuses what the interpreter runs: " + r.message;
      ++t.ran[label];
      if (b == "nvrtc") continue;
      const std::string diff = fuzz::compare(c, ref.outputs, r.outputs, label);
      if (!diff.empty()) return diff;
    }
  }
  return "";
}

void report_failure(const fuzz::Case& c, const std::string& what, const std::string& origin, const Options& o) {
  std::fprintf(stderr, "\nFAIL %s: %s\nsignature: %s\ngrid: (%lld, %lld), n_rows %lld, n_cols %lld, s0 %g, k0 %d, n_iter %d\n%s\n",
               origin.c_str(), what.c_str(), c.signature.c_str(), static_cast<long long>(c.grid_x),
               static_cast<long long>(c.grid_y), static_cast<long long>(c.n_rows), static_cast<long long>(c.n_cols),
               static_cast<double>(c.s0), c.k0, c.n_iter, c.source.c_str());
  if (o.save_dir.empty()) return;
  std::filesystem::create_directories(o.save_dir);
  std::string name = origin;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  const std::string path = o.save_dir + "/" + name + ".json";
  std::ofstream(path) << fuzz::to_json(c, what);
  std::fprintf(stderr, "saved: %s\n", path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    try {
      if (a == "--seed") o.seed = std::stoull(value()), o.seed_given = true;
      else if (a == "--count") o.count = std::stoll(value());
      else if (a == "--seconds") o.seconds = std::stod(value());
      else if (a == "--backends") o.backends = split(value());
      else if (a == "--save") o.save_dir = value();
      else if (a == "--replay") o.replay = value();
      else if (a == "--verbose") o.verbose = true;
      else if (a == "--help" || a == "-h") {
        std::printf("tritium_fuzz_diff: the differential fuzzer (docs/fuzzing.md)\n"
                    "usage: tritium_fuzz_diff [--seed N] [--count N] [--seconds S] [--backends a,b] [--save DIR]\n"
                    "                         [--replay FILE|DIR] [--print SEED] [--verbose]\n"
                    "  backends: cpu, msl-emu, opencl, cuda, nvrtc (default: every one present)\n");
        return 0;
      } else if (a == "--print") {
        std::printf("%s", fuzz::generate(std::stoull(value())).source.c_str());
        return 0;
      } else usage("unknown option " + a);
    } catch (const std::logic_error&) {
      usage("bad value for " + a);
    }
  }
  for (const auto& b : o.backends)  // a misspelt backend is a usage error, not a failing case
    if (b != "cpu" && b != "msl-emu" && b != "opencl" && b != "cuda" && b != "nvrtc")
      usage("unknown backend '" + b + "' (cpu, msl-emu, opencl, cuda, nvrtc)");
  if (o.backends.empty()) o.backends = default_backends();
  std::string names;
  for (const auto& b : o.backends) names += (names.empty() ? "" : ", ") + b;
  std::printf("tritium_fuzz_diff: interp vs %s\n", names.c_str());
  Tally t;

  if (!o.replay.empty()) {
    std::vector<std::string> files;
    if (std::filesystem::is_directory(o.replay)) {
      for (const auto& e : std::filesystem::directory_iterator(o.replay))
        if (e.path().extension() == ".json") files.push_back(e.path().string());
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(o.replay);
    }
    if (files.empty()) usage("no .json cases in " + o.replay);
    for (const auto& f : files) {
      fuzz::Case c;
      try {
        c = fuzz::load_case(f);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "FAIL %s\n", e.what());
        ++t.failures;
        continue;
      }
      ++t.cases;
      const std::string what = check(c, o.backends, t);
      if (!what.empty()) ++t.failures, report_failure(c, what, f, Options{});
      else if (o.verbose) std::printf("ok %s\n", f.c_str());
    }
  } else {
    if (o.count < 0 && o.seconds < 0) o.count = 20;
    if (!o.seed_given && o.seconds >= 0)
      o.seed = static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
    std::printf("seeds from %llu\n", static_cast<unsigned long long>(o.seed));
    const auto start = std::chrono::steady_clock::now();
    for (uint64_t s = o.seed;; ++s) {
      if (o.count >= 0 && t.cases >= o.count) break;
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (o.seconds >= 0 && elapsed >= o.seconds) break;
      const fuzz::Case c = fuzz::generate(s);
      ++t.cases;
      const std::string what = check(c, o.backends, t);
      if (!what.empty()) {
        ++t.failures;
        report_failure(c, what, "seed " + std::to_string(s), o);
      } else if (o.verbose) {
        std::printf("ok seed %llu\n", static_cast<unsigned long long>(s));
      }
      std::fflush(stdout);
    }
  }
  std::printf("%lld cases, %lld failing\n", static_cast<long long>(t.cases), static_cast<long long>(t.failures));
  for (const auto& [b, n] : t.ran)
    std::printf("  %-16s ran %lld, unsupported %lld\n", b.c_str(), static_cast<long long>(n),
                static_cast<long long>(t.unsupported[b]));
  for (const auto& [b, n] : t.unsupported)
    if (!t.ran.count(b)) std::printf("  %-16s ran 0, unsupported %lld\n", b.c_str(), static_cast<long long>(n));
  for (const auto& [why, n] : t.reasons) std::printf("  unsupported x%lld: %s\n", static_cast<long long>(n), why.c_str());
  return t.failures ? 1 : 0;
}
