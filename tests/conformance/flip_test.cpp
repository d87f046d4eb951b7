// tl.flip (function and method forms) on the interpreter and the CPU backend, bit for bit
// (the harness): every element moves to the mirrored index along the axis, with its bits
// unchanged (fp16 NaN payloads and -0 included), in 1-D and 2-D, positive and negative
// dims, inside arithmetic (the CPU backend renders it as a view) and twice (identity).
#include "conformance_util.h"

using namespace conformance;

namespace {

const char* kPrelude = "import triton\nimport triton.language as tl\n\n";

TEST(ConformanceFlip, MirrorsEveryAxisAndKeepsBits) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(x_ptr, h_ptr, f0_ptr, f1_ptr, s_ptr, h_out, id_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + r * C + c)
    tl.store(f0_ptr + r * C + c, tl.flip(x, 0))
    tl.store(f1_ptr + r * C + c, x.flip(-1))
    tl.store(s_ptr + r * C + c, tl.flip(x, 1) * 2 + x)
    h = tl.load(h_ptr + tl.arange(0, R * C))
    tl.store(h_out + tl.arange(0, R * C), tl.flip(h, dim=0))
    tl.store(id_ptr + r * C + c, tl.flip(tl.flip(x, 0), 0) - x)
)";
  const int R = 8, C = 16;
  auto x = rand_int<int32_t>(R * C, -100000, 100000);
  std::vector<uint16_t> h(R * C);
  for (int i = 0; i < R * C; ++i) h[i] = static_cast<uint16_t>((i * 517u + 0x7c01u) & 0xffffu);  // NaNs, -0, ...
  Case c(src, "k", "*i32, *fp16, *i32, *i32, *i32, *fp16, *i32, 8, 16");
  c.in(x).in(h).out<int32_t>(R * C).out<int32_t>(R * C).out<int32_t>(R * C).out<uint16_t>(R * C).out<int32_t>(R * C);
  auto res = c.run({1});
  auto f0 = res.get<int32_t>(2), f1 = res.get<int32_t>(3), s = res.get<int32_t>(4), id = res.get<int32_t>(6);
  auto hh = res.get<uint16_t>(5);
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) {
      ASSERT_EQ(f0[i * C + j], x[(R - 1 - i) * C + j]) << i << "," << j;
      ASSERT_EQ(f1[i * C + j], x[i * C + (C - 1 - j)]) << i << "," << j;
      ASSERT_EQ(s[i * C + j], x[i * C + (C - 1 - j)] * 2 + x[i * C + j]) << i << "," << j;
      ASSERT_EQ(id[i * C + j], 0) << i << "," << j;
    }
  for (int i = 0; i < R * C; ++i) ASSERT_EQ(hh[i], h[R * C - 1 - i]) << "fp16 bits at " << i;
}

}  // namespace
