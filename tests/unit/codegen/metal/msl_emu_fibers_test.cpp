// msl-emu's threadgroups (codegen/metal/msl_emu.h): hand-written MSL kernels, compiled
// against the emulated <metal_stdlib> with the launcher msl_emu_driver() appends and run
// in an arena as the msl-emu device runs them. Checked against values computed here:
// threadgroup memory shared by every thread of a threadgroup and private to it, a barrier
// ordering one thread's write before another's read, simd_shuffle_xor exchanging within a
// simdgroup of 32, threadgroup memory poisoned (0xa5) before each threadgroup, and a barrier
// that not every thread reaches failing the launch instead of hanging.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "codegen/metal/msl_emu.h"
#include "runtime/cpu/compiler.h"

namespace {

namespace fs = std::filesystem;
using tritium::codegen::msl_emu_driver;

typedef union tritium_arg {
  void* ptr;
  int64_t i64;
  uint64_t u64;
  float f32;
} tritium_arg;
typedef int (*run_fn)(const tritium_arg*, const int32_t*, int64_t, int64_t, uint32_t*, void*);

// Kernel `body` (one `device uint32_t* a0` parameter) as a threadgroup-shape MSL program of
// `threads` threads and 256 bytes of threadgroup memory, loaded; the library handle in *h.
run_fn build(const std::string& body, int threads, void** h) {
  const fs::path dir = fs::temp_directory_path() / ("tritium_msl_fibers_" + std::to_string(::getpid()) + "_" +
                                                    std::to_string(threads) + "_" + std::to_string(body.size()));
  fs::create_directories(dir);
  std::ofstream(dir / "metal_stdlib") << tritium::codegen::msl_emu_stdlib();
  const std::vector<tritium::ir::Type> params = {tritium::ir::Type::ptr(tritium::ir::ScalarType::U32)};
  std::ofstream(dir / "t.cpp") << "#include <metal_stdlib>\nusing namespace metal;\n"
                               << "kernel void tritium_kernel(device uint32_t* a0 [[buffer(0)]], threadgroup uchar* "
                                  "tr_dyn_smem, uint3 tr_pid [[threadgroup_position_in_grid]], uint3 tr_npid "
                                  "[[threadgroups_per_grid]], uint tr_tid_in [[thread_index_in_threadgroup]]) {\n"
                               << body << "}\n"
                               << msl_emu_driver(params, 0, threads, 256);
  tritium::runtime::cpu::compile_shared_object(dir / "t.cpp", dir / "t.so", false, {"-I" + dir.string()});
  *h = dlopen((dir / "t.so").c_str(), RTLD_NOW | RTLD_LOCAL);
  fs::remove_all(dir);
  if (!*h) return nullptr;
  return reinterpret_cast<run_fn>(dlsym(*h, "tritium_msl_run"));
}

struct Arena {
  void* p = mmap(nullptr, tritium::codegen::kMslEmuArenaBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ~Arena() { munmap(p, tritium::codegen::kMslEmuArenaBytes); }
};

TEST(MslEmu, ThreadgroupMemoryBarriersAndShuffles) {
  // Thread t of program p: reads its slot before any write (the poison), writes t*3 + p,
  // and after the barrier reads thread (63 - t)'s slot; then takes that value from the
  // lane t ^ 5 of its simdgroup.
  const std::string body = R"(
  const uint t = tr_tid_in, p = tr_pid.x;
  threadgroup uint32_t* s = (threadgroup uint32_t*)tr_dyn_smem;
  const uint32_t before = s[t];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  s[t] = t * 3u + p;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  const uint32_t v = s[63u - t];
  a0[(p * 64u + t) * 2u] = simd_shuffle_xor(v, (ushort)5);
  a0[(p * 64u + t) * 2u + 1u] = before;
)";
  void* h = nullptr;
  run_fn run = build(body, 64, &h);
  ASSERT_NE(run, nullptr) << dlerror();
  const int programs = 3;
  std::vector<uint32_t> out(programs * 64 * 2, 0x77777777u);
  tritium_arg arg;
  arg.ptr = out.data();
  const int32_t grid[3] = {programs, 1, 1};
  Arena arena;
  uint32_t status = 0xffffffffu;
  EXPECT_EQ(run(&arg, grid, 0, programs, &status, arena.p), 0);
  for (uint32_t p = 0; p < programs; ++p)
    for (uint32_t t = 0; t < 64; ++t) {
      const uint32_t from = t ^ 5u;  // same simdgroup: t and t ^ 5 agree above bit 4
      EXPECT_EQ(out[(p * 64 + t) * 2], (63u - from) * 3u + p) << "program " << p << " thread " << t;
      EXPECT_EQ(out[(p * 64 + t) * 2 + 1], 0xa5a5a5a5u) << "program " << p << " thread " << t;
    }
  dlclose(h);
}

TEST(MslEmu, ABarrierNotEveryThreadReachesFailsTheLaunch) {
  const std::string body = R"(
  if (tr_tid_in < 32u) threadgroup_barrier(mem_flags::mem_threadgroup);
  a0[tr_tid_in] = 1u;
)";
  void* h = nullptr;
  run_fn run = build(body, 64, &h);
  ASSERT_NE(run, nullptr) << dlerror();
  std::vector<uint32_t> out(64, 0);
  tritium_arg arg;
  arg.ptr = out.data();
  const int32_t grid[3] = {1, 1, 1};
  Arena arena;
  uint32_t status = 0xffffffffu;
  EXPECT_EQ(run(&arg, grid, 0, 1, &status, arena.p), 1);
  dlclose(h);
  // The same barrier reached by every thread: the launch succeeds.
  const std::string fine = R"(
  threadgroup_barrier(mem_flags::mem_threadgroup);
  a0[tr_tid_in] = 1u;
)";
  run = build(fine, 64, &h);
  ASSERT_NE(run, nullptr) << dlerror();
  EXPECT_EQ(run(&arg, grid, 0, 1, &status, arena.p), 0);
  for (uint32_t v : out) EXPECT_EQ(v, 1u);
  dlclose(h);
}

}  // namespace
