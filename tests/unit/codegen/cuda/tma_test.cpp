// Which windows the cuda backend copies with bulk tensor copies (TMA, sm_90a;
// codegen/cuda/cuda_emit_tma.cpp), read from the generated CUDA (NVRTC compiles it, no GPU;
// TRITIUM_NO_NVRTC=1 skips): a pipelined descriptor matmul with 16-byte aligned rows gets a
// tensor map per operand, one box per 64-column block and an mbarrier per ring slot, and is
// compiled for sm_90a; an unaligned row stride, portable numerics, a single stage and a
// block pointer that leaves a dimension unchecked do not use TMA.
// The values are checked on a GPU by tests/conformance/tma_test.cpp.
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
def k(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, CHECK_K: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_bp = tl.make_block_ptr(b_ptr, shape=(K, N), strides=(N, 1), offsets=(0, 0), block_shape=(BK, BN), order=(1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([tl.program_id(0) * BM, k * BK])
        if CHECK_K:
            b = tl.load(b_bp, boundary_check=(0, 1), padding_option="zero")
        else:
            b = tl.load(b_bp, boundary_check=(1,), padding_option="zero")
        acc = tl.dot(a, b, acc)
        b_bp = tl.advance(b_bp, (BK, 0))
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc)
)";

std::string cuda(const std::string& sig, int stages, bool portable = false) {
  tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  auto mod = tritium::Module::from_string(kSrc, "tma.py");
  tritium::CompileOptions o;
  o.num_warps = 4;
  o.num_stages = stages;
  o.portable_numerics = portable;
  return mod.kernel("k").compile(dev, sig, o).source();
}

TEST(CudaTma, AlignedWindowsAreBulkCopies) {
  if (std::getenv("TRITIUM_NO_NVRTC")) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  const std::string s = cuda("*fp16:16, *fp16:16, *fp32:16, i32, i32:16, i32:16, 128, 128, 64, True", 3);
  EXPECT_NE(s.find("target sm_90a"), std::string::npos);
  EXPECT_EQ(count(s, "tr_tmap_2d<6u, 3u>("), 2) << "one tensor map per operand, fp16, 128-byte swizzle";
  // per issue: A is one 64-wide box, B (128 wide) two; issued in the prologue (2 stages - 1 = 2
  // iterations ahead, 3 stages) and once in the loop body
  EXPECT_EQ(count(s, "tr_tma_load_2d(tr_ring"), 3 * 3);
  EXPECT_EQ(count(s, "tr_mbar_init(tr_ring"), 4) << "3 stages + 1 slot for the wgmma kept in flight";
  EXPECT_EQ(count(s, "tr_cp_async16("), 1) << "the prelude's definition only";
  EXPECT_EQ(count(s, "tr_mbar_wait("), 1 + 1) << "the prelude's definition and the loop's wait";
  // No run-time failure word (shapes and strides fit 32 bits): launches stay asynchronous.
  EXPECT_EQ(count(s.substr(s.find("__global__")), "tr_fail_report("), 0);
  EXPECT_EQ(count(s, "__trap();"), 2) << "a negative row stride stops the kernel, per tensor map";
}

TEST(CudaTma, WhatKeepsTheOtherPaths) {
  if (std::getenv("TRITIUM_NO_NVRTC")) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  // K unspecialized: A's row stride is not proved a multiple of 16 bytes; B's is (N:16).
  std::string s = cuda("*fp16:16, *fp16:16, *fp32:16, i32, i32:16, i32, 128, 128, 64, True", 3);
  EXPECT_EQ(count(s, "tr_tmap_2d<6u, 3u>("), 1) << s.substr(s.find("__global__"));
  // B's K dimension unchecked: not a window (its rows past K are read as they are).
  s = cuda("*fp16:16, *fp16:16, *fp32:16, i32, i32:16, i32:16, 128, 128, 64, False", 3);
  EXPECT_EQ(count(s, "tr_tmap_2d<6u, 3u>("), 1);
  // One stage (no pipelining) and portable numerics (no tensor cores): no bulk copies.
  EXPECT_EQ(count(cuda("*fp16:16, *fp16:16, *fp32:16, i32, i32:16, i32:16, 128, 128, 64, True", 1), "tr_tmap_2d<6u"), 0);
  EXPECT_EQ(count(cuda("*fp16:16, *fp16:16, *fp32:16, i32, i32:16, i32:16, 128, 128, 64, True", 3, true),
                  "tr_tmap_2d<6u"),
            0);
}

}  // namespace
