// Scans (tl.cumsum, tl.cumprod, tl.associative_scan with a jit combine function, reverse=,
// any axis, function and method forms) on the interpreter and the CPU backend, bit for bit
// (the harness), against values computed here. A scan is inclusive with one running value
// along the axis in index order (from the end with reverse=True), the canonical order of
// src/interp/interpreter.h, so fp32 results are compared exactly with the same sequential
// fp32 accumulation done here (upstream's GPU scan combines in a tree: there its fp32
// cumsum may differ in the last bits; the integer and associative cases agree exactly).
#include <algorithm>
#include <bit>

#include "conformance_util.h"
#include "halfbits.h"

using namespace conformance;

namespace {

const char* kPrelude = "import triton\nimport triton.language as tl\n\n";

TEST(ConformanceScan, CumsumAndCumprodOfFp32Rows) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(x_ptr, s_ptr, rs_ptr, p_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(s_ptr + offs, tl.cumsum(x, axis=0))
    tl.store(rs_ptr + offs, x.cumsum(0, reverse=True))
    tl.store(p_ptr + offs, tl.cumprod(1.0 + x * 0.01))
)";
  const int B = 256;
  auto x = rand_f32(B, -3.f, 3.f);
  Case c(src, "k", "*fp32, *fp32, *fp32, *fp32, 256");
  c.in(x).out<float>(B).out<float>(B).out<float>(B);
  auto r = c.run({1});
  std::vector<float> s(B), rs(B), p(B);
  float acc = 0;
  for (int i = 0; i < B; ++i) s[i] = acc = (i == 0 ? x[0] : acc + x[i]);
  for (int i = B - 1; i >= 0; --i) rs[i] = acc = (i == B - 1 ? x[i] : acc + x[i]);
  for (int i = 0; i < B; ++i) {
    const float v = 1.0f + x[i] * 0.01f;
    p[i] = acc = (i == 0 ? v : acc * v);
  }
  const auto gs = r.get<float>(1), grs = r.get<float>(2), gp = r.get<float>(3);
  for (int i = 0; i < B; ++i) {
    ASSERT_EQ(bits(gs[i]), bits(s[i])) << "cumsum " << i;
    ASSERT_EQ(bits(grs[i]), bits(rs[i])) << "reverse cumsum " << i;
    ASSERT_EQ(bits(gp[i]), bits(p[i])) << "cumprod " << i;
  }
}

TEST(ConformanceScan, IntegerScansAlongEitherAxisOfA2dBlock) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(x_ptr, a0_ptr, a1_ptr, r1_ptr, n_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + r * C + c)
    tl.store(a0_ptr + r * C + c, tl.cumsum(x, axis=0))
    tl.store(a1_ptr + r * C + c, tl.cumsum(x, axis=-1))
    tl.store(r1_ptr + r * C + c, tl.cumprod(x, 1, True))
    tl.store(n_ptr + r * C + c, tl.cumsum(x.to(tl.int8), axis=1))   # int8 widens to int32
)";
  const int R = 8, C = 32;
  auto x = rand_int<int32_t>(R * C, -120, 120);
  Case c(src, "k", "*i32, *i32, *i32, *i32, *i32, 8, 32");
  c.in(x).out<int32_t>(R * C).out<int32_t>(R * C).out<int32_t>(R * C).out<int32_t>(R * C);
  auto res = c.run({1});
  std::vector<int32_t> a0(R * C), a1(R * C), r1(R * C), n(R * C);
  auto wrap_mul = [](int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b)); };
  for (int j = 0; j < C; ++j)
    for (int i = 0; i < R; ++i) a0[i * C + j] = x[i * C + j] + (i ? a0[(i - 1) * C + j] : 0);
  for (int i = 0; i < R; ++i) {
    for (int j = 0; j < C; ++j) a1[i * C + j] = x[i * C + j] + (j ? a1[i * C + j - 1] : 0);
    for (int j = C - 1; j >= 0; --j) r1[i * C + j] = j == C - 1 ? x[i * C + j] : wrap_mul(r1[i * C + j + 1], x[i * C + j]);
    for (int j = 0; j < C; ++j)
      n[i * C + j] = static_cast<int32_t>(static_cast<int8_t>(x[i * C + j])) + (j ? n[i * C + j - 1] : 0);
  }
  EXPECT_EQ(res.get<int32_t>(1), a0);
  EXPECT_EQ(res.get<int32_t>(2), a1);
  EXPECT_EQ(res.get<int32_t>(3), r1);
  EXPECT_EQ(res.get<int32_t>(4), n);
  // the int8 sums leave int8's range: the widening is observable
  EXPECT_GT(*std::max_element(n.begin(), n.end()), 127);
}

TEST(ConformanceScan, AssociativeScanWithATwoValueCombineFunction) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def running_max(v0, i0, v1, i1):
    take = v1 > v0
    return tl.where(take, v1, v0), tl.where(take, i1, i0)

@triton.jit
def k(x_ptr, m_ptr, i_ptr, rm_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    m, idx = tl.associative_scan((x, offs), 0, running_max)
    tl.store(m_ptr + offs, m)
    tl.store(i_ptr + offs, idx)
    rm = tl.associative_scan(x, axis=0, combine_fn=running_max_1, reverse=True)
    tl.store(rm_ptr + offs, rm)

@triton.jit
def running_max_1(a, b):
    return tl.maximum(a, b)
)";
  const int B = 128;
  auto x = rand_f32(B, -50.f, 50.f);
  Case c(src, "k", "*fp32, *fp32, *i32, *fp32, 128");
  c.in(x).out<float>(B).out<int32_t>(B).out<float>(B);
  auto r = c.run({1});
  const auto gm = r.get<float>(1), grm = r.get<float>(3);
  const auto gi = r.get<int32_t>(2);
  float m = x[0];
  int idx = 0;
  for (int i = 0; i < B; ++i) {
    if (i > 0 && x[i] > m) m = x[i], idx = i;
    ASSERT_EQ(bits(gm[i]), bits(m)) << i;
    ASSERT_EQ(gi[i], idx) << i;
  }
  float rm = x[B - 1];
  for (int i = B - 1; i >= 0; --i) {
    rm = std::max(rm, x[i]);
    ASSERT_EQ(bits(grm[i]), bits(rm)) << i;
  }
}

TEST(ConformanceScan, Bf16CumsumComputesInFp32) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(x_ptr, s_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    s = tl.cumsum(tl.load(x_ptr + offs))
    tl.static_assert(s.dtype == tl.float32)
    tl.store(s_ptr + offs, s)
)";
  const int B = 64;
  auto xf = rand_f32(B, -4.f, 4.f);
  std::vector<uint16_t> x(B);
  for (int i = 0; i < B; ++i) x[i] = static_cast<uint16_t>(std::bit_cast<uint32_t>(xf[i]) >> 16);  // truncate: exact bf16
  Case c(src, "k", "*bf16, *fp32, 64");
  c.in(x).out<float>(B);
  auto s = c.run({1}).get<float>(1);
  float acc = 0;
  for (int i = 0; i < B; ++i) {
    acc = i == 0 ? bf16_to_float(x[0]) : acc + bf16_to_float(x[i]);
    ASSERT_EQ(bits(s[i]), bits(acc)) << i;
  }
}

}  // namespace
