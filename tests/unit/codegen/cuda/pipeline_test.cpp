// Which loops the cuda backend software-pipelines (codegen/cuda/cuda_emit_pipeline.cpp),
// read from the generated CUDA (compiled by NVRTC, no GPU needed; TRITIUM_NO_NVRTC=1
// skips): K loops with num_stages > 1 and 16-byte-aligned operands get cp.async ring
// buffers and the number of stages asked for, or fewer where shared memory would overflow;
// num_stages = 1, portable numerics, stores in the loop and a non-zero `other` keep the
// synchronous path. The values are checked by tests/conformance/pipeline_test.cpp (on a GPU
// in both numerics).
#include "nvrtc_opt_out.h"
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/cuda/cuda_kernel.h"
#include "tritium/tritium.h"

namespace {

const char* kSrc = R"(
import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, OTHER: tl.constexpr,
       STORE_IN_LOOP: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * BN + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=OTHER)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        if STORE_IN_LOOP:
            tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc)
        a_ptrs += BK
        b_ptrs += BK * BN
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc.to(tl.float16))
)";

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

struct Gen {
  tritium::Device dev{tritium::runtime::cuda::make_nvrtc_check_device()};
  tritium::Module mod = tritium::Module::from_string(kSrc, "pipe.py");
  std::string cuda(const std::string& tiles, const char* other, int stages, int warps = 4, bool portable = false,
                   bool store = false) {
    tritium::CompileOptions o;
    o.num_stages = stages;
    o.num_warps = warps;
    o.portable_numerics = portable;
    const std::string sig = "*fp16:16, *fp16:16, *fp16:16, i32:16, " + tiles + ", " + other + ", " + (store ? "True" : "False");
    const std::string src = mod.kernel("mm").compile(dev, sig, o).source();
    return src.substr(src.find("__global__"));
  }
};

TEST(CudaPipeline, KLoopGetsTheStagesAskedFor) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  Gen g;
  for (int stages : {2, 3, 4}) {
    const std::string s = g.cuda("64, 64, 32", "0.0", stages);
    EXPECT_EQ(count(s, "software pipeline (" + std::to_string(stages) + " stages)"), 1) << s;
    // in each iteration: at most S-2 groups pending (S = 2: the same wait as after the loop)
    EXPECT_EQ(count(s, "tr_cp_wait<" + std::to_string(stages - 2) + ">();"), stages == 2 ? 2 : 1) << s;
    EXPECT_GT(count(s, "tr_cp_async16("), 0) << s;
    EXPECT_EQ(count(s, "operands to shared memory"), 0) << s;  // both operands come from the ring
  }
}

TEST(CudaPipeline, SynchronousWhereItDoesNotApply) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  Gen g;
  for (const std::string& s : {g.cuda("64, 64, 32", "0.0", 1), g.cuda("64, 64, 32", "0.0", 3, 4, true),
                               g.cuda("64, 64, 32", "0.0", 3, 4, false, true)}) {
    EXPECT_EQ(count(s, "software pipeline"), 0) << s;
    EXPECT_EQ(count(s, "tr_cp_async"), 0) << s;
  }
  // other = 1.0: a is staged synchronously each iteration, b still comes from the ring.
  const std::string s = g.cuda("64, 64, 32", "1.0", 3);
  EXPECT_EQ(count(s, "software pipeline (3 stages)"), 1) << s;
  EXPECT_EQ(count(s, "operands to shared memory"), 1) << s;
}

// 128 x 128 x 128 fp16 tiles: a slot is 64 KiB (sm_90 allows 227 KiB). 5 stages ask for 5
// slots plus one for the wgmma kept in flight; 3 stages with it (4 slots, 256 KiB) do not
// fit either, 3 without it (192 KiB; the epilogue's conversion reuses the ring) do. With 4
// warps (M = 128 = 16 x 4 x 2 slabs) the same. mma.sync (2 warps, no wgmma) has no extra slot.
TEST(CudaPipeline, StagesLoweredToFitSharedMemory) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  Gen g;
  for (int warps : {4, 8}) {
    const std::string s = g.cuda("128, 128, 128", "0.0", 5, warps);
    EXPECT_EQ(count(s, "software pipeline (3 stages)"), 1) << warps;
    EXPECT_EQ(count(s, "stays in flight"), 0) << warps;
  }
  const std::string s = g.cuda("128, 128, 128", "0.0", 5, 2);
  EXPECT_EQ(count(s, "software pipeline (3 stages)"), 1);
}

const char* kReview = R"(
import triton
import triton.language as tl

@triton.jit
def adv(a_ptr, b_ptr, c_ptr, s_ptr, NK, SCALAR: tl.constexpr, NEXT: tl.constexpr, COMPUTED_B: tl.constexpr):
    offs_m = tl.arange(0, 64)
    offs_k = tl.arange(0, 32)
    a_off = offs_m[:, None] * 32 + offs_k[None, :]
    b_off = offs_k[:, None] * 64 + offs_m[None, :]
    a_ptrs = a_ptr + a_off
    b_ptrs = b_ptr + b_off
    pa = a_ptr
    acc = tl.zeros((64, 64), dtype=tl.float32)
    s = tl.zeros((64,), dtype=tl.float32)
    for k in range(0, NK):
        if SCALAR:
            a = tl.load(pa + a_off)
        else:
            a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        if COMPUTED_B:
            b = b * 2
        acc = tl.dot(a, b, acc)
        a_ptrs += 2048
        b_ptrs += 2048
        pa += 2048
        if NEXT:
            s += tl.sum(tl.load(a_ptrs).to(tl.float32), axis=1)
    tl.store(c_ptr + offs_m[:, None] * 64 + offs_m[None, :], acc)
    tl.store(s_ptr + offs_m, s)
)";

// Found by review: a pointer the loop advances, also read by a synchronous load, keeps the
// loop synchronous; carried scalar pointers pipeline; a dot whose b is computed in the loop
// (written to scratch) does not stay in flight.
TEST(CudaPipeline, ReviewShapes) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  auto mod = tritium::Module::from_string(kReview, "review.py");
  auto gen = [&](const char* flags) {
    const std::string src = mod.kernel("adv").compile(dev, std::string("*fp16:16, *fp16:16, *fp32:16, *fp32:16, i32, ") + flags).source();
    return src.substr(src.find("__global__"));
  };
  const std::string next = gen("False, True, False"), scalar = gen("True, False, False"), computed = gen("False, False, True");
  EXPECT_EQ(count(next, "software pipeline"), 0) << next;
  EXPECT_EQ(count(scalar, "software pipeline (3 stages)"), 1) << scalar;
  EXPECT_EQ(count(scalar, "stays in flight"), 1) << scalar;
  EXPECT_EQ(count(computed, "software pipeline (3 stages)"), 1) << computed;
  EXPECT_EQ(count(computed, "stays in flight"), 0) << computed;
}

// tl.range's num_stages overrides the kernel's for its loop (upstream's semantics), and
// disallow_acc_multi_buffer keeps the accumulating dot from staying in flight.
TEST(CudaPipeline, RangeOptionsPerLoop) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  auto gen = [&](const std::string& range) {
    const std::string src = std::string(R"(
import triton
import triton.language as tl

@triton.jit
def k(a_ptr, b_ptr, c_ptr, NK):
    offs = tl.arange(0, 64)
    a_ptrs = a_ptr + offs[:, None] * 64 + offs[None, :]
    b_ptrs = b_ptr + offs[:, None] * 64 + offs[None, :]
    acc = tl.zeros((64, 64), dtype=tl.float32)
    for k in )") + range + R"(:
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += 4096
        b_ptrs += 4096
    tl.store(c_ptr + offs[:, None] * 64 + offs[None, :], acc)
)";
    auto mod = tritium::Module::from_string(src, "range.py");
    const std::string out = mod.kernel("k").compile(dev, "*fp16:16, *fp16:16, *fp32:16, i32").source();
    return out.substr(out.find("__global__"));
  };
  EXPECT_EQ(count(gen("tl.range(0, NK, num_stages=1)"), "software pipeline"), 0);
  EXPECT_EQ(count(gen("tl.range(0, NK, num_stages=4)"), "software pipeline (4 stages)"), 1);
  const std::string no_multi = gen("tl.range(0, NK, disallow_acc_multi_buffer=True)");
  EXPECT_EQ(count(no_multi, "software pipeline (3 stages)"), 1) << no_multi;
  EXPECT_EQ(count(no_multi, "stays in flight"), 0) << no_multi;
  EXPECT_EQ(count(gen("range(0, NK)"), "stays in flight"), 1);
}

// 64 x 64 x 64 tiles (8 KiB a tile): 3 stages and the in-flight wgmma's fourth slot fit.
TEST(CudaPipeline, AccumulatingWgmmaStaysInFlight) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  Gen g;
  const std::string s = g.cuda("64, 64, 64", "0.0", 3, 4);
  EXPECT_EQ(count(s, "stays in flight across iterations (4 ring slots)"), 1) << s;
  EXPECT_EQ(count(s, "wgmma.wait_group.sync.aligned 1;"), 1) << s;
}

}  // namespace
