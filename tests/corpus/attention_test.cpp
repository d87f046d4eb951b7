// Corpus: fused attention forward kernels (tests/corpus/kernels/attention_*.py) on the CPU
// backend, against a float64 softmax(Q K^T) V computed row by row.
//
// Tolerances (fp16 Q, K, V and output). Scores: fp16 products are exact in fp32, the
// D-term dot adds at most D * 2^-24 * sum_d |q_d k_d| absolute. Probabilities: exp2 (a few
// fp32 ulp) and a score error e change p by a factor (1 + e ln 2 + 2^-21); the kernel then
// rounds p to fp16 for the PV product (2^-11 relative) while l keeps the fp32 p, so the
// output moves by at most (2^-11 + e + 2^-21) * max_j |v_j|. fp32 accumulation of the PV
// sum adds N * 2^-24 * max|v|. The output's own fp16 rounding: 2^-11 |o|.
// The log-sum-exp (fp32 output, log2 units): e * log2(e) from the scores plus the fp32
// summation of N probabilities <= 1 (N * 2^-24 relative in l, so N * 2^-24 / ln 2 after
// log2) plus 2^-22 (1 + |lse|) for exp2 / log2 / the final addition.
#include <algorithm>

#include "corpus_util.h"

using namespace corpus;

namespace {

// Strides of a 4-D tensor in elements.
struct Strides {
  int64_t z, h, s, d;
};

struct AttnRef {
  std::vector<double> out, lse2, out_tol, lse_tol;  // out: [Z, H, N, D]; lse2: [Z*H, N]
};

// q/k/v values addressed through their strides; output/lse in contiguous [Z, H, N, D] / [Z*H, N].
AttnRef attention_ref(const std::vector<double>& q, Strides qs, const std::vector<double>& k, Strides ks,
                      const std::vector<double>& v, Strides vs, int64_t Z, int64_t H, int64_t N, int64_t D,
                      double scale, bool causal, int64_t n_keys = -1, int64_t kv_heads = -1) {
  if (n_keys < 0) n_keys = N;
  if (kv_heads < 0) kv_heads = H;
  AttnRef r;
  r.out.assign(Z * H * N * D, 0.0);
  r.out_tol.assign(Z * H * N * D, 0.0);
  r.lse2.assign(Z * H * N, 0.0);
  r.lse_tol.assign(Z * H * N, 0.0);
  std::vector<double> s(n_keys), e(n_keys);
  for (int64_t z = 0; z < Z; ++z)
    for (int64_t h = 0; h < H; ++h) {
      int64_t hk = h / (H / kv_heads);
      for (int64_t i = 0; i < N; ++i) {
        // Query i attends to keys 0..last (causal: aligned to the end of the key sequence).
        int64_t last = causal ? i + (n_keys - N) : n_keys - 1;
        double mx = -INFINITY, score_err = 0, vmax = 0;
        for (int64_t j = 0; j <= last; ++j) {
          double dot = 0, abs_dot = 0;
          for (int64_t d = 0; d < D; ++d) {
            double x = q[z * qs.z + h * qs.h + i * qs.s + d * qs.d] * k[z * ks.z + hk * ks.h + j * ks.s + d * ks.d];
            dot += x, abs_dot += std::fabs(x);
          }
          s[j] = dot * scale;
          mx = std::max(mx, s[j]);
          score_err = std::max(score_err, D * 0x1p-24 * abs_dot * scale * 1.01);
          for (int64_t d = 0; d < D; ++d) vmax = std::max(vmax, std::fabs(v[z * vs.z + hk * vs.h + j * vs.s + d * vs.d]));
        }
        double l = 0;
        for (int64_t j = 0; j <= last; ++j) l += e[j] = std::exp(s[j] - mx);
        size_t row = (z * H + h) * N + i;
        r.lse2[row] = (mx + std::log(l)) / std::log(2.0);
        r.lse_tol[row] = score_err / std::log(2.0) + n_keys * 0x1p-24 / std::log(2.0) + 0x1p-22 * (1 + std::fabs(r.lse2[row]));
        for (int64_t d = 0; d < D; ++d) {
          double o = 0;
          for (int64_t j = 0; j <= last; ++j) o += e[j] / l * v[z * vs.z + hk * vs.h + j * vs.s + d * vs.d];
          r.out[row * D + d] = o;
          r.out_tol[row * D + d] = (0x1p-11 + 2 * score_err + 0x1p-21 + n_keys * 0x1p-24) * vmax * 1.01 +
                                   0x1p-11 * std::fabs(o) + 0x1p-25;
        }
      }
    }
  return r;
}

const char* kBlockPtrSig =
    "*fp16, *fp16, *fp16, fp32, *fp32, *fp16, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, "
    "i32, i32, i32, i32, i32, i32, i32";

void run_blockptr(bool causal) {
  const int64_t Z = 2, H = 3, N = 100, D = 64, BM = 32, BN = 16;
  const double scale = 1.0 / std::sqrt(double(D));
  // Q and Out in [Z, H, N, D]; K and V in [Z, N, H, D] (the "BSHD" layout), so the kernel's
  // stride arguments differ between operands.
  Strides bhsd{H * N * D, N * D, D, 1}, bshd{N * H * D, D, H * D, 1};
  Half q = uniform_half(Z * H * N * D), k = uniform_half(Z * H * N * D), v = uniform_half(Z * H * N * D);
  auto ref = attention_ref(q.vals, bhsd, k.vals, bshd, v.vals, bshd, Z, H, N, D, scale, causal);
  auto kern = compile("attention_fwd_blockptr.py", "_attn_fwd", kBlockPtrSig,
                      {{"HEAD_DIM", D}, {"BLOCK_M", BM}, {"BLOCK_N", BN}, {"STAGE", int64_t{causal ? 3 : 1}}});
  auto bq = upload(q.bits), bk = upload(k.bits), bv = upload(v.bits);
  Output<float> m(Z * H * N);
  Output<uint16_t> o(Z * H * N * D);
  kern.launch({cdiv(N, BM), Z * H}, {bq, bk, bv, float(scale), m, o,
                                     bhsd.z, bhsd.h, bhsd.s, bhsd.d, bshd.z, bshd.h, bshd.s, bshd.d,
                                     bshd.z, bshd.h, bshd.s, bshd.d, bhsd.z, bhsd.h, bhsd.s, bhsd.d, Z, H, N});
  std::string what = causal ? "causal" : "non-causal";
  expect_within(widen_half(o.get()), ref.out, ref.out_tol, what + " attention out");
  expect_within(widen(m.get()), ref.lse2, ref.lse_tol, what + " attention lse (log2)");
}

}  // namespace

TEST(CorpusAttention, BlockPointerForwardNonCausal) { run_blockptr(false); }
TEST(CorpusAttention, BlockPointerForwardCausal) { run_blockptr(true); }

// Split-KV decode with GQA (8 query heads over 2 kv heads: groups of 4 padded to 16 rows),
// ragged sequence lengths (one shorter than the number of splits, so some splits are
// empty), a cache with room past each length holding huge keys (30000: they would dominate
// the softmax if read), 4 splits merged in stage 2. Tolerances as for the block-pointer kernel, plus the
// merge: per split a division by its sum (2^-21) and two exps (2^-21 each) of lse values.
TEST(CorpusAttention, DecodeSplitKvGroupedQueryHeads) {
  const int64_t B = 3, Hq = 8, Hkv = 2, D = 64, L = 90, S = 4;
  const std::vector<int32_t> lens = {77, 3, 90};
  const double scale = 1.0 / std::sqrt(double(D));
  Half q = uniform_half(B * Hq * D), kc = uniform_half(B * Hkv * L * D), vc = uniform_half(B * Hkv * L * D);
  for (int64_t b = 0; b < B; ++b)  // cache slots past the length
    for (int64_t h = 0; h < Hkv; ++h)
      for (int64_t j = lens[b]; j < L; ++j)
        for (int64_t d = 0; d < D; ++d) kc.bits[((b * Hkv + h) * L + j) * D + d] = to_half(30000.0);
  auto s1 = compile("attention_decode_splitkv.py", "_decode_grouped_stage1",
                    "*fp16, *fp16, *fp16, *i32, fp32, *fp32, *fp32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32",
                    {{"kv_group_num", Hq / Hkv}, {"HEAD_DIM", D}, {"BLOCK_H", int64_t{16}}, {"BLOCK_N", int64_t{16}},
                     {"NUM_SPLITS", S}});
  auto s2 = compile("attention_decode_splitkv.py", "_decode_stage2", "*fp32, *fp32, *fp16, *i32, i32, i32, i32, i32, i32",
                    {{"HEAD_DIM", D}, {"NUM_SPLITS", S}});
  auto bq = upload(q.bits), bk = upload(kc.bits), bv = upload(vc.bits), bl = upload(lens);
  Output<float> mid_o(B * Hq * S * D), mid_lse(B * Hq * S);
  Output<uint16_t> o(B * Hq * D);
  s1.launch({B, Hkv, S}, {bq, bk, bv, bl, float(scale), mid_o, mid_lse, Hq * D, D, Hkv * L * D, L * D, D, Hkv * L * D,
                          L * D, D, Hq * S * D, S * D, D, Hq});
  s2.launch({B, Hq}, {mid_o, mid_lse, o, bl, Hq * S * D, S * D, D, Hq * D, D});
  std::vector<double> want, tol;
  for (int64_t b = 0; b < B; ++b) {
    // One query row per head: the block-pointer test's reference with N = 1 query and
    // lens[b] keys (non-causal), taken head by head.
    std::vector<double> qb(Hq * D), kb(Hkv * lens[b] * D), vb(Hkv * lens[b] * D);
    for (int64_t i = 0; i < Hq * D; ++i) qb[i] = q.vals[b * Hq * D + i];
    for (int64_t h = 0; h < Hkv; ++h)
      for (int64_t j = 0; j < lens[b]; ++j)
        for (int64_t d = 0; d < D; ++d) {
          kb[(h * lens[b] + j) * D + d] = kc.vals[((b * Hkv + h) * L + j) * D + d];
          vb[(h * lens[b] + j) * D + d] = vc.vals[((b * Hkv + h) * L + j) * D + d];
        }
    auto r = attention_ref(qb, {0, D, D, 1}, kb, {0, lens[b] * D, D, 1}, vb, {0, lens[b] * D, D, 1}, 1, Hq, 1, D,
                           float(scale), false, lens[b], Hkv);
    for (size_t i = 0; i < r.out.size(); ++i) {
      want.push_back(r.out[i]);
      tol.push_back(r.out_tol[i] + S * 3 * 0x1p-21 * std::fabs(r.out[i]));
    }
  }
  expect_within(widen_half(o.get()), want, tol, "split-kv decode attention");
}

// The tensor-descriptor variant (tutorial 3.4+ style): N_CTX = 128 (a multiple of both
// blocks, as the flattened-descriptor layout requires), 2 x 3 heads, both stages; the same
// reference and tolerances.
TEST(CorpusAttention, TensorDescriptorForwardCausalAndNot) {
  const int64_t Z = 2, H = 3, N = 128, D = 64, BM = 64, BN = 32;
  const double scale = 1.0 / std::sqrt(double(D));
  Strides bhsd{H * N * D, N * D, D, 1};
  Half q = uniform_half(Z * H * N * D), k = uniform_half(Z * H * N * D), v = uniform_half(Z * H * N * D);
  auto bq = upload(q.bits), bk = upload(k.bits), bv = upload(v.bits);
  for (bool causal : {false, true}) {
    auto ref = attention_ref(q.vals, bhsd, k.vals, bhsd, v.vals, bhsd, Z, H, N, D, scale, causal);
    auto kern = compile("attention_fwd_descriptor.py", "_attn_fwd", "fp32, *fp32, i32, i32, *fp16, *fp16, *fp16, *fp16, i32",
                        {{"HEAD_DIM", D}, {"BLOCK_M", BM}, {"BLOCK_N", BN}, {"FP8_OUTPUT", false},
                         {"STAGE", int64_t{causal ? 3 : 1}}, {"warp_specialize", false}});
    Output<float> m(Z * H * N);
    Output<uint16_t> o(Z * H * N * D);
    kern.launch({N / BM, Z * H}, {float(scale), m, Z, H, bq, bk, bv, o, N});
    std::string what = causal ? "descriptor causal" : "descriptor non-causal";
    expect_within(widen_half(o.get()), ref.out, ref.out_tol, what + " attention out");
    expect_within(widen(m.get()), ref.lse2, ref.lse_tol, what + " attention lse (log2)");
  }
}

namespace {

// Tolerance of sum_i a_i b_i computed with a's relative error `ea` (per term) and fp32
// accumulation over n terms: (ea + n u) sum |a_i b_i|.
struct GradRef {
  std::vector<double> dq, dk, dv, tq, tk, tv;
};

// float64 gradients of softmax(scale Q K^T) V for one (batch, head) block of N rows, plus
// their tolerances. The kernel recomputes p = exp2(s log2 e - M) from fp32 M (the reference
// lse2 rounded: 2^-24 |M| ln 2 relative in p), exp2 (2^-21), and the score's D-term fp32 dot
// (score_err); p and ds are rounded to fp16 (2^-11) before their dots; Delta is the fp32 sum
// of the fp16 O (O rounded to fp16: 2^-11 sum |o do|, plus D u). Each gradient sums N
// terms: the per-term relative error of the rounded factor plus N u.
GradRef attention_grads(const double* q, const double* k, const double* v, const double* o16, const double* dout,
                        const float* m32, int64_t N, int64_t D, double scale, bool causal) {
  const double u = 0x1p-24;
  std::vector<double> P(N * N, 0), dS(N * N, 0), eP(N * N, 0), eS(N * N, 0);
  for (int64_t i = 0; i < N; ++i) {
    int64_t last = causal ? i : N - 1;
    std::vector<double> s(N);
    double mx = -INFINITY, l = 0, delta = 0, delta16 = 0, delta_abs = 0;
    for (int64_t j = 0; j <= last; ++j) {
      double dot = 0, ad = 0;
      for (int64_t d = 0; d < D; ++d) dot += q[i * D + d] * k[j * D + d], ad += std::fabs(q[i * D + d] * k[j * D + d]);
      s[j] = dot * scale, mx = std::max(mx, s[j]);
      eP[i * N + j] = 0x1p-21 + D * u * ad * scale + 0x1p-24 * std::fabs(double(m32[i])) + 4 * u;
    }
    for (int64_t j = 0; j <= last; ++j) l += std::exp(s[j] - mx);
    for (int64_t d = 0; d < D; ++d) delta16 += o16[i * D + d] * dout[i * D + d], delta_abs += std::fabs(o16[i * D + d] * dout[i * D + d]);
    std::vector<double> dp(N, 0), dp_abs(N, 0);
    for (int64_t j = 0; j <= last; ++j) {
      P[i * N + j] = std::exp(s[j] - mx) / l;
      for (int64_t d = 0; d < D; ++d) dp[j] += dout[i * D + d] * v[j * D + d], dp_abs[j] += std::fabs(dout[i * D + d] * v[j * D + d]);
      delta += P[i * N + j] * dp[j];
    }
    // Delta as the kernel computes it (from the fp16 O) is within 2^-11 sum |o do| of the
    // exact rowsum(P dP) (O's rounding) plus the fp32 sum.
    double e_delta = std::fabs(delta16 - delta) + (D + 1) * u * delta_abs + 0x1p-11 * delta_abs;
    for (int64_t j = 0; j <= last; ++j) {
      double p = P[i * N + j], g = dp[j] - delta;
      dS[i * N + j] = p * g;
      eS[i * N + j] = eP[i * N + j] * std::fabs(p * g) + p * (D * u * dp_abs[j] + e_delta + u * std::fabs(g)) +
                      0x1p-11 * std::fabs(p * g) + 0x1p-25;
    }
  }
  GradRef r;
  r.dq.assign(N * D, 0), r.dk.assign(N * D, 0), r.dv.assign(N * D, 0);
  r.tq.assign(N * D, 0), r.tk.assign(N * D, 0), r.tv.assign(N * D, 0);
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double p = P[i * N + j], ds = dS[i * N + j];
      if (p == 0) continue;
      for (int64_t d = 0; d < D; ++d) {
        r.dv[j * D + d] += p * dout[i * D + d];
        r.tv[j * D + d] += (eP[i * N + j] + 0x1p-11 + N * u) * p * std::fabs(dout[i * D + d]) + 0x1p-25 * std::fabs(dout[i * D + d]);
        r.dk[j * D + d] += scale * ds * q[i * D + d];
        r.tk[j * D + d] += scale * (eS[i * N + j] + N * u * std::fabs(ds)) * std::fabs(q[i * D + d]);
        r.dq[i * D + d] += scale * ds * k[j * D + d];
        r.tq[i * D + d] += scale * (eS[i * N + j] + N * u * std::fabs(ds)) * std::fabs(k[j * D + d]);
      }
    }
  // the fp16 outputs
  for (int64_t x = 0; x < N * D; ++x) {
    r.tq[x] += 0x1p-11 * std::fabs(r.dq[x]) + 0x1p-25;
    r.tk[x] += 0x1p-11 * std::fabs(r.dk[x]) + 0x1p-25;
    r.tv[x] += 0x1p-11 * std::fabs(r.dv[x]) + 0x1p-25;
  }
  return r;
}

}  // namespace

// The backward kernels on 2 heads of 128 tokens, causal and not: preprocess (Delta), dK /
// dV per key block, dQ per query block, from the reference forward's O (rounded to fp16)
// and log2 LSE (rounded to fp32).
TEST(CorpusAttention, TutorialBackwardDkDvDq) {
  const int64_t Z = 1, H = 2, N = 128, D = 64, BH = Z * H;
  const double scale = 1.0 / std::sqrt(double(D));
  Strides bhsd{H * N * D, N * D, D, 1};
  Half q = uniform_half(BH * N * D), k = uniform_half(BH * N * D), v = uniform_half(BH * N * D),
       dout = uniform_half(BH * N * D);
  auto bq = upload(q.bits), bk = upload(k.bits), bv = upload(v.bits), bdo = upload(dout.bits);
  const std::map<std::string, tritium::ConstexprValue> pre_cx = {{"HEAD_DIM", D}, {"PRE_BLOCK", int64_t{32}}};
  auto pre = compile("attention_bwd.py", "_attn_bwd_preprocess", "*fp16, *fp16, *fp32, i32", pre_cx);
  for (bool causal : {false, true}) {
    auto fwd = attention_ref(q.vals, bhsd, k.vals, bhsd, v.vals, bhsd, Z, H, N, D, scale, causal);
    std::vector<uint16_t> o16(BH * N * D);
    std::vector<double> o16v(BH * N * D);
    for (size_t i = 0; i < o16.size(); ++i) o16[i] = to_half(fwd.out[i]), o16v[i] = half_value(o16[i]);
    std::vector<float> m32(fwd.lse2.begin(), fwd.lse2.end());
    auto bo = upload(o16), bm = upload(m32);
    Output<float> delta(BH * N);
    pre.launch({N / 32, BH}, {bo, bdo, delta, N});
    auto dkdv = compile("attention_bwd.py", "_attn_bwd_dkdv",
                        "*fp16, *fp16, *fp16, fp32, *fp16, *fp16, *fp16, *fp32, *fp32, i32, i32, i32",
                        {{"BLOCK_M1", int64_t{32}}, {"BLOCK_N1", int64_t{64}}, {"HEAD_DIM", D}, {"CAUSAL", causal}});
    auto dqk = compile("attention_bwd.py", "_attn_bwd_dq",
                       "*fp16, *fp16, *fp16, fp32, *fp16, *fp16, *fp32, *fp32, i32, i32, i32",
                       {{"BLOCK_M2", int64_t{64}}, {"BLOCK_N2", int64_t{32}}, {"HEAD_DIM", D}, {"CAUSAL", causal}});
    Output<uint16_t> dq(BH * N * D), dk(BH * N * D), dv(BH * N * D);
    dkdv.launch({N / 64, BH}, {bq, bk, bv, float(scale), bdo, dk, dv, bm, delta, D, 1, N});
    dqk.launch({N / 64, BH}, {bq, bk, bv, float(scale), bdo, dq, bm, delta, D, 1, N});
    std::vector<double> wq, wk, wv, tq, tk, tv;
    for (int64_t bh = 0; bh < BH; ++bh) {
      size_t off = bh * N * D;
      auto g = attention_grads(&q.vals[off], &k.vals[off], &v.vals[off], &o16v[off], &dout.vals[off], &m32[bh * N], N, D,
                               float(scale), causal);
      wq.insert(wq.end(), g.dq.begin(), g.dq.end()), tq.insert(tq.end(), g.tq.begin(), g.tq.end());
      wk.insert(wk.end(), g.dk.begin(), g.dk.end()), tk.insert(tk.end(), g.tk.begin(), g.tk.end());
      wv.insert(wv.end(), g.dv.begin(), g.dv.end()), tv.insert(tv.end(), g.tv.begin(), g.tv.end());
    }
    std::string what = causal ? "attention backward (causal) " : "attention backward ";
    expect_within(widen_half(dq.get()), wq, tq, what + "dq");
    expect_within(widen_half(dk.get()), wk, tk, what + "dk");
    expect_within(widen_half(dv.get()), wv, tv, what + "dv");
  }
}
