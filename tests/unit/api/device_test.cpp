// The backend registry, tritium::Device and tritium::Buffer (no compiler involved).
#include <cstdlib>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "fake_device.h"
#include "runtime/registry.h"
#include "tritium/tritium.h"

namespace {

using tritium::Buffer;
using tritium::Device;
using tritium::Error;
using tritium::ErrorKind;

TEST(ApiRegistry, ListsEveryBackendInOrder) {
  std::vector<tritium::runtime::BackendStatus> all = tritium::runtime::list_backends();
  std::vector<std::string> names;
  for (auto& b : all) names.push_back(b.name);
  EXPECT_EQ(names, (std::vector<std::string>{"cpu", "interp", "cuda", "opencl", "metal", "msl-emu"}));
  for (auto& b : all) {
    EXPECT_FALSE(b.summary.empty()) << b.name;
    EXPECT_EQ(b.available, b.reason.empty()) << b.name << ": an unavailable backend needs a reason";
  }
  EXPECT_TRUE(tritium::runtime::backend_status("interp").available);
  // cuda: available where a driver and a GPU are, else the reason names what is missing
  // (tests/unit/runtime/cuda_api_test.cpp checks the reasons).
  if (auto cuda = tritium::runtime::backend_status("cuda"); !cuda.available)
    EXPECT_FALSE(cuda.reason.empty());
  // metal: only on Apple platforms (elsewhere the reason says so); msl-emu, which runs the
  // metal renderer's text on the CPU, is available wherever a C++ compiler is.
  auto metal = tritium::runtime::backend_status("metal");
#if !defined(__APPLE__)
  EXPECT_FALSE(metal.available);
  EXPECT_NE(metal.reason.find("Metal runs only on Apple platforms"), std::string::npos) << metal.reason;
#endif
  if (!metal.available) EXPECT_FALSE(metal.reason.empty());
  EXPECT_EQ(tritium::runtime::backend_status("msl-emu").available, !tritium::runtime::find_cxx_compiler().empty());
  // opencl: available where the ICD loader finds a device (PoCL on CI: scripts/test sets
  // TRITIUM_REQUIRE_OPENCL=1), else the loader's reason.
  auto cl = tritium::runtime::backend_status("opencl");
  const char* req = std::getenv("TRITIUM_REQUIRE_OPENCL");
  if (req && std::string(req) == "1") EXPECT_TRUE(cl.available) << cl.reason;
  if (!cl.available) EXPECT_FALSE(cl.reason.empty());
}

TEST(ApiRegistry, UnknownAndUnavailableBackendsThrow) {
  EXPECT_THROW(tritium::runtime::backend_status("tpu"), std::invalid_argument);
  EXPECT_THROW(tritium::runtime::create_device("tpu"), std::invalid_argument);
#if !defined(__APPLE__)
  try {
    tritium::runtime::create_device("metal");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("backend 'metal' is unavailable: Metal runs only on Apple platforms"),
              std::string::npos)
        << e.what();
  }
#endif
  try {
    Device::get("tpu");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::NotFound);
    EXPECT_NE(std::string(e.what()).find("known: cpu, interp"), std::string::npos) << e.what();
  }
  try {
    Device::get("metal");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Device);
  }
}

TEST(ApiRegistry, BestBackendIsTheGpuElseCpuWhenACompilerExists) {
  // metal and opencl are not built yet: cuda where a GPU is present, else cpu (or interp
  // without a C++ compiler).
  std::string expected = tritium::runtime::find_cxx_compiler().empty() ? "interp" : "cpu";
  if (tritium::runtime::backend_status("cuda").available) expected = "cuda";
  EXPECT_EQ(tritium::runtime::best_backend(), expected);
  EXPECT_EQ(Device::best_backend(), expected);
  std::vector<tritium::BackendInfo> list = Device::list();
  ASSERT_EQ(list.size(), 6u);
  EXPECT_EQ(list[1].name, "interp");
  EXPECT_TRUE(list[1].available);
}

TEST(ApiDevice, GetReturnsOneInstancePerBackend) {
  Device a = Device::get("interp"), b = Device::get("interp");
  EXPECT_EQ(a.impl().get(), b.impl().get());
  EXPECT_EQ(a.name(), "interp");
  EXPECT_FALSE(a.description().empty());
}

TEST(ApiBuffer, InterpRoundTripAndPartialCopies) {
  Device dev = Device::get("interp");
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> dist(-4.f, 4.f);
  std::vector<float> host(1000);
  for (float& x : host) x = dist(gen);
  Buffer b = dev.upload(host);
  EXPECT_EQ(b.size(), 4000u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.device_ptr()) % 16, 0u) << "interp buffers are 16-byte aligned";
  EXPECT_EQ(b.download<float>(), host);
  // Overwrite elements [10, 20) and read back [5, 25).
  std::vector<float> patch(10, 7.5f);
  b.copy_from_host(patch.data(), 40, 40);
  std::vector<float> window(20, NAN);
  b.copy_to_host(window.data(), 80, 20);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(window[i], (i >= 5 && i < 15) ? 7.5f : host[5 + i]) << i;
}

TEST(ApiBuffer, FillAndSizeChecks) {
  Device dev = Device::get("interp");
  Buffer b = dev.alloc(12);
  b.fill<uint32_t>(0xDEADBEEF);
  EXPECT_EQ(b.download<uint32_t>(), (std::vector<uint32_t>{0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF}));
  EXPECT_THROW(b.download<double>(), Error);  // 12 is not a multiple of 8
  char tmp[16];
  try {
    b.copy_to_host(tmp, 8, 8);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("bytes [8, 16) are outside the buffer of 12 bytes"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(b.copy_from_host(tmp, 1, 12), Error);
  EXPECT_THROW(b.copy_from_host(tmp, SIZE_MAX, 1), Error);  // no overflow in the range check
  Buffer zero = dev.alloc(0);
  EXPECT_EQ(zero.size(), 0u);
  EXPECT_TRUE(zero.download<float>().empty());
}

TEST(ApiBuffer, MoveTransfersOwnershipAndFreesOnce) {
  auto fake = std::make_shared<tritium::testing::FakeDevice>();
  Device dev(fake);
  {
    Buffer a = dev.alloc(64);
    EXPECT_EQ(fake->live, 1);
    void* p = a.device_ptr();
    Buffer b = std::move(a);
    EXPECT_TRUE(a.empty());
    EXPECT_EQ(b.device_ptr(), p);
    EXPECT_EQ(fake->live, 1);
    Buffer c = dev.alloc(8);
    EXPECT_EQ(fake->live, 2);
    c = std::move(b);  // frees c's old allocation
    EXPECT_EQ(fake->live, 1);
    EXPECT_EQ(c.device_ptr(), p);
    EXPECT_THROW(a.copy_to_host(nullptr, 0), Error);  // moved-from buffer is empty
  }
  EXPECT_EQ(fake->live, 0);
}

TEST(ApiDevice, BuffersKeepTheirDeviceAlive) {
  auto fake = std::make_shared<tritium::testing::FakeDevice>();
  std::weak_ptr<tritium::testing::FakeDevice> weak = fake;
  Buffer b;
  {
    Device dev(std::move(fake));
    b = dev.alloc(32);
  }
  EXPECT_FALSE(weak.expired());
  b = Buffer();
  EXPECT_TRUE(weak.expired());
}

TEST(ApiGrid, ShapesAndCdiv) {
  tritium::Grid g1{7};
  EXPECT_EQ(g1.x, 7);
  EXPECT_EQ(g1.y, 1);
  EXPECT_EQ(g1.z, 1);
  size_t n = 1000;
  tritium::Grid g2{tritium::cdiv(static_cast<int64_t>(n), 256), 3u};
  EXPECT_EQ(g2.x, 4);
  EXPECT_EQ(g2.y, 3);
  EXPECT_EQ(tritium::Grid(uint64_t{1} << 63).x, -1);  // does not fit: rejected at launch
  static_assert(tritium::cdiv(1024, 256) == 4 && tritium::cdiv(1025, 256) == 5 && tritium::cdiv(0, 8) == 0);
}

}  // namespace
