// The program the Metal toolchain probe compiles (runtime/metal/metal_toolchain.h): a small
// Triton-language kernel rendered by tritium's own MSL renderer in the threadgroup shape,
// so a language version wins only if it compiles what tritium emits — the prelude's
// `#pragma METAL fp` pragmas, threadgroup memory and barriers, simd_shuffle_xor
// reductions, a dot staged in threadgroup memory and 32-bit atomics with device-scope
// fences. Rendered in portable numerics, so without simdgroup matrices (not on every Metal
// GPU; they exist since MSL 2.3, below the oldest version tried).
#pragma once
#include <string>

namespace tritium::runtime::metal {

/// The probe kernel's Triton-language source (one kernel, `tritium_probe`).
const char* metal_probe_kernel_source();

/// The probe kernel rendered as MSL (entry point `tritium_kernel`), threadgroup shape,
/// portable numerics, 4 warps. Throws (a tritium bug) if it does not render in that shape.
const std::string& metal_probe_program();

}  // namespace tritium::runtime::metal
