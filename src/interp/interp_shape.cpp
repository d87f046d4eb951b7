// Shape ops: make_range, splat, broadcast, trans, join, split, cat (reshape and expand_dims
// share storage and live in the executor). Semantics: interpreter.h.
#include <cmath>
#include <cstring>

#include "interp/interp_ops.h"
#include "ir/sort_params.h"

namespace tritium::interp {
namespace {

std::vector<int64_t> row_major_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * shape[i + 1];
  return s;
}

// dst[idx] = src[sum(idx[d] · src_strides[d])] over every multi-index idx of dst's shape.
template <int ES>
void gather_es(const std::byte* src, std::byte* dst, const std::vector<int64_t>& shape,
               const std::vector<int64_t>& src_strides, int64_t numel) {
  const int rank = static_cast<int>(shape.size());
  if (rank == 0) {
    std::memcpy(dst, src, ES);
    return;
  }
  const int64_t inner = shape[rank - 1], inner_stride = src_strides[rank - 1];
  std::vector<int64_t> idx(rank, 0);
  int64_t base = 0;  // source offset of idx (with idx[rank-1] = 0)
  for (int64_t out = 0; out < numel; out += inner) {
    for (int64_t j = 0; j < inner; ++j) std::memcpy(dst + (out + j) * ES, src + (base + j * inner_stride) * ES, ES);
    for (int d = rank - 2; d >= 0; --d) {  // odometer over the outer dimensions
      base += src_strides[d];
      if (++idx[d] < shape[d]) break;
      base -= src_strides[d] * shape[d];
      idx[d] = 0;
    }
  }
}

void gather(const ir::Op& op, const Val& src, Val& dst, const std::vector<int64_t>& src_strides) {
  switch (src.elem_size()) {
    case 1: gather_es<1>(src.bytes(), dst.bytes(), dst.shape, src_strides, dst.numel); break;
    case 2: gather_es<2>(src.bytes(), dst.bytes(), dst.shape, src_strides, dst.numel); break;
    case 4: gather_es<4>(src.bytes(), dst.bytes(), dst.shape, src_strides, dst.numel); break;
    case 8: gather_es<8>(src.bytes(), dst.bytes(), dst.shape, src_strides, dst.numel); break;
    default: refuse(op, "unsupported element size");
  }
}

}  // namespace

Val eval_make_range(const ir::Op& op) {
  const int64_t start = op.attr_int("start"), end = op.attr_int("end");
  if (end <= start) refuse(op, "empty range");
  Val r = Val::make(ir::ScalarType::I32, false, {end - start});
  int32_t* p = r.as<int32_t>();
  for (int64_t i = 0; i < end - start; ++i) p[i] = static_cast<int32_t>(start + i);
  return r;
}

Val eval_splat(const ir::Op& op, const Val& a) {
  if (a.numel != 1) refuse(op, "operand is not a scalar");
  const ir::Type& rt = op.results.at(0)->type;
  return filled(a.scalar, a.is_ptr, rt.shape, load_bits(a, 0));
}

Val eval_broadcast(const ir::Op& op, const Val& a) {
  const ir::Type& rt = op.results.at(0)->type;
  if (a.shape.empty()) return filled(a.scalar, a.is_ptr, rt.shape, load_bits(a, 0));
  if (a.shape.size() != rt.shape.size()) refuse(op, "rank changes from " + describe(a) + " to " + rt.str());
  std::vector<int64_t> strides = row_major_strides(a.shape);
  for (size_t d = 0; d < a.shape.size(); ++d) {
    if (a.shape[d] == rt.shape[d]) continue;
    if (a.shape[d] != 1) refuse(op, "cannot broadcast " + describe(a) + " to " + rt.str());
    strides[d] = 0;
  }
  Val r = Val::make(a.scalar, a.is_ptr, rt.shape);
  gather(op, a, r, strides);
  return r;
}

Val eval_trans(const ir::Op& op, const Val& a) {
  const std::vector<int64_t> perm = op.attr_ints("perm");
  if (perm.size() != a.shape.size()) refuse(op, "perm has the wrong length");
  const std::vector<int64_t> src_strides = row_major_strides(a.shape);
  std::vector<int64_t> shape(perm.size()), strides(perm.size());
  std::vector<bool> seen(perm.size(), false);
  for (size_t i = 0; i < perm.size(); ++i) {
    const int64_t p = perm[i];
    if (p < 0 || p >= static_cast<int64_t>(perm.size()) || seen[p]) refuse(op, "perm is not a permutation");
    seen[p] = true;
    shape[i] = a.shape[p];
    strides[i] = src_strides[p];
  }
  Val r = Val::make(a.scalar, a.is_ptr, shape);
  gather(op, a, r, strides);
  return r;
}

Val eval_flip(const ir::Op& op, const Val& a) {
  const int64_t axis = op.attr_int("axis");
  if (axis < 0 || axis >= static_cast<int64_t>(a.shape.size())) refuse(op, "axis out of range");
  std::vector<int64_t> strides = row_major_strides(a.shape);
  const int64_t n = a.shape[axis];
  Val r = Val::make(a.scalar, a.is_ptr, a.shape);
  if (r.numel == 0) return r;
  // Read the axis backwards: start at its last element, step by minus its stride.
  const std::byte* last = a.bytes() + (n - 1) * strides[axis] * a.elem_size();
  strides[axis] = -strides[axis];
  switch (a.elem_size()) {
    case 1: gather_es<1>(last, r.bytes(), r.shape, strides, r.numel); break;
    case 2: gather_es<2>(last, r.bytes(), r.shape, strides, r.numel); break;
    case 4: gather_es<4>(last, r.bytes(), r.shape, strides, r.numel); break;
    case 8: gather_es<8>(last, r.bytes(), r.shape, strides, r.numel); break;
    default: refuse(op, "unsupported element size");
  }
  return r;
}

Val eval_sort(const ir::Op& op, const Val& a) {
  ir::SortParams sp;
  if (std::string why = ir::sort_params(op, a.type(), &sp); !why.empty()) refuse(op, why);
  const int64_t n = sp.n;
  const int levels = sp.levels, lk = sp.lk;
  const bool desc = sp.descending;
  const bool fl = ir::is_float(a.scalar), sg = is_signed(a.scalar);
  auto greater = [&](const Val& v, int64_t i, int64_t j) {
    if (fl) return load_double(v, i) > load_double(v, j);
    if (sg) return load_int(v, i) > load_int(v, j);
    return static_cast<uint64_t>(load_int(v, i)) > static_cast<uint64_t>(load_int(v, j));
  };
  const int64_t rows = a.numel / n;
  Val cur = a;
  int64_t m = n;  // current row length
  // One bitonic merge of `stage` compare-and-swap rounds; order 0 / 1: ascending /
  // descending, 2: alternating by bit `stage` of the position.
  auto merge = [&](int stage, int order) {
    for (int i = stage - 1; i >= 0; --i) {
      Val next = Val::make(cur.scalar, cur.is_ptr, cur.shape);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t p = 0; p < m; ++p) {
          const int64_t q = p ^ (int64_t{1} << i);
          const bool f = order == 2 ? ((p >> stage) & 1) != 0 : order == 1;
          const bool right = ((p >> i) & 1) != 0;
          const bool take = greater(cur, r * m + p, r * m + q) != (f != right);
          store_bits(next, r * m + p, load_bits(cur, r * m + (take ? q : p)));
        }
      cur = next;
    }
  };
  if (sp.merge) {  // tl.bitonic_merge: the last merge alone
    merge(levels, desc ? 1 : 0);
    return cur;
  }
  for (int s = 1; s <= lk; ++s) merge(s, s < levels ? 2 : (desc ? 1 : 0));
  // Bitonic top-k: halve the rows with max (descending) / min of the pairs 2^lk apart (tl.max /
  // tl.min's rules: a NaN loses to a number, -0 < +0), then merge again.
  for (int s = lk + 1; s <= levels; ++s) {
    const int64_t half = m / 2;
    std::vector<int64_t> shape = cur.shape;
    shape.back() = half;
    Val next = Val::make(cur.scalar, cur.is_ptr, shape);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t np = 0; np < half; ++np) {
        const int64_t low = np & ((int64_t{1} << lk) - 1), high = np >> lk;
        const int64_t ia = r * m + ((high << (lk + 1)) | low), ib = ia + (int64_t{1} << lk);
        bool take_b;
        if (fl) {
          const double x = load_double(cur, ia), y = load_double(cur, ib);
          if (std::isnan(x)) take_b = true;
          else if (std::isnan(y)) take_b = false;
          else if (x == y) take_b = desc ? std::signbit(x) : !std::signbit(x);
          else take_b = desc ? y > x : y < x;
        } else {
          take_b = desc ? greater(cur, ib, ia) : greater(cur, ia, ib);
        }
        store_bits(next, r * half + np, load_bits(cur, take_b ? ib : ia));
      }
    cur = next;
    m = half;
    merge(lk, s < levels ? 2 : (desc ? 1 : 0));
  }
  return cur;
}

Val eval_join(const ir::Op& op, const Val& a, const Val& b) {
  if (a.shape != b.shape || a.scalar != b.scalar || a.is_ptr != b.is_ptr) refuse(op, "operands differ");
  std::vector<int64_t> shape = a.shape;
  shape.push_back(2);
  Val r = Val::make(a.scalar, a.is_ptr, shape);
  for (int64_t i = 0; i < a.numel; ++i) {
    copy_elems(a, i, r, 2 * i, 1);
    copy_elems(b, i, r, 2 * i + 1, 1);
  }
  return r;
}

std::pair<Val, Val> eval_split(const ir::Op& op, const Val& a) {
  if (a.shape.empty() || a.shape.back() != 2) refuse(op, "the minor dimension must have size 2");
  std::vector<int64_t> shape(a.shape.begin(), a.shape.end() - 1);
  Val lo = Val::make(a.scalar, a.is_ptr, shape), hi = Val::make(a.scalar, a.is_ptr, shape);
  for (int64_t i = 0; i < lo.numel; ++i) {
    copy_elems(a, 2 * i, lo, i, 1);
    copy_elems(a, 2 * i + 1, hi, i, 1);
  }
  return {std::move(lo), std::move(hi)};
}

Val eval_cat(const ir::Op& op, const Val& a, const Val& b) {
  if (a.shape.empty() || a.shape.size() != b.shape.size() || a.scalar != b.scalar || a.is_ptr != b.is_ptr)
    refuse(op, "operands must be tensors of one type and rank");
  for (size_t d = 1; d < a.shape.size(); ++d)
    if (a.shape[d] != b.shape[d]) refuse(op, "operands differ outside dimension 0");
  std::vector<int64_t> shape = a.shape;
  shape[0] += b.shape[0];
  const ir::Type& rt = op.results.at(0)->type;
  if (rt.shape != shape) refuse(op, "result shape " + rt.str() + " is not the concatenation");
  Val r = Val::make(a.scalar, a.is_ptr, shape);
  copy_elems(a, 0, r, 0, a.numel);
  copy_elems(b, 0, r, a.numel, b.numel);
  return r;
}

}  // namespace tritium::interp
