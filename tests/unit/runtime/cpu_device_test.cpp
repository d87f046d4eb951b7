// The CPU device: compile through the disk cache (hit on the second compile, rebuild of a
// corrupted entry), buffers, and the thread pool.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "ir/builder.h"
#include "runtime/cache.h"
#include "runtime/cpu/compiler.h"
#include "runtime/cpu/cpu_device.h"
#include "runtime/cpu/thread_pool.h"

namespace tritium::runtime {
namespace {
namespace fs = std::filesystem;
using ir::OpKind;
using ir::ScalarType;
using ir::Type;

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag) {
    path = fs::temp_directory_path() / ("tritium-" + tag + "-" + std::to_string(::getpid()));
    fs::remove_all(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

/// out[i] = x[i] * `factor` + i for 16 elements (factor makes each test's source unique).
ir::Module scale_kernel(int64_t factor) {
  ir::Module m;
  ir::Function* f = m.add("scale");
  f->is_kernel = true;
  ir::Builder b(*f);
  b.set_insertion_end(&f->body);
  ir::Loc loc;
  ir::Value* x = b.add_block_arg(f->body, Type::ptr(ScalarType::I32));
  ir::Value* out = b.add_block_arg(f->body, Type::ptr(ScalarType::I32));
  ir::Value* r = b.create(OpKind::MakeRange, {}, {Type::tensor(ScalarType::I32, {16})}, loc,
                          {{"start", int64_t{0}}, {"end", int64_t{16}}})->result();
  auto ptr_t = Type{ScalarType::I32, true, {16}};
  ir::Value* px = b.create(OpKind::AddPtr, {b.splat(x, {16}, loc), r}, {ptr_t}, loc)->result();
  ir::Value* po = b.create(OpKind::AddPtr, {b.splat(out, {16}, loc), r}, {ptr_t}, loc)->result();
  ir::Value* xv = b.create(OpKind::Load, {px}, {Type::tensor(ScalarType::I32, {16})}, loc)->result();
  ir::Value* fac = b.splat(b.const_int(Type::of(ScalarType::I32), factor, loc), {16}, loc);
  ir::Value* y = b.binary(OpKind::Add, b.binary(OpKind::Mul, xv, fac, loc), r, loc);
  b.create(OpKind::Store, {po, y}, {}, loc);
  b.create(OpKind::Return, {}, {}, loc);
  return m;
}

void check_scale(LoadedKernel& k, int64_t factor) {
  std::vector<int32_t> x(16), out(16, -1);
  for (int i = 0; i < 16; ++i) x[i] = 3 * i - 20;
  tritium_arg a0, a1;
  a0.ptr = x.data();
  a1.ptr = out.data();
  k.launch({1, 1, 1}, {a0, a1});
  for (int i = 0; i < 16; ++i) ASSERT_EQ(out[i], x[i] * factor + i) << i;
}

TEST(CpuDevice, SecondCompileHitsTheCache) {
  TempDir dir("cpu-cache");
  const int64_t factor = 1000 + ::getpid() % 1000;  // a source no other run has cached
  auto dev = cpu::make_cpu_device({dir.path});
  auto before = cpu::cpu_compile_counters();
  auto k1 = dev->compile(scale_kernel(factor), {});
  auto mid = cpu::cpu_compile_counters();
  EXPECT_EQ(mid.builds, before.builds + 1);
  EXPECT_EQ(mid.cache_hits, before.cache_hits);
  check_scale(*k1, factor);
  // Source and object are in the cache directory.
  int so = 0, cpp = 0;
  for (auto& e : fs::recursive_directory_iterator(dir.path)) {
    so += e.path().extension() == ".so";
    cpp += e.path().extension() == ".cpp";
  }
  EXPECT_EQ(so, 1);
  EXPECT_EQ(cpp, 1);
  // A second device on the same directory loads the cached object, quickly.
  auto dev2 = cpu::make_cpu_device({dir.path});
  auto t0 = std::chrono::steady_clock::now();
  auto k2 = dev2->compile(scale_kernel(factor), {});
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  auto after = cpu::cpu_compile_counters();
  EXPECT_EQ(after.builds, mid.builds);
  EXPECT_EQ(after.cache_hits, mid.cache_hits + 1);
  EXPECT_LT(ms, 50.0) << "a cached kernel should load in a few milliseconds";
  check_scale(*k2, factor);
  EXPECT_EQ(k1->source(), k2->source());
  EXPECT_NE(k1->source().find("tritium_run"), std::string::npos);
  // Different options are a different specialization.
  CodegenOptions dbg;
  dbg.debug = true;
  auto k3 = dev2->compile(scale_kernel(factor), dbg);
  EXPECT_EQ(cpu::cpu_compile_counters().builds, after.builds + 1);
}

TEST(CpuDevice, CorruptedCachedObjectIsRebuilt) {
  TempDir dir("cpu-corrupt");
  const int64_t factor = 3000 + ::getpid() % 1000;
  {
    auto dev = cpu::make_cpu_device({dir.path});
    auto k = dev->compile(scale_kernel(factor), {});
    check_scale(*k, factor);
  }  // kernel unloaded: the object may now be damaged on disk
  fs::path so;
  for (auto& e : fs::recursive_directory_iterator(dir.path))
    if (e.path().extension() == ".so") so = e.path();
  ASSERT_FALSE(so.empty());
  fs::resize_file(so, fs::file_size(so) / 2);  // truncated, as by a crash mid-copy
  auto before = cpu::cpu_compile_counters();
  auto dev = cpu::make_cpu_device({dir.path});
  auto k = dev->compile(scale_kernel(factor), {});
  auto after = cpu::cpu_compile_counters();
  EXPECT_EQ(after.builds, before.builds + 1) << "the damaged entry must be rebuilt";
  check_scale(*k, factor);
  DiskCache cache(dir.path);
  int verified = 0;
  for (auto& e : fs::recursive_directory_iterator(dir.path))
    if (e.path().extension() == ".so") {
      std::string key = e.path().stem().string();
      verified += cache.read(key, "so").has_value();
    }
  EXPECT_EQ(verified, 1);
}

TEST(CpuDevice, BuffersAndArgumentChecks) {
  auto dev = make_cpu_device();
  EXPECT_EQ(dev->name(), "cpu");
  EXPECT_FALSE(dev->description().empty());
  DeviceBuffer b = dev->alloc(100);
  ASSERT_NE(b.ptr, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.ptr) % 64, 0u);
  std::vector<uint8_t> in(100), out(100, 0);
  for (int i = 0; i < 100; ++i) in[i] = static_cast<uint8_t>(i * 7 + 1);
  dev->copy_in(b, in.data(), 100);
  dev->copy_out(out.data(), b, 60, 40);
  for (int i = 0; i < 60; ++i) EXPECT_EQ(out[i], in[40 + i]);
  EXPECT_THROW(dev->copy_in(b, in.data(), 100, 1), std::out_of_range);
  dev->free(b);
  EXPECT_EQ(b.ptr, nullptr);

  auto k = dev->compile(scale_kernel(7), {});
  EXPECT_THROW(k->launch({1, 1, 1}, {}), std::runtime_error);  // wrong argument count
}

TEST(CpuDevice, LaunchesInAForkedChild) {
  // The parent's thread pool exists (launch once); a forked child must still run kernels.
  auto dev = make_cpu_device();
  auto k = dev->compile(scale_kernel(11), {});
  check_scale(*k, 11);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::vector<int32_t> x(16, 2), out(16, -1);
    tritium_arg a0, a1;
    a0.ptr = x.data();
    a1.ptr = out.data();
    k->launch({1, 1, 1}, {a0, a1});
    bool ok = true;
    for (int i = 0; i < 16; ++i) ok = ok && out[i] == 22 + i;
    ::_exit(ok ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(CpuCompiler, FailureReportsTheCompilerMessageAndKeptSource) {
  TempDir dir("cpu-cc-fail");
  fs::create_directories(dir.path);
  fs::path src = dir.path / "broken.cpp";
  { std::ofstream(src) << "int broken_value = ;\n"; }
  try {
    cpu::compile_shared_object(src, dir.path / "broken.so", false);
    FAIL() << "expected the compiler to fail";
  } catch (const std::runtime_error& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("the C++ compiler failed"), std::string::npos) << msg;
    EXPECT_NE(msg.find("source kept at: " + src.string()), std::string::npos) << msg;
    EXPECT_NE(msg.find("broken.cpp:1"), std::string::npos) << msg;  // the compiler's own diagnostic
  }
  EXPECT_TRUE(fs::exists(src));
}

TEST(CpuThreadPool, RunsTheJobOnEveryWorkerWithBigStacks) {
  cpu::ThreadPool pool(3, size_t{64} << 20);
  EXPECT_EQ(pool.size(), 3u);
  std::atomic<int> mask{0};
  std::atomic<int> deep{0};
  for (int rep = 0; rep < 20; ++rep) {
    mask = 0;
    pool.run([&](unsigned w) {
      volatile char big[8 << 20];  // 8 MiB of stack: more than an ordinary thread may have
      big[0] = 1;
      big[sizeof(big) - 1] = static_cast<char>(w);
      deep += big[0];
      mask |= 1 << w;
    });
    ASSERT_EQ(mask.load(), 7);
  }
  EXPECT_EQ(deep.load(), 60);
}

}  // namespace
}  // namespace tritium::runtime
