// The cpu backend's cache hit without lowering (Kernel::compile, Device::load_by_inputs):
// a second Module of the same text (a new process, as far as the compile path can tell)
// loads the kernel the first one built without lowering it, with the same arguments,
// signature, IR text and results; anything lowering depends on that changes misses: the
// module text, the specialization, the options; compile-time code that reads the
// environment turns it off for the process; a kernel that prints at compile time
// (tl.static_print) is lowered every time; a damaged entry falls back to compiling.
// Results are checked bit for bit against the kernel's two fp32 operations done here
// independently: the product x * mul exact in double, rounded to fp32, then + 1 exact in
// double, rounded to fp32 (each a correctly rounded IEEE operation, as the kernel's); on
// fresh random inputs, outputs poisoned with NaN first.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#include "frontend/module_loader.h"
#include "runtime/build_id.h"
#include "runtime/cpu/cpu_device.h"
#include "tritium/tritium.h"

namespace {

namespace fs = std::filesystem;
namespace cpu = tritium::runtime::cpu;

const char* const kSrc = R"(import triton
import triton.language as tl

@triton.jit
def affine(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2.0 + 1.0, mask=m)
)";

constexpr const char* kSig = "*fp32:16, *fp32:16, i32, 256";

class InputCache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tritium_input_cache_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    tritium::frontend::reset_dynamic_inputs_for_testing();
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // A fresh cpu device on this test's private cache (no in-memory state shared with others).
  tritium::Device device() const {
    return tritium::Device(std::shared_ptr<tritium::runtime::Device>(cpu::make_cpu_device({dir_})));
  }
  // Launches `k` on n = 1000 random floats and checks out[i] == fp32(fp32(x[i] * mul) + 1).
  static void check(const tritium::CompiledKernel& k, const tritium::Device& dev, double mul, int block = 256) {
    const int n = 1000;
    std::mt19937 gen(::testing::UnitTest::GetInstance()->random_seed() + 17);
    std::uniform_real_distribution<float> u(-100.f, 100.f);
    std::vector<float> x(n), out(n, std::nanf(""));
    for (float& v : x) v = u(gen);
    auto bx = dev.upload(x), bo = dev.upload(out);
    k.launch({(n + block - 1) / block, 1, 1}, {bx, bo, n});
    out = bo.download<float>();
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(out[i], static_cast<float>(static_cast<double>(static_cast<float>(static_cast<double>(x[i]) * mul)) + 1.0))
          << "i = " << i;
  }
  fs::path dir_;
};

TEST(BuildId, IsASha256OfTheSources) {
  const std::string id = tritium::runtime::build_id();
  EXPECT_EQ(id.size(), 64u);
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
}

TEST_F(InputCache, ASecondModuleLoadsTheKernelWithoutLowering) {
  tritium::Device dev = device();
  const cpu::CpuCompileCounters c0 = cpu::cpu_compile_counters();
  auto a = tritium::Module::from_string(kSrc, "affine.py").kernel("affine").compile(dev, kSig);
  const cpu::CpuCompileCounters c1 = cpu::cpu_compile_counters();
  EXPECT_EQ(c1.builds, c0.builds + 1);
  EXPECT_EQ(c1.input_hits, c0.input_hits);
  check(a, dev, 2.0);

  tritium::Device dev2 = device();  // a new device: nothing in memory from the first
  auto b = tritium::Module::from_string(kSrc, "affine.py").kernel("affine").compile(dev2, kSig);
  const cpu::CpuCompileCounters c2 = cpu::cpu_compile_counters();
  EXPECT_EQ(c2.builds, c1.builds);
  EXPECT_EQ(c2.input_hits, c1.input_hits + 1);
  check(b, dev2, 2.0);
  // The same kernel as far as the API shows: arguments (with `written`), signature, IR, code.
  ASSERT_EQ(b.arguments().size(), a.arguments().size());
  for (size_t i = 0; i < a.arguments().size(); ++i) {
    EXPECT_EQ(b.arguments()[i].name, a.arguments()[i].name);
    EXPECT_EQ(b.arguments()[i].dtype, a.arguments()[i].dtype);
    EXPECT_EQ(b.arguments()[i].written, a.arguments()[i].written) << a.arguments()[i].name;
    EXPECT_EQ(b.arguments()[i].divisibility, a.arguments()[i].divisibility);
  }
  EXPECT_FALSE(b.arguments()[0].written);  // x_ptr is only read
  EXPECT_TRUE(b.arguments()[1].written);
  EXPECT_EQ(b.signature(), a.signature());
  EXPECT_EQ(b.source(), a.source());
  EXPECT_FALSE(a.ir().empty());
  EXPECT_EQ(b.ir(), a.ir());  // lowered on demand
}

TEST_F(InputCache, ChangedTextSpecializationOrOptionsMiss) {
  tritium::Device dev = device();
  (void)tritium::Module::from_string(kSrc, "affine.py").kernel("affine").compile(dev, kSig);
  const uint64_t hits = cpu::cpu_compile_counters().input_hits;
  std::string changed = kSrc;
  changed.replace(changed.find("* 2.0"), 5, "* 3.0");
  tritium::Device d3 = device(), d4 = device(), d5 = device(), d6 = device();
  auto k3 = tritium::Module::from_string(changed, "affine.py").kernel("affine").compile(d3, kSig);
  auto other_name = tritium::Module::from_string(kSrc, "other.py").kernel("affine").compile(d4, kSig);
  auto other_sig = tritium::Module::from_string(kSrc, "affine.py")
                       .kernel("affine")
                       .compile(d5, "*fp32:16, *fp32:16, i32, 128");
  tritium::CompileOptions portable;
  portable.portable_numerics = true;
  auto other_opts = tritium::Module::from_string(kSrc, "affine.py").kernel("affine").compile(d6, kSig, portable);
  EXPECT_EQ(cpu::cpu_compile_counters().input_hits, hits);
  check(k3, d3, 3.0);
  check(other_name, d4, 2.0);
  check(other_sig, d5, 2.0, 128);
  check(other_opts, d6, 2.0);
}

TEST_F(InputCache, CompileTimeCodeReadingTheEnvironmentTurnsItOff) {
  const char* src = R"(import os
import triton
import triton.language as tl

if os.getenv('TRITIUM_INPUT_CACHE_TEST_MUL') == '3':
    MUL: tl.constexpr = 3.0
else:
    MUL: tl.constexpr = 2.0

@triton.jit
def affine(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * MUL + 1.0, mask=m)
)";
  ::setenv("TRITIUM_INPUT_CACHE_TEST_MUL", "2", 1);
  tritium::Device dev = device();
  auto a = tritium::Module::from_string(src, "env.py").kernel("affine").compile(dev, kSig);
  EXPECT_TRUE(tritium::frontend::dynamic_inputs_seen());
  check(a, dev, 2.0);
  // A new "process" (flag cleared, as at startup) with another value: the same module text,
  // so only the environment differs. No entry was recorded, so it cannot hit a stale one.
  tritium::frontend::reset_dynamic_inputs_for_testing();
  ::setenv("TRITIUM_INPUT_CACHE_TEST_MUL", "3", 1);
  const uint64_t hits = cpu::cpu_compile_counters().input_hits;
  tritium::Device dev2 = device();
  auto b = tritium::Module::from_string(src, "env.py").kernel("affine").compile(dev2, kSig);
  EXPECT_EQ(cpu::cpu_compile_counters().input_hits, hits);
  check(b, dev2, 3.0);
  ::unsetenv("TRITIUM_INPUT_CACHE_TEST_MUL");
}

// Named constexprs are keyed by value and type, not by the canonical specialization text,
// which quotes strings without escaping: {A: "x', B='z"} and {A: "x", B: "z"} print alike.
TEST_F(InputCache, NamedConstexprsThatPrintAlikeMiss) {
  const char* src = R"(import triton
import triton.language as tl

@triton.jit
def pick(out_ptr, A: tl.constexpr, B: tl.constexpr = 'y'):
    offs = tl.arange(0, 16)
    if B == 'z':
        tl.store(out_ptr + offs, tl.full([16], 2.0, tl.float32))
    else:
        tl.store(out_ptr + offs, tl.full([16], 1.0, tl.float32))
)";
  auto run = [&](const std::map<std::string, tritium::ConstexprValue>& cx) {
    tritium::Device d = device();
    auto k = tritium::Module::from_string(src, "pick.py").kernel("pick").compile(d, "*fp32", {}, cx);
    std::vector<float> out(16, std::nanf(""));
    auto b = d.upload(out);
    k.launch({1, 1, 1}, {b});
    return b.download<float>();
  };
  const std::vector<float> z = run({{"A", std::string("x")}, {"B", std::string("z")}});
  const uint64_t hits = cpu::cpu_compile_counters().input_hits;
  const std::vector<float> y = run({{"A", std::string("x', B='z")}});
  EXPECT_EQ(cpu::cpu_compile_counters().input_hits, hits);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(z[i], 2.0f) << i;
    EXPECT_EQ(y[i], 1.0f) << i;  // B keeps its default 'y'
  }
}

// tl.static_print prints whenever the kernel is compiled: a compile that printed records
// no entry, so the next module's compile prints again.
TEST_F(InputCache, AKernelThatPrintsAtCompileTimeIsAlwaysLowered) {
  std::string src = kSrc;
  src.replace(src.find("    offs ="), 0, "    tl.static_print(\"input-cache static_print\", BLOCK)\n");
  const uint64_t hits = cpu::cpu_compile_counters().input_hits;
  for (int i = 0; i < 2; ++i) {
    tritium::Device d = device();
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    auto k = tritium::Module::from_string(src, "printing.py").kernel("affine").compile(d, kSig);
    std::fflush(stdout);
    const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
    EXPECT_NE(out.find("input-cache static_print 256"), std::string::npos) << "compile " << i << ": " << out;
    check(k, d, 2.0);
  }
  EXPECT_EQ(cpu::cpu_compile_counters().input_hits, hits);
}

TEST_F(InputCache, ADamagedEntryFallsBackToCompiling) {
  tritium::Device dev = device();
  (void)tritium::Module::from_string(kSrc, "affine.py").kernel("affine").compile(dev, kSig);
  int removed = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir_))
    if (e.path().extension() == ".so") removed += fs::remove(e.path());
  ASSERT_EQ(removed, 1);
  const cpu::CpuCompileCounters c0 = cpu::cpu_compile_counters();
  tritium::Device dev2 = device();
  auto b = tritium::Module::from_string(kSrc, "affine.py").kernel("affine").compile(dev2, kSig);
  const cpu::CpuCompileCounters c1 = cpu::cpu_compile_counters();
  EXPECT_EQ(c1.input_hits, c0.input_hits);
  EXPECT_EQ(c1.builds, c0.builds + 1);
  check(b, dev2, 2.0);
}

}  // namespace
