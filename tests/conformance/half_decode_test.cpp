// fp16 and bf16 loads used both as bits and as numbers. The CPU backend decodes a loaded
// 16-bit float block used as numbers once, in bulk (a "decoded twin", cpu_emitter.h), and
// keeps the 16-bit array for uses of the bits (stores of the unchanged value, bitcast, abs,
// select); the interpreter decodes element by element. Every encoding goes through the kernel
// (NaN with payloads, Inf, subnormals, both zeros; never NaN in both operands), with a
// masked tail and a store over the loaded block before it is used again; the backends
// must agree bit for bit.
#include <fmt/format.h>

#include "conformance_util.h"
#include "halfbits.h"

using namespace conformance;

namespace {

void bits_and_values(bool bf16) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def mixed(x, y, o_bits, o_i16, o_sum, o_f32, o_neg, o_abs, o_sel, o_max, o_after, o_after_bits, n,
          BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    b = tl.load(y + offs, mask=m)
    tl.store(o_bits + offs, a, mask=m)                              # the bits, unchanged
    tl.store(o_i16 + offs, a.to(tl.int16, bitcast=True), mask=m)    # the bits as an int
    tl.store(o_sum + offs, a + b, mask=m)                           # fp16 arithmetic
    tl.store(o_f32 + offs, a.to(tl.float32) * 2.0 + b.to(tl.float32), mask=m)
    tl.store(o_neg + offs, -a, mask=m)                              # 0 - a in Triton
    tl.store(o_abs + offs, tl.abs(a), mask=m)                       # sign bit cleared
    tl.store(o_sel + offs, tl.where(a < b, a, b), mask=m)           # compared, bits passed
    tl.store(o_max + offs, tl.maximum(a, b), mask=m)
    # x is overwritten where a was loaded from: a keeps the loaded values, as bits and as numbers
    tl.store(x + offs, b, mask=m)
    tl.store(o_after + offs, a.to(tl.float32) + 1.0, mask=m)
    tl.store(o_after_bits + offs, a, mask=m)
)";
  const int cap = 65536, n = cap - 37, block = 1024;
  auto value = [&](uint16_t h) { return bf16 ? bf16_to_float(h) : half_to_float(h); };
  std::vector<uint16_t> x(cap), y(cap);
  for (int i = 0; i < cap; ++i) {
    x[i] = static_cast<uint16_t>(i);                          // every encoding
    y[i] = static_cast<uint16_t>((i * 40503u + 12345u) & 0xffffu);  // every encoding, shuffled
    // Not both NaN: which payload a two-NaN operation keeps is not specified (today the
    // interpreter's max and fp32 add keep the second operand's, the CPU backend's the first's).
    if (std::isnan(value(x[i])) && std::isnan(value(y[i]))) y[i] = bf16 ? 0x3f80 : 0x3c00;  // 1.0
  }
  const std::string t = bf16 ? "*bf16" : "*fp16";
  Case c(src, "mixed",
         fmt::format("{0}, {0}, {0}, *i16, {0}, *fp32, {0}, {0}, {0}, {0}, *fp32, {0}, i32, 1024", t));
  c.in(x).in(y).out<uint16_t>(cap).out<int16_t>(cap).out<uint16_t>(cap).out<float>(cap);
  c.out<uint16_t>(cap).out<uint16_t>(cap).out<uint16_t>(cap).out<uint16_t>(cap).out<float>(cap).out<uint16_t>(cap);
  c.scalar(n);
  auto r = c.run({(n + block - 1) / block});  // also checks interp == cpu, bit for bit
  auto x2 = r.get<uint16_t>(0), same = r.get<uint16_t>(2), after_bits = r.get<uint16_t>(11);
  auto i16 = r.get<int16_t>(3);
  auto f32 = r.get<float>(5), after = r.get<float>(10);
  auto mag = r.get<uint16_t>(7);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(same[i], x[i]) << i;
    ASSERT_EQ(after_bits[i], x[i]) << i;
    ASSERT_EQ(static_cast<uint16_t>(i16[i]), x[i]) << i;
    ASSERT_EQ(x2[i], y[i]) << i;
    ASSERT_EQ(mag[i], x[i] & 0x7fffu) << i;
    const float a = value(x[i]), b = value(y[i]);
    if (!std::isnan(a) && !std::isnan(b)) {
      const float want = a * 2.0f + b;
      if (std::isnan(want)) ASSERT_TRUE(std::isnan(f32[i])) << i;  // Inf - Inf
      else ASSERT_EQ(bits(f32[i]), bits(want)) << i;
    }
    if (!std::isnan(a)) ASSERT_EQ(bits(after[i]), bits(a + 1.0f)) << i;
    else ASSERT_TRUE(std::isnan(after[i])) << i;
  }
  for (int i = n; i < cap; ++i) ASSERT_EQ(same[i], poison<uint16_t>()) << "masked element written at " << i;
}

// A bf16 -> fp32 cast whose every use quiets a signaling NaN itself (arithmetic, exp, a
// comparison, a max reduction whose result is only subtracted) skips its own quieting on
// the CPU backend (tr_bf2f_nq, three vector ops fewer per 16 lanes); a cast stored as it is
// keeps it. Every bf16 encoding goes through both, signaling NaNs included; the harness
// checks interp == cpu bit for bit and the values are checked here.
const char* kQuietSrc = R"(
import triton
import triton.language as tl

@triton.jit
def arith(x, y, o_prod, o_exp, o_centered, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m, other=1.0).to(tl.float32)
    b = tl.load(y + offs, mask=m, other=1.0).to(tl.float32)
    tl.store(o_prod + offs, a * b, mask=m)
    tl.store(o_exp + offs, tl.exp(b), mask=m)
    tl.store(o_centered + offs, a - tl.max(a, axis=0), mask=m)

@triton.jit
def direct(x, o_cast, o_sum, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m).to(tl.float32)
    tl.store(o_cast + offs, a, mask=m)      # the cast stored as it is: quieted by the cast
    tl.store(o_sum + offs, a + 1.0, mask=m)
)";

/// The generated program's text after the prelude (which defines both conversions).
std::string program_text(const std::string& kernel, const std::string& signature) {
  auto mod = tritium::Module::from_string(kQuietSrc, "quiet.py");
  auto k = mod.kernel(kernel).compile(tritium::Device::get("cpu"), signature);
  const std::string& src = k.source();
  const size_t at = src.find("void tr_program(");
  return at == std::string::npos ? src : src.substr(at);
}

bool quiet_nan(float f) { return std::isnan(f) && (bits(f) & 0x00400000u) != 0; }

TEST(ConformanceHalfDecode, Bf16CastsFeedingOnlyArithmeticSkipTheirQuietingWithTheSameBits) {
  const int cap = 65536, n = cap - 19, block = 256;
  const std::string sig = "*bf16, *bf16, *fp32, *fp32, *fp32, i32, 256";
  std::vector<uint16_t> x(cap), y(cap);
  for (int i = 0; i < cap; ++i) {
    x[i] = static_cast<uint16_t>(i);                                 // every encoding
    y[i] = static_cast<uint16_t>((i * 40503u + 12345u) & 0xffffu);  // every encoding, shuffled
    if (std::isnan(bf16_to_float(x[i])) && std::isnan(bf16_to_float(y[i]))) y[i] = 0x3f80;  // one NaN at most
  }
  Case c(kQuietSrc, "arith", sig);
  c.in(x).in(y).out<float>(cap).out<float>(cap).out<float>(cap).scalar(n);
  auto r = c.run({(n + block - 1) / block});  // interp == cpu, bit for bit
  auto prod = r.get<float>(2), ex = r.get<float>(3), centered = r.get<float>(4);
  for (int i = 0; i < n; ++i) {
    const float a = bf16_to_float(x[i]), b = bf16_to_float(y[i]);
    if (std::isnan(a) || std::isnan(b)) {
      ASSERT_TRUE(quiet_nan(prod[i])) << i;  // quieted by the multiply
      if (std::isnan(a)) ASSERT_TRUE(quiet_nan(centered[i])) << i;
    } else {
      ASSERT_EQ(bits(prod[i]), bits(a * b)) << i;  // one fp32 rounding, as here
    }
    if (std::isnan(b)) ASSERT_TRUE(quiet_nan(ex[i])) << i;
    else if (b == 0.0f) ASSERT_EQ(bits(ex[i]), bits(1.0f)) << i;
    else ASSERT_FALSE(std::isnan(ex[i])) << i;
  }
  for (int i = n; i < cap; ++i) ASSERT_EQ(bits(prod[i]), bits(poison<float>())) << "masked element written at " << i;
  const std::string text = program_text("arith", sig);
  EXPECT_NE(text.find("tr_bf2f_nq("), std::string::npos) << text;
  EXPECT_EQ(text.find("tr_bf2f("), std::string::npos) << text;
}

TEST(ConformanceHalfDecode, ABf16CastStoredAsItIsComesBackQuiet) {
  const int cap = 65536, n = cap - 19, block = 256;
  const std::string sig = "*bf16, *fp32, *fp32, i32, 256";
  std::vector<uint16_t> x(cap);
  for (int i = 0; i < cap; ++i) x[i] = static_cast<uint16_t>(i);
  Case c(kQuietSrc, "direct", sig);
  c.in(x).out<float>(cap).out<float>(cap).scalar(n);
  auto r = c.run({(n + block - 1) / block});
  auto cast = r.get<float>(1), sum = r.get<float>(2);
  for (int i = 0; i < n; ++i) {
    const uint32_t u = static_cast<uint32_t>(x[i]) << 16;
    const bool nan = (u & 0x7fffffffu) > 0x7f800000u;
    ASSERT_EQ(bits(cast[i]), nan ? (u | 0x00400000u) : u) << i;  // signaling NaNs come back quiet
    if (nan) ASSERT_TRUE(quiet_nan(sum[i])) << i;
  }
  const std::string text = program_text("direct", sig);
  EXPECT_NE(text.find("tr_bf2f("), std::string::npos) << text;
  EXPECT_EQ(text.find("tr_bf2f_nq("), std::string::npos) << text;
}

TEST(ConformanceHalfDecode, BitsAndValuesOfTheSameLoad) { bits_and_values(false); }
TEST(ConformanceHalfDecode, BitsAndValuesOfTheSameBf16Load) { bits_and_values(true); }

}  // namespace
