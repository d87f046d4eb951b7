// The Metal toolchain probe: which `-std=metalX.Y` the metal backend compiles its MSL with.
//
// The metal backend compiles each program offline, as Apple's tools do:
//   xcrun -sdk macosx metal -std=<language> -fno-fast-math -c kernel.metal -o kernel.air
//   xcrun -sdk macosx metallib kernel.air -o kernel.metallib
// (plus MetalToolchain::flags) then loads the metallib and creates a compute pipeline from its `tritium_kernel`.
// A compiler may accept a language version the operating system's Metal runtime cannot
// load (a newer Xcode on an older macOS), so the probe takes the newest version, from
// metal_languages(), for which a probe program compiles, links AND yields a compute
// pipeline on the device (the caller's PipelineCheck). MSL 3.2 (macOS 15, Xcode 16) is the
// oldest tried: tritium's programs use its `#pragma METAL fp` pragmas and device-scope
// fences.
//
// A missing toolchain is recognised from the tools' messages (missing_toolchain_advice):
// macOS 26 installs the Metal toolchain on demand (`xcodebuild -downloadComponent
// MetalToolchain`); the Command Line Tools alone have no `metal`.
//
// Nothing here calls Metal itself, so the probe's logic is tested on any machine with a
// stand-in `xcrun` (tests/unit/runtime/metal/metal_toolchain_test.cpp).
#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/cache.h"
#include "runtime/cpu/compiler.h"

namespace tritium::runtime::metal {

/// The toolchain and language version the probe chose.
struct MetalToolchain {
  std::vector<std::string> xcrun;  ///< the command prefix, e.g. {"xcrun", "-sdk", "macosx"}
  std::string language;            ///< the -std value, e.g. "metal3.2"
  std::string version;             ///< the first line of `metal --version`
  /// Further `metal` options, e.g. -mmacosx-version-min=<the running macOS> (the compiler
  /// otherwise targets its SDK's macOS, which an older system may not load).
  std::vector<std::string> flags;
};

/// Runs a command (argv[0] looked up on PATH); stdout and stderr interleaved in `output`.
/// Throws std::runtime_error when the program cannot be started.
using ToolRunner = std::function<cpu::ProcessResult(const std::vector<std::string>& argv)>;

/// Creates a compute pipeline for `function` from the metallib at `metallib` on the device:
/// "" on success, else why not (the Metal error's description).
using PipelineCheck = std::function<std::string(const std::filesystem::path& metallib, const std::string& function)>;

/// What the probe needs.
struct ProbeRequest {
  std::vector<std::string> xcrun = {"xcrun", "-sdk", "macosx"};
  std::string source;                      ///< the probe program (MSL text)
  std::string function = "tritium_kernel"; ///< its kernel
  PipelineCheck make_pipeline;             ///< required
  ToolRunner run;                          ///< default: cpu::run_process, logs in a scratch dir
  /// Where the outcome is remembered (keyed by the toolchain's version text, the command
  /// and the probe program), so a process probes once per toolchain; null: not remembered.
  const DiskCache* cache = nullptr;
  /// Further `metal` options for the probe and every later compile (MetalToolchain::flags).
  std::vector<std::string> flags;
  /// What else the outcome depends on, part of the cache key (the operating system's
  /// version and the GPU's name: the pipeline check depends on both).
  std::string environment;
};

/// The probe's outcome: a toolchain, or the reason there is none (a sentence naming what to
/// install where the toolchain is missing), and one line per language version tried.
struct ProbeResult {
  std::optional<MetalToolchain> toolchain;
  std::string reason;
  std::vector<std::string> attempts;
  bool from_cache = false;
};

/// The -std values tried, newest first (the oldest is MSL 3.2; see the file comment).
const std::vector<std::string>& metal_languages();

/// Probes as the file comment says. Never throws for a missing or failing toolchain (that
/// is the result's reason); throws std::invalid_argument when make_pipeline is unset.
ProbeResult probe_metal_toolchain(const ProbeRequest& request);

/// When a tool's failure (exit status and output, or the message of a tool that could not
/// be started) says the Metal toolchain is missing: a sentence saying so and naming the
/// command that installs it. "" for any other failure.
std::string missing_toolchain_advice(const std::string& output);

/// Compiles the MSL file `source` into the metallib `output` with `toolchain` (the two
/// commands of the file comment; the .air next to `output`). Throws std::runtime_error with
/// the failing command and the compiler's messages (or the install advice when the
/// toolchain has gone missing).
void compile_metallib(const MetalToolchain& toolchain, const std::filesystem::path& source,
                      const std::filesystem::path& output, const ToolRunner& run = {});

}  // namespace tritium::runtime::metal
