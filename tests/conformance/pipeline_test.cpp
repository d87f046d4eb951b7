// Loops whose loads feed tl.dot, in the shapes the cuda backend software-pipelines for
// num_stages > 1 (codegen/cuda/cuda_emit_pipeline.cpp) and, on sm_90, runs on wgmma
// (cuda_emit_wgmma.cpp: every tile width's swizzle, column-blocked tiles, one and two
// warpgroups, two slabs per warpgroup): K loops with carried pointers and
// ragged masks, trip counts below the stage count and zero, B read K-major (strides or
// tl.trans), a loop-invariant a with b addressed from the induction variable (attention's
// pattern), 4- and 8-byte copies (tl.multiple_of hints), and loads the pipeliner must leave
// alone (other != 0). The ":16" specializations make the accesses provably 16-byte
// aligned, as Triton's JIT specializes them; the harness runs interp and cpu (bit-exact)
// and, where a GPU is present, cuda in both numerics.
//
// Exactness, so every comparison is equality with a float64 reference: operands are k/64
// with |k| <= 64 (exact in fp16 and bf16), products are multiples of 2^-12 of magnitude
// <= 1, and sums of at most 304 of them are multiples of 2^-12 below 2^9: exact in fp32
// (2^9 / 2^-12 = 2^21 < 2^24) whatever the order, on tensor cores too.
#include "conformance_util.h"
#include "exact_dot.h"

using namespace conformance;

namespace {

const char* kLoop = R"(
import triton
import triton.language as tl

@triton.jit
def mm_loop(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, OTHER: tl.constexpr,
            TRANS_B: tl.constexpr, HINT: tl.constexpr):
    if HINT > 0:
        stride_am = tl.multiple_of(stride_am, HINT)
        stride_bk = tl.multiple_of(stride_bk, HINT)
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    if TRANS_B:
        b_ptrs = b_ptr + offs_n[:, None] * stride_bn + offs_k[None, :] * stride_bk
    else:
        b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        rem = K - k * BK
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < rem), other=OTHER)
        if TRANS_B:
            bt = tl.load(b_ptrs, mask=(offs_n[:, None] < N) & (offs_k[None, :] < rem), other=0.0)
            b = tl.trans(bt)
        else:
            b = tl.load(b_ptrs, mask=(offs_k[:, None] < rem) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))

@triton.jit
def a_fixed(a_ptr, b_ptr, c_ptr, NB, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # c = sum_j a @ b_j: a loaded once before the loop, b_j addressed from j
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a = tl.load(a_ptr + offs_m[:, None] * BK + offs_k[None, :])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for j in range(0, NB):
        b = tl.load(b_ptr + j * BK * BN + offs_k[:, None] * BN + offs_n[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc)
)";

struct Problem {
  int64_t M, N, K;
  bool bf16 = false;
  bool b_kmajor = false;  // b stored [N][K] (stride_bk = 1)
};

// Signatures: a, b, c pointers 16-byte aligned; M, N, K, stride_am, stride_ak, stride_bk,
// stride_bn, stride_cm as `int_sig` gives them (":16" where the value is a multiple of 16,
// ":1" where it is 1, as Triton's JIT specializes).
std::string fmt_sig(const char* t, const std::string& int_sig, int bm, int bn, int bk, const char* other, bool trans_b,
                    int hint) {
  return std::string("*") + t + ":16, *" + t + ":16, *fp32:16, " + int_sig + ", " + std::to_string(bm) + ", " +
         std::to_string(bn) + ", " + std::to_string(bk) + ", " + other + ", " + (trans_b ? "True" : "False") + ", " +
         std::to_string(hint);
}

// Runs mm_loop on p with the given meta-parameters and compares with the float64 product.
void run_loop(const Problem& p, int bm, int bn, int bk, int stages, int warps, const char* other, bool trans_b,
              int hint, const std::string& int_sig) {
  const auto a = exact_operand(static_cast<size_t>(p.M * p.K), p.bf16);
  const auto b = exact_operand(static_cast<size_t>(p.K * p.N), p.bf16);  // [K][N] or [N][K]
  const bool kmajor = p.b_kmajor || trans_b;
  std::vector<double> want(static_cast<size_t>(p.M * p.N), 0.0);
  for (int64_t m = 0; m < p.M; ++m)
    for (int64_t n = 0; n < p.N; ++n) {
      double s = 0;
      for (int64_t k = 0; k < p.K; ++k)
        s += exact_value(a[m * p.K + k], p.bf16) * exact_value(kmajor ? b[n * p.K + k] : b[k * p.N + n], p.bf16);
      want[static_cast<size_t>(m * p.N + n)] = s;
    }
  const char* t = p.bf16 ? "bf16" : "fp16";
  const std::string sig = fmt_sig(t, int_sig, bm, bn, bk, other, trans_b, hint);
  tritium::CompileOptions o;
  o.num_stages = stages;
  o.num_warps = warps;
  Case c(kLoop, "mm_loop", sig, o);
  const int64_t sbk = kmajor ? 1 : p.N, sbn = kmajor ? p.K : 1;
  c.in(a).in(b).out<float>(static_cast<size_t>(p.M * p.N));
  c.scalar(tritium::Arg(static_cast<int32_t>(p.M))).scalar(tritium::Arg(static_cast<int32_t>(p.N)));
  c.scalar(tritium::Arg(static_cast<int32_t>(p.K))).scalar(tritium::Arg(static_cast<int32_t>(p.K)));
  c.scalar(tritium::Arg(1)).scalar(tritium::Arg(static_cast<int32_t>(sbk)));
  c.scalar(tritium::Arg(static_cast<int32_t>(sbn))).scalar(tritium::Arg(static_cast<int32_t>(p.N)));
  const tritium::Grid grid((p.M + bm - 1) / bm, (p.N + bn - 1) / bn);
  check_exact(c.run(grid).get<float>(2), want, sig + " stages=" + std::to_string(stages));
}

}  // namespace

// Ragged M, N and K (K tail of 16 in blocks of 32): 7 iterations, masks on every edge.
TEST(ConformancePipeline, RaggedKLoopEveryStageCount) {
  const Problem p{100, 208, 208};
  for (int stages : {1, 2, 3, 4})
    run_loop(p, 64, 64, 32, stages, 4, "0.0", false, 0, "i32, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16");
}

TEST(ConformancePipeline, Bf16AndEightWarps) {
  Problem p{96, 144, 240};
  p.bf16 = true;
  run_loop(p, 64, 128, 64, 3, 8, "0.0", false, 0, "i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16");
}

// Fewer iterations than stages (1 trip, 3 prefetched) and none at all (K = 0: c = 0).
TEST(ConformancePipeline, TripCountBelowTheStagesAndZero) {
  run_loop(Problem{64, 64, 16}, 64, 64, 64, 4, 4, "0.0", false, 0,
           "i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16");
  run_loop(Problem{64, 64, 0}, 64, 64, 32, 3, 4, "0.0", false, 0,
           "i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16");
}

// B stored [N][K]: K contiguous by its strides, and by tl.trans of a [BN, BK] load.
TEST(ConformancePipeline, KMajorB) {
  Problem p{80, 112, 176};
  p.b_kmajor = true;
  run_loop(p, 32, 64, 32, 3, 4, "0.0", false, 0, "i32:16, i32:16, i32:16, i32:16, i32:1, i32:1, i32:16, i32:16");
  run_loop(Problem{80, 112, 176}, 32, 64, 32, 3, 4, "0.0", true, 0,
           "i32:16, i32:16, i32:16, i32:16, i32:1, i32:1, i32:16, i32:16");
}

// Tile widths that give each canonical shared-memory layout of wgmma's operands (sm_90):
// A K-major 16 / 32 / 64 / 128 wide (32B, 64B, 128B swizzle, two column blocks), B N-major
// 16 / 32 / 64 / 128 wide; one and two warpgroups; two 64-row slabs per warpgroup (M = 128,
// 4 warps). Synchronous (1 stage) and pipelined.
TEST(ConformancePipeline, EveryTileWidth) {
  struct Cfg {
    int bm, bn, bk, warps;
  };
  const Cfg cfgs[] = {{64, 16, 16, 4}, {64, 32, 32, 4}, {64, 64, 64, 4}, {64, 128, 128, 4}, {128, 64, 64, 8},
                      {128, 32, 64, 4}};
  for (const Cfg& c : cfgs)
    for (int stages : {1, 3})
      run_loop(Problem{160, 208, 272}, c.bm, c.bn, c.bk, stages, c.warps, "0.0", false, 0,
               "i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16");
}

// K-major B in 64-row tiles (wgmma's K-major B descriptor), 32 and 128 wide in K.
TEST(ConformancePipeline, KMajorBOnWarpgroups) {
  for (int bk : {32, 128}) {
    Problem p{96, 112, 304};
    p.b_kmajor = true;
    run_loop(p, 64, 32, bk, 3, 4, "0.0", false, 0, "i32:16, i32:16, i32:16, i32:16, i32:1, i32:1, i32:16, i32:16");
    run_loop(Problem{96, 112, 304}, 64, 64, bk, 3, 4, "0.0", true, 0,
             "i32:16, i32:16, i32:16, i32:16, i32:1, i32:1, i32:16, i32:16");
  }
}

// Rows aligned to 8 and 4 bytes only (tl.multiple_of 4 and 2 elements): 8- and 4-byte copies.
TEST(ConformancePipeline, NarrowCopies) {
  run_loop(Problem{72, 100, 196}, 32, 32, 32, 3, 4, "0.0", false, 4, "i32, i32, i32, i32, i32:1, i32, i32:1, i32");
  run_loop(Problem{72, 98, 198}, 32, 32, 32, 3, 4, "0.0", false, 2, "i32, i32, i32, i32, i32:1, i32, i32:1, i32");
}

// other = 1.0 on a: not zero-fill, so that load stays synchronous (b is still pipelined);
// the ones land where b is masked to 0 (K tail) or in rows never stored (M tail).
TEST(ConformancePipeline, NonZeroOtherStaysSynchronous) {
  run_loop(Problem{100, 208, 208}, 64, 64, 32, 3, 4, "1.0", false, 0,
           "i32, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16");
}

const char* kShapes = R"(
import triton
import triton.language as tl

@triton.jit
def blocks(a_ptr, b_ptr, c_ptr, s_ptr, NK, SCALAR_PTRS: tl.constexpr, READ_NEXT: tl.constexpr,
           B_TIMES_2: tl.constexpr, A_MMAJOR: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
           BK: tl.constexpr):
    # c = sum_k A_k @ B_k over blocks A_k [BM, BK] (row-major, or column-major with
    # A_MMAJOR), B_k [BK, BN]; READ_NEXT: s = sum_k rowsum(A_{k+1}) through the advanced
    # pointer; SCALAR_PTRS: carried scalar base pointers; B_TIMES_2: b computed in the loop.
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    if A_MMAJOR:
        a_off = offs_m[:, None] + offs_k[None, :] * BM
    else:
        a_off = offs_m[:, None] * BK + offs_k[None, :]
    b_off = offs_k[:, None] * BN + offs_n[None, :]
    a_ptrs = a_ptr + a_off
    b_ptrs = b_ptr + b_off
    pa = a_ptr
    pb = b_ptr
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    s = tl.zeros((BM,), dtype=tl.float32)
    for k in range(0, NK):
        if SCALAR_PTRS:
            a = tl.load(pa + a_off)
            b = tl.load(pb + b_off)
        else:
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
        if B_TIMES_2:
            b = (b * 2).to(b_ptr.dtype.element_ty)
        acc = tl.dot(a, b, acc)
        a_ptrs += BM * BK
        b_ptrs += BK * BN
        pa += BM * BK
        pb += BK * BN
        if READ_NEXT:
            s += tl.sum(tl.load(a_ptrs).to(tl.float32), axis=1)
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc)
    tl.store(s_ptr + offs_m, s)
)";

// Loops the pipeliner must leave alone or handle specially (found by review): the advanced
// pointer also read by another load (not pipelined: the carried pointer runs ahead), carried
// scalar pointers, an operand computed in the loop and an M-major A (written to scratch each
// iteration: the dot must not stay in flight over it). Exact values, as above.
TEST(ConformancePipeline, LoopShapesFromReview) {
  const int BM = 64, BN = 64, BK = 32, NK = 5;
  struct Variant {
    bool scalar_ptrs, read_next, b_times_2, a_mmajor;
  };
  for (const Variant v : {Variant{false, true, false, false}, Variant{true, false, false, false},
                          Variant{false, false, true, false}, Variant{false, false, false, true}}) {
    const auto a = exact_operand(static_cast<size_t>(NK + 1) * BM * BK, false);  // one block more for READ_NEXT
    const auto b = exact_operand(static_cast<size_t>(NK) * BK * BN, false);
    std::vector<double> want(BM * BN, 0.0), want_s(BM, 0.0);
    for (int k = 0; k < NK; ++k)
      for (int m = 0; m < BM; ++m)
        for (int kk = 0; kk < BK; ++kk) {
          const size_t ai = static_cast<size_t>(k) * BM * BK + (v.a_mmajor ? kk * BM + m : m * BK + kk);
          for (int n = 0; n < BN; ++n)
            want[m * BN + n] += exact_value(a[ai], false) * exact_value(b[(static_cast<size_t>(k) * BK + kk) * BN + n], false) *
                                (v.b_times_2 ? 2 : 1);
          if (v.read_next) want_s[m] += exact_value(a[static_cast<size_t>(k + 1) * BM * BK + m * BK + kk], false);
        }
    const auto flag = [](bool f) { return f ? "True" : "False"; };
    const std::string sig = std::string("*fp16:16, *fp16:16, *fp32:16, *fp32:16, i32, ") + flag(v.scalar_ptrs) + ", " +
                            flag(v.read_next) + ", " + flag(v.b_times_2) + ", " + flag(v.a_mmajor) + ", 64, 64, 32";
    tritium::CompileOptions o;
    o.num_stages = 3;
    Case c(kShapes, "blocks", sig, o);
    c.in(a).in(b).out<float>(BM * BN).out<float>(BM).scalar(tritium::Arg(NK));
    const Result r = c.run({1});
    check_exact(r.get<float>(2), want, sig);
    check_exact(r.get<float>(3), want_s, sig + " s");
  }
}

// A loop-invariant a (read from registers in every iteration) and b_j addressed from j.
TEST(ConformancePipeline, LoopInvariantAAndInductionAddressedB) {
  for (bool bf16 : {false, true}) {
    const int BM = 64, BN = 64, BK = 32, NB = 5;
    const auto a = exact_operand(BM * BK, bf16);
    const auto b = exact_operand(static_cast<size_t>(NB) * BK * BN, bf16);
    std::vector<double> want(BM * BN, 0.0);
    for (int j = 0; j < NB; ++j)
      for (int m = 0; m < BM; ++m)
        for (int n = 0; n < BN; ++n)
          for (int k = 0; k < BK; ++k)
            want[m * BN + n] += exact_value(a[m * BK + k], bf16) * exact_value(b[(j * BK + k) * BN + n], bf16);
    const std::string t = bf16 ? "bf16" : "fp16";
    tritium::CompileOptions o;
    o.num_stages = 3;
    Case c(kLoop, "a_fixed", "*" + t + ":16, *" + t + ":16, *fp32:16, i32, 64, 64, 32", o);
    c.in(a).in(b).out<float>(BM * BN).scalar(tritium::Arg(NB));
    check_exact(c.run({1}).get<float>(2), want, "a_fixed " + t);
  }
}
