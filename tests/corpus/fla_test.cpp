// Corpus: flash-linear-attention-style gated delta rule kernels (fla_*.py) on the CPU
// backend, against the token-by-token recurrence evaluated in float64.
//
// Tolerances. The reference also runs the recurrence on magnitudes (|S| <- e^g |S| +
// beta |k| (|v| + |S|^T |k|)^T, and |o| <- scale |S|^T |q|), an entrywise bound on every
// term either evaluation adds; each fp32 operation errs by u = 2^-24 of such a term. Per
// token (recurrent) or per chunk (chunked) a result passes through O(K + V + BT) roundings
// (the dots over K and over the chunk, the forward substitution over BT rows, 4 ulp exp2),
// and the state carries earlier errors forward without growing them (|e^g| <= 1, and
// I - beta k k^T is a contraction for |k| = 1, 0 < beta < 1), so the error after n steps is
// bounded by n * (that count) * u * magnitude. The counts below are those sums, rounded up.
#include <algorithm>
#include <functional>

#include "corpus_util.h"

using namespace corpus;

namespace {

constexpr double u = 0x1p-24;

struct GdrInputs {
  int64_t B, T, H, K, V;
  std::vector<float> q, k, v, g, beta;  // [B, T, H, K|V] and [B, T, H]
};

// Random inputs: k rows of unit L2 norm, gates log(sigmoid(x)) in [-1.3, -0.02], beta in
// (0.27, 0.88).
GdrInputs make_gdr(int64_t B, int64_t T, int64_t H, int64_t K, int64_t V) {
  GdrInputs in{B, T, H, K, V, uniform(B * T * H * K), uniform(B * T * H * K), uniform(B * T * H * V), {}, {}};
  for (int64_t r = 0; r < B * T * H; ++r) {
    double n = 0;
    for (int64_t i = 0; i < K; ++i) n += double(in.k[r * K + i]) * in.k[r * K + i];
    for (int64_t i = 0; i < K; ++i) in.k[r * K + i] = float(in.k[r * K + i] / std::sqrt(n));
  }
  for (float x : uniform(B * T * H, -1.f, 4.f)) in.g.push_back(float(std::log(1 / (1 + std::exp(-double(x))))));
  for (float x : uniform(B * T * H, -1.f, 2.f)) in.beta.push_back(float(1 / (1 + std::exp(-double(x)))));
  return in;
}

struct GdrRef {
  std::vector<double> o, o_mag, ht, ht_mag;  // o: [B, T, H, V]; ht: [B, H, K, V]
};

// The recurrence in float64 (q and k optionally L2-normalised as the kernel does, with
// +1e-6 on the norm), with the magnitude recurrence alongside.
GdrRef gdr_ref(const GdrInputs& in, const std::vector<double>& q, const std::vector<double>& k,
               const std::vector<double>& v, double scale, const std::vector<double>* h0, bool l2norm) {
  const int64_t B = in.B, T = in.T, H = in.H, K = in.K, V = in.V;
  GdrRef r;
  r.o.assign(B * T * H * V, 0), r.o_mag.assign(B * T * H * V, 0);
  r.ht.assign(B * H * K * V, 0), r.ht_mag.assign(B * H * K * V, 0);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      std::vector<double> S(K * V, 0), A(K * V, 0), qq(K), kk(K), kv(V), akv(V);
      if (h0)
        for (int64_t i = 0; i < K * V; ++i) S[i] = (*h0)[(b * H + h) * K * V + i], A[i] = std::fabs(S[i]);
      for (int64_t t = 0; t < T; ++t) {
        int64_t row = (b * T + t) * H + h;
        double nq = 0, nk = 0;
        for (int64_t i = 0; i < K; ++i) nq += q[row * K + i] * q[row * K + i], nk += k[row * K + i] * k[row * K + i];
        for (int64_t i = 0; i < K; ++i) {
          qq[i] = l2norm ? q[row * K + i] / (std::sqrt(nq) + 1e-6) : q[row * K + i];
          kk[i] = l2norm ? k[row * K + i] / (std::sqrt(nk) + 1e-6) : k[row * K + i];
        }
        double decay = std::exp(double(in.g[row])), beta = in.beta[row];
        for (int64_t i = 0; i < K * V; ++i) S[i] *= decay, A[i] *= decay;
        std::fill(kv.begin(), kv.end(), 0.0), std::fill(akv.begin(), akv.end(), 0.0);
        for (int64_t i = 0; i < K; ++i)
          for (int64_t j = 0; j < V; ++j) kv[j] += S[i * V + j] * kk[i], akv[j] += A[i * V + j] * std::fabs(kk[i]);
        for (int64_t j = 0; j < V; ++j) {
          double un = beta * (v[row * V + j] - kv[j]), an = beta * (std::fabs(v[row * V + j]) + akv[j]);
          for (int64_t i = 0; i < K; ++i) S[i * V + j] += kk[i] * un, A[i * V + j] += std::fabs(kk[i]) * an;
        }
        for (int64_t j = 0; j < V; ++j) {
          double o = 0, m = 0;
          for (int64_t i = 0; i < K; ++i) o += S[i * V + j] * qq[i], m += A[i * V + j] * std::fabs(qq[i]);
          r.o[row * V + j] = o * scale;
          r.o_mag[row * V + j] = m * scale;
        }
      }
      for (int64_t i = 0; i < K * V; ++i) r.ht[(b * H + h) * K * V + i] = S[i], r.ht_mag[(b * H + h) * K * V + i] = A[i];
    }
  return r;
}

// Tolerance of every output row of a [B, T, H, V] tensor after n(t) steps of `per_step`
// roundings, plus `rel` of the value itself (a final fp16 rounding).
std::vector<double> step_tol(const GdrInputs& in, const GdrRef& r, const std::function<double(int64_t)>& steps,
                             double per_step, double rel) {
  std::vector<double> tol(r.o.size());
  for (int64_t b = 0; b < in.B; ++b)
    for (int64_t t = 0; t < in.T; ++t)
      for (int64_t h = 0; h < in.H; ++h)
        for (int64_t j = 0; j < in.V; ++j) {
          size_t i = ((b * in.T + t) * in.H + h) * in.V + j;
          tol[i] = steps(t) * per_step * u * r.o_mag[i] + rel * std::fabs(r.o[i]) + 1e-30;
        }
  return tol;
}

}  // namespace

// The chunked kernel: 75 tokens in chunks of 16 (last one 11), V = 40 in blocks of 32 (the
// second one 8 wide). Per chunk the roundings are: the K-term dots (k k^T, q k^T, w S, q S)
// 4 K, the BT-term solve and chunk products 4 BT, the V side 2 V, exp2 and scaling 16. Its
// eight fp32 dots use the default precision: on tf32 tensor cores (dot_tf32()) each
// product's operands are rounded to 10 mantissa bits, 2^-10 = 2^14 u per dot more.
TEST(CorpusFla, ChunkedGatedDeltaRuleForward) {
  const int64_t B = 2, T = 75, H = 2, K = 32, V = 40, BT = 16;
  GdrInputs in = make_gdr(B, T, H, K, V);
  const double scale = 1 / std::sqrt(double(K));
  GdrRef ref = gdr_ref(in, widen(in.q), widen(in.k), widen(in.v), float(scale), nullptr, false);
  auto kern = compile("fla_chunk_gated_delta_fwd.py", "chunk_gated_delta_rule_fwd_kernel",
                      "*fp32, *fp32, *fp32, *fp32, *fp32, *fp32, *fp32, fp32, i32",
                      {{"H", H}, {"K", K}, {"V", V}, {"BT", BT}, {"BK", int64_t{32}}, {"BV", int64_t{32}},
                       {"STORE_FINAL_STATE", true}});
  auto bq = upload(in.q), bk = upload(in.k), bv = upload(in.v), bg = upload(in.g), bb = upload(in.beta);
  Output<float> o(B * T * H * V), ht(B * H * K * V);
  kern.launch({cdiv(V, 32), B * H}, {bq, bk, bv, bg, bb, o, ht, float(scale), T});
  const double per_chunk = 4 * K + 4 * BT + 2 * V + 16 + (dot_tf32() ? 8 * 0x1p14 : 0);
  auto tol = step_tol(in, ref, [&](int64_t t) { return double(t / BT + 1); }, per_chunk, 0);
  expect_within(widen(o.get()), ref.o, tol, "chunked gated delta o");
  std::vector<double> tol_h(ref.ht.size());
  for (size_t i = 0; i < tol_h.size(); ++i) tol_h[i] = cdiv(T, BT) * per_chunk * u * ref.ht_mag[i] + 1e-30;
  expect_within(widen(ht.get()), ref.ht, tol_h, "chunked gated delta final state");
}

// The fused recurrent kernel with fp16 q, k, v and o, an initial state, and q / k
// L2-normalised in the kernel (sqrt and division: (K / 2 + 8) u relative on each). Per
// token: S^T k and S^T q over K (2 K), the rank-1 update and decay (8), the normalisation
// (K + 16); o is then rounded to fp16 (2^-11).
TEST(CorpusFla, FusedRecurrentGatedDeltaRuleFp16WithInitialState) {
  const int64_t B = 2, T = 40, H = 3, K = 24, V = 20;
  GdrInputs in = make_gdr(B, T, H, K, V);
  Half q = uniform_half(B * T * H * K), k = uniform_half(B * T * H * K), v = uniform_half(B * T * H * V);
  auto h0 = uniform(B * H * K * V, -0.5f, 0.5f);
  const double scale = 1 / std::sqrt(double(K));
  auto h0d = widen(h0);
  GdrRef ref = gdr_ref(in, q.vals, k.vals, v.vals, float(scale), &h0d, true);
  auto kern = compile("fla_fused_recurrent_gated_delta.py", "fused_recurrent_gated_delta_rule_fwd_kernel",
                      "*fp16, *fp16, *fp16, *fp32, *fp32, *fp16, *fp32, *fp32, fp32, i32",
                      {{"H", H}, {"K", K}, {"V", V}, {"BK", int64_t{32}}, {"BV", int64_t{16}},
                       {"USE_INITIAL_STATE", true}, {"STORE_FINAL_STATE", true}, {"USE_QK_L2NORM_IN_KERNEL", true}});
  auto bq = upload(q.bits), bk = upload(k.bits), bv = upload(v.bits), bg = upload(in.g), bb = upload(in.beta),
       bh0 = upload(h0);
  Output<uint16_t> o(B * T * H * V);
  Output<float> ht(B * H * K * V);
  kern.launch({cdiv(V, 16), 1, B * H}, {bq, bk, bv, bg, bb, o, bh0, ht, float(scale), T});
  const double per_step = 2 * K + 8 + K + 16;
  auto tol = step_tol(in, ref, [&](int64_t t) { return double(t + 1); }, per_step, 0x1p-11 * 1.01);
  expect_within(widen_half(o.get()), ref.o, tol, "fused recurrent gated delta o");
  std::vector<double> tol_h(ref.ht.size());
  for (size_t i = 0; i < tol_h.size(); ++i) tol_h[i] = T * per_step * u * ref.ht_mag[i] + 1e-30;
  expect_within(widen(ht.get()), ref.ht, tol_h, "fused recurrent gated delta final state");
}

// Chunk-local cumsum, forward and reverse, token-major and head-first layouts, with a scale.
// An inclusive sum of at most BT = 32 terms: BT u of the sum of magnitudes (the reverse form
// total - inclusive + element adds 2 more roundings of the chunk total), then the scale (u).
TEST(CorpusFla, ChunkLocalCumsumForwardReverseBothLayouts) {
  const int64_t B = 2, T = 100, H = 3, BT = 32;
  auto g = uniform(B * T * H, -2.f, 0.f);
  const double scale = 1.4426950408889634;
  auto bg = upload(g);
  for (bool reverse : {false, true})
    for (bool head_first : {false, true}) {
      auto kern = compile("fla_chunk_local_cumsum.py", "chunk_local_cumsum_scalar_kernel", "*fp32, *fp32, fp32, i32",
                          {{"H", H}, {"BT", BT}, {"REVERSE", reverse}, {"HAS_SCALE", true}, {"HEAD_FIRST", head_first}});
      Output<float> o(B * T * H);
      kern.launch({cdiv(T, BT), B * H}, {bg, o, float(scale), T});
      std::vector<double> want(B * T * H), tol(B * T * H);
      auto at = [&](int64_t b, int64_t t, int64_t h) { return head_first ? (b * H + h) * T + t : (b * T + t) * H + h; };
      for (int64_t b = 0; b < B; ++b)
        for (int64_t h = 0; h < H; ++h)
          for (int64_t t = 0; t < T; ++t) {
            int64_t c0 = t / BT * BT, c1 = std::min(T, c0 + BT);
            double s = 0, chunk_abs = 0;
            for (int64_t x = c0; x < c1; ++x) chunk_abs += std::fabs(g[at(b, x, h)]);
            for (int64_t x = reverse ? t : c0; x <= (reverse ? c1 - 1 : t); ++x) s += g[at(b, x, h)];
            want[at(b, t, h)] = s * float(scale);
            tol[at(b, t, h)] = ((BT + 3) * chunk_abs * u + u * std::fabs(s)) * scale * 1.01;
          }
      std::string what = std::string("chunk-local cumsum") + (reverse ? " reverse" : " forward") + (head_first ? " head-first" : "");
      expect_within(widen(o.get()), want, tol, what);
      // The same through the decorators (Triton's kernel[grid](...)): the autotuner times
      // its four num_warps configs, the heuristic sets HAS_SCALE from `scale`, T is not
      // specialized.
      Output<float> o2(B * T * H);
      tritium::GridFn grid = [&](const tritium::Meta&) { return tritium::Grid(cdiv(T, BT), B * H); };
      int config = run_autotuned("fla_chunk_local_cumsum.py", "chunk_local_cumsum_scalar_kernel", grid,
                                 {tritium::Arg::tensor(bg, "fp32"), tritium::Arg::tensor(o2.buffer(), "fp32"), float(scale), T},
                                 {{"H", H}, {"BT", BT}, {"REVERSE", reverse}, {"HEAD_FIRST", head_first}});
      EXPECT_GE(config, 0);
      expect_within(widen(o2.get()), want, tol, what + " (Kernel::run)");
    }
}
