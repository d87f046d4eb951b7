// Fresh random test inputs for the API tests: n floats uniform in (-bound, bound) from a
// seeded std::mt19937, never zero (a zero would hide a dropped or unwritten operand).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

inline std::vector<float> random_nonzero_floats(size_t n, uint32_t seed, float bound) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-bound, bound);
  std::vector<float> v(n);
  for (float& x : v) {
    do x = dist(gen); while (x == 0.f);
  }
  return v;
}
