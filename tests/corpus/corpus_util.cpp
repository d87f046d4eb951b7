#include "nvrtc_opt_out.h"
#include "corpus_util.h"

#include <cstdlib>

#include "runtime/cuda/cuda_kernel.h"
#include "runtime/registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>

#include "../conformance/conformance_util.h"
#include "../conformance/halfbits.h"

namespace corpus {

std::mt19937_64& rng() { return conformance::rng(); }

std::vector<float> uniform(size_t n, float lo, float hi) { return conformance::rand_f32(n, lo, hi); }

std::vector<int64_t> uniform_int(size_t n, int64_t lo, int64_t hi) {
  return conformance::rand_int<int64_t>(n, lo, hi, /*nonzero=*/false);
}

uint16_t to_half(double v) {
  // Rounded once, from the double (not through fp32, which could round twice).
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  v = std::fabs(v);
  if (std::isnan(v)) return 0x7E00;
  int e;
  std::frexp(v, &e);
  int q = std::max(e - 11, -24);  // the exponent of one ulp: 11 significant bits, at least 2^-24
  double r = std::ldexp(std::nearbyint(std::ldexp(v, -q)), q);
  if (r > 65504.0) return sign | 0x7C00;
  return static_cast<uint16_t>(sign | conformance::exact_half(r));
}
double half_value(uint16_t h) { return conformance::half_to_float(h); }

namespace {
// `n` uniform values rounded to a 16-bit format by `round`, never zero after rounding.
Half uniform16(size_t n, float lo, float hi, uint16_t (*round)(float), float (*value)(uint16_t)) {
  Half h;
  std::uniform_real_distribution<float> d(lo, hi);
  h.bits.resize(n);
  h.vals.resize(n);
  for (size_t i = 0; i < n; ++i) {
    uint16_t b;
    do b = round(d(rng())); while ((b & 0x7FFF) == 0);
    h.bits[i] = b;
    h.vals[i] = value(b);
  }
  return h;
}
}  // namespace

Half uniform_half(size_t n, float lo, float hi) {
  return uniform16(n, lo, hi, conformance::half_rne, conformance::half_to_float);
}
Half uniform_bf16(size_t n, float lo, float hi) {
  return uniform16(n, lo, hi, conformance::bf16_rne, conformance::bf16_to_float);
}

std::vector<double> widen_bf16(const std::vector<uint16_t>& v) {
  std::vector<double> r(v.size());
  for (size_t i = 0; i < v.size(); ++i) r[i] = conformance::bf16_to_float(v[i]);
  return r;
}

std::vector<double> widen(const std::vector<float>& v) { return std::vector<double>(v.begin(), v.end()); }

std::vector<double> widen_half(const std::vector<uint16_t>& v) {
  std::vector<double> r(v.size());
  for (size_t i = 0; i < v.size(); ++i) r[i] = conformance::half_to_float(v[i]);
  return r;
}

const tritium::Device& device() {
  static const tritium::Device d = [] {
    const char* b = std::getenv("CORPUS_BACKEND");
    const std::string name = b && *b ? b : "cpu";
    if (name == "opencl") {  // a whole-program skip (ctest SKIP_RETURN_CODE 77) without a device
      const auto s = tritium::runtime::backend_status("opencl");
      const char* req = std::getenv("TRITIUM_REQUIRE_OPENCL");
      if (!s.available && !(req && std::string(req) == "1")) {
        std::fprintf(stderr, "corpus on opencl skipped: %s\n", s.reason.c_str());
        std::exit(77);
      }
    }
    return tritium::Device::get(name);
  }();
  return d;
}

bool dot_tf32() { return device().name() == "cuda"; }

std::string kernel_path(const std::string& file) { return std::string(TRITIUM_TEST_DIR) + "/corpus/kernels/" + file; }

namespace {
// One parse per kernel file for the whole test program.
const tritium::Module& module_of(const std::string& file) {
  static std::mutex mu;
  static std::map<std::string, tritium::Module> modules;
  std::lock_guard<std::mutex> lock(mu);
  auto it = modules.find(file);
  if (it == modules.end()) it = modules.emplace(file, tritium::Module::from_file(kernel_path(file))).first;
  return it->second;
}
}  // namespace

namespace {
// Every corpus kernel compiled for the CPU is also compiled for the GPU with NVRTC (PTX for
// compute_90 and an sm_90 cubin; issue 4's CI acceptance), unless it runs on the GPU anyway
// or TRITIUM_NO_NVRTC is set.
void nvrtc_check(const tritium::Kernel& k, const std::string& signature, const tritium::CompileOptions& opts,
                 const std::map<std::string, tritium::ConstexprValue>& constexprs) {
  if (tritium_no_nvrtc() || device().name() == "cuda") return;
  static const tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  try {
    k.compile(dev, signature, opts, constexprs);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "does not compile for the GPU: " << e.what();
  }
}
}  // namespace

tritium::CompiledKernel compile(const std::string& file, const std::string& kernel, const std::string& signature,
                                const std::map<std::string, tritium::ConstexprValue>& constexprs,
                                const tritium::CompileOptions& options) {
  tritium::Kernel k = module_of(file).kernel(kernel);
  nvrtc_check(k, signature, options, constexprs);
  return k.compile(device(), signature, options, constexprs);
}

std::vector<tritium::AutotuneConfig> autotune_configs(const std::string& file, const std::string& kernel) {
  return module_of(file).kernel(kernel).decorators().configs;
}

tritium::CompiledKernel compile_autotuned(const std::string& file, const std::string& kernel,
                                          const std::string& signature, int config,
                                          const std::map<std::string, tritium::ConstexprValue>& constexprs) {
  tritium::Kernel k = module_of(file).kernel(kernel);
  tritium::CompileOptions opts;
  tritium::Meta meta = k.resolve_meta(signature, config, constexprs, {}, &opts);
  nvrtc_check(k, signature, opts, meta);
  return k.compile(device(), signature, opts, meta);
}

int run_autotuned(const std::string& file, const std::string& kernel, const tritium::GridFn& grid,
                  const std::vector<tritium::Arg>& args, const tritium::Meta& meta) {
  return module_of(file).kernel(kernel).run(device(), grid, args, meta).config;
}

int64_t meta_int(const tritium::Meta& meta, const std::string& name) {
  auto it = meta.find(name);
  if (it == meta.end() || !std::holds_alternative<int64_t>(it->second)) {
    ADD_FAILURE() << "META has no integer " << name;
    return 1;
  }
  return std::get<int64_t>(it->second);
}

size_t expect_close(const std::vector<double>& got, const std::vector<double>& want, double rel, double abs,
                    const std::string& what) {
  std::vector<double> tol(want.size());
  for (size_t i = 0; i < want.size(); ++i) tol[i] = abs + rel * std::fabs(want[i]);
  return expect_within(got, want, tol, what);
}

size_t expect_within(const std::vector<double>& got, const std::vector<double>& want, const std::vector<double>& tol,
                     const std::string& what) {
  EXPECT_EQ(got.size(), want.size()) << what;
  EXPECT_EQ(tol.size(), want.size()) << what;
  size_t n = std::min({got.size(), want.size(), tol.size()}), bad = 0, worst = 0;
  double worst_ratio = 0;
  for (size_t i = 0; i < n; ++i) {
    double err = std::fabs(got[i] - want[i]);
    bool ok = !std::isnan(got[i]) && !std::isnan(want[i]) && err <= tol[i];
    if (std::isinf(want[i])) ok = got[i] == want[i];
    if (!ok && bad++ < 5)
      ADD_FAILURE() << what << "[" << i << "]: got " << got[i] << ", want " << want[i] << " (error " << err
                    << ", tolerance " << tol[i] << ")";
    if (ok && tol[i] > 0 && err / tol[i] > worst_ratio) worst_ratio = err / tol[i], worst = i;
  }
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << n << " elements outside the tolerance";
  if (bad == 0 && std::getenv("CORPUS_VERBOSE"))
    std::printf("  %s: %zu elements, worst error %.3g of the tolerance (at %zu)\n", what.c_str(), n, worst_ratio,
                worst);
  return bad;
}

}  // namespace corpus
