// PyTorch Inductor's kernel header and helper module (`from torch._inductor.runtime import
// triton_helpers, triton_heuristics`; `from torch._inductor.runtime.triton_helpers import
// libdevice, math as tl_math`; `@triton_heuristics.pointwise(...)`) as generated kernels use
// them, on the interpreter and the CPU backend (bit-identical: the harness), with tritium's
// src/frontend/stdlib/_inductor.py behind the helpers. Expected values computed here:
// integer helpers exactly (Python's floor division / modulo), maximum / minimum / max2 /
// max_with_index by their NaN and tie rules exactly, prod and any exactly (small
// integers), Welford mean / m2 against float64 with 2^-20 relative (n <= 64 fp32 updates).
#include <cmath>

#include "conformance_util.h"

using namespace conformance;

namespace {

const char* kHeader = R"(
import triton
import triton.language as tl
from triton.compiler.compiler import AttrsDescriptor
from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()
)";

TEST(ConformanceInductorHelpers, ElementwiseAndReductions) {
  const std::string src = std::string(kHeader) + R"(
@triton_heuristics.pointwise(size_hints={'x': 64}, filename=__file__, triton_meta={'signature': {}}, min_elem_per_thread=0)
@triton.jit
def k(a_ptr, b_ptr, ia_ptr, ib_ptr, mx_ptr, mn_ptr, fd_ptr, rm_ptr, r2_ptr, rv_ptr, ri_ptr, p_ptr, an_ptr,
      XBLOCK: tl.constexpr, R: tl.constexpr):
    x = tl.arange(0, XBLOCK)
    a = tl.load(a_ptr + x)
    b = tl.load(b_ptr + x)
    tl.store(mx_ptr + x, triton_helpers.maximum(a, b))
    tl.store(mn_ptr + x, triton_helpers.minimum(a, b))
    ia = tl.load(ia_ptr + x)
    ib = tl.load(ib_ptr + x)
    tl.store(fd_ptr + x, triton_helpers.div_floor_integer(ia, ib))
    tl.store(rm_ptr + x, triton_helpers.remainder_integer(ia, ib))
    rows = tl.arange(0, XBLOCK // R)[:, None]
    cols = tl.arange(0, R)[None, :]
    a2 = tl.load(a_ptr + rows * R + cols)
    tl.store(r2_ptr + tl.arange(0, XBLOCK // R), triton_helpers.max2(a2, 1))
    idx = tl.broadcast_to(cols, [XBLOCK // R, R])
    v, i = triton_helpers.max_with_index(a2, idx, 1)
    tl.store(rv_ptr + tl.arange(0, XBLOCK // R), v)
    tl.store(ri_ptr + tl.arange(0, XBLOCK // R), i)
    small = (tl.load(ia_ptr + rows * R + cols) % 3) + 1
    tl.store(p_ptr + tl.arange(0, XBLOCK // R), triton_helpers.prod(small, 1))
    tl.store(an_ptr + tl.arange(0, XBLOCK // R), triton_helpers.any(small == 3, 1).to(tl.int32))
)";
  const int n = 64, R = 8, rows = n / R;
  auto a = rand_f32(n, -4.f, 4.f), b = rand_f32(n, -4.f, 4.f);
  a[3] = NAN;
  b[5] = NAN;
  a[7] = b[7] = NAN;
  a[9] = b[9];  // equal
  // Row 2: a tie for the maximum (indices 1 and 5); row 3 holds a NaN (index 4).
  a[2 * R + 1] = a[2 * R + 5] = 100.f;
  a[3 * R + 4] = NAN;
  auto ia = rand_int<int32_t>(n, -50, 50), ib = rand_int<int32_t>(n, -9, 9);
  Case c(src, "k", "*fp32, *fp32, *i32, *i32, *fp32, *fp32, *i32, *i32, *fp32, *fp32, *i32, *i32, *i32, 64, 8");
  c.in(a).in(b).in(ia).in(ib).out<float>(n).out<float>(n).out<int32_t>(n).out<int32_t>(n).out<float>(rows)
      .out<float>(rows).out<int32_t>(rows).out<int32_t>(rows).out<int32_t>(rows);
  auto r = c.run({1});
  auto mx = r.get<float>(4), mn = r.get<float>(5), r2 = r.get<float>(8), rv = r.get<float>(9);
  auto fd = r.get<int32_t>(6), rm = r.get<int32_t>(7), ri = r.get<int32_t>(10), p = r.get<int32_t>(11),
       an = r.get<int32_t>(12);
  for (int i = 0; i < n; ++i) {
    // maximum(a, b): a when a > b or a is NaN, else b (so a NaN in b wins only when a is not larger).
    const float wmx = (a[i] > b[i] || std::isnan(a[i])) ? a[i] : b[i];
    const float wmn = (a[i] < b[i] || std::isnan(a[i])) ? a[i] : b[i];
    ASSERT_EQ(bits(mx[i]), bits(wmx)) << i;
    ASSERT_EQ(bits(mn[i]), bits(wmn)) << i;
    const int q = ia[i] / ib[i], rr = ia[i] % ib[i];
    const int fq = (rr != 0 && ((ia[i] < 0) != (ib[i] < 0))) ? q - 1 : q;
    ASSERT_EQ(fd[i], fq) << ia[i] << " // " << ib[i];
    ASSERT_EQ(rm[i], ia[i] - fq * ib[i]) << ia[i] << " % " << ib[i];
  }
  for (int row = 0; row < rows; ++row) {
    float m = a[row * R];
    float best = a[row * R];
    int bi = 0;
    int64_t prod = 1;
    bool any3 = false;
    for (int j = 0; j < R; ++j) {
      const float v = a[row * R + j];
      if (j > 0 && (v > m || std::isnan(v))) m = v;
      if (j > 0) {
        const bool better = std::isnan(v) ? !std::isnan(best) : (!std::isnan(best) && v > best);
        if (better) best = v, bi = j;
      }
      const int s = ia[row * R + j] % 3 + 1;  // Triton's % truncates like C++'s
      prod *= s;
      any3 = any3 || s == 3;
    }
    // max2 is a tree reduction; with a NaN in the row the result is NaN whatever the order.
    if (std::isnan(m)) ASSERT_TRUE(std::isnan(r2[row])) << row;
    else ASSERT_EQ(r2[row], m) << row;
    ASSERT_EQ(bits(rv[row]), bits(best)) << row;
    ASSERT_EQ(ri[row], bi) << "row " << row << ": the first index of the maximum (NaN counts as the maximum)";
    ASSERT_EQ(p[row], static_cast<int32_t>(prod)) << row;
    ASSERT_EQ(an[row], any3 ? 1 : 0) << row;
  }
  EXPECT_EQ(ri[2], 1) << "tie broken by the lower index";
  EXPECT_EQ(ri[3], 4) << "NaN is the maximum";
}

TEST(ConformanceInductorHelpers, WelfordReduceAndCombine) {
  // Inductor's looped LayerNorm statistics: welford_reduce per column block, then welford.
  const std::string src = std::string(kHeader) + R"(
@triton.jit
def k(x_ptr, mean_ptr, var_ptr, RN: tl.constexpr, RBLOCK: tl.constexpr):
    rbase = tl.arange(0, RBLOCK)[None, :]
    mean_acc = tl.zeros([1, RBLOCK], tl.float32)
    m2_acc = tl.zeros([1, RBLOCK], tl.float32)
    w_acc = tl.zeros([1, RBLOCK], tl.float32)
    for roffset in range(0, RN, RBLOCK):
        tmp0 = tl.load(x_ptr + roffset + rbase)
        mean_next, m2_next, w_next = triton_helpers.welford_reduce(tmp0, mean_acc, m2_acc, w_acc, roffset == 0)
        mean_acc = mean_next
        m2_acc = m2_next
        w_acc = w_next
    mean, m2, w = triton_helpers.welford(mean_acc, m2_acc, w_acc, 1)
    tl.store(mean_ptr + tl.arange(0, 1), mean)
    tl.store(var_ptr + tl.arange(0, 1), m2 / w)
)";
  const int N = 256;
  auto x = rand_f32(N, -3.f, 5.f);
  Case c(src, "k", "*fp32, *fp32, *fp32, 256, 32");
  c.in(x).out<float>(1).out<float>(1);
  auto r = c.run({1});
  double s = 0;
  for (float v : x) s += v;
  const double mean = s / N;
  double ss = 0;
  for (float v : x) ss += (v - mean) * (v - mean);
  expect_close(r.get<float>(1), {mean}, 0x1p-20, 0x1p-22, "welford mean");
  expect_close(r.get<float>(2), {ss / N}, 0x1p-20, 0, "welford variance");
}

}  // namespace
