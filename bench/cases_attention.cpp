// cases_attention.cpp - FlashAttention forward cases (kernels/flash_attention.py):
// contiguous Q, K, V, Out [Z, H, N, D] of one dtype, LSE "M" [Z*H, N] fp32.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "cases_common.h"
#include "cost.h"
#include "ref/reference.h"

namespace tritium::bench::detail {
namespace {

constexpr double kU32 = 0x1.0p-24;
constexpr double kLog2e = 1.4426950408889634;
constexpr double kLn2 = 0.6931471805599453;

// Largest Euclidean norm of a length-D row over all Z*H*N rows.
double max_row_norm(const std::vector<double>& x, int64_t rows, int64_t D) {
  double best = 0;
  for (int64_t r = 0; r < rows; ++r) {
    double s = 0;
    for (int64_t d = 0; d < D; ++d) s += x[r * D + d] * x[r * D + d];
    best = std::max(best, std::sqrt(s));
  }
  return best;
}

struct AttnShape {
  int64_t Z, H, N, D;
  bool causal;
  int64_t block_m, block_n;
};

Problem make_attention(const std::string& id, HostDtype t, const AttnShape& sh, const NumericsContext& ctx) {
  const int64_t Z = sh.Z, H = sh.H, N = sh.N, D = sh.D;
  const int64_t rows = Z * H * N, count = rows * D;
  const double sm_scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(D)));  // passed as fp32
  Rng rng(seed_from(id));
  Problem pb;
  pb.arrays.push_back(random_array("q", t, count, rng, -2.0, 2.0));
  pb.arrays.push_back(random_array("k", t, count, rng, -2.0, 2.0));
  pb.arrays.push_back(random_array("v", t, count, rng, -1.0, 1.0));
  pb.arrays.push_back(poisoned_array("M", HostDtype::F32, rows));
  pb.arrays.push_back(poisoned_array("out", t, count));
  pb.args = {LaunchArg::buf(0), LaunchArg::buf(1), LaunchArg::buf(2), LaunchArg::real(sm_scale),
             LaunchArg::buf(3), LaunchArg::buf(4)};
  for (int i = 0; i < 4; ++i)  // Q, K, V, Out strides: z, h, sequence, head dim
    for (int64_t s : {H * N * D, N * D, D, int64_t{1}}) pb.args.push_back(LaunchArg::integer(s));
  for (int64_t v : {Z, H, N}) pb.args.push_back(LaunchArg::integer(v));

  const std::vector<double> q = pb.arrays[0].to_double(), k = pb.arrays[1].to_double(),
                            v = pb.arrays[2].to_double();
  Expected eo, el;
  eo.buffer = 4;
  el.buffer = 3;
  eo.ref.resize(count);
  el.ref.resize(rows);
  ref::ref_attention(q.data(), k.data(), v.data(), eo.ref.data(), el.ref.data(), Z, H, N, D, sm_scale,
                     sh.causal);

  // Error of one score in log2 units: a D-term fp32 dot product (random rounding,
  // ~2 sqrt(D) u32, or the tf32 operand rounding 2^-10 on NVIDIA fp32) of magnitude at most
  // |q_i| |k_j| <= Qn Kn (Cauchy-Schwarz), times sm_scale log2(e), plus the roundings of the
  // scale products (2 u32).
  const bool tf32 = ctx.dot_tf32 && t == HostDtype::F32;
  const double dot_rel = (2.0 * std::sqrt(static_cast<double>(D)) + 2.0) * kU32 + (tf32 ? 2.0 * 0x1.0p-11 : 0.0);
  const double s_max = sm_scale * kLog2e * max_row_norm(q, rows, D) * max_row_norm(k, rows, D);
  const double e_s = (dot_rel + 2.0 * kU32) * s_max;
  // Each probability p = exp2(s - m) errs by <= 2 e_s ln2 relative (s and m each off by
  // e_s) + exp2's few ulp, plus its rounding to V's dtype before P V (u of fp16/bf16; tf32:
  // P and V both rounded). The normalizer l carries the same error, and the N-term fp32
  // accumulations and the rescaling by alpha after each of the N / BLOCK_N key blocks add
  // ~sqrt(N) u32 and 2 u32 per block. All of it scales with mag = sum_j p_ij |v_jd|, bounded
  // here by max_j |v_jd| over the head.
  const double u_p = t == HostDtype::F32 ? (tf32 ? 2.0 * 0x1.0p-11 : 0.0) : unit_roundoff(t);
  const double root_n = std::sqrt(static_cast<double>(N));
  const double acc_rel = (16.0 + 4.0 * root_n + 2.0 * static_cast<double>(N) / static_cast<double>(sh.block_n)) * kU32;
  eo.mag.assign(count, 0.0);
  for (int64_t zh = 0; zh < Z * H; ++zh)
    for (int64_t d = 0; d < D; ++d) {
      double m = 0;
      for (int64_t j = 0; j < N; ++j) m = std::max(m, std::fabs(v[(zh * N + j) * D + d]));
      for (int64_t i = 0; i < N; ++i) eo.mag[(zh * N + i) * D + d] = m;
    }
  eo.tol = {min_subnormal(t), 2.0 * unit_roundoff(t), 4.0 * kLn2 * e_s + 8.0 * kU32 + u_p + acc_rel,
            "scores: (2 sqrt(D) + 4) u32 |q||k| scale; P: exp2 + cast to V dtype; (16 + 4 sqrt(N) + "
            "2 N/BLOCK_N) u32 accumulation; of max|v|; + 2 u_out relative"};
  // lse = m ln2 + log(l): the score error e_s (in natural-log units, twice), log of l's
  // relative error (accumulation as above), and the final roundings.
  el.tol = {2.0 * kLn2 * e_s + 8.0 * kU32 + acc_rel, 4.0 * kU32, 0.0,
            "score error (2 e_s ln2) + sum/rescale error of l (absolute on the log) + 4 u32 relative"};
  pb.expected.push_back(std::move(eo));
  pb.expected.push_back(std::move(el));
  return pb;
}

void add_attention(std::vector<Case>& out, HostDtype t, const AttnShape& sh, bool quick) {
  Case c;
  c.kernel = sh.causal ? "attention_causal" : "attention";
  c.file = "flash_attention.py";
  c.function = "attn_fwd_kernel";
  c.shape = fmt::format("{}x{}x{}x{}", sh.Z, sh.H, sh.N, sh.D);
  c.dtype = dtype_name(t);
  c.id = case_id(c.kernel, t, c.shape);
  const std::string p = ptr_spec(t), p32 = ptr_spec(HostDtype::F32);
  std::string strides;
  for (int i = 0; i < 4; ++i)
    for (int64_t s : {sh.H * sh.N * sh.D, sh.N * sh.D, sh.D, int64_t{1}}) strides += int_spec(s) + ", ";
  c.signature = fmt::format("{}, {}, {}, fp32, {}, {}, {}{}, {}, {}, {}, {}, {}, {}", p, p, p, p32, p,
                            strides, int_spec(sh.Z), int_spec(sh.H), int_spec(sh.N), sh.D, sh.block_m,
                            sh.block_n, sh.causal ? "True" : "False");
  c.grid = {cdiv(sh.N, sh.block_m), sh.Z * sh.H, 1};
  c.quick = quick;
  c.memory_bound = false;
  c.bytes = bytes_attention(sh.Z, sh.H, sh.N, sh.D, dtype_size(t));
  c.flops = flops_attention(sh.Z, sh.H, sh.N, sh.D, sh.causal);
  const std::string id = c.id;
  c.make = [id, t, sh](const NumericsContext& ctx) { return make_attention(id, t, sh, ctx); };
  out.push_back(std::move(c));
}

}  // namespace

void add_attention_cases(std::vector<Case>& out) {
  for (HostDtype t : kAllDtypes)
    for (bool causal : {false, true})
      for (int64_t D : {64, 128}) {
        // Small: ragged N (the last query and key blocks are masked), Z and H > 1.
        add_attention(out, t, {2, 2, 100, D, causal, 32, 16}, true);
        add_attention(out, t, {1, 4, 1024, D, causal, 64, 32}, false);
      }
}

}  // namespace tritium::bench::detail
