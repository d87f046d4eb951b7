// Tests of src/common/tmath.inc (tr_expf, tr_exp2f, tr_logf, tr_log2f) against libm in
// double: the error of each result in ulps of the correctly rounded binary32 result
// (subnormal results: units of 2^-149) over a dense deterministic sweep of the whole domain
// plus every float in small windows around the thresholds, and every special value exactly.
// The exhaustive check over all 2^32 inputs is tests/tools/tmath_exhaustive.cpp (its
// results are recorded in tmath.inc).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

namespace {
#include "common/tmath.inc"
}  // namespace

namespace {

// The accuracy bound asserted here: 1 ulp. (Measured over all 2^32 inputs: at most 0.786
// ulp, see tmath.inc; this test prints what its own sample reaches.)
constexpr double kMaxUlp = 1.0;

float fb(uint32_t b) { return std::bit_cast<float>(b); }
uint32_t bf(float f) { return std::bit_cast<uint32_t>(f); }

double ulp_of(float cr) {  // the ulp of the correctly rounded result's binade
  const float a = std::fabs(cr);
  if (a < 0x1p-126f) return 0x1p-149;
  int e;
  std::frexp(a, &e);
  return std::ldexp(1.0, e - 24);
}

// Error of y in ulps against the double reference; +inf for a special-value mismatch
// (NaN vs number, a wrong infinity, a wrong sign of zero).
double err_ulp(float y, double ref) {
  const double inf = std::numeric_limits<double>::infinity();
  if (std::isnan(ref)) return std::isnan(y) ? 0.0 : inf;
  if (std::isnan(y)) return inf;
  const float cr = static_cast<float>(ref);
  if (std::isinf(cr)) return y == cr ? 0.0 : inf;
  if (std::isinf(y)) return inf;
  if (cr == 0 && y == 0 && std::signbit(cr) != std::signbit(y)) return inf;
  return std::fabs(static_cast<double>(y) - ref) / ulp_of(cr);
}

struct Fn {
  const char* name;
  float (*f)(float);
  double (*ref)(double);
};
const Fn kFns[] = {
    {"tr_expf", [](float x) { return tr_expf(x); }, [](double x) { return std::exp(x); }},
    {"tr_exp2f", [](float x) { return tr_exp2f(x); }, [](double x) { return std::exp2(x); }},
    {"tr_logf", [](float x) { return tr_logf(x); }, [](double x) { return std::log(x); }},
    {"tr_log2f", [](float x) { return tr_log2f(x); }, [](double x) { return std::log2(x); }},
};

struct Worst {
  double ulp = 0;
  float x = 0;
  uint64_t n = 0;
  void add(const Fn& fn, float x_) {
    const double e = err_ulp(fn.f(x_), fn.ref(static_cast<double>(x_)));
    ++n;
    if (e > ulp || std::isinf(e)) {
      ulp = e;
      x = x_;
    }
  }
};

// Every float within `half` bit patterns of x (same sign, both directions).
void window(const Fn& fn, float x, uint32_t half, Worst& w) {
  const uint32_t b = bf(x);
  const uint32_t mag = b & 0x7fffffffu;
  const uint32_t lo = mag > half ? mag - half : 0u;
  const uint32_t hi = mag + half < 0x7f800000u ? mag + half : 0x7f800000u;
  for (uint32_t m = lo; m <= hi; ++m) w.add(fn, fb((b & 0x80000000u) | m));
}

void report(const Fn& fn, const char* what, const Worst& w) {
  std::printf("[ tmath    ] %-9s %-10s max %.4f ulp at %a (%llu inputs)\n", fn.name, what, w.ulp,
              static_cast<double>(w.x), static_cast<unsigned long long>(w.n));
  ::testing::Test::RecordProperty(std::string(fn.name) + "_" + what + "_max_ulp", std::to_string(w.ulp));
  EXPECT_LE(w.ulp, kMaxUlp) << fn.name << " at x = " << w.x << " (" << std::hexfloat << w.x << ")";
}

// Every 2^8-th bit pattern of all 2^32, each with low bits that vary from sample to sample
// (so the sample is not only floats with eight trailing zero bits): 16M inputs per function,
// about 2.5 s for all four in a Release build.
TEST(Tmath, DenseSweepWithinOneUlp) {
  constexpr uint32_t kShift = 8;
  for (const Fn& fn : kFns) {
    Worst w;
    for (uint64_t i = 0; i < (1ull << (32 - kShift)); ++i) {
      const uint32_t low = static_cast<uint32_t>((i * 0x9E3779B1u) >> 7) & ((1u << kShift) - 1);
      w.add(fn, fb(static_cast<uint32_t>(i << kShift) | low));
    }
    report(fn, "sweep", w);
  }
}

TEST(Tmath, ThresholdWindowsWithinOneUlp) {
  constexpr uint32_t kHalf = 1u << 16;  // 131073 floats per window
  const float exp_points[] = {0x1.62e42ep+6f,   // largest x with a finite exp
                              -0x1.5d589ep+6f,  // exp(x) ~ 2^-126: normal / subnormal results
                              -0x1.9fe368p+6f,  // exp(x) ~ 2^-150: 2^-149 / +0
                              -0x1.9d1da0p+6f,  // exp(x) ~ 2^-149
                              0x1p-20f, -0x1p-20f, 0.34657359f, -0.34657359f, 1.0f, -1.0f};
  const float exp2_points[] = {0x1.fffffep+6f, -126.0f, -149.0f, -150.0f, -149.5f, 0.5f, -0.5f, 0x1p-20f, -0x1p-20f,
                               1.0f};
  const float log_points[] = {1.0f, 0x1.6a09e6p-1f, 0x1.6a09e6p+0f, 2.0f, 0.5f, 0x1p-126f,
                              0x1p-149f,  // the smallest subnormals
                              std::numeric_limits<float>::max(), 2.718281828f};
  for (int i = 0; i < 4; ++i) {
    const Fn& fn = kFns[i];
    Worst w;
    if (i == 0)
      for (float x : exp_points) window(fn, x, kHalf, w);
    else if (i == 1)
      for (float x : exp2_points) window(fn, x, kHalf, w);
    else
      for (float x : log_points) window(fn, x, kHalf, w);
    report(fn, "windows", w);
  }
}

// Every 512th float of [2^-40, 1] and of [-1, -2^-40]: exp near 1 and the small reduced
// arguments (log near 1 is in the windows above; negative inputs of log give NaN).
TEST(Tmath, SmallArgumentsWithinOneUlp) {
  for (const Fn& fn : kFns) {
    Worst w;
    for (uint32_t m = bf(0x1p-40f); m <= bf(1.0f); m += 1u << 9) {
      w.add(fn, fb(m));
      w.add(fn, fb(m | 0x80000000u));
    }
    report(fn, "small", w);
  }
}

bool is_quiet_nan(float y) { return std::isnan(y) && (bf(y) & 0x00400000u); }

// tr_erff (the MSL renderer's erf): the same sweep against glibc's double erf, bound 1.1
// ulp (1.085 measured over all 2^32 inputs, tmath.inc), plus the windows around its two
// interval boundaries and the special values.
TEST(Tmath, ErfSweepWithinItsBound) {
  const Fn erf = {"tr_erff", [](float x) { return tr_erff(x); }, [](double x) { return std::erf(x); }};
  constexpr uint32_t kShift = 8;
  Worst w;
  for (uint64_t i = 0; i < (1ull << (32 - kShift)); ++i) {
    const uint32_t low = static_cast<uint32_t>((i * 0x9E3779B1u) >> 7) & ((1u << kShift) - 1);
    w.add(erf, fb(static_cast<uint32_t>(i << kShift) | low));
  }
  for (float edge : {0.921875f, -0.921875f, 3.92f, -3.92f, 0x1.e7bb16p-1f}) window(erf, edge, 1 << 16, w);
  std::printf("[ tmath    ] tr_erff   sweep      max %.4f ulp at %a (%llu inputs)\n", w.ulp, static_cast<double>(w.x),
              static_cast<unsigned long long>(w.n));
  EXPECT_LE(w.ulp, 1.1) << std::hexfloat << w.x;
  EXPECT_EQ(bf(tr_erff(0.0f)), bf(0.0f));
  EXPECT_EQ(bf(tr_erff(-0.0f)), bf(-0.0f));
  EXPECT_EQ(tr_erff(std::numeric_limits<float>::infinity()), 1.0f);
  EXPECT_EQ(tr_erff(-std::numeric_limits<float>::infinity()), -1.0f);
  EXPECT_TRUE(std::isnan(tr_erff(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(tr_erff(0x1p-149f), static_cast<float>(std::erf(0x1p-149)));  // subnormal: 2x/sqrt(pi)
}

TEST(Tmath, ExpSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  for (auto f : {tr_expf, tr_exp2f}) {
    EXPECT_TRUE(is_quiet_nan(f(std::numeric_limits<float>::quiet_NaN())));
    EXPECT_EQ(bf(f(fb(0x7f800001u))), 0x7fc00001u);  // signaling NaN: quieted, payload kept
    EXPECT_EQ(bf(f(fb(0xffc12345u))), 0xffc12345u);  // sign and payload kept
    EXPECT_EQ(f(inf), inf);
    EXPECT_EQ(bf(f(-inf)), 0u);  // +0
    EXPECT_EQ(f(0.0f), 1.0f);
    EXPECT_EQ(f(-0.0f), 1.0f);
    EXPECT_EQ(f(1e30f), inf);
    EXPECT_EQ(bf(f(-1e30f)), 0u);
    EXPECT_EQ(f(fb(0x00000001u)), 1.0f);  // denorm_min
    EXPECT_EQ(f(fb(0x80000001u)), 1.0f);
  }
  // overflow exactly at the threshold
  EXPECT_EQ(tr_expf(0x1.62e430p+6f), inf);
  EXPECT_TRUE(std::isfinite(tr_expf(0x1.62e42ep+6f)));
  EXPECT_EQ(tr_expf(0x1.62e42ep+6f), static_cast<float>(std::exp(static_cast<double>(0x1.62e42ep+6f))));
  EXPECT_EQ(tr_exp2f(128.0f), inf);
  EXPECT_EQ(tr_exp2f(0x1.fffffep+6f), static_cast<float>(std::exp2(static_cast<double>(0x1.fffffep+6f))));
  // gradual underflow
  EXPECT_EQ(bf(tr_exp2f(-149.0f)), 1u);
  EXPECT_EQ(bf(tr_exp2f(-149.5f)), 1u);
  EXPECT_EQ(bf(tr_exp2f(-150.0f)), 0u);  // 2^-150: the tie rounds to even
  EXPECT_EQ(bf(tr_exp2f(-0x1.2bfffep+7f)), 1u);  // just above -150
  EXPECT_EQ(bf(tr_expf(-0x1.9fe36ap+6f)), 0u);   // exp(x) just below 2^-150
  EXPECT_EQ(bf(tr_expf(-0x1.9fe368p+6f)), 1u);   // exp(x) just above 2^-150
  EXPECT_EQ(tr_expf(-100.0f), static_cast<float>(std::exp(-100.0)));  // subnormal
  EXPECT_GT(tr_expf(-100.0f), 0.0f);
  EXPECT_LT(tr_expf(-100.0f), 0x1p-126f);
  // exact powers of two, normal and subnormal
  for (int k = -149; k <= 127; ++k) EXPECT_EQ(tr_exp2f(static_cast<float>(k)), std::ldexp(1.0f, k)) << k;
  EXPECT_EQ(tr_expf(1.0f), static_cast<float>(std::exp(1.0)));
}

TEST(Tmath, LogSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  for (auto f : {tr_logf, tr_log2f}) {
    EXPECT_TRUE(is_quiet_nan(f(std::numeric_limits<float>::quiet_NaN())));
    EXPECT_EQ(bf(f(fb(0x7f800001u))), 0x7fc00001u);
    EXPECT_EQ(bf(f(fb(0xffc12345u))), 0xffc12345u);
    EXPECT_EQ(f(0.0f), -inf);
    EXPECT_EQ(f(-0.0f), -inf);
    EXPECT_EQ(f(inf), inf);
    EXPECT_TRUE(is_quiet_nan(f(-inf)));
    EXPECT_TRUE(is_quiet_nan(f(-1.0f)));
    EXPECT_TRUE(is_quiet_nan(f(fb(0x80000001u))));  // negative subnormal
    EXPECT_TRUE(is_quiet_nan(f(-std::numeric_limits<float>::max())));
    EXPECT_EQ(bf(f(1.0f)), 0u);  // +0
  }
  // exact powers of two, normal and subnormal inputs
  for (int k = -149; k <= 127; ++k) EXPECT_EQ(tr_log2f(std::ldexp(1.0f, k)), static_cast<float>(k)) << k;
  // subnormal inputs
  for (uint32_t b : {0x00000001u, 0x00000003u, 0x00012345u, 0x007fffffu, 0x00400000u}) {
    EXPECT_LE(err_ulp(tr_logf(fb(b)), std::log(static_cast<double>(fb(b)))), 0.6) << b;
    EXPECT_LE(err_ulp(tr_log2f(fb(b)), std::log2(static_cast<double>(fb(b)))), 0.6) << b;
  }
  EXPECT_EQ(tr_logf(std::numeric_limits<float>::max()),
            static_cast<float>(std::log(static_cast<double>(std::numeric_limits<float>::max()))));
}

}  // namespace
