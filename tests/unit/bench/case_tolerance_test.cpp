// Tests that the suite's tolerances are neither too tight nor too loose: for quick cases, a
// straightforward fp32 implementation written here (sequential sums, the worst usual order)
// must pass against the case's float64 reference, and the same output with one realistic
// bug (a NaN left in, a few ulp off, an off-by-one mask, the unbiased variance) must fail.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/suite.h"

namespace {

using namespace tritium::bench;
using Outputs = std::map<int, std::vector<double>>;  // array index -> values

const Case& find_case(const std::string& id) {
  static const std::vector<Case> cases = all_cases();
  for (const Case& c : cases)
    if (c.id == id) return c;
  throw std::runtime_error("no case " + id);
}

// Every output checked; all must pass.
bool all_pass(const Problem& pb, const Outputs& got) {
  bool ok = true;
  for (const Expected& e : pb.expected) ok = ok && check_output(got.at(e.buffer), e.ref, e.mag, e.tol).passed();
  return ok;
}

float in(const Problem& pb, int array, size_t i) { return static_cast<float>(pb.arrays[array].get(i)); }
double store(const Problem& pb, int array, float v) { return round_to_dtype(v, pb.arrays[array].dtype); }
int64_t arg_int(const Problem& pb, size_t k) { return pb.args.at(k).i; }

// ---------------------------------------------------------------- fp32 implementations

Outputs sim_vector_add(const Problem& pb) {
  Outputs o;
  auto& out = o[2];
  for (size_t i = 0; i < pb.arrays[2].count; ++i) out.push_back(store(pb, 2, in(pb, 0, i) + in(pb, 1, i)));
  return o;
}

// `drop_last` leaves the last column out of the sum (a ragged-block mask bug).
Outputs sim_softmax(const Problem& pb, bool drop_last = false) {  // args: out, in, in_stride, out_stride, n_cols
  const int64_t stride = arg_int(pb, 2), cols = arg_int(pb, 4);
  const int64_t rows = static_cast<int64_t>(pb.arrays[1].count) / cols;
  Outputs o;
  auto& out = o[1];
  for (int64_t r = 0; r < rows; ++r) {
    float m = -INFINITY, l = 0;
    for (int64_t j = 0; j < cols; ++j) m = std::fmax(m, in(pb, 0, r * stride + j));
    for (int64_t j = 0; j < cols - (drop_last ? 1 : 0); ++j) l += std::exp(in(pb, 0, r * stride + j) - m);
    for (int64_t j = 0; j < cols; ++j) out.push_back(store(pb, 1, std::exp(in(pb, 0, r * stride + j) - m) / l));
  }
  return o;
}

// Every element of output `buffer` scaled by 1 + 2 rel (twice the relative tolerance) and
// rounded to the output dtype again.
Outputs scaled_past_tolerance(const Problem& pb, Outputs got, int buffer) {
  for (const Expected& e : pb.expected)
    if (e.buffer == buffer)
      for (double& v : got[buffer]) v = round_to_dtype(v * (1.0 + 2.0 * e.tol.rel), pb.arrays[buffer].dtype);
  return got;
}

Outputs sim_matmul(const Problem& pb) {  // args: a, b, c, M, N, K, ...
  const int64_t M = arg_int(pb, 3), N = arg_int(pb, 4), K = arg_int(pb, 5);
  Outputs o;
  auto& c = o[2];
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      float acc = 0;
      for (int64_t k = 0; k < K; ++k) acc += in(pb, 0, m * K + k) * in(pb, 1, k * N + n);
      c.push_back(store(pb, 2, acc));
    }
  return o;
}

Outputs sim_layernorm(const Problem& pb, bool unbiased_bug) {
  const int64_t stride = arg_int(pb, 6), cols = arg_int(pb, 8);
  const float eps = static_cast<float>(pb.args.at(9).f);
  const int64_t rows = static_cast<int64_t>(pb.arrays[4].count);
  Outputs o;
  for (int64_t r = 0; r < rows; ++r) {
    float s = 0, v = 0;
    for (int64_t j = 0; j < cols; ++j) s += in(pb, 0, r * stride + j);
    const float mean = s / static_cast<float>(cols);
    for (int64_t j = 0; j < cols; ++j) {
      const float d = in(pb, 0, r * stride + j) - mean;
      v += d * d;
    }
    const float var = v / static_cast<float>(unbiased_bug ? cols - 1 : cols);
    const float rstd = 1.0f / std::sqrt(var + eps);
    for (int64_t j = 0; j < cols; ++j)
      o[3].push_back(store(pb, 3, (in(pb, 0, r * stride + j) - mean) * rstd * in(pb, 1, j) + in(pb, 2, j)));
    o[4].push_back(mean);
    o[5].push_back(rstd);
  }
  return o;
}

Outputs sim_rmsnorm(const Problem& pb) {
  const int64_t stride = arg_int(pb, 3), cols = arg_int(pb, 5);
  const float eps = static_cast<float>(pb.args.at(6).f);
  const int64_t rows = static_cast<int64_t>(pb.arrays[2].count) / cols;
  Outputs o;
  for (int64_t r = 0; r < rows; ++r) {
    float s = 0;
    for (int64_t j = 0; j < cols; ++j) s += in(pb, 0, r * stride + j) * in(pb, 0, r * stride + j);
    const float rstd = 1.0f / std::sqrt(s / static_cast<float>(cols) + eps);
    for (int64_t j = 0; j < cols; ++j) o[2].push_back(store(pb, 2, in(pb, 0, r * stride + j) * rstd * in(pb, 1, j)));
  }
  return o;
}

Outputs sim_swiglu(const Problem& pb) {
  Outputs o;
  for (size_t i = 0; i < pb.arrays[2].count; ++i) {
    const float g = in(pb, 0, i), u = in(pb, 1, i);
    o[2].push_back(store(pb, 2, g * (1.0f / (1.0f + std::exp(-g))) * u));
  }
  return o;
}

// Plain attention, one query row at a time; `extra_key` attends one key past the causal
// diagonal (an off-by-one mask bug).
Outputs sim_attention(const Problem& pb, bool causal, bool extra_key = false) {
  const float scale = static_cast<float>(pb.args.at(3).f);
  const int64_t Z = arg_int(pb, 22), H = arg_int(pb, 23), N = arg_int(pb, 24);
  const int64_t D = static_cast<int64_t>(pb.arrays[0].count) / (Z * H * N);
  std::vector<float> q(pb.arrays[0].count), k(q.size()), v(q.size());
  for (size_t i = 0; i < q.size(); ++i) {
    q[i] = in(pb, 0, i);
    k[i] = in(pb, 1, i);
    v[i] = in(pb, 2, i);
  }
  Outputs o;
  auto& out = o[4];
  auto& lse = o[3];
  out.assign(Z * H * N * D, 0.0);
  for (int64_t zh = 0; zh < Z * H; ++zh)
    for (int64_t i = 0; i < N; ++i) {
      const int64_t last = causal ? std::min(N - 1, i + (extra_key ? 1 : 0)) : N - 1;
      std::vector<float> s(last + 1);
      float m = -INFINITY;
      for (int64_t j = 0; j <= last; ++j) {
        float dot = 0;
        for (int64_t d = 0; d < D; ++d) dot += q[(zh * N + i) * D + d] * k[(zh * N + j) * D + d];
        s[j] = dot * scale;
        m = std::fmax(m, s[j]);
      }
      float l = 0;
      std::vector<float> acc(D, 0.0f);
      for (int64_t j = 0; j <= last; ++j) {
        const float p = std::exp(s[j] - m);
        l += p;
        const float p_cast = static_cast<float>(round_to_dtype(p, pb.arrays[2].dtype));  // P in V's dtype
        for (int64_t d = 0; d < D; ++d) acc[d] += p_cast * v[(zh * N + j) * D + d];
      }
      for (int64_t d = 0; d < D; ++d) out[(zh * N + i) * D + d] = store(pb, 4, acc[d] / l);
      lse.push_back(m + std::log(l));
    }
  return o;
}

// ---------------------------------------------------------------- tests

TEST(BenchCaseTolerance, VectorAdd) {
  for (const char* id : {"vector_add/fp32/100003", "vector_add/fp16/100003", "vector_add/bf16/100003"}) {
    const Problem pb = find_case(id).make(NumericsContext{});
    Outputs got = sim_vector_add(pb);
    EXPECT_TRUE(all_pass(pb, got)) << id;
    got[2][777] = std::nan("");  // an element left unwritten (poison) or a NaN produced
    EXPECT_FALSE(all_pass(pb, got)) << id;
  }
  // Four ulp off in fp32 is not a rounding difference.
  const Problem pb = find_case("vector_add/fp32/100003").make(NumericsContext{});
  Outputs got = sim_vector_add(pb);
  got[2][5] = got[2][5] * (1.0 + std::ldexp(1.0, -21));
  EXPECT_FALSE(all_pass(pb, got));
}

TEST(BenchCaseTolerance, Softmax) {
  for (const char* id : {"softmax/fp32/64x1000", "softmax/fp16/64x1000", "softmax_online/bf16/37x3000",
                         "softmax_online/fp32/37x3000"}) {
    const Problem pb = find_case(id).make(NumericsContext{});
    Outputs got = sim_softmax(pb);
    EXPECT_TRUE(all_pass(pb, got)) << id;
    EXPECT_FALSE(all_pass(pb, scaled_past_tolerance(pb, got, 1))) << id;
    got[1][123] = std::nan("");
    EXPECT_FALSE(all_pass(pb, got)) << id;
  }
  // fp16 output: 4 ulp off fails (the bound is ~1 ulp of fp16 plus fp32-level terms).
  const Problem pb16 = find_case("softmax/fp16/64x1000").make(NumericsContext{});
  Outputs got16 = sim_softmax(pb16);
  for (double& v : got16[1]) v *= 1.0 + 8.0 * unit_roundoff(HostDtype::F16);
  EXPECT_FALSE(all_pass(pb16, got16));
  // A row sum that misses its last column (a mask bug in the ragged block) fails in fp32 and
  // fp16 (in bf16 the ~1/cols error hides below the output's rounding).
  for (const char* id : {"softmax/fp32/64x1000", "softmax/fp16/64x1000", "softmax_online/fp32/37x3000"}) {
    const Problem pb = find_case(id).make(NumericsContext{});
    EXPECT_FALSE(all_pass(pb, sim_softmax(pb, true))) << id;
  }
}

TEST(BenchCaseTolerance, RmsnormAndSwiglu) {
  for (const char* id : {"rmsnorm/fp32/64x1000", "rmsnorm/fp16/64x1000", "rmsnorm/bf16/64x1000"}) {
    const Problem pb = find_case(id).make(NumericsContext{});
    Outputs got = sim_rmsnorm(pb);
    EXPECT_TRUE(all_pass(pb, got)) << id;
    EXPECT_FALSE(all_pass(pb, scaled_past_tolerance(pb, got, 2))) << id;
    got[2][64 * 1000 - 1] = std::nan("");  // the last element (a ragged final block) not written
    EXPECT_FALSE(all_pass(pb, got)) << id;
  }
  for (const char* id : {"swiglu/fp32/100003", "swiglu/fp16/100003", "swiglu/bf16/100003",
                         "swiglu_rows/fp32/33x999", "swiglu_rows/bf16/33x999"}) {
    const Problem pb = find_case(id).make(NumericsContext{});
    // swiglu_rows: gate and up are the two halves of each row of h.
    Problem flat = pb;
    if (pb.arrays.size() == 2) {
      const int64_t cols = arg_int(pb, 6), rows = static_cast<int64_t>(pb.arrays[1].count) / cols;
      const HostDtype t = pb.arrays[0].dtype;
      flat.arrays = {poisoned_array("gate", t, rows * cols), poisoned_array("up", t, rows * cols), pb.arrays[1]};
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < cols; ++j) {
          flat.arrays[0].set(r * cols + j, pb.arrays[0].get(r * 2 * cols + j));
          flat.arrays[1].set(r * cols + j, pb.arrays[0].get(r * 2 * cols + cols + j));
        }
      flat.expected[0].buffer = 2;
    }
    Outputs got = sim_swiglu(flat);
    EXPECT_TRUE(all_pass(flat, got)) << id;
    EXPECT_FALSE(all_pass(flat, scaled_past_tolerance(flat, got, 2))) << id;
  }
}

TEST(BenchCaseTolerance, LayernormCatchesTheUnbiasedVariance) {
  for (const char* id : {"layernorm/fp32/50x777", "layernorm/bf16/50x777"}) {
    const Problem pb = find_case(id).make(NumericsContext{});
    EXPECT_TRUE(all_pass(pb, sim_layernorm(pb, false))) << id;
    EXPECT_FALSE(all_pass(pb, sim_layernorm(pb, true))) << id;  // rstd off by sqrt(n / (n - 1))
  }
}

TEST(BenchCaseTolerance, Matmul) {
  for (const char* id : {"matmul/fp32/97x75x83", "matmul/fp16/97x75x83", "matmul/bf16/97x75x83"}) {
    const Problem pb = find_case(id).make(NumericsContext{});
    Outputs got = sim_matmul(pb);
    EXPECT_TRUE(all_pass(pb, got)) << id;
    // Dropping the ragged last k (a K-edge mask bug) must fail.
    // Shown at the element where that last product is largest.
    const int64_t M = 97, N = 75, K = 83;
    int64_t m_best = 0, n_best = 0;
    for (int64_t m = 1; m < M; ++m)
      if (std::fabs(pb.arrays[0].get(m * K + K - 1)) > std::fabs(pb.arrays[0].get(m_best * K + K - 1))) m_best = m;
    for (int64_t n = 1; n < N; ++n)
      if (std::fabs(pb.arrays[1].get((K - 1) * N + n)) > std::fabs(pb.arrays[1].get((K - 1) * N + n_best))) n_best = n;
    Outputs bug = got;
    double& c = bug[2][m_best * N + n_best];
    c = round_to_dtype(c - pb.arrays[0].get(m_best * K + K - 1) * pb.arrays[1].get((K - 1) * N + n_best),
                       pb.arrays[2].dtype);
    EXPECT_FALSE(all_pass(pb, bug)) << id;
  }
}

TEST(BenchCaseTolerance, AttentionFullAndCausal) {
  for (const char* id : {"attention/fp32/2x2x100x64", "attention/fp16/2x2x100x128", "attention/bf16/2x2x100x64"}) {
    const Problem pb = find_case(id).make(NumericsContext{});
    Outputs got = sim_attention(pb, false);
    EXPECT_TRUE(all_pass(pb, got)) << id;
    got[3][7] += 0.01;  // a wrong log-sum-exp
    EXPECT_FALSE(all_pass(pb, got)) << id;
  }
  for (const char* id : {"attention_causal/fp32/2x2x100x128", "attention_causal/fp16/2x2x100x64",
                         "attention_causal/bf16/2x2x100x128"}) {
    const Problem pb = find_case(id).make(NumericsContext{});
    EXPECT_TRUE(all_pass(pb, sim_attention(pb, true))) << id;
    // Check the output alone too: the off-by-one mask must show in O, not only in the LSE.
    const Outputs bug = sim_attention(pb, true, true);
    EXPECT_FALSE(all_pass(pb, bug)) << id;
    const Expected& eo = pb.expected[0];
    ASSERT_EQ(eo.buffer, 4);
    EXPECT_FALSE(check_output(bug.at(4), eo.ref, eo.mag, eo.tol).passed()) << id;
  }
}

TEST(BenchCaseTolerance, Tf32WidensOnlyFp32Dot) {
  NumericsContext tf32;
  tf32.dot_tf32 = true;
  const Problem a = find_case("matmul/fp32/97x75x83").make(NumericsContext{});
  const Problem b = find_case("matmul/fp32/97x75x83").make(tf32);
  EXPECT_GT(b.expected[0].tol.mag_rel, a.expected[0].tol.mag_rel);
  const Problem c = find_case("matmul/fp16/97x75x83").make(NumericsContext{});
  const Problem d = find_case("matmul/fp16/97x75x83").make(tf32);
  EXPECT_EQ(c.expected[0].tol.mag_rel, d.expected[0].tol.mag_rel);
}

}  // namespace
