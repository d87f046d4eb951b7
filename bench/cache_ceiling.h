// cache_ceiling.h - a memory-bound case's cache-resident ceiling on a host backend: the same
// compiled kernel launched on two sub-grids whose arrays fit in the last-level cache, so that
// no launch after the first reads or writes DRAM. The rate between them (the extra bytes the
// larger one moves over the extra time it takes, which cancels the fixed cost of a launch:
// ~40 us to wake the thread pool on the 2-core VM, a tenth of a cache-sized launch) is what
// the kernel's own instructions allow on this machine when memory costs nothing. Where it is below the copy bandwidth the case is bound
// by its arithmetic here, not by memory (the roofline model's min(compute, bandwidth):
// S. Williams, A. Waterman, D. Patterson, "Roofline: an insightful visual performance model
// for multicore architectures", CACM 52(4), 2009), and no code can take it to the copy
// bandwidth without doing less arithmetic per byte.
#pragma once

#include <array>
#include <cstdint>

#include "suite.h"

namespace tritium::bench {

/// The sub-grids of a cache-resident timing.
struct CeilingGrid {
  bool ok = false;                  ///< false: the case gets no ceiling (why: see ceiling_grid)
  std::array<int64_t, 3> grid{1, 1, 1};  ///< the case's grid with fewer programs along x
  double bytes = 0;                 ///< the bytes those programs move (their share of Case::bytes)
  int64_t small_x = 1;              ///< the smaller sub-grid's extent along x (grid[0] / 4)
  double small_bytes = 0;           ///< the bytes it moves
};

/// Bytes a ceiling's sub-grid aims to move: a quarter of the last-level cache (inputs and
/// outputs together stay resident with room to spare), 8 MiB when the cache size is unknown.
int64_t ceiling_target_bytes(int64_t llc_bytes);

/// The sub-grids for `c`'s ceiling: x shrunk so the programs move about
/// ceiling_target_bytes(llc_bytes), but at least 8 programs per thread (`threads`, for load
/// balance), and a quarter of that (at least 2 per thread). Not ok when the case is not memory-bound, its
/// programs along x do not move equal bytes (Case::even_programs false), or the sub-grid
/// would not be at most a quarter of the full grid (then it is not much more
/// cache-resident than the timed launch itself).
CeilingGrid ceiling_grid(const Case& c, int64_t llc_bytes, int threads);

}  // namespace tritium::bench
