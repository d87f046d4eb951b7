// exec.h - runs one bench case on a device: compile, upload (inputs as stored, outputs
// poisoned, guard zones around every buffer), launch once and check against the reference,
// then time repeated launches.
#pragma once

#include <functional>
#include <map>
#include <string>

#include <tritium/tritium.h>

#include "device_clock.h"
#include "report.h"
#include "suite.h"
#include "timing.h"

namespace tritium::bench {

/// Bytes of poison (kPoisonByte) before and after every device buffer; the kernel's pointer
/// starts past the front zone (keeping 16-byte alignment). A changed guard byte means an
/// out-of-bounds write. 64 KiB is more than one block of the suite's largest BLOCK_SIZE
/// (4096 fp32), so a missing mask on a ragged last block lands in the guard, not in the heap.
inline constexpr size_t kGuardBytes = size_t{64} << 10;

/// What run_case needs besides the case.
struct ExecContext {
  Device* device = nullptr;       ///< the device to run on
  std::string kernels_dir;        ///< directory of the suite's .py files
  NumericsContext numerics;       ///< target properties for the tolerances
  TimingPlan plan;                ///< warm-up and repetitions
  /// Called with the stage being entered ("setup", "compile", "check", "time").
  std::function<void(const std::string& stage)> progress;
  std::map<std::string, Module> modules;  ///< parsed kernel files, by file name (filled lazily)
  CompileOptions options;         ///< how the case's kernel is compiled (portable numerics, ...)
  /// Time each case interleaved with its baseline instead of alone: Case::run_baseline on
  /// the cpu backend (host memory), Case::run_cuda_baseline on cuda (device pointers).
  bool compare = false;
  /// The last-level cache (bytes) inputs are rotated past in a comparison (0: no rotation):
  /// the host's for cpu, the GPU's L2 for cuda.
  int64_t llc_bytes = 0;
  /// How launches are timed (device_clock.h); run_case makes clock_for(*device) when null.
  std::shared_ptr<DeviceClock> clock;
  bool time = true;               ///< time repeated launches after the checked one
  /// Also time each memory-bound case's cache-resident ceiling (cache_ceiling.h): set for
  /// backends whose roof is the host's copy bandwidth. `threads` sizes its sub-grid.
  bool cache_ceiling = false;
  int threads = 1;
  /// Called, when set, with each output array as the checked launch left it (the bytes the
  /// kernel wrote, `tritium hash`'s input).
  std::function<void(const HostArray& output)> on_output;
};

/// At most this many array sets, and this many bytes of them, in one comparison's rotation.
inline constexpr int64_t kMaxBufferSets = 4096;
inline constexpr int64_t kMaxBufferSetBytes = int64_t{4} << 30;

/// How a comparison rotates its arrays (exec.cpp): every call, of any arm, takes the next
/// of `sets` copies, so a call's arrays were last touched sets - 1 calls ago.
struct BufferRotation {
  int sets = 1;             ///< copies of the case's arrays
  bool cache_cold = false;  ///< sets x set_bytes >= 2 x the last-level cache
};

/// The rotation for arrays of `set_bytes` in all against a last-level cache (GPU: L2) of
/// `llc_bytes`: ceil(2 x llc_bytes / set_bytes) sets, so that between two uses of a set the
/// other calls stream twice the cache's size through it; clamped to 1 ..
/// min(kMaxBufferSets, kMaxBufferSetBytes / set_bytes), where cache_cold becomes false.
/// {1, false} when either size is unknown (0).
BufferRotation buffer_rotation(int64_t set_bytes, int64_t llc_bytes);

/// The suite's kernel directory: $TRITIUM_KERNELS_DIR, else the source tree's kernels/.
std::string default_kernels_dir();

/// Runs `c` and returns its result. Never throws for a failing case: compile errors, launch
/// errors and wrong results are recorded in the result (passed = false).
CaseResult run_case(const Case& c, ExecContext& ctx);

}  // namespace tritium::bench
