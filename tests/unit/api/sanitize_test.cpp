// Sanitize mode (CompileOptions::sanitize, TRITIUM_SANITIZE=1; issue 8) on the cpu and
// msl-emu backends (each test of SanitizeOn runs on both):
// an out-of-bounds load or store is reported with the kernel, the access's file:line, the
// program id, the argument and the byte offset, and is not performed; masked-off lanes of a
// load without `other` read NaN (fp32) instead of 0; a correct kernel gives the same bits
// with and without it; backends without sanitize mode refuse the compile.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "scoped_env.h"
#include "random_floats.h"
#include "tritium/tritium.h"

namespace {

using tritium::Buffer;
using tritium::CompileOptions;
using tritium::Device;
using tritium::Error;

// Line numbers below are the lines of this text (line 1: "import triton").
const char* const kKernels = R"(import triton
import triton.language as tl

@triton.jit
def unmasked_copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x, mask=offs < n)

@triton.jit
def unmasked_store(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1.0)
    tl.store(out_ptr + offs, x)

@triton.jit
def masked_no_other(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x * 2.0)

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

@triton.jit
def loop_walk(x_ptr, out_ptr, n_blocks, BLOCK: tl.constexpr):
    p = x_ptr + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(n_blocks):
        acc += tl.load(p)
        p += BLOCK
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)

@triton.jit
def loop_switch(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    p = x_ptr
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(n):
        acc += tl.load(p + offs)
        p = y_ptr
    tl.store(out_ptr + offs, acc + tl.load(p + offs))

@triton.jit
def unmasked_count(counts_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(counts_ptr + offs, 1)
)";

const tritium::Module& module() {
  static const tritium::Module m = tritium::Module::from_string(kKernels, "sanitize_kernels.py");
  return m;
}

CompileOptions sanitized() {
  CompileOptions o;
  o.sanitize = true;
  return o;
}

// The backends with sanitize mode; each SanitizeOn test runs on both.
class SanitizeOn : public ::testing::TestWithParam<const char*> {};
INSTANTIATE_TEST_SUITE_P(Backends, SanitizeOn, ::testing::Values("cpu", "msl-emu"));

std::vector<float> random_floats(size_t n, uint32_t seed) { return random_nonzero_floats(n, seed, 4.f); }

// The message of the Error the launch throws, or "" when it does not throw.
std::string launch_error(const tritium::CompiledKernel& k, tritium::Grid grid, const std::vector<tritium::Arg>& args) {
  try {
    k.launch(grid, args);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_P(SanitizeOn, AnUnmaskedLoadPastTheEndIsReportedWithItsPlaceAndNotPerformed) {
  Device dev = Device::get(GetParam());
  // 100 floats, blocks of 64: program 1 reads elements 64..127, 28 of them past the end.
  const size_t n = 100;
  Buffer x = dev.upload(random_floats(n, 1));
  Buffer out = dev.upload(std::vector<float>(128, std::nanf("")));
  auto k = module().kernel("unmasked_copy").compile(dev, "*fp32:16, *fp32:16, i32, 64", sanitized());
  const std::string msg = launch_error(k, {2, 1, 1}, {x, out, static_cast<int32_t>(n)});
  ASSERT_FALSE(msg.empty()) << "the out-of-bounds load was not caught";
  for (const char* part : {"sanitize: out-of-bounds load of 4 bytes through `x_ptr`", "byte offset 400 of a 400-byte buffer",
                           "sanitize_kernels.py:7", "unmasked_copy", "program (1, 0, 0)"})
    EXPECT_NE(msg.find(part), std::string::npos) << part << "\n" << msg;
}

TEST_P(SanitizeOn, AnUnmaskedStorePastTheEndIsReportedAndNotPerformed) {
  Device dev = Device::get(GetParam());
  const size_t n = 100;
  const std::vector<float> xs = random_floats(n, 2);
  Buffer x = dev.upload(xs);
  // Exactly 100 floats: the 28 stores of program 1 past the end would write past the
  // allocation (and, unchecked, corrupt the heap); checked, they are skipped.
  Buffer out = dev.upload(std::vector<float>(n, std::nanf("")));
  auto k = module().kernel("unmasked_store").compile(dev, "*fp32:16, *fp32:16, i32, 64", sanitized());
  const std::string msg = launch_error(k, {2, 1, 1}, {x, out, static_cast<int32_t>(n)});
  ASSERT_FALSE(msg.empty());
  EXPECT_NE(msg.find("out-of-bounds store of 4 bytes through `out_ptr`: byte offset 400 of a 400-byte buffer"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("sanitize_kernels.py:14"), std::string::npos) << msg;
  EXPECT_NE(msg.find("program (1, 0, 0)"), std::string::npos) << msg;
  // The in-bounds stores of both programs happened (programs run on after a report).
  const std::vector<float> got = out.download<float>();
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(got[i], xs[i]) << i;
}

TEST_P(SanitizeOn, MaskedOffLanesWithoutOtherArePoisonedNotZero) {
  Device dev = Device::get(GetParam());
  const size_t n = 40;
  const std::vector<float> xs = random_floats(n, 3);
  std::vector<float> padded = xs;
  padded.resize(64, 5.0f);  // what the masked-off lanes would read if they read memory
  Buffer x = dev.upload(padded);
  for (bool san : {false, true}) {
    Buffer out = dev.upload(std::vector<float>(64, 123.0f));
    CompileOptions o;
    o.sanitize = san;
    auto k = module().kernel("masked_no_other").compile(dev, "*fp32:16, *fp32:16, i32, 64", o);
    k.launch({1, 1, 1}, {x, out, static_cast<int32_t>(n)});
    const std::vector<float> got = out.download<float>();
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(got[i], xs[i] * 2.0f) << i;  // exact: a doubling
    for (size_t i = n; i < 64; ++i) {
      if (san) EXPECT_TRUE(std::isnan(got[i])) << "lane " << i << " read " << got[i];
      else EXPECT_EQ(got[i], 0.0f) << "lane " << i;  // tritium's documented 0 without sanitize
    }
  }
}

TEST_P(SanitizeOn, ACorrectKernelGivesTheSameBitsCheckedAndUnchecked) {
  Device dev = Device::get(GetParam());
  const size_t n = 1000;
  Buffer x = dev.upload(random_floats(n, 4)), y = dev.upload(random_floats(n, 5));
  std::vector<std::vector<float>> results;
  for (bool san : {false, true}) {
    Buffer out = dev.upload(std::vector<float>(n, std::nanf("")));
    CompileOptions o;
    o.sanitize = san;
    auto k = module().kernel("add_kernel").compile(dev, "*fp32:16, *fp32:16, *fp32:16, i32, 128", o);
    EXPECT_EQ(launch_error(k, {8, 1, 1}, {x, y, out, static_cast<int32_t>(n)}), "");
    results.push_back(out.download<float>());
  }
  ASSERT_EQ(results[0].size(), results[1].size());
  EXPECT_EQ(std::memcmp(results[0].data(), results[1].data(), n * sizeof(float)), 0);
  const std::vector<float> xs = x.download<float>(), ys = y.download<float>();
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(results[1][i], xs[i] + ys[i]) << i;  // one fp32 add
}

TEST_P(SanitizeOn, TheEnvironmentVariableTurnsItOn) {
  Device dev = Device::get(GetParam());
  const size_t n = 100;
  Buffer x = dev.upload(random_floats(n, 6));
  Buffer out = dev.upload(std::vector<float>(128, 0.0f));
  ScopedEnv env("TRITIUM_SANITIZE", "1");
  auto k = module().kernel("unmasked_copy").compile(dev, "*fp32:16, *fp32:16, i32, 64");
  const std::string msg = launch_error(k, {2, 1, 1}, {x, out, static_cast<int32_t>(n)});
  EXPECT_NE(msg.find("out-of-bounds load"), std::string::npos) << msg;
  auto checked = module().kernel("unmasked_copy").compile(dev, "*fp32:16, *fp32:16, i32, 64", sanitized());
  EXPECT_NE(checked.source().find("tr_san_ok("), std::string::npos);
}

TEST(Sanitize, BackendsWithoutItRefuseTheCompile) {
  Device dev = Device::get("interp");
  try {
    module().kernel("add_kernel").compile(dev, "*fp32:16, *fp32:16, *fp32:16, i32, 128", sanitized());
    FAIL() << "interp accepted a sanitize compile";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("sanitize mode"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cpu and msl-emu backends only"), std::string::npos) << e.what();
  }
}

TEST(Sanitize, UnderTheEnvironmentAloneOtherBackendsRunUnchecked) {
  // The variable is a switch for whole runs over several backends: interp is not refused.
  ScopedEnv env("TRITIUM_SANITIZE", "1");
  Device dev = Device::get("interp");
  const size_t n = 100;
  Buffer x = dev.upload(random_floats(n, 7)), y = dev.upload(random_floats(n, 8));
  Buffer out = dev.upload(std::vector<float>(n, std::nanf("")));
  auto k = module().kernel("add_kernel").compile(dev, "*fp32:16, *fp32:16, *fp32:16, i32, 128");
  EXPECT_EQ(launch_error(k, {1, 1, 1}, {x, y, out, static_cast<int32_t>(n)}), "");
  const std::vector<float> xs = x.download<float>(), ys = y.download<float>(), got = out.download<float>();
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(got[i], xs[i] + ys[i]) << i;
}

TEST_P(SanitizeOn, ALoopCarriedPointerIsCheckedAgainstItsArgument) {
  Device dev = Device::get(GetParam());
  // Three blocks of 64 floats; the loop walks four: the fourth block's first load is at
  // byte offset 3 x 64 x 4 = 768 of the 768-byte buffer.
  const std::vector<float> xs = random_floats(3 * 64, 9);
  Buffer x = dev.upload(xs);
  Buffer out = dev.upload(std::vector<float>(64, std::nanf("")));
  auto k = module().kernel("loop_walk").compile(dev, "*fp32:16, *fp32:16, i32, 64", sanitized());
  EXPECT_EQ(launch_error(k, {1, 1, 1}, {x, out, 3}), "") << "three blocks are in bounds";
  const std::vector<float> got = out.download<float>();
  for (size_t i = 0; i < 64; ++i) EXPECT_EQ(got[i], (0.0f + xs[i] + xs[64 + i]) + xs[128 + i]) << i;
  const std::string msg = launch_error(k, {1, 1, 1}, {x, out, 4});
  EXPECT_NE(msg.find("through `x_ptr`: byte offset 768 of a 768-byte buffer"), std::string::npos) << msg;
  EXPECT_NE(msg.find("sanitize_kernels.py:33"), std::string::npos) << msg;
}

TEST_P(SanitizeOn, AnInteriorPointerIsCheckedAgainstItsWholeBuffer) {
  // Arg::ptr at byte 256 of a 512-byte buffer: the kernel's accesses are checked against the
  // whole buffer, so offsets are reported from its start; 128 floats from byte 256 run 256
  // bytes past the end: the first bad load is at byte 512.
  Device dev = Device::get(GetParam());
  Buffer x = dev.upload(random_floats(128, 10));
  Buffer out = dev.upload(std::vector<float>(128, 0.0f));
  auto k = module().kernel("unmasked_copy").compile(dev, "*fp32:16, *fp32:16, i32, 64", sanitized());
  const std::string msg = launch_error(k, {2, 1, 1}, {tritium::Arg::ptr(x, 256), out, 128});
  EXPECT_NE(msg.find("through `x_ptr`: byte offset 512 of a 512-byte buffer"), std::string::npos) << msg;
  EXPECT_EQ(launch_error(k, {1, 1, 1}, {tritium::Arg::ptr(x, 256), out, 64}), "") << "64 floats from byte 256 fit";
}

TEST_P(SanitizeOn, APointerALoopSwitchesToAnotherArgumentIsNotAFalseAlarm) {
  // p starts at x and the loop body sets it to y: inside the loop p may be either (checked
  // against any argument's buffer), after it p is the loop's result (not traced). A correct
  // launch reports nothing; x holds 64 floats, y 64.
  Device dev = Device::get(GetParam());
  const std::vector<float> xs = random_floats(64, 11), ys = random_floats(64, 12);
  Buffer x = dev.upload(xs), y = dev.upload(ys);
  Buffer out = dev.upload(std::vector<float>(64, std::nanf("")));
  auto k = module().kernel("loop_switch").compile(dev, "*fp32:16, *fp32:16, *fp32:16, i32, 64", sanitized());
  EXPECT_EQ(launch_error(k, {1, 1, 1}, {x, y, out, 2}), "");
  const std::vector<float> got = out.download<float>();
  for (size_t i = 0; i < 64; ++i) EXPECT_EQ(got[i], ((0.0f + xs[i]) + ys[i]) + ys[i]) << i;
}

TEST_P(SanitizeOn, AnAtomicPastTheEndIsReportedAndNotPerformed) {
  Device dev = Device::get(GetParam());
  // 40 counters, blocks of 32: program 1's atomics on elements 40..63 are out of bounds.
  const std::vector<int32_t> start = [] {
    std::vector<int32_t> v(40);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int32_t>(3 * i + 1);
    return v;
  }();
  Buffer counts = dev.upload(start);
  auto k = module().kernel("unmasked_count").compile(dev, "*i32:16, 32", sanitized());
  const std::string msg = launch_error(k, {2, 1, 1}, {counts});
  EXPECT_NE(msg.find("out-of-bounds atomic of 4 bytes through `counts_ptr`: byte offset 160 of a 160-byte buffer"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("sanitize_kernels.py:50"), std::string::npos) << msg;
  EXPECT_NE(msg.find("program (1, 0, 0)"), std::string::npos) << msg;
  const std::vector<int32_t> got = counts.download<int32_t>();
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], start[i] + 1) << i;  // in-bounds ones applied once
}
