// Conversion of public launch arguments (tritium::Arg) into ABI slots (kernel_abi.h),
// checked against the compiled specialization.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "runtime/kernel_abi.h"
#include "tritium/tritium.h"

namespace tritium::detail {

/// Converts one argument for runtime parameter `p` (position `index`, 0-based, of kernel
/// `kernel`) launched on `device`. Rules:
///  * pointer parameter: a non-empty buffer of `device`; its address must be a multiple of 16
///    when p.divisibility == 16. Slot: `ptr`.
///  * integer parameter (int1..int64, uint8..uint64): an integer within the dtype's range
///    (int1: 0 or 1); == 1 when p.equal_to_1; a multiple of 16 when p.divisibility == 16.
///    Slot: sign-extended (signed) or zero-extended (unsigned, int1) 64 bits.
///  * float parameter: an integer or float; rounded to nearest-even into the dtype; a finite
///    value that overflows the dtype is refused. Slot: fp64 in `f64`, fp32 in `f32` (upper
///    bytes zero), fp16/bf16 bit pattern in `u64`. fp8 scalars are refused.
/// Throws Error(Argument) naming the kernel, the parameter and what was given.
tritium_arg convert_arg(const std::string& kernel, const ArgInfo& p, size_t index, const Arg& a,
                        const runtime::Device* device);

/// Converts a whole argument list (count must equal params.size(); the message lists the
/// expected parameters otherwise).
std::vector<tritium_arg> convert_args(const std::string& kernel, const std::vector<ArgInfo>& params,
                                      const std::vector<Arg>& args, const runtime::Device* device);

/// Rounds `v` to nearest-even into an IEEE-style binary format with `exp_bits` exponent and
/// `mant_bits` stored mantissa bits (with infinities, subnormals and NaN; fp16 = (5, 10),
/// bf16 = (8, 7)) and returns the bit pattern. NaN gives the canonical quiet NaN of its sign.
uint32_t round_to_small_float(double v, int exp_bits, int mant_bits);

}  // namespace tritium::detail
