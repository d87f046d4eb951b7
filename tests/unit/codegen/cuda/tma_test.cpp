// Which windows the cuda backend copies with bulk tensor copies (TMA, sm_90a;
// codegen/cuda/cuda_emit_tma.cpp), read from the generated CUDA (NVRTC compiles it, no GPU;
// TRITIUM_NO_NVRTC=1 skips): a pipelined tensor-descriptor matmul with 16-byte aligned rows
// gets a tensor map per operand (fp16 / bf16 element type, the swizzle of its tile width), one
// box per 64-column block and an mbarrier per ring slot, no run-time failure word, and is
// compiled for sm_90a; an unaligned row stride, portable numerics, a single stage and block
// pointers (whose strides may be negative) do not use TMA. The values are checked on a GPU by
// tests/conformance/tma_test.cpp, in the same configurations.
#include "nvrtc_opt_out.h"
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/cuda/cuda_kernel.h"
#include "tritium/tritium.h"

namespace {

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

const char* kSrc = R"(
import triton
import triton.language as tl

@triton.jit
def k(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, KMAJOR_B: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    if KMAJOR_B:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    else:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([tl.program_id(0) * BM, k * BK])
        if KMAJOR_B:
            b = tl.trans(b_desc.load([0, k * BK]))
        else:
            b = b_desc.load([k * BK, 0])
        acc = tl.dot(a, b, acc)
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc)

@triton.jit
def bp(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_bp = tl.make_block_ptr(a_ptr, shape=(M, K), strides=(K, 1), offsets=(0, 0), block_shape=(BM, BK), order=(1, 0))
    b_bp = tl.make_block_ptr(b_ptr, shape=(K, N), strides=(N, 1), offsets=(0, 0), block_shape=(BK, BN), order=(1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_bp, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc)
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc)
)";

std::string cuda(const char* kernel, const std::string& sig, int stages, bool portable = false, int warps = 4) {
  tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  auto mod = tritium::Module::from_string(kSrc, "tma.py");
  tritium::CompileOptions o;
  o.num_warps = warps;
  o.num_stages = stages;
  o.portable_numerics = portable;
  return mod.kernel(kernel).compile(dev, sig, o).source();
}

TEST(CudaTma, AlignedDescriptorWindowsAreBulkCopies) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  const std::string s = cuda("k", "*fp16:16, *fp16:16, *fp32:16, i32, i32:16, i32:16, 128, 128, 64, False", 3);
  EXPECT_NE(s.find("target sm_90a"), std::string::npos);
  EXPECT_EQ(count(s, "tr_tmap_2d<6u, 3u>("), 2) << "one tensor map per operand, fp16, 128-byte swizzle";
  // per issue: A is one 64-wide box, B (128 wide) two; issued in the prologue (3 stages: 2
  // iterations ahead) and once in the loop body
  EXPECT_EQ(count(s, "tr_tma_load_2d(tr_ring"), 3 * 3);
  EXPECT_EQ(count(s, "tr_mbar_init(tr_ring"), 4) << "3 stages + 1 slot for the wgmma kept in flight";
  EXPECT_EQ(count(s, "tr_cp_async16("), 1) << "the prelude's definition only";
  EXPECT_EQ(count(s, "tr_mbar_wait("), 1 + 1) << "the prelude's definition and the loop's wait";
  // No run-time failure word (shapes and strides fit 32 bits): launches stay asynchronous.
  EXPECT_EQ(count(s.substr(s.find("__global__")), "tr_fail_report("), 0);
  EXPECT_EQ(count(s, "__trap();"), 2) << "a negative row stride stops the kernel, per tensor map";
}

// bf16 (element type 10), 32-wide tiles (64-byte swizzle), B K-major through tl.trans, 8 warps.
TEST(CudaTma, Bf16NarrowTilesAndKMajorB) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  const std::string s = cuda("k", "*bf16:16, *bf16:16, *fp32:16, i32, i32:16, i32:16, 128, 64, 32, True", 3, false, 8);
  EXPECT_EQ(count(s, "tr_tmap_2d<10u, 2u>("), 2) << s.substr(s.find("__global__"), 4000);
  // B's box is [BN = 64 rows][32]: one box each per issue
  EXPECT_EQ(count(s, "tr_tma_load_2d(tr_ring"), 2 * 3);
  // 16-wide tiles: 32-byte swizzle
  EXPECT_EQ(count(cuda("k", "*fp16:16, *fp16:16, *fp32:16, i32, i32:16, i32:16, 64, 64, 16, False", 3), "tr_tmap_2d<6u, 1u>("),
            1) << "A [64][16]; B [16][64] is 64 wide";
}

TEST(CudaTma, WhatKeepsTheOtherPaths) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  // K unspecialized: A's row stride is not proved a multiple of 16 bytes; B's is (N:16).
  std::string s = cuda("k", "*fp16:16, *fp16:16, *fp32:16, i32, i32:16, i32, 128, 128, 64, False", 3);
  EXPECT_EQ(count(s, "tr_tmap_2d<6u, 3u>("), 1) << s.substr(s.find("__global__"));
  // Block pointers: no tensor maps.
  EXPECT_EQ(count(cuda("bp", "*fp16:16, *fp16:16, *fp32:16, i32, i32:16, i32:16, 128, 128, 64", 3), "tr_tmap_2d<6u"), 0);
  // One stage (no pipelining) and portable numerics (no tensor cores): no bulk copies.
  EXPECT_EQ(count(cuda("k", "*fp16:16, *fp16:16, *fp32:16, i32, i32:16, i32:16, 128, 128, 64, False", 1), "tr_tmap_2d<6u"), 0);
  EXPECT_EQ(count(cuda("k", "*fp16:16, *fp16:16, *fp32:16, i32, i32:16, i32:16, 128, 128, 64, False", 3, true),
                  "tr_tmap_2d<6u"),
            0);
}

}  // namespace
