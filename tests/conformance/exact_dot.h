// Exact dot-product operands for the conformance tests of tensor-core paths
// (pipeline_test.cpp, tma_test.cpp): values k/64 with |k| <= 64 are exact in fp16 and bf16,
// every product of two is a multiple of 2^-12 of magnitude <= 1, and a sum of at most 2^9
// of them is a multiple of 2^-12 below 2^9, exact in fp32 (2^9 / 2^-12 = 2^21 < 2^24) in
// any order — so a dot of up to 512 terms equals its float64 reference on every backend.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "conformance_util.h"
#include "halfbits.h"

namespace conformance {

/// n fresh random values k/64, |k| <= 64, as fp16 or bf16 bits.
inline std::vector<uint16_t> exact_operand(size_t n, bool bf16) {
  auto k = rand_int<int16_t>(n, -64, 64);
  std::vector<uint16_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = bf16 ? bf16_rne(k[i] / 64.0f) : exact_half(k[i] / 64.0);
  return v;
}

/// The value of fp16 / bf16 bits h.
inline double exact_value(uint16_t h, bool bf16) { return bf16 ? bf16_to_float(h) : half_to_float(h); }

/// Every element of `got` equals `want` (NaN never does); the first 5 differences reported.
inline void check_exact(const std::vector<float>& got, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  int bad = 0;
  for (size_t i = 0; i < got.size() && bad < 5; ++i)
    if (std::isnan(got[i]) || static_cast<double>(got[i]) != want[i]) {
      ++bad;
      ADD_FAILURE() << what << " [" << i << "]: got " << got[i] << " want " << want[i];
    }
}

}  // namespace conformance
