// reduce (canonical halving-tree order) and scan (sequential, inclusive). Semantics and a
// worked example of the order: interpreter.h.
//
// Both views an operand of shape S with reduced axis a as [outer, n, inner] (row-major).
// Every combine of one round is independent, so when the combine region is plain
// elementwise arithmetic the round is evaluated as one batch: the region runs once over
// 1-D Vals holding every (lhs, rhs) pair of the round. Otherwise each combine runs the
// region on scalars. Both give the same bits: a batch lane computes exactly what the
// scalar evaluation would.
#include "interp/interp_ops.h"

namespace tritium::interp {
namespace {

struct AxisView {
  int64_t outer = 1, n = 1, inner = 1;
};

AxisView view_of(const ir::Op& op, const std::vector<Val>& operands, int axis) {
  const Val& v0 = operands.at(0);
  if (axis < 0 || axis >= static_cast<int>(v0.shape.size())) refuse(op, "axis out of range for " + describe(v0));
  for (const Val& v : operands)
    if (v.shape != v0.shape) refuse(op, "operand shapes differ");
  AxisView av;
  for (int d = 0; d < axis; ++d) av.outer *= v0.shape[d];
  av.n = v0.shape[axis];
  for (size_t d = axis + 1; d < v0.shape.size(); ++d) av.inner *= v0.shape[d];
  return av;
}

// Combines lhs[j] and rhs[j] (each `count` lanes) lane by lane; returns one Val per operand
// with `count` lanes (1-D).
std::vector<Val> combine_lanes(const ir::Op& op, const std::vector<Val>& lhs, const std::vector<Val>& rhs,
                               int64_t count, const RegionFn& combine, bool batched) {
  const size_t N = lhs.size();
  if (batched) {
    std::vector<Val> args;
    args.reserve(2 * N);
    for (const Val& v : lhs) args.push_back(v);
    for (const Val& v : rhs) args.push_back(v);
    std::vector<Val> res = combine(args);
    if (res.size() != N) refuse(op, "combine region yields the wrong number of values");
    for (size_t j = 0; j < N; ++j) {
      if (res[j].scalar != lhs[j].scalar || res[j].is_ptr != lhs[j].is_ptr)
        refuse(op, "combine region yields " + describe(res[j]) + " for operand type " + describe(lhs[j]));
      if (res[j].numel == 1 && count != 1) res[j] = filled(res[j].scalar, res[j].is_ptr, {count}, load_bits(res[j], 0));
      else if (res[j].numel != count) refuse(op, "combine region changed the lane count");
    }
    return res;
  }
  std::vector<Val> out;
  for (const Val& v : lhs) out.push_back(Val::make(v.scalar, v.is_ptr, {count}));
  std::vector<Val> args(2 * N);
  for (int64_t i = 0; i < count; ++i) {
    for (size_t j = 0; j < N; ++j) {
      args[j] = scalar_from_bits(lhs[j].scalar, lhs[j].is_ptr, load_bits(lhs[j], i));
      args[N + j] = scalar_from_bits(rhs[j].scalar, rhs[j].is_ptr, load_bits(rhs[j], i));
    }
    std::vector<Val> res = combine(args);
    if (res.size() != N) refuse(op, "combine region yields the wrong number of values");
    for (size_t j = 0; j < N; ++j) {
      if (res[j].numel != 1 || res[j].scalar != lhs[j].scalar || res[j].is_ptr != lhs[j].is_ptr)
        refuse(op, "combine region yields " + describe(res[j]) + " for operand type " + describe(lhs[j]));
      store_bits(out[j], i, load_bits(res[j], 0));
    }
  }
  return out;
}

// Copies the [outer, lo..lo+len, inner] slab of src (viewed [outer, n, inner]) into a 1-D Val.
Val slab(const Val& src, const AxisView& av, int64_t n, int64_t lo, int64_t len) {
  Val out = Val::make(src.scalar, src.is_ptr, {av.outer * len * av.inner});
  for (int64_t o = 0; o < av.outer; ++o)
    copy_elems(src, (o * n + lo) * av.inner, out, o * len * av.inner, len * av.inner);
  return out;
}

}  // namespace

bool region_is_elementwise(const ir::Block& region) {
  for (const auto& op : region.ops) {
    switch (op->kind) {
      case ir::OpKind::Constant: case ir::OpKind::Add: case ir::OpKind::Sub: case ir::OpKind::Mul:
      case ir::OpKind::Div: case ir::OpKind::IDiv: case ir::OpKind::Rem: case ir::OpKind::And:
      case ir::OpKind::Or: case ir::OpKind::Xor: case ir::OpKind::Shl: case ir::OpKind::Shr:
      case ir::OpKind::Min: case ir::OpKind::Max: case ir::OpKind::Cmp: case ir::OpKind::Neg:
      case ir::OpKind::Not: case ir::OpKind::Math: case ir::OpKind::Select: case ir::OpKind::Cast:
      case ir::OpKind::Bitcast: case ir::OpKind::Hint: case ir::OpKind::Yield:
        if (!op->regions.empty()) return false;
        for (const ir::Value* r : op->results)
          if (r->type.is_tensor()) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

std::vector<Val> eval_reduce(const ir::Op& op, const std::vector<Val>& operands, const RegionFn& combine,
                             bool batched) {
  const int axis = static_cast<int>(op.attr_int("axis"));
  const AxisView av = view_of(op, operands, axis);
  if (av.n & (av.n - 1)) refuse(op, "reduced axis length must be a power of two");
  if (op.results.size() != operands.size()) refuse(op, "result count differs from operand count");
  // cur[j] holds the current round as [outer, n, inner].
  std::vector<Val> cur = operands;
  int64_t n = av.n;
  while (n > 1) {
    const int64_t half = n / 2;
    std::vector<Val> lhs, rhs;
    for (const Val& v : cur) {
      lhs.push_back(slab(v, av, n, 0, half));
      rhs.push_back(slab(v, av, n, half, half));
    }
    cur = combine_lanes(op, lhs, rhs, av.outer * half * av.inner, combine, batched);
    n = half;
  }
  std::vector<Val> out;
  for (size_t j = 0; j < cur.size(); ++j) {
    const ir::Type& rt = op.results[j]->type;
    if (rt.numel() != cur[j].numel) refuse(op, "result type " + rt.str() + " does not match the reduced shape");
    out.push_back(cur[j].reshaped(rt.shape));
  }
  return out;
}

std::vector<Val> eval_scan(const ir::Op& op, const std::vector<Val>& operands, const RegionFn& combine,
                           bool batched) {
  const int axis = static_cast<int>(op.attr_int("axis"));
  const bool reverse = op.attr_int("reverse", 0) != 0;
  const AxisView av = view_of(op, operands, axis);
  if (op.results.size() != operands.size()) refuse(op, "result count differs from operand count");
  std::vector<Val> out;
  for (const Val& v : operands) out.push_back(Val::make(v.scalar, v.is_ptr, v.shape));
  const int64_t lanes = av.outer * av.inner;
  auto put = [&](std::vector<Val>& dst, const std::vector<Val>& src, int64_t i) {
    for (size_t j = 0; j < src.size(); ++j)
      for (int64_t o = 0; o < av.outer; ++o)
        copy_elems(src[j], o * av.inner, dst[j], (o * av.n + i) * av.inner, av.inner);
  };
  const int64_t first = reverse ? av.n - 1 : 0;
  std::vector<Val> acc;
  for (const Val& v : operands) acc.push_back(slab(v, av, av.n, first, 1));
  put(out, acc, first);
  for (int64_t step = 1; step < av.n; ++step) {
    const int64_t i = reverse ? av.n - 1 - step : step;
    std::vector<Val> x;
    for (const Val& v : operands) x.push_back(slab(v, av, av.n, i, 1));
    acc = combine_lanes(op, acc, x, lanes, combine, batched);
    put(out, acc, i);
  }
  return out;
}

}  // namespace tritium::interp
