#include "gen_types.h"

namespace fuzz {

const std::vector<DType>& dtypes() {
  static const std::vector<DType> t = {
      {"tl.int1", "i1", 1, Kind::Bool},        {"tl.int8", "i8", 8, Kind::SInt},
      {"tl.int16", "i16", 16, Kind::SInt},     {"tl.int32", "i32", 32, Kind::SInt},
      {"tl.int64", "i64", 64, Kind::SInt},     {"tl.uint8", "u8", 8, Kind::UInt},
      {"tl.uint16", "u16", 16, Kind::UInt},    {"tl.uint32", "u32", 32, Kind::UInt},
      {"tl.uint64", "u64", 64, Kind::UInt},    {"tl.float16", "fp16", 16, Kind::Float},
      {"tl.bfloat16", "bf16", 16, Kind::Float}, {"tl.float32", "fp32", 32, Kind::Float},
      {"tl.float64", "fp64", 64, Kind::Float},
  };
  return t;
}

int promote(int a, int b) {
  if (is_float(a) || is_float(b)) {
    if (a == F64 || b == F64) return F64;
    if (a == F32 || b == F32) return F32;
    if (is_float(a) && is_float(b)) return a == b ? a : F32;  // fp16 with bf16
    return is_float(a) ? a : b;
  }
  const auto& da = dtypes()[a];
  const auto& db = dtypes()[b];
  if (is_unsigned(a) == is_unsigned(b)) return da.bits >= db.bits ? a : b;
  if (is_unsigned(a)) return da.bits >= db.bits ? a : b;
  return db.bits >= da.bits ? b : a;
}

std::string operand(const Value& v, Shape to) {
  if (to == Shape::T && v.shape == Shape::R) return v.name + "[:, None]";
  if (to == Shape::T && v.shape == Shape::C) return v.name + "[None, :]";
  return v.name;
}

Shape join(Shape a, Shape b) {
  if (a == Shape::S) return b;
  if (b == Shape::S) return a;
  if (a == Shape::T || b == Shape::T) return Shape::T;
  return a;
}

bool compatible(Shape a, Shape b) {
  return !((a == Shape::R && b == Shape::C) || (a == Shape::C && b == Shape::R));
}

}  // namespace fuzz
