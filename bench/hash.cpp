// hash.cpp - `tritium hash` (see hash.h): every case on every backend, one checked launch
// each, outputs hashed and compared across backends.
#include "hash.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <tritium/tritium.h>

#ifdef TRITIUM_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

#include "exec.h"
#include "suite.h"

namespace tritium::bench {
namespace {

int usage_error(const std::string& msg) {
  fmt::print(stderr, "tritium hash: error: {}\n", msg);
  return 2;
}

// An element's bits as an integer ordered like the floats (negative values below positive
// ones, -0 and +0 both 0), so the ulp distance is a difference.
int64_t ordered(uint32_t bits, int width) {
  const uint32_t sign = 1u << (width - 1);
  const int64_t mag = bits & (sign - 1);
  return (bits & sign) ? -mag : mag;
}

bool is_nan(uint32_t bits, const std::string& dtype) {
  if (dtype == "fp32") return (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu);
  if (dtype == "fp16") return (bits & 0x7C00u) == 0x7C00u && (bits & 0x03FFu);
  return (bits & 0x7F80u) == 0x7F80u && (bits & 0x007Fu);  // bf16
}

// Calls f(x, y) on the bits of each pair of elements where neither is NaN; false when the
// sizes differ, a NaN stands opposite a number, or f returns false.
template <class F>
bool for_each_number_pair(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b,
                          const std::string& dtype, F f) {
  if (a.size() != b.size()) return false;
  const size_t esize = dtype == "fp32" ? 4 : 2;
  for (size_t off = 0; off + esize <= a.size(); off += esize) {
    uint32_t x = 0, y = 0;
    std::memcpy(&x, a.data() + off, esize);
    std::memcpy(&y, b.data() + off, esize);
    const bool nx = is_nan(x, dtype), ny = is_nan(y, dtype);
    if (nx != ny) return false;
    if (!nx && !f(x, y)) return false;
  }
  return true;
}

// One backend's run of one case.
struct Run {
  bool passed = false;
  std::string error;  // why it failed (check, compile, launch)
  std::vector<std::pair<std::string, std::vector<unsigned char>>> outputs;  // name, bytes
};

std::string failure_of(const CaseResult& r) {
  if (!r.error.empty()) return r.error;
  if (!r.problems.empty()) return r.problems.front();
  return fmt::format("{} outside its tolerance (worst err/tol {:.3g})", r.worst_output, r.check.worst_ratio);
}

}  // namespace

std::string sha256_hex(const std::vector<unsigned char>& bytes) {
#ifdef TRITIUM_HAVE_OPENSSL
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("tritium hash: EVP_Digest(SHA-256) failed");
  std::string hex;
  for (unsigned int i = 0; i < len; ++i) hex += fmt::format("{:02x}", md[i]);
  return hex;
#else
  (void)bytes;
  throw std::runtime_error("tritium was built without OpenSSL (install libssl-dev and rebuild): no SHA-256");
#endif
}

long long max_ulp_distance(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b,
                           const std::string& dtype) {
  const int width = dtype == "fp32" ? 32 : 16;
  long long worst = 0;
  const bool ok = for_each_number_pair(a, b, dtype, [&](uint32_t x, uint32_t y) {
    worst = std::max(worst, static_cast<long long>(std::llabs(ordered(x, width) - ordered(y, width))));
    return true;
  });
  return ok ? worst : -1;
}

namespace {
double value_of(uint32_t bits, const std::string& dtype) {  // exact
  if (dtype == "fp32") {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  if (dtype == "bf16") {
    const uint32_t w = bits << 16;
    float f;
    std::memcpy(&f, &w, 4);
    return f;
  }
  const int e = (bits >> 10) & 0x1F, m = bits & 0x3FF;  // fp16 (NaN is not passed here)
  const double v = e == 31 ? HUGE_VAL : e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return (bits & 0x8000u) ? -v : v;
}
}  // namespace

double max_normwise_rel_error(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b,
                              const std::string& dtype) {
  double worst = 0, scale = 0;
  const bool ok = for_each_number_pair(a, b, dtype, [&](uint32_t x, uint32_t y) {
    const double u = value_of(x, dtype), v = value_of(y, dtype);
    if (std::isinf(u) || std::isinf(v)) return u == v;
    worst = std::max(worst, std::fabs(u - v));
    scale = std::max(scale, std::fabs(u));
    return true;
  });
  if (!ok) return -1;
  if (worst == 0) return 0;
  return scale > 0 ? worst / scale : -1;
}

int run_hash(const HashOptions& opts) {
#ifndef TRITIUM_HAVE_OPENSSL
  return usage_error("tritium was built without OpenSSL (install libssl-dev and rebuild): no SHA-256");
#endif
  const std::vector<Case> cases = select_cases(all_cases(), !opts.full, opts.filter);
  if (cases.empty()) return usage_error(fmt::format("no case matches '{}'", opts.filter));
  std::vector<std::string> names = opts.backends;
  if (names.empty())
    for (const BackendInfo& b : Device::list())
      if (b.available) names.push_back(b.name);
  std::vector<Device> devices;
  std::vector<ExecContext> ctxs(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    try {
      devices.push_back(Device::get(names[i]));
    } catch (const std::exception& e) {
      return usage_error(e.what());
    }
  }
  for (size_t i = 0; i < names.size(); ++i) {
    ExecContext& c = ctxs[i];
    c.device = &devices[i];
    c.kernels_dir = opts.kernels_dir.empty() ? default_kernels_dir() : opts.kernels_dir;
    c.numerics.dot_tf32 = names[i] == "cuda";
    c.options.portable_numerics = opts.portable;
    c.time = false;
  }

  fmt::print("tritium hash: {} case(s), {} numerics, backends: {}\n", cases.size(),
             opts.portable ? "portable" : "native", fmt::join(names, ", "));
  for (size_t i = 0; i < names.size(); ++i) fmt::print("  {:<8} {}\n", names[i], devices[i].description());
  fmt::print("  inputs: splitmix64 per case (seed FNV-1a of the id), rounded to the dtype (bench/hash.h)\n\n");
  std::string head = fmt::format("{:<36} {:<6}", "case", "output");
  for (const std::string& n : names) head += fmt::format(" {:<14}", n);
  fmt::print("{} agree\n", head);

  nlohmann::json jcases = nlohmann::json::array();
  bool all_passed = true, all_agree = true;
  for (const Case& cs : cases) {
    std::vector<Run> runs(names.size());
    for (size_t b = 0; b < names.size(); ++b) {
      Run& run = runs[b];
      ctxs[b].on_output = [&run](const HostArray& a) { run.outputs.emplace_back(a.name, a.bytes); };
      const CaseResult r = run_case(cs, ctxs[b]);
      ctxs[b].on_output = nullptr;
      run.passed = r.passed;
      if (!r.passed) {
        run.error = failure_of(r);
        all_passed = false;
        if (!opts.no_progress) fmt::print(stderr, "tritium hash: {} on {}: {}\n", cs.id, names[b], run.error);
      }
    }
    // The output names and order come from the case; a run that failed early has none.
    const Run* shape = nullptr;
    for (const Run& r : runs)
      if (!r.outputs.empty()) shape = &r;
    nlohmann::json jouts = nlohmann::json::array();
    const size_t n_out = shape ? shape->outputs.size() : 0;
    for (size_t o = 0; o < std::max<size_t>(n_out, 1); ++o) {
      std::string row = fmt::format("{:<36} {:<6}", cs.id, shape ? shape->outputs[o].first : "-");
      nlohmann::json jh = nlohmann::json::object(), ju = nlohmann::json::object();
      std::string first_hash;
      const std::vector<unsigned char>* first_bytes = nullptr;
      bool agree = true;
      long long worst_ulp = 0;
      double worst_rel = 0;
      nlohmann::json jr = nlohmann::json::object();
      for (size_t b = 0; b < names.size(); ++b) {
        const Run& r = runs[b];
        if (!r.passed || o >= r.outputs.size()) {
          row += fmt::format(" {:<14}", "FAIL");
          agree = false;
          continue;
        }
        const std::string h = sha256_hex(r.outputs[o].second);
        jh[names[b]] = h;
        row += fmt::format(" {:<14}", h.substr(0, 12));
        if (!first_bytes) {
          first_hash = h;
          first_bytes = &r.outputs[o].second;
          continue;
        }
        if (h != first_hash) agree = false;
        const long long d = max_ulp_distance(*first_bytes, r.outputs[o].second, cs.dtype);
        ju[names[b]] = d;
        worst_ulp = (d < 0 || worst_ulp < 0) ? -1 : std::max(worst_ulp, d);
        const double rel = max_normwise_rel_error(*first_bytes, r.outputs[o].second, cs.dtype);
        jr[names[b]] = rel;
        worst_rel = (rel < 0 || worst_rel < 0) ? -1 : std::max(worst_rel, rel);
      }
      std::string verdict = agree ? "yes" : "NO";
      if (!agree && first_bytes && worst_ulp != 0)
        verdict += worst_ulp < 0 || worst_rel < 0
                       ? " (NaN/Inf/size differs)"
                       : fmt::format(" (max {} ulp, normwise rel {:.2g})", worst_ulp, worst_rel);
      fmt::print("{} {}\n", row, verdict);
      if (!agree) all_agree = false;
      nlohmann::json jo = {{"name", shape ? shape->outputs[o].first : ""}, {"dtype", cs.dtype},
                           {"sha256", jh}, {"agree", agree}, {"max_ulp_vs_first", ju},
                           {"normwise_rel_error_vs_first", jr}};
      jouts.push_back(jo);
    }
    nlohmann::json jerr = nlohmann::json::object();
    for (size_t b = 0; b < names.size(); ++b)
      if (!runs[b].passed) jerr[names[b]] = runs[b].error;
    jcases.push_back({{"id", cs.id}, {"outputs", jouts}, {"errors", jerr}});
  }
  const bool ok = all_passed && (all_agree || !opts.portable);
  fmt::print("\n{}: {}{}\n", ok ? "ok" : "FAILED",
             all_agree ? "every output agrees across the backends" : "some outputs differ between backends",
             all_passed ? "" : "; some runs failed their float64 check (see stderr)");
  if (!opts.json_path.empty()) {
    nlohmann::json j = {{"numerics", opts.portable ? "portable" : "native"},
                        {"backends", names},
                        {"version", tritium::version()},
                        {"cases", jcases},
                        {"all_agree", all_agree},
                        {"all_passed", all_passed}};
    std::ofstream out(opts.json_path);
    out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    if (!out) {
      fmt::print(stderr, "tritium hash: error: cannot write '{}'\n", opts.json_path);
      return 1;
    }
  }
  return ok ? 0 : 1;
}

}  // namespace tritium::bench
