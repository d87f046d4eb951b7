#include "cpu_test_util.h"

#include <gtest/gtest.h>

#include "ir/printer.h"

namespace tritium::cputest {

runtime::Device& cpu_device() {
  static std::unique_ptr<runtime::Device> dev = runtime::make_cpu_device();
  return *dev;
}

std::unique_ptr<runtime::LoadedKernel> compile(const ir::Module& m, const runtime::CodegenOptions& opts) {
  for (auto& f : m.functions) {
    auto errs = ir::verify(*f, &m);
    std::string all;
    for (auto& e : errs) all += e + "\n";
    EXPECT_TRUE(errs.empty()) << "invalid test IR:\n" << all << ir::print(m);
  }
  return cpu_device().compile(m, opts);
}

uint16_t ref_bf16_rne(double d) {
  float f = static_cast<float>(d);  // only used to find the neighbourhood
  uint32_t u = bits_of(f);
  uint16_t lo = static_cast<uint16_t>(u >> 16);
  // Candidates around the truncation of the float (the float itself may have rounded).
  uint16_t best = lo;
  double best_err = INFINITY;
  for (int delta = -1; delta <= 1; ++delta) {
    uint16_t c = static_cast<uint16_t>(lo + delta);
    double v = ref_bf16_value(c);
    if (std::isnan(v)) continue;
    double err = std::fabs(v - d);
    if (err < best_err || (err == best_err && (c & 1) == 0)) {
      best = c;
      best_err = err;
    }
  }
  return best;
}

}  // namespace tritium::cputest
