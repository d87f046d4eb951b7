// cases_elementwise.cpp - vector_add, swiglu and swiglu_rows cases (kernels/vector_add.py,
// kernels/swiglu.py) with their references, tolerances and byte counts.
#include <fmt/format.h>

#include "baselines_cpu.h"
#include "cases_common.h"
#include "cost.h"
#include "ref/reference.h"

namespace tritium::bench::detail {
namespace {

// vector_add computes x + y in the storage dtype: one correctly rounded addition, so the
// error is at most half an ulp of the result (u * |ref|). fp16/bf16 sums evaluated in fp32
// and rounded once more stay correctly rounded (fp32 has >= 2p + 2 bits, so double rounding
// is innocuous for +). We allow one full ulp (2u) for margin; no absolute part is needed:
// a sum that lands in the subnormal range is exact.
Tolerance vector_add_tol(HostDtype t) {
  return {0.0, 2.0 * unit_roundoff(t), 0.0,
          "one correctly rounded add in the storage dtype: <= 1 ulp relative"};
}

// swiglu computes g * sigmoid(g) * u in fp32: exp (a few ulp), 1 + e, a division and two
// multiplies, about 8 roundings of fp32 -> 16 u32 relative; then one rounding to the output
// dtype (2 u_out, i.e. 2^-10 for fp16). Results in the output's subnormal range add half
// its smallest subnormal in absolute terms (we allow a whole one).
Tolerance swiglu_tol(HostDtype out) {
  return {min_subnormal(out), 16.0 * unit_roundoff(HostDtype::F32) + 2.0 * unit_roundoff(out), 0.0,
          "~8 fp32 roundings (16 u32) + output rounding (2 u_out) relative, + 1 subnormal abs"};
}

// One flat binary elementwise kernel `fn(a_ptr, b_ptr, out_ptr, n, BLOCK_SIZE)` over n
// elements: the shape shared by vector_add and swiglu (inputs a, b drawn uniformly from
// their ranges, output poisoned, one float64 reference over the stored inputs).
struct BinaryElementwise {
  const char* kernel;
  const char* file;
  const char* function;
  const char* a_name;
  double a_lo, a_hi;
  const char* b_name;
  double b_lo, b_hi;
  double (*bytes)(int64_t n, size_t s);
  void (*ref)(const double* a, const double* b, double* out, int64_t n);
  Tolerance (*tol)(HostDtype out);
};

void add_binary_elementwise(std::vector<Case>& out, const BinaryElementwise& k, HostDtype t, int64_t n,
                            bool quick) {
  const int64_t block = 1024;
  Case c;
  c.kernel = k.kernel;
  c.file = k.file;
  c.function = k.function;
  c.shape = fmt::format("{}", n);
  c.dtype = dtype_name(t);
  c.id = case_id(c.kernel, t, c.shape);
  const std::string p = ptr_spec(t);
  c.signature = fmt::format("{}, {}, {}, {}, {}", p, p, p, int_spec(n), block);
  c.grid = {cdiv(n, block), 1, 1};
  c.even_programs = n % block == 0;
  c.quick = quick;
  c.bytes = k.bytes(n, dtype_size(t));
  const std::string id = c.id;
  c.make = [id, k, t, n](const NumericsContext&) {
    Rng rng(seed_from(id));
    Problem pb;
    pb.arrays.push_back(random_array(k.a_name, t, n, rng, k.a_lo, k.a_hi));
    pb.arrays.push_back(random_array(k.b_name, t, n, rng, k.b_lo, k.b_hi));
    pb.arrays.push_back(poisoned_array("out", t, n));
    pb.args = {LaunchArg::buf(0), LaunchArg::buf(1), LaunchArg::buf(2), LaunchArg::integer(n)};
    Expected e;
    e.buffer = 2;
    e.ref.resize(n);
    const std::vector<double> a = pb.arrays[0].to_double(), b = pb.arrays[1].to_double();
    k.ref(a.data(), b.data(), e.ref.data(), n);
    e.tol = k.tol(t);
    pb.expected.push_back(std::move(e));
    return pb;
  };
  const bool add = std::string(k.kernel) == "vector_add";
  c.baseline = baseline::kLoopName;
  c.run_baseline = [t, n, add](std::vector<HostArray>& a) {
    (add ? baseline::vector_add : baseline::swiglu)(t, a[0].bytes.data(), a[1].bytes.data(), a[2].bytes.data(), n);
  };
  out.push_back(std::move(c));
}

const BinaryElementwise kVectorAdd = {"vector_add", "vector_add.py", "add_kernel", "x", -4.0, 4.0, "y", -4.0, 4.0,
                                      bytes_vector_add, ref::ref_vector_add, vector_add_tol};
// gate spans both saturated ends of the sigmoid; up any sign.
const BinaryElementwise kSwiglu = {"swiglu", "swiglu.py", "swiglu_kernel", "gate", -6.0, 6.0, "up", -4.0, 4.0,
                                   bytes_swiglu, ref::ref_swiglu, swiglu_tol};

// swiglu_rows on a fused projection h = [rows, 2*cols]: gate = h, up = h + cols, both with
// row stride 2*cols; out is [rows, cols] contiguous.
void add_swiglu_rows(std::vector<Case>& out, HostDtype t, int64_t rows, int64_t cols, int64_t block,
                     bool quick) {
  Case c;
  c.kernel = "swiglu_rows";
  c.file = "swiglu.py";
  c.function = "swiglu_rows_kernel";
  c.shape = fmt::format("{}x{}", rows, cols);
  c.dtype = dtype_name(t);
  c.id = case_id(c.kernel, t, c.shape);
  const size_t s = dtype_size(t);
  const bool up_aligned = (static_cast<size_t>(cols) * s) % 16 == 0;
  c.signature = fmt::format("{}, {}, {}, {}, {}, {}, {}, {}", ptr_spec(t), ptr_spec(t, up_aligned),
                            ptr_spec(t), int_spec(2 * cols), int_spec(2 * cols), int_spec(cols),
                            int_spec(cols), block);
  c.grid = {rows, cdiv(cols, block), 1};
  c.even_programs = true;  // x is the row: every row alike
  c.quick = quick;
  c.bytes = bytes_swiglu(rows * cols, s);
  const std::string id = c.id;
  c.make = [id, t, rows, cols, s](const NumericsContext&) {
    Rng rng(seed_from(id));
    Problem pb;
    pb.arrays.push_back(random_array("h", t, rows * 2 * cols, rng, -5.0, 5.0));
    pb.arrays.push_back(poisoned_array("out", t, rows * cols));
    pb.args = {LaunchArg::buf(0), LaunchArg::buf(0, cols * s), LaunchArg::buf(1),
               LaunchArg::integer(2 * cols), LaunchArg::integer(2 * cols), LaunchArg::integer(cols),
               LaunchArg::integer(cols)};
    const std::vector<double> h = pb.arrays[0].to_double();
    std::vector<double> g(rows * cols), u(rows * cols);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < cols; ++j) {
        g[r * cols + j] = h[r * 2 * cols + j];
        u[r * cols + j] = h[r * 2 * cols + cols + j];
      }
    Expected e;
    e.buffer = 1;
    e.ref.resize(rows * cols);
    ref::ref_swiglu(g.data(), u.data(), e.ref.data(), rows * cols);
    e.tol = swiglu_tol(t);
    pb.expected.push_back(std::move(e));
    return pb;
  };
  out.push_back(std::move(c));
}

}  // namespace

void add_elementwise_cases(std::vector<Case>& out) {
  for (HostDtype t : kAllDtypes) {
    const int64_t large_n = kLargeArrayBytes / static_cast<int64_t>(dtype_size(t));
    add_binary_elementwise(out, kVectorAdd, t, 100003, true);  // ragged: the last program is masked
    add_binary_elementwise(out, kVectorAdd, t, large_n, false);
  }
  for (HostDtype t : kAllDtypes) {
    const int64_t large_n = kLargeArrayBytes / static_cast<int64_t>(dtype_size(t));
    add_binary_elementwise(out, kSwiglu, t, 100003, true);
    add_binary_elementwise(out, kSwiglu, t, large_n, false);
  }
  for (HostDtype t : kAllDtypes) {
    const int64_t large_rows = kLargeArrayBytes / static_cast<int64_t>(dtype_size(t)) / 4096;
    add_swiglu_rows(out, t, 33, 999, 256, true);  // odd width: unaligned up pointer, ragged blocks
    add_swiglu_rows(out, t, large_rows, 4096, 1024, false);
  }
}

}  // namespace tritium::bench::detail
