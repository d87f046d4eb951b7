// What ptxas reports of a compiled kernel, and the per-program limits of the GPU it must
// fit: the cuda backend's compile-time check that a kernel can launch (cuda_kernel.h).
//
// NVRTC runs ptxas when it builds a cubin; with `--ptxas-options=-v` (NvrtcOptions::
// ptxas_verbose) ptxas writes its statistics into NVRTC's program log, one block per entry
// function (CUDA 13.0's NVRTC, as the nvcc / ptxas documentation describes `--verbose`):
//
//   ptxas info    : Compiling entry function 'tritium_k' for 'sm_90'
//   ptxas info    : Function properties for tritium_k
//   ptxas         .     4664 bytes stack frame, 5304 bytes spill stores, 6788 bytes spill loads
//   ptxas info    : Used 64 registers, used 0 barriers, 4664 bytes cumulative stack size
//
// The registers are per thread. The stack frame is the thread's local memory: arrays the
// compiler could not keep in registers plus spilled registers ("spill stores" is the part
// written by spills); "cumulative stack size" adds the frames of the device functions it
// calls (the driver's CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES). Older ptxas versions print the
// same lines without "used N barriers" / "cumulative stack size"; a log without the block
// of the entry leaves PtxasInfo::known false (nothing is checked then).
//
// What a program must fit on sm_90 (H100 / H200), all measured on the H200 (driver 580,
// 2026-12-04; docs/design.md "Resources"):
//   * registers: 65,536 per block, allocated per warp in units of 256 (a thread's count
//     rounded up to a multiple of 8, times 32). A kernel over the limit fails to launch
//     ("too many resources requested for launch": 255 registers x 1,024 threads did). The
//     cuda backend declares __launch_bounds__(32 x num_warps), so ptxas keeps every kernel
//     under it by spilling; the check stays as a guard.
//   * local memory: the CUDA programming guide's limit is 512 KiB per thread, and the driver
//     keeps a little of it: a kernel with 523,712 bytes of stack launched, one with 523,776
//     did not ("invalid argument", whatever cudaLimitStackSize was). ptxas itself builds
//     frames far beyond (800,000 bytes), so this is checked here.
//   * the driver reserves local memory for every thread the GPU can hold at once (bytes per
//     thread x multiprocessors x threads per multiprocessor: 64 KiB per thread took 16.5
//     GiB of the H200, 511 KiB took 131.5 GiB). A kernel whose reservation passes the
//     device's whole memory can never launch there: checked where the device is known.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tritium::runtime::cuda {

/// ptxas' statistics of one entry function (see the file comment).
struct PtxasInfo {
  bool known = false;        ///< the log held the entry's block
  int registers = 0;         ///< 32-bit registers per thread
  int64_t stack_bytes = 0;   ///< local memory per thread: cumulative stack size (else the frame)
  int64_t spill_stores = 0;  ///< bytes of registers stored to local memory per thread
  int64_t spill_loads = 0;   ///< bytes loaded back
};

/// Reads the block of entry function `entry` from an NVRTC log with ptxas' verbose output.
PtxasInfo parse_ptxas_info(std::string_view log, std::string_view entry);

/// Registers of one block on every architecture since sm_50 (sm_90 included).
inline constexpr int64_t kRegistersPerBlock = 65536;
/// The most local memory per thread a kernel launched with on the H200 (see the file comment).
inline constexpr int64_t kSm90LocalLimit = 523712;

/// What one program may use (see the file comment). The device's figures are 0 where no
/// GPU is known (the compile-only device): those checks are then skipped.
struct CudaLimits {
  int64_t shared_per_block = 232448;  ///< bytes (sm_90's opt-in maximum, 227 KiB)
  int64_t registers_per_block = kRegistersPerBlock;
  int64_t local_per_thread = kSm90LocalLimit;
  int64_t resident_threads = 0;  ///< multiprocessors x threads per multiprocessor; 0: unknown
  int64_t device_memory = 0;     ///< bytes; 0: unknown
};

/// Registers a block of `threads` threads takes at `registers` per thread (per warp, in
/// units of 256).
int64_t registers_per_block(int registers, int threads);

/// Why a kernel with `info`, launched with `threads` threads per block, cannot launch under
/// `limits` ("needs 255 registers per thread x 1024 threads (...) = ..."), or nullopt when it
/// can (or when `info` is unknown).
std::optional<std::string> launch_refusal(const PtxasInfo& info, int threads, const CudaLimits& limits);

}  // namespace tritium::runtime::cuda
