// tl.histogram (function and method forms) on the interpreter and the CPU backend, bit for
// bit (the harness, outputs poisoned): counts[b] = the number of (unmasked) input elements
// equal to b for b in [0, num_bins), checked against plain counting loops over random
// inputs. Values outside [0, num_bins) — negative, >= num_bins, unsigned values whose bit
// pattern is negative as a signed number — are not counted (interpreter.h). Also: masks
// computed at run time, loaded and scalar; every integer input dtype incl. int1; num_bins
// larger and smaller than the input; inputs computed in the kernel; results in further
// arithmetic (cumsum, sum, elementwise). num_bins must be a power of two (upstream's block
// shapes), so no other counts are tested here (tests/errors/refusals_test.cpp refuses them).
#include <fmt/format.h>

#include "conformance_util.h"

using namespace conformance;

namespace {

const char* kPrelude = R"(
import triton
import triton.language as tl
)";

// Plain counting: elements with mask set (all when `mask` is empty) and 0 <= v < bins.
template <class T>
std::vector<int32_t> count(const std::vector<T>& x, int bins, const std::vector<uint8_t>& mask = {}) {
  std::vector<int32_t> h(bins, 0);
  for (size_t i = 0; i < x.size(); ++i) {
    if (!mask.empty() && !mask[i]) continue;
    if (x[i] >= T{0} && static_cast<uint64_t>(x[i]) < static_cast<uint64_t>(bins)) ++h[static_cast<size_t>(x[i])];
  }
  return h;
}

const std::string kPlain = std::string(kPrelude) + R"(
@triton.jit
def h1(x_ptr, o_ptr, m_ptr, N: tl.constexpr, B: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(o_ptr + tl.arange(0, B), tl.histogram(x, B))
    tl.store(m_ptr + tl.arange(0, B), x.histogram(num_bins=B))
)";

template <class T>
void check_plain(const std::string& ty, const std::vector<T>& x, int B) {
  const int N = static_cast<int>(x.size());
  Case c(kPlain, "h1", fmt::format("*{}, *i32, *i32, {}, {}", ty, N, B));
  c.in(x).template out<int32_t>(B).template out<int32_t>(B);
  auto r = c.run({1});
  const auto want = count(x, B);
  EXPECT_EQ(r.get<int32_t>(1), want) << ty << " N=" << N << " B=" << B;
  EXPECT_EQ(r.get<int32_t>(2), want) << "method form, " << ty << " N=" << N << " B=" << B;
}

TEST(ConformanceHistogram, CountsValuesInRange) {
  for (auto [N, B] : {std::pair{128, 16}, std::pair{16, 64}, std::pair{256, 4}, std::pair{64, 1}, std::pair{1, 8}})
    check_plain<int32_t>("i32", rand_int<int32_t>(N, 0, B - 1, /*nonzero=*/false), B);
}

TEST(ConformanceHistogram, OutOfRangeValuesAreNotCounted) {
  auto x = rand_int<int32_t>(256, -20, 40, false);
  x[0] = INT32_MIN, x[1] = INT32_MAX, x[2] = 16, x[3] = -1, x[4] = 15, x[5] = 0;
  check_plain<int32_t>("i32", x, 16);
  check_plain<int32_t>("i32", rand_int<int32_t>(64, -1000000, 1000000), 32);  // mostly out of range
}

TEST(ConformanceHistogram, InputDtypes) {
  check_plain<int8_t>("i8", rand_int<int8_t>(128, -128, 127, false), 64);     // negatives dropped
  check_plain<uint8_t>("u8", rand_int<uint8_t>(512, 0, 255, false), 256);     // >= 128 counted
  check_plain<int16_t>("i16", rand_int<int16_t>(128, -300, 300, false), 256);
  {
    auto x = rand_int<uint16_t>(128, 0, 100, false);
    x[0] = 0xFFFF, x[1] = 0x8001;  // negative as int16: not counted
    check_plain<uint16_t>("u16", x, 64);
  }
  {
    auto x = rand_int<int64_t>(128, -40, 40, false);
    x[0] = INT64_MIN, x[1] = INT64_MAX, x[2] = (int64_t{1} << 32) + 3;  // no truncation to 3
    check_plain<int64_t>("i64", x, 32);
  }
  {
    auto x = rand_int<uint32_t>(128, 0, 40, false);
    x[0] = 0x80000003u, x[1] = 0xFFFFFFFFu;  // negative as int32: not counted
    check_plain<uint32_t>("u32", x, 32);
  }
  {
    auto x = rand_int<uint64_t>(128, 0, 40, false);
    x[0] = (uint64_t{1} << 63) + 2, x[1] = ~uint64_t{0}, x[2] = (uint64_t{1} << 32) + 1;
    check_plain<uint64_t>("u64", x, 32);
  }
  check_plain<uint8_t>("i1", rand_int<uint8_t>(64, 0, 1, false), 2);  // bool: bins 0 and 1
  check_plain<uint8_t>("i1", rand_int<uint8_t>(64, 0, 1, false), 8);
}

// Masks: a run-time bound, a loaded boolean tensor (method form with mask), a scalar True.
TEST(ConformanceHistogram, Masks) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def hm(x_ptr, m_ptr, a_ptr, b_ptr, c_ptr, n, N: tl.constexpr, B: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(a_ptr + tl.arange(0, B), tl.histogram(x, B, mask=offs < n))
    m = tl.load(m_ptr + offs) != 0
    tl.store(b_ptr + tl.arange(0, B), x.histogram(B, mask=m))
    tl.store(c_ptr + tl.arange(0, B), tl.histogram(x, B, True))
)";
  const int N = 128, B = 16;
  auto x = rand_int<int32_t>(N, -4, B + 3, false);
  auto m8 = rand_int<int8_t>(N, 0, 1, false);
  std::vector<uint8_t> mm(m8.begin(), m8.end());
  for (int n : {0, 37, N}) {
    Case c(src, "hm", fmt::format("*i32, *i8, *i32, *i32, *i32, i32, {}, {}", N, B));
    c.in(x).in(m8).out<int32_t>(B).out<int32_t>(B).out<int32_t>(B).scalar(n);
    auto r = c.run({1});
    std::vector<uint8_t> below(N);
    for (int i = 0; i < N; ++i) below[i] = i < n;
    EXPECT_EQ(r.get<int32_t>(2), count(x, B, below)) << "offs < " << n;
    EXPECT_EQ(r.get<int32_t>(3), count(x, B, mm)) << "loaded mask";
    EXPECT_EQ(r.get<int32_t>(4), count(x, B)) << "mask=True";
  }
}

// A computed input (C remainders of negative values are negative: not counted), and the
// counts used further: cumsum, sum, elementwise arithmetic, a second histogram of them.
TEST(ConformanceHistogram, ComputedInputAndFurtherArithmetic) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def ha(x_ptr, h_ptr, c_ptr, e_ptr, s_ptr, g_ptr, N: tl.constexpr, B: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    h = tl.histogram(x % B, B)
    tl.store(h_ptr + tl.arange(0, B), h)
    tl.store(c_ptr + tl.arange(0, B), tl.cumsum(h, 0))
    tl.store(e_ptr + tl.arange(0, B), h * 3 - tl.arange(0, B))
    tl.store(s_ptr, tl.sum(h, axis=0))
    tl.store(g_ptr + tl.arange(0, 8), tl.histogram(h, 8))
)";
  const int N = 256, B = 32;
  auto x = rand_int<int32_t>(N, -200, 200);
  Case c(src, "ha", fmt::format("*i32, *i32, *i32, *i32, *i32, *i32, {}, {}", N, B));
  c.in(x).out<int32_t>(B).out<int32_t>(B).out<int32_t>(B).out<int32_t>(1).out<int32_t>(8);
  auto r = c.run({1});
  std::vector<int32_t> rem(N);
  for (int i = 0; i < N; ++i) rem[i] = x[i] % B;
  const auto h = count(rem, B);
  EXPECT_EQ(r.get<int32_t>(1), h);
  std::vector<int32_t> cum(B), ar(B);
  int32_t run = 0;
  for (int b = 0; b < B; ++b) {
    run += h[b];
    cum[b] = run;
    ar[b] = h[b] * 3 - b;
  }
  EXPECT_EQ(r.get<int32_t>(2), cum);
  EXPECT_EQ(r.get<int32_t>(3), ar);
  int32_t nonneg = 0;
  for (int i = 0; i < N; ++i) nonneg += rem[i] >= 0;  // x >= 0, or a multiple of B
  EXPECT_EQ(r.get<int32_t>(4)[0], nonneg) << "every non-negative remainder lands in a bin";
  EXPECT_EQ(r.get<int32_t>(5), count(h, 8));
}

}  // namespace
