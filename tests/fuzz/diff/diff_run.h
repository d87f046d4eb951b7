// Runs one fuzz case (gen.h) on a backend and compares backends under tritium's numerics
// contract (src/interp/interpreter.h, ARCHITECTURE.md "Contracts").
//
// The reference is the IR interpreter. Every other backend runs in portable numerics and
// must reproduce the interpreter's output bytes, with two allowances: a NaN may carry
// another payload (payloads are not part of the contract), and in a case calling a
// libm-backed function (Case::libm: fp64 exp / log, whose C library differs between
// backends) a float may differ by 4 ulp (fp32 / fp64) or 1 ulp (fp16 / bf16). The cpu
// backend also runs in native numerics, which on the CPU changes nothing in the arithmetic
// (contraction stays off: docs/design.md "Numerics"), so it is held to the same bits.
//
// Inputs come from the case's input_seed by a fixed recipe (SplitMix64): floats mostly
// uniform in [-4, 4] (never zero) with about one in eight drawn from the special values
// (±0, ±Inf, NaN, subnormals, the largest finite values, ±1e30); integers mostly small
// ([-8, 8], or [0, 16] unsigned) and otherwise any bit pattern. Outputs are filled with
// 0x5A bytes before each launch, so an element a backend fails to write shows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen.h"

namespace fuzz {

/// The bytes of each buffer argument after one run (index = buffer position).
using Outputs = std::vector<std::vector<uint8_t>>;

/// The case's input bytes for buffer `i` (outputs: the 0x5A poison).
std::vector<uint8_t> input_bytes(const Case& c, size_t i);

/// How a backend's run ended.
enum class Status { Ran, Unsupported, Refused };

struct RunResult {
  Status status = Status::Ran;
  std::string message;  ///< the refusal (Unsupported: what the renderer does not lower)
  Outputs outputs;
};

/// Compiles and runs `c` on `backend` ("interp", "cpu", "opencl", "msl-emu", "cuda", or
/// "nvrtc": the cuda backend's compile-only device, which runs nothing). A refusal the
/// backend documents as a missing feature ("not lowered ... yet", "Metal has no double") is
/// Unsupported; any other tritium::CompileError is Refused. Other exceptions propagate.
RunResult run_case(const Case& c, const std::string& backend, bool portable);

/// The first difference between `ref` and `got` beyond the contract (empty: none), e.g.
/// "y0[17] (fp32): interp 0x3f800000 (1), cpu 0x3f800001 (1.0000001)".
std::string compare(const Case& c, const Outputs& ref, const Outputs& got, const std::string& backend);

}  // namespace fuzz
