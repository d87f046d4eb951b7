// When CPU kernels use streaming (non-temporal) stores.
//
// A store that writes more than the caches can hold gains from non-temporal stores: the
// destination lines are not read first (read-for-ownership) and do not evict the inputs.
// A store whose data is read again soon loses from them. Generated kernels decide per store
// op and launch: they stream when the bytes the whole grid writes through the op (grid size
// x block bytes) reach the threshold returned here (the prelude's tr_stream_n).
#pragma once
#include <cstdint>
#include <string>

namespace tritium::runtime::cpu {

/// The threshold for the launch about to run, in bytes; -1 = never stream. From
/// $TRITIUM_CPU_STREAM_STORES: "never" (or "0"), "always" (or "1": every eligible store
/// streams; the tests use it to exercise the path on small grids), a byte count, or unset /
/// "auto": twice the machine's total L2 cache (per-core L2 size x hardware threads, 8 MiB
/// when the size is unknown). Throws std::runtime_error on any other value (a usage
/// problem, reported by the launch).
int64_t stream_min_bytes();

/// The same policy for an explicit setting (`value` as the variable would hold it) and
/// machine (`l2_bytes` per core, `threads`); stream_min_bytes() calls it.
int64_t stream_min_bytes_for(const std::string& value, int64_t l2_bytes, int64_t threads);

}  // namespace tritium::runtime::cpu
