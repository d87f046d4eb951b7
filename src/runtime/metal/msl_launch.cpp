// Launch checks and the status word shared by the metal and msl-emu backends (see msl_launch.h).
#include "runtime/metal/msl_launch.h"

#include <stdexcept>

#include <fmt/format.h>

#include "runtime/env_choice.h"

namespace tritium::runtime::metal {

codegen::MslShape msl_shape_from_env(const std::string& backend) {
  return static_cast<codegen::MslShape>(env_choice("TRITIUM_MSL_SHAPE", {"auto", "serial", "threadgroup"}, backend));
}

int64_t check_msl_launch(const codegen::MslProgram& program, const std::string& kernel, const std::string& backend,
                         const std::array<int32_t, 3>& grid, size_t nargs) {
  if (nargs != program.params.size())
    throw std::runtime_error(
        fmt::format("kernel @{}: launched with {} arguments, expected {}", kernel, nargs, program.params.size()));
  for (int32_t g : grid)
    if (g < 0) throw std::runtime_error(fmt::format("kernel @{}: negative grid dimension", kernel));
  const int64_t total = int64_t{grid[0]} * grid[1] * grid[2];
  const uint64_t sites = program.failures.size();
  if (total > 0 && sites && static_cast<uint64_t>(total) * sites >= 0xffffffffull)
    throw std::runtime_error(fmt::format(
        "kernel @{}: {} reports run-time failures through a 32-bit word, and {} programs times {} failure sites do "
        "not fit in it; launch a smaller grid",
        kernel, backend, total, sites));
  return total;
}

void raise_msl_status(const codegen::MslProgram& program, uint32_t status, const std::array<int32_t, 3>& grid) {
  if (status == 0xffffffffu) return;
  const uint64_t sites = program.failures.size();
  if (sites == 0) throw std::logic_error("an MSL program without failure sites set its status word");
  const uint64_t lin = status / sites, site = status % sites;
  const uint64_t gx = static_cast<uint64_t>(grid[0]), gy = static_cast<uint64_t>(grid[1]);
  throw std::runtime_error(
      fmt::format("{}, program ({}, {}, {})", program.failures[site], lin % gx, (lin / gx) % gy, lin / (gx * gy)));
}

}  // namespace tritium::runtime::metal
