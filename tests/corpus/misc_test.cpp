// Corpus: softmax variants, embedding, seeded dropout, greedy top-1 and MoE alignment
// (softmax_*.py, embedding_fwd_bwd.py, dropout_philox.py, argmax_top1_sampling.py,
// moe_align_cumsum.py) on the CPU backend, against references computed here.
//
// Error model (u = 2^-24): one fp32 rounding is u relative; exp, log and fp32 division are
// within 4 ulp = 2^-21 (tritium's bound, math_test.cpp); n-term sums n u of the magnitude
// sum; a cast to fp16 is 2^-11 relative (2^-25 absolute in the subnormal range).
#include <algorithm>
#include <array>
#include <set>

#include "corpus_util.h"

using namespace corpus;

namespace {

constexpr double u = 0x1p-24;

}  // namespace

// Tutorial-style softmax and log-softmax with 5 programs looping over 23 rows (rows 0, 5,
// 10, ... per program), fp16, padded row strides. softmax: x - max rounds (u |x - max|,
// <= 12 u, becomes a relative error of exp), exp 2^-21, the 1000-term sum 1000 u, the
// division 2^-21, fp16 2^-11. log-softmax: shifted - log(d): u |shifted|, log's 2^-21 of
// |log d|, the sum's 1000 u relative (absolute after the log), then fp16.
TEST(CorpusMisc, TutorialSoftmaxPersistentRowLoop) {
  const int64_t rows = 23, cols = 1000, ld_in = 1024, ld_out = 1008, programs = 5;
  Half x = uniform_half(rows * ld_in, -6.f, 6.f);
  auto bx = upload(x.bits);
  for (bool log : {false, true}) {
    auto k = compile("softmax_rows_persistent.py", "softmax_kernel", "*fp16, *fp16, i32, i32, i32, i32",
                     {{"BLOCK_SIZE", int64_t{1024}}, {"num_stages", int64_t{2}}, {"LOG", log}});
    Output<uint16_t> y(rows * ld_out);
    k.launch({programs}, {y, bx, ld_in, ld_out, rows, cols});
    auto yv = y.get();
    std::vector<double> got, want, tol;
    for (int64_t r = 0; r < rows; ++r) {
      double mx = -INFINITY, d = 0;
      for (int64_t c = 0; c < cols; ++c) mx = std::max(mx, x.vals[r * ld_in + c]);
      for (int64_t c = 0; c < cols; ++c) d += std::exp(x.vals[r * ld_in + c] - mx);
      for (int64_t c = 0; c < ld_out; ++c) {
        if (c >= cols) {
          EXPECT_EQ(yv[r * ld_out + c], poison<uint16_t>()) << "row padding written, row " << r;
          continue;
        }
        double s = x.vals[r * ld_in + c] - mx, v = log ? s - std::log(d) : std::exp(s) / d;
        got.push_back(half_value(yv[r * ld_out + c]));
        want.push_back(v);
        tol.push_back(log ? u * std::fabs(s) + 0x1p-21 * std::log(d) + cols * u + 0x1p-11 * std::fabs(v) * 1.01 + 0x1p-25
                          : (12 * u + 2 * 0x1p-21 + cols * u + 0x1p-11) * std::fabs(v) * 1.01 + 0x1p-25);
      }
    }
    expect_within(got, want, tol, log ? "tutorial log-softmax" : "tutorial softmax");
  }
}

// Scaled masked softmax over rows of 2500 (BLOCK 1024: three chunks, the last ragged), 30%
// of positions masked to -10000, one row fully masked (uniform output). The online pass
// rescales each lane once per chunk (3 exps, 2^-21 each) before the final merge; the
// score x * scale rounds (u |s| <= 8 u after the shift by the max).
TEST(CorpusMisc, ScaledMaskedSoftmaxOnline) {
  const int64_t rows = 6, cols = 2500;
  const float scale = 0.35f;
  Half x = uniform_half(rows * cols, -20.f, 20.f);
  auto mk = uniform_int(rows * cols, 0, 9);
  std::vector<int8_t> mask(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) mask[i] = (mk[i] < 3 || i / cols == 4) ? 1 : 0;  // row 4 fully masked
  auto k = compile("softmax_scaled_masked_online.py", "scaled_masked_softmax_kernel", "*fp16, *i8, *fp16, i32, fp32",
                   {{"BLOCK", int64_t{1024}}});
  auto bx = upload(x.bits), bm = upload(mask);
  Output<uint16_t> y(rows * cols);
  k.launch({rows}, {bx, bm, y, cols, scale});
  std::vector<double> want(rows * cols), tol(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<double> s(cols);
    double mx = -INFINITY, d = 0;
    for (int64_t c = 0; c < cols; ++c) {
      s[c] = mask[r * cols + c] ? -10000.0 : x.vals[r * cols + c] * double(scale);
      mx = std::max(mx, s[c]);
    }
    for (int64_t c = 0; c < cols; ++c) d += std::exp(s[c] - mx);
    for (int64_t c = 0; c < cols; ++c) {
      want[r * cols + c] = std::exp(s[c] - mx) / d;
      tol[r * cols + c] = (8 * u + 5 * 0x1p-21 + cols * u + 0x1p-11) * want[r * cols + c] * 1.01 + 0x1p-25;
    }
  }
  expect_within(widen_half(y.get()), want, tol, "scaled masked softmax");
}

// Embedding forward (Gemma's sqrt(D) scale; padding_idx rows zero) over 150 tokens with
// repeated ids, D = 100 (BLOCK_SIZE_N 64: ragged), and the backward's atomic adds: a row
// hit n times sums n gradients in some order (n u of the magnitude sum); the forward is
// one fp32 product per element (u).
TEST(CorpusMisc, EmbeddingForwardAndAtomicBackward) {
  const int64_t V = 40, D = 100, T = 150, pad = 7;
  auto w = uniform(V * D, -1.f, 1.f), dout = uniform(T * D);
  auto ids = uniform_int(T, 0, V - 1);
  ids[0] = ids[17] = ids[149] = pad;
  const float scale = float(std::sqrt(double(D)));
  auto bi = upload(ids), bw = upload(w), bd = upload(dout);
  auto fwd = compile("embedding_fwd_bwd.py", "embedding_forward_kernel", "*i64, *fp32, *fp32, i32, i32, fp32, i64",
                     {{"BLOCK_SIZE_M", int64_t{32}}, {"BLOCK_SIZE_N", int64_t{64}}});
  auto bwd = compile("embedding_fwd_bwd.py", "embedding_backward_kernel", "*i64, *fp32, *fp32, i32, i32, i64",
                     {{"BLOCK_SIZE_M", int64_t{32}}, {"BLOCK_SIZE_N", int64_t{64}}});
  Output<float> out(T * D), dw(std::vector<float>(V * D, 0.f));
  fwd.launch({cdiv(T, 32), cdiv(D, 64)}, {bi, bw, out, T, D, scale, pad});
  bwd.launch({cdiv(T, 32), cdiv(D, 64)}, {bi, bd, dw, T, D, pad});
  std::vector<double> want(T * D), tol(T * D), want_dw(V * D, 0), tol_dw(V * D, 0);
  for (int64_t t = 0; t < T; ++t)
    for (int64_t d = 0; d < D; ++d) {
      bool p = ids[t] == pad;
      want[t * D + d] = p ? 0.0 : double(w[ids[t] * D + d]) * scale;
      tol[t * D + d] = u * std::fabs(want[t * D + d]);
      if (!p) want_dw[ids[t] * D + d] += dout[t * D + d], tol_dw[ids[t] * D + d] += std::fabs(dout[t * D + d]);
    }
  for (auto& t : tol_dw) t *= T * u;
  expect_within(widen(out.get()), want, tol, "embedding forward");
  expect_within(widen(dw.get()), want_dw, tol_dw, "embedding backward (atomics)");
}

namespace {

// Philox4x32-10 (Salmon, Moraes, Dror, Shaw, SC 2011) and Triton's mapping of (seed,
// int32 offset) to it: key = the seed as 64 bits (low word, high word), counter = (offset,
// 0, 0, 0); tl.rand keeps the first output word, read as int32, folds negatives to
// -x - 1 and scales by 4.6566127342e-10 in fp32.
float triton_rand(int64_t seed, int32_t offset) {
  uint32_t c[4] = {uint32_t(offset), 0, 0, 0};
  uint32_t k0 = uint32_t(uint64_t(seed)), k1 = uint32_t(uint64_t(seed) >> 32);
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = uint64_t(0xD2511F53u) * c[0], p2 = uint64_t(0xCD9E8D57u) * c[2];
    uint32_t n0 = uint32_t(p2 >> 32) ^ c[1] ^ k0, n2 = uint32_t(p0 >> 32) ^ c[3] ^ k1;
    c[1] = uint32_t(p2), c[3] = uint32_t(p0), c[0] = n0, c[2] = n2;
    k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
  }
  int32_t x = int32_t(c[0]);
  if (x < 0) x = -(x + 1);
  return float(x) * float(4.6566127342e-10);
}

}  // namespace

// Seeded dropout, exact reference: the keep decisions are compared one by one against the
// Philox stream above (exact integers and one exact-rule fp32 product), kept values are
// x / (1 - p) within the fp32 division bound (2^-21), dropped ones exactly 0. Also: the
// same seed gives the same bits again, another seed a different mask, and the kept fraction
// is within 5 standard deviations of 1 - p.
TEST(CorpusMisc, SeededDropoutMatchesThePhiloxStream) {
  const int64_t n = 100003;
  const float p = 0.3f;
  const int32_t seed = 1234567;
  auto x = uniform(n, -2.f, 2.f);
  auto k = compile("dropout_philox.py", "_seeded_dropout", "*fp32, *fp32, i32, fp32, i32", {{"BLOCK_SIZE", int64_t{1024}}});
  auto bx = upload(x);
  Output<float> a(n), b(n), c(n);
  k.launch({cdiv(n, 1024)}, {bx, a, n, p, seed});
  k.launch({cdiv(n, 1024)}, {bx, b, n, p, seed});
  k.launch({cdiv(n, 1024)}, {bx, c, n, p, seed + 1});
  auto av = a.get(), bv = b.get(), cv = c.get();
  std::vector<double> want(n), tol(n);
  int64_t kept = 0, same_as_other_seed = 0;
  float keep_scale_den = 1.0f - p;
  for (int64_t i = 0; i < n; ++i) {
    bool keep = triton_rand(seed, int32_t(i)) > p;
    kept += keep;
    want[i] = keep ? double(x[i]) / keep_scale_den : 0.0;
    tol[i] = keep ? 0x1p-21 * std::fabs(want[i]) : 0.0;
    same_as_other_seed += (av[i] == 0) == (cv[i] == 0);
  }
  expect_within(widen(av), want, tol, "dropout");
  EXPECT_EQ(std::memcmp(av.data(), bv.data(), n * sizeof(float)), 0) << "same seed, different bits";
  EXPECT_LT(same_as_other_seed, n * 7 / 10) << "seed + 1 gave nearly the same mask";
  double sd = std::sqrt(n * p * (1 - p));
  EXPECT_NEAR(double(kept), n * (1 - p), 5 * sd);
}

// The row kernel (offsets row * row_stride + col, a column loop) with a negative seed (the
// key's high word all ones) and row_stride > n_cols: the same exact reference.
TEST(CorpusMisc, RowDropoutNegativeSeedStridedOffsets) {
  const int64_t rows = 9, cols = 1500, ld = 1600;
  const float p = 0.5f;
  const int32_t seed = -77;
  auto x = uniform(rows * ld, -1.f, 1.f);
  auto k = compile("dropout_philox.py", "_row_dropout", "*fp32, *fp32, i32, i32, fp32, i32", {{"BLOCK_SIZE", int64_t{512}}});
  auto bx = upload(x);
  Output<float> o(rows * ld);
  k.launch({rows}, {bx, o, cols, ld, p, seed});
  auto ov = o.get();
  std::vector<double> got, want, tol;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < ld; ++c) {
      int64_t i = r * ld + c;
      if (c >= cols) {
        EXPECT_TRUE(std::isnan(ov[i])) << "stride padding written at " << i;
        continue;
      }
      bool keep = triton_rand(seed, int32_t(i)) > p;
      got.push_back(ov[i]);
      want.push_back(keep ? double(x[i]) / (1.0f - p) : 0.0);
      tol.push_back(keep ? 0x1p-21 * std::fabs(want.back()) : 0.0);
    }
  expect_within(got, want, tol, "row dropout");
}

// Greedy top-1 over a 50257-token vocabulary (BLOCK_V 4096: 13 chunks, the last ragged)
// with planted ties inside a chunk, across chunks and at the last token; and the one-chunk
// tl.argmax path for V = 1000. Exact: indices and values.
TEST(CorpusMisc, GreedyTop1ArgmaxWithTies) {
  for (int64_t V : {int64_t{50257}, int64_t{1000}}) {
    const int64_t rows = 5;
    bool one = V <= 1024;
    auto x = uniform(rows * V, -10.f, 10.f);
    // row 0: 20 at 4095, 4096 and 9000 (4095 wins); row 1: 20 at 700 and 300 (300 wins);
    // row 2: the maximum at the last token.
    x[0 * V + std::min<int64_t>(9000, V - 1)] = x[0 * V + std::min<int64_t>(4096, V - 2)] =
        x[0 * V + std::min<int64_t>(4095, V - 3)] = 20.f;
    x[1 * V + 700] = x[1 * V + 300] = 20.f;
    x[2 * V + V - 1] = 30.f;
    auto k = compile("argmax_top1_sampling.py", "greedy_top1_kernel", "*fp32, *i64, *fp32, i32",
                     {{"BLOCK_V", int64_t{one ? 1024 : 4096}}, {"ONE_CHUNK", one}});
    auto bx = upload(x);
    Output<int64_t> tok(rows);
    Output<float> best(rows);
    k.launch({rows}, {bx, tok, best, V});
    std::vector<int64_t> want(rows);
    std::vector<double> want_v(rows);
    for (int64_t r = 0; r < rows; ++r) {
      int64_t bi = 0;
      for (int64_t j = 1; j < V; ++j)
        if (x[r * V + j] > x[r * V + bi]) bi = j;
      want[r] = bi, want_v[r] = x[r * V + bi];
    }
    EXPECT_EQ(want[1], 300);
    std::string what = one ? "top-1 (tl.argmax)" : "top-1 (chunked return_indices)";
    expect_equal(tok.get(), want, what + " token");
    expect_within(widen(best.get()), want_v, std::vector<double>(rows, 0.0), what + " logit");
  }
}

// MoE alignment of 300 assignments (100 tokens x top-3) over 6 experts (NUM_EXPERTS 8),
// blocks of 16, TILE 128 (three chunks: the running per-expert counts cross chunks). Exact:
// offsets, the sorted ids (each expert's assignments in index order, then the sentinel
// padding), the block-to-expert map.
TEST(CorpusMisc, MoeAlignBlockSizeWithCumsum) {
  const int64_t numel = 300, E = 6, BS = 16;
  auto ids64 = uniform_int(numel, 0, E - 1);
  for (int64_t i = 0; i < numel; ++i)
    if (ids64[i] == 5) ids64[i] = 4;  // expert 5 gets nothing: an empty segment
  std::vector<int32_t> ids(ids64.begin(), ids64.end());
  const int64_t max_padded = numel + E * (BS - 1);
  auto k = compile("moe_align_cumsum.py", "moe_align_block_size_kernel", "*i32, *i32, *i32, *i32, i32, i32, i32",
                   {{"NUM_EXPERTS", int64_t{8}}, {"BLOCK_SIZE", BS}, {"TILE", int64_t{128}}});
  auto bi = upload(ids);
  Output<int32_t> sorted(max_padded), offsets(E + 1), blocks(max_padded / BS);
  k.launch({1}, {bi, sorted, offsets, blocks, numel, E, max_padded});
  std::vector<int32_t> want_off(E + 1, 0), want_sorted(max_padded, int32_t(numel));
  std::vector<int64_t> count(E, 0);
  for (int32_t e : ids) ++count[e];
  for (int64_t e = 0; e < E; ++e) want_off[e + 1] = want_off[e] + int32_t(cdiv(count[e], BS) * BS);
  std::vector<int64_t> fill(want_off.begin(), want_off.end() - 1);
  for (int64_t i = 0; i < numel; ++i) want_sorted[fill[ids[i]]++] = int32_t(i);
  expect_equal(offsets.get(), want_off, "moe offsets");
  expect_equal(sorted.get(), want_sorted, "moe sorted ids");
  auto bv = blocks.get();
  for (int64_t e = 0; e < E; ++e)
    for (int64_t b = want_off[e] / BS; b < want_off[e + 1] / BS; ++b) EXPECT_EQ(bv[b], e) << "block " << b;
  for (int64_t b = want_off[E] / BS; b < max_padded / BS; ++b) EXPECT_EQ(bv[b], poison<int32_t>()) << "block " << b;
}

// MoE routing: 100 tokens over 60 experts (BLOCK_E 64: padded columns), top-4 with and
// without renormalisation, BLOCK_T 16 (a ragged last tile), planted exact ties (two
// experts with equal logits: the lower id first). Ids exact; weights: the softmax
// (exp 2^-21 after a subtraction of u |x - max| <= 8 u, 60-term sum 60 u, division 2^-21)
// and the renormalising division by the sum of 4 (2^-21 + 4 u).
TEST(CorpusMisc, MoeTopkSoftmaxRouting) {
  const int64_t T = 100, E = 60, K = 4;
  auto x = uniform(T * E, -4.f, 4.f);
  x[3 * E + 10] = x[3 * E + 50] = 9.f;   // a tie for the first place
  x[5 * E + 20] = x[5 * E + 2] = 8.5f;   // a tie for the first place, reversed order
  auto bx = upload(x);
  for (bool renorm : {false, true}) {
    auto k = compile("moe_topk_softmax.py", "topk_softmax_kernel", "*fp32, *fp32, *i32, i32",
                     {{"E", E}, {"BLOCK_E", int64_t{64}}, {"TOPK", K}, {"RENORMALIZE", renorm}, {"BLOCK_T", int64_t{16}}});
    Output<float> w(T * K);
    Output<int32_t> ids(T * K);
    k.launch({cdiv(T, 16)}, {bx, w, ids, T});
    std::vector<int32_t> want_ids(T * K);
    std::vector<double> want_w(T * K), tol_w(T * K);
    for (int64_t t = 0; t < T; ++t) {
      double mx = -INFINITY, s = 0;
      for (int64_t e = 0; e < E; ++e) mx = std::max(mx, double(x[t * E + e]));
      std::vector<std::pair<double, int>> pe;
      for (int64_t e = 0; e < E; ++e) s += std::exp(x[t * E + e] - mx);
      for (int64_t e = 0; e < E; ++e) pe.push_back({-std::exp(x[t * E + e] - mx) / s, int(e)});
      std::sort(pe.begin(), pe.end());  // descending probability, then ascending id
      double top = 0;
      for (int64_t j = 0; j < K; ++j) top += -pe[j].first;
      for (int64_t j = 0; j < K; ++j) {
        double p = -pe[j].first, rel = 8 * u + 2 * 0x1p-21 + E * u;
        want_ids[t * K + j] = pe[j].second;
        want_w[t * K + j] = renorm ? p / top : p;
        tol_w[t * K + j] = want_w[t * K + j] * (renorm ? 2 * rel + 0x1p-21 + 4 * u : rel);
      }
    }
    EXPECT_EQ(want_ids[3 * K], 10);
    EXPECT_EQ(want_ids[3 * K + 1], 50);
    EXPECT_EQ(want_ids[5 * K], 2);
    std::string what = renorm ? "moe routing (renormalised)" : "moe routing";
    expect_equal(ids.get(), want_ids, what + " ids");
    expect_within(widen(w.get()), want_w, tol_w, what + " weights");
  }
}
