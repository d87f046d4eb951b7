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

CValue block_ptr_attr(const CValue& bp, const std::string& attr, SrcLoc loc) {
  // Upstream's block pointer is a scalar tensor of type pointer<block_type<elt, block_shape>>,
  // so .dtype and .type are that pointer type and `.dtype.element_ty` is the block type,
  // whose scalar is elt. tritium's dtypes have no pointer-to-block, so both are pointer<elt>:
  // `x.to(p.dtype.element_ty)` (the FLA idiom; cast uses the scalar) means the same.
  if (attr == "dtype" || attr == "type") return CValue::of_dtype(bp.elems[kBase].tensor->type.element());
  fail(loc, fmt::format("block pointer has no attribute '{}' (tritium supports advance, dtype, type)", attr));
}

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
    // The padding as a constant of the element type itself (an int 0 cannot be cast to fp8).
    const ir::Type pt = ir::Type::of(et);
    if (padding == "zero")
      kw.push_back(kwarg("other", CValue::of_tensor(ir::is_float(et) ? ctx.b.const_float(pt, 0.0, loc)
                                                                      : ctx.b.const_int(pt, 0, loc))));
    if (padding == "nan")
      kw.push_back(kwarg("other", CValue::of_tensor(ctx.b.const_float(pt, std::numeric_limits<double>::quiet_NaN(), loc))));
  }
  CValue r = call_builtin(ctx, "load", {CValue::of_tensor(ptr)}, std::move(kw), loc);
  // Every dimension checked and padded: the load reads exactly a bounds-checked window, which
  // a backend may copy with a bulk tensor copy (TMA). Record it (ops.def, Load).
  ir::Op* L = r.kind == K::Tensor && r.tensor->def && r.tensor->def->kind == ir::OpKind::Load ? r.tensor->def : nullptr;
  const size_t rank = bp.elems[kBlock].elems.size();
  if (L && L->operands.size() == 3 && checked.size() == rank && (padding == "zero" || padding == "nan")) {
    L->operands.push_back(bp.elems[kBase].tensor);
    for (int f : {kOffsets, kShape, kStrides})
      for (const CValue& e : bp.elems[f].elems) L->operands.push_back(e.tensor);
    L->attrs["window"] = static_cast<int64_t>(rank);
    L->attrs["window_nan"] = static_cast<int64_t>(padding == "nan");
  }
  return r;
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

// ---- tensor descriptors ---------------------------------------------------------------------
// tl.make_tensor_descriptor(base, shape, strides, block_shape, padding_option) and
// desc.load / desc.store / tl.load_tensor_descriptor / tl.store_tensor_descriptor (upstream
// semantic.py make_tensor_descriptor / descriptor_load / descriptor_store). A descriptor is a
// record like a block pointer (Tuple tagged tl.tensor_descriptor: base, int32 shape, int64
// strides, constexpr block shape, padding) without offsets: each access names its block's
// int32 offsets, every dimension is bounds-checked (as the TMA unit does), loads pad with
// zero or NaN, stores skip the lanes outside.

namespace {

enum DescField { kDBase, kDShape, kDStrides, kDBlock, kDPadding };

CValue make_tensor_descriptor(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("make_tensor_descriptor", std::move(args), std::move(kw),
         {req("base"), req("shape"), req("strides"), req("block_shape"), opt("padding_option", CValue::of_str("zero"))},
         loc);
  const CValue& base_v = a["base"];
  if (base_v.kind != K::Tensor || !base_v.tensor->type.is_ptr || base_v.tensor->type.is_tensor())
    fail(loc, "tl.make_tensor_descriptor: base must be a pointer, got " + base_v.describe());
  ir::Value* base = base_v.tensor;
  const CValues shape_l = as_list(a["shape"]), strides_l = as_list(a["strides"]), block_l = as_list(a["block_shape"]);
  const size_t ndim = shape_l.size();
  if (ndim < 1 || ndim > 5) fail(loc, fmt::format("Expected 1 <= ndim <= 5 but got {} dimensions", ndim));
  if (strides_l.size() != ndim) fail(loc, fmt::format("Expected {} strides but got {}", ndim, strides_l.size()));
  if (block_l.size() != ndim)
    fail(loc, fmt::format("Expected block_shape to have {} dimensions but got {}", ndim, block_l.size()));
  const std::vector<int64_t> block = block_shape(block_l, loc);
  const int esize = ir::byte_size(base->type.scalar);
  if (block.back() * esize < 16)
    fail(loc, fmt::format("Descriptor block shape must have at least 16 bytes in the last dimension, but got {} * {} = "
                          "{} bytes",
                          block.back(), esize, block.back() * esize));
  const CValue& last = strides_l.back();
  if (last.kind != K::Int || last.i != 1)
    fail(loc, "Tensor descriptor last dim must be 1 but got " +
                  (last.kind == K::Int ? std::to_string(last.i) : last.describe() + " (it must be the constexpr 1)"));
  const std::string padding = str_arg(a["padding_option"], loc, "padding_option");
  if (padding != "zero" && padding != "nan") fail(loc, "Padding option " + padding + " not supported");
  if (ir::is_int(base->type.scalar) && padding == "nan")
    fail(loc, "Padding option `nan` is not supported for integer blocks");
  CValues shape, strides, blk;
  for (const CValue& e : shape_l) {  // upstream make_scalar(x, int32)
    ir::Value* v = e.kind == K::Tensor ? e.tensor : nullptr;
    if (v && (v->type.is_tensor() || v->type.is_ptr || !v->type.is_int()))
      fail(loc, "tl.make_tensor_descriptor: shape entries must be integer scalars, got " + e.describe());
    shape.push_back(CValue::of_tensor(v ? sem::cast(ctx.b, v, ir::Type::of(ScalarType::I32), loc)
                                        : field_value(ctx, e, false, loc)));
  }
  for (const CValue& e : strides_l) strides.push_back(CValue::of_tensor(field_value(ctx, e, true, loc)));
  for (int64_t d : block) blk.push_back(CValue::of_int(d));
  CValue r = CValue::of_tuple({CValue::of_tensor(base), CValue::of_tuple(std::move(shape)),
                               CValue::of_tuple(std::move(strides)), CValue::of_tuple(std::move(blk)),
                               CValue::of_str(padding)});
  r.s = kTensorDescTag;
  return r;
}

const CValue& desc_arg(const CValue& v, const std::string& fn, SrcLoc loc) {
  if (!is_tensor_desc(v))
    fail(loc, fmt::format("{}: expected a tensor descriptor (tl.make_tensor_descriptor), got {}", fn, v.describe()));
  return v;
}

/// The block-pointer record of descriptor `d` at `offsets` (all dimensions checked).
CValue desc_window(BuiltinContext& ctx, const CValue& d, const CValue& offsets, const std::string& fn, SrcLoc loc) {
  CValue offs = fields(ctx, offsets, false, loc);
  const size_t ndim = d.elems[kDBlock].elems.size();
  if (offs.elems.size() != ndim) fail(loc, fmt::format("{}: expected {} offsets, but got {}", fn, ndim, offs.elems.size()));
  CValues shape64;
  for (const CValue& s : d.elems[kDShape].elems)
    shape64.push_back(CValue::of_tensor(sem::cast(ctx.b, s.tensor, ir::Type::of(ScalarType::I64), loc)));
  CValues order;
  for (size_t i = 0; i < ndim; ++i) order.push_back(CValue::of_int(static_cast<int64_t>(ndim - 1 - i)));
  CValue bp = CValue::of_tuple({d.elems[kDBase], CValue::of_tuple(std::move(shape64)), d.elems[kDStrides], offs,
                                d.elems[kDBlock], CValue::of_tuple(std::move(order))});
  bp.s = kTag;
  return bp;
}

CValue all_dims(size_t n) {
  CValues v;
  for (size_t i = 0; i < n; ++i) v.push_back(CValue::of_int(static_cast<int64_t>(i)));
  return CValue::of_tuple(std::move(v));
}

CValue desc_load(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("load_tensor_descriptor", std::move(args), std::move(kw),
         {req("desc"), req("offsets"), opt("cache_modifier", CValue::of_str("")), opt("eviction_policy", CValue::of_str(""))},
         loc);
  const CValue& d = desc_arg(a["desc"], "tl.load_tensor_descriptor", loc);
  CValue bp = desc_window(ctx, d, a["offsets"], "tl.load_tensor_descriptor", loc);
  CValue r = load_block_ptr(ctx, bp, false, all_dims(d.elems[kDBlock].elems.size()), d.elems[kDPadding].s,
                            a["cache_modifier"], a["eviction_policy"], CValue::of_bool(false), loc);
  // A descriptor's window (ops.def, Load "window_desc"): upstream copies these with the TMA
  // unit, whose tensor maps need non-negative strides; a block pointer's window may have
  // negative strides (upstream lowers those to ordinary loads).
  if (r.kind == K::Tensor && r.tensor->def && r.tensor->def->has_attr("window")) r.tensor->def->attrs["window_desc"] = 1;
  return r;
}

CValue desc_store(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("store_tensor_descriptor", std::move(args), std::move(kw), {req("desc"), req("offsets"), req("value")}, loc);
  const CValue& d = desc_arg(a["desc"], "tl.store_tensor_descriptor", loc);
  ir::Value* value = tensor_arg(ctx, a["value"], loc, "tensor descriptor store value");
  const std::vector<int64_t> block = ints_of(d.elems[kDBlock]);
  if (value->type.shape != block)
    fail(loc, fmt::format("tensor descriptor store: the value has shape {} but the descriptor's block is {}",
                          sem::tt_name(value->type), sem::tt_name(value->type.with_shape(block))));
  value = sem::cast(ctx.b, value, ir::Type::of(d.elems[kDBase].tensor->type.scalar).with_shape(block), loc);
  CValue bp = desc_window(ctx, d, a["offsets"], "tl.store_tensor_descriptor", loc);
  store_block_ptr(ctx, bp, CValue::of_tensor(value), false, all_dims(block.size()), CValue::of_str(""),
                  CValue::of_str(""), loc);
  return CValue::none();
}

}  // namespace

bool is_tensor_desc(const CValue& v) { return v.kind == K::Tuple && v.s == kTensorDescTag; }

CValue tensor_desc_attr(const CValue& d, const std::string& attr, SrcLoc loc) {
  if (attr == "block_shape") return d.elems[kDBlock];
  if (attr == "dtype") return CValue::of_dtype(ir::Type::of(d.elems[kDBase].tensor->type.scalar));
  if (attr == "shape") return d.elems[kDShape];
  if (attr == "strides") return d.elems[kDStrides];
  fail(loc, fmt::format("tensor descriptor has no attribute '{}' (tritium supports load, store, block_shape, dtype, "
                        "shape, strides)",
                        attr));
}

void register_block_ptr(Registry& r) {
  r["make_block_ptr"] = make_block_ptr;
  r["advance"] = advance;
  r["make_tensor_descriptor"] = make_tensor_descriptor;
  r["load_tensor_descriptor"] = desc_load;
  r["store_tensor_descriptor"] = desc_store;
}

}  // namespace tritium::frontend::bi
