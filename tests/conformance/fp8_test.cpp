// fp8 (float8e4nv, float8e5, float8e4b15) in kernels, on the interpreter and the CPU backend
// (bit-identical: the harness): loads and stores of raw fp8 bits, decoding every one of the
// 256 encodings to fp32 / fp16 / bf16, encoding fp32 / fp16 values (random, ties,
// subnormals, overflow, ±Inf, NaN) to fp8, round-toward-zero, and fp8 arithmetic. The
// expected values come from a decoder written here from the formats' definitions and a
// brute-force encoder, not from tritium's float_formats.cpp. The encoder's rules are what
// upstream Triton 3.6 does on an H200 (kernels/tools/upstream_fp8.py runs this same
// reference against it; docs/perf/2026-12-01-h200-upstream-baseline.md):
//   fp8e4nv, fp8e5: nearest, ties to the even encoding, saturation to ±max finite (PTX
//     cvt.rn.satfinite), NaN -> 0x7F; fp8e5 with RTZ: truncation, finite overflow -> ±max,
//     ±Inf stays ±Inf;
//   fp8e4b15: nearest, ties AWAY from zero, saturation to ±1.75 (0x7E; 0x7F = 1.875 decodes
//     but is never produced), NaN -> 0x7E, RTZ ignored.
//
//   format     bias  mantissa  specials
//   fp8e4nv      7     3       no Inf; S.1111.111 is NaN; max 448
//   fp8e5       15     2       IEEE: exponent 31 is Inf (m = 0) / NaN (m != 0); max 57344
//   fp8e4b15    15     3       no Inf, no NaN (Triton's pre-Hopper format)
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "conformance_util.h"
#include "halfbits.h"

using namespace conformance;

namespace {

struct Fmt {
  const char* tl_name;  // tl.float8...
  const char* sig;      // signature dtype
  int bias, mant;
  bool ieee;            // exponent all-ones is Inf/NaN
  bool nan_all_ones;    // e4nv: only S.1111.111 is NaN
};
const Fmt kFormats[] = {
    {"float8e4nv", "fp8e4nv", 7, 3, false, true},
    {"float8e5", "fp8e5", 15, 2, true, false},
    {"float8e4b15", "fp8e4b15", 15, 3, false, false},
};

double decode(const Fmt& f, uint8_t b) {
  const int ebits = 7 - f.mant;
  const int s = b >> 7, e = (b >> f.mant) & ((1 << ebits) - 1), m = b & ((1 << f.mant) - 1);
  const double sign = s ? -1.0 : 1.0;
  if (f.ieee && e == (1 << ebits) - 1) return m ? std::nan("") : sign * INFINITY;
  if (f.nan_all_ones && e == (1 << ebits) - 1 && m == (1 << f.mant) - 1) return std::nan("");
  if (e == 0) return sign * std::ldexp(m, 1 - f.bias - f.mant);
  return sign * std::ldexp((1 << f.mant) + m, e - f.bias - f.mant);
}

bool is_e4b15(const Fmt& f) { return f.bias == 15 && f.mant == 3; }

// The encoding of `x` by the rules above (rtz: round toward zero).
uint8_t encode(const Fmt& f, double x, bool rtz = false) {
  const bool b15 = is_e4b15(f);
  if (std::isnan(x)) return b15 ? 0x7E : 0x7F;
  if (b15) rtz = false;
  const uint8_t sign = std::signbit(x) ? 0x80 : 0;
  int max_code = 0;
  for (int b = 0; b < 128; ++b)
    if (std::isfinite(decode(f, static_cast<uint8_t>(b)))) max_code = b;
  if (b15) max_code = 0x7E;
  if (std::isinf(x) && f.ieee && rtz) return static_cast<uint8_t>(0x7C | sign);
  if (std::fabs(x) >= decode(f, static_cast<uint8_t>(max_code)))  // saturate (satfinite)
    return static_cast<uint8_t>(max_code | sign);
  int best = -1;
  double best_d = INFINITY;
  for (int b = 0; b <= max_code; ++b) {
    const double v = decode(f, static_cast<uint8_t>(b)), d = std::fabs(std::fabs(x) - v);
    if (rtz && v > std::fabs(x)) continue;
    const bool tie_wins = b15 ? true : (b & 1) == 0;  // ascending b: a later tie is farther from zero
    if (d < best_d || (d == best_d && tie_wins)) best = b, best_d = d;
  }
  return static_cast<uint8_t>(best | sign);
}

float f32(double v) { return static_cast<float>(v); }

TEST(ConformanceFp8, DecodeEveryEncoding) {
  for (const Fmt& f : kFormats) {
    SCOPED_TRACE(f.tl_name);
    const std::string src = fmt::format(R"(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, o32, o16, ob16):
    offs = tl.arange(0, 256)
    x = tl.load(x_ptr + offs)
    tl.static_assert(x.dtype == tl.{})
    tl.store(o32 + offs, x.to(tl.float32))
    tl.store(o16 + offs, x.to(tl.float16))
    tl.store(ob16 + offs, x.to(tl.bfloat16))
)", f.tl_name);
    std::vector<uint8_t> bits(256);
    for (int i = 0; i < 256; ++i) bits[static_cast<size_t>(i)] = static_cast<uint8_t>(i);
    Case c(src, "k", fmt::format("*{}, *fp32, *fp16, *bf16", f.sig));
    c.in(bits).out<float>(256).out<uint16_t>(256).out<uint16_t>(256);
    auto r = c.run({1});
    auto o = r.get<float>(1);
    auto h = r.get<uint16_t>(2);
    auto bf = r.get<uint16_t>(3);
    for (int i = 0; i < 256; ++i) {
      const double want = decode(f, static_cast<uint8_t>(i));
      const size_t k = static_cast<size_t>(i);
      if (std::isnan(want)) {
        ASSERT_TRUE(std::isnan(o[k])) << i;
        ASSERT_EQ(h[k] & 0x7C00, 0x7C00) << i;
        ASSERT_NE(h[k] & 0x03FF, 0) << "fp16 NaN " << i;
        continue;
      }
      ASSERT_EQ(o[k], f32(want)) << "code " << i;
      // Every fp8 value is exact in fp16 and bf16 (fewer mantissa bits, exponents in range).
      ASSERT_EQ((double)half_to_float(h[k]), want) << "fp16 of code " << i;
      uint32_t u = static_cast<uint32_t>(bf[k]) << 16;
      float bfv;
      std::memcpy(&bfv, &u, 4);
      ASSERT_EQ(static_cast<double>(bfv), want) << "bf16 of code " << i;
    }
  }
}

TEST(ConformanceFp8, EncodeRoundsToNearestEvenAndSaturates) {
  for (const Fmt& f : kFormats) {
    SCOPED_TRACE(f.tl_name);
    const std::string src = fmt::format(R"(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, o8, oh8, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(o8 + offs, x.to(tl.{0}))
    tl.store(oh8 + offs, x.to(tl.float16).to(tl.{0}))
)", f.tl_name);
    // Random values over the format's range, every value and every midpoint between two
    // neighbouring encodings (ties), just above / below the midpoints, past the max, Inf, NaN.
    std::vector<float> x = rand_f32(256, -2.f, 2.f);
    const double scale = f.bias == 7 ? 256.0 : f.mant == 2 ? 32768.0 : 1.0;
    for (auto& v : x) v = static_cast<float>(v * scale);
    for (int b = 0; b < 127; ++b) {
      const double lo = decode(f, static_cast<uint8_t>(b)), hi = decode(f, static_cast<uint8_t>(b + 1));
      if (!std::isfinite(lo) || !std::isfinite(hi)) continue;
      const double mid = (lo + hi) / 2;
      x.push_back(f32(lo));
      x.push_back(f32(mid));
      x.push_back(-f32(mid));
      x.push_back(std::nextafter(f32(mid), 1e30f));
      x.push_back(std::nextafter(f32(mid), -1e30f));
    }
    for (float v : {1e30f, -1e30f, INFINITY, -INFINITY, NAN, -0.0f, 0x1p-30f, 500.f, 60000.f, 2.0f})
      x.push_back(v);
    while (x.size() % 1024) x.push_back(0.3f);
    const size_t n = x.size();
    Case c(src, "k", fmt::format("*fp32, *{0}, *{0}, {1}", f.sig, n));
    c.in(x).out<uint8_t>(n).out<uint8_t>(n);
    auto r = c.run({1});
    auto o = r.get<uint8_t>(1);
    auto oh = r.get<uint8_t>(2);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(o[i], encode(f, x[i])) << "fp32 " << x[i] << " (" << std::hexfloat << x[i] << ")";
      // Through fp16 first: two roundings, each to nearest even (fp16 overflow gives Inf,
      // which then saturates).
      const double via = std::isnan(x[i]) ? NAN : (double)half_to_float(half_rne(x[i]));
      ASSERT_EQ(oh[i], encode(f, via)) << "fp16 of " << x[i];
    }
  }
}

TEST(ConformanceFp8, RoundTowardZero) {
  // fp8e5: truncation; fp8e4b15: rtz is ignored (nearest, ties away), as upstream.
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, o5, ob, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(o5 + offs, x.to(tl.float8e5, fp_downcast_rounding="rtz"))
    tl.store(ob + offs, x.to(tl.float8e4b15, fp_downcast_rounding="rtz"))
)";
  std::vector<float> x = rand_f32(512, -2.f, 2.f);
  for (size_t i = 0; i < 256; ++i) x[i] *= 40000.f;
  for (float v : {1e30f, -1e30f, INFINITY, -INFINITY, NAN, 1.19f, -1.19f, 1.0625f, 60000.f, 0x1p-17f})
    x.push_back(v);
  while (x.size() < 1024) x.push_back(0.7f);
  const size_t n = x.size();
  Case c(src, "k", fmt::format("*fp32, *fp8e5, *fp8e4b15, {}", n));
  c.in(x).out<uint8_t>(n).out<uint8_t>(n);
  auto r = c.run({1});
  auto o5 = r.get<uint8_t>(1), ob = r.get<uint8_t>(2);
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(o5[i], encode(kFormats[1], x[i], true)) << x[i];
    ASSERT_EQ(ob[i], encode(kFormats[2], x[i], true)) << x[i];
  }
}

TEST(ConformanceFp8, RoundTowardZeroToE4nvIsAnError) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, o):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(o + tl.arange(0, 16), x.to(tl.float8e4nv, fp_downcast_rounding="rtz"))
)";
  tritium::CompileError e = expect_compile_error(
      src, "k", "*fp32, *fp8e4nv",
      "fp_downcast_rounding='rtz' to fp8e4nv is not supported (upstream Triton cannot compile it either); source type fp32");
  EXPECT_EQ(e.line(), 8);
}

TEST(ConformanceFp8, MixedFp8ArithmeticComputesInFp16) {
  // Two different fp8 types promote to fp16 (upstream's computation type), exactly as fp16
  // arithmetic: the product of two fp8 values is exact in fp32, rounded once to fp16.
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def k(a_ptr, b_ptr, o_mixed, o_max):
    offs = tl.arange(0, 256)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    m = a * b
    tl.static_assert(m.dtype == tl.float16)
    tl.store(o_mixed + offs, m)
    tl.store(o_max + offs, tl.maximum(a, a))
)";
  std::vector<uint8_t> a(256), b(256);
  for (int i = 0; i < 256; ++i) {
    a[static_cast<size_t>(i)] = static_cast<uint8_t>((i * 37 + 11) & 0x7E);  // finite e4nv
    b[static_cast<size_t>(i)] = static_cast<uint8_t>((i * 53 + 5) & 0xFB);   // finite e5 (exponent < 31)
  }
  Case c(src, "k", "*fp8e4nv, *fp8e5, *fp16, *fp8e4nv");
  c.in(a).in(b).out<uint16_t>(256).out<uint8_t>(256);
  auto r = c.run({1});
  auto mixed = r.get<uint16_t>(2);
  auto mx = r.get<uint8_t>(3);
  for (size_t i = 0; i < 256; ++i) {
    const double x = decode(kFormats[0], a[i]), y = decode(kFormats[1], b[i]);
    ASSERT_EQ(mixed[i], half_rne(f32(x * y))) << i;
    ASSERT_EQ(mx[i], a[i]) << "maximum(a, a) keeps a's bits, " << i;
  }
}

TEST(ConformanceFp8, SameTypeArithmeticIsAnError) {
  // upstream 3.6 fails to compile +, -, *, /, comparisons and unary minus on one fp8 type
  // (measured on an H200); tritium refuses them with the operation named.
  struct Row {
    const char* expr;
    const char* what;
  };
  for (const Row& row : {Row{"a + a", "+"}, Row{"a * a", "*"}, Row{"a - 1.0", "-"}, Row{"-a", "-"},
                         Row{"a / a", "/"}, Row{"a < a", "comparison"}}) {
    const std::string src = fmt::format(R"(
import triton
import triton.language as tl

@triton.jit
def k(a_ptr, o):
    a = tl.load(a_ptr + tl.arange(0, 16))
    tl.store(o + tl.arange(0, 16), ({}).to(tl.float32))
)", row.expr);
    tritium::CompileError e = expect_compile_error(
        src, "k", "*fp8e4nv, *fp32",
        fmt::format("{} of fp8e4nv values is not supported (upstream Triton cannot compile it either); convert to "
                    "fp16 or fp32 first, e.g. x.to(tl.float32)",
                    row.what));
    EXPECT_EQ(e.line(), 8) << row.expr;
  }
}

}  // namespace
