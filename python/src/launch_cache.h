// launch_cache.h - the per-JITFunction cache of `tritium._C.launch`: from what decides a
// specialization (the backend, each argument's kind, dtype and specialization facts, the
// constexprs, the launch options) to the compiled kernel, so a repeated launch skips the
// C++ API's signature and cache-key construction (Kernel::run_jit still handles every miss).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tritium/tritium.h"

namespace tritium::python {

/// One cached specialization: the kernel and the meta-parameters of its first launch
/// (RunResult::meta: constexprs, num_warps, num_stages, runtime int / float arguments).
struct LaunchEntry {
  CompiledKernel kernel;
  std::shared_ptr<const Meta> meta;
};

/// What `launch` returns: the kernel, and what its meta-parameters are built from on demand.
struct LaunchResult {
  CompiledKernel kernel;
  std::shared_ptr<const Meta> base;                        ///< RunResult::meta of the first launch
  std::shared_ptr<const std::vector<std::string>> names;  ///< runtime parameter names (null: base is exact)
  std::vector<Arg> args;                                   ///< this launch's runtime arguments (names set)
  std::array<int64_t, 3> grid;
};

/// Owned by one tritium.jit function (python/tritium/jit.py); not thread-safe, like the
/// Python objects that use it (the GIL is held).
struct LaunchCache {
  std::unordered_map<std::string, LaunchEntry> entries;
  /// do_not_specialize lists of the first launch: a launch with other lists bypasses the cache.
  std::vector<std::string> dns, dns_align;
  bool dns_set = false;
  std::shared_ptr<const std::vector<std::string>> runtime_names;  ///< set at the first launch
};

/// The key of a launch: a byte string that differs whenever Kernel::run_jit could choose a
/// different specialization. It is finer than Triton's key (it records ==1, %16 and the
/// int32 range of every int, and 16-byte alignment of every pointer, whatever
/// do_not_specialize says): a finer key only costs extra entries, never a wrong kernel.
std::string launch_key(const std::string& backend, const std::vector<Arg>& args, const Meta& meta,
                       const CompileOptions& o);

/// RunResult::meta of `r`: for a launch served from the cache, the first launch's meta with
/// this launch's runtime int / float arguments in place of the first launch's.
Meta launch_meta(const LaunchResult& r);

}  // namespace tritium::python
