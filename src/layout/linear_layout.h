// Linear layouts: where each element of a block tensor lives on the hardware, as a map from
// hardware positions (register index inside a thread, lane inside a warp, warp inside the
// program) to tensor coordinates that is linear over GF(2): every input bit contributes a
// fixed coordinate vector, and the coordinates of a position are the XOR of the vectors of
// its set bits. This is the formalism ARCHITECTURE.md recommends (Triton's
// LinearLayout; K. Zhou et al., "Linear Layouts: Robust Code Generation of Efficient Tensor
// Computation Using F2", 2025): blocked, sliced and matrix-unit layouts are all such maps,
// and conversions and shuffles follow from composing and inverting them.
//
// Sizes are powers of two. A basis vector of all zeros means the bit is broadcast: the
// positions that differ only in that bit hold the same element (e.g. lanes beyond a small
// tensor).
//
// Worked example (docs/design.md has more): blocked(shape [8], sizePerThread [2],
// threadsPerWarp [4], warpsPerCTA [1]):
//   register bit 0 → (1)   lane bit 0 → (2)   lane bit 1 → (4)
//   so lane l, register r holds element 2l + r: lane 0 has {0, 1}, lane 3 has {6, 7}.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tritium::layout {

/// The hardware dimensions a layout's positions have, in this order.
enum class HwDim : uint8_t { Register = 0, Lane = 1, Warp = 2 };

/// A GF(2)-linear map from (register, lane, warp) positions to coordinates of a tensor of
/// `shape()` (each a power of two).
class LinearLayout {
 public:
  /// One coordinate vector per output dimension of the tensor.
  using Coord = std::vector<int64_t>;

  /// The layout with the given bases: bases[h][k] is the coordinate of bit k of hardware
  /// dimension h alone (h = 0 register, 1 lane, 2 warp). Throws std::invalid_argument when
  /// a shape entry is not a power of two, a basis vector has the wrong rank, or a
  /// coordinate is outside the shape.
  LinearLayout(std::vector<int64_t> shape, std::vector<std::vector<Coord>> bases);

  /// Triton's blocked layout: each thread holds `size_per_thread[d]` consecutive elements
  /// along d; a warp's `threads_per_warp` lanes and the program's `warps_per_cta` warps
  /// tile dims in `order` (fastest-varying first); the tile repeats in registers to cover
  /// `shape` and broadcasts (zero basis vectors) where it is larger. All sizes are powers of
  /// two; the product of threads_per_warp is the warp size. Throws std::invalid_argument.
  static LinearLayout blocked(const std::vector<int64_t>& shape, const std::vector<int64_t>& size_per_thread,
                              const std::vector<int64_t>& threads_per_warp, const std::vector<int64_t>& warps_per_cta,
                              const std::vector<int>& order);

  /// The tensor shape.
  const std::vector<int64_t>& shape() const { return shape_; }
  /// Number of bits of hardware dimension `h` (log2 of registers per thread, lanes, warps).
  int bits(HwDim h) const { return static_cast<int>(bases_[static_cast<int>(h)].size()); }
  /// 2^bits(h).
  int64_t size(HwDim h) const { return int64_t{1} << bits(h); }
  /// The basis vector of bit `k` of `h`.
  const Coord& basis(HwDim h, int k) const { return bases_[static_cast<int>(h)].at(static_cast<size_t>(k)); }

  /// The coordinates of (register, lane, warp).
  Coord apply(int64_t reg, int64_t lane, int64_t warp) const;
  /// Row-major linear index of apply(...) in shape().
  int64_t linear_index(int64_t reg, int64_t lane, int64_t warp) const;

  /// True when every element of shape() is held by some position.
  bool is_surjective() const;
  /// True when no element is held twice (no broadcast bits and no duplicates).
  bool is_injective() const;

  /// For an element's coordinates, the (register, lane, warp) of a position holding it (the
  /// one with the fewest set bits, unique for an injective layout). Throws
  /// std::invalid_argument when no position holds it (not surjective there).
  std::vector<int64_t> position_of(const Coord& c) const;

  /// The layout of the tensor with dimension `dim` reduced away (Triton's SliceLayout of
  /// this one): every basis vector loses its `dim` component; register bits left with a
  /// zero vector are dropped (a thread combines those registers itself), lane and warp bits
  /// left with one stay, as broadcast bits (those positions hold the same result). Throws
  /// std::invalid_argument for a bad dim.
  LinearLayout sliced(int dim) const;
  /// The bits of hardware dimension `h` whose basis vector moves along tensor dimension
  /// `dim`: for a reduction along `dim`, the register bits are combined in-thread, the lane
  /// bits with `__shfl_xor_sync(1 << bit)`, the warp bits through shared memory.
  std::vector<int> bits_along(HwDim h, int dim) const;

  /// Same shape and the same basis vectors.
  bool operator==(const LinearLayout&) const = default;

  /// The elements each lane of warp 0 holds, register by register, as row-major indices:
  /// one line per lane, "lane 3: 6 7" (for tests and documentation).
  std::string table() const;

 private:
  std::vector<int64_t> shape_;
  std::vector<std::vector<Coord>> bases_;  // [3][bits] → coordinate
};

}  // namespace tritium::layout
