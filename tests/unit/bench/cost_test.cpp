// Tests of the bench's byte and flop counts (bench/cost.h) and of the figures the suite
// attaches to its cases, against hand-computed values.
#include "bench/cost.h"

#include <gtest/gtest.h>

#include <string>

#include "bench/suite.h"

namespace {

using namespace tritium::bench;

const Case& find_case(const std::vector<Case>& cases, const std::string& id) {
  for (const Case& c : cases)
    if (c.id == id) return c;
  throw std::runtime_error("no case " + id);
}

TEST(BenchCost, Formulas) {
  EXPECT_EQ(bytes_vector_add(1000, 4), 12000.0);
  EXPECT_EQ(bytes_swiglu(10, 2), 60.0);
  EXPECT_EQ(bytes_softmax(3, 5, 4, 2), 3 * 5 * 6.0);
  EXPECT_EQ(bytes_rmsnorm(2, 8, 2, 2, 2), 2 * 8 * 4.0 + 8 * 2.0);
  EXPECT_EQ(bytes_layernorm(2, 8, 4, 4, 4), 2 * 8 * 8.0 + 2 * 8 * 4.0 + 2 * 2 * 4.0);
  EXPECT_EQ(bytes_matmul(2, 3, 4, 2, 4), (8 + 12) * 2.0 + 6 * 4.0);
  EXPECT_EQ(flops_matmul(2, 3, 4), 48.0);
  EXPECT_EQ(bytes_attention(1, 2, 3, 4, 2), 4 * 24 * 2.0 + 4 * 6.0);
  EXPECT_EQ(flops_attention(1, 2, 3, 4, false), 4.0 * 2 * 9 * 4);
  EXPECT_EQ(flops_attention(1, 2, 3, 4, true), 2.0 * 2 * 9 * 4);
}

TEST(BenchCost, SuiteCaseFigures) {
  const std::vector<Case> cases = all_cases();
  // vector add of 2^24 fp32: three 64 MiB arrays.
  const Case& va = find_case(cases, "vector_add/fp32/16777216");
  EXPECT_EQ(va.bytes, 3.0 * 16777216 * 4);
  EXPECT_TRUE(va.memory_bound);
  EXPECT_EQ(va.flops, 0.0);
  // The fp16 large case moves the same bytes with twice the elements.
  EXPECT_EQ(find_case(cases, "vector_add/fp16/33554432").bytes, 3.0 * 33554432 * 2);
  // softmax 4096 x 4096 fp32: read + write.
  EXPECT_EQ(find_case(cases, "softmax/fp32/4096x4096").bytes, 2.0 * 4096 * 4096 * 4);
  // rmsnorm adds the weight row once.
  EXPECT_EQ(find_case(cases, "rmsnorm/bf16/8192x4096").bytes, 2.0 * 8192 * 4096 * 2 + 4096 * 2);
  // layernorm: x, y, w, b and the fp32 mean/rstd per row.
  EXPECT_EQ(find_case(cases, "layernorm/fp32/4096x4096").bytes,
            2.0 * 4096 * 4096 * 4 + 2 * 4096 * 4 + 2 * 4096 * 4);
  // swiglu_rows reads gate and up halves of h and writes out.
  EXPECT_EQ(find_case(cases, "swiglu_rows/fp32/33x999").bytes, 3.0 * 33 * 999 * 4);
  // matmul 512^3: 2 M N K flops, compute-bound.
  const Case& mm = find_case(cases, "matmul/fp16/512x512x512");
  EXPECT_EQ(mm.flops, 2.0 * 512 * 512 * 512);
  EXPECT_EQ(mm.bytes, 3.0 * 512 * 512 * 2);
  EXPECT_FALSE(mm.memory_bound);
  // attention Z=1 H=4 N=1024 D=128: 4 Z H N^2 D, halved when causal.
  EXPECT_EQ(find_case(cases, "attention/fp32/1x4x1024x128").flops, 4.0 * 4 * 1024 * 1024 * 128);
  EXPECT_EQ(find_case(cases, "attention_causal/fp32/1x4x1024x128").flops, 2.0 * 4 * 1024 * 1024 * 128);
  EXPECT_EQ(find_case(cases, "attention/bf16/1x4x1024x64").bytes, 4.0 * 4 * 1024 * 64 * 2 + 4.0 * 4 * 1024);
}

}  // namespace
