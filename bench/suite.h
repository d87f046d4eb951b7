// suite.h - the bench's case list: every built-in kernel (kernels/*.py), in fp32, fp16 and
// bf16, at a small size (the --quick CI set, with ragged edges) and a large one (arrays
// several times the last-level cache for memory-bound kernels; matmul 512^3; attention
// Z=1, H=4, N=1024, D=64/128, full and causal).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "problem.h"

namespace tritium::bench {

/// Target properties that change what a correct result is.
struct NumericsContext {
  /// tl.dot with fp32 operands rounds them to tf32 (as upstream Triton does on NVIDIA GPUs).
  bool dot_tf32 = false;
};

/// One bench case.
struct Case {
  std::string id;         ///< "kernel/dtype/shape", unique; what --filter matches
  std::string kernel;     ///< display name ("softmax_online", "attention_causal", ...)
  std::string file;       ///< kernel file, relative to kernels/ ("softmax.py")
  std::string function;   ///< the @triton.jit function launched ("softmax_online_kernel")
  std::string shape;      ///< human-readable shape ("4096x4096", "1x4x1024x64")
  std::string dtype;      ///< "fp32", "fp16" or "bf16"
  std::string signature;  ///< AOT signature, constexpr values in place
  std::array<int64_t, 3> grid{1, 1, 1};  ///< programs along x, y, z
  bool quick = false;     ///< small size: part of the --quick set
  bool memory_bound = true;  ///< report GB/s and % of copy bandwidth (else TFLOP/s)
  /// Every program along x moves the same bytes (whole blocks, equal rows), so a grid with
  /// fewer programs along x moves its share of `bytes` (the cache ceiling, cache_ceiling.h).
  bool even_programs = false;
  double bytes = 0;       ///< bytes moved (cost.h)
  double flops = 0;       ///< floating-point operations (0 for memory-bound kernels)
  /// Builds the data (seeded from the id, so deterministic), the arguments and the
  /// expected outputs.
  std::function<Problem(const NumericsContext&)> make;
  /// The cpu backend's baseline (baselines_cpu.h): its name in the report ("C++ loop",
  /// "OpenBLAS sgemm"), and a function computing the outputs into a Problem's host arrays
  /// (make()'s, with the same indices); empty when the case has none.
  std::string baseline;
  std::function<void(std::vector<HostArray>& arrays)> run_baseline;
  /// The cuda backend's in-process baseline (baselines_cuda.h: cuBLAS for matmul): its name,
  /// and a function that enqueues it on the default stream over the device pointers of
  /// make()'s arrays (same indices, each pointing at the array's first element); empty when
  /// the case has none. It throws when the library is missing.
  std::string cuda_baseline;
  std::function<void(const std::vector<void*>& device_ptrs, const NumericsContext& numerics)> run_cuda_baseline;
};

/// Every case, in a fixed order (kernel by kernel; small before large).
std::vector<Case> all_cases();

/// The cases to run: only quick ones when `quick`, and only those whose id contains
/// `filter` (every case when empty).
std::vector<Case> select_cases(const std::vector<Case>& cases, bool quick, const std::string& filter);

}  // namespace tritium::bench
