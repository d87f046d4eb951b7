#include "conformance_util.h"

#include <functional>

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

Result Case::run_on(const std::string& backend, const tritium::Grid& grid) {
  auto dev = tritium::Device::get(backend);
  auto mod = tritium::Module::from_string(source_, "conformance_" + kernel_ + ".py");
  auto k = mod.kernel(kernel_).compile(dev, signature_, opts_);
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
  Result b = run_on("cpu", grid);
  for (size_t i = 0; i < a.bytes.size(); ++i) {
    if (a.bytes[i] == b.bytes[i]) continue;
    size_t first = 0;
    while (first < a.bytes[i].size() && a.bytes[i][first] == b.bytes[i][first]) ++first;
    ADD_FAILURE() << kernel_ << ": interp and cpu outputs differ in argument " << i << " at byte " << first;
  }
  return a;
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
