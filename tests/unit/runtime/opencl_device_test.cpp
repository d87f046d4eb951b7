// The OpenCL runtime layer (src/runtime/opencl): the ICD loader, device discovery, buffers
// in the device's private address space, copies, and hand-written OpenCL C kernels launched
// with tritium's ABI (a pointer = cl_mem + byte offset; scalars by value; one work-group of
// work-items per program). On CI this runs on PoCL (CPU); on the H200 machine it runs on
// NVIDIA's OpenCL driver when present.
//
// The tests skip without an OpenCL device, unless TRITIUM_REQUIRE_OPENCL=1 (scripts/test
// sets it when PoCL is installed): then a missing device is a failure, so CI notices.
// Expected values are computed here in double precision from the same random inputs; the
// kernels do one correctly rounded fp32 operation per element, so outputs match exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "runtime/opencl/opencl_device.h"

#include "require_opencl.h"

namespace {

using tritium::runtime::DeviceBuffer;
using tritium::runtime::opencl::OpenCLDevice;
using tritium::runtime::opencl::SlotKind;


OpenCLDevice& device() {
  static OpenCLDevice d;
  return d;
}

TEST(OpenCLDevice, DiscoveryDescribesTheDevice) {
  REQUIRE_OPENCL();
  const auto devs = tritium::runtime::opencl::list_devices();
  ASSERT_FALSE(devs.empty());
  for (const auto& i : devs) {
    EXPECT_FALSE(i.name.empty());
    EXPECT_GT(i.compute_units, 0u);
    EXPECT_GT(i.global_mem, 0u);
    EXPECT_NE(i.c_version.find("OpenCL C"), std::string::npos) << i.c_version;
  }
  EXPECT_NE(device().description().find(device().info().name), std::string::npos);
  EXPECT_GT(device().property_map().at("multiprocessor_count"), 0);
}

TEST(OpenCLDevice, CopyRoundTripOfRandomBytesAtOffsets) {
  REQUIRE_OPENCL();
  std::mt19937 rng(1234);
  std::vector<unsigned char> in(10007), out(10007, 0xEE);
  for (auto& b : in) b = static_cast<unsigned char>(rng());
  DeviceBuffer b = device().alloc(in.size());
  device().copy_in(b, in.data(), 5000, 0);
  device().copy_in(b, in.data() + 5000, in.size() - 5000, 5000);
  device().copy_out(out.data(), b, 3, 0);
  device().copy_out(out.data() + 3, b, in.size() - 3, 3);
  EXPECT_EQ(in, out);
  EXPECT_THROW(device().copy_in(b, in.data(), 2, in.size() - 1), std::out_of_range);
  EXPECT_THROW(device().copy_out(out.data(), b, in.size() + 1, 0), std::out_of_range);
  device().free(b);
}

TEST(OpenCLDevice, AddressesResolveToBufferAndOffset) {
  REQUIRE_OPENCL();
  DeviceBuffer a = device().alloc(100), b = device().alloc(0), c = device().alloc(4096);
  auto [ma, oa] = device().resolve(static_cast<char*>(a.ptr) + 37);
  EXPECT_EQ(oa, 37u);
  auto [mc, oc] = device().resolve(static_cast<char*>(c.ptr) + 4096);  // one past the end: a valid pointer
  EXPECT_EQ(oc, 4096u);
  EXPECT_NE(ma, mc);
  EXPECT_NE(device().resolve(b.ptr).first, ma);
  void* stale = c.ptr;
  device().free(c);
  EXPECT_THROW(device().resolve(stale), std::invalid_argument);
  EXPECT_THROW(device().resolve(reinterpret_cast<void*>(uintptr_t{16})), std::invalid_argument);
  device().free(a);
  device().free(b);
}

// y[i] = a * x[i] + y[i] over n elements, with every scalar kind in the ABI. Contraction off
// (PoCL contracts a * b + c into an FMA otherwise), as portable numerics will require.
const char* kAxpy = R"(
#pragma OPENCL FP_CONTRACT OFF
__kernel void axpy(__global const float* x_base, ulong x_off, __global float* y_base, ulong y_off,
                   float a, int n, long n64, short s16, char s8, double d) {
  __global const float* x = (__global const float*)((__global const char*)x_base + x_off);
  __global float* y = (__global float*)((__global char*)y_base + y_off);
  int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
  if (n64 != (long)n || s16 != -3 || s8 != 7 || d != 0.25) { if (i == 0) y[0] = -12345.0f; return; }
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

TEST(OpenCLDevice, HandWrittenKernelWithOffsetsAndEveryScalarKind) {
  REQUIRE_OPENCL();
  const int n = 1000, pad = 3;  // y starts 3 floats into its buffer (Arg::ptr with an offset)
  std::mt19937 rng(99);
  std::normal_distribution<float> dist;
  std::vector<float> x(n), y(n + pad), y0;
  for (float& v : x) v = dist(rng);
  for (float& v : y) v = dist(rng);
  y0 = y;
  DeviceBuffer bx = device().alloc(x.size() * 4), by = device().alloc(y.size() * 4);
  device().copy_in(bx, x.data(), x.size() * 4);
  device().copy_in(by, y.data(), y.size() * 4);
  auto k = device().load_source(kAxpy, "axpy",
                                {SlotKind::Pointer, SlotKind::Pointer, SlotKind::F32, SlotKind::I32, SlotKind::I64,
                                 SlotKind::I16, SlotKind::I8, SlotKind::F64},
                                64, "-cl-fp32-correctly-rounded-divide-sqrt");
  std::vector<tritium_arg> args(8);
  args[0].ptr = bx.ptr;
  args[1].ptr = static_cast<char*>(by.ptr) + pad * 4;
  args[2].u64 = 0;
  args[2].f32 = 1.5f;
  args[3].i64 = n;
  args[4].i64 = n;
  args[5].i64 = -3;
  args[6].i64 = 7;
  args[7].f64 = 0.25;
  k->launch({(n + 63) / 64, 1, 1}, args);
  std::vector<float> got(y.size());
  device().copy_out(got.data(), by, got.size() * 4);
  for (int i = 0; i < pad; ++i) ASSERT_EQ(got[i], y0[i]) << "before the offset pointer: untouched";
  for (int i = 0; i < n; ++i) {
    // A multiply then an add, each correctly rounded in fp32 (no FMA): the same here.
    volatile float p = 1.5f * x[i];
    const float want = p + y0[pad + i];
    ASSERT_EQ(got[pad + i], want) << i;
  }
  device().free(bx);
  device().free(by);
}

TEST(OpenCLDevice, BuildErrorsCarryTheLog) {
  REQUIRE_OPENCL();
  try {
    device().load_source("__kernel void broken(__global float* p) { p[0] = undeclared_name; }", "broken",
                         {SlotKind::Pointer});
    FAIL() << "expected a build failure";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("building kernel 'broken'"), std::string::npos) << m;
    EXPECT_NE(m.find("undeclared_name"), std::string::npos) << "the compiler's log names the error: " << m;
  }
}

TEST(OpenCLDevice, AModuleWithoutAKernelIsRefused) {
  REQUIRE_OPENCL();
  tritium::ir::Module m;
  EXPECT_THROW(device().compile(m, {}), std::invalid_argument);
}

}  // namespace
