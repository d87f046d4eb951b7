// Where the cuda backend puts the block barriers that keep a program's loads and stores in
// program order (cuda_emit_memory.cpp, hazard_barrier), read from the generated CUDA
// (NVRTC, no GPU; TRITIUM_NO_NVRTC=1 skips). Values: tests/conformance/program_order_test.cpp.
#include "nvrtc_opt_out.h"
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/cuda/cuda_kernel.h"
#include "tritium/tritium.h"

namespace {

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

std::string cuda(const char* src, const std::string& sig) {
  tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
  auto mod = tritium::Module::from_string(src, "hz.py");
  const std::string s = mod.kernel("k").compile(dev, sig).source();
  return s.substr(s.find("__global__"));
}

// A loop storing what the next iteration loads: the barrier at the top of an iteration is
// for the previous iteration's store, so the first iteration skips it; the one before the
// store (this iteration's loads) is unconditional.
TEST(CudaHazardBarrier, PreviousIterationBarrierSkippedInTheFirst) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  const std::string s = cuda(R"(
import triton
import triton.language as tl

@triton.jit
def k(buf, n):
    r = tl.arange(0, 256)
    for i in range(n):
        x = tl.load(buf + (255 - r))
        tl.store(buf + r, x + 1)
)", "*i32:16, i32");
  EXPECT_EQ(count(s, " > 0) __syncthreads();  // this program's earlier stores are visible to the load"), 1) << s;
  EXPECT_EQ(count(s, "__syncthreads();  // this program's earlier accesses are done before the store"), 1) << s;
}

// Two scalar stores: thread 0 does both, in order, so no barrier between them; the tensor
// load after them needs one.
TEST(CudaHazardBarrier, ScalarStoresAreOrderedByThreadZero) {
  if (tritium_no_nvrtc()) GTEST_SKIP() << "TRITIUM_NO_NVRTC set";
  const std::string s = cuda(R"(
import triton
import triton.language as tl

@triton.jit
def k(p, o, a, b):
    tl.store(p, a)
    tl.store(p + 1, b)
    r = tl.arange(0, 128)
    tl.store(o + r, tl.load(p + r % 2))
)", "*i32:16, *i32:16, i32, i32");
  const size_t second = s.find("if (tr_tid == 0)", s.find("if (tr_tid == 0)") + 1);
  ASSERT_NE(second, std::string::npos) << s;
  EXPECT_LT(second, s.find("__syncthreads()")) << s;  // no barrier before the second store
  EXPECT_EQ(count(s, "__syncthreads();  // this program's earlier stores are visible to the load"), 1) << s;
}

}  // namespace
