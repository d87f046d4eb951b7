// The host services generated CPU-side code calls during a launch (kernel_abi.h's
// tritium_host): device_print's lines and the failures device_assert and sanitize mode
// report. Shared by the cpu backend and msl-emu's sanitize mode (both run programs on the
// cpu::ThreadPool, one launch at a time: the caller holds its launch lock from
// begin_launch to end_launch).
#pragma once
#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "runtime/kernel_abi.h"

namespace tritium::runtime::cpu {

/// Held for the whole of a launch on the shared thread pool (cpu and msl-emu alike): one
/// launch at a time, so host_services()' per-launch fields belong to it.
std::mutex& launch_mutex();

/// The tritium_host generated code is handed: print and assert_fail set; stream_min_bytes
/// and bounds are the caller's to set per launch.
tritium_host& host_services();

/// Starts collecting the failures of a launch on `grid` (forgets an earlier launch's).
void begin_launch(const std::array<int32_t, 3>& grid);

/// True once a program of the running launch failed (workers then start no further programs).
bool launch_failed();

/// Ends the launch: the failure of the lowest failing program (its first), formatted as
/// "device_assert failed: <msg> at <file>:<line> in <kernel>, program (x, y, z)" (messages
/// starting "error: " as they are, without that prefix), or nothing.
std::optional<std::string> end_launch();

}  // namespace tritium::runtime::cpu
