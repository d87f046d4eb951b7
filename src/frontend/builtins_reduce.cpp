// Reductions and scans: tl.reduce and tl.associative_scan with a jit combine function, the
// standard.py reductions sum, max, min, argmax, argmin, xor_sum, reduce_or and the scans
// cumsum, cumprod, whose combine regions are built from the same operators upstream's jit
// combine functions use (core.py reduce / _reduce_with_indices / associative_scan,
// semantic.py reduction / associative_scan, standard.py). A scan is inclusive; its order
// (one running value along the axis, in index order or from the end with reverse=True) is
// the canonical one of src/interp/interpreter.h.
#include <fmt/format.h>

#include "frontend/builtins_impl.h"

namespace tritium::frontend::bi {

using ir::ScalarType;

namespace {

using Combine = std::function<CValues(const CValues& args)>;

// Fills the combine region of reduce / scan `op` over `inputs` with `combine`, checking it
// returns one scalar of each input's element type (`what` names the op in messages).
void build_combine(ir::Builder& b, ir::Op* op, const std::vector<ir::Value*>& inputs, const Combine& combine,
                   const char* what, SrcLoc loc) {
  ir::InsertionGuard guard(b);
  b.set_insertion_end(&op->body());
  CValues args;
  for (auto* a : op->body().args) args.push_back(CValue::of_tensor(a));
  CValues res = combine(args);
  if (res.size() != inputs.size())
    fail(loc, fmt::format("{} combine function returned {} values, expected {}", what, res.size(), inputs.size()));
  std::vector<ir::Value*> yields;
  for (size_t i = 0; i < res.size(); ++i) {
    ir::Type want = inputs[i]->type.element();
    if (res[i].kind != CValue::Kind::Tensor || !(res[i].tensor->type == want))
      fail(loc, fmt::format("{} combine function returned {} for value {}, expected {}", what, res[i].describe(), i,
                            sem::tt_name(want)));
    yields.push_back(res[i].tensor);
  }
  b.create(ir::OpKind::Yield, yields, {}, loc);
}

// upstream core.reduce + semantic.reduction: the Reduce op, its combine region, keep_dims.
std::vector<ir::Value*> reduction(BuiltinContext& ctx, std::vector<ir::Value*> inputs, const CValue& axis_v,
                                  bool keep_dims, const Combine& combine, SrcLoc loc) {
  ir::Builder& b = ctx.b;
  int orig_rank = inputs[0]->type.rank();
  std::optional<int> axis;
  if (axis_v.kind != CValue::Kind::None) axis = wrap_axis(int_arg(axis_v, loc, "reduction axis"), orig_rank, loc);
  int ax = 0;
  if (!axis) {
    for (auto*& t : inputs) t = sem::reshape(b, t, {t->type.numel()}, true, loc);
  } else {
    ax = *axis;
  }
  const auto& shape = inputs[0]->type.shape;
  for (auto* t : inputs)
    if (t->type.shape != shape) fail(loc, "all reduction inputs must have the same shape");
  std::vector<int64_t> ret_shape;
  for (int i = 0; i < static_cast<int>(shape.size()); ++i)
    if (i != ax) ret_shape.push_back(shape[i]);
  std::vector<ir::Type> result_types;
  for (auto* t : inputs) result_types.push_back(t->type.with_shape(ret_shape));
  ir::Op* op = b.create_reduce(ir::OpKind::Reduce, inputs, ax, result_types, loc);
  build_combine(b, op, inputs, combine, "reduction", loc);
  std::vector<ir::Value*> out(op->results.begin(), op->results.end());
  if (keep_dims) {
    for (auto*& t : out) {
      if (axis) t = sem::expand_dims(b, t, *axis, loc);
      else
        for (int i = 0; i < orig_rank; ++i) t = sem::expand_dims(b, t, 0, loc);
    }
  }
  return out;
}

// upstream core.associative_scan + semantic.associative_scan: the Scan op and its region.
std::vector<ir::Value*> scan(BuiltinContext& ctx, std::vector<ir::Value*> inputs, const CValue& axis_v, bool reverse,
                             const Combine& combine, SrcLoc loc) {
  ir::Builder& b = ctx.b;
  const int rank = inputs[0]->type.rank();
  if (rank == 0) fail(loc, "tl.associative_scan needs a tensor input, got a scalar");
  if (axis_v.kind == CValue::Kind::None) fail(loc, "tl.associative_scan needs an axis (got None)");
  const int ax = wrap_axis(int_arg(axis_v, loc, "scan axis"), rank, loc);
  for (auto* t : inputs)
    if (t->type.shape != inputs[0]->type.shape) fail(loc, "all scan inputs must have the same shape");
  std::vector<ir::Type> result_types;
  for (auto* t : inputs) result_types.push_back(t->type);
  ir::Op* op = b.create_reduce(ir::OpKind::Scan, inputs, ax, result_types, loc);
  op->attrs["reverse"] = static_cast<int64_t>(reverse);
  build_combine(b, op, inputs, combine, "scan", loc);
  return std::vector<ir::Value*>(op->results.begin(), op->results.end());
}

CValues tensors_of(const CValue& r, SrcLoc loc) {
  if (r.kind == CValue::Kind::Tuple) return r.elems;
  return {r};
}

CValue reduce(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("reduce", std::move(args), std::move(kw),
         {req("input"), req("axis"), req("combine_fn"), opt("keep_dims", CValue::of_bool(false))}, loc);
  bool single = a["input"].kind == CValue::Kind::Tensor;
  std::vector<ir::Value*> inputs;
  for (const auto& v : tensors_of(a["input"], loc)) inputs.push_back(tensor_only(v, loc, "tl.reduce input"));
  if (inputs.empty()) fail(loc, "tl.reduce needs at least one input");
  const CValue& fn = a["combine_fn"];
  if (fn.kind != CValue::Kind::JitFn) fail(loc, "tl.reduce combine_fn must be a @triton.jit function, got " + fn.describe());
  if (!ctx.call_jit) fail(loc, "tl.reduce: no way to call the combine function here");
  auto combine = [&](const CValues& region_args) { return tensors_of(ctx.call_jit(fn, region_args, loc), loc); };
  auto out = reduction(ctx, inputs, a["axis"], bool_arg(a["keep_dims"], loc, "keep_dims"), combine, loc);
  if (single) return CValue::of_tensor(out[0]);
  CValues r;
  for (auto* v : out) r.push_back(CValue::of_tensor(v));
  return CValue::of_tuple(std::move(r));
}

CValue associative_scan(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("associative_scan", std::move(args), std::move(kw),
         {req("input"), req("axis"), req("combine_fn"), opt("reverse", CValue::of_bool(false))}, loc);
  const bool single = a["input"].kind == CValue::Kind::Tensor;
  std::vector<ir::Value*> inputs;
  for (const auto& v : tensors_of(a["input"], loc)) inputs.push_back(tensor_only(v, loc, "tl.associative_scan input"));
  if (inputs.empty()) fail(loc, "tl.associative_scan needs at least one input");
  const CValue& fn = a["combine_fn"];
  if (fn.kind != CValue::Kind::JitFn)
    fail(loc, "tl.associative_scan combine_fn must be a @triton.jit function, got " + fn.describe());
  if (!ctx.call_jit) fail(loc, "tl.associative_scan: no way to call the combine function here");
  auto combine = [&](const CValues& region_args) { return tensors_of(ctx.call_jit(fn, region_args, loc), loc); };
  auto out = scan(ctx, inputs, a["axis"], bool_arg(a["reverse"], loc, "reverse"), combine, loc);
  if (single) return CValue::of_tensor(out[0]);
  CValues r;
  for (auto* v : out) r.push_back(CValue::of_tensor(v));
  return CValue::of_tuple(std::move(r));
}

// standard.py cumsum / cumprod: bf16 computes in fp32; cumsum widens narrow ints as sum
// does (or converts to `dtype`).
CValue cum(BuiltinContext& ctx, bool is_sum, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  const char* name = is_sum ? "cumsum" : "cumprod";
  std::vector<Param> params = {req("input"), opt("axis", CValue::of_int(0)), opt("reverse", CValue::of_bool(false))};
  if (is_sum) params.push_back(opt("dtype"));
  Args a(name, std::move(args), std::move(kw), params, loc);
  ir::Value* x = tensor_only(a["input"], loc, std::string("tl.") + name + " input");
  if (x->type.scalar == ScalarType::BF16 && !x->type.is_ptr) x = sem::cast(ctx.b, x, ir::Type::of(ScalarType::F32), loc);
  if (is_sum) {
    const ScalarType t = x->type.scalar;
    if (a.has("dtype")) x = sem::cast(ctx.b, x, dtype_arg(a["dtype"], loc, "tl.cumsum dtype"), loc);
    else if (!x->type.is_ptr && ir::is_int(t) && ir::bitwidth(t) < 32)
      x = sem::cast(ctx.b, x, ir::Type::of(sem::tt_signed(t) ? ScalarType::I32 : ScalarType::U32), loc);
  }
  const BinOp op = is_sum ? BinOp::Add : BinOp::Mul;
  auto combine = [&](const CValues& v) { return CValues{binary_op(ctx, op, v[0], v[1], loc)}; };
  return CValue::of_tensor(scan(ctx, {x}, a["axis"], bool_arg(a["reverse"], loc, "reverse"), combine, loc)[0]);
}

ir::Value* reduce_input(const CValue& v, const char* fn, SrcLoc loc) {
  return tensor_only(v, loc, std::string("tl.") + fn + " input");
}

CValue sum(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("sum", std::move(args), std::move(kw),
         {req("input"), opt("axis"), opt("keep_dims", CValue::of_bool(false)), opt("dtype")}, loc);
  ir::Value* x = reduce_input(a["input"], "sum", loc);
  // standard.py _pick_sum_dtype: dtype if given; else ints narrower than 32 bits widen to
  // int32 (signed) or uint32 (unsigned, int1 included); floats stay as they are.
  ScalarType t = x->type.scalar;
  if (a.has("dtype")) {
    x = sem::cast(ctx.b, x, dtype_arg(a["dtype"], loc, "tl.sum dtype"), loc);
  } else if (!x->type.is_ptr && ir::is_int(t) && ir::bitwidth(t) < 32) {
    x = sem::cast(ctx.b, x, ir::Type::of(sem::tt_signed(t) ? ScalarType::I32 : ScalarType::U32), loc);
  }
  auto combine = [&](const CValues& v) { return CValues{binary_op(ctx, BinOp::Add, v[0], v[1], loc)}; };
  return CValue::of_tensor(reduction(ctx, {x}, a["axis"], bool_arg(a["keep_dims"], loc, "keep_dims"), combine, loc)[0]);
}

// upstream _argmax_combine / _argmin_combine
CValues arg_combine(BuiltinContext& ctx, bool is_max, bool tie_break_left, const CValues& v, SrcLoc loc) {
  CValue better = compare_op(ctx, is_max ? CmpOp::Gt : CmpOp::Lt, v[0], v[2], loc);
  if (tie_break_left) {
    CValue tie = logical_op(ctx, BoolOp::And, compare_op(ctx, CmpOp::Eq, v[0], v[2], loc),
                            compare_op(ctx, CmpOp::Lt, v[1], v[3], loc), loc);
    better = logical_op(ctx, BoolOp::Or, better, tie, loc);
  }
  ir::Value* c = better.tensor;
  return {CValue::of_tensor(sem::where(ctx.b, c, sem::operand(v[0].tensor), sem::operand(v[2].tensor), loc)),
          CValue::of_tensor(sem::where(ctx.b, c, sem::operand(v[1].tensor), sem::operand(v[3].tensor), loc))};
}

// upstream _reduce_with_indices
std::vector<ir::Value*> reduce_with_indices(BuiltinContext& ctx, ir::Value* x, const CValue& axis_v, bool is_max,
                                            bool tie_break_left, bool keep_dims, SrcLoc loc) {
  if (axis_v.kind == CValue::Kind::None) fail(loc, "reductions returning indices need an axis (got None)");
  int rank = x->type.rank();
  int64_t ax_raw = int_arg(axis_v, loc, "reduction axis");
  int ax = wrap_axis(ax_raw, rank, loc);
  int64_t n = x->type.shape[ax];
  CValue idx = call_builtin(ctx, "arange", {CValue::of_int(0), CValue::of_int(n)}, {}, loc);
  ir::Value* index = idx.tensor;
  if (rank > 1) {
    for (int d = 0; d < rank; ++d)
      if (d != ax) index = sem::expand_dims(ctx.b, index, d, loc);
    index = sem::broadcast_to(ctx.b, index, x->type.shape, loc);
  }
  auto combine = [&](const CValues& v) { return arg_combine(ctx, is_max, tie_break_left, v, loc); };
  return reduction(ctx, {x, index}, axis_v, keep_dims, combine, loc);
}

CValue minmax_reduce(BuiltinContext& ctx, bool is_max, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  const char* name = is_max ? "max" : "min";
  Args a(name, std::move(args), std::move(kw),
         {req("input"), opt("axis"), opt("return_indices", CValue::of_bool(false)),
          opt("return_indices_tie_break_left", CValue::of_bool(true)), opt("keep_dims", CValue::of_bool(false))},
         loc);
  ir::Value* x = reduce_input(a["input"], name, loc);
  if (x->type.is_ptr) fail(loc, std::string("tl.") + name + " of pointers");
  if (x->type.scalar == ScalarType::BF16) x = sem::cast(ctx.b, x, ir::Type::of(ScalarType::F32), loc);
  bool keep = bool_arg(a["keep_dims"], loc, "keep_dims");
  if (bool_arg(a["return_indices"], loc, "return_indices")) {
    bool tbl = bool_arg(a["return_indices_tie_break_left"], loc, "return_indices_tie_break_left");
    auto r = reduce_with_indices(ctx, x, a["axis"], is_max, tbl, keep, loc);
    return CValue::of_tuple({CValue::of_tensor(r[0]), CValue::of_tensor(r[1])});
  }
  // Narrow types reduce in 32 bits: floats in fp32, integers (int1, uint8, ... too) in int32.
  if (ir::bitwidth(x->type.scalar) < 32)
    x = sem::cast(ctx.b, x, ir::Type::of(x->type.is_float() ? ScalarType::F32 : ScalarType::I32), loc);
  auto combine = [&](const CValues& v) {
    return CValues{call_builtin(ctx, is_max ? "maximum" : "minimum", {v[0], v[1]}, {}, loc)};
  };
  return CValue::of_tensor(reduction(ctx, {x}, a["axis"], keep, combine, loc)[0]);
}

CValue argminmax(BuiltinContext& ctx, bool is_max, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  const char* name = is_max ? "argmax" : "argmin";
  Args a(name, std::move(args), std::move(kw),
         {req("input"), req("axis"), opt("tie_break_left", CValue::of_bool(true)), opt("keep_dims", CValue::of_bool(false))},
         loc);
  ir::Value* x = reduce_input(a["input"], name, loc);
  if (x->type.is_ptr) fail(loc, std::string("tl.") + name + " of pointers");
  if (x->type.scalar == ScalarType::BF16) x = sem::cast(ctx.b, x, ir::Type::of(ScalarType::F32), loc);
  auto r = reduce_with_indices(ctx, x, a["axis"], is_max, bool_arg(a["tie_break_left"], loc, "tie_break_left"),
                               bool_arg(a["keep_dims"], loc, "keep_dims"), loc);
  return CValue::of_tensor(r[1]);
}

CValue bit_reduce(BuiltinContext& ctx, BinOp op, const char* name, bool axis_required, CValues args,
                  std::vector<KwArg> kw, SrcLoc loc) {
  Args a(name, std::move(args), std::move(kw),
         {req("input"), axis_required ? req("axis") : opt("axis"), opt("keep_dims", CValue::of_bool(false))}, loc);
  ir::Value* x = reduce_input(a["input"], name, loc);
  if (!x->type.is_int()) fail(loc, std::string(name) + " only supported for integers");
  auto combine = [&](const CValues& v) { return CValues{binary_op(ctx, op, v[0], v[1], loc)}; };
  return CValue::of_tensor(reduction(ctx, {x}, a["axis"], bool_arg(a["keep_dims"], loc, "keep_dims"), combine, loc)[0]);
}

}  // namespace

void register_reduce(Registry& r) {
  r["reduce"] = reduce;
  r["sum"] = sum;
  r["max"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return minmax_reduce(c, true, std::move(a), std::move(k), l);
  };
  r["min"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return minmax_reduce(c, false, std::move(a), std::move(k), l);
  };
  r["argmax"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return argminmax(c, true, std::move(a), std::move(k), l);
  };
  r["argmin"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return argminmax(c, false, std::move(a), std::move(k), l);
  };
  r["xor_sum"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return bit_reduce(c, BinOp::BitXor, "xor_sum", false, std::move(a), std::move(k), l);
  };
  r["associative_scan"] = associative_scan;
  r["cumsum"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return cum(c, true, std::move(a), std::move(k), l);
  };
  r["cumprod"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return cum(c, false, std::move(a), std::move(k), l);
  };
  r["reduce_or"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return bit_reduce(c, BinOp::BitOr, "reduce_or", true, std::move(a), std::move(k), l);
  };
}

}  // namespace tritium::frontend::bi
