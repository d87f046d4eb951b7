// The launch ABI shared by the runtimes, the interpreter and generated code.
//
// A launch passes one 8-byte slot per kernel parameter that is not a constexpr, in
// parameter order. Pointers hold the device address; integers are sign- (signed types)
// or zero- (unsigned, int1) extended to 64 bits; fp64 in `f64`; fp32 in `f32` (low
// 4 bytes); fp16/bf16 as their 16-bit pattern in `u64` (low 2 bytes).
//
// Programs are numbered x-fastest: linear = x + gx * (y + gy * z).
#pragma once
#include <cstdint>

extern "C" {

typedef union tritium_arg {
  void* ptr;
  int64_t i64;
  uint64_t u64;
  double f64;
  float f32;
} tritium_arg;

/// The buffer of one pointer argument, for sanitize mode: `bytes` from `base` (the buffer's
/// start, at or before the pointer passed) to its end; UINT64_MAX when unknown (a raw
/// pointer), which is not checked.
typedef struct tritium_bounds {
  const void* base;
  uint64_t bytes;
} tritium_bounds;

/// Host services available to generated CPU code (device_print / device_assert).
typedef struct tritium_host {
  /// Prints one formatted line (already including the program id prefix).
  void (*print)(const char* line);
  /// Reports a failed device_assert; the runtime raises after the launch returns.
  void (*assert_fail)(const char* message, const char* file, int line, const char* func, int64_t pid_x,
                      int64_t pid_y, int64_t pid_z);
  /// Streaming (non-temporal) stores: -1 never; otherwise a store op whose programs write at
  /// least this many bytes in the launch (grid size x block bytes) uses them. Set per launch.
  int64_t stream_min_bytes;
  /// Sanitize mode (CompileOptions::sanitize): one entry per parameter slot, set per launch;
  /// null otherwise (kernels compiled without sanitize never read it).
  const tritium_bounds* bounds;
} tritium_host;

/// Entry point exported by a compiled CPU kernel object:
///   extern "C" void tritium_run(const tritium_arg* args, const int32_t grid[3],
///                               int64_t first_program, int64_t end_program,
///                               const tritium_host* host);
/// runs programs [first_program, end_program) of the grid sequentially.
typedef void (*tritium_run_fn)(const tritium_arg* args, const int32_t grid[3], int64_t first_program,
                               int64_t end_program, const tritium_host* host);
}
