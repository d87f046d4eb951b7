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

TEST(ConformanceHalfDecode, BitsAndValuesOfTheSameLoad) { bits_and_values(false); }
TEST(ConformanceHalfDecode, BitsAndValuesOfTheSameBf16Load) { bits_and_values(true); }

}  // namespace
