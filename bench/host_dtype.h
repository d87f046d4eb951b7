// host_dtype.h - the storage dtypes of the bench suite on the host: names, sizes, unit
// roundoff, and exact conversions between double and fp32/fp16/bf16 bit patterns
// (round to nearest even), written here so the bench does not depend on the compiler.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tritium::bench {

/// A floating-point storage dtype used by the suite.
enum class HostDtype { F32, F16, BF16 };

/// Triton's spelling: "fp32", "fp16", "bf16".
const char* dtype_name(HostDtype t);

/// Bytes per element (4 or 2).
size_t dtype_size(HostDtype t);

/// Unit roundoff u = 2^-p of round-to-nearest (half an ulp of 1): 2^-24 for fp32,
/// 2^-11 for fp16, 2^-8 for bf16.
double unit_roundoff(HostDtype t);

/// The smallest positive subnormal: 2^-149 (fp32), 2^-24 (fp16), 2^-133 (bf16). Any result
/// that is rounded into the subnormal range carries an absolute error of at most half of it.
double min_subnormal(HostDtype t);

/// `v` rounded to the nearest value of dtype `t` (ties to even, overflow to +-inf, NaN kept),
/// returned exactly as a double.
double round_to_dtype(double v, HostDtype t);

/// The bit pattern (in the low 16 or 32 bits) of `v` rounded to dtype `t`.
uint32_t encode_dtype(double v, HostDtype t);

/// The exact value of bit pattern `bits` of dtype `t` (NaN patterns give a NaN).
double decode_dtype(uint32_t bits, HostDtype t);

}  // namespace tritium::bench
