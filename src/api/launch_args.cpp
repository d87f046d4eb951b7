// Launch-argument checking and conversion (see launch_args.h).
#include "api/launch_args.h"

#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "ir/dtype.h"

namespace tritium::detail {
namespace {

std::string param_desc(const ArgInfo& p) {
  std::string t = (p.is_pointer ? "*" : "") + p.dtype;
  if (p.divisibility == 16) t += ":16";
  if (p.equal_to_1) t += ":1";
  return t;
}

[[noreturn]] void fail(const std::string& kernel, const ArgInfo& p, size_t index, const std::string& msg) {
  throw Error(ErrorKind::Argument,
              fmt::format("kernel '{}': argument {} ('{}', {}): {}", kernel, index, p.name, param_desc(p), msg));
}

struct IntRange {
  bool is_signed;
  int64_t smin, smax;  // for signed
  uint64_t umax;       // for unsigned
};

IntRange int_range(ir::ScalarType t) {
  using ir::ScalarType;
  switch (t) {
    case ScalarType::I1: return {false, 0, 0, 1};
    case ScalarType::I8: return {true, INT8_MIN, INT8_MAX, 0};
    case ScalarType::I16: return {true, INT16_MIN, INT16_MAX, 0};
    case ScalarType::I32: return {true, INT32_MIN, INT32_MAX, 0};
    case ScalarType::I64: return {true, INT64_MIN, INT64_MAX, 0};
    case ScalarType::U8: return {false, 0, 0, UINT8_MAX};
    case ScalarType::U16: return {false, 0, 0, UINT16_MAX};
    case ScalarType::U32: return {false, 0, 0, UINT32_MAX};
    default: return {false, 0, 0, UINT64_MAX};
  }
}

tritium_arg convert_int(const std::string& kernel, const ArgInfo& p, size_t index, const Arg& a, ir::ScalarType t) {
  if (a.kind() != Arg::Kind::Int) fail(kernel, p, index, "expects an integer, got " + a.describe());
  IntRange r = int_range(t);
  tritium_arg slot;
  slot.u64 = 0;
  bool in_range;
  if (a.is_big_unsigned()) {
    in_range = !r.is_signed && a.uint_value() <= r.umax;
    slot.u64 = a.uint_value();
  } else {
    int64_t v = a.int_value();
    in_range = r.is_signed ? (v >= r.smin && v <= r.smax) : (v >= 0 && static_cast<uint64_t>(v) <= r.umax);
    slot.i64 = v;  // sign-extended for signed; a non-negative value is its own zero extension
  }
  if (!in_range) fail(kernel, p, index, a.describe() + " is out of range of " + p.dtype);
  if (p.equal_to_1 && slot.u64 != 1)
    fail(kernel, p, index, "was specialized as equal to 1 but got " + a.describe() + " (recompile without ':1')");
  if (p.divisibility == 16 && slot.u64 % 16 != 0)
    fail(kernel, p, index,
         "was specialized as a multiple of 16 but got " + a.describe() + " (recompile without ':16')");
  return slot;
}

tritium_arg convert_float(const std::string& kernel, const ArgInfo& p, size_t index, const Arg& a,
                          ir::ScalarType t) {
  double v;
  if (a.kind() == Arg::Kind::Float)
    v = a.float_value();
  else if (a.kind() == Arg::Kind::Int)
    v = a.is_big_unsigned() ? static_cast<double>(a.uint_value()) : static_cast<double>(a.int_value());
  else
    fail(kernel, p, index, "expects a number, got " + a.describe());
  tritium_arg slot;
  slot.u64 = 0;
  auto overflow = [&] { fail(kernel, p, index, fmt::format("value {} overflows {}", v, p.dtype)); };
  switch (t) {
    case ir::ScalarType::F64:
      slot.f64 = v;
      break;
    case ir::ScalarType::F32: {
      if (std::isfinite(v) && std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max())) {
        // Values within half an ulp above FLT_MAX still round down to FLT_MAX.
        const double limit = std::ldexp(2.0 - std::ldexp(1.0, -24), 127);
        if (std::fabs(v) >= limit) overflow();
      }
      slot.f32 = static_cast<float>(v);
      break;
    }
    case ir::ScalarType::BF16: {
      // As upstream's launcher packs a bf16 scalar (third_party/nvidia/backend/driver.py,
      // pack_bf16): rounded to fp32, then the low 16 bits dropped (toward zero).
      if (std::isfinite(v) && std::fabs(v) >= std::ldexp(2.0 - std::ldexp(1.0, -24), 127)) overflow();  // fp32 Inf
      const float f = static_cast<float>(v);
      uint32_t u;
      std::memcpy(&u, &f, 4);
      slot.u64 = u >> 16;
      break;
    }
    case ir::ScalarType::F16: {
      bool half = t == ir::ScalarType::F16;
      uint32_t bits = round_to_small_float(v, half ? 5 : 8, half ? 10 : 7);
      uint32_t exp_mask = half ? 0x7C00u : 0x7F80u, mant_mask = half ? 0x3FFu : 0x7Fu;
      if (std::isfinite(v) && (bits & exp_mask) == exp_mask && (bits & mant_mask) == 0) overflow();
      slot.u64 = bits;
      break;
    }
    default:
      fail(kernel, p, index, "scalar arguments of type " + p.dtype + " are not supported");
  }
  return slot;
}

}  // namespace

uint32_t round_to_small_float(double v, int exp_bits, int mant_bits) {
  const uint32_t sign = std::signbit(v) ? 1u << (exp_bits + mant_bits) : 0u;
  const uint32_t exp_all = (1u << exp_bits) - 1;
  if (std::isnan(v)) return sign | (exp_all << mant_bits) | (1u << (mant_bits - 1));
  double a = std::fabs(v);
  if (std::isinf(a)) return sign | (exp_all << mant_bits);
  if (a == 0) return sign;
  const int bias = (1 << (exp_bits - 1)) - 1;
  int e2;
  std::frexp(a, &e2);              // a = m * 2^e2, m in [0.5, 1)
  int e = std::max(e2 - 1, 1 - bias);  // unbiased exponent; subnormals use the minimum
  // Units of the last place at exponent e; scaling by a power of two is exact.
  double scaled = std::ldexp(a, mant_bits - e);
  double r = std::nearbyint(scaled);  // round to nearest, ties to even (default mode)
  const double implicit = std::ldexp(1.0, mant_bits);
  if (r >= 2 * implicit) {  // rounded up into the next binade
    r /= 2;
    e += 1;
  }
  if (e > bias) return sign | (exp_all << mant_bits);  // overflow → infinity
  uint32_t m = static_cast<uint32_t>(r);
  if (r < implicit) return sign | m;                  // subnormal (e == 1 - bias), biased exponent 0
  return sign | (static_cast<uint32_t>(e + bias) << mant_bits) | (m - (1u << mant_bits));
}

tritium_arg convert_arg(const std::string& kernel, const ArgInfo& p, size_t index, const Arg& a,
                        const runtime::Device* device) {
  if (p.is_pointer) {
    if (a.kind() != Arg::Kind::Pointer) fail(kernel, p, index, "expects a buffer, got " + a.describe());
    if (a.pointer_device() == nullptr) fail(kernel, p, index, "got an empty buffer");
    if (a.is_read_only() && p.written)
      fail(kernel, p, index, "is read-only memory (e.g. a numpy array with writeable=False) but the kernel writes "
                             "through it");
    if (a.pointer_device() != device)
      fail(kernel, p, index,
           fmt::format("the buffer belongs to device '{}', but the kernel was compiled for '{}'",
                       a.pointer_device()->name(), device ? device->name() : "?"));
    if (!a.dtype().empty()) {  // Arg::tensor: its element dtype must be the specialization's
      auto want = ir::parse_scalar_type(p.dtype), got = ir::parse_scalar_type(a.dtype());
      if (want && got && *want != *got)
        fail(kernel, p, index,
             fmt::format("is a tensor of {} but the kernel was specialized for *{}", a.dtype(), p.dtype));
    }
    if (p.divisibility == 16 && reinterpret_cast<uintptr_t>(a.pointer()) % 16 != 0)
      fail(kernel, p, index, "was specialized as 16-byte aligned but the address is not (recompile without ':16')");
    tritium_arg slot;
    slot.u64 = 0;
    slot.ptr = a.pointer();
    return slot;
  }
  if (a.kind() == Arg::Kind::Pointer) fail(kernel, p, index, "expects a scalar, got " + a.describe());
  auto t = ir::parse_scalar_type(p.dtype);
  if (!t) fail(kernel, p, index, "unknown dtype");
  if (ir::is_int(*t)) return convert_int(kernel, p, index, a, *t);
  return convert_float(kernel, p, index, a, *t);
}

std::vector<tritium_arg> convert_args(const std::string& kernel, const std::vector<ArgInfo>& params,
                                      const std::vector<Arg>& args, const runtime::Device* device) {
  if (args.size() != params.size()) {
    std::string expected;
    for (const ArgInfo& p : params) expected += (expected.empty() ? "" : ", ") + p.name + ": " + param_desc(p);
    throw Error(ErrorKind::Argument, fmt::format("kernel '{}' takes {} launch argument{} ({}), got {}", kernel,
                                                 params.size(), params.size() == 1 ? "" : "s", expected, args.size()));
  }
  std::vector<tritium_arg> slots;
  slots.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) slots.push_back(convert_arg(kernel, params[i], i, args[i], device));
  return slots;
}

}  // namespace tritium::detail
