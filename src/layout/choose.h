// Choosing the blocked layout of a memory access from what axis analysis proves about its
// pointers, the way Triton's coalescing pass does: the most contiguous dimension varies
// fastest, each thread takes the widest vector (up to 16 bytes) that contiguity and
// alignment allow — but no more than its share of the elements — and lanes, then warps,
// cover the dimensions in that order.
#pragma once
#include <cstdint>
#include <vector>

#include "layout/linear_layout.h"
#include "passes/axis_info.h"

namespace tritium::layout {

/// The parameters of a blocked layout (LinearLayout::blocked).
struct BlockedParams {
  std::vector<int64_t> size_per_thread, threads_per_warp, warps_per_cta;
  std::vector<int> order;  ///< fastest-varying dimension first
  bool operator==(const BlockedParams&) const = default;
  /// LinearLayout::blocked(shape, ...) of these parameters.
  LinearLayout layout(const std::vector<int64_t>& shape) const;
};

/// The coalesced layout of an access to a tensor of `shape` through pointers with `ptr`
/// facts (contiguity in elements, divisibility in bytes) and `elem_bytes`-byte elements,
/// for `num_warps` warps of `warp_size` lanes (powers of two):
///  * order: dimensions by contiguity, largest first (ties: the later dimension first, so
///    row-major tensors vary along their last dimension);
///  * size_per_thread along order[0]: the largest power of two dividing no more than the
///    contiguity, 16 / elem_bytes, the alignment in elements and numel / (lanes * warps)
///    (at least 1); 1 elsewhere;
///  * threads_per_warp, then warps_per_cta: along order, each dimension taking what its
///    extent still needs; what is left over goes to order[0] (broadcast past the shape).
BlockedParams coalesced(const std::vector<int64_t>& shape, const passes::AxisInfo& ptr, int elem_bytes, int num_warps,
                        int warp_size = 32);

}  // namespace tritium::layout
