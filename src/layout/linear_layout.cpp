// Linear layouts over GF(2) (see linear_layout.h).
#include "layout/linear_layout.h"

#include <bit>
#include <stdexcept>

#include <fmt/format.h>

namespace tritium::layout {
namespace {

bool pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
int log2i(int64_t v) { return 63 - std::countl_zero(static_cast<uint64_t>(v)); }

void check_shape_list(const std::vector<int64_t>& v, size_t rank, const char* what) {
  if (v.size() != rank) throw std::invalid_argument(fmt::format("{} has {} entries for rank {}", what, v.size(), rank));
  for (int64_t x : v)
    if (!pow2(x)) throw std::invalid_argument(fmt::format("{} entry {} is not a power of two", what, x));
}

}  // namespace

LinearLayout::LinearLayout(std::vector<int64_t> shape, std::vector<std::vector<Coord>> bases)
    : shape_(std::move(shape)), bases_(std::move(bases)) {
  for (int64_t s : shape_)
    if (!pow2(s)) throw std::invalid_argument(fmt::format("layout shape entry {} is not a power of two", s));
  if (bases_.size() != 3) throw std::invalid_argument("a layout has register, lane and warp bases");
  for (const auto& h : bases_)
    for (const Coord& c : h) {
      if (c.size() != shape_.size()) throw std::invalid_argument("a basis vector has the wrong rank");
      for (size_t d = 0; d < c.size(); ++d)
        if (c[d] < 0 || c[d] >= shape_[d])
          throw std::invalid_argument(fmt::format("basis coordinate {} is outside dimension {} of size {}", c[d], d,
                                                  shape_[d]));
    }
}

LinearLayout LinearLayout::blocked(const std::vector<int64_t>& shape, const std::vector<int64_t>& size_per_thread,
                                   const std::vector<int64_t>& threads_per_warp,
                                   const std::vector<int64_t>& warps_per_cta, const std::vector<int>& order) {
  const size_t r = shape.size();
  check_shape_list(shape, r, "shape");
  check_shape_list(size_per_thread, r, "size_per_thread");
  check_shape_list(threads_per_warp, r, "threads_per_warp");
  check_shape_list(warps_per_cta, r, "warps_per_cta");
  if (order.size() != r) throw std::invalid_argument("order has the wrong rank");
  std::vector<bool> seen(r, false);
  for (int d : order) {
    if (d < 0 || static_cast<size_t>(d) >= r || seen[static_cast<size_t>(d)])
      throw std::invalid_argument("order must be a permutation of the dimensions");
    seen[static_cast<size_t>(d)] = true;
  }
  std::vector<std::vector<Coord>> bases(3);
  // A coordinate `step` along d; beyond the shape it is the broadcast zero vector.
  auto unit = [&](size_t d, int64_t step) {
    Coord c(r, 0);
    if (step < shape[d]) c[d] = step;
    return c;
  };
  for (int d : order)  // consecutive elements inside a thread
    for (int i = 0; i < log2i(size_per_thread[static_cast<size_t>(d)]); ++i)
      bases[0].push_back(unit(static_cast<size_t>(d), int64_t{1} << i));
  for (int d : order)  // lanes, after the thread's elements
    for (int i = 0; i < log2i(threads_per_warp[static_cast<size_t>(d)]); ++i)
      bases[1].push_back(unit(static_cast<size_t>(d), size_per_thread[static_cast<size_t>(d)] << i));
  for (int d : order)  // warps, after the warp's tile
    for (int i = 0; i < log2i(warps_per_cta[static_cast<size_t>(d)]); ++i) {
      const size_t u = static_cast<size_t>(d);
      bases[2].push_back(unit(u, (size_per_thread[u] * threads_per_warp[u]) << i));
    }
  for (int d : order) {  // the program's tile repeats in registers to cover the shape
    const size_t u = static_cast<size_t>(d);
    for (int64_t step = size_per_thread[u] * threads_per_warp[u] * warps_per_cta[u]; step < shape[u]; step *= 2)
      bases[0].push_back(unit(u, step));
  }
  return LinearLayout(shape, std::move(bases));
}

LinearLayout::Coord LinearLayout::apply(int64_t reg, int64_t lane, int64_t warp) const {
  const int64_t in[3] = {reg, lane, warp};
  Coord c(shape_.size(), 0);
  for (int h = 0; h < 3; ++h) {
    if (in[h] < 0 || in[h] >= (int64_t{1} << bases_[static_cast<size_t>(h)].size()))
      throw std::invalid_argument(fmt::format("hardware index {} out of range", in[h]));
    for (size_t k = 0; k < bases_[static_cast<size_t>(h)].size(); ++k)
      if ((in[h] >> k) & 1)
        for (size_t d = 0; d < c.size(); ++d) c[d] ^= bases_[static_cast<size_t>(h)][k][d];
  }
  return c;
}

int64_t LinearLayout::linear_index(int64_t reg, int64_t lane, int64_t warp) const {
  const Coord c = apply(reg, lane, warp);
  int64_t idx = 0;
  for (size_t d = 0; d < c.size(); ++d) idx = idx * shape_[d] + c[d];
  return idx;
}

namespace {

// A layout's bases as bitmasks over the concatenated output bits (dim 0's bits highest),
// in input order (registers, lanes, warps).
std::vector<uint64_t> masks(const std::vector<std::vector<LinearLayout::Coord>>& bases,
                            const std::vector<int64_t>& shape) {
  std::vector<uint64_t> out;
  for (const auto& h : bases)
    for (const auto& c : h) {
      uint64_t m = 0;
      for (size_t d = 0; d < c.size(); ++d) m = (m << log2i(shape[d])) | static_cast<uint64_t>(c[d]);
      out.push_back(m);
    }
  return out;
}

int out_bits(const std::vector<int64_t>& shape) {
  int b = 0;
  for (int64_t s : shape) b += log2i(s);
  return b;
}

// Rank over GF(2) of a set of bitmasks.
int rank_of(std::vector<uint64_t> v) {
  int rank = 0;
  for (int bit = 63; bit >= 0; --bit) {
    size_t p = rank;
    while (p < v.size() && !((v[p] >> bit) & 1)) ++p;
    if (p == v.size()) continue;
    std::swap(v[static_cast<size_t>(rank)], v[p]);
    for (size_t i = 0; i < v.size(); ++i)
      if (i != static_cast<size_t>(rank) && ((v[i] >> bit) & 1)) v[i] ^= v[static_cast<size_t>(rank)];
    ++rank;
  }
  return rank;
}

}  // namespace

bool LinearLayout::is_surjective() const { return rank_of(masks(bases_, shape_)) == out_bits(shape_); }

bool LinearLayout::is_injective() const {
  const auto m = masks(bases_, shape_);
  return rank_of(m) == static_cast<int>(m.size());
}

std::vector<int64_t> LinearLayout::position_of(const Coord& c) const {
  if (c.size() != shape_.size()) throw std::invalid_argument("coordinate of the wrong rank");
  uint64_t target = 0;
  for (size_t d = 0; d < c.size(); ++d) {
    if (c[d] < 0 || c[d] >= shape_[d]) throw std::invalid_argument("coordinate outside the shape");
    target = (target << log2i(shape_[d])) | static_cast<uint64_t>(c[d]);
  }
  // Gaussian elimination on rows (mask, which input bits combine to it).
  const auto m = masks(bases_, shape_);
  std::vector<std::pair<uint64_t, uint64_t>> rows;
  for (size_t i = 0; i < m.size(); ++i) rows.emplace_back(m[i], uint64_t{1} << i);
  std::vector<std::pair<uint64_t, uint64_t>> pivots;  // reduced rows with distinct leading bits
  for (auto row : rows) {
    for (const auto& p : pivots)
      if ((row.first >> (63 - std::countl_zero(p.first))) & 1) row.first ^= p.first, row.second ^= p.second;
    if (row.first) pivots.push_back(row);
  }
  uint64_t t = target, x = 0;
  for (const auto& p : pivots)  // pivots' leading bits are distinct and each is cleared in later rows
    if ((t >> (63 - std::countl_zero(p.first))) & 1) t ^= p.first, x ^= p.second;
  if (t) throw std::invalid_argument("no hardware position holds this element");
  std::vector<int64_t> pos(3, 0);
  int bit = 0;
  for (int h = 0; h < 3; ++h)
    for (size_t k = 0; k < bases_[static_cast<size_t>(h)].size(); ++k, ++bit)
      if ((x >> bit) & 1) pos[static_cast<size_t>(h)] |= int64_t{1} << k;
  return pos;
}

LinearLayout LinearLayout::sliced(int dim) const {
  if (dim < 0 || static_cast<size_t>(dim) >= shape_.size()) throw std::invalid_argument("slice of a bad dimension");
  std::vector<int64_t> shape;
  for (size_t d = 0; d < shape_.size(); ++d)
    if (d != static_cast<size_t>(dim)) shape.push_back(shape_[d]);
  std::vector<std::vector<Coord>> bases(3);
  for (int h = 0; h < 3; ++h)
    for (const Coord& c : bases_[static_cast<size_t>(h)]) {
      Coord n;
      bool zero = true;
      for (size_t d = 0; d < c.size(); ++d)
        if (d != static_cast<size_t>(dim)) n.push_back(c[d]), zero = zero && c[d] == 0;
      if (h == 0 && zero) continue;  // a register that only indexed the reduced dimension
      bases[static_cast<size_t>(h)].push_back(std::move(n));
    }
  return LinearLayout(std::move(shape), std::move(bases));
}

std::vector<int> LinearLayout::bits_along(HwDim h, int dim) const {
  if (dim < 0 || static_cast<size_t>(dim) >= shape_.size()) throw std::invalid_argument("bits along a bad dimension");
  std::vector<int> out;
  const auto& b = bases_[static_cast<size_t>(h)];
  for (size_t k = 0; k < b.size(); ++k)
    if (b[k][static_cast<size_t>(dim)] != 0) out.push_back(static_cast<int>(k));
  return out;
}

std::string LinearLayout::table() const {
  std::string s;
  for (int64_t lane = 0; lane < size(HwDim::Lane); ++lane) {
    s += fmt::format("lane {}:", lane);
    for (int64_t reg = 0; reg < size(HwDim::Register); ++reg) s += fmt::format(" {}", linear_index(reg, lane, 0));
    s += "\n";
  }
  return s;
}

}  // namespace tritium::layout
