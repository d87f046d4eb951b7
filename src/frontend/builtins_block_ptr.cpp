// Block pointers: tl.make_block_ptr, tl.advance (and .advance), and tl.load / tl.store
// through them with boundary_check and padding_option (upstream semantic.py
// make_block_ptr / advance / _load_block_pointer / _store_block_pointer, Triton 3.6).
//
// A block pointer is a compile-time record, not an IR value: a Tuple tagged "tl.block_ptr"
// holding (base, shape, strides, offsets, block_shape, order). Its run-time fields are
// scalar IR values (shape / strides int64, offsets int32), so it is carried through loops,
// branches and jit calls like any tuple. A load or store through it is lowered here to the
// ordinary masked access upstream's RewriteTensorPointer pass produces: element (i_0, ...)
// is at base + sum_d (offsets_d + i_d) * strides_d in int64, and a dimension d named in
// boundary_check masks lanes outside 0 <= offsets_d + i_d < shape_d (loads: padding "zero"
// gives 0, "nan" gives NaN, "" leaves masked lanes to the load's default, 0). `order` is a
// layout hint and changes no value.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <set>

#include "frontend/builtins_impl.h"

namespace tritium::frontend::bi {

using K = CValue::Kind;
using ir::ScalarType;

namespace {

const char* const kTag = kBlockPtrTag;

KwArg kwarg(const char* name, const CValue& v) { return KwArg{name, std::make_shared<CValue>(v)}; }
enum Field { kBase, kShape, kStrides, kOffsets, kBlock, kOrder };

// upstream _convert_elem_to_ir_value: shape / strides as int64, offsets as int32.
ir::Value* field_value(BuiltinContext& ctx, const CValue& e, bool i64, SrcLoc loc) {
  ir::Builder& b = ctx.b;
  if (e.kind == K::Int || e.kind == K::Bool) {
    const __int128 v = sem::int_value(e);
    if (i64 && (v < -(__int128{1} << 63) || v >= (__int128{1} << 63)))
      fail(loc, fmt::format("Block pointers only support 64 bit `shape/strides`, got a value {} which is out of the range",
                            static_cast<long long>(v)));
    if (!i64 && (v < -(__int128{1} << 31) || v >= (__int128{1} << 31)))
      fail(loc, fmt::format("Block pointers only support 32 bit `offsets/block_shape`, got a value {} which is out of "
                            "the range",
                            static_cast<long long>(v)));
    return sem::const_int(b, ir::Type::of(i64 ? ScalarType::I64 : ScalarType::I32), static_cast<int64_t>(v), loc);
  }
  if (e.kind != K::Tensor) fail(loc, "Unsupported element type in shape/strides/offsets: " + e.describe());
  ir::Value* v = e.tensor;
  if (v->type.numel() != 1 || v->type.is_tensor()) fail(loc, "Expected a scalar in shape/strides/offsets");
  if (v->type.is_ptr || !v->type.is_int()) fail(loc, "Expected an integer scalar type in shape/strides/offsets");
  if (i64) return sem::cast(b, v, ir::Type::of(ScalarType::I64), loc);
  if (v->type.scalar == ScalarType::I64)
    fail(loc, "Block pointers only support 32 bit `offsets/block_shape`, add a `.to(tl.int32)` or use regular indexing "
              "for 64 bit support");
  return sem::cast(b, v, ir::Type::of(ScalarType::I32), loc);
}

CValues as_list(const CValue& v) { return v.kind == K::Tuple ? v.elems : CValues{v}; }

CValue fields(BuiltinContext& ctx, const CValue& list, bool i64, SrcLoc loc) {
  CValues out;
  for (const CValue& e : as_list(list)) out.push_back(CValue::of_tensor(field_value(ctx, e, i64, loc)));
  return CValue::of_tuple(std::move(out));
}

std::vector<int64_t> ints_of(const CValue& t) {
  std::vector<int64_t> v;
  for (const CValue& e : t.elems) v.push_back(e.i);
  return v;
}

const CValue& block_ptr_arg(const CValue& v, const std::string& fn, SrcLoc loc) {
  if (!is_block_ptr(v)) fail(loc, fmt::format("{}: expected a block pointer (tl.make_block_ptr), got {}", fn, v.describe()));
  return v;
}

CValue make_block_ptr(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("make_block_ptr", std::move(args), std::move(kw),
         {req("base"), req("shape"), req("strides"), req("offsets"), req("block_shape"), req("order")}, loc);
  const CValue& base_v = a["base"];
  if (base_v.kind != K::Tensor || !base_v.tensor->type.is_ptr || base_v.tensor->type.is_tensor())
    fail(loc, "Expected `base` to be a pointer type (but not a block pointer type or others)");
  CValue shape = fields(ctx, a["shape"], true, loc);
  CValue strides = fields(ctx, a["strides"], true, loc);
  CValue offsets = fields(ctx, a["offsets"], false, loc);
  ir::Value* base = base_v.tensor;
  if (base->type.scalar == ScalarType::I1) {  // accessed as int8, as upstream
    ir::Type t = base->type;
    t.scalar = ScalarType::I8;
    base = ctx.b.bitcast(base, t, loc);
  }
  CValues block_dims;
  for (const CValue& e : as_list(a["block_shape"])) {
    if (e.kind != K::Int || e.i < -(int64_t{1} << 31) || e.i >= (int64_t{1} << 31))
      fail(loc, "Expected a list of constant integers (`int32_t` range) in `block_shape`");
    block_dims.push_back(e);
  }
  const std::vector<int64_t> block = block_shape(block_dims, loc);  // powers of two, numel limit
  std::vector<int64_t> order;
  for (const CValue& e : as_list(a["order"])) {
    if (e.kind != K::Int) fail(loc, "Expected a permutation of (0, 1, ..., len(order)-1) in order");
    order.push_back(e.i);
  }
  std::vector<int64_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != static_cast<int64_t>(i)) fail(loc, "Expected a permutation of (0, 1, ..., len(order)-1) in order");
  const size_t n = block.size();
  if (shape.elems.size() != n || strides.elems.size() != n || offsets.elems.size() != n || order.size() != n)
    fail(loc, "Expected shape/strides/offsets/block_shape to have the same length");
  CValues blk, ord;
  for (int64_t d : block) blk.push_back(CValue::of_int(d));
  for (int64_t d : order) ord.push_back(CValue::of_int(d));
  CValue r = CValue::of_tuple({CValue::of_tensor(base), shape, strides, offsets, CValue::of_tuple(std::move(blk)),
                               CValue::of_tuple(std::move(ord))});
  r.s = kTag;
  return r;
}

CValue advance(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("advance", std::move(args), std::move(kw), {req("base"), req("offsets")}, loc);
  CValue bp = block_ptr_arg(a["base"], "tl.advance", loc);
  CValue delta = fields(ctx, a["offsets"], false, loc);
  CValue& offs = bp.elems[kOffsets];
  if (delta.elems.size() != offs.elems.size())
    fail(loc, fmt::format("tl.advance: {} offsets for a block pointer of rank {}", delta.elems.size(), offs.elems.size()));
  for (size_t d = 0; d < offs.elems.size(); ++d)  // int32, wrapping, as upstream's addi
    offs.elems[d] = CValue::of_tensor(
        sem::add(ctx.b, sem::operand(offs.elems[d].tensor), sem::operand(delta.elems[d].tensor), loc));
  return bp;
}

// upstream _canonicalize_boundary_check: constexpr dims in [0, rank), distinct, sorted.
std::vector<int64_t> boundary_dims(const CValue& v, size_t rank, SrcLoc loc) {
  if (v.kind == K::None || (v.kind == K::Tuple && v.elems.empty())) return {};
  std::vector<int64_t> dims;
  for (const CValue& e : as_list(v)) {
    if (e.kind != K::Int || e.i < 0 || e.i >= static_cast<int64_t>(rank))
      fail(loc, fmt::format("boundary_check dimensions must be constexpr ints in [0, {}), got {}", rank, e.describe()));
    dims.push_back(e.i);
  }
  if (std::set<int64_t>(dims.begin(), dims.end()).size() != dims.size())
    fail(loc, "Duplicate dimension in `boundary_check`");
  std::sort(dims.begin(), dims.end());
  return dims;
}

/// The pointer tensor and the boundary mask (nullptr: none) of block pointer `bp`.
std::pair<ir::Value*, ir::Value*> lower(BuiltinContext& ctx, const CValue& bp, const std::vector<int64_t>& checked,
                                        SrcLoc loc) {
  ir::Builder& b = ctx.b;
  const std::vector<int64_t> block = ints_of(bp.elems[kBlock]);
  const int rank = static_cast<int>(block.size());
  ir::Value* ptr = bp.elems[kBase].tensor;
  ir::Value* mask = nullptr;
  for (int d = 0; d < rank; ++d) {
    ir::Value* idx = call_builtin(ctx, "arange", {CValue::of_int(0), CValue::of_int(block[d])}, {}, loc).tensor;
    idx = sem::cast(b, idx, ir::Type::of(ScalarType::I64), loc);
    ir::Value* off = sem::cast(b, bp.elems[kOffsets].elems[d].tensor, ir::Type::of(ScalarType::I64), loc);
    ir::Value* pos = sem::add(b, sem::operand(off), sem::operand(idx), loc);  // [block_d], int64
    for (int e = 0; e < rank; ++e)
      if (e != d) pos = sem::expand_dims(b, pos, e, loc);
    ir::Value* step = sem::mul(b, sem::operand(pos), sem::operand(bp.elems[kStrides].elems[d].tensor), loc);
    ptr = sem::add(b, sem::operand(ptr), sem::operand(step), loc);
    if (std::find(checked.begin(), checked.end(), d) != checked.end()) {
      ir::Value* in = sem::logical(
          b, true, sem::compare(b, "ge", sem::operand(pos), sem::operand(CValue::of_int(0), loc, "bound"), loc),
          sem::compare(b, "lt", sem::operand(pos), sem::operand(bp.elems[kShape].elems[d].tensor), loc), loc);
      mask = mask ? sem::logical(b, true, mask, in, loc) : in;
    }
  }
  if (rank == 0) fail(loc, "a block pointer needs at least one dimension");
  if (ptr->type.shape != block) ptr = sem::broadcast_to(b, ptr, block, loc);
  if (mask && mask->type.shape != block) mask = sem::broadcast_to(b, mask, block, loc);
  return {ptr, mask};
}

}  // namespace

bool is_block_ptr(const CValue& v) { return v.kind == K::Tuple && v.s == kTag; }

CValue load_block_ptr(BuiltinContext& ctx, const CValue& bp, bool has_mask_or_other, const CValue& boundary_check,
                      const std::string& padding, const CValue& cache, const CValue& evict, const CValue& is_volatile,
                      SrcLoc loc) {
  if (has_mask_or_other) fail(loc, "`mask` and `other` arguments cannot be specified for loading block pointers");
  const ScalarType et = bp.elems[kBase].tensor->type.scalar;
  if (ir::is_int(et) && padding == "nan") fail(loc, "Padding option `nan` is not supported for integer block pointers");
  const auto checked = boundary_dims(boundary_check, bp.elems[kBlock].elems.size(), loc);
  auto [ptr, mask] = lower(ctx, bp, checked, loc);
  std::vector<KwArg> kw = {kwarg("cache_modifier", cache), kwarg("eviction_policy", evict), kwarg("volatile", is_volatile)};
  if (mask) {
    kw.push_back(kwarg("mask", CValue::of_tensor(mask)));
    if (padding == "zero") kw.push_back(kwarg("other", CValue::of_int(0)));
    if (padding == "nan") kw.push_back(kwarg("other", CValue::of_float(std::numeric_limits<double>::quiet_NaN())));
  }
  return call_builtin(ctx, "load", {CValue::of_tensor(ptr)}, std::move(kw), loc);
}

void store_block_ptr(BuiltinContext& ctx, const CValue& bp, const CValue& value_v, bool has_mask,
                     const CValue& boundary_check, const CValue& cache, const CValue& evict, SrcLoc loc) {
  if (has_mask) fail(loc, "`mask` and `other` arguments cannot be specified for loading block pointers");
  const std::vector<int64_t> block = ints_of(bp.elems[kBlock]);
  const ScalarType et = bp.elems[kBase].tensor->type.scalar;
  ir::Value* value = tensor_arg(ctx, value_v, loc, "tl.store value");
  if (!value->type.is_tensor()) value = sem::broadcast_to(ctx.b, value, block, loc);
  if (value->type.shape != block) {
    auto text = [](const std::vector<int64_t>& s) {
      std::string t = "[";
      for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
      return t + "]";
    };
    fail(loc, fmt::format("Block shape({}) and value shape({}) mismatch", text(block), text(value->type.shape)));
  }
  if (value->type.scalar != et || value->type.is_ptr)
    fail(loc, fmt::format("Block element type({}) and value element type({}) mismatch", sem::tt_name(ir::Type::of(et)),
                          sem::tt_name(value->type.element())));
  const auto checked = boundary_dims(boundary_check, block.size(), loc);
  auto [ptr, mask] = lower(ctx, bp, checked, loc);
  std::vector<KwArg> kw = {kwarg("cache_modifier", cache), kwarg("eviction_policy", evict)};
  if (mask) kw.push_back(kwarg("mask", CValue::of_tensor(mask)));
  call_builtin(ctx, "store", {CValue::of_tensor(ptr), CValue::of_tensor(value)}, std::move(kw), loc);
}

void register_block_ptr(Registry& r) {
  r["make_block_ptr"] = make_block_ptr;
  r["advance"] = advance;
}

}  // namespace tritium::frontend::bi
