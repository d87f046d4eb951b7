// child.cpp - tritium-startup-child, the process whose cached launch tritium-startup times
// (startup.h, run_cached_launch): `tritium-startup-child FILE FUNCTION SIGNATURE` with
// TRITIUM_CACHE_DIR set to a warm cache loads the module, compiles on the "cpu" device (a
// disk-cache hit), launches once on grid (1, 1, 1) with tiny buffers (256 KiB each, integers
// 16 or 1 as the specialization demands, floats 1.0), synchronizes and prints one line
// "tritium-startup-child key=value ..." (CLOCK_MONOTONIC stamps, the cache counters: hits,
// builds, and input_hits, the hits found without lowering).
//
// A separate executable linked with tritium_core alone: it loads what a program using
// tritium loads (libstdc++, fmt), not the bench's baselines (OpenBLAS with libgfortran,
// libmvec, libcrypto), whose loading and relocation took ~3 ms of a 9 ms launch on the
// 2-core AMD VM when the child was tritium-startup itself re-executed.
// Exit status: 0 success, 1 failure (message on stderr), 2 usage.
#include <time.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <tritium/tritium.h>

#include "runtime/cpu/cpu_device.h"

namespace {

int64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

/// Bytes of every pointer argument. With integers of 16 and one program, the suite's kernels
/// touch at most a few KiB (attention: 64 rows x stride 16 + head dim 128 elements); the
/// rest of the 256 KiB is margin. Fresh mmap'd pages: no fill.
constexpr size_t kTinyBytes = size_t{256} << 10;

}  // namespace

int main(int argc, char** argv) {
  const int64_t main_ns = monotonic_ns();  // first: the child's clock starts here
  using namespace tritium;
  if (argc != 4) {
    std::fprintf(stderr, "tritium-startup-child: expected FILE FUNCTION SIGNATURE\n");
    return 2;
  }
  try {
    Device device = Device::get("cpu");
    const int64_t loading_ns = monotonic_ns();
    Module m = Module::from_file(argv[1]);
    CompiledKernel k = m.kernel(argv[2]).compile(device, argv[3]);
    const int64_t compiled_ns = monotonic_ns();
    std::vector<Buffer> buffers;
    buffers.reserve(k.arguments().size());  // Args point at the buffers: no reallocation
    std::vector<Arg> args;
    for (const ArgInfo& a : k.arguments()) {
      if (a.is_pointer) {
        buffers.push_back(device.alloc(kTinyBytes));
        args.emplace_back(buffers.back());
      } else if (a.dtype.rfind("fp", 0) == 0 || a.dtype.rfind("bf", 0) == 0) {
        args.emplace_back(1.0);
      } else {
        args.emplace_back(int64_t{a.equal_to_1 || a.dtype == "i1" ? 1 : 16});
      }
    }
    k.launch({1, 1, 1}, args);
    device.synchronize();
    const int64_t launched_ns = monotonic_ns();
    const runtime::cpu::CpuCompileCounters c = runtime::cpu::cpu_compile_counters();
    std::printf("tritium-startup-child main_ns=%" PRId64 " loading_ns=%" PRId64 " compiled_ns=%" PRId64
                " launched_ns=%" PRId64 " hits=%" PRIu64 " builds=%" PRIu64 " input_hits=%" PRIu64 "\n",
                main_ns, loading_ns, compiled_ns, launched_ns, c.cache_hits, c.builds, c.input_hits);
    std::fflush(stdout);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tritium-startup-child: %s\n", e.what());
    return 1;
  }
}
