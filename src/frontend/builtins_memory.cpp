// tl.load and tl.store on pointers and tensors of pointers (upstream core.py load/store and
// semantic.py _load_legacy/_store_legacy). Through a block pointer (tl.make_block_ptr) they
// go to builtins_block_ptr.cpp; on ordinary pointers `boundary_check` / `padding_option` are
// refused as upstream refuses them.
#include <fmt/format.h>

#include "frontend/builtins_impl.h"

namespace tritium::frontend::bi {

using ir::ScalarType;

namespace {

// cache_modifier / eviction_policy: a string, or None (upstream tests `if cache_modifier:`,
// so None means the default, as "").
std::string mode_arg(const CValue& v, SrcLoc loc, const char* what) {
  if (v.kind == CValue::Kind::None) return "";
  return str_arg(v, loc, what);
}


std::string load_cache(const std::string& c, SrcLoc loc) {
  if (c.empty() || c == ".ca" || c == ".cg" || c == ".cv") return c;
  fail(loc, "cache modifier " + c + " not supported (tl.load accepts '', '.ca', '.cg', '.cv')");
}

std::string store_cache(const std::string& c, SrcLoc loc) {
  if (c.empty() || c == ".wb" || c == ".cg" || c == ".cs" || c == ".wt") return c;
  fail(loc, "cache modifier " + c + " not supported (tl.store accepts '', '.wb', '.cg', '.cs', '.wt')");
}

std::string eviction(const std::string& e, SrcLoc loc) {
  if (e.empty() || e == "evict_last" || e == "evict_first") return e;
  fail(loc, "eviction policy " + e + " not supported (accepted: '', 'evict_last', 'evict_first')");
}

bool boundary_check_given(const CValue& v) {
  if (v.kind == CValue::Kind::None) return false;
  if (v.kind == CValue::Kind::Tuple) return !v.elems.empty();
  return true;
}

ir::Value* pointer_arg(const CValue& v, const char* fn, SrcLoc loc) {
  if (v.kind != CValue::Kind::Tensor || !v.tensor->type.is_ptr)
    fail(loc, fmt::format("unsupported ptr type {} in `tl.{}`", v.describe(), fn));
  return v.tensor;
}

// A pointer to int1 is accessed as a pointer to int8 (upstream).
ir::Value* bool_ptr_as_int8(BuiltinContext& ctx, ir::Value* ptr, SrcLoc loc) {
  if (ptr->type.scalar != ScalarType::I1) return ptr;
  ir::Type t = ptr->type;
  t.scalar = ScalarType::I8;
  return ctx.b.bitcast(ptr, t, loc);
}

CValue load(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("load", std::move(args), std::move(kw),
         {req("pointer"), opt("mask"), opt("other"), opt("boundary_check", CValue::of_tuple({})),
          opt("padding_option", CValue::of_str("")), opt("cache_modifier", CValue::of_str("")),
          opt("eviction_policy", CValue::of_str("")), opt("volatile", CValue::of_bool(false))},
         loc);
  ir::Builder& b = ctx.b;
  if (is_block_ptr(a["pointer"])) {
    std::string padding = str_arg(a["padding_option"], loc, "padding_option");
    if (!padding.empty() && padding != "zero" && padding != "nan") fail(loc, "padding option " + padding + " not supported");
    load_cache(mode_arg(a["cache_modifier"], loc, "cache_modifier"), loc);
    return load_block_ptr(ctx, a["pointer"], a.has("mask") || a.has("other"), a["boundary_check"], padding,
                          a["cache_modifier"], a["eviction_policy"], a["volatile"], loc);
  }
  ir::Value* mask = a.has("mask") ? tensor_arg(ctx, a["mask"], loc, "tl.load mask") : nullptr;
  ir::Value* other = a.has("other") ? tensor_arg(ctx, a["other"], loc, "tl.load other") : nullptr;
  std::string cache = load_cache(mode_arg(a["cache_modifier"], loc, "cache_modifier"), loc);
  std::string evict = eviction(mode_arg(a["eviction_policy"], loc, "eviction_policy"), loc);
  std::string padding = str_arg(a["padding_option"], loc, "padding_option");
  if (!padding.empty() && padding != "zero" && padding != "nan") fail(loc, "padding option " + padding + " not supported");
  bool is_volatile = bool_arg(a["volatile"], loc, "volatile");
  // ".cv" (PTX ld.global.cv: fetch again, never from a cache) is how kernels poll a flag
  // another program writes; upstream emits it as side-effecting inline asm, which no pass
  // moves out of a loop. A volatile load is the same guarantee on every backend.
  if (cache == ".cv") is_volatile = true;
  ir::Value* ptr = pointer_arg(a["pointer"], "load", loc);

  if (!mask && other) fail(loc, "`other` cannot be provided without `mask`");
  if (!padding.empty() || boundary_check_given(a["boundary_check"]))
    fail(loc, "`padding_option` or `boundary_check` argument is not supported for loading a tensor of pointers or "
              "loading a scalar, because the compiler does not know the boundary; use block pointers (defined by "
              "`make_block_ptr`) instead");
  if (ptr->type.is_scalar()) {
    if (mask && mask->type.is_tensor()) fail(loc, "mask argument cannot be block type if pointer argument is not a block");
    if (other && other->type.is_tensor())
      fail(loc, "other argument cannot be block type if pointer argument is not a block");
  } else {
    if (mask) sem::broadcast_pair(b, ptr, mask, loc);
    if (other) sem::broadcast_pair(b, ptr, other, loc);
    if (mask && mask->type.shape != ptr->type.shape) mask = sem::broadcast_to(b, mask, ptr->type.shape, loc);
  }
  if (mask && !mask->type.is_bool())
    fail(loc, "mask must have boolean scalar type, got " + sem::tt_name(mask->type.element()));
  bool is_bool = ptr->type.scalar == ScalarType::I1;
  ptr = bool_ptr_as_int8(ctx, ptr, loc);
  ir::Type elem = ir::Type::of(ptr->type.scalar);
  if (other) other = sem::cast(b, other, elem, loc);
  std::vector<ir::Value*> ops = {ptr};
  if (mask) ops.push_back(mask);
  if (other) ops.push_back(other);
  ir::Value* r = b.create(ir::OpKind::Load, ops, {ptr->type.with_scalar(ptr->type.scalar)}, loc,
                          {{"has_mask", static_cast<int64_t>(mask != nullptr)},
                           {"has_other", static_cast<int64_t>(other != nullptr)},
                           {"cache", cache},
                           {"evict", evict},
                           {"volatile", static_cast<int64_t>(is_volatile)}})
                     ->result();
  if (is_bool) r = sem::cast(b, r, ir::Type::of(ScalarType::I1), loc);
  return CValue::of_tensor(r);
}

CValue store(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("store", std::move(args), std::move(kw),
         {req("pointer"), req("value"), opt("mask"), opt("boundary_check", CValue::of_tuple({})),
          opt("cache_modifier", CValue::of_str("")), opt("eviction_policy", CValue::of_str(""))},
         loc);
  ir::Builder& b = ctx.b;
  if (is_block_ptr(a["pointer"])) {
    store_block_ptr(ctx, a["pointer"], a["value"], a.has("mask"), a["boundary_check"], a["cache_modifier"],
                    a["eviction_policy"], loc);
    return CValue::none();
  }
  ir::Value* value = tensor_arg(ctx, a["value"], loc, "tl.store value");
  ir::Value* mask = a.has("mask") ? tensor_arg(ctx, a["mask"], loc, "tl.store mask") : nullptr;
  std::string cache = store_cache(mode_arg(a["cache_modifier"], loc, "cache_modifier"), loc);
  std::string evict = eviction(mode_arg(a["eviction_policy"], loc, "eviction_policy"), loc);
  ir::Value* ptr = pointer_arg(a["pointer"], "store", loc);
  if (boundary_check_given(a["boundary_check"]))
    fail(loc, "`boundary_check` argument is not supported for storing a tensor of pointers or storing a scalar, "
              "because the compiler does not know the boundary; use block pointers (defined by `make_block_ptr`) "
              "instead");
  if (ptr->type.is_scalar()) {
    if (value->type.is_tensor()) fail(loc, "value argument cannot be block type if pointer argument is not a block");
    if (mask && mask->type.is_tensor()) fail(loc, "mask argument cannot be block type if pointer argument is not a block");
  } else {
    // upstream broadcast_tensors(ptr, val[, mask]); the pointer must keep its shape.
    auto ptr_shape = ptr->type.shape;
    sem::broadcast_pair(b, ptr, value, loc);
    if (mask) {
      sem::broadcast_pair(b, ptr, mask, loc);
      if (value->type.shape != ptr->type.shape) value = sem::broadcast_to(b, value, ptr->type.shape, loc);
    }
    if (ptr->type.shape != ptr_shape)
      fail(loc, fmt::format("expected pointer argument to have shape {} but got {}",
                            sem::tt_name(ptr->type), sem::tt_name(a["pointer"].tensor->type)));
  }
  ptr = bool_ptr_as_int8(ctx, ptr, loc);
  value = sem::cast(b, value, ir::Type::of(ptr->type.scalar), loc);
  if (mask && !mask->type.is_bool())
    fail(loc, "mask must have boolean scalar type, got " + sem::tt_name(mask->type.element()));
  std::vector<ir::Value*> ops = {ptr, value};
  if (mask) ops.push_back(mask);
  b.create(ir::OpKind::Store, ops, {}, loc,
           {{"has_mask", static_cast<int64_t>(mask != nullptr)}, {"cache", cache}, {"evict", evict}});
  return CValue::none();
}

}  // namespace

void register_memory(Registry& r) {
  r["load"] = load;
  r["store"] = store;
}

}  // namespace tritium::frontend::bi
