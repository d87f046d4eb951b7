#include "ir/dtype.h"

#include <array>

namespace tritium::ir {
namespace {
struct Info {
  std::string_view name, short_name;
  int bits;
  bool is_float, is_signed;
};
constexpr std::array kInfo = {
#define TRITIUM_X(e, n, s, b, f, sg) Info{n, s, b, f, sg},
    TRITIUM_SCALAR_TYPES(TRITIUM_X)
#undef TRITIUM_X
};
const Info& info(ScalarType t) { return kInfo[static_cast<size_t>(t)]; }
}  // namespace

std::string_view name(ScalarType t) { return info(t).name; }
std::string_view short_name(ScalarType t) { return info(t).short_name; }
int bitwidth(ScalarType t) { return info(t).bits; }
int byte_size(ScalarType t) { return t == ScalarType::I1 ? 1 : info(t).bits / 8; }
bool is_float(ScalarType t) { return info(t).is_float; }
bool is_int(ScalarType t) { return !info(t).is_float; }
bool is_signed_int(ScalarType t) { return !info(t).is_float && info(t).is_signed; }
bool is_unsigned_int(ScalarType t) { return !info(t).is_float && !info(t).is_signed; }
bool is_fp8(ScalarType t) {
  return t == ScalarType::F8E4NV || t == ScalarType::F8E5 || t == ScalarType::F8E4B15;
}
int float_mantissa_bits(ScalarType t) {
  switch (t) {
    case ScalarType::F16: return 11;
    case ScalarType::BF16: return 8;
    case ScalarType::F32: return 24;
    case ScalarType::F64: return 53;
    case ScalarType::F8E4NV: return 4;
    case ScalarType::F8E5: return 3;
    case ScalarType::F8E4B15: return 4;
    default: return 0;
  }
}

std::optional<ScalarType> parse_scalar_type(std::string_view s) {
  struct Alias {
    std::string_view text;
    ScalarType t;
  };
  static constexpr Alias kAliases[] = {
      {"bool", ScalarType::I1},       {"float32", ScalarType::F32},  {"f32", ScalarType::F32},
      {"float", ScalarType::F32},     {"float16", ScalarType::F16},  {"f16", ScalarType::F16},
      {"half", ScalarType::F16},      {"bfloat16", ScalarType::BF16}, {"float64", ScalarType::F64},
      {"f64", ScalarType::F64},       {"double", ScalarType::F64},   {"float8e4nv", ScalarType::F8E4NV},
      {"float8e5", ScalarType::F8E5}, {"float8e4b15", ScalarType::F8E4B15},
      {"fp8e4m3", ScalarType::F8E4NV}, {"fp8e5m2", ScalarType::F8E5},
  };
  for (size_t i = 0; i < kInfo.size(); ++i)
    if (kInfo[i].name == s || kInfo[i].short_name == s) return static_cast<ScalarType>(i);
  for (const auto& a : kAliases)
    if (a.text == s) return a.t;
  return std::nullopt;
}

}  // namespace tritium::ir
