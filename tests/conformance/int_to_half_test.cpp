// Integer -> fp16 / bf16 casts of every integer width, checked against a rounding written
// here from the formats' definitions (exact integer arithmetic): the value rounded ONCE to
// nearest even, overflow to inf. The cases that matter are the ones a double rounding gets
// wrong (through an intermediate fp32, a value above 2^24 just past a bf16 tie) and fp16's
// overflow threshold 65520. Run on interp, cpu, opencl and msl-emu by the harness (msl-emu
// rounds through its own integer-only path, Metal having no double).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "conformance_util.h"
#include "halfbits.h"

using namespace conformance;

namespace {

const char* kSrc = R"(
import triton
import triton.language as tl

@triton.jit
def k(a, b, c, d, h_a, h_b, h_c, h_d, f_a, f_b, f_c, f_d, N: tl.constexpr):
    offs = tl.arange(0, N)
    x32 = tl.load(a + offs)
    x64 = tl.load(b + offs)
    u32 = tl.load(c + offs)
    u64 = tl.load(d + offs)
    tl.store(h_a + offs, x32.to(tl.float16))
    tl.store(h_b + offs, x64.to(tl.float16))
    tl.store(h_c + offs, u32.to(tl.float16))
    tl.store(h_d + offs, u64.to(tl.float16))
    tl.store(f_a + offs, x32.to(tl.bfloat16))
    tl.store(f_b + offs, x64.to(tl.bfloat16))
    tl.store(f_c + offs, u32.to(tl.bfloat16))
    tl.store(f_d + offs, u64.to(tl.bfloat16))
)";

// The magnitude m > 0 rounded to `sig` significant bits, nearest even: returns the rounded
// magnitude as (mantissa, exponent) with mantissa < 2^sig (or == 2^sig after a carry).
void round_sig(uint64_t m, int sig, uint64_t* mant, int* exp2) {
  int top = 63 - __builtin_clzll(m);  // m in [2^top, 2^(top+1))
  int sh = top + 1 - sig;
  if (sh <= 0) {
    *mant = m, *exp2 = 0;
    return;
  }
  uint64_t q = m >> sh, rest = m & ((uint64_t{1} << sh) - 1), half = uint64_t{1} << (sh - 1);
  if (rest > half || (rest == half && (q & 1))) ++q;
  *mant = q, *exp2 = sh;
}

// bf16 bits of the integer (neg, m): 8 significant bits, never overflows from 64-bit ints.
uint16_t bf16_of(bool neg, uint64_t m) {
  if (m == 0) return 0;
  uint64_t q;
  int e;
  round_sig(m, 8, &q, &e);
  const double v = std::ldexp(static_cast<double>(q), e);  // exact
  return static_cast<uint16_t>((neg ? 0x8000 : 0) | bf16_rne(static_cast<float>(v)));  // v has <= 9 bits: exact in bf16
}

// fp16 bits of the integer (neg, m): 11 significant bits; from 65520 up, infinity.
uint16_t f16_of(bool neg, uint64_t m) {
  const uint16_t s = neg ? 0x8000 : 0;
  if (m == 0) return 0;
  uint64_t q;
  int e;
  round_sig(m, 11, &q, &e);
  const double v = std::ldexp(static_cast<double>(q), e);
  if (v > 65504.0) return static_cast<uint16_t>(s | 0x7C00);
  return static_cast<uint16_t>(s | exact_half(v));
}

template <class T>
void expect_row(const std::vector<T>& x, const std::vector<uint16_t>& h, const std::vector<uint16_t>& f, const char* what) {
  for (size_t i = 0; i < x.size(); ++i) {
    const bool neg = x[i] < 0;
    const uint64_t m = neg ? uint64_t{0} - static_cast<uint64_t>(static_cast<int64_t>(x[i])) : static_cast<uint64_t>(x[i]);
    EXPECT_EQ(h[i], f16_of(neg, m)) << what << " -> fp16 of " << +x[i];
    EXPECT_EQ(f[i], bf16_of(neg, m)) << what << " -> bf16 of " << +x[i];
  }
}

}  // namespace

TEST(ConformanceIntToHalf, EveryWidthRoundsOnce) {
  const int n = 64;
  auto a = rand_int<int32_t>(n, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  auto b = rand_int<int64_t>(n, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
  auto c = rand_int<uint32_t>(n, 1, std::numeric_limits<uint32_t>::max());
  std::vector<uint64_t> d(n);
  for (auto& v : d) v = rng()() | 1;
  // fp16: the overflow threshold and a tie; bf16: ties above 2^24 that fp32 would round first
  const int32_t e32[] = {65504, 65519, 65520, -65520, 2049, -2051, (1 << 24) + (1 << 16), (1 << 24) + (1 << 16) + 1,
                         (1 << 24) + (3 << 16), std::numeric_limits<int32_t>::min(), -1, 1};
  const int64_t e64[] = {(int64_t{1} << 40) + (int64_t{1} << 32) + 1, -((int64_t{1} << 40) + (int64_t{1} << 32)),
                         (int64_t{1} << 33) + (int64_t{1} << 25), (int64_t{1} << 33) + (int64_t{1} << 25) + 1,
                         std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), 65520, -65519};
  const uint64_t eu64[] = {~uint64_t{0}, (uint64_t{1} << 63) + (uint64_t{1} << 55), (uint64_t{1} << 63) + (uint64_t{1} << 55) + 1,
                           (uint64_t{1} << 24) + (uint64_t{1} << 16) + 1, 65520, 65519};
  for (size_t i = 0; i < std::size(e32); ++i) a[i] = e32[i], c[i] = static_cast<uint32_t>(e32[i]);
  for (size_t i = 0; i < std::size(e64); ++i) b[i] = e64[i];
  for (size_t i = 0; i < std::size(eu64); ++i) d[i] = eu64[i];
  Case k(kSrc, "k", "*i32, *i64, *u32, *u64, *fp16, *fp16, *fp16, *fp16, *bf16, *bf16, *bf16, *bf16, 64");
  k.in(a).in(b).in(c).in(d);
  for (int j = 0; j < 8; ++j) k.out<uint16_t>(n);
  auto r = k.run({1});
  expect_row(a, r.get<uint16_t>(4), r.get<uint16_t>(8), "int32");
  expect_row(b, r.get<uint16_t>(5), r.get<uint16_t>(9), "int64");
  expect_row(c, r.get<uint16_t>(6), r.get<uint16_t>(10), "uint32");
  expect_row(d, r.get<uint16_t>(7), r.get<uint16_t>(11), "uint64");
}
