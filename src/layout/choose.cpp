// Coalesced blocked layouts from axis facts (see choose.h).
#include "layout/choose.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace tritium::layout {
namespace {

int64_t floor_pow2(int64_t v) {
  int64_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}

}  // namespace

LinearLayout BlockedParams::layout(const std::vector<int64_t>& shape) const {
  return LinearLayout::blocked(shape, size_per_thread, threads_per_warp, warps_per_cta, order);
}

BlockedParams coalesced(const std::vector<int64_t>& shape, const passes::AxisInfo& ptr, int elem_bytes, int num_warps,
                        int warp_size) {
  const size_t rank = shape.size();
  if (rank == 0 || ptr.contiguity.size() != rank || elem_bytes <= 0 || num_warps <= 0 || warp_size <= 0)
    throw std::invalid_argument("coalesced: bad shape, facts or sizes");
  BlockedParams p;
  p.order.resize(rank);
  std::iota(p.order.begin(), p.order.end(), 0);
  std::stable_sort(p.order.begin(), p.order.end(), [&](int a, int b) {
    if (ptr.contiguity[static_cast<size_t>(a)] != ptr.contiguity[static_cast<size_t>(b)])
      return ptr.contiguity[static_cast<size_t>(a)] > ptr.contiguity[static_cast<size_t>(b)];
    return a > b;
  });
  int64_t numel = 1;
  for (int64_t s : shape) numel *= s;
  const size_t d0 = static_cast<size_t>(p.order[0]);
  int64_t vec = std::min<int64_t>(ptr.contiguity[d0], std::max<int64_t>(1, 16 / elem_bytes));
  vec = std::min<int64_t>(vec, std::max<int64_t>(1, ptr.divisibility[d0] / elem_bytes));  // alignment in elements
  vec = std::min<int64_t>(vec, std::max<int64_t>(1, numel / (int64_t{warp_size} * num_warps)));
  vec = std::min<int64_t>(vec, shape[d0]);
  p.size_per_thread.assign(rank, 1);
  p.size_per_thread[d0] = floor_pow2(std::max<int64_t>(1, vec));
  // Lanes, then warps, along order; leftovers to order[0].
  auto spread = [&](int64_t count, const std::vector<int64_t>& inner) {
    std::vector<int64_t> out(rank, 1);
    int64_t left = count;
    for (int d : p.order) {
      const size_t u = static_cast<size_t>(d);
      const int64_t need = std::max<int64_t>(1, shape[u] / (p.size_per_thread[u] * inner[u]));
      const int64_t take = std::min(left, floor_pow2(need));
      out[u] = take;
      left /= take;
    }
    out[d0] *= left;
    return out;
  };
  p.threads_per_warp = spread(warp_size, std::vector<int64_t>(rank, 1));
  p.warps_per_cta = spread(num_warps, p.threads_per_warp);
  return p;
}

}  // namespace tritium::layout
