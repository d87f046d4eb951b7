// A program's loads and stores take effect in program order for the whole program, as in
// the interpreter: a value loaded before the program overwrites it is the old value in every
// thread that holds it (on the GPU a block's threads run unsynchronized, so the cuda backend
// puts barriers where another thread could still read what a store overwrites, or read too
// early what a store writes). The cases mix scalar loads feeding a loop's trip count,
// duplicate holders (tensors smaller than a warp) and in-place updates; expected values are
// computed here. (Found by an adversarial review with a CUDA emulator, 2026-12-01.)
#include "conformance_util.h"

using namespace conformance;

namespace {

const char* kPrelude = "import triton\nimport triton.language as tl\n";

// c = load(cnt); store(cnt, c + 1); then c drives a loop: every thread must see the old c.
TEST(ConformanceProgramOrder, ScalarLoadThenStoreOfTheSameWord) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(cnt, o, N: tl.constexpr):
    r = tl.arange(0, N)
    c = tl.load(cnt)
    tl.store(cnt, c + 1)
    acc = tl.zeros([N], dtype=tl.int32)
    for i in range(c):
        acc = tl.cumsum(acc + 1, 0)
    tl.store(o + r, acc)
)";
  const int N = 128;
  const int32_t c0 = rand_int<int32_t>(1, 2, 4)[0];
  Case c(src, "k", "*i32:16, *i32:16, 128");
  c.in(std::vector<int32_t>{c0}).out<int32_t>(N);
  auto r = c.run({1});
  EXPECT_EQ(r.get<int32_t>(0)[0], c0 + 1);
  std::vector<int64_t> acc(N, 0);
  for (int it = 0; it < c0; ++it) {
    int64_t run = 0;
    for (int i = 0; i < N; ++i) run += acc[i] + 1, acc[i] = run;
  }
  const auto o = r.get<int32_t>(1);
  for (int i = 0; i < N; ++i) ASSERT_EQ(o[i], static_cast<int32_t>(acc[i])) << i;
}

// 16 elements over 32+ lanes (duplicate holders): x is loaded, overwritten in place, then
// reduced; the reduction must use the loaded values in every holder.
TEST(ConformanceProgramOrder, InPlaceUpdateOfASmallTensorThenReduce) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(x_ptr, o, N: tl.constexpr):
    r = tl.arange(0, N)
    x = tl.load(x_ptr + r)
    tl.store(x_ptr + r, x + 100)
    s = tl.sum(x, 0)
    acc = tl.zeros([N], dtype=tl.int32)
    for i in range(s):
        acc = tl.cumsum(acc + 1, 0) % 1000
    tl.store(o + r, acc)
)";
  const int N = 16;
  std::vector<int32_t> x = rand_int<int32_t>(N, 1, 2);
  int32_t s = 0;
  for (int32_t v : x) s += v;
  Case c(src, "k", "*i32:16, *i32:16, 16");
  c.in(x).out<int32_t>(N);
  auto r = c.run({1});
  const auto x2 = r.get<int32_t>(0);
  for (int i = 0; i < N; ++i) ASSERT_EQ(x2[i], x[i] + 100) << i;
  std::vector<int64_t> acc(N, 0);
  for (int it = 0; it < s; ++it) {
    int64_t run = 0;
    for (int i = 0; i < N; ++i) run += acc[i] + 1, acc[i] = run % 1000;
  }
  const auto o = r.get<int32_t>(1);
  for (int i = 0; i < N; ++i) ASSERT_EQ(o[i], static_cast<int32_t>(acc[i])) << i;
}

// A block written and read back in another layout (transposed) within one program.
TEST(ConformanceProgramOrder, StoreThenLoadInAnotherLayout) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(x_ptr, t_ptr, o, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rm * N + rn)
    tl.store(t_ptr + rn * M + rm, x * 3)
    y = tl.load(t_ptr + tl.arange(0, M * N))
    tl.store(o + tl.arange(0, M * N), y + 1)
)";
  const int M = 16, N = 64;
  auto x = rand_int<int32_t>(M * N, -1000, 1000);
  Case c(src, "k", "*i32:16, *i32:16, *i32:16, 16, 64");
  c.in(x).out<int32_t>(M * N).out<int32_t>(M * N);
  auto r = c.run({1});
  const auto o = r.get<int32_t>(2);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) ASSERT_EQ(o[j * M + i], x[i * N + j] * 3 + 1) << i << " " << j;
}

// Each iteration reads what another thread stored in the previous one (reversed) and
// stores in place: the barrier at the top of an iteration (skipped in the first, which has
// no previous one) and the one before the store (the reversed element is still to be read
// by its thread) are both needed. n = 0, 1 and several iterations.
TEST(ConformanceProgramOrder, LoopReadsWhatThePreviousIterationStored) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(buf, n, N: tl.constexpr):
    r = tl.arange(0, N)
    for i in range(n):
        x = tl.load(buf + (N - 1 - r))
        tl.store(buf + r, x + 1)
)";
  const int N = 256;
  for (int n : {0, 1, 2, 5}) {
    auto x = rand_int<int32_t>(N, -1000, 1000);
    Case c(src, "k", "*i32:16, i32, 256");
    c.in(x).scalar(tritium::Arg(n));
    const auto got = c.run({1}).get<int32_t>(0);
    for (int i = 0; i < N; ++i) ASSERT_EQ(got[i], x[n % 2 ? N - 1 - i : i] + n) << "n=" << n << " i=" << i;
  }
}

// Two scalar stores (thread 0 does both, in program order: no barrier between them), then
// every thread reads both words.
TEST(ConformanceProgramOrder, ScalarStoresThenATensorLoadOfThem) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(p, o, a, b, N: tl.constexpr):
    tl.store(p, a)
    tl.store(p + 1, b)
    tl.store(p, a + b)
    r = tl.arange(0, N)
    tl.store(o + r, tl.load(p + r % 2))
)";
  const int N = 128;
  const auto ab = rand_int<int32_t>(2, -1000, 1000);
  Case c(src, "k", "*i32:16, *i32:16, i32, i32, 128");
  c.out<int32_t>(2).out<int32_t>(N).scalar(tritium::Arg(ab[0])).scalar(tritium::Arg(ab[1]));
  const auto o = c.run({1}).get<int32_t>(1);
  for (int i = 0; i < N; ++i) ASSERT_EQ(o[i], i % 2 ? ab[1] : ab[0] + ab[1]) << i;
}

}  // namespace
