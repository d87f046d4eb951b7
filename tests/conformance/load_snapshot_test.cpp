// A loaded block keeps the values memory held at the load, whatever the program writes
// afterwards (Triton semantics). The CPU backend reads rank-1 loads in place when it can
// (cpu_emit_memory.cpp: load_may_alias) and copies them only before a write that overlaps
// them or an atomic; these kernels write over what they loaded, in place, shifted by one
// element, partly, and through atomics, then use the loaded values again. Every value is
// exact in fp32 (x2, +1, sums of two), so the checks are bit-exact.
#include "conformance_util.h"

using namespace conformance;

namespace {

TEST(ConformanceLoadSnapshot, StoresOverTheLoadedBlock) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def overwrite(p, q, r, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs)
    # shifted by one: writing p[i + 1] while x[i + 1] must still be the old value
    tl.store(p + offs + 1, x * 2.0, mask=offs + 1 < n)
    tl.store(q + offs, x + 1.0)                 # x is still the old p
    y = tl.load(q + offs)
    tl.store(q + offs, y * 2.0, mask=offs % 3 == 0)   # in place, partly
    tl.store(r + offs, y + x)                   # y: q after the first store, x: old p
)";
  // One program (several would race on the element where their blocks meet).
  const int n = 128;
  auto p = rand_f32(n + 1), q = rand_f32(n);
  Case c(src, "overwrite", "*fp32, *fp32, *fp32, i32, 128");
  c.in(p).in(q).out<float>(n).scalar(n + 1);
  auto res = c.run({1});
  auto p2 = res.get<float>(0), q2 = res.get<float>(1), r2 = res.get<float>(2);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(bits(p2[i + 1]), bits(p[i] * 2.0f)) << "p[" << i + 1 << "]";
    const float y = p[i] + 1.0f;
    EXPECT_EQ(bits(q2[i]), bits(i % 3 == 0 ? y * 2.0f : y)) << "q[" << i << "]";
    EXPECT_EQ(bits(r2[i]), bits(y + p[i])) << "r[" << i << "]";
  }
  EXPECT_EQ(bits(p2[0]), bits(p[0]));
}

// The CPU backend copies a block read in place before an atomic (cpu_codegen.cpp).
TEST(ConformanceLoadSnapshot, AtomicsOverTheLoadedBlock) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def atomics(q, r, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    y = tl.load(q + offs)
    tl.atomic_add(q + offs, 1)
    tl.atomic_xchg(q + BLOCK, 7)
    tl.store(r + offs, y * 3)
)";
  const int block = 32;
  auto q = rand_int<int32_t>(block + 1, -1000, 1000);
  Case c(src, "atomics", "*i32, *i32, 32");
  c.in(q).out<int32_t>(block);
  auto res = c.run({1});
  auto q2 = res.get<int32_t>(0), r2 = res.get<int32_t>(1);
  for (int i = 0; i < block; ++i) {
    EXPECT_EQ(q2[i], q[i] + 1) << i;
    EXPECT_EQ(r2[i], q[i] * 3) << i;  // the loaded values, not the incremented ones
  }
  EXPECT_EQ(q2[block], 7);
}

}  // namespace
