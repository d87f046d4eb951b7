// Streaming (non-temporal) stores on the CPU backend give the same memory contents as
// ordinary ones. The store fast path streams whole aligned 64-byte lines and writes the
// ragged head and tail normally (the prelude's tr_stream_n, cpu_emit_access.cpp); the
// runtime enables it per launch by size (runtime/cpu/stream_policy.h). Here
// TRITIUM_CPU_STREAM_STORES=always forces it on small grids, and the kernels store rows
// that start off a line boundary, end inside a line, are masked short, or are shorter than
// one chunk, in fp32, fp16 (rounded from fp32 in bulk), bf16 and int8, rank 1 and 2.
// The harness checks the interpreter and the CPU backend bit for bit (masked-off elements
// must still hold the poison); the expected values are computed here, exactly: x * 2 + 1
// and x * 3 are single IEEE fp32 roundings, then one RNE rounding to the 16-bit format.
#include <cstdlib>

#include "conformance_util.h"
#include "halfbits.h"

using namespace conformance;

namespace {

class ConformanceStreamStore : public ::testing::Test {
 protected:
  void SetUp() override { setenv("TRITIUM_CPU_STREAM_STORES", "always", 1); }
  void TearDown() override { unsetenv("TRITIUM_CPU_STREAM_STORES"); }
};

const char* kRows = R"(
import triton
import triton.language as tl

@triton.jit
def rows(x_ptr, y_ptr, h_ptr, b_ptr, i_ptr, shift, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    # `shift` moves every row off a cache-line boundary by that many elements
    tl.store(y_ptr + shift + offs, x * 2.0 + 1.0, mask=mask)
    tl.store(h_ptr + shift + offs, (x * 3.0).to(tl.float16), mask=mask)
    tl.store(b_ptr + shift + offs, (x * 3.0).to(tl.bfloat16), mask=mask)
    tl.store(i_ptr + shift + offs, (x * 8.0).to(tl.int8), mask=mask)
)";

/// RNE of a float to binary16 / bfloat16 through g++'s exact conversions.
uint16_t half_bits(float f) {
  _Float16 h = static_cast<_Float16>(f);
  uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}
uint16_t bf16_bits(float f) {  // finite f: round the low 16 bits to nearest, ties to even
  uint32_t u = bits(f);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

void check_rows(int n, int shift, int64_t block) {
  const int programs = (n + static_cast<int>(block) - 1) / static_cast<int>(block);
  const size_t len = static_cast<size_t>(programs) * block + shift + 16;
  auto x = rand_f32(n, -15.f, 15.f);
  Case c(kRows, "rows", "*fp32, *fp32, *fp16, *bf16, *i8, i32, i32, " + std::to_string(block));
  c.in(x).out<float>(len).out<uint16_t>(len).out<uint16_t>(len).out<int8_t>(len).scalar(shift).scalar(n);
  auto r = c.run({programs});
  auto y = r.get<float>(1);
  auto h = r.get<uint16_t>(2), b = r.get<uint16_t>(3);
  auto q = r.get<int8_t>(4);
  const std::string what = "n=" + std::to_string(n) + " shift=" + std::to_string(shift);
  for (size_t i = 0; i < len; ++i) {
    const int k = static_cast<int>(i) - shift;  // the element of x stored here, if any
    if (k >= 0 && k < n) {
      ASSERT_EQ(bits(y[i]), bits(x[k] * 2.0f + 1.0f)) << what << " y[" << i << "]";
      ASSERT_EQ(h[i], half_bits(x[k] * 3.0f)) << what << " h[" << i << "]";
      ASSERT_EQ(b[i], bf16_bits(x[k] * 3.0f)) << what << " b[" << i << "]";
      ASSERT_EQ(q[i], static_cast<int8_t>(std::trunc(x[k] * 8.0f))) << what << " i8[" << i << "]";
    } else {  // never written: still the poison
      ASSERT_TRUE(std::isnan(y[i])) << what << " y[" << i << "] written";
      ASSERT_EQ(h[i], poison<uint16_t>()) << what << " h[" << i << "] written";
      ASSERT_EQ(b[i], poison<uint16_t>()) << what << " b[" << i << "] written";
      ASSERT_EQ(q[i], poison<int8_t>()) << what << " i8[" << i << "] written";
    }
  }
}

TEST_F(ConformanceStreamStore, AlignedFullRows) { check_rows(4 * 1024, 0, 1024); }

TEST_F(ConformanceStreamStore, RowsOffALineBoundary) {
  for (int shift : {1, 3, 7, 15, 16, 17, 31, 33}) check_rows(3 * 1024, shift, 1024);
}

TEST_F(ConformanceStreamStore, MaskedShortLastRow) {
  for (int n : {1, 15, 16, 17, 255, 256, 257, 1023, 2049, 3001}) check_rows(n, 5, 1024);
}

TEST_F(ConformanceStreamStore, SeveralChunksPerRow) { check_rows(2 * 4096 - 77, 9, 4096); }

// A 2-D block: rows `row_stride` elements apart, a column mask, stores to rows that start
// anywhere in a line (row_stride is odd).
TEST_F(ConformanceStreamStore, TwoDimensionalBlock) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def tile(x_ptr, y_ptr, n_cols, row_stride, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    c = tl.arange(0, BLOCK_C)
    mask = c[None, :] < n_cols
    x = tl.load(x_ptr + r[:, None] * row_stride + c[None, :], mask=mask, other=0.0)
    tl.store(y_ptr + r[:, None] * row_stride + c[None, :], x * 2.0 + 1.0, mask=mask)
)";
  const int rows = 16, stride = 517, n_cols = 500;
  auto x = rand_f32(static_cast<size_t>(rows) * stride, -8.f, 8.f);
  Case c(src, "tile", "*fp32, *fp32, i32, i32, 4, 512");
  c.in(x).out<float>(static_cast<size_t>(rows) * stride).scalar(n_cols).scalar(stride);
  auto r = c.run({rows / 4});
  auto y = r.get<float>(1);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < stride; ++j) {
      const size_t at = static_cast<size_t>(i) * stride + j;
      if (j < n_cols) ASSERT_EQ(bits(y[at]), bits(x[at] * 2.0f + 1.0f)) << i << "," << j;
      else ASSERT_TRUE(std::isnan(y[at])) << i << "," << j << " written";
    }
}

// The policy is read per launch: "never" and "always" give the same bits.
TEST_F(ConformanceStreamStore, NeverAndAlwaysAgree) {
  const int n = 3000;
  auto x = rand_f32(n, -15.f, 15.f);
  auto run = [&](const char* policy) {
    setenv("TRITIUM_CPU_STREAM_STORES", policy, 1);
    Case c(kRows, "rows", "*fp32, *fp32, *fp16, *bf16, *i8, i32, i32, 1024");
    const size_t len = 3 * 1024 + 16;
    c.in(x).out<float>(len).out<uint16_t>(len).out<uint16_t>(len).out<int8_t>(len).scalar(3).scalar(n);
    return c.run_on("cpu", {3});
  };
  auto a = run("never"), b = run("always");
  for (size_t k = 1; k <= 4; ++k) EXPECT_EQ(a.bytes[k], b.bytes[k]) << "output " << k;
}

}  // namespace
