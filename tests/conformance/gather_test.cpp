// tl.gather (function and method forms) on the interpreter and the CPU backend, bit for bit
// (the harness, outputs poisoned): out[.., i, ..] = src[.., index[.., i, ..], ..], checked
// against plain loops over random sources and indices — 1-D and 2-D, along each axis,
// negative axes, index tensors shorter and longer than the source's axis, source dtypes
// fp32 / fp16 / bf16 / fp64 / int8 / int64 / uint8, index dtypes int1 .. uint64, sources and
// indices computed in the kernel, gathered pointers, results used in further arithmetic.
// An index outside [0, n) gives all-zero bits (interpreter.h); in debug mode the launch
// fails with "tl.gather index out of range [0, n)".
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "conformance_util.h"

using namespace conformance;

namespace {

const char* kPrelude = R"(
import triton
import triton.language as tl
)";

template <class T>
uint64_t raw(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

template <class T>
void expect_same_bits(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(raw(got[i]), raw(want[i])) << what << " at " << i;
}

// 2-D gather: s[R, C], index[IR, IC] → out[IR, IC] (1-D kernels are the R = IR = 1 case of
// their own kernel below).
const std::string k2d = std::string(kPrelude) + R"(
@triton.jit
def g2(s_ptr, i_ptr, o_ptr, R: tl.constexpr, C: tl.constexpr, IR: tl.constexpr, IC: tl.constexpr,
       AXIS: tl.constexpr):
    s = tl.load(s_ptr + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :])
    io = tl.arange(0, IR)[:, None] * IC + tl.arange(0, IC)[None, :]
    i = tl.load(i_ptr + io)
    tl.store(o_ptr + io, tl.gather(s, i, AXIS))
)";

// Expected result of a 2-D gather, by plain loops; out-of-range indices give T{} bits (0).
template <class S, class I>
std::vector<S> gather_ref(const std::vector<S>& s, const std::vector<I>& idx, int R, int C, int IR, int IC, int axis) {
  std::vector<S> out(static_cast<size_t>(IR) * IC);
  const int n = axis == 0 ? R : C;
  for (int r = 0; r < IR; ++r)
    for (int c = 0; c < IC; ++c) {
      const I k = idx[r * IC + c];
      const bool ok = k >= I{0} && static_cast<uint64_t>(k) < static_cast<uint64_t>(n);
      S v{};
      if (ok) v = axis == 0 ? s[static_cast<size_t>(k) * C + c] : s[r * C + static_cast<size_t>(k)];
      out[r * IC + c] = v;
    }
  return out;
}

template <class S, class I>
void check_2d(const std::string& sty, const std::string& ity, const std::vector<S>& s, const std::vector<I>& idx, int R,
              int C, int IR, int IC, int axis_arg) {
  const int axis = axis_arg < 0 ? axis_arg + 2 : axis_arg;
  Case c(k2d, "g2", fmt::format("*{}, *{}, *{}, {}, {}, {}, {}, {}", sty, ity, sty, R, C, IR, IC, axis_arg));
  c.in(s).in(idx).template out<S>(static_cast<size_t>(IR) * IC);
  auto r = c.run({1});
  expect_same_bits(r.get<S>(2), gather_ref(s, idx, R, C, IR, IC, axis),
                   fmt::format("{} by {} [{}x{}] index [{}x{}] axis {}", sty, ity, R, C, IR, IC, axis_arg));
}

TEST(ConformanceGather, OneDimensional) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def g1(s_ptr, i_ptr, o_ptr, m_ptr, N: tl.constexpr, M: tl.constexpr):
    s = tl.load(s_ptr + tl.arange(0, N))
    i = tl.load(i_ptr + tl.arange(0, M))
    tl.store(o_ptr + tl.arange(0, M), tl.gather(s, i, 0))
    tl.store(m_ptr + tl.arange(0, M), s.gather(i, axis=-1))
)";
  for (auto [N, M] : {std::pair{32, 32}, std::pair{32, 8}, std::pair{16, 64}, std::pair{1, 4}}) {
    auto s = rand_f32(N);
    auto idx = rand_int<int32_t>(M, 0, N - 1, /*nonzero=*/false);
    Case c(src, "g1", fmt::format("*fp32, *i32, *fp32, *fp32, {}, {}", N, M));
    c.in(s).in(idx).out<float>(M).out<float>(M);
    auto r = c.run({1});
    std::vector<float> want(M);
    for (int j = 0; j < M; ++j) want[j] = s[idx[j]];
    expect_same_bits(r.get<float>(2), want, fmt::format("function form N={} M={}", N, M));
    expect_same_bits(r.get<float>(3), want, fmt::format("method form N={} M={}", N, M));
  }
}

TEST(ConformanceGather, TwoDimensionalAlongEachAxis) {
  const int R = 8, C = 16;
  auto s = rand_int<int32_t>(R * C, -100000, 100000);
  for (int axis : {0, 1, -1, -2}) {
    const int a = axis < 0 ? axis + 2 : axis;
    const int n = a == 0 ? R : C;
    for (int len : {4, n, 2 * n}) {
      const int IR = a == 0 ? len : R, IC = a == 0 ? C : len;
      auto idx = rand_int<int32_t>(IR * IC, 0, n - 1, false);
      check_2d<int32_t, int32_t>("i32", "i32", s, idx, R, C, IR, IC, axis);
    }
  }
}

TEST(ConformanceGather, SourceDtypes) {
  const int R = 4, C = 32;
  auto idx0 = rand_int<int32_t>(R * C, 0, R - 1, false), idx1 = rand_int<int32_t>(R * C, 0, C - 1, false);
  auto run_both = [&](auto s, const std::string& ty) {
    using S = typename decltype(s)::value_type;
    check_2d<S, int32_t>(ty, "i32", s, idx0, R, C, R, C, 0);
    check_2d<S, int32_t>(ty, "i32", s, idx1, R, C, R, C, 1);
  };
  // 16-bit floats as raw bit patterns (NaN payloads, -0 and subnormals included: bits move).
  run_both(rand_int<uint16_t>(R * C, 1, 0xFFFF), "fp16");
  run_both(rand_int<uint16_t>(R * C, 1, 0xFFFF), "bf16");
  run_both(rand_f64(R * C, -1e6, 1e6), "fp64");
  run_both(rand_f32(R * C), "fp32");
  run_both(rand_int<int8_t>(R * C, -128, 127), "i8");
  run_both(rand_int<uint8_t>(R * C, 1, 255), "u8");
  run_both(rand_int<int64_t>(R * C, INT64_MIN / 2, INT64_MAX / 2), "i64");
}

TEST(ConformanceGather, IndexDtypes) {
  const int R = 8, C = 16;
  auto s = rand_f32(R * C);
  auto both = [&](auto idx_c, auto idx_r, const std::string& ity) {
    using I = typename decltype(idx_c)::value_type;
    check_2d<float, I>("fp32", ity, s, idx_c, R, C, R, C, 1);
    check_2d<float, I>("fp32", ity, s, idx_r, R, C, R, C, -2);
  };
  both(rand_int<int64_t>(R * C, 0, C - 1, false), rand_int<int64_t>(R * C, 0, R - 1, false), "i64");
  both(rand_int<uint8_t>(R * C, 0, C - 1, false), rand_int<uint8_t>(R * C, 0, R - 1, false), "u8");
  both(rand_int<int8_t>(R * C, 0, C - 1, false), rand_int<int8_t>(R * C, 0, R - 1, false), "i8");
  both(rand_int<int16_t>(R * C, 0, C - 1, false), rand_int<int16_t>(R * C, 0, R - 1, false), "i16");
  both(rand_int<uint16_t>(R * C, 0, C - 1, false), rand_int<uint16_t>(R * C, 0, R - 1, false), "u16");
  both(rand_int<uint32_t>(R * C, 0, C - 1, false), rand_int<uint32_t>(R * C, 0, R - 1, false), "u32");
  both(rand_int<uint64_t>(R * C, 0, C - 1, false), rand_int<uint64_t>(R * C, 0, R - 1, false), "u64");
  both(rand_int<uint8_t>(R * C, 0, 1, false), rand_int<uint8_t>(R * C, 0, 1, false), "i1");  // bool: 0 / 1
}

// An index outside [0, n): all-zero bits, whatever its dtype; in-range lanes unaffected.
TEST(ConformanceGather, OutOfRangeIndexGivesZero) {
  const int R = 4, C = 16;
  auto s = rand_f32(R * C, 1.f, 5.f);  // never 0: a zero in the output is the rule at work
  {
    auto idx = rand_int<int32_t>(R * C, 0, C - 1, false);
    const int32_t bad[] = {-1, C, C + 7, INT32_MIN, INT32_MAX, -C};
    for (int j = 0; j < 6; ++j) idx[j * 9 + 1] = bad[j];
    check_2d<float, int32_t>("fp32", "i32", s, idx, R, C, R, C, 1);
    auto idx_r = rand_int<int32_t>(R * C, 0, R - 1, false);
    idx_r[3] = R, idx_r[17] = -1;
    check_2d<float, int32_t>("fp32", "i32", s, idx_r, R, C, R, C, 0);
  }
  {
    auto idx = rand_int<int8_t>(R * C, 0, C - 1, false);
    idx[0] = -128, idx[5] = 127, idx[40] = -1;
    check_2d<float, int8_t>("fp32", "i8", s, idx, R, C, R, C, 1);
  }
  {
    auto idx = rand_int<uint64_t>(R * C, 0, C - 1, false);
    idx[2] = uint64_t{1} << 63, idx[9] = ~uint64_t{0}, idx[33] = (uint64_t{1} << 32) + 1;  // never wraps into range
    check_2d<float, uint64_t>("fp32", "u64", s, idx, R, C, R, C, 1);
  }
  {
    auto idx = rand_int<uint8_t>(R * C, 0, C - 1, false);
    idx[7] = 200, idx[8] = C;
    check_2d<uint16_t, uint8_t>("fp16", "u8", rand_int<uint16_t>(R * C, 1, 0x7BFF), idx, R, C, R, C, 1);
  }
}

int line_of(const std::string& src, const std::string& needle) {
  const size_t pos = src.find(needle);
  return 1 + static_cast<int>(std::count(src.begin(), src.begin() + static_cast<long>(pos), '\n'));
}

// Debug mode: an out-of-range index fails the launch on both backends, naming the range and
// the call's line; in-range indices run as usual.
TEST(ConformanceGather, OutOfRangeIndexFailsInDebugMode) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def gd(s_ptr, i_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    i = tl.load(i_ptr + offs)
    tl.store(o_ptr + offs, tl.gather(tl.load(s_ptr + offs), i, 0))
)";
  const int N = 16;
  tritium::CompileOptions debug;
  debug.debug = true;
  auto s = rand_f32(N);
  auto good = rand_int<int64_t>(N, 0, N - 1, false);
  const std::string want = fmt::format("device_assert failed: tl.gather index out of range [0, 16) at conformance_gd.py:{}",
                                       line_of(src, "tl.gather"));
  for (const char* backend : {"interp", "cpu"}) {
    SCOPED_TRACE(backend);
    {
      Case c(src, "gd", "*fp32, *i64, *fp32, 16", debug);
      c.in(s).in(good).out<float>(N);
      auto o = c.run_on(backend, {1}).get<float>(2);
      for (int j = 0; j < N; ++j) EXPECT_EQ(o[j], s[good[j]]) << j;
    }
    for (int64_t bad : {int64_t{-1}, int64_t{N}, INT64_MIN}) {
      auto idx = good;
      idx[11] = bad;
      Case c(src, "gd", "*fp32, *i64, *fp32, 16", debug);
      c.in(s).in(idx).out<float>(N);
      try {
        c.run_on(backend, {1});
        ADD_FAILURE() << "index " << bad << ": no failure";
      } catch (const tritium::Error& e) {
        EXPECT_EQ(e.kind(), tritium::ErrorKind::Device) << e.what();
        EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what() << "\nwant: " << want;
      }
    }
  }
}

// Sources and indices computed in the kernel (the CPU backend evaluates a computed source
// at the gathered position), the result used in further arithmetic and a reduction, and a
// gathered tensor of pointers that is then loaded through.
TEST(ConformanceGather, ComputedOperandsPointersAndArithmetic) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def gc(x_ptr, o_ptr, p_ptr, s_ptr, k, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    i = (offs * 7 + k) % N
    y = (x * 2.0 + 1.0).gather(i, 0) * 3.0 - x
    tl.store(o_ptr + offs, y)
    ptrs = tl.gather(x_ptr + offs, (N - 1) - i, 0)
    tl.store(p_ptr + offs, tl.load(ptrs) + tl.gather(x, i.to(tl.uint8), 0))
    tl.store(s_ptr, tl.sum(tl.gather(x, i, 0), axis=0))
)";
  const int N = 32;
  auto x = rand_f32(N);
  for (int k : {0, 5, 29}) {
    Case c(src, "gc", fmt::format("*fp32, *fp32, *fp32, *fp32, i32, {}", N));
    c.in(x).out<float>(N).out<float>(N).out<float>(1).scalar(k);
    auto r = c.run({1});
    auto y = r.get<float>(1), p = r.get<float>(2);
    std::vector<float> g(N);
    for (int j = 0; j < N; ++j) {
      const int i = (j * 7 + k) % N;
      g[j] = x[i];
      EXPECT_EQ(raw(y[j]), raw((x[i] * 2.0f + 1.0f) * 3.0f - x[j])) << "k=" << k << " j=" << j;
      EXPECT_EQ(raw(p[j]), raw(x[N - 1 - i] + x[i])) << "pointers k=" << k << " j=" << j;
    }
    // tl.sum's canonical halving tree (interpreter.h), written out here
    for (int n = N; n > 1; n /= 2)
      for (int j = 0; j < n / 2; ++j) g[j] = g[j] + g[j + n / 2];
    EXPECT_EQ(raw(r.get<float>(3)[0]), raw(g[0])) << "sum k=" << k;
  }
}

}  // namespace
