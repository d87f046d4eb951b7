// cases_rowwise.cpp - softmax (single-pass and online), rmsnorm and layernorm cases
// (kernels/softmax.py, rmsnorm.py, layernorm.py): one program per row.
//
// Inputs are [rows, cols] with a row stride x_stride >= cols (the small cases pad rows so
// the stride differs from the width); outputs are contiguous [rows, cols].
#include <cmath>

#include <fmt/format.h>

#include "baselines_cpu.h"
#include "cases_common.h"
#include "cost.h"
#include "ref/reference.h"

namespace tritium::bench::detail {
namespace {

constexpr double kU32 = 0x1.0p-24;  // unit roundoff of fp32, the dtype all the math runs in

// The [rows, cols] values of a row-strided input, gathered contiguously.
std::vector<double> gather_rows(const HostArray& a, int64_t rows, int64_t cols, int64_t stride) {
  std::vector<double> out(rows * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < cols; ++j) out[r * cols + j] = a.get(r * stride + j);
  return out;
}

// softmax, fp32 math, inputs in [-4, 4]: x - max has error <= 8 u (|x - max| <= 8), which the
// exponential turns into <= 8 u relative; exp itself a few ulp; the sum of n positive terms
// (blocked / tree order) a relative error growing like sqrt(n) u for random rounding (the
// worst case n u is not reached in practice); one division. Then the output rounding (2 u_out)
// and half a subnormal of the output for values that underflow (small fp16 probabilities).
Tolerance softmax_tol(int64_t n, HostDtype out) {
  return {min_subnormal(out), (16.0 + 2.0 * std::sqrt(static_cast<double>(n))) * kU32 + 2.0 * unit_roundoff(out),
          0.0, "(16 + 2 sqrt(n)) u32 (exp, n-term sum, divide) + 2 u_out relative, + 1 subnormal abs"};
}

// rmsnorm, fp32 math: the sum of n squares (positive terms, ~sqrt(n) u), mean, add eps,
// rsqrt (a few ulp), two multiplies; then the output rounding.
Tolerance rmsnorm_tol(int64_t n, HostDtype out) {
  return {min_subnormal(out), (8.0 + 2.0 * std::sqrt(static_cast<double>(n))) * kU32 + 2.0 * unit_roundoff(out),
          0.0, "(8 + 2 sqrt(n)) u32 (sum of squares, rsqrt, scale) + 2 u_out relative, + 1 subnormal abs"};
}

void fill_case(Case& c, const std::string& kernel, const std::string& file, const std::string& function,
               HostDtype t, int64_t rows, int64_t cols, bool quick) {
  c.kernel = kernel;
  c.file = file;
  c.function = function;
  c.shape = fmt::format("{}x{}", rows, cols);
  c.dtype = dtype_name(t);
  c.id = case_id(kernel, t, c.shape);
  c.grid = {rows, 1, 1};
  c.even_programs = true;  // one program per row, every row alike (the weights are a small share)
  c.quick = quick;
}

void add_softmax(std::vector<Case>& out, bool online, HostDtype t, int64_t rows, int64_t cols,
                 int64_t x_stride, int64_t block, bool quick) {
  Case c;
  fill_case(c, online ? "softmax_online" : "softmax", "softmax.py",
            online ? "softmax_online_kernel" : "softmax_kernel", t, rows, cols, quick);
  const std::string p = ptr_spec(t);
  c.signature = fmt::format("{}, {}, {}, {}, {}, {}", p, p, int_spec(x_stride), int_spec(cols),
                            int_spec(cols), block);
  c.bytes = bytes_softmax(rows, cols, dtype_size(t), dtype_size(t));
  const std::string id = c.id;
  c.make = [id, t, rows, cols, x_stride](const NumericsContext&) {
    Rng rng(seed_from(id));
    Problem pb;
    pb.arrays.push_back(random_array("in", t, rows * x_stride, rng, -4.0, 4.0));
    pb.arrays.push_back(poisoned_array("out", t, rows * cols));
    pb.args = {LaunchArg::buf(1), LaunchArg::buf(0), LaunchArg::integer(x_stride),
               LaunchArg::integer(cols), LaunchArg::integer(cols)};
    const std::vector<double> x = gather_rows(pb.arrays[0], rows, cols, x_stride);
    Expected e;
    e.buffer = 1;
    e.ref.resize(rows * cols);
    ref::ref_softmax(x.data(), e.ref.data(), rows, cols);
    e.tol = softmax_tol(cols, t);
    pb.expected.push_back(std::move(e));
    return pb;
  };
  c.baseline = baseline::kLoopName;
  c.run_baseline = [t, rows, cols, x_stride](std::vector<HostArray>& a) {
    baseline::softmax(t, a[0].bytes.data(), a[1].bytes.data(), rows, cols, x_stride);
  };
  out.push_back(std::move(c));
}

void add_rmsnorm(std::vector<Case>& out, HostDtype t, int64_t rows, int64_t cols, int64_t x_stride,
                 int64_t block, bool quick) {
  Case c;
  fill_case(c, "rmsnorm", "rmsnorm.py", "rmsnorm_kernel", t, rows, cols, quick);
  const std::string p = ptr_spec(t);
  c.signature = fmt::format("{}, {}, {}, {}, {}, {}, fp32, {}", p, p, p, int_spec(x_stride),
                            int_spec(cols), int_spec(cols), block);
  c.bytes = bytes_rmsnorm(rows, cols, dtype_size(t), dtype_size(t), dtype_size(t));
  const std::string id = c.id;
  c.make = [id, t, rows, cols, x_stride](const NumericsContext&) {
    const double eps = static_cast<float>(1e-6);  // the kernel receives eps as fp32
    Rng rng(seed_from(id));
    Problem pb;
    pb.arrays.push_back(random_array("x", t, rows * x_stride, rng, -2.0, 2.0));
    pb.arrays.push_back(random_array("w", t, cols, rng, 0.5, 1.5));
    pb.arrays.push_back(poisoned_array("y", t, rows * cols));
    pb.args = {LaunchArg::buf(0), LaunchArg::buf(1), LaunchArg::buf(2), LaunchArg::integer(x_stride),
               LaunchArg::integer(cols), LaunchArg::integer(cols), LaunchArg::real(eps)};
    const std::vector<double> x = gather_rows(pb.arrays[0], rows, cols, x_stride);
    const std::vector<double> w = pb.arrays[1].to_double();
    Expected e;
    e.buffer = 2;
    e.ref.resize(rows * cols);
    ref::ref_rmsnorm(x.data(), w.data(), e.ref.data(), rows, cols, eps);
    e.tol = rmsnorm_tol(cols, t);
    pb.expected.push_back(std::move(e));
    return pb;
  };
  c.baseline = baseline::kLoopName;
  c.run_baseline = [t, rows, cols, x_stride](std::vector<HostArray>& a) {
    baseline::rmsnorm(t, a[0].bytes.data(), a[1].bytes.data(), a[2].bytes.data(), rows, cols, x_stride,
                      static_cast<float>(1e-6));
  };
  out.push_back(std::move(c));
}

// layernorm, fp32 math. y = (x - mean) * rstd * w + b can be far smaller than its terms, so
// its error is bounded against mag = |xhat w| + |b| + rstd |w| mean|x|: the mean's error
// (~sqrt(n) u32 mean|x|) scaled by rstd |w|, the rstd error (~sqrt(n) u32 relative) on
// |xhat w|, and a few roundings on every term. mean and rstd (fp32 outputs) get the
// reduction bound of their sums.
void add_layernorm(std::vector<Case>& out, HostDtype t, int64_t rows, int64_t cols, int64_t x_stride,
                   int64_t block, bool quick) {
  Case c;
  fill_case(c, "layernorm", "layernorm.py", "layernorm_kernel", t, rows, cols, quick);
  const std::string p = ptr_spec(t), p32 = ptr_spec(HostDtype::F32);
  c.signature = fmt::format("{}, {}, {}, {}, {}, {}, {}, {}, {}, fp32, {}", p, p, p, p, p32, p32,
                            int_spec(x_stride), int_spec(cols), int_spec(cols), block);
  c.bytes = bytes_layernorm(rows, cols, dtype_size(t), dtype_size(t), dtype_size(t));
  const std::string id = c.id;
  c.make = [id, t, rows, cols, x_stride](const NumericsContext&) {
    const double eps = static_cast<float>(1e-5);  // the kernel receives eps as fp32
    const double root_n = std::sqrt(static_cast<double>(cols));
    Rng rng(seed_from(id));
    Problem pb;
    // An offset mean (x in [-1.5, 2.5]) so that the centring matters.
    pb.arrays.push_back(random_array("x", t, rows * x_stride, rng, -1.5, 2.5));
    pb.arrays.push_back(random_array("w", t, cols, rng, 0.5, 1.5));
    pb.arrays.push_back(random_array("b", t, cols, rng, -0.5, 0.5));
    pb.arrays.push_back(poisoned_array("y", t, rows * cols));
    pb.arrays.push_back(poisoned_array("mean", HostDtype::F32, rows));
    pb.arrays.push_back(poisoned_array("rstd", HostDtype::F32, rows));
    pb.args = {LaunchArg::buf(0), LaunchArg::buf(1), LaunchArg::buf(2), LaunchArg::buf(3),
               LaunchArg::buf(4), LaunchArg::buf(5), LaunchArg::integer(x_stride),
               LaunchArg::integer(cols), LaunchArg::integer(cols), LaunchArg::real(eps)};
    const std::vector<double> x = gather_rows(pb.arrays[0], rows, cols, x_stride);
    const std::vector<double> w = pb.arrays[1].to_double(), b = pb.arrays[2].to_double();
    Expected ey, em, er;
    ey.buffer = 3;
    em.buffer = 4;
    er.buffer = 5;
    ey.ref.resize(rows * cols);
    em.ref.resize(rows);
    er.ref.resize(rows);
    ref::ref_layernorm(x.data(), w.data(), b.data(), ey.ref.data(), em.ref.data(), er.ref.data(), rows,
                       cols, eps);
    ey.mag.resize(rows * cols);
    em.mag.resize(rows);
    for (int64_t r = 0; r < rows; ++r) {
      double mean_abs = 0;
      for (int64_t j = 0; j < cols; ++j) mean_abs += std::fabs(x[r * cols + j]);
      mean_abs /= static_cast<double>(cols);
      em.mag[r] = mean_abs;
      for (int64_t j = 0; j < cols; ++j) {
        const double xhat = (x[r * cols + j] - em.ref[r]) * er.ref[r];
        ey.mag[r * cols + j] = std::fabs(xhat * w[j]) + std::fabs(b[j]) + er.ref[r] * std::fabs(w[j]) * mean_abs;
      }
    }
    ey.tol = {min_subnormal(t), 2.0 * unit_roundoff(t), (8.0 + 2.0 * root_n) * kU32,
              "(8 + 2 sqrt(n)) u32 of |xhat w| + |b| + rstd |w| mean|x| (mean, rstd, affine) + 2 u_out relative"};
    em.tol = {0.0, 2.0 * kU32, (4.0 + 2.0 * root_n) * kU32,
              "n-term sum: (4 + 2 sqrt(n)) u32 of mean|x|, + 2 u32 relative"};
    er.tol = {0.0, (8.0 + 2.0 * root_n) * kU32, 0.0,
              "two n-term sums, sqrt: (8 + 2 sqrt(n)) u32 relative"};
    pb.expected.push_back(std::move(ey));
    pb.expected.push_back(std::move(em));
    pb.expected.push_back(std::move(er));
    return pb;
  };
  c.baseline = baseline::kLoopName;
  c.run_baseline = [t, rows, cols, x_stride](std::vector<HostArray>& a) {
    baseline::layernorm(t, a[0].bytes.data(), a[1].bytes.data(), a[2].bytes.data(), a[3].bytes.data(),
                        reinterpret_cast<float*>(a[4].bytes.data()), reinterpret_cast<float*>(a[5].bytes.data()),
                        rows, cols, x_stride, static_cast<float>(1e-5));
  };
  out.push_back(std::move(c));
}

}  // namespace

void add_rowwise_cases(std::vector<Case>& out) {
  for (HostDtype t : kAllDtypes) {
    const int64_t large_elems = kLargeArrayBytes / static_cast<int64_t>(dtype_size(t));
    // Single pass: the whole row in one block (BLOCK_SIZE = next power of two >= cols).
    add_softmax(out, false, t, 64, 1000, 1024, next_pow2(1000), true);
    add_softmax(out, false, t, large_elems / 4096, 4096, 4096, 4096, false);
  }
  for (HostDtype t : kAllDtypes) {
    const int64_t large_elems = kLargeArrayBytes / static_cast<int64_t>(dtype_size(t));
    // Online: rows longer than the block; the small case ends in a ragged block.
    add_softmax(out, true, t, 37, 3000, 3000, 512, true);
    add_softmax(out, true, t, large_elems / 16384, 16384, 16384, 1024, false);
  }
  for (HostDtype t : kAllDtypes) {
    const int64_t large_elems = kLargeArrayBytes / static_cast<int64_t>(dtype_size(t));
    add_rmsnorm(out, t, 64, 1000, 1008, 256, true);
    add_rmsnorm(out, t, large_elems / 4096, 4096, 4096, 1024, false);
  }
  for (HostDtype t : kAllDtypes) {
    const int64_t large_elems = kLargeArrayBytes / static_cast<int64_t>(dtype_size(t));
    add_layernorm(out, t, 50, 777, 781, 256, true);
    add_layernorm(out, t, large_elems / 4096, 4096, 4096, 1024, false);
  }
}

}  // namespace tritium::bench::detail
