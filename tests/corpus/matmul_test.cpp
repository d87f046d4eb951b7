// Corpus: tutorial-style matrix multiplications (tests/corpus/kernels/matmul_*.py) on the
// CPU backend, against float64 references.
//
// Tolerances. The operands are fp16, so every product a*b is exact in fp32 (11 + 11
// significant bits <= 24); the only fp32 error is the summation: at most K * 2^-24 *
// sum_k |a_mk b_kn| (each of the K additions rounds once, relative 2^-24 of a partial sum
// bounded by sum |a b|). An fp16 result then rounds once more: half an ulp, 2^-11 of its
// magnitude (2^-25 absolute in the subnormal range). An fp32 result adds 2^-24 relative.
#include <algorithm>
#include <array>

#include "corpus_util.h"

using namespace corpus;

namespace {

// Row-major operands of a C = A @ B problem with their float64 reference.
struct Problem {
  int64_t M, N, K;
  Half a, b;                      // A: [M, K], B: [K, N], row-major
  std::vector<double> c, abs_sum;  // c = A @ B, abs_sum = |A| @ |B|
};

Problem make_problem(int64_t M, int64_t N, int64_t K, float range = 1.f) {
  Problem p{M, N, K, uniform_half(M * K, -range, range), uniform_half(K * N, -range, range), {}, {}};
  p.c.assign(M * N, 0.0);
  p.abs_sum.assign(M * N, 0.0);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double s = 0, t = 0;
      for (int64_t k = 0; k < K; ++k) {
        double x = p.a.vals[m * K + k] * p.b.vals[k * N + n];
        s += x;
        t += std::fabs(x);
      }
      p.c[m * N + n] = s;
      p.abs_sum[m * N + n] = t;
    }
  return p;
}

// Tolerance of an fp16 result computed with an fp32 accumulator over K terms (file comment).
std::vector<double> fp16_tolerance(const Problem& p, const std::vector<double>& want) {
  std::vector<double> tol(want.size());
  for (size_t i = 0; i < want.size(); ++i)
    tol[i] = p.K * 0x1p-24 * p.abs_sum[i] * 1.01 + 0x1p-11 * std::fabs(want[i]) * 1.01 + 0x1p-25;
  return tol;
}

std::vector<uint16_t> transpose(const std::vector<uint16_t>& v, int64_t rows, int64_t cols) {
  std::vector<uint16_t> t(v.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) t[c * rows + r] = v[r * cols + c];
  return t;
}

const char* kMatmulSig =
    "*fp16, *fp16, *fp16, i32, i32, i32, i32, i32, i32, i32, i32, i32";

}  // namespace

// The decorator as tritium evaluated it: the four configs written in the file, in order.
TEST(CorpusMatmul, TutorialAutotuneDecoratorIsEvaluated) {
  auto configs = autotune_configs("matmul_autotune_grouped.py", "matmul_kernel");
  ASSERT_EQ(configs.size(), 4u);
  EXPECT_EQ(configs[0].str(), "BLOCK_SIZE_M: 128, BLOCK_SIZE_N: 256, BLOCK_SIZE_K: 64, GROUP_SIZE_M: 8, num_warps: 8, num_stages: 3");
  EXPECT_EQ(configs[3].str(), "BLOCK_SIZE_M: 16, BLOCK_SIZE_N: 32, BLOCK_SIZE_K: 16, GROUP_SIZE_M: 2, num_warps: 1, num_stages: 2");
}

// Every config of the tutorial kernel (compiled AOT with that config), on a problem whose
// M, N, K are multiples of none of the block sizes (K tail masked, M/N wrapped then masked),
// with B given transposed (column strides) for one config to exercise the stride arguments.
TEST(CorpusMatmul, TutorialAutotuneEveryConfigWithGroupedOrdering) {
  const int64_t M = 150, N = 141, K = 83;
  Problem p = make_problem(M, N, K);
  auto a = upload(p.a.bits), b = upload(p.b.bits), bt = upload(transpose(p.b.bits, K, N));
  auto configs = autotune_configs("matmul_autotune_grouped.py", "matmul_kernel");
  for (size_t ci = 0; ci < configs.size(); ++ci) {
    auto k = compile_autotuned("matmul_autotune_grouped.py", "matmul_kernel", kMatmulSig, int(ci),
                               {{"ACTIVATION", std::string("")}});
    int64_t bm = 0, bn = 0;
    for (auto& [name, v] : configs[ci].kwargs) {
      if (name == "BLOCK_SIZE_M") bm = std::get<int64_t>(v);
      if (name == "BLOCK_SIZE_N") bn = std::get<int64_t>(v);
    }
    Output<uint16_t> c(M * N);
    bool transposed_b = ci == 2;
    k.launch({cdiv(M, bm) * cdiv(N, bn)},
             {a, transposed_b ? bt : b, c, M, N, K, K, 1, transposed_b ? 1 : N, transposed_b ? K : 1, N, 1});
    expect_within(widen_half(c.get()), p.c, fp16_tolerance(p, p.c), "matmul config " + std::to_string(ci));
  }
}

// Triton's `matmul_kernel[grid](...)` through the autotuner: the grid lambda reads the
// chosen config's block sizes from META; whichever config wins, the result is the same
// product. A second call with the same key reuses the tuned config without re-timing.
TEST(CorpusMatmul, TutorialAutotuneThroughKernelRun) {
  const int64_t M = 64, N = 80, K = 48;
  Problem p = make_problem(M, N, K);
  Output<uint16_t> c(M * N);
  tritium::Buffer ba = upload(p.a.bits), bb = upload(p.b.bits);
  tritium::GridFn grid = [&](const tritium::Meta& meta) {
    return tritium::Grid(cdiv(M, meta_int(meta, "BLOCK_SIZE_M")) * cdiv(N, meta_int(meta, "BLOCK_SIZE_N")));
  };
  std::vector<tritium::Arg> args = {tritium::Arg::tensor(ba, "fp16"), tritium::Arg::tensor(bb, "fp16"),
                                    tritium::Arg::tensor(c.buffer(), "fp16"), M, N, K, K, 1, N, 1, N, 1};
  int config = run_autotuned("matmul_autotune_grouped.py", "matmul_kernel", grid, args, {{"ACTIVATION", std::string("")}});
  EXPECT_GE(config, 0);
  expect_within(widen_half(c.get()), p.c, fp16_tolerance(p, p.c), "autotuned matmul");
  c.repoison();  // poison again: the second launch must write everything
  EXPECT_EQ(run_autotuned("matmul_autotune_grouped.py", "matmul_kernel", grid, args, {{"ACTIVATION", std::string("")}}),
            config);
  expect_within(widen_half(c.get()), p.c, fp16_tolerance(p, p.c), "autotuned matmul, second call");
}

// The ACTIVATION="leaky_relu" epilogue (a jit helper called under a constexpr string test),
// written to a C with a padded row stride (the padding must stay untouched).
TEST(CorpusMatmul, TutorialLeakyReluEpilogueAndPaddedOutputStride) {
  const int64_t M = 67, N = 45, K = 129, ldc = 50;
  Problem p = make_problem(M, N, K);
  auto k = compile_autotuned("matmul_autotune_grouped.py", "matmul_kernel", kMatmulSig, /*config=*/2,
                             {{"ACTIVATION", std::string("leaky_relu")}});  // 32 x 64 x 32
  auto a = upload(p.a.bits), b = upload(p.b.bits);
  Output<uint16_t> c(M * ldc);
  k.launch({cdiv(M, 32) * cdiv(N, 64)}, {a, b, c, M, N, K, K, 1, N, 1, ldc, 1});
  auto got = c.get();
  std::vector<double> g, want, tol;
  int negative = 0;
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < ldc; ++n) {
      if (n >= N) {  // padding between rows: still the poison
        EXPECT_EQ(got[m * ldc + n], poison<uint16_t>()) << "padding at row " << m << " column " << n;
        continue;
      }
      double v = p.c[m * N + n];
      negative += v < 0;
      double w = v >= 0 ? v : 0.01 * v;
      want.push_back(w);
      g.push_back(half_value(got[m * ldc + n]));
      // Accumulation error scaled by the epilogue factor, the fp32 multiply by 0.01f (2^-24
      // relative, plus 0.01f differs from 0.01 by 2^-24 relative), then the fp16 rounding.
      double f = v >= 0 ? 1.0 : 0.01;
      tol.push_back(f * K * 0x1p-24 * p.abs_sum[m * N + n] * 1.01 + (0x1p-11 + 0x1p-22) * std::fabs(w) * 1.01 + 0x1p-25);
    }
  EXPECT_GT(negative, M * N / 4);  // the epilogue's negative branch is exercised
  expect_within(g, want, tol, "matmul leaky_relu");
}

// The persistent kernel with fewer programs than tiles (each program takes several tiles,
// the last ones fewer), fp32 output with a bias. fp32 result: accumulation error plus one
// rounding of the bias addition (2^-24 relative of the sum and of the bias).
TEST(CorpusMatmul, PersistentTileLoopWithBias) {
  const int64_t M = 97, N = 75, K = 61;
  Problem p = make_problem(M, N, K);
  std::vector<float> bias = uniform(N, -2.f, 2.f);
  const int num_sms = 5;  // 4 x 3 = 12 tiles of 32 x 32: programs take 3, 3, 2, 2, 2
  auto k = compile("matmul_persistent.py", "matmul_kernel_persistent",
                   "*fp16, *fp16, *fp32, *fp32, i32, i32, i32, i32, i32, i32, i32, i32, i32",
                   {{"BLOCK_SIZE_M", int64_t{32}}, {"BLOCK_SIZE_N", int64_t{32}}, {"BLOCK_SIZE_K", int64_t{16}},
                    {"GROUP_SIZE_M", int64_t{2}}, {"NUM_SMS", int64_t{num_sms}}});
  auto a = upload(p.a.bits), b = upload(p.b.bits), bb = upload(bias);
  Output<float> c(M * N);
  k.launch({num_sms}, {a, b, bb, c, M, N, K, K, 1, N, 1, N, 1});
  std::vector<double> want(M * N), tol(M * N);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      size_t i = m * N + n;
      want[i] = p.c[i] + bias[n];
      tol[i] = K * 0x1p-24 * p.abs_sum[i] * 1.01 + 0x1p-24 * (std::fabs(want[i]) + std::fabs(bias[n])) * 1.01;
    }
  expect_within(widen(c.get()), want, tol, "persistent matmul");
}

// Split-K with K much longer than M and N, K_PER_SPLIT not a multiple of BLOCK_K and the
// last slice short. Accumulation: within a slice the dot chains K_slice additions and each
// BLOCK_K chunk is added once more; the reduction adds SPLIT_K - 1 more: at most
// K + K / 16 + SPLIT_K fp32 roundings, each 2^-24 of at most sum |a b|; then the fp16 rounding.
TEST(CorpusMatmul, SplitKWithDeterministicReduction) {
  const int64_t M = 19, N = 37, K = 1000, split = 4, k_per_split = 260;  // slices 260, 260, 260, 220
  Problem p = make_problem(M, N, K);
  auto mm = compile("matmul_splitk.py", "splitk_matmul_kernel", "*fp16, *fp16, *fp32, i32, i32, i32, i32",
                    {{"BLOCK_M", int64_t{16}}, {"BLOCK_N", int64_t{32}}, {"BLOCK_K", int64_t{32}},
                     {"SPLIT_K", int64_t{split}}});
  auto red = compile("matmul_splitk.py", "splitk_reduce_kernel", "*fp32, *fp16, i32",
                     {{"SPLIT_K", int64_t{split}}, {"BLOCK", int64_t{128}}});
  auto a = upload(p.a.bits), b = upload(p.b.bits);
  Output<float> ws(split * M * N);
  Output<uint16_t> c(M * N);
  mm.launch({cdiv(M, 16), cdiv(N, 32), split}, {a, b, ws, M, N, K, k_per_split});
  red.launch({cdiv(M * N, 128)}, {ws, c, M * N});
  // The partial tiles: each slice's own reference, fp32 accumulation over its range.
  auto partial = ws.get();
  for (int64_t s = 0; s < split; ++s) {
    std::vector<double> want(M * N), tol(M * N);
    int64_t k0 = s * k_per_split, k1 = std::min(K, k0 + k_per_split);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double sum = 0, abs_sum = 0;
        for (int64_t kk = k0; kk < k1; ++kk) {
          double x = p.a.vals[m * K + kk] * p.b.vals[kk * N + n];
          sum += x, abs_sum += std::fabs(x);
        }
        want[m * N + n] = sum;
        tol[m * N + n] = ((k1 - k0) * 17 / 16 + 1) * 0x1p-24 * abs_sum;
      }
    expect_within(std::vector<double>(partial.begin() + s * M * N, partial.begin() + (s + 1) * M * N), want, tol,
                  "split-k partial " + std::to_string(s));
  }
  std::vector<double> tol(M * N);
  for (int64_t i = 0; i < M * N; ++i)
    tol[i] = (K * 17 / 16 + split) * 0x1p-24 * p.abs_sum[i] + 0x1p-11 * std::fabs(p.c[i]) * 1.01 + 0x1p-25;
  expect_within(widen_half(c.get()), p.c, tol, "split-k result");
}

// Grouped GEMM over 4 problems of different, ragged sizes (one with K < BLOCK_K), their
// operands in separate buffers passed as an int64 address array; 3 programs share the 2 +
// 6 + 1 + 4 tiles. Tolerance per problem as for the tutorial kernel, plus one rounding per
// K tile (accumulator += dot: K + K / 16 additions).
TEST(CorpusMatmul, GroupedGemmThroughPointerArrays) {
  const std::vector<std::array<int64_t, 3>> sizes = {{40, 20, 70}, {64, 96, 33}, {5, 17, 9}, {70, 50, 128}};
  std::vector<Problem> probs;
  std::vector<tritium::Buffer> bufs;
  std::vector<int64_t> pa, pb, pc;
  std::vector<int32_t> mnk, lds;
  for (auto [M, N, K] : sizes) {
    probs.push_back(make_problem(M, N, K));
    bufs.push_back(upload(probs.back().a.bits));
    pa.push_back(int64_t(reinterpret_cast<uintptr_t>(bufs.back().device_ptr())));
    bufs.push_back(upload(probs.back().b.bits));
    pb.push_back(int64_t(reinterpret_cast<uintptr_t>(bufs.back().device_ptr())));
    mnk.insert(mnk.end(), {int32_t(M), int32_t(N), int32_t(K)});
    lds.insert(lds.end(), {int32_t(K), int32_t(N), int32_t(N)});
  }
  std::vector<Output<uint16_t>> cs;
  for (auto [M, N, K] : sizes) cs.emplace_back(M * N);
  for (auto& c : cs) pc.push_back(int64_t(reinterpret_cast<uintptr_t>(c.buffer().device_ptr())));
  auto k = compile("matmul_grouped_ptr_array.py", "grouped_matmul_kernel", "*i64, *i64, *i64, *i32, *i32, i32",
                   {{"NUM_SM", int64_t{3}}, {"BLOCK_SIZE_M", int64_t{32}}, {"BLOCK_SIZE_N", int64_t{32}},
                    {"BLOCK_SIZE_K", int64_t{16}}});
  auto ba = upload(pa), bb = upload(pb), bc = upload(pc), bs = upload(mnk), bl = upload(lds);
  k.launch({3}, {ba, bb, bc, bs, bl, int64_t(sizes.size())});
  for (size_t g = 0; g < sizes.size(); ++g) {
    const Problem& p = probs[g];
    std::vector<double> tol(p.c.size());
    for (size_t i = 0; i < tol.size(); ++i)
      tol[i] = (p.K + p.K / 16 + 1) * 0x1p-24 * p.abs_sum[i] * 1.01 + 0x1p-11 * std::fabs(p.c[i]) * 1.01 + 0x1p-25;
    expect_within(widen_half(cs[g].get()), p.c, tol, "grouped gemm problem " + std::to_string(g));
  }
}
