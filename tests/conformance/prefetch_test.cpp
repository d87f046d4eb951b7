// Next-program prefetch on the CPU backend (the prelude's tr_pf): a top-level rank-1 load
// read in place predicts the next program's row from the stride between the rows of the
// last two programs, and the program's compute loops prefetch it. Prefetches are hints, so
// results must not depend on them: these row-wise kernels read rows at a constant stride
// (the prediction is right), in a permuted order (7 rows apart, wrapping around: wrong
// at every wrap) and in reverse (a negative stride), and with masked short rows (the load's general path, no prediction); the harness
// checks interp == cpu bit for bit and the values are checked against float64 here
// (exp(x - max) / sum over rows of 512: fp32 tolerance 4 ulp of the largest output per
// element, see below). The generated source is checked to contain the prediction and the
// prefetching loop, so the path under test is the one that runs.
// Loads inside loops predict too (every row a site reads, at the program stride found from
// its first row): a two-pass row kernel over column blocks (rmsnorm-like, then an exp per
// element and a bf16 store, whose value loop prefetches chunk by chunk and rounds through
// the bulk fp32 -> bf16 conversion) runs with rows in order, permuted and reversed.
#include <cmath>

#include "conformance_util.h"
#include "halfbits.h"

using namespace conformance;

namespace {

const char* kSrc = R"(
import triton
import triton.language as tl

@triton.jit
def rows(x_ptr, y_ptr, n_cols, mode, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    row = pid
    if mode == 1:
        row = (pid * 7) % tl.num_programs(0)         # rows out of order (61 programs)
    if mode == 2:
        row = tl.num_programs(0) - 1 - pid           # negative stride
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
    num = tl.exp(x - tl.max(x, axis=0))
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row * n_cols + cols, y, mask=mask)
)";

void check(int n_rows, int n_cols, int mode) {
  auto x = rand_f32(static_cast<size_t>(n_rows) * n_cols, -6.f, 6.f);
  Case c(kSrc, "rows", "*fp32, *fp32, i32, i32, 512");
  c.in(x).out<float>(x.size()).scalar(n_cols).scalar(mode);
  auto y = c.run({n_rows}).get<float>(1);
  std::vector<double> want(x.size());
  for (int r = 0; r < n_rows; ++r) {
    double m = -INFINITY, s = 0;
    for (int j = 0; j < n_cols; ++j) m = std::max(m, static_cast<double>(x[r * n_cols + j]));
    for (int j = 0; j < n_cols; ++j) s += std::exp(static_cast<double>(x[r * n_cols + j]) - m);
    for (int j = 0; j < n_cols; ++j) want[r * n_cols + j] = std::exp(static_cast<double>(x[r * n_cols + j]) - m) / s;
  }
  // fp32: exp (< 1 ulp) of an exactly rounded difference, a 512-term fp32 sum (relative
  // error <= 9 * 2^-24 for the pairwise tree, all terms positive) and one division; 4e-6
  // relative plus 1e-9 absolute (outputs near 0) covers these with margin.
  expect_close(y, want, 4e-6, 1e-9, "mode " + std::to_string(mode) + ", " + std::to_string(n_cols) + " cols");
}

TEST(ConformancePrefetch, ConstantStrideRows) { check(64, 512, 0); }
TEST(ConformancePrefetch, RowsOutOfOrderAndReversed) {
  check(61, 512, 1);
  check(64, 512, 2);
}
TEST(ConformancePrefetch, MaskedShortRows) { check(40, 300, 0); }

const char* kBlocks = R"(
import triton
import triton.language as tl

@triton.jit
def blocks(x_ptr, y_ptr, n_cols, mode, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    row = pid
    if mode == 1:
        row = (pid * 7) % tl.num_programs(0)
    if mode == 2:
        row = tl.num_programs(0) - 1 - pid
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        offs = start + cols
        x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=0.0)
        acc += x * x
    scale = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + 1e-3)
    for start in range(0, n_cols, BLOCK):
        offs = start + cols
        mask = offs < n_cols
        x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=0.0)
        tl.store(y_ptr + row * n_cols + offs, tl.exp(x * scale).to(tl.bfloat16), mask=mask)
)";

void check_blocks(int n_rows, int n_cols, int mode) {
  auto x = rand_f32(static_cast<size_t>(n_rows) * n_cols, -3.f, 3.f);
  Case c(kBlocks, "blocks", "*fp32, *bf16, i32, i32, 256");
  c.in(x).out<uint16_t>(x.size()).scalar(n_cols).scalar(mode);
  auto y = c.run({n_rows}).get<uint16_t>(1);
  std::vector<float> got(y.size());
  std::vector<double> want(x.size());
  for (size_t i = 0; i < y.size(); ++i) got[i] = bf16_to_float(y[i]);
  for (int r = 0; r < n_rows; ++r) {
    double ss = 0;
    for (int j = 0; j < n_cols; ++j) ss += static_cast<double>(x[r * n_cols + j]) * x[r * n_cols + j];
    const double scale = 1.0 / std::sqrt(ss / n_cols + 1e-3);
    for (int j = 0; j < n_cols; ++j) want[r * n_cols + j] = std::exp(x[r * n_cols + j] * scale);
  }
  // bf16 output: one RNE rounding to 8 significant bits (relative 2^-9) after fp32 work
  // (a sum of squares, a square root, a division, an exp of an argument up to ~5 in size:
  // relative error well under 1e-5); 2^-8 relative covers both with margin, and nothing
  // unwritten (the poison) or NaN passes.
  expect_close(got, want, 1.0 / 256, 0.0, "mode " + std::to_string(mode) + ", " + std::to_string(n_cols) + " cols");
}

TEST(ConformancePrefetch, LoadsInLoopsPredictEveryBlock) {
  check_blocks(48, 1000, 0);  // 4 blocks of 256 per pass, the last one masked
  check_blocks(41, 768, 1);
  check_blocks(40, 512, 2);
}

TEST(ConformancePrefetch, LoadsInLoopsAreNotedAndTheStoreRowPrefetches) {
  auto mod = tritium::Module::from_string(kBlocks, "prefetch_blocks.py");
  auto k = mod.kernel("blocks").compile(tritium::Device::get("cpu"), "*fp32, *bf16, i32, i32, 256");
  const std::string& src = k.source();
  EXPECT_NE(src.find("tr_pf_note(pf, 0,"), std::string::npos) << src;  // the first pass's load
  EXPECT_NE(src.find("tr_pf_note(pf, 1,"), std::string::npos) << src;  // the second pass's
  EXPECT_NE(src.find("tr_pf_step(pf, 16);"), std::string::npos) << src;  // the exp store row
  EXPECT_NE(src.find("tr_f2bf_n("), std::string::npos) << src;
}

TEST(ConformancePrefetch, TheCpuKernelPredictsAndPrefetches) {
  auto mod = tritium::Module::from_string(kSrc, "prefetch.py");
  auto k = mod.kernel("rows").compile(tritium::Device::get("cpu"), "*fp32, *fp32, i32, i32, 512");
  const std::string& src = k.source();
  EXPECT_NE(src.find("tr_pf_note(pf, 0,"), std::string::npos) << src;
  EXPECT_NE(src.find("tr_pf_step(pf, "), std::string::npos) << src;
}

}  // namespace
