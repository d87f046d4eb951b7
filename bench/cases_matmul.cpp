// cases_matmul.cpp - matmul cases (kernels/matmul.py): row-major contiguous A [M, K],
// B [K, N], C [M, N] of one dtype, fp32 accumulation in tl.dot.
#include <fmt/format.h>

#include "baselines_cpu.h"
#include "baselines_cuda.h"
#include "cases_common.h"
#include "cost.h"
#include "ref/reference.h"

namespace tritium::bench::detail {
namespace {

constexpr double kU32 = 0x1.0p-24;

// The classic dot-product bound: accumulating K products in fp32 in any order errs by at
// most gamma_K ~ K u32 times sum_k |a_ik| |b_kj| (fp16/bf16 products are exact in fp32; fp32
// products add one rounding, hence K + 2). fp32 operands on a tf32 target are rounded to 10
// mantissa bits first: 2 * 2^-11 more on the same magnitude. Then C is rounded to its dtype.
Tolerance matmul_tol(HostDtype t, int64_t K, const NumericsContext& ctx) {
  const bool tf32 = ctx.dot_tf32 && t == HostDtype::F32;
  Tolerance tol;
  tol.abs = min_subnormal(t);
  tol.rel = 2.0 * unit_roundoff(t);
  tol.mag_rel = static_cast<double>(K + 2) * kU32 + (tf32 ? 2.0 * 0x1.0p-11 : 0.0);
  tol.reason = tf32 ? "(K + 2) u32 + 2^-10 (tf32 operands) of sum|a||b|, + 2 u_out relative"
                    : "(K + 2) u32 of sum_k |a_ik||b_kj| (fp32 accumulation), + 2 u_out relative";
  return tol;
}

void add_matmul(std::vector<Case>& out, HostDtype t, int64_t M, int64_t N, int64_t K, int64_t bm,
                int64_t bn, int64_t bk, int64_t group, bool quick) {
  Case c;
  c.kernel = "matmul";
  c.file = "matmul.py";
  c.function = "matmul_kernel";
  c.shape = fmt::format("{}x{}x{}", M, N, K);
  c.dtype = dtype_name(t);
  c.id = case_id(c.kernel, t, c.shape);
  const std::string p = ptr_spec(t);
  // strides: A (K, 1), B (N, 1), C (N, 1); the unit strides specialize as "i32:1" the way
  // Triton's JIT does.
  c.signature = fmt::format("{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}", p, p, p,
                            int_spec(M), int_spec(N), int_spec(K), int_spec(K), int_spec(1), int_spec(N),
                            int_spec(1), int_spec(N), int_spec(1), bm, bn, bk, group);
  c.grid = {cdiv(M, bm) * cdiv(N, bn), 1, 1};
  c.quick = quick;
  c.memory_bound = false;
  c.bytes = bytes_matmul(M, N, K, dtype_size(t), dtype_size(t));
  c.flops = flops_matmul(M, N, K);
  const std::string id = c.id;
  c.make = [id, t, M, N, K](const NumericsContext& ctx) {
    Rng rng(seed_from(id));
    Problem pb;
    pb.arrays.push_back(random_array("a", t, M * K, rng, -1.0, 1.0));
    pb.arrays.push_back(random_array("b", t, K * N, rng, -1.0, 1.0));
    pb.arrays.push_back(poisoned_array("c", t, M * N));
    pb.args = {LaunchArg::buf(0), LaunchArg::buf(1), LaunchArg::buf(2), LaunchArg::integer(M),
               LaunchArg::integer(N), LaunchArg::integer(K), LaunchArg::integer(K), LaunchArg::integer(1),
               LaunchArg::integer(N), LaunchArg::integer(1), LaunchArg::integer(N), LaunchArg::integer(1)};
    const std::vector<double> a = pb.arrays[0].to_double(), b = pb.arrays[1].to_double();
    Expected e;
    e.buffer = 2;
    e.ref.resize(M * N);
    e.mag.resize(M * N);
    ref::ref_matmul(a.data(), b.data(), e.ref.data(), M, N, K);
    const std::vector<double> abs_a = abs_values(a), abs_b = abs_values(b);
    ref::ref_matmul(abs_a.data(), abs_b.data(), e.mag.data(), M, N, K);
    e.tol = matmul_tol(t, K, ctx);
    pb.expected.push_back(std::move(e));
    return pb;
  };
  if (baseline::have_blas()) {
    c.baseline = baseline::kBlasName;
    c.run_baseline = [t, M, N, K](std::vector<HostArray>& a) {
      baseline::matmul(t, a[0].bytes.data(), a[1].bytes.data(), a[2].bytes.data(), M, N, K);
    };
  }
  c.cuda_baseline = baseline::kCublasName;
  c.run_cuda_baseline = [t, M, N, K](const std::vector<void*>& p, const NumericsContext& ctx) {
    baseline::cublas_matmul(t, p[0], p[1], p[2], M, N, K, ctx.dot_tf32);
  };
  out.push_back(std::move(c));
}

}  // namespace

void add_matmul_cases(std::vector<Case>& out) {
  for (HostDtype t : kAllDtypes) {
    // Ragged in M, N and K: every edge mask is exercised.
    add_matmul(out, t, 97, 75, 83, 32, 32, 32, 4, true);
    add_matmul(out, t, 512, 512, 512, 64, 64, 32, 8, false);
  }
}

}  // namespace tritium::bench::detail
