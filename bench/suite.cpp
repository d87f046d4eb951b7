// suite.cpp - the case list (assembled from cases_*.cpp) and case selection.
#include "suite.h"

#include <cmath>
#include <fmt/format.h>

#include "cases_common.h"

namespace tritium::bench {

LaunchArg LaunchArg::buf(int index, size_t byte_offset) {
  LaunchArg a;
  a.kind = Kind::Buffer;
  a.buffer = index;
  a.byte_offset = byte_offset;
  return a;
}

LaunchArg LaunchArg::integer(int64_t v) {
  LaunchArg a;
  a.kind = Kind::Int;
  a.i = v;
  return a;
}

LaunchArg LaunchArg::real(double v) {
  LaunchArg a;
  a.kind = Kind::Float;
  a.f = v;
  return a;
}

namespace detail {

int64_t next_pow2(int64_t v) {
  int64_t p = 1;
  while (p < v) p *= 2;
  return p;
}

std::string ptr_spec(HostDtype t, bool aligned16) {
  return fmt::format("*{}{}", dtype_name(t), aligned16 ? ":16" : "");
}

std::string int_spec(int64_t v) {
  const bool wide = v > INT32_MAX || v < INT32_MIN;
  const char* base = wide ? "i64" : "i32";
  if (v == 1) return fmt::format("{}:1", base);
  if (v % 16 == 0) return fmt::format("{}:16", base);
  return base;
}

std::string case_id(const std::string& kernel, HostDtype t, const std::string& shape) {
  return fmt::format("{}/{}/{}", kernel, dtype_name(t), shape);
}

std::vector<double> abs_values(const std::vector<double>& v) {
  std::vector<double> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = std::fabs(v[i]);
  return out;
}

}  // namespace detail

std::vector<Case> all_cases() {
  std::vector<Case> out;
  detail::add_elementwise_cases(out);
  detail::add_rowwise_cases(out);
  detail::add_matmul_cases(out);
  detail::add_attention_cases(out);
  return out;
}

std::vector<Case> select_cases(const std::vector<Case>& cases, bool quick, const std::string& filter) {
  std::vector<Case> out;
  for (const Case& c : cases) {
    if (quick && !c.quick) continue;
    if (!filter.empty() && c.id.find(filter) == std::string::npos) continue;
    out.push_back(c);
  }
  return out;
}

}  // namespace tritium::bench
