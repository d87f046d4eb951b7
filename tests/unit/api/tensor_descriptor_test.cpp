// Host tensor descriptors (Arg::tensor_descriptor, the "tensordesc<...>" signature entry,
// launch_arguments): upstream's triton.tools.tensor_descriptor.TensorDescriptor passed to a
// kernel that loads and stores blocks through it. References are computed here by plain
// loops over the same index arithmetic the descriptor defines (element (i, j) at base +
// i * stride0 + j, blocks out of bounds padded with zero or NaN, stores clipped); values
// are small integers in fp32, so every comparison is exact. Outputs are NaN-poisoned.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../runtime/cuda_test_util.h"
#include "tritium/tritium.h"

namespace {

using tritium::Arg;

const char* kSrc = R"(
import triton
import triton.language as tl

@triton.jit
def scale_copy(in_desc, out_desc, alpha, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    x = in_desc.load([pm * BM, pn * BN])
    out_desc.store([pm * BM, pn * BN], x * alpha)

@triton.jit
def raw_blocks(in_desc, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    # Every element of every block, padding included, to a dense [grid_m * BM, grid_n * BN] array.
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    x = in_desc.load([pm * BM, pn * BN])
    rows = pm * BM + tl.arange(0, BM)
    cols = pn * BN + tl.arange(0, BN)
    tl.store(out_ptr + rows[:, None] * (tl.num_programs(1) * BN) + cols[None, :], x)
)";

constexpr int64_t M = 37, N = 45, LD = 48;  // a 37x45 view of a 37x48 row-major array
constexpr int64_t BM = 16, BN = 32;
const float kNan = std::numeric_limits<float>::quiet_NaN();

std::vector<float> random_ints(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-100, 100);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(d(rng));
  return v;
}

void run_scale_copy(const tritium::Device& dev) {
  auto mod = tritium::Module::from_string(kSrc, "tensor_descriptor_test.py");
  const std::vector<float> x = random_ints(M * LD, 7);
  std::vector<float> y0(M * LD, kNan);
  tritium::Buffer bx = dev.upload(x), by = dev.upload(y0);
  Arg in = Arg::tensor_descriptor(Arg::tensor(bx, "fp32"), {M, N}, {LD, 1}, {BM, BN});
  Arg out = Arg::tensor_descriptor(Arg::tensor(by, "fp32"), {M, N}, {LD, 1}, {BM, BN});
  auto r = mod.kernel("scale_copy").run(dev, tritium::Grid(tritium::cdiv(M, BM), tritium::cdiv(N, BN)),
                                        {in, out, 3.0f}, {{"BM", int64_t{BM}}, {"BN", int64_t{BN}}});
  EXPECT_NE(r.kernel.signature().find("tensordesc<fp32[16, 32]>"), std::string::npos) << r.kernel.signature();
  const std::vector<float> y = by.download<float>();
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < LD; ++j) {
      const float want = j < N ? 3.0f * x[i * LD + j] : kNan;  // columns past the view are not written
      if (j < N) ASSERT_EQ(y[i * LD + j], want) << i << "," << j;
      else ASSERT_TRUE(std::isnan(y[i * LD + j])) << "a store past the descriptor's shape wrote " << i << "," << j;
    }
}

void run_padding(const tritium::Device& dev, const std::string& padding) {
  auto mod = tritium::Module::from_string(kSrc, "tensor_descriptor_test.py");
  const std::vector<float> x = random_ints(M * LD, 11);
  const int64_t gm = tritium::cdiv(M, BM), gn = tritium::cdiv(N, BN);
  std::vector<float> o0(gm * BM * gn * BN, -12345.0f);
  tritium::Buffer bx = dev.upload(x), bo = dev.upload(o0);
  Arg in = Arg::tensor_descriptor(Arg::tensor(bx, "fp32"), {M, N}, {LD, 1}, {BM, BN}, padding);
  auto r = mod.kernel("raw_blocks").run(dev, tritium::Grid(gm, gn), {in, Arg::tensor(bo, "fp32")},
                                        {{"BM", int64_t{BM}}, {"BN", int64_t{BN}}});
  if (padding == "nan") EXPECT_NE(r.kernel.signature().find(", nan>"), std::string::npos) << r.kernel.signature();
  const std::vector<float> o = bo.download<float>();
  for (int64_t i = 0; i < gm * BM; ++i)
    for (int64_t j = 0; j < gn * BN; ++j) {
      const float got = o[i * gn * BN + j];
      if (i < M && j < N) ASSERT_EQ(got, x[i * LD + j]) << i << "," << j;
      else if (padding == "nan") ASSERT_TRUE(std::isnan(got)) << i << "," << j << " = " << got;
      else ASSERT_EQ(got, 0.0f) << i << "," << j;
    }
}

TEST(TensorDescriptor, LoadScaleStoreOnTheCpu) { run_scale_copy(tritium::Device::get("cpu")); }
TEST(TensorDescriptor, PaddingOnTheCpu) {
  run_padding(tritium::Device::get("cpu"), "zero");
  run_padding(tritium::Device::get("cpu"), "nan");
}
TEST(TensorDescriptor, LoadScaleStoreOnTheGpu) {
  TRITIUM_REQUIRE_GPU();
  run_scale_copy(tritium::Device::get("cuda"));
  run_padding(tritium::Device::get("cuda"), "zero");
  run_padding(tritium::Device::get("cuda"), "nan");
}

TEST(TensorDescriptor, LaunchArgumentsExpandTheFields) {
  tritium::Buffer b = tritium::Device::get("cpu").upload(std::vector<float>(64));
  Arg d = Arg::tensor_descriptor(Arg::tensor(b, "fp32"), {4, 8, 2}, {16, 2, 1}, {2, 4, 2});
  const std::vector<Arg> flat = tritium::launch_arguments({Arg(5), Arg::none(), d});
  ASSERT_EQ(flat.size(), 1u + 1 + 3 + 2);  // 5, base, shape x3, strides but the last x2
  EXPECT_EQ(flat[1].kind(), Arg::Kind::Pointer);
  EXPECT_EQ(flat[2].int_value(), 4);
  EXPECT_EQ(flat[4].int_value(), 2);
  EXPECT_EQ(flat[5].int_value(), 16);
  EXPECT_EQ(flat[6].int_value(), 2);
}

TEST(TensorDescriptor, BadDescriptorsAreRefused) {
  tritium::Buffer b = tritium::Device::get("cpu").upload(std::vector<float>(64));
  const Arg t = Arg::tensor(b, "fp32");
  auto refused = [](auto f, const std::string& part) {
    try {
      f();
      ADD_FAILURE() << "expected a Usage error containing " << part;
    } catch (const tritium::Error& e) {
      EXPECT_EQ(e.kind(), tritium::ErrorKind::Usage);
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  refused([&] { Arg::tensor_descriptor(t, {8, 8}, {1, 8}, {4, 4}); }, "last stride must be 1");
  refused([&] { Arg::tensor_descriptor(t, {8, 8}, {8, 1}, {4}); }, "same length");
  refused([&] { Arg::tensor_descriptor(Arg(b), {8, 8}, {8, 1}, {4, 4}); }, "must be an Arg::tensor");
  refused([&] { Arg::tensor_descriptor(t, {8, 8}, {8, 1}, {4, 4}, "inf"); }, "padding");
  refused([&] { Arg::tensor_descriptor(t, {}, {}, {}); }, "1 to 5 dimensions");
  refused([&] { Arg::tensor_descriptor(t, {8, 9}, {8, 1}, {4, 4}); }, "reach element 64 (260 bytes) but the base holds 256");
  refused([&] { Arg::tensor_descriptor(t, {8, 8}, {-8, 1}, {4, 4}); }, "negative");
  Arg::tensor_descriptor(t, {8, 8}, {8, 1}, {4, 4});  // exactly the buffer: accepted
  Arg::tensor_descriptor(t, {0, 100}, {1000, 1}, {4, 4});  // empty: names no element
}

TEST(TensorDescriptor, SignatureEntriesRoundTrip) {
  auto mod = tritium::Module::from_string(kSrc, "tensor_descriptor_test.py");
  const std::string ir = mod.kernel("raw_blocks").ir("tensordesc<fp16[16,32],nan>, *fp16, 16, 32");
  EXPECT_NE(ir.find("ptr<fp16>"), std::string::npos) << ir;
  try {
    (void)mod.kernel("raw_blocks").ir("tensordesc<fp16[16,x]>, *fp16, 16, 32");
    ADD_FAILURE() << "a bad block shape must be refused";
  } catch (const tritium::Error& e) {
    EXPECT_NE(std::string(e.what()).find("block dimension 'x'"), std::string::npos) << e.what();
  }
}

}  // namespace
