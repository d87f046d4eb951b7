#include "nvrtc_opt_out.h"
#include "conformance_util.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <regex>

#include "runtime/cuda/cuda_kernel.h"

namespace conformance {

std::mt19937_64& rng() {
  static thread_local std::mt19937_64 g;
  static thread_local std::string seeded_for;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "";
  if (name != seeded_for) {
    g.seed(std::hash<std::string>{}(name));
    seeded_for = name;
  }
  return g;
}

std::vector<float> rand_f32(size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) do x = d(rng()); while (x == 0.f);
  return v;
}
std::vector<double> rand_f64(size_t n, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(n);
  for (auto& x : v) do x = d(rng()); while (x == 0.);
  return v;
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint64_t bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

Result Case::run_on(const std::string& backend, const tritium::Grid& grid) { return run_on(backend, grid, opts_); }

Result Case::run_on(const std::string& backend, const tritium::Grid& grid, const tritium::CompileOptions& opts) {
  auto dev = tritium::Device::get(backend);
  auto mod = tritium::Module::from_string(source_, "conformance_" + kernel_ + ".py");
  auto k = mod.kernel(kernel_).compile(dev, signature_, opts);
  std::vector<tritium::Buffer> bufs;
  bufs.reserve(params_.size());
  std::vector<tritium::Arg> args;
  for (auto& p : params_) {
    if (p.kind == Param::Buffer) {
      bufs.push_back(dev.upload(p.bytes.data(), p.bytes.size()));
      args.emplace_back(bufs.back());
    } else {
      args.push_back(*p.scalar);
    }
  }
  k.launch(grid, args);
  Result r;
  r.bytes.resize(params_.size());
  size_t bi = 0;
  for (size_t i = 0; i < params_.size(); ++i) {
    if (params_[i].kind != Param::Buffer) continue;
    auto& b = bufs[bi++];
    r.bytes[i].resize(b.size());
    if (b.size()) b.copy_to_host(r.bytes[i].data(), b.size());
  }
  return r;
}

Result Case::run(const tritium::Grid& grid) {
  Result a = run_on("interp", grid);
  expect_same_bytes(a, run_on("cpu", grid), "cpu");
  cuda_check(grid, a);
  opencl_check(grid, a);
  msl_emu_check(grid, a);
  return a;
}

void Case::msl_emu_check(const tritium::Grid& grid, const Result& ref) {
  // Portable numerics: the interpreter's bits (the threadgroup shape combines in the
  // canonical order); native numerics besides, as the cuda backend's are compared (float
  // reductions in any order; the threadgroup shape's atomics run in thread order).
  tritium::CompileOptions portable = opts_;
  portable.portable_numerics = true;
  Result r;
  try {
    r = run_on("msl-emu", grid, portable);
  } catch (const tritium::CompileError& e) {
    const std::string what = e.what();
    if (what.find("not lowered by the MSL renderer yet") == std::string::npos &&
        what.find("Metal has no double") == std::string::npos)
      throw;
    std::fprintf(stderr, "[msl-emu skipped] %s: %s\n", kernel_.c_str(), e.what());
    return;
  }
  // erf: tritium's own on Metal (no erf in its library), glibc's on the interpreter: within
  // the libm allowance of the other backends' comparison; everything else bit for bit.
  static const std::regex erf(R"(\berf\s*\()");
  if (std::regex_search(source_, erf)) compare_cuda(ref, r, false, "msl-emu");
  else expect_same_bytes(ref, r, "msl-emu", true);
  if (!opts_.portable_numerics) compare_cuda(ref, run_on("msl-emu", grid, opts_), true, "msl-emu");
}

void Case::expect_same_bytes(const Result& ref, const Result& r, const char* backend, bool skip_order_free) const {
  if (skip_order_free && order_free_ && order_free_args_.empty()) return;
  for (size_t i = 0; i < ref.bytes.size(); ++i) {
    if (skip_order_free && order_free_ &&
        std::find(order_free_args_.begin(), order_free_args_.end(), static_cast<int>(i)) != order_free_args_.end())
      continue;
    if (ref.bytes[i] == r.bytes[i]) continue;
    size_t first = 0;
    while (first < ref.bytes[i].size() && first < r.bytes[i].size() && ref.bytes[i][first] == r.bytes[i][first]) ++first;
    ADD_FAILURE() << kernel_ << ": interp and " << backend << " outputs differ in argument " << i << " at byte " << first;
  }
}

namespace {
bool backend_available(const char* name) {
  for (const auto& b : tritium::Device::list())
    if (b.name == name) return b.available;
  return false;
}
}  // namespace

bool opencl_present() {
  static const bool present = backend_available("opencl");
  return present;
}

void Case::opencl_check(const tritium::Grid& grid, const Result& ref) {
  if (!opencl_present()) {
    const char* req = std::getenv("TRITIUM_REQUIRE_OPENCL");
    if (req && std::string(req) == "1") ADD_FAILURE() << "TRITIUM_REQUIRE_OPENCL=1 but the opencl backend is unavailable";
    return;
  }
  tritium::CompileOptions portable = opts_;
  portable.portable_numerics = true;
  Result r;
  try {
    r = run_on("opencl", grid, portable);
  } catch (const tritium::CompileError& e) {
    if (std::string(e.what()).find("not lowered by the OpenCL C renderer yet") == std::string::npos) throw;
    std::fprintf(stderr, "[opencl skipped] %s: %s\n", kernel_.c_str(), e.what());
    return;
  }
  compare_cuda(ref, r, false, "opencl");
}

bool gpu_present() {
  static const bool present = backend_available("cuda");
  return present;
}

namespace {
const tritium::Device& nvrtc_device() {
  static const tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  return dev;
}
// Distance in ulps between two finite floats / doubles of the same sign class (by bits).
template <class F, class U>
uint64_t ulps(F a, F b) {
  U ua, ub;
  std::memcpy(&ua, &a, sizeof a);
  std::memcpy(&ub, &b, sizeof b);
  const U sign = U(1) << (sizeof(U) * 8 - 1);
  auto key = [&](U u) { return (u & sign) ? ~u : (u | sign); };  // monotone in the value
  const U ka = key(ua), kb = key(ub);
  return ka > kb ? static_cast<uint64_t>(ka - kb) : static_cast<uint64_t>(kb - ka);
}
}  // namespace

void Case::cuda_check(const tritium::Grid& grid, const Result& ref) {
  if (tritium_no_nvrtc() && !gpu_present()) return;
  if (!gpu_present()) {  // compile for the GPU only
    auto mod = tritium::Module::from_string(source_, "conformance_" + kernel_ + ".py");
    try {
      mod.kernel(kernel_).compile(nvrtc_device(), signature_, opts_);
    } catch (const std::exception& e) {
      ADD_FAILURE() << kernel_ << ": does not compile for the GPU: " << e.what();
    }
    return;
  }
  tritium::CompileOptions portable = opts_;
  portable.portable_numerics = true;
  compare_cuda(ref, run_on("cuda", grid, portable), false);
  if (!opts_.portable_numerics) compare_cuda(ref, run_on("cuda", grid, opts_), true);
}

void Case::compare_cuda(const Result& ref, const Result& c, bool native, const char* backend) const {
  if (order_free_ && order_free_args_.empty()) return;
  auto order_dependent = [&](size_t i) {
    return order_free_ && std::find(order_free_args_.begin(), order_free_args_.end(), static_cast<int>(i)) !=
                              order_free_args_.end();
  };
  static const std::regex libm(
      R"(\b(sin|cos|tan|erf|erfc|tanh|pow|log1p|expm1|atan|atan2|asin|acos|sinh|cosh|exp10|log10|cbrt|hypot|randn|randn4x|pair_uniform_to_normal|fast_\w+)\s*\()");
  const bool uses_libm = std::regex_search(source_, libm);
  // Element kind of each pointer argument, from the signature: "f32", "f64", "f16", "bf16" or "".
  std::vector<std::string> kinds;
  {
    std::string tok;
    for (size_t i = 0; i <= signature_.size(); ++i) {
      if (i == signature_.size() || signature_[i] == ',') {
        tok.erase(0, tok.find_first_not_of(" "));
        std::string k;
        if (tok.rfind("*fp32", 0) == 0) k = "f32";
        else if (tok.rfind("*fp64", 0) == 0) k = "f64";
        else if (tok.rfind("*fp16", 0) == 0) k = "f16";
        else if (tok.rfind("*bf16", 0) == 0) k = "bf16";
        kinds.push_back(k);
        tok.clear();
      } else {
        tok += signature_[i];
      }
    }
  }
  auto u16 = [](const std::vector<uint8_t>& b, size_t k) { return static_cast<uint16_t>(b[k] | (b[k + 1] << 8)); };
  auto half_value = [](uint16_t h, bool bf) -> double {
    if (bf) {
      uint32_t u = static_cast<uint32_t>(h) << 16;
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    }
    const int e = (h >> 10) & 31, m = h & 1023;
    const double v = e == 0 ? std::ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
  };
  for (size_t i = 0; i < ref.bytes.size(); ++i) {
    const auto& x = ref.bytes[i];
    const auto& y = c.bytes[i];
    if (x == y || order_dependent(i)) continue;
    const std::string kind = i < kinds.size() ? kinds[i] : "";
    const size_t step = kind == "f32" ? 4 : kind == "f64" ? 8 : (kind == "f16" || kind == "bf16") ? 2 : 1;
    // Native numerics: each fp32 / fp16 / bf16 element within a relative 2^-14 (fp32: the
    // approximate exp's 2^-18 and div.full's 2 ulp, with room for a few dependent ops) or two
    // ulps (2^-9 fp16, 2^-6 bf16) of the interpreter's, measured against the larger of the two
    // values and the argument's largest written magnitude (cancellation after an approximate
    // exp / div may lose relative accuracy in small results, never against the output's
    // scale; elements still holding the 0x5A poison are left out of the scale). fp64 has no
    // native approximation: compared as in portable numerics.
    const double rel = kind == "f16" ? 0x1p-9 : kind == "bf16" ? 0x1p-6 : tf32_dot_ ? 0x1p-7 : 0x1p-14;
    const bool tolerant = native && (kind == "f32" || kind == "f16" || kind == "bf16");
    double scale = 0;
    std::vector<double> xs, ys;
    if (tolerant) {
      for (size_t k = 0; k + step <= x.size(); k += step) {
        double p, q;
        if (kind == "f32") {
          float a, b;
          std::memcpy(&a, &x[k], 4);
          std::memcpy(&b, &y[k], 4);
          p = a, q = b;
        } else if (kind == "f64") {
          std::memcpy(&p, &x[k], 8);
          std::memcpy(&q, &y[k], 8);
        } else {
          p = half_value(u16(x, k), kind == "bf16");
          q = half_value(u16(y, k), kind == "bf16");
        }
        xs.push_back(p), ys.push_back(q);
        bool poison = true;
        for (size_t b = 0; b < step; ++b) poison = poison && x[k + b] == 0x5A;
        if (std::isfinite(p) && !poison) scale = std::max(scale, std::fabs(p));
      }
    }
    size_t bad = x.size();
    for (size_t k = 0; k + step <= x.size() && bad == x.size(); k += step) {
      if (std::memcmp(&x[k], &y[k], step) == 0) continue;
      bool ok = false;
      if (tolerant) {
        const double p = xs[k / step], q = ys[k / step];
        ok = (std::isnan(p) && std::isnan(q)) || (std::isinf(p) && p == q) ||
             (std::isfinite(p) && std::isfinite(q) && std::fabs(p - q) <= rel * std::max({std::fabs(p), std::fabs(q), scale}));
      } else if (kind == "f32") {
        float p, q;
        std::memcpy(&p, &x[k], 4);
        std::memcpy(&q, &y[k], 4);
        ok = (std::isnan(p) && std::isnan(q)) ||
             (uses_libm && std::isfinite(p) && std::isfinite(q) && ulps<float, uint32_t>(p, q) <= 4);
      } else if (kind == "f64") {
        double p, q;
        std::memcpy(&p, &x[k], 8);
        std::memcpy(&q, &y[k], 8);
        ok = (std::isnan(p) && std::isnan(q)) ||
             (uses_libm && std::isfinite(p) && std::isfinite(q) && ulps<double, uint64_t>(p, q) <= 4);
      } else if (kind == "f16" || kind == "bf16") {
        const uint16_t p = u16(x, k), q = u16(y, k);
        const uint16_t em = kind == "f16" ? 0x7c00 : 0x7f80, mm = kind == "f16" ? 0x03ff : 0x007f;
        auto nan = [&](uint16_t h) { return (h & em) == em && (h & mm) != 0; };
        auto key = [](uint16_t h) { return (h & 0x8000) ? 0x8000 - (h & 0x7fff) : 0x8000 + h; };
        ok = (nan(p) && nan(q)) ||
             (uses_libm && (p & em) != em && (q & em) != em && std::abs(key(p) - key(q)) <= 1);
      }
      if (!ok) bad = k;
    }
    if (bad != x.size())
      ADD_FAILURE() << kernel_ << ": interp and " << backend << " (" << (native ? "native" : "portable")
                    << " numerics) outputs differ in argument " << i << " at byte " << bad;
  }
}

void expect_close(const std::vector<float>& got, const std::vector<double>& want, double rel, double abs,
                  const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  int failures = 0;
  for (size_t i = 0; i < got.size() && failures < 5; ++i) {
    double g = got[i];
    bool ok = !std::isnan(g) && std::fabs(g - want[i]) <= abs + rel * std::fabs(want[i]);
    if (std::isinf(want[i])) ok = (g == want[i]);
    if (!ok) {
      ++failures;
      ADD_FAILURE() << what << "[" << i << "]: got " << g << ", want " << want[i] << " (rel " << rel << ", abs "
                    << abs << ")";
    }
  }
}

tritium::CompileError expect_compile_error(const std::string& source, const std::string& kernel,
                                           const std::string& signature, const std::string& needle) {
  auto dev = tritium::Device::get("interp");
  try {
    auto mod = tritium::Module::from_string(source, "conformance_" + kernel + ".py");
    mod.kernel(kernel).compile(dev, signature);
  } catch (const tritium::CompileError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << "message lacks '" << needle << "':\n" << e.what();
    return e;
  }
  ADD_FAILURE() << kernel << ": expected a compile error containing '" << needle << "'";
  return tritium::CompileError("", "", 0, 0, "");
}

}  // namespace conformance
