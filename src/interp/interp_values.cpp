#include "interp/interp_values.h"

#include <fmt/format.h>

#include <stdexcept>

namespace tritium::interp {

using ir::ScalarType;

int storage_size(ScalarType s, bool is_ptr) { return is_ptr ? 8 : ir::byte_size(s); }

bool is_signed(ScalarType s) {
  return s == ScalarType::I8 || s == ScalarType::I16 || s == ScalarType::I32 || s == ScalarType::I64;
}

bool is_narrow_float(ScalarType s) {
  return s == ScalarType::F16 || s == ScalarType::BF16 || ir::is_fp8(s);
}

FloatFormat float_format(ScalarType s) {
  switch (s) {
    case ScalarType::F16: return FloatFormat::F16;
    case ScalarType::BF16: return FloatFormat::BF16;
    case ScalarType::F32: return FloatFormat::F32;
    case ScalarType::F8E4NV: return FloatFormat::F8E4NV;
    case ScalarType::F8E5: return FloatFormat::F8E5;
    case ScalarType::F8E4B15: return FloatFormat::F8E4B15;
    default: throw std::logic_error("float_format: not a narrow float type");
  }
}

Val Val::make(ScalarType s, bool is_ptr, std::vector<int64_t> shape) {
  Val v;
  v.scalar = s;
  v.is_ptr = is_ptr;
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d <= 0) throw std::logic_error("interpreter: tensor dimension must be positive");
    n *= d;
  }
  v.shape = std::move(shape);
  v.numel = n;
  v.elem_size_ = storage_size(s, is_ptr);
  const int64_t bytes = n * v.elem_size_;
  if (bytes > static_cast<int64_t>(sizeof(v.inline_))) v.heap_ = std::make_shared<std::byte[]>(static_cast<size_t>(bytes));
  return v;
}

Val Val::reshaped(std::vector<int64_t> new_shape) const {
  int64_t n = 1;
  for (int64_t d : new_shape) n *= d;
  if (n != numel) throw std::logic_error("interpreter: reshape changes the element count");
  Val v = *this;
  v.shape = std::move(new_shape);
  return v;
}

uint64_t load_bits(const Val& v, int64_t i) {
  uint64_t b = 0;
  std::memcpy(&b, v.bytes() + i * v.elem_size(), static_cast<size_t>(v.elem_size()));  // little-endian host
  return b;
}

int64_t load_int(const Val& v, int64_t i) {
  const uint64_t b = load_bits(v, i);
  if (v.is_ptr || !is_signed(v.scalar)) return static_cast<int64_t>(b);
  const int w = ir::bitwidth(v.scalar);
  if (w == 64) return static_cast<int64_t>(b);
  const uint64_t sign = 1ull << (w - 1);
  return static_cast<int64_t>((b ^ sign) - sign);
}

double load_double(const Val& v, int64_t i) {
  const uint64_t b = load_bits(v, i);
  if (v.scalar == ScalarType::F64) return double_from_bits(b);
  if (v.scalar == ScalarType::F32) return static_cast<double>(float_from_bits(static_cast<uint32_t>(b)));
  return fp_decode(float_format(v.scalar), static_cast<uint32_t>(b));
}

void store_bits(Val& v, int64_t i, uint64_t bits) {
  std::memcpy(v.bytes() + i * v.elem_size(), &bits, static_cast<size_t>(v.elem_size()));
}

void store_int(Val& v, int64_t i, uint64_t value) {
  if (!v.is_ptr && v.scalar == ScalarType::I1) value = value != 0;
  store_bits(v, i, value);
}

Val scalar_from_bits(ScalarType s, bool is_ptr, uint64_t bits) {
  Val v = Val::make(s, is_ptr, {});
  store_bits(v, 0, bits);
  return v;
}

Val filled(ScalarType s, bool is_ptr, std::vector<int64_t> shape, uint64_t bits) {
  Val v = Val::make(s, is_ptr, std::move(shape));
  if (bits == 0) return v;  // already zero
  auto fill = [&](auto tag) {
    using T = decltype(tag);
    const T x = static_cast<T>(bits);  // the low bytes (little-endian host)
    std::byte* p = v.bytes();
    for (int64_t i = 0; i < v.numel; ++i) std::memcpy(p + i * sizeof(T), &x, sizeof(T));  // type-agnostic copy
  };
  switch (v.elem_size()) {
    case 1: fill(uint8_t{}); break;
    case 2: fill(uint16_t{}); break;
    case 4: fill(uint32_t{}); break;
    default: fill(uint64_t{}); break;
  }
  return v;
}

void copy_elems(const Val& src, int64_t src_off, Val& dst, int64_t dst_off, int64_t count) {
  const int es = src.elem_size();
  std::memcpy(dst.bytes() + dst_off * es, src.bytes() + src_off * es, static_cast<size_t>(count * es));
}

std::string describe(const Val& v) { return v.type().str(); }

}  // namespace tritium::interp
