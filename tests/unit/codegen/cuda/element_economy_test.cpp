// The per-element economies of the cuda backend, read from the generated CUDA (NVRTC, no
// GPU; TRITIUM_NO_NVRTC=1 skips): a mask that axis analysis proves constant over a vector
// is compared once per vector (Emitter::constancy_reg); a masked vector load with a
// constant `other` is one predicated load into other's bits (no zero-fill branch), while a
// tensor `other` keeps its per-element fill; an any-order cross-warp reduction reads one
// partial per lane and combines by shuffles, the canonical order (portable numerics) reads
// every warp's partial; pipelined cp.async copies take a per-thread tile offset plus a
// constant (no swizzle evaluated per copy). What the code computes is checked on a GPU by
// the conformance suite (tests/conformance/: reductions, masked loads, pipeline_test.cpp).
#include "nvrtc_opt_out.h"
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <set>
#include <string>

#include "runtime/cuda/cuda_kernel.h"
#include "tritium/tritium.h"

namespace {

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

std::string cuda(const char* src, const std::string& sig, int warps = 4, bool portable = false, int stages = 1) {
  tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  auto mod = tritium::Module::from_string(src, "econ.py");
  tritium::CompileOptions o;
  o.num_warps = warps;
  o.portable_numerics = portable;
  o.num_stages = stages;
  const std::string s = mod.kernel("k").compile(dev, sig, o).source();
  return s.substr(s.find("__global__"));
}

const char* kNorm = R"(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, o_ptr, n, OTHER_T: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    other = tl.load(o_ptr + cols) if OTHER_T else 0.0
    x = tl.load(x_ptr + cols, mask=mask, other=other).to(tl.float32)
    mean = tl.sum(x, axis=0) / n
    d = tl.where(mask, x - mean, 0.0)
    tl.store(y_ptr + cols, d.to(y_ptr.dtype.element_ty), mask=mask)
)";

// The distinct `<column> < n` compares of the where: one per 16-byte vector of bf16.
TEST(CudaElementEconomy, MaskComparedOncePerVector) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  const std::string s = cuda(kNorm, "*bf16:16, *bf16:16, *bf16:16, i32:16, False, 2048", 4);
  // 2048 elements over 128 threads: 16 per thread, two vectors of 8.
  const std::regex sel(R"(\? v\d+\[\d+\] : 0x0p\+0f)");
  EXPECT_EQ(std::distance(std::sregex_iterator(s.begin(), s.end(), sel), std::sregex_iterator()), 16) << s;
  std::set<std::string> conds;
  const std::regex where(R"(v\d+\[\d+\] = \((.*) \? v\d+\[\d+\] : 0x0p\+0f\);)");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), where); it != std::sregex_iterator(); ++it)
    conds.insert((*it)[1].str());
  EXPECT_EQ(conds.size(), 2u) << "one compare per vector of 8";
  // With n of unknown divisibility the mask is not constant over a vector: one per element.
  const std::string u = cuda(kNorm, "*bf16:16, *bf16:16, *bf16:16, i32, False, 2048", 4);
  conds.clear();
  for (auto it = std::sregex_iterator(u.begin(), u.end(), where); it != std::sregex_iterator(); ++it)
    conds.insert((*it)[1].str());
  EXPECT_EQ(conds.size(), 16u);
}

TEST(CudaElementEconomy, MaskedVectorLoadStartsAsConstantOther) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  const std::string s = cuda(kNorm, "*bf16:16, *bf16:16, *bf16:16, i32:16, False, 2048", 4);
  EXPECT_EQ(count(s, "const uint4 t"), 2) << s;              // two 16-byte loads of x
  EXPECT_EQ(std::regex_search(s, std::regex(R"(uint32_t w\d+\[4\] = \{)")), true);
  EXPECT_EQ(count(s, "} else {"), 0) << "no zero-fill branch for a constant other";
  // A tensor `other` keeps the per-element fill where the mask is off.
  const std::string t = cuda(kNorm, "*bf16:16, *bf16:16, *bf16:16, i32:16, True, 2048", 4);
  EXPECT_EQ(count(t, "} else {"), 2) << t;
}

TEST(CudaElementEconomy, AnyOrderWarpReductionReadsOnePartialPerLane) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  // 8 warps: native numerics, one read and three shuffles after the shared-memory round.
  const std::string s = cuda(kNorm, "*fp32:16, *fp32:16, *fp32:16, i32:16, False, 4096", 8);
  EXPECT_EQ(count(s, "(((tr_lane >> 2) & 1) << 7)"), 1) << s;
  EXPECT_EQ(count(s, "[(tr_tid & ~224) |"), 1);
  // Portable numerics: the interpreter's order (the column's top bits first: two register
  // bits, then the three warp bits with 4 partials per thread left), every warp's partial
  // read by every thread: 4 x 8 reads.
  const std::string p = cuda(kNorm, "*fp32:16, *fp32:16, *fp32:16, i32:16, False, 4096", 8, true);
  EXPECT_EQ(count(p, "(((tr_lane >> 2) & 1) << 7)"), 0);
  EXPECT_EQ(count(p, "[(tr_tid & ~224) |"), 32) << p;
}

TEST(CudaElementEconomy, PipelinedCopiesTakeAPerThreadTileOffset) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  const std::string s = cuda(R"(
import triton
import triton.language as tl

@triton.jit
def k(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * BN + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * BN
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc.to(tl.float16))
)",
                             "*fp16:16, *fp16:16, *fp16:16, i32:16, 128, 128, 64", 4, false, 3);
  int copies = 0, plain = 0;
  const std::regex cp(R"(tr_cp_async16\(tr_ring \+ [^,]*2u \* \(uint32_t\)\((ht\d+|\(ht\d+ [+^] \d+u\))\), )");
  for (size_t p = s.find("tr_cp_async16(tr_ring"); p != std::string::npos; p = s.find("tr_cp_async16(tr_ring", p + 1)) {
    ++copies;
    const std::string call = s.substr(p, s.find('\n', p) - p);
    plain += std::regex_search(call, cp) ? 1 : 0;
    EXPECT_EQ(call.find("tr_swz"), std::string::npos) << call;
    EXPECT_EQ(call.find("&&"), std::string::npos) << call;
  }
  EXPECT_GT(copies, 0);
  EXPECT_EQ(plain, copies);
  EXPECT_GE(count(s, "const uint32_t ht"), 2) << "one tile offset per operand layout";
}

}  // namespace
