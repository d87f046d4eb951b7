// ptxas statistics and the per-program limits of the GPU (see ptxas_info.h).
#include "runtime/cuda/ptxas_info.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace tritium::runtime::cuda {
namespace {

/// The number ending just before `pos` in `s` ("... 4664 bytes": pos at " bytes"), or -1.
int64_t number_before(std::string_view s, size_t pos) {
  size_t end = pos;
  while (end > 0 && s[end - 1] == ' ') --end;
  size_t begin = end;
  while (begin > 0 && std::isdigit(static_cast<unsigned char>(s[begin - 1]))) --begin;
  if (begin == end) return -1;
  int64_t v = 0;
  for (size_t i = begin; i < end; ++i) v = v * 10 + (s[i] - '0');
  return v;
}

/// The number before `what` in `line` (e.g. "bytes spill stores"), or -1.
int64_t field(std::string_view line, std::string_view what) {
  const size_t at = line.find(what);
  return at == std::string_view::npos ? -1 : number_before(line, at);
}

}  // namespace

PtxasInfo parse_ptxas_info(std::string_view log, std::string_view entry) {
  PtxasInfo info;
  const std::string start = fmt::format("Compiling entry function '{}'", entry);
  const size_t at = log.find(start);
  if (at == std::string_view::npos) return info;
  // The entry's block runs to the next entry function (or the end of the log).
  size_t end = log.find("Compiling entry function '", at + start.size());
  std::string_view block = log.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
  const std::string props = fmt::format("Function properties for {}", entry);
  bool have_registers = false, have_frame = false;
  int64_t frame = 0, cumulative = -1;
  size_t pos = 0;
  bool in_props = false;
  while (pos < block.size()) {
    size_t nl = block.find('\n', pos);
    std::string_view line = block.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? block.size() : nl + 1;
    if (line.find("Function properties for ") != std::string_view::npos) {
      // Only the entry's own properties: a device function it calls has a block too.
      const size_t p = line.find(props);
      in_props = p != std::string_view::npos && p + props.size() == line.size();
      continue;
    }
    if (in_props && line.find("bytes stack frame") != std::string_view::npos) {
      frame = field(line, "bytes stack frame");
      info.spill_stores = std::max<int64_t>(0, field(line, "bytes spill stores"));
      info.spill_loads = std::max<int64_t>(0, field(line, "bytes spill loads"));
      have_frame = frame >= 0;
      in_props = false;
      continue;
    }
    if (const int64_t r = field(line, "registers"); r >= 0 && line.find("Used ") != std::string_view::npos) {
      info.registers = static_cast<int>(r);
      have_registers = true;
      cumulative = field(line, "bytes cumulative stack size");
    }
  }
  info.known = have_registers && have_frame;
  info.stack_bytes = cumulative >= 0 ? cumulative : frame;
  return info;
}

int64_t registers_per_block(int registers, int threads) {
  const int64_t warps = (threads + 31) / 32;
  const int64_t per_warp = (int64_t{registers} * 32 + 255) / 256 * 256;
  return warps * per_warp;
}

std::optional<std::string> launch_refusal(const PtxasInfo& info, int threads, const CudaLimits& limits) {
  if (!info.known) return std::nullopt;
  const int64_t regs = registers_per_block(info.registers, threads);
  if (regs > limits.registers_per_block)
    return fmt::format("needs {} registers per thread x {} threads = {} registers per program (allocated per warp in "
                       "units of 256); the GPU has {} per block",
                       info.registers, threads, regs, limits.registers_per_block);
  const std::string spills =
      info.spill_stores > 0 ? fmt::format(", {} of them spilled registers", info.spill_stores) : std::string();
  if (info.stack_bytes > limits.local_per_thread)
    return fmt::format("needs {} bytes of local memory per thread (tensors kept in per-thread arrays{}; {} registers "
                       "per thread, {} threads); the GPU allows {}",
                       info.stack_bytes, spills, info.registers, threads, limits.local_per_thread);
  if (limits.resident_threads > 0 && limits.device_memory > 0 && info.stack_bytes > 0 &&
      info.stack_bytes * limits.resident_threads > limits.device_memory)
    return fmt::format("needs {} bytes of local memory per thread (tensors kept in per-thread arrays{}), which the "
                       "driver reserves for all {} threads the GPU holds at once: {} bytes, more than the GPU's {}",
                       info.stack_bytes, spills, limits.resident_threads, info.stack_bytes * limits.resident_threads,
                       limits.device_memory);
  return std::nullopt;
}

}  // namespace tritium::runtime::cuda
