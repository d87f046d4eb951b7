// host_array.cpp - deterministic RNG and host buffers of the bench.
#include "host_array.h"

#include <cstring>
#include <stdexcept>

namespace tritium::bench {

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double Rng::uniform(double lo, double hi) {
  const double unit = static_cast<double>(next() >> 11) * 0x1.0p-53;  // [0, 1)
  return lo + (hi - lo) * unit;
}

uint64_t seed_from(const std::string& text) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001B3ull;
  }
  return h;
}

double HostArray::get(size_t i) const {
  if (dtype == HostDtype::F32) {
    uint32_t b;
    std::memcpy(&b, bytes.data() + 4 * i, 4);
    return decode_dtype(b, dtype);
  }
  uint16_t b;
  std::memcpy(&b, bytes.data() + 2 * i, 2);
  return decode_dtype(b, dtype);
}

void HostArray::set(size_t i, double v) {
  const uint32_t b = encode_dtype(v, dtype);
  if (dtype == HostDtype::F32) {
    std::memcpy(bytes.data() + 4 * i, &b, 4);
  } else {
    const uint16_t h = static_cast<uint16_t>(b);
    std::memcpy(bytes.data() + 2 * i, &h, 2);
  }
}

std::vector<double> HostArray::to_double() const {
  std::vector<double> out(count);
  for (size_t i = 0; i < count; ++i) out[i] = get(i);
  return out;
}

HostArray random_array(const std::string& name, HostDtype dtype, size_t count, Rng& rng,
                       double lo, double hi) {
  HostArray a;
  a.name = name;
  a.dtype = dtype;
  a.count = count;
  a.bytes.assign(count * dtype_size(dtype), 0);
  bool any_nonzero = false;
  for (size_t i = 0; i < count; ++i) {
    a.set(i, rng.uniform(lo, hi));  // rounds to the dtype
    any_nonzero = any_nonzero || a.get(i) != 0.0;
  }
  if (count > 0 && !any_nonzero)
    throw std::logic_error("bench: random input '" + name + "' came out all zeros");
  return a;
}

HostArray poisoned_array(const std::string& name, HostDtype dtype, size_t count) {
  HostArray a;
  a.name = name;
  a.dtype = dtype;
  a.count = count;
  a.is_output = true;
  a.bytes.assign(count * dtype_size(dtype), kPoisonByte);
  return a;
}

}  // namespace tritium::bench
