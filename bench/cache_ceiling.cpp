// cache_ceiling.cpp - the sub-grid of a case's cache-resident ceiling (cache_ceiling.h).
#include "cache_ceiling.h"

#include <algorithm>

namespace tritium::bench {

int64_t ceiling_target_bytes(int64_t llc_bytes) { return llc_bytes > 0 ? llc_bytes / 4 : int64_t{8} << 20; }

CeilingGrid ceiling_grid(const Case& c, int64_t llc_bytes, int threads) {
  CeilingGrid g;
  const int64_t programs = c.grid[0] * c.grid[1] * c.grid[2];
  if (!c.memory_bound || !c.even_programs || programs <= 0 || c.bytes <= 0) return g;
  const double per_x = c.bytes / static_cast<double>(c.grid[0]);  // one slice of programs along x
  const int64_t want = static_cast<int64_t>(static_cast<double>(ceiling_target_bytes(llc_bytes)) / per_x);
  const int64_t floor_x = (8 * int64_t{std::max(threads, 1)} + c.grid[1] * c.grid[2] - 1) / (c.grid[1] * c.grid[2]);
  const int64_t x = std::max<int64_t>({want, floor_x, 1});
  if (4 * x > c.grid[0]) return g;
  g.ok = true;
  g.grid = {x, c.grid[1], c.grid[2]};
  g.bytes = per_x * static_cast<double>(x);
  g.small_x = std::max<int64_t>(x / 4, (2 * int64_t{std::max(threads, 1)} + c.grid[1] * c.grid[2] - 1) /
                                           (c.grid[1] * c.grid[2]));
  if (g.small_x >= x) return CeilingGrid{};
  g.small_bytes = per_x * static_cast<double>(g.small_x);
  return g;
}

}  // namespace tritium::bench
