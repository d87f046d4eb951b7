// CUDA C++ source → PTX (virtual arch, e.g. compute_90) or cubin (real arch, e.g. sm_90)
// with NVRTC, through the on-disk cache (runtime/cache.h).
//
// Options passed to NVRTC, in this order (nvrtc_option_list):
//   --gpu-architecture=<arch> -std=c++17 --fmad=<true|false> -default-device [-lineinfo]
//   -I<dir>... <extra options> [--ptxas-options=-v (cubins with ptxas_verbose)]
// Include directories (nvrtc_include_dirs), each only when it exists, duplicates dropped:
//   <dir of the loaded libnvrtc>/../include (the toolkit or pip wheel NVRTC came from),
//   $CUDA_HOME/include, $CUDA_PATH/include, /usr/local/cuda/include, and after each of
//   these its cccl/ subdirectory (CUDA 13 keeps libcu++'s <cuda/std/...> there, which
//   cuda_fp16.h / cuda_bf16.h include).
// The cache key hashes: the target (ptx/cubin), the source and its name, the whole option
// list (so include paths too), the NVRTC version and the arch.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/cache.h"

namespace tritium::runtime::cuda {

/// What NVRTC produces.
enum class NvrtcTarget {
  Ptx,    ///< PTX text, for a virtual arch ("compute_90"); JIT-compiled by the driver at load
  Cubin,  ///< SASS in an ELF cubin, for a real arch ("sm_90"); loads without JIT
};

/// The PTX arch used when no GPU is present (the H200's).
inline constexpr const char* kDefaultPtxArch = "compute_90";
/// The cubin arch used when no GPU is present.
inline constexpr const char* kDefaultCubinArch = "sm_90";

/// Options of one NVRTC compilation.
struct NvrtcOptions {
  /// "compute_XY" for NvrtcTarget::Ptx, "sm_XY" (or "sm_XYa") for NvrtcTarget::Cubin.
  std::string arch = kDefaultPtxArch;
  /// --fmad: contraction of a*b+c into fma. false for portable numerics (ARCHITECTURE.md).
  bool fmad = true;
  /// -lineinfo: source line information for profilers and error reports.
  bool lineinfo = true;
  /// Further NVRTC options (e.g. "-DBLOCK=128"), appended in order.
  std::vector<std::string> extra;
  /// Cubins only: ptxas' statistics in the log (`--ptxas-options=-v`, after `extra`): the
  /// registers, stack frame and spills of each entry function (ptxas_info.h). The log is
  /// then cached with the cubin, so a cache hit returns it too.
  bool ptxas_verbose = false;
};

/// The result of a compilation.
struct NvrtcOutput {
  std::string bytes;        ///< PTX text (without the trailing NUL) or the cubin's ELF bytes
  std::string log;          ///< NVRTC's log (warnings); empty when served from the cache, except
                            ///< with NvrtcOptions::ptxas_verbose (cached with the cubin)
  bool from_cache = false;  ///< true when no NVRTC compilation ran
};

/// A failed compilation: what() is "nvrtc: compiling <name> for <arch> failed:\n<log>".
class NvrtcCompileError : public std::runtime_error {
 public:
  /// Error for source `source_name`, with NVRTC's `log`.
  NvrtcCompileError(std::string source_name, std::string arch, std::string log);
  /// The name the source was compiled under (as in the log's "name(line): error: ...").
  const std::string& source_name() const { return source_name_; }
  /// NVRTC's full log.
  const std::string& log() const { return log_; }

 private:
  std::string source_name_;
  std::string log_;
};

/// The include directories passed to NVRTC (see the file comment). Loads NVRTC to find its
/// directory; returns only the fallbacks when NVRTC is unavailable. Never throws.
std::vector<std::string> nvrtc_include_dirs();

/// The complete NVRTC option list for `opts` and `target` (see the file comment). Throws
/// std::invalid_argument when `opts.arch` does not fit `target` (Ptx needs "compute_*",
/// Cubin needs "sm_*").
std::vector<std::string> nvrtc_option_list(const NvrtcOptions& opts, NvrtcTarget target);

/// Compiles CUDA C++ `source` (named `name` in diagnostics, e.g. "vector_add.cu") to
/// `target`. Looks the result up in `cache` first and stores it there after a compilation;
/// `cache` null = no caching. Throws std::invalid_argument for an arch that does not fit
/// the target, std::runtime_error ("nvrtc: ...") when NVRTC is unavailable or an NVRTC
/// call fails, and NvrtcCompileError (with the log) when the source does not compile.
NvrtcOutput nvrtc_compile(std::string_view source, std::string_view name, NvrtcTarget target,
                          const NvrtcOptions& opts, const DiskCache* cache = &DiskCache::global());

/// "13.0": the loaded NVRTC's version. Throws std::runtime_error when NVRTC is unavailable.
std::string nvrtc_version();

/// The real arch of the present GPU, "sm_<major><minor>" of device `ordinal` (compute
/// capability from cuDeviceGetAttribute); kDefaultCubinArch when no driver is loaded, and
/// kDefaultCubinArch followed by the failing call and its error ("sm_90 (default:
/// cuDeviceGet(0) failed: CUDA_ERROR_NO_DEVICE ...)") when a driver call fails. For
/// `tritium doctor` only (compiles for a device use the device's own checked queries).
/// Never throws.
std::string present_gpu_arch(int ordinal = 0);

/// One line for `tritium doctor`: "NVRTC 13.0 (/path/libnvrtc.so.13): offline PTX (compute_90)
/// and cubin (sm_90) compilation available", or "NVRTC unavailable: <reason>". Never throws.
std::string nvrtc_summary();

/// Process-wide counters of nvrtc_compile (for tests and diagnostics).
struct NvrtcCounters {
  uint64_t cache_hits = 0;  ///< calls served from the cache
  uint64_t compiles = 0;    ///< calls that ran NVRTC (successfully or not)
};
/// A snapshot of the counters.
NvrtcCounters nvrtc_counters();

}  // namespace tritium::runtime::cuda
