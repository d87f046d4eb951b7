// hash.h - `tritium hash`: runs the built-in suite on several backends with deterministic
// inputs and prints each output's SHA-256 and whether the backends agree.
//
// Inputs: each case's arrays come from its own splitmix64 stream (host_array.h; seed the
// FNV-1a hash of the case id), element i = round_to_dtype(lo + (hi - lo) * u_i) with
// u_i = (next() >> 11) * 2^-53, every step an IEEE double operation rounded to nearest
// even and never contracted (the bench library is built with -ffp-contract=off), the dtype
// rounding tritium's own (host_dtype.h, nearest even). No platform RNG or libm is involved,
// so the inputs are the same bits on every machine. Outputs are poisoned (0xFF bytes)
// before the launch.
#pragma once

#include <string>
#include <vector>

namespace tritium::bench {

/// Options of one `tritium hash` run.
struct HashOptions {
  /// Backends to run, in order; empty: every available backend of this build.
  std::vector<std::string> backends;
  /// Only cases whose id contains this substring (empty: all).
  std::string filter;
  /// Every size of the suite; false: the small (--quick) set.
  bool full = false;
  /// Portable numerics (ARCHITECTURE.md): the outputs must agree bit for bit. False: the
  /// backends' native numerics; differences are measured in units in the last place.
  bool portable = true;
  /// When non-empty, write every hash and difference as JSON to this path.
  std::string json_path;
  /// Directory of the suite's kernel files (empty: as `tritium bench`).
  std::string kernels_dir;
  /// Suppress the per-case progress lines on stderr.
  bool no_progress = false;
};

/// Runs the hash described by `opts`; prints one row per case output (SHA-256 prefix per
/// backend, agreement) to stdout. Returns 0 when every run passed its float64 check and, in
/// portable mode, every output agrees across the backends; 1 otherwise; 2 for a usage error
/// (unknown or unavailable backend, no case matches, built without OpenSSL).
int run_hash(const HashOptions& opts);

/// Lowercase hex SHA-256 of `bytes` (OpenSSL). Throws std::runtime_error when tritium was
/// built without OpenSSL.
std::string sha256_hex(const std::vector<unsigned char>& bytes);

/// The largest distance in units in the last place between two outputs of one dtype
/// ("fp32", "fp16", "bf16"), element by element (bit patterns mapped to ordered integers;
/// +0 and -0 are 0 apart). -1 when one is NaN where the other is not, or the sizes differ.
long long max_ulp_distance(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b,
                           const std::string& dtype);

/// The normwise relative difference of output `b` from output `a` (same dtype as above):
/// max_i |a_i - b_i| / max_i |a_i|, in the values' exact doubles. Unlike the ulp distance it
/// is not inflated by elements near zero (a tf32 dot's output of 1e-7 against 0 is 10^9 ulp
/// apart). NaN and Inf must match in place (else -1); -1 also for different sizes, or when
/// the outputs differ and every element of `a` is zero.
double max_normwise_rel_error(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b,
                              const std::string& dtype);

}  // namespace tritium::bench
