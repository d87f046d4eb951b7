// tl.sort and tl.topk on the interpreter and the CPU backend, bit for bit (the harness). Distinct values
// are checked against std::sort (ascending and descending, rows of a 2-D block, fp32,
// int32, uint32 above 2^31, fp16). Ties and NaNs are placed by upstream's bitonic network,
// so a row with -0 / +0 and NaNs is checked against that network as upstream's
// standard.py writes it: for each stage and each compare-and-swap round, an element takes
// its partner's value when (x > partner) != (flip ^ is_right), flip alternating with the
// stage's bit (the row's direction in the last stage).
#include <algorithm>
#include <bit>
#include <cmath>

#include "conformance_util.h"
#include "halfbits.h"

using namespace conformance;

namespace {



const char* kSrc = R"(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, up_ptr, down_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(up_ptr + offs, tl.sort(x))
    tl.store(down_ptr + offs, tl.sort(x, dim=1, descending=True))
)";

template <class T>
void check_distinct(const std::string& ty, std::vector<T> x, int R, int C) {
  Case c(kSrc, "k", "*" + ty + ", *" + ty + ", *" + ty + ", " + std::to_string(R) + ", " + std::to_string(C));
  c.in(x).template out<T>(x.size()).template out<T>(x.size());
  auto r = c.run({1});
  auto up = r.get<T>(1), down = r.get<T>(2);
  for (int i = 0; i < R; ++i) {
    std::vector<T> row(x.begin() + i * C, x.begin() + (i + 1) * C);
    std::sort(row.begin(), row.end());
    for (int j = 0; j < C; ++j) {
      ASSERT_EQ(up[i * C + j], row[j]) << ty << " row " << i << " col " << j;
      ASSERT_EQ(down[i * C + j], row[C - 1 - j]) << ty << " descending row " << i << " col " << j;
    }
  }
}

TEST(ConformanceSort, DistinctValuesMatchStdSort) {
  const int R = 4, C = 64;
  {
    std::vector<float> x(R * C);
    for (int i = 0; i < R * C; ++i) x[i] = static_cast<float>((i * 7919) % 1009) * 0.25f - 100.0f;  // distinct
    check_distinct<float>("fp32", x, R, C);
  }
  {
    std::vector<int32_t> x(R * C);
    for (int i = 0; i < R * C; ++i) x[i] = (i * 104729) % 100003 - 50000;
    check_distinct<int32_t>("i32", x, R, C);
  }
  {
    std::vector<uint32_t> x(R * C);
    for (int i = 0; i < R * C; ++i) x[i] = static_cast<uint32_t>(i) * 2654435761u;  // distinct, many above 2^31
    check_distinct<uint32_t>("u32", x, R, C);
  }
  {
    std::vector<uint16_t> x(C);
    for (int i = 0; i < C; ++i) x[i] = exact_half(static_cast<double>((i * 37) % 64) - 31.5);
    Case c(kSrc, "k", "*fp16, *fp16, *fp16, 1, 64");
    c.in(x).out<uint16_t>(C).out<uint16_t>(C);
    auto r = c.run({1});
    std::vector<uint16_t> sorted = x;
    std::sort(sorted.begin(), sorted.end(), [](uint16_t a, uint16_t b) { return half_to_float(a) < half_to_float(b); });
    EXPECT_EQ(r.get<uint16_t>(1), sorted);
    std::reverse(sorted.begin(), sorted.end());
    EXPECT_EQ(r.get<uint16_t>(2), sorted);
  }
}

// upstream's network on one row, from standard.py's formulation
std::vector<float> upstream_bitonic(std::vector<float> x, bool descending) {
  const int n = static_cast<int>(x.size());
  int log_n = 0;
  while ((1 << log_n) < n) ++log_n;
  for (int stage = 1; stage <= log_n; ++stage) {
    for (int round = 0; round < stage; ++round) {
      const int i = stage - 1 - round;  // compare-and-swap on the i-th innermost hypercube dim
      std::vector<float> y(n);
      for (int p = 0; p < n; ++p) {
        const float partner = x[p ^ (1 << i)];
        const int is_right = (p >> i) & 1;
        const int flip = stage < log_n ? (p >> stage) & 1 : (descending ? 1 : 0);
        y[p] = ((x[p] > partner) != static_cast<bool>(flip ^ is_right)) ? partner : x[p];
      }
      x = y;
    }
  }
  return x;
}

TEST(ConformanceSort, TiesAndNaNsFollowUpstreamsNetwork) {
  const int C = 32;
  std::vector<float> x(C);
  auto rnd = rand_f32(C, -3.f, 3.f);
  for (int i = 0; i < C; ++i) {
    switch (i % 6) {
      case 0: x[i] = 0.0f; break;
      case 1: x[i] = -0.0f; break;
      case 2: x[i] = std::bit_cast<float>(0x7fc00000u | static_cast<uint32_t>(i)); break;  // NaNs with payloads
      case 3: x[i] = 1.5f; break;  // ties
      default: x[i] = rnd[i];
    }
  }
  Case c(kSrc, "k", "*fp32, *fp32, *fp32, 1, 32");
  c.in(x).out<float>(C).out<float>(C);
  auto r = c.run({1});
  for (bool desc : {false, true}) {
    const auto want = upstream_bitonic(x, desc);
    const auto got = r.get<float>(desc ? 2 : 1);
    for (int j = 0; j < C; ++j) ASSERT_EQ(bits(got[j]), bits(want[j])) << (desc ? "descending " : "") << j;
  }
}

// tl.topk: the k largest of each row, in descending order (distinct values: std::sort);
// int8 input comes back as int32 when k < n (upstream's max() widens it), k == n is a sort.
TEST(ConformanceSort, TopkOfRows) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, t_ptr, i_ptr, a_ptr, R: tl.constexpr, C: tl.constexpr, K: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    ko = tl.arange(0, R)[:, None] * K + tl.arange(0, K)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(t_ptr + ko, tl.topk(x, K))
    ti = tl.topk(x.to(tl.int8), K, dim=1)
    tl.static_assert(ti.dtype == tl.int32)
    tl.store(i_ptr + ko, ti)
    tl.store(a_ptr + offs, tl.topk(x, C))
)";
  const int R = 4, C = 64;
  std::vector<float> x(R * C);
  for (int i = 0; i < R * C; ++i) x[i] = static_cast<float>((i * 7919) % 1009) * 0.25f - 120.0f;  // distinct per row
  for (int K : {1, 8, 32}) {
    Case c(src, "k", "*fp32, *fp32, *i32, *fp32, 4, 64, " + std::to_string(K));
    c.in(x).out<float>(R * K).out<int32_t>(R * K).out<float>(R * C);
    auto r = c.run({1});
    auto t = r.get<float>(1), all = r.get<float>(3);
    auto ti = r.get<int32_t>(2);
    for (int i = 0; i < R; ++i) {
      std::vector<float> row(x.begin() + i * C, x.begin() + (i + 1) * C);
      std::sort(row.begin(), row.end(), [](float a, float b) { return a > b; });
      std::vector<int32_t> irow(C);
      for (int j = 0; j < C; ++j)  // float -> int8 truncates toward zero and saturates (interpreter.h)
        irow[j] = std::clamp(static_cast<int>(std::trunc(x[i * C + j])), -128, 127);
      std::sort(irow.begin(), irow.end(), [](int32_t a, int32_t b) { return a > b; });
      for (int j = 0; j < K; ++j) {
        ASSERT_EQ(bits(t[i * K + j]), bits(row[j])) << "K " << K << " row " << i << " " << j;
        ASSERT_EQ(ti[i * K + j], irow[j]) << "int8 K " << K << " row " << i << " " << j;
      }
      for (int j = 0; j < C; ++j) ASSERT_EQ(bits(all[i * C + j]), bits(row[j])) << "k == n, row " << i << " " << j;
    }
  }
}

TEST(ConformanceSort, BitonicMerge) {
  // One bitonic merge of the last dimension: sorts a bitonic row (ascending then
  // descending); on any row it is the compare-and-swap network (partners n/2, n/4, ..., 1
  // apart; the lower position keeps the smaller value, ascending), written here with
  // integers so every value is distinct in bits.
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, up_ptr, down_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(up_ptr + offs, tl.bitonic_merge(x))
    tl.store(down_ptr + offs, tl.bitonic_merge(x, dim=1, descending=True))
)";
  const int R = 4, C = 32;
  auto x = rand_int<int32_t>(R * C, -1000000, 1000000);
  // Row 0 bitonic: ascending then descending.
  std::sort(x.begin(), x.begin() + C / 2);
  std::sort(x.begin() + C / 2, x.begin() + C, std::greater<int32_t>());
  Case c(src, "k", "*i32, *i32, *i32, 4, 32");
  c.in(x).out<int32_t>(R * C).out<int32_t>(R * C);
  auto r = c.run({1});
  auto up = r.get<int32_t>(1), down = r.get<int32_t>(2);
  for (int i = 0; i < R; ++i) {
    std::vector<int32_t> a(x.begin() + i * C, x.begin() + (i + 1) * C), d = a;
    for (int j = C / 2; j >= 1; j /= 2)
      for (int p = 0; p < C; ++p)
        if (!(p & j)) {
          if (a[p] > a[p | j]) std::swap(a[p], a[p | j]);
          if (d[p] < d[p | j]) std::swap(d[p], d[p | j]);
        }
    for (int j = 0; j < C; ++j) {
      ASSERT_EQ(up[i * C + j], a[j]) << "row " << i << " " << j;
      ASSERT_EQ(down[i * C + j], d[j]) << "row " << i << " " << j;
    }
    if (i == 0) {
      std::vector<int32_t> sorted(x.begin(), x.begin() + C);
      std::sort(sorted.begin(), sorted.end());
      for (int j = 0; j < C; ++j) ASSERT_EQ(up[j], sorted[j]) << "a bitonic row comes out sorted, " << j;
    }
  }
}

}  // namespace
