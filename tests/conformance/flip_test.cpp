// tl.flip (function and method forms) and tl.cat on the interpreter and the CPU backend,
// bit for bit (the harness). flip: every element moves to the mirrored index along the
// axis, with its bits unchanged (fp16 NaN payloads and -0 included), in 1-D and 2-D,
// positive and negative dims, inside arithmetic (the CPU backend renders it as a view) and
// twice (identity). cat (can_reorder=True, 1-D): tritium keeps input then other, one of the
// orders upstream allows; a sum over the result is order-independent.
#include <fmt/format.h>

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

TEST(ConformanceFlip, CatOfTwoBlocks) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(a_ptr, b_ptr, o_ptr, s_ptr, A: tl.constexpr, B: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, A))
    b = tl.load(b_ptr + tl.arange(0, B))
    c = tl.cat(a, b, can_reorder=True)
    tl.store(o_ptr + tl.arange(0, A + B), c)
    tl.store(s_ptr, tl.sum(c, axis=0))
)";
  for (auto [A, B] : {std::pair{8, 8}, std::pair{16, 16}}) {
    auto a = rand_int<int32_t>(A, -1000, 1000), b = rand_int<int32_t>(B, -1000, 1000);
    Case c(src, "k", fmt::format("*i32, *i32, *i32, *i32, {}, {}", A, B));
    c.in(a).in(b).out<int32_t>(A + B).out<int32_t>(1);
    auto r = c.run({1});
    std::vector<int32_t> want = a;
    want.insert(want.end(), b.begin(), b.end());
    EXPECT_EQ(r.get<int32_t>(2), want);
    int32_t sum = 0;
    for (int32_t v : want) sum += v;
    EXPECT_EQ(r.get<int32_t>(3)[0], sum);
  }
}

}  // namespace

namespace {
// A flip read back through a reshape by the contiguous store path: the flipped index of a
// row's element (lb + j) must be n - 1 - (lb + j), not n - 1 - lb + j (found by fuzzing,
// 2026-12-01: the CPU backend wrote the wrong elements).
TEST(ConformanceFlip, FlipThenReshapeStoredByRows) {
  const std::string src = R"(
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, o_ptr):
    x = tl.load(x_ptr + tl.arange(0, 256))
    t2 = tl.reshape(tl.flip(x, 0), (8, 8, 4))
    tl.store(o_ptr + tl.arange(0, 8)[:, None, None] * 32 + tl.arange(0, 8)[None, :, None] * 4 + tl.arange(0, 4)[None, None, :], t2)
)";
  auto x = conformance::rand_int<int32_t>(256, -100000, 100000);
  conformance::Case c(src, "k", "*i32:16, *i32:16");
  c.in(x).out<int32_t>(256);
  auto o = c.run({1}).get<int32_t>(1);
  for (int i = 0; i < 256; ++i) ASSERT_EQ(o[i], x[255 - i]) << i;
}
}  // namespace
