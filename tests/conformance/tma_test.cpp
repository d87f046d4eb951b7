// Dot operands read through tensor descriptors (tl.make_tensor_descriptor, desc.load) and
// block pointers (tl.make_block_ptr with every dimension bounds-checked, tl.advance): on sm_90
// the cuda backend copies these windows with bulk tensor copies (TMA) into the pipelining
// ring (codegen/cuda/cuda_emit_tma.cpp); elsewhere, and where the base or row stride is not
// proved 16-byte aligned, with cp.async or synchronously. The cases cover ragged M, N and K
// (the TMA unit zero-fills outside the tensor), windows starting above row 0 (negative
// coordinates), a B read K-major through tl.trans, bf16, one and three stages, 4 and 8
// warps, an empty K, and an unaligned row stride (the cp.async path must give the same
// values). The harness runs interp and cpu (bit-exact) and, where a GPU is present, cuda.
//
// Exactness: operands are k/64 with |k| <= 64 (exact in fp16 and bf16), so every product is
// a multiple of 2^-12 of magnitude <= 1 and every sum of at most 304 of them is exact in fp32
// in any order (tests/conformance/exact_dot.h): each comparison is equality with float64.
#include "conformance_util.h"
#include "exact_dot.h"

using namespace conformance;

namespace {

const char* kSrc = R"(
import triton
import triton.language as tl

@triton.jit
def mm_desc(a_ptr, b_ptr, c_ptr, M, N, K, SHIFT: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
            BK: tl.constexpr, KMAJOR_B: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    if KMAJOR_B:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    else:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([pid_m * BM - SHIFT, k * BK])
        if KMAJOR_B:
            b = tl.trans(b_desc.load([pid_n * BN, k * BK]))
        else:
            b = b_desc.load([k * BK, pid_n * BN])
        acc = tl.dot(a, b, acc)
    offs_m = pid_m * BM - SHIFT + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc,
             mask=(offs_m[:, None] >= 0) & (offs_m[:, None] < M) & (offs_n[None, :] < N))

@triton.jit
def mm_bptr(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(a_ptr, shape=(M, K), strides=(K, 1), offsets=(pid_m * BM, 0),
                             block_shape=(BM, BK), order=(1, 0))
    b_bp = tl.make_block_ptr(b_ptr, shape=(K, N), strides=(N, 1), offsets=(0, pid_n * BN),
                             block_shape=(BK, BN), order=(1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_bp, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc)
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))
)";

struct Mm {
  int64_t M, N, K;
  bool bf16 = false;
  bool kmajor_b = false;  // b stored [N][K]
};

// The float64 product of a [M][K] and b ([K][N], or [N][K] when kmajor_b).
std::vector<double> product(const Mm& p, const std::vector<uint16_t>& a, const std::vector<uint16_t>& b) {
  std::vector<double> want(static_cast<size_t>(p.M * p.N), 0.0);
  for (int64_t m = 0; m < p.M; ++m)
    for (int64_t n = 0; n < p.N; ++n) {
      double s = 0;
      for (int64_t k = 0; k < p.K; ++k)
        s += exact_value(a[m * p.K + k], p.bf16) * exact_value(p.kmajor_b ? b[n * p.K + k] : b[k * p.N + n], p.bf16);
      want[static_cast<size_t>(m * p.N + n)] = s;
    }
  return want;
}

// `ints`: the signature of M, N, K (":16" only where the value is a multiple of 16).
void run(const char* kernel, const Mm& p, const std::string& ints, const std::string& meta, int64_t bm, int64_t bn,
         int64_t shift, int stages, int warps) {
  const auto a = exact_operand(static_cast<size_t>(p.M * p.K), p.bf16);
  const auto b = exact_operand(static_cast<size_t>(p.K * p.N), p.bf16);
  const char* t = p.bf16 ? "bf16" : "fp16";
  const std::string sig = std::string("*") + t + ":16, *" + t + ":16, *fp32:16, " + ints + ", " + meta;
  tritium::CompileOptions o;
  o.num_stages = stages;
  o.num_warps = warps;
  Case c(kSrc, kernel, sig, o);
  c.in(a).in(b).out<float>(static_cast<size_t>(p.M * p.N));
  c.scalar(tritium::Arg(static_cast<int32_t>(p.M))).scalar(tritium::Arg(static_cast<int32_t>(p.N)));
  c.scalar(tritium::Arg(static_cast<int32_t>(p.K)));
  const tritium::Grid grid((p.M + shift + bm - 1) / bm, (p.N + bn - 1) / bn);
  check_exact(c.run(grid).get<float>(2), product(p, a, b), std::string(kernel) + " " + sig + " stages=" +
                                                               std::to_string(stages));
}

}  // namespace

// Ragged M, N and K (K = 272: four blocks of 64 and a tail of 16), fp16 and bf16, one and
// three stages: the bulk copies' zero fill past every edge.
TEST(ConformanceTma, DescriptorMatmulRaggedEdges) {
  for (bool bf16 : {false, true})
    for (int stages : {1, 3}) {
      Mm p{100, 208, 272};
      p.bf16 = bf16;
      run("mm_desc", p, "i32, i32:16, i32:16", "0, 64, 128, 64, False", 64, 128, 0, stages, 4);
    }
}

// Windows starting 24 rows above each program's block (row -24 for the first): negative
// coordinates read zeros; 128x64 tiles on 8 warps; B K-major through tl.trans.
TEST(ConformanceTma, NegativeOffsetsKMajorBAndEightWarps) {
  run("mm_desc", Mm{136, 96, 160}, "i32, i32:16, i32:16", "24, 128, 64, 32, False", 128, 64, 24, 3, 8);
  Mm p{72, 112, 208};
  p.kmajor_b = true;
  run("mm_desc", p, "i32, i32:16, i32:16", "0, 64, 64, 64, True", 64, 64, 0, 3, 4);
}

// Block pointers advanced by tl.advance (loop-carried offsets), and an empty K (c = 0).
TEST(ConformanceTma, BlockPointersAndEmptyK) {
  run("mm_bptr", Mm{100, 144, 240}, "i32, i32:16, i32:16", "64, 64, 64", 64, 64, 0, 3, 4);
  run("mm_desc", Mm{64, 64, 0}, "i32, i32:16, i32", "0, 64, 64, 32, False", 64, 64, 0, 3, 4);
}

// A row stride not proved 16-byte aligned (N = 100 unspecialized): the window is copied
// without TMA, with the same values.
TEST(ConformanceTma, UnalignedStrideTakesTheOtherPath) {
  run("mm_desc", Mm{80, 100, 96}, "i32, i32, i32:16", "0, 64, 64, 32, False", 64, 64, 0, 3, 4);
}

// A loop-carried integer offset advanced by a constant (the pipeliner keeps it S-1
// iterations ahead inside the body) must not leave the loop through another carried value:
// `last` is yielded from a value computed from it, so that loop stays unpipelined (without
// that rule the cuda backend pipelines it and `last` comes out two iterations ahead: checked
// 2026-12-02 by rendering with the rule removed), and `last` is the last iteration's.
TEST(ConformanceTma, CarriedOffsetYieldedElsewhereKeepsItsValue) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def carried(a_ptr, b_ptr, c_ptr, last_ptr, NK, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    b = tl.load(b_ptr + offs_k[:, None] * BN + offs_n[None, :])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    off = 0
    last = 0
    for j in range(0, NK):
        o2 = off + 2 * BK
        a = tl.load(a_ptr + offs_m[:, None] * (NK * BK + BK) + (o2 - BK + offs_k)[None, :])
        acc = tl.dot(a, b, acc)
        last = o2
        off += BK
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc)
    tl.store(last_ptr, last)
)";
  const int NK = 5, BM = 64, BN = 64, BK = 32;
  const auto a = exact_operand(static_cast<size_t>(BM) * (NK + 1) * BK, false);  // column block 0 unread
  const auto b = exact_operand(static_cast<size_t>(BK) * BN, false);
  std::vector<double> want(static_cast<size_t>(BM) * BN, 0.0);
  for (int m = 0; m < BM; ++m)
    for (int n = 0; n < BN; ++n)
      for (int k = BK; k < (NK + 1) * BK; ++k)
        want[static_cast<size_t>(m) * BN + n] += exact_value(a[static_cast<size_t>(m) * (NK + 1) * BK + k], false) *
                                                 exact_value(b[static_cast<size_t>(k % BK) * BN + n], false);
  tritium::CompileOptions o;
  o.num_stages = 3;
  o.num_warps = 4;
  Case c(src, "carried", "*fp16:16, *fp16:16, *fp32:16, *i32:16, i32, 64, 64, 32", o);
  c.in(a).in(b).out<float>(static_cast<size_t>(BM) * BN).out<int32_t>(1);
  c.scalar(tritium::Arg(static_cast<int32_t>(NK)));
  auto r = c.run(tritium::Grid(1));
  check_exact(r.get<float>(2), want, "carried acc");
  EXPECT_EQ(r.get<int32_t>(3).at(0), (NK + 1) * BK);
}
