// Block pointers (tl.make_block_ptr, tl.advance / .advance, tl.load / tl.store with
// boundary_check and padding_option) and tensor descriptors (tl.make_tensor_descriptor,
// desc.load / desc.store, tl.load_tensor_descriptor / tl.store_tensor_descriptor: every
// dimension bounds-checked) on the interpreter and the CPU backend, bit for bit
// (the harness), against values computed here from Triton 3.6's definition: element
// (i, j) of the block is at base + (off0 + i) * stride0 + (off1 + j) * stride1; a dimension
// named in boundary_check masks lanes outside [0, shape_d); masked loads give 0
// (padding "zero" and ""), NaN ("nan"); masked stores write nothing (the poison stays).
#include <algorithm>
#include <cmath>

#include "conformance_util.h"
#include "halfbits.h"

using namespace conformance;

namespace {

const char* kPrelude = "import triton\nimport triton.language as tl\n\n";

// An M x N row-major matrix of distinct values; the block at (r0, c0) of 8 x 16 goes out of
// the matrix on every side for some of the launches.
TEST(ConformanceBlockPtr, LoadsAndStoresWithBoundaryChecksAndPadding) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(a_ptr, z_ptr, n_ptr, u_ptr, s_ptr, M, N, r0, c0, ru, BM: tl.constexpr, BN: tl.constexpr):
    a = tl.make_block_ptr(a_ptr, (M, N), (N, 1), (r0, c0), (BM, BN), (1, 0))
    out = tl.make_block_ptr(z_ptr, (BM, BN), (BN, 1), (0, 0), (BM, BN), (1, 0))
    tl.store(out, tl.load(a, boundary_check=(0, 1), padding_option="zero"))
    out_n = tl.make_block_ptr(n_ptr, (BM, BN), (BN, 1), (0, 0), (BM, BN), (1, 0))
    tl.store(out_n, tl.load(a, boundary_check=(1, 0), padding_option="nan"))
    # only the columns checked, at rows ru.. that are inside the matrix
    au = tl.make_block_ptr(a_ptr, (M, N), (N, 1), (ru, c0), (BM, BN), (1, 0))
    out_u = tl.make_block_ptr(u_ptr, (BM, BN), (BN, 1), (0, 0), (BM, BN), (1, 0))
    tl.store(out_u, tl.load(au, boundary_check=(1,)))
    # store into an M x N matrix through the same window: only in-bounds lanes are written
    s = tl.make_block_ptr(s_ptr, (M, N), (N, 1), (r0, c0), (BM, BN), (1, 0))
    tl.store(s, tl.load(a, boundary_check=(0, 1)) * 2.0 + 1.0, boundary_check=(0, 1))
)";
  const int M = 20, N = 37, BM = 8, BN = 16;
  std::vector<float> a(M * N);
  for (int i = 0; i < M * N; ++i) a[i] = static_cast<float>(i + 1);
  for (auto [r0, c0] : {std::pair{0, 0}, std::pair{5, 30}, std::pair{-3, -5}, std::pair{15, 25}, std::pair{4, -12}}) {
    const int ru = std::min(std::max(r0, 0), M - BM);
    Case c(src, "k", "*fp32, *fp32, *fp32, *fp32, *fp32, i32, i32, i32, i32, i32, 8, 16");
    c.in(a).out<float>(BM * BN).out<float>(BM * BN).out<float>(BM * BN).out<float>(M * N);
    c.scalar(M).scalar(N).scalar(r0).scalar(c0).scalar(ru);
    auto r = c.run({1});
    auto z = r.get<float>(1), nn = r.get<float>(2), u = r.get<float>(3), s = r.get<float>(4);
    const std::string what = "window (" + std::to_string(r0) + ", " + std::to_string(c0) + ")";
    for (int i = 0; i < BM; ++i)
      for (int j = 0; j < BN; ++j) {
        const int ri = r0 + i, cj = c0 + j;
        const bool in = ri >= 0 && ri < M && cj >= 0 && cj < N;
        const float v = in ? a[ri * N + cj] : 0.0f;
        ASSERT_EQ(bits(z[i * BN + j]), bits(v)) << what << " zero pad " << i << "," << j;
        if (in) ASSERT_EQ(bits(nn[i * BN + j]), bits(v)) << what << " nan pad " << i << "," << j;
        else ASSERT_TRUE(std::isnan(nn[i * BN + j])) << what << " nan pad " << i << "," << j;
        const float w = cj >= 0 && cj < N ? a[(ru + i) * N + cj] : 0.0f;
        ASSERT_EQ(bits(u[i * BN + j]), bits(w)) << what << " cols only " << i << "," << j;
      }
    for (int ri = 0; ri < M; ++ri)
      for (int cj = 0; cj < N; ++cj) {
        const bool hit = ri >= r0 && ri < r0 + BM && cj >= c0 && cj < c0 + BN;
        if (hit) ASSERT_EQ(bits(s[ri * N + cj]), bits(a[ri * N + cj] * 2.0f + 1.0f)) << what << " store " << ri << "," << cj;
        else ASSERT_TRUE(std::isnan(s[ri * N + cj])) << what << " store outside the window " << ri << "," << cj;
      }
  }
}

// Row sums of an M x K matrix, walking K in blocks with a loop-carried block pointer (the
// tutorial matmul pattern), through a transposed view (strides (1, M) over a K x M array),
// advancing with both spellings.
TEST(ConformanceBlockPtr, LoopCarriedAdvanceOverATransposedView) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(at_ptr, out_ptr, M, K, BM: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    # at is K x M row-major; the block pointer reads it as the M x K matrix a = at.T
    a = tl.make_block_ptr(at_ptr, (M, K), (1, M), (pid * BM, 0), (BM, BK), (0, 1))
    acc = tl.zeros((BM,), dtype=tl.float32)
    for kk in range(0, K, 2 * BK):
        acc += tl.sum(tl.load(a, boundary_check=(0, 1)), axis=1)
        a = tl.advance(a, (0, BK))
        acc += tl.sum(tl.load(a, boundary_check=(0, 1)), axis=1)
        a = a.advance((0, BK))
    o = tl.make_block_ptr(out_ptr, (M,), (1,), (pid * BM,), (BM,), (0,))
    tl.store(o, acc, boundary_check=(0,))
)";
  const int M = 45, K = 100, BM = 16, BK = 16;
  std::vector<float> at(K * M);
  for (int k = 0; k < K; ++k)
    for (int m = 0; m < M; ++m) at[k * M + m] = static_cast<float>((m * 7 + k * 3) % 11) - 5.0f;  // exact sums
  Case c(src, "k", "*fp32, *fp32, i32, i32, 16, 16");
  c.in(at).out<float>(64).scalar(M).scalar(K);
  auto r = c.run({(M + BM - 1) / BM});
  auto out = r.get<float>(1);
  for (int m = 0; m < M; ++m) {
    float want = 0;
    for (int k = 0; k < K; ++k) want += at[k * M + m];
    ASSERT_EQ(out[m], want) << m;
  }
  for (int m = M; m < 64; ++m) ASSERT_TRUE(std::isnan(out[m])) << "written past M at " << m;
}

// A 2-D descriptor over an M x N matrix (row stride ld >= N), windows outside on every
// side: loads pad with zero (default) or NaN, stores write only inside; fp16 values stored
// through an fp32 descriptor are converted (upstream casts to the descriptor's type).
TEST(ConformanceBlockPtr, TensorDescriptorsCheckEveryDimension) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(a_ptr, z_ptr, n_ptr, s_ptr, M, N, ld, r0, c0, BM: tl.constexpr, BN: tl.constexpr):
    d = tl.make_tensor_descriptor(a_ptr, [M, N], [ld, 1], [BM, BN])
    dn = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[ld, 1], block_shape=[BM, BN], padding_option="nan")
    tl.static_assert(d.block_shape[1] == BN)
    tl.static_assert(d.dtype == tl.float32)
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = d.load([r0, c0])
    tl.store(z_ptr + offs, x)
    tl.store(n_ptr + offs, tl.load_tensor_descriptor(dn, [r0, c0]))
    out = tl.make_tensor_descriptor(s_ptr, [M, N], [ld, 1], [BM, BN])
    out.store([r0, c0], (x * 2.0 + 1.0).to(tl.float16))
    tl.store_tensor_descriptor(out, [r0 + BM, c0], x * 0.0 - 1.0)
)";
  const int M = 20, N = 37, ld = 40, BM = 8, BN = 16;
  std::vector<float> a(M * ld);
  for (int i = 0; i < M * ld; ++i) a[i] = static_cast<float>(i % 509) + 0.5f;
  for (auto [r0, c0] : {std::pair{0, 0}, std::pair{5, 30}, std::pair{-3, -5}, std::pair{15, 25}, std::pair{-9, 3}}) {
    Case c(src, "k", "*fp32, *fp32, *fp32, *fp32, i32, i32, i32, i32, i32, 8, 16");
    c.in(a).out<float>(BM * BN).out<float>(BM * BN).out<float>(M * ld);
    c.scalar(M).scalar(N).scalar(ld).scalar(r0).scalar(c0);
    auto r = c.run({1});
    auto z = r.get<float>(1), nn = r.get<float>(2), s = r.get<float>(3);
    const std::string what = "window (" + std::to_string(r0) + ", " + std::to_string(c0) + ")";
    for (int i = 0; i < BM; ++i)
      for (int j = 0; j < BN; ++j) {
        const int ri = r0 + i, cj = c0 + j;
        const bool in = ri >= 0 && ri < M && cj >= 0 && cj < N;  // the columns N..ld-1 are outside too
        ASSERT_EQ(bits(z[i * BN + j]), bits(in ? a[ri * ld + cj] : 0.0f)) << what << " " << i << "," << j;
        if (in) ASSERT_EQ(bits(nn[i * BN + j]), bits(a[ri * ld + cj])) << what << " nan pad " << i << "," << j;
        else ASSERT_TRUE(std::isnan(nn[i * BN + j])) << what << " nan pad " << i << "," << j;
      }
    for (int ri = 0; ri < M; ++ri)
      for (int cj = 0; cj < ld; ++cj) {
        const bool col = cj >= c0 && cj < c0 + BN && cj < N;
        const float got = s[ri * ld + cj];
        if (col && ri >= r0 && ri < r0 + BM) {
          // x * 2 + 1 in fp32, rounded once to fp16 (RNE), widened exactly by the fp32 descriptor
          const float want = static_cast<float>(static_cast<_Float16>(a[ri * ld + cj] * 2.0f + 1.0f));
          ASSERT_EQ(bits(got), bits(want)) << what << " store " << ri << "," << cj;
        } else if (col && ri >= r0 + BM && ri < r0 + 2 * BM) {
          ASSERT_EQ(got, -1.0f) << what << " second store " << ri << "," << cj;
        } else {
          ASSERT_TRUE(std::isnan(got)) << what << " written outside the windows at " << ri << "," << cj;
        }
      }
  }
}

// Block pointers and descriptors go into and come out of jit helpers (as a loop-carried
// value too) with their compile-time block shape intact.
TEST(ConformanceBlockPtr, ThroughJitHelpers) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def step(bp):
    return tl.advance(bp, (8,))

@triton.jit
def make(base, n):
    return tl.make_block_ptr(base, (n,), (1,), (0,), (8,), (0,))

@triton.jit
def desc_of(base, n):
    return tl.make_tensor_descriptor(base, [n], [1], [8], padding_option="nan")

@triton.jit
def pair(t):
    return t[0], t[1] + 1

@triton.jit
def k(a_ptr, o_ptr, d_ptr, n):
    bp = make(a_ptr, n)
    acc = tl.zeros((8,), dtype=tl.float32)
    for i in range(0, n, 8):
        acc += tl.load(bp, boundary_check=(0,))
        bp = step(bp)
    tl.store(o_ptr + tl.arange(0, 8), acc)
    t = pair((make(a_ptr, n), 1))
    tl.store(o_ptr + 8 + tl.arange(0, 8), tl.load(step(t[0]), boundary_check=(0,)) + t[1])
    d = desc_of(a_ptr, n)
    tl.store(d_ptr + tl.arange(0, 8), d.load([n - 4]))
)";
  const int n = 44;
  std::vector<float> a(n);
  for (int i = 0; i < n; ++i) a[i] = static_cast<float>(i * 3 - 20);
  Case c(src, "k", "*fp32, *fp32, *fp32, i32");
  c.in(a).out<float>(16).out<float>(8).scalar(n);
  auto r = c.run({1});
  auto o = r.get<float>(1), d = r.get<float>(2);
  for (int j = 0; j < 8; ++j) {
    float want = 0;
    for (int i = j; i < n; i += 8) want += a[i];
    ASSERT_EQ(o[j], want) << j;
    ASSERT_EQ(o[8 + j], a[8 + j] + 2.0f) << j;
    if (n - 4 + j < n) ASSERT_EQ(d[j], a[n - 4 + j]) << j;
    else ASSERT_TRUE(std::isnan(d[j])) << j;
  }
}

// `bp.dtype.element_ty` / `bp.type.element_ty` (flash-linear-attention's store idiom
// `tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0,))`) is the element type;
// other attributes are refused.
TEST(ConformanceBlockPtr, DtypeAndTypeAttributes) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(a_ptr, o_ptr, n):
    p_a = tl.make_block_ptr(a_ptr, (n,), (1,), (0,), (16,), (0,))
    p_o = tl.make_block_ptr(o_ptr, (n,), (1,), (0,), (16,), (0,))
    x = tl.load(p_a, boundary_check=(0,)).to(tl.float32) * 3.0
    tl.store(p_o, x.to(p_o.dtype.element_ty), boundary_check=(0,))
    tl.static_assert(p_o.type.element_ty == tl.float16)
    tl.static_assert(p_a.dtype.element_ty == tl.int8)
)";
  const int n = 13;
  auto a = rand_int<int8_t>(n, -40, 40);
  Case c(src, "k", "*i8, *fp16, i32");
  c.in(a).out<uint16_t>(16).scalar(n);
  auto o = c.run({1}).get<uint16_t>(1);
  for (int i = 0; i < 16; ++i) {
    if (i < n) EXPECT_EQ(half_to_float(o[i]), 3.0f * a[i]) << i;  // small integers: exact in fp16
    else EXPECT_EQ(o[i], poison<uint16_t>()) << i;
  }
  expect_compile_error(std::string(kPrelude) + R"(
@triton.jit
def k(a_ptr, n):
    p = tl.make_block_ptr(a_ptr, (n,), (1,), (0,), (16,), (0,))
    s = p.shape
)",
                       "k", "*fp32, i32", "block pointer has no attribute 'shape' (tritium supports advance, dtype, type)");
}

}  // namespace
