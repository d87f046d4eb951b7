// Casts: fp32 -> fp16 / bf16 with round-to-nearest-even and fp_downcast_rounding="rtz"
// (hand-computed bit patterns at ties and overflow, plus random inputs against the
// helpers in halfbits.h); float -> int truncation; int -> float; bitcast; int1
// conversions; .to(tl.int8) wrapping; sign / zero extension.
#include "conformance_util.h"
#include "halfbits.h"

using namespace conformance;

namespace {

const char* kDown = R"(
import triton
import triton.language as tl

@triton.jit
def down(x_ptr, h_ne, h_rz, b_ne, b_rz, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(h_ne + offs, x.to(tl.float16))
    tl.store(h_rz + offs, x.to(tl.float16, fp_downcast_rounding="rtz"))
    tl.store(b_ne + offs, tl.cast(x, tl.bfloat16, fp_downcast_rounding="rtne"))
    tl.store(b_rz + offs, tl.cast(x, tl.bfloat16, fp_downcast_rounding="rtz"))
)";

TEST(ConformanceCast, DowncastHandPatterns) {
  // value, fp16 RNE, fp16 RTZ, bf16 RNE, bf16 RTZ (computed by hand)
  struct Row {
    float x;
    uint16_t hne, hrz, bne, brz;
  };
  const Row rows[] = {
      {1.0f + 0x1p-11f, 0x3C00, 0x3C00, 0x3F80, 0x3F80},                  // fp16 tie -> even
      {1.0f + 3 * 0x1p-11f, 0x3C02, 0x3C01, 0x3F80, 0x3F80},              // fp16 tie -> even (up)
      {1.0f + 0x1p-11f + 0x1p-20f, 0x3C01, 0x3C00, 0x3F80, 0x3F80},       // above the tie
      {-(1.0f + 3 * 0x1p-11f), 0xBC02, 0xBC01, 0xBF80, 0xBF80},           // negative
      {1.0f + 0x1p-8f, 0x3C04, 0x3C04, 0x3F80, 0x3F80},                   // bf16 tie -> even
      {1.0f + 3 * 0x1p-8f, 0x3C0C, 0x3C0C, 0x3F82, 0x3F81},               // bf16 tie -> even (up)
      {1.0f + 0x1p-8f + 0x1p-20f, 0x3C04, 0x3C04, 0x3F81, 0x3F80},        // bf16 above the tie
      {0.1f, 0x2E66, 0x2E66, 0x3DCD, 0x3DCC},                             // 0x3DCCCCCD
      {65520.0f, 0x7C00, 0x7BFF, 0x4780, 0x477F},                         // fp16 overflow tie -> inf
      {3 * 0x1p-26f, 0x0001, 0x0000, 0x3340, 0x3340},                     // fp16 subnormal rounding
      {0x1p-25f, 0x0000, 0x0000, 0x3300, 0x3300},                         // tie with 0 -> 0
      {-2.5f, 0xC100, 0xC100, 0xC020, 0xC020},                            // exact
      {3.4028234663852886e38f, 0x7C00, 0x7BFF, 0x7F80, 0x7F7F},           // FLT_MAX
      {1e-8f, 0x0000, 0x0000, 0x322C, 0x322B},                            // 0x322BCC77
      {-1e-8f, 0x8000, 0x8000, 0xB22C, 0xB22B},
      {6.1035156e-05f, 0x0400, 0x0400, 0x3880, 0x3880},                   // 2^-14: min normal fp16
  };
  const int n = 16;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = rows[i].x;
  Case c(kDown, "down", "*fp32, *fp16, *fp16, *bf16, *bf16, 16");
  c.in(x).out<uint16_t>(n).out<uint16_t>(n).out<uint16_t>(n).out<uint16_t>(n);
  auto r = c.run({1});
  auto hne = r.get<uint16_t>(1), hrz = r.get<uint16_t>(2), bne = r.get<uint16_t>(3), brz = r.get<uint16_t>(4);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(hne[i], rows[i].hne) << "fp16 rne of " << x[i] << " row " << i;
    EXPECT_EQ(hrz[i], rows[i].hrz) << "fp16 rtz of " << x[i] << " row " << i;
    EXPECT_EQ(bne[i], rows[i].bne) << "bf16 rne of " << x[i] << " row " << i;
    EXPECT_EQ(brz[i], rows[i].brz) << "bf16 rtz of " << x[i] << " row " << i;
  }
}

TEST(ConformanceCast, DowncastRandom) {
  const int n = 256;
  auto x = rand_f32(n, -3000.f, 3000.f);
  for (int i = 0; i < 64; ++i) x[i] = std::ldexp(x[i], -20);  // fp16 subnormal range
  Case c(kDown, "down", "*fp32, *fp16, *fp16, *bf16, *bf16, 256");
  c.in(x).out<uint16_t>(n).out<uint16_t>(n).out<uint16_t>(n).out<uint16_t>(n);
  auto r = c.run({1});
  auto hne = r.get<uint16_t>(1), hrz = r.get<uint16_t>(2), bne = r.get<uint16_t>(3), brz = r.get<uint16_t>(4);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(hne[i], half_rne(x[i])) << x[i];
    EXPECT_EQ(hrz[i], half_rtz(x[i])) << x[i];
    EXPECT_EQ(bne[i], bf16_rne(x[i])) << x[i];
    EXPECT_EQ(brz[i], bf16_rtz(x[i])) << x[i];
  }
}

TEST(ConformanceCast, IntFloatConversions) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def conv(f_ptr, i_ptr, u_ptr, d_ptr, o_i32, o_f32, o_i8, o_u32, o_i1, o_f16, o_i64, o_f32b, N: tl.constexpr):
    offs = tl.arange(0, N)
    f = tl.load(f_ptr + offs)
    i = tl.load(i_ptr + offs)
    u = tl.load(u_ptr + offs)
    d = tl.load(d_ptr + offs)
    tl.store(o_i32 + offs, f.to(tl.int32))
    tl.store(o_f32 + offs, i.to(tl.float32))
    tl.store(o_i8 + offs, i.to(tl.int8))
    tl.store(o_u32 + offs, i.to(tl.int8).to(tl.uint32) + u.to(tl.uint32))
    b = f > 0
    tl.store(o_i1 + offs, b.to(tl.int8) + 2 * (i.to(tl.int1)).to(tl.int8) + 4 * (f.to(tl.int1)).to(tl.int8))
    tl.store(o_f16 + offs, i.to(tl.float16))
    tl.store(o_i64 + offs, f.to(tl.int64) * 3 + u.to(tl.int64))
    tl.store(o_f32b + offs, d.to(tl.float32) + b.to(tl.float32))
)";
  const int n = 64;
  auto f = rand_f32(n, -1000.f, 1000.f);
  f[0] = -3.7f, f[1] = 3.7f, f[2] = -0.5f, f[3] = 0.25f;
  auto i = rand_int<int32_t>(n, -70000, 70000);
  i[0] = 300, i[1] = -200, i[2] = 16777217, i[3] = 2049;  // wraps; > 2^24; fp16 tie
  auto u = rand_int<uint8_t>(n, 1, 255);
  auto d = rand_f64(n, -1e6, 1e6);
  Case c(src, "conv", "*fp32, *i32, *u8, *fp64, *i32, *fp32, *i8, *u32, *i8, *fp16, *i64, *fp32, 64");
  c.in(f).in(i).in(u).in(d);
  c.out<int32_t>(n).out<float>(n).out<int8_t>(n).out<uint32_t>(n).out<int8_t>(n).out<uint16_t>(n).out<int64_t>(n).out<float>(n);
  auto r = c.run({1});
  auto oi32 = r.get<int32_t>(4);
  auto of32 = r.get<float>(5);
  auto oi8 = r.get<int8_t>(6);
  auto ou32 = r.get<uint32_t>(7);
  auto oi1 = r.get<int8_t>(8);
  auto of16 = r.get<uint16_t>(9);
  auto oi64 = r.get<int64_t>(10);
  auto of32b = r.get<float>(11);
  for (int k = 0; k < n; ++k) {
    EXPECT_EQ(oi32[k], static_cast<int32_t>(std::trunc(f[k]))) << f[k];
    EXPECT_EQ(of32[k], static_cast<float>(i[k])) << i[k];  // RNE: 16777217 -> 16777216
    int8_t w = static_cast<int8_t>(static_cast<uint8_t>(i[k] & 0xFF));
    EXPECT_EQ(oi8[k], w) << i[k];
    EXPECT_EQ(ou32[k], static_cast<uint32_t>(static_cast<int32_t>(w)) + u[k]) << "sign extension then add";
    int want1 = (f[k] > 0) + 2 * (i[k] != 0) + 4 * (f[k] != 0);
    EXPECT_EQ(oi1[k], want1) << "int1 converts to 0/1";
    EXPECT_EQ(of16[k], half_rne(static_cast<float>(i[k]))) << i[k];
    EXPECT_EQ(oi64[k], static_cast<int64_t>(std::trunc(f[k])) * 3 + u[k]);
    EXPECT_EQ(bits(of32b[k]), bits(static_cast<float>(d[k]) + (f[k] > 0 ? 1.0f : 0.0f)));
  }
  EXPECT_EQ(oi8[0], 44);
  EXPECT_EQ(oi8[1], 56);
  EXPECT_EQ(of32[2], 16777216.0f);
  EXPECT_EQ(of16[3], 0x6800);  // 2049 -> tie -> 2048
}

TEST(ConformanceCast, BitcastAndHalfUpcast) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def bc(f_ptr, h_ptr, g_ptr, o_bits, o_back, o_h, o_g, o_u, N: tl.constexpr):
    offs = tl.arange(0, N)
    f = tl.load(f_ptr + offs)
    b = f.to(tl.int32, bitcast=True)
    tl.static_assert(b.dtype == tl.int32)
    tl.store(o_bits + offs, b)
    tl.store(o_back + offs, (b ^ -2147483648).to(tl.float32, bitcast=True))
    h = tl.load(h_ptr + offs)
    g = tl.load(g_ptr + offs)
    tl.store(o_h + offs, h.to(tl.float32))
    tl.store(o_g + offs, g.to(tl.float32))
    tl.store(o_u + offs, tl.cast(h, tl.uint16, bitcast=True))
)";
  const int n = 64;
  auto f = rand_f32(n);
  auto hi = rand_int<uint16_t>(n, 1, 0x7BFF);  // positive finite fp16 patterns
  auto gi = rand_int<uint16_t>(n, 1, 0x7F7F);  // positive finite bf16 patterns
  Case c(src, "bc", "*fp32, *fp16, *bf16, *i32, *fp32, *fp32, *fp32, *u16, 64");
  c.in(f).in(hi).in(gi).out<int32_t>(n).out<float>(n).out<float>(n).out<float>(n).out<uint16_t>(n);
  auto r = c.run({1});
  auto ob = r.get<int32_t>(3);
  auto back = r.get<float>(4), oh = r.get<float>(5), og = r.get<float>(6);
  auto ou = r.get<uint16_t>(7);
  for (int k = 0; k < n; ++k) {
    EXPECT_EQ(static_cast<uint32_t>(ob[k]), bits(f[k]));
    EXPECT_EQ(bits(back[k]), bits(-f[k]));  // flipping the sign bit negates
    EXPECT_EQ(bits(oh[k]), bits(half_to_float(hi[k])));
    EXPECT_EQ(bits(og[k]), bits(bf16_to_float(gi[k])));
    EXPECT_EQ(ou[k], hi[k]);
  }
}

TEST(ConformanceCast, BitcastSizeMismatchIsAnError) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def bad(f_ptr, o_ptr):
    f = tl.load(f_ptr + tl.arange(0, 16))
    tl.store(o_ptr + tl.arange(0, 16), f.to(tl.int16, bitcast=True))
)";
  auto e = expect_compile_error(src, "bad", "*fp32, *i16", "");
  EXPECT_EQ(e.line(), 8);
}

}  // namespace
