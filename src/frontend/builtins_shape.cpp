// Shape manipulation: tl.broadcast, broadcast_to, trans, permute, reshape, view, ravel,
// expand_dims, join, split, interleave, item, flip, sort, cat, topk, gather, histogram
// (upstream core.py / semantic.py / standard.py).
#include <fmt/format.h>

#include <algorithm>

#include "frontend/builtins_impl.h"

namespace tritium::frontend::bi {

namespace {

ir::Value* permute_value(BuiltinContext& ctx, ir::Value* x, const std::vector<int64_t>& dims, SrcLoc loc) {
  int rank = x->type.rank();
  if (static_cast<int>(dims.size()) != rank) fail(loc, "permute dims must have the same length as input shape");
  std::vector<int64_t> sorted = dims;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < rank; ++i)
    if (sorted[i] != i)
      fail(loc, fmt::format("permute dims must be a permutation of 0, 1, ..., n-1, but were ({})", fmt::join(dims, ", ")));
  std::vector<int64_t> shape;
  for (auto d : dims) shape.push_back(x->type.shape[d]);
  return ctx.b.create(ir::OpKind::Trans, {x}, {x->type.with_shape(shape)}, loc, {{"perm", dims}})->result();
}

std::vector<int64_t> dims_list(const CValues& rest, SrcLoc loc, const std::string& what) {
  std::vector<int64_t> out;
  for (const auto& d : unwrap_iterable(rest)) out.push_back(int_arg(d, loc, what));
  return out;
}

CValue broadcast(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("broadcast", std::move(args), std::move(kw), {req("input"), req("other")}, loc);
  ir::Value* x = tensor_only(a["input"], loc, "tl.broadcast input");
  ir::Value* y = tensor_only(a["other"], loc, "tl.broadcast other");
  sem::broadcast_pair(ctx.b, x, y, loc);
  return CValue::of_tuple({CValue::of_tensor(x), CValue::of_tensor(y)});
}

CValue broadcast_to(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("broadcast_to", std::move(args), std::move(kw), {req("input")}, loc, true);
  ir::Value* x = tensor_only(a["input"], loc, "tl.broadcast_to input");
  auto shape = block_shape(unwrap_iterable(a.rest()), loc);
  return CValue::of_tensor(sem::broadcast_to(ctx.b, x, shape, loc));
}

CValue trans(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("trans", std::move(args), std::move(kw), {req("input")}, loc, true);
  ir::Value* x = tensor_only(a["input"], loc, "tl.trans input");
  auto dims = dims_list(a.rest(), loc, "trans dim");
  if (dims.empty()) {
    int n = x->type.rank();
    if (n < 2) fail(loc, "tl.trans invoked with a 0- or 1-dimensional tensor");
    for (int i = 0; i < n - 2; ++i) dims.push_back(i);
    dims.push_back(n - 1);
    dims.push_back(n - 2);
  }
  return CValue::of_tensor(permute_value(ctx, x, dims, loc));
}

CValue permute(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("permute", std::move(args), std::move(kw), {req("input")}, loc, true);
  ir::Value* x = tensor_only(a["input"], loc, "tl.permute input");
  return CValue::of_tensor(permute_value(ctx, x, dims_list(a.rest(), loc, "permute dim"), loc));
}

CValue reshape_impl(BuiltinContext& ctx, const char* name, CValues args, std::vector<KwArg> kw, SrcLoc loc,
                    bool view) {
  std::vector<Param> params = {req("input")};
  if (!view) params.push_back(opt("can_reorder", CValue::of_bool(false)));
  Args a(name, std::move(args), std::move(kw), params, loc, true, 1);
  ir::Value* x = tensor_only(a["input"], loc, std::string("tl.") + name + " input");
  auto shape = block_shape(unwrap_iterable(a.rest()), loc);
  bool can_reorder = view || bool_arg(a["can_reorder"], loc, "can_reorder");
  if (shape.empty() && x->type.numel() != 1) fail(loc, "can only unsplat single-element tensors");
  return CValue::of_tensor(sem::reshape(ctx.b, x, shape, can_reorder, loc));
}

CValue ravel(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("ravel", std::move(args), std::move(kw), {req("x"), opt("can_reorder", CValue::of_bool(false))}, loc);
  ir::Value* x = tensor_only(a["x"], loc, "tl.ravel input");
  return CValue::of_tensor(
      sem::reshape(ctx.b, x, {x->type.numel()}, bool_arg(a["can_reorder"], loc, "can_reorder"), loc));
}

CValue expand_dims(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("expand_dims", std::move(args), std::move(kw), {req("input"), req("axis")}, loc);
  ir::Value* x = tensor_arg(ctx, a["input"], loc, "tl.expand_dims input");
  auto axes = int_list(a["axis"], loc, "expand_dims axis");
  int new_ndim = x->type.rank() + static_cast<int>(axes.size());
  std::vector<int> wrapped;
  for (auto ax : axes) wrapped.push_back(wrap_axis(ax, new_ndim, loc));
  std::vector<int> sorted = wrapped;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    fail(loc, fmt::format("expand_dims received duplicate axes, normalized axes = [{}]", fmt::join(wrapped, ", ")));
  for (int ax : sorted) x = sem::expand_dims(ctx.b, x, ax, loc);
  return CValue::of_tensor(x);
}

ir::Value* join_values(BuiltinContext& ctx, ir::Value* x, ir::Value* y, SrcLoc loc) {
  sem::broadcast_pair(ctx.b, x, y, loc);
  if (x->type.scalar != y->type.scalar || x->type.is_ptr != y->type.is_ptr)
    fail(loc, fmt::format("tl.join operands have different types {} and {}", sem::tt_name(x->type.element()),
                          sem::tt_name(y->type.element())));
  bool was_scalar = x->type.is_scalar();
  if (was_scalar) {
    x = sem::expand_dims(ctx.b, x, 0, loc);
    y = sem::expand_dims(ctx.b, y, 0, loc);
  }
  auto shape = x->type.shape;
  shape.push_back(2);
  ir::Value* r = ctx.b.create(ir::OpKind::Join, {x, y}, {x->type.with_shape(shape)}, loc)->result();
  if (was_scalar) r = sem::reshape(ctx.b, r, {2}, false, loc);
  return r;
}

CValue join(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("join", std::move(args), std::move(kw), {req("a"), req("b")}, loc);
  return CValue::of_tensor(join_values(ctx, tensor_only(a["a"], loc, "tl.join a"), tensor_only(a["b"], loc, "tl.join b"),
                                       loc));
}

CValue split(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("split", std::move(args), std::move(kw), {req("a")}, loc);
  ir::Value* x = tensor_only(a["a"], loc, "tl.split input");
  if (x->type.is_scalar() || x->type.shape.back() != 2) fail(loc, "tl.split needs a tensor whose last dimension is 2");
  bool was_rank1 = x->type.rank() == 1;
  if (was_rank1) x = sem::expand_dims(ctx.b, x, 0, loc);
  auto shape = x->type.shape;
  shape.pop_back();
  ir::Op* op = ctx.b.create(ir::OpKind::Split, {x}, {x->type.with_shape(shape), x->type.with_shape(shape)}, loc);
  ir::Value* l = op->result(0);
  ir::Value* r = op->result(1);
  if (was_rank1) {
    l = sem::reshape(ctx.b, l, {}, false, loc);
    r = sem::reshape(ctx.b, r, {}, false, loc);
  }
  return CValue::of_tuple({CValue::of_tensor(l), CValue::of_tensor(r)});
}

CValue interleave(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("interleave", std::move(args), std::move(kw), {req("a"), req("b")}, loc);
  ir::Value* c = join_values(ctx, tensor_only(a["a"], loc, "tl.interleave a"), tensor_only(a["b"], loc, "tl.interleave b"),
                             loc);
  if (c->type.rank() == 1) return CValue::of_tensor(c);
  auto shape = c->type.shape;
  int64_t last = shape[shape.size() - 2] * 2;
  shape.resize(shape.size() - 2);
  shape.push_back(last);
  return CValue::of_tensor(sem::reshape(ctx.b, c, shape, false, loc));
}

CValue item(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("item", std::move(args), std::move(kw), {req("input")}, loc);
  ir::Value* x = tensor_only(a["input"], loc, "tl.item input");
  if (x->type.is_scalar()) return CValue::of_tensor(x);
  if (x->type.numel() != 1) fail(loc, "can only unsplat single-element tensors");
  return CValue::of_tensor(sem::reshape(ctx.b, x, {}, false, loc));
}

}  // namespace

// standard.py flip: reverses `x` along `dim` (a power-of-two dimension). Upstream swaps
// bit patterns with xor in log2(n) steps, which moves every element to the mirrored index
// exactly; tritium has an op for it (Flip). dim=None fails upstream (its static_assert
// compares None with an int), so it is refused here too.
CValue flip(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("flip", std::move(args), std::move(kw), {req("x"), opt("dim")}, loc);
  ir::Value* x = tensor_only(a["x"], loc, "tl.flip input");
  const int rank = x->type.rank();
  if (rank == 0) fail(loc, "tl.flip needs a tensor, got a scalar");
  if (a["dim"].kind == CValue::Kind::None)
    fail(loc, "tl.flip needs dim (upstream Triton 3.6 fails on dim=None: its static_assert compares None with an int)");
  const int64_t dim = int_arg(a["dim"], loc, "tl.flip dim");
  if (!(-rank <= dim && dim < rank)) fail(loc, fmt::format("tl.flip: dim {} out of range for a tensor of rank {}", dim, rank));
  const int64_t d = dim < 0 ? dim + rank : dim;
  const int64_t n = x->type.shape[d];
  if (n & (n - 1)) fail(loc, fmt::format("tl.flip: dimension {} has size {}, not a power of two", d, n));
  return CValue::of_tensor(ctx.b.create(ir::OpKind::Flip, {x}, {x->type}, loc, {{"axis", d}})->result());
}

// standard.py sort: the last dimension only, ascending unless `descending`; the network
// is upstream's (interpreter.h), so ties and NaNs are placed as Triton places them.
CValue sort(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("sort", std::move(args), std::move(kw), {req("x"), opt("dim"), opt("descending", CValue::of_int(0))}, loc);
  ir::Value* x = tensor_only(a["x"], loc, "tl.sort input");
  const int rank = x->type.rank();
  if (rank == 0) fail(loc, "tl.sort needs a tensor, got a scalar");
  if (x->type.is_ptr) fail(loc, "tl.sort of pointers");
  if (a["dim"].kind != CValue::Kind::None && int_arg(a["dim"], loc, "tl.sort dim") != rank - 1)
    fail(loc, "only minor dimension is currently supported");
  const bool desc = bool_arg(a["descending"], loc, "tl.sort descending");
  return CValue::of_tensor(
      ctx.b.create(ir::OpKind::Sort, {x}, {x->type}, loc, {{"descending", static_cast<int64_t>(desc)}})->result());
}

// standard.py bitonic_merge: one bitonic merge of the last dimension (log2(n) compare-and-
// swap rounds, partners 2^(r-1) apart, ascending unless `descending`): sorts a bitonic
// sequence; on any other input it gives what upstream's network gives (the Sort op, merge=1).
CValue bitonic_merge(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("bitonic_merge", std::move(args), std::move(kw), {req("x"), opt("dim"), opt("descending", CValue::of_int(0))},
         loc);
  ir::Value* x = tensor_only(a["x"], loc, "tl.bitonic_merge input");
  const int rank = x->type.rank();
  if (rank == 0) fail(loc, "tl.bitonic_merge needs a tensor, got a scalar");
  if (x->type.is_ptr) fail(loc, "tl.bitonic_merge of pointers");
  if (a["dim"].kind != CValue::Kind::None && int_arg(a["dim"], loc, "tl.bitonic_merge dim") != rank - 1)
    fail(loc, "only minor dimension is currently supported");
  const bool desc = bool_arg(a["descending"], loc, "tl.bitonic_merge descending");
  return CValue::of_tensor(ctx.b.create(ir::OpKind::Sort, {x}, {x->type}, loc,
                                        {{"descending", static_cast<int64_t>(desc)}, {"merge", int64_t{1}}})
                               ->result());
}

// core.py cat / semantic.py cat: 1-D tensors of one element type, can_reorder=True required
// (upstream's only implementation may reorder); tritium keeps the order (input, then other),
// which is one of the orders allowed.
CValue cat(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("cat", std::move(args), std::move(kw), {req("input"), req("other"), opt("can_reorder", CValue::of_bool(false))},
         loc);
  ir::Value* x = tensor_only(a["input"], loc, "tl.cat input");
  ir::Value* y = tensor_only(a["other"], loc, "tl.cat other");
  if (!bool_arg(a["can_reorder"], loc, "tl.cat can_reorder"))
    fail(loc, "current implementation of `cat` always may reorder elements (pass can_reorder=True)");
  if (x->type.rank() != 1) fail(loc, "tl.cat needs 1-D tensors, got " + sem::tt_name(x->type));
  if (y->type.rank() != 1 || y->type.scalar != x->type.scalar || y->type.is_ptr != x->type.is_ptr)
    fail(loc, fmt::format("tl.cat operands must be 1-D tensors of one type, got {} and {}", sem::tt_name(x->type),
                          sem::tt_name(y->type)));
  const std::vector<int64_t> shape =
      block_shape({CValue::of_int(x->type.shape[0] + y->type.shape[0])}, loc);  // a power of two
  return CValue::of_tensor(
      ctx.b.create(ir::OpKind::Cat, {x, y}, {x->type.with_shape(shape)}, loc, {{"can_reorder", int64_t{1}}})->result());
}

// standard.py topk = sort_impl(x, k, descending=True): the first log2(k) bitonic stages,
// then halving with max and merging (interpreter.h). Types under 32 bits (and bf16) reach
// upstream's max() as fp32 / int32 when k < n, so the result has that type then.
CValue topk(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("topk", std::move(args), std::move(kw), {req("x"), req("k"), opt("dim")}, loc);
  ir::Value* x = tensor_only(a["x"], loc, "tl.topk input");
  const int rank = x->type.rank();
  if (rank == 0) fail(loc, "tl.topk needs a tensor, got a scalar");
  if (x->type.is_ptr) fail(loc, "tl.topk of pointers");
  if (a["dim"].kind != CValue::Kind::None && int_arg(a["dim"], loc, "tl.topk dim") != rank - 1)
    fail(loc, "only minor dimension is currently supported");
  const int64_t n = x->type.shape.back();
  const int64_t k = int_arg(a["k"], loc, "tl.topk k");
  if (k <= 0 || k > n || (k & (k - 1)))
    fail(loc, fmt::format("tl.topk: k must be a power of two in [1, {}], got {}", n, k));
  if (k < n && (x->type.scalar == ir::ScalarType::BF16 || ir::bitwidth(x->type.scalar) < 32))
    x = sem::cast(ctx.b, x, ir::Type::of(x->type.is_float() ? ir::ScalarType::F32 : ir::ScalarType::I32), loc);
  std::vector<int64_t> shape = x->type.shape;
  shape.back() = k;
  return CValue::of_tensor(ctx.b.create(ir::OpKind::Sort, {x}, {x->type.with_shape(shape)}, loc,
                                        {{"descending", int64_t{1}}, {"k", k}})
                               ->result());
}

// core.py gather / semantic.py gather: index an integer tensor of src's rank, equal to src
// off `axis` (negative axes wrap); the result has src's element type and index's shape. An
// index outside [0, n) gives all-zero bits (interpreter.h; upstream: undefined on GPUs); in
// debug mode an assert reports it at run time.
CValue gather(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("gather", std::move(args), std::move(kw), {req("src"), req("index"), req("axis")}, loc);
  ir::Value* src = tensor_only(a["src"], loc, "tl.gather src");
  ir::Value* index = tensor_only(a["index"], loc, "tl.gather index");
  if (!index->type.is_int())
    fail(loc, "tl.gather: index must be an integer tensor, got " + sem::tt_name(index->type));
  const int rank = src->type.rank();
  if (rank == 0) fail(loc, "tl.gather: src must be a tensor, got a scalar " + sem::tt_name(src->type));
  if (index->type.rank() != rank)
    fail(loc, fmt::format("tl.gather: source and index tensors must have the same rank, got {} and {}",
                          sem::tt_name(src->type), sem::tt_name(index->type)));
  const int64_t axis_arg = int_arg(a["axis"], loc, "tl.gather axis");
  if (!(-rank <= axis_arg && axis_arg < rank))
    fail(loc, fmt::format("tl.gather: axis {} out of range for a source of rank {}", axis_arg, rank));
  const int64_t axis = axis_arg < 0 ? axis_arg + rank : axis_arg;
  for (int d = 0; d < rank; ++d)
    if (d != axis && index->type.shape[d] != src->type.shape[d])
      fail(loc, fmt::format("tl.gather: index dim {} has size {}, but it must match the source's ({}) off the axis",
                            d, index->type.shape[d], src->type.shape[d]));
  const int64_t n = src->type.shape[axis];
  if (ctx.opts.debug) {  // read as int64: uint64 indices >= 2^63 are out of range, as in the op
    const ir::Type i64 = index->type.with_scalar(ir::ScalarType::I64);
    ir::Value* k = sem::cast(ctx.b, index, i64, loc);
    ir::Value* ok = ctx.b.binary(ir::OpKind::And, ctx.b.cmp("ge", k, sem::const_int(ctx.b, i64, 0, loc), loc),
                                 ctx.b.cmp("lt", k, sem::const_int(ctx.b, i64, n, loc), loc), loc);
    sem::assert_op(ctx.b, ok, fmt::format("tl.gather index out of range [0, {})", n), loc);
  }
  return CValue::of_tensor(ctx.b.create(ir::OpKind::Gather, {src, index}, {src->type.with_shape(index->type.shape)},
                                        loc, {{"axis", axis}})
                               ->result());
}

// core.py histogram / semantic.py histogram: a 1-D integer input, num_bins a constexpr
// power of two (the result's block shape); bins of width 1 from 0, values outside
// [0, num_bins) not counted (interpreter.h); `mask` (broadcast to the input) excludes
// elements.
CValue histogram(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("histogram", std::move(args), std::move(kw), {req("input"), req("num_bins"), opt("mask")}, loc);
  ir::Value* x = tensor_only(a["input"], loc, "tl.histogram input");
  if (x->type.rank() != 1) fail(loc, "tl.histogram only supports 1D input, got " + sem::tt_name(x->type));
  if (!x->type.is_int()) fail(loc, "tl.histogram only supports integer input, got " + sem::tt_name(x->type));
  const int64_t bins = int_arg(a["num_bins"], loc, "tl.histogram num_bins");
  if (bins <= 0 || (bins & (bins - 1)))
    fail(loc, fmt::format("tl.histogram: num_bins must be a power of 2 (it is the result's block shape), got {}", bins));
  const std::vector<int64_t> shape = block_shape({CValue::of_int(bins)}, loc);
  std::vector<ir::Value*> operands = {x};
  if (a.has("mask")) {
    ir::Value* m = sem::broadcast_to(ctx.b, tensor_arg(ctx, a["mask"], loc, "tl.histogram mask"), x->type.shape, loc);
    if (!m->type.is_bool())
      fail(loc, "tl.histogram: Mask must have boolean scalar type, got " + sem::tt_name(m->type.element()));
    operands.push_back(m);
  }
  return CValue::of_tensor(
      ctx.b.create(ir::OpKind::Histogram, operands, {ir::Type::tensor(ir::ScalarType::I32, shape)}, loc)->result());
}

void register_shape(Registry& r) {
  r["gather"] = gather;
  r["histogram"] = histogram;
  r["flip"] = flip;
  r["cat"] = cat;
  r["topk"] = topk;
  r["sort"] = sort;
  r["bitonic_merge"] = bitonic_merge;
  r["broadcast"] = broadcast;
  r["broadcast_to"] = broadcast_to;
  r["trans"] = trans;
  r["permute"] = permute;
  r["reshape"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return reshape_impl(c, "reshape", std::move(a), std::move(k), l, false);
  };
  r["view"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return reshape_impl(c, "view", std::move(a), std::move(k), l, true);
  };
  r["ravel"] = ravel;
  r["expand_dims"] = expand_dims;
  r["join"] = join;
  r["split"] = split;
  r["interleave"] = interleave;
  r["item"] = item;
}

}  // namespace tritium::frontend::bi
