// Broadcasting ([N,1] + [1,M], scalar splats, x[:, None] / x[None, :]) and shape ops:
// trans/permute/.T, reshape/view, expand_dims, broadcast_to, program_id/num_programs on
// 1-D, 2-D and 3-D grids.
#include "conformance_util.h"

using namespace conformance;

namespace {

TEST(ConformanceShape, BroadcastOuterSumAndSplat) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def outer(a_ptr, b_ptr, o_ptr, s, N: tl.constexpr, M: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, N))
    b = tl.load(b_ptr + tl.arange(0, M))
    x = a[:, None] + b[None, :] * s
    tl.static_assert(x.shape[0] == N)
    tl.static_assert(x.shape[1] == M)
    y = tl.expand_dims(a, 1) - tl.expand_dims(b, 0)
    offs = tl.arange(0, N)[:, None] * M + tl.arange(0, M)[None, :]
    tl.store(o_ptr + offs, x)
    tl.store(o_ptr + N * M + offs, y + 1.0)
)";
  const int N = 8, M = 16;
  auto a = rand_f32(N), b = rand_f32(M);
  float s = 1.75f;
  Case c(src, "outer", "*fp32, *fp32, *fp32, fp32, 8, 16");
  c.in(a).in(b).out<float>(2 * N * M).scalar(s);
  auto r = c.run({1});
  auto o = r.get<float>(2);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) {
      float p = b[j] * s;  // rounded product, then sum (contraction off)
      EXPECT_EQ(bits(o[i * M + j]), bits(a[i] + p)) << i << "," << j;
      EXPECT_EQ(bits(o[N * M + i * M + j]), bits((a[i] - b[j]) + 1.0f)) << i << "," << j;
    }
}

TEST(ConformanceShape, TransPermuteReshapeBroadcastTo) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def shapes(x_ptr, o1, o2, o3, o4, o5, o6, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + r * C + c)
    t = tl.trans(x)
    rt = tl.arange(0, C)[:, None]
    ct = tl.arange(0, R)[None, :]
    tl.store(o1 + rt * R + ct, t)
    tl.store(o2 + rt * R + ct, x.T)
    tl.store(o3 + rt * R + ct, tl.permute(x, (1, 0)))
    v = tl.reshape(x, (R * C,))
    tl.store(o4 + tl.arange(0, R * C), v)
    w = x.reshape(C, R)
    tl.store(o5 + rt * R + ct, w)
    row = tl.load(x_ptr + tl.arange(0, C))
    b = tl.broadcast_to(row[None, :], (R, C))
    tl.store(o6 + r * C + c, b)
)";
  const int R = 4, C = 8;
  auto x = rand_f32(R * C);
  Case c(src, "shapes", "*fp32, *fp32, *fp32, *fp32, *fp32, *fp32, *fp32, 4, 8");
  c.in(x);
  for (int k = 0; k < 6; ++k) c.out<float>(R * C);
  auto res = c.run({1});
  for (int k = 1; k <= 3; ++k) {
    auto t = res.get<float>(k);
    for (int i = 0; i < C; ++i)
      for (int j = 0; j < R; ++j) EXPECT_EQ(bits(t[i * R + j]), bits(x[j * C + i])) << "out" << k;
  }
  auto v = res.get<float>(4), w = res.get<float>(5), b = res.get<float>(6);
  for (int i = 0; i < R * C; ++i) {
    EXPECT_EQ(bits(v[i]), bits(x[i]));  // reshape keeps row-major order
    EXPECT_EQ(bits(w[i]), bits(x[i]));
  }
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) EXPECT_EQ(bits(b[i * C + j]), bits(x[j]));
}

TEST(ConformanceShape, Permute3D) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def perm3(x_ptr, o_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    a = tl.arange(0, A)[:, None, None]
    b = tl.arange(0, B)[None, :, None]
    c = tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + a * B * C + b * C + c)
    y = tl.permute(x, 2, 0, 1)
    tl.static_assert(y.shape[0] == C)
    cc = tl.arange(0, C)[:, None, None]
    aa = tl.arange(0, A)[None, :, None]
    bb = tl.arange(0, B)[None, None, :]
    tl.store(o_ptr + cc * A * B + aa * B + bb, y)
)";
  const int A = 2, B = 4, C = 8;
  auto x = rand_int<int32_t>(A * B * C, -100000, 100000);
  Case c(src, "perm3", "*i32, *i32, 2, 4, 8");
  c.in(x).out<int32_t>(A * B * C);
  auto o = c.run({1}).get<int32_t>(1);
  for (int i = 0; i < A; ++i)
    for (int j = 0; j < B; ++j)
      for (int k = 0; k < C; ++k) EXPECT_EQ(o[k * A * B + i * B + j], x[i * B * C + j * C + k]);
}

TEST(ConformanceShape, ProgramIdNumPrograms3D) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def pids(o_ptr):
    x = tl.program_id(0)
    y = tl.program_id(axis=1)
    z = tl.program_id(2)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    nz = tl.num_programs(2)
    lin = (z * ny + y) * nx + x
    k = tl.arange(0, 4)
    v = tl.where(k == 0, x, tl.where(k == 1, y, tl.where(k == 2, z, nx * 100 + ny * 10 + nz)))
    tl.store(o_ptr + lin * 4 + k, v)
)";
  const int gx = 3, gy = 2, gz = 4;
  Case c(src, "pids", "*i32");
  c.out<int32_t>(gx * gy * gz * 4);
  auto o = c.run({gx, gy, gz}).get<int32_t>(0);
  for (int z = 0; z < gz; ++z)
    for (int y = 0; y < gy; ++y)
      for (int x = 0; x < gx; ++x) {
        int lin = (z * gy + y) * gx + x;
        EXPECT_EQ(o[lin * 4 + 0], x);
        EXPECT_EQ(o[lin * 4 + 1], y);
        EXPECT_EQ(o[lin * 4 + 2], z);
        EXPECT_EQ(o[lin * 4 + 3], gx * 100 + gy * 10 + gz);
      }
}

TEST(ConformanceShape, ProgramId1DAnd2D) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def pid2(o_ptr, BLOCK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    offs = (pn * tl.num_programs(0) + pm) * BLOCK + tl.arange(0, BLOCK)
    tl.store(o_ptr + offs, offs * 3 + pn)
)";
  {
    Case c(src, "pid2", "*i32, 16");
    c.out<int32_t>(5 * 16);
    auto o = c.run({5}).get<int32_t>(0);
    for (int i = 0; i < 80; ++i) EXPECT_EQ(o[i], i * 3);
  }
  {
    Case c(src, "pid2", "*i32, 16");
    c.out<int32_t>(3 * 2 * 16);
    auto o = c.run({3, 2}).get<int32_t>(0);
    for (int i = 0; i < 96; ++i) EXPECT_EQ(o[i], i * 3 + i / 48);
  }
}

}  // namespace
