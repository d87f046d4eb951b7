// The cuda device on a GPU (each test skips without one, fails with TRITIUM_REQUIRE_GPU=1):
// buffers and bounds, the hand-written kernels through load_module/launch checked against
// host references, opt-in dynamic shared memory, and errors that name the failing call.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "common/float_formats.h"
#include "runtime/cuda/cuda_device.h"
#include "runtime/cuda/nvrtc_compile.h"
#include "runtime/registry.h"
#include "tritium/tritium.h"
#include "cuda_test_util.h"

namespace tritium::runtime::cuda {
namespace {
using testing::kTestKernels;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

/// One device for the whole test program.
CudaDevice& gpu() {
  static std::unique_ptr<CudaDevice> dev = std::make_unique<CudaDevice>(0);
  return *dev;
}

/// The test kernels as a cubin for the present GPU (or PTX for compute_90 when `ptx`).
std::shared_ptr<CudaModule> test_module(bool ptx = false) {
  NvrtcOptions o;
  o.arch = ptx ? std::string(kDefaultPtxArch) : gpu().arch();
  NvrtcOutput out = nvrtc_compile(kTestKernels, "test_kernels.cu", ptx ? NvrtcTarget::Ptx : NvrtcTarget::Cubin, o);
  return gpu().load_module(out.bytes);
}

/// Frees a buffer at scope exit.
struct Buf {
  DeviceBuffer b;
  explicit Buf(size_t bytes) : b(gpu().alloc(bytes)) {}
  ~Buf() {
    try {
      gpu().free(b);
    } catch (...) {
    }
  }
};

TEST(CudaDevice, DescribesTheGpu) {
  TRITIUM_REQUIRE_GPU();
  const CudaProperties& p = gpu().properties();
  EXPECT_GT(p.sm_count, 0);
  EXPECT_GE(p.cc_major, 5);
  EXPECT_GT(p.total_memory, size_t{1} << 30);
  EXPECT_EQ(gpu().arch(), present_gpu_arch());
  std::string d = gpu().description();
  EXPECT_TRUE(contains(d, gpu().arch()) && contains(d, "SMs") && contains(d, "CUDA driver")) << d;
  EXPECT_EQ(gpu().name(), "cuda");
  EXPECT_TRUE(backend_status("cuda").available);
}

TEST(CudaDevice, CopyRoundTripOfRandomBytes) {
  TRITIUM_REQUIRE_GPU();
  std::mt19937 rng(42);
  for (size_t n : {size_t{1}, size_t{13}, size_t{4096}, size_t{3} << 20}) {
    std::vector<unsigned char> host(n), back(n, 0);
    for (auto& c : host) c = static_cast<unsigned char>(rng());
    Buf buf(n);
    EXPECT_NE(buf.b.ptr, nullptr);
    EXPECT_EQ(buf.b.bytes, n);
    gpu().copy_in(buf.b, host.data(), n);
    gpu().copy_out(back.data(), buf.b, n);
    EXPECT_EQ(host, back) << n << " bytes";
  }
  // Partial copies at offsets.
  std::vector<unsigned char> zeros(256, 0), patch(50, 0xab), back(256);
  Buf buf(256);
  gpu().copy_in(buf.b, zeros.data(), 256);
  gpu().copy_in(buf.b, patch.data(), 50, 100);
  gpu().copy_out(back.data(), buf.b, 256);
  for (size_t i = 0; i < 256; ++i) ASSERT_EQ(back[i], (i >= 100 && i < 150) ? 0xab : 0) << i;
  unsigned char two[2];
  gpu().copy_out(two, buf.b, 2, 149);
  EXPECT_EQ(two[0], 0xab);
  EXPECT_EQ(two[1], 0);
}

TEST(CudaDevice, OutOfBoundsCopiesAreRefused) {
  TRITIUM_REQUIRE_GPU();
  Buf buf(64);
  std::vector<unsigned char> host(128);
  EXPECT_THROW(gpu().copy_in(buf.b, host.data(), 65), std::out_of_range);
  EXPECT_THROW(gpu().copy_in(buf.b, host.data(), 8, 60), std::out_of_range);
  EXPECT_THROW(gpu().copy_in(buf.b, host.data(), 1, SIZE_MAX), std::out_of_range);  // no wrap-around
  EXPECT_THROW(gpu().copy_out(host.data(), buf.b, 8, 57), std::out_of_range);
  try {
    gpu().copy_in(buf.b, host.data(), 100);
    FAIL();
  } catch (const std::out_of_range& e) {
    EXPECT_TRUE(contains(e.what(), "copy_in of 100 bytes at offset 0 is past the end of a buffer of 64 bytes"))
        << e.what();
  }
  EXPECT_NO_THROW(gpu().copy_in(buf.b, host.data(), 64));
}

TEST(CudaDevice, VectorAddMatchesTheHostFromCubinAndPtx) {
  TRITIUM_REQUIRE_GPU();
  TRITIUM_REQUIRE_NVRTC();
  const int n = 100003;  // not a multiple of 4: the scalar tail runs too
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-100.f, 100.f);
  std::vector<float> x(n), y(n), out(n), ref(n);
  for (int i = 0; i < n; ++i) x[i] = dist(rng), y[i] = dist(rng), ref[i] = x[i] + y[i];
  for (bool ptx : {false, true}) {
    std::shared_ptr<CudaModule> mod = test_module(ptx);
    CudaFunction f = mod->function("vadd_f32");
    Buf bx(n * 4), by(n * 4), bo(n * 4);
    gpu().copy_in(bx.b, x.data(), n * 4);
    gpu().copy_in(by.b, y.data(), n * 4);
    const uint32_t threads = 256, blocks = (n / 4 + threads) / threads;
    tritium_arg args[4];
    args[0].ptr = bx.b.ptr, args[1].ptr = by.b.ptr, args[2].ptr = bo.b.ptr, args[3].i64 = n;
    gpu().launch(f, {blocks, 1, 1}, {threads, 1, 1}, 0, std::vector<tritium_arg>(args, args + 4));
    gpu().synchronize();
    gpu().copy_out(out.data(), bo.b, n * 4);
    EXPECT_EQ(0, std::memcmp(out.data(), ref.data(), n * 4)) << (ptx ? "PTX" : "cubin");
  }
}

/// The device's butterfly over 32 values: every lane ends with the same sum.
float butterfly(std::vector<float> v) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    std::vector<float> next(32);
    for (int l = 0; l < 32; ++l) next[l] = v[l] + v[l ^ offset];
    v = next;
  }
  return v[0];
}

TEST(CudaDevice, BlockSumWithShufflesSharedMemoryHalfAndBf16IsBitExact) {
  TRITIUM_REQUIRE_GPU();
  TRITIUM_REQUIRE_NVRTC();
  const int threads = 256, blocks = 40, n = threads * blocks - 77;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> x(n);
  for (float& v : x) v = dist(rng);
  std::shared_ptr<CudaModule> mod = test_module();
  CudaFunction f = mod->function("block_sum");
  EXPECT_EQ(f.static_shared_bytes, 32 * 4);
  Buf bx(n * 4), bs(blocks * 4), bh(blocks * 2), bb(blocks * 2);
  gpu().copy_in(bx.b, x.data(), n * 4);
  void* px = bx.b.ptr, *ps = bs.b.ptr, *ph = bh.b.ptr, *pb = bb.b.ptr;
  int nn = n;
  void* params[] = {&px, &ps, &ph, &pb, &nn};  // raw kernelParams
  gpu().launch(f, {blocks, 1, 1}, {threads, 1, 1}, 0, params);
  std::vector<float> sums(blocks);
  std::vector<uint16_t> halves(blocks), bf16s(blocks);
  gpu().copy_out(sums.data(), bs.b, blocks * 4);
  gpu().copy_out(halves.data(), bh.b, blocks * 2);
  gpu().copy_out(bf16s.data(), bb.b, blocks * 2);
  for (int b = 0; b < blocks; ++b) {
    std::vector<float> warp_totals(32, 0.f);
    for (int w = 0; w < threads / 32; ++w) {
      std::vector<float> lanes(32);
      for (int l = 0; l < 32; ++l) {
        int i = b * threads + w * 32 + l;
        lanes[l] = i < n ? x[i] : 0.f;
      }
      warp_totals[w] = butterfly(lanes);
    }
    float ref = butterfly(warp_totals);
    EXPECT_EQ(sums[b], ref) << "block " << b;
    EXPECT_EQ(halves[b], fp32_to_fp16(ref)) << "block " << b;
    EXPECT_EQ(bf16s[b], fp32_to_bf16(ref)) << "block " << b;
  }
}

TEST(CudaDevice, DynamicSharedMemoryAbove48KBIsOptedIn) {
  TRITIUM_REQUIRE_GPU();
  TRITIUM_REQUIRE_NVRTC();
  const int threads = 1024, per_thread = 24, blocks = 3, count = threads * per_thread;  // 96 KB per block
  const uint32_t shared = count * 4;
  if (gpu().properties().max_shared_per_block_optin < static_cast<int>(shared))
    GTEST_SKIP() << "this GPU offers " << gpu().properties().max_shared_per_block_optin << " bytes";
  std::vector<float> x(count * blocks), out(count * blocks);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  std::shared_ptr<CudaModule> mod = test_module();
  CudaFunction f = mod->function("reverse_dyn");
  Buf bx(x.size() * 4), bo(x.size() * 4);
  gpu().copy_in(bx.b, x.data(), x.size() * 4);
  tritium_arg a[3];
  a[0].ptr = bx.b.ptr, a[1].ptr = bo.b.ptr, a[2].i64 = per_thread;
  gpu().launch(f, {blocks, 1, 1}, {threads, 1, 1}, shared, std::vector<tritium_arg>(a, a + 3));
  gpu().synchronize();
  gpu().copy_out(out.data(), bo.b, out.size() * 4);
  for (int b = 0; b < blocks; ++b)
    for (int k = 0; k < count; ++k) ASSERT_EQ(out[b * count + k], x[b * count + count - 1 - k]) << b << " " << k;
  // Beyond the opt-in limit: refused by cuFuncSetAttribute, named.
  const uint32_t too_much = gpu().properties().max_shared_per_block_optin + 4096;
  try {
    gpu().launch(f, {1, 1, 1}, {threads, 1, 1}, too_much, std::vector<tritium_arg>(a, a + 3));
    FAIL() << "a launch beyond the shared memory limit succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "cuda: cuFuncSetAttribute(reverse_dyn, MAX_DYNAMIC_SHARED_SIZE_BYTES")) << e.what();
  }
}

TEST(CudaDevice, InvalidLaunchesAndLookupsNameTheFailingCall) {
  TRITIUM_REQUIRE_GPU();
  TRITIUM_REQUIRE_NVRTC();
  std::shared_ptr<CudaModule> mod = test_module();
  CudaFunction f = mod->function("vadd_f32");
  tritium_arg a[4] = {};
  try {
    gpu().launch(f, {1, 1, 1}, {4096, 1, 1}, 0, std::vector<tritium_arg>(a, a + 4));  // > 1024 threads
    FAIL() << "a block of 4096 threads launched";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "cuda: cuLaunchKernel(kernel 'vadd_f32' (grid (1, 1, 1), block (4096, 1, 1)"))
        << e.what();
    EXPECT_TRUE(contains(e.what(), "failed: CUDA_ERROR_INVALID_VALUE")) << e.what();
  }
  try {
    mod->function("no_such_kernel");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "cuda: cuModuleGetFunction(no_such_kernel) failed: CUDA_ERROR_NOT_FOUND"))
        << e.what();
  }
  try {
    gpu().load_module("this is not a module");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "cuda: cuModuleLoadDataEx(image of 20 bytes) failed: ")) << e.what();
  }
  gpu().synchronize();  // the device is still usable: none of these errors is sticky
}

TEST(CudaDevice, AsynchronousFaultIsReportedWithTheKernelName) {
  TRITIUM_REQUIRE_GPU();
  TRITIUM_REQUIRE_NVRTC();
  // A trap poisons the context for the rest of the process: run it in a fresh child.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        std::shared_ptr<CudaModule> mod = test_module();
        gpu().launch(mod->function("trap_kernel"), {1, 1, 1}, {32, 1, 1}, 0, std::vector<tritium_arg>{});
        try {
          gpu().synchronize();
        } catch (const std::exception& e) {
          fprintf(stderr, "%s\n", e.what());
          std::_Exit(3);
        }
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(3), "cuda: cuCtxSynchronize failed: .*the last launch was kernel 'trap_kernel'");
}

TEST(CudaDevice, ThePublicApiMovesBytes) {
  TRITIUM_REQUIRE_GPU();
  tritium::Device dev = tritium::Device::get("cuda");
  std::vector<int32_t> v = {1, -2, 3, 1 << 30};
  tritium::Buffer b = dev.upload(v.data(), v.size() * 4);
  std::vector<int32_t> back(v.size());
  b.copy_to_host(back.data(), back.size() * 4);
  EXPECT_EQ(back, v);
  EXPECT_EQ(tritium::Device::best_backend(), "cuda");
}

}  // namespace
}  // namespace tritium::runtime::cuda
