// tl.atomic_add / atomic_and / atomic_or / atomic_xor / atomic_max / atomic_min /
// atomic_xchg / atomic_cas, in function and tensor-method form (upstream core.py atomic_*
// and semantic.py atom_red_typechecking_impl / atomic_*, Triton 3.6).
//
// Every form returns the values memory held before the operation (masked-off lanes: 0).
// `sem` is "acquire", "release", "acq_rel" (default) or "relaxed"; `scope` is "gpu"
// (default), "cta" or "sys"; both are recorded on the op (the CPU backend and the
// interpreter implement every atomic sequentially consistent, which is at least as strong).
// Types follow upstream: fp16 / bf16 only for add; no int16 / uint16 or element types
// narrower than 16 bits; float max / min only for fp32 / fp64, lowered as upstream lowers
// them: two atomic operations, first a signed integer max (min) on the bits for the lanes
// whose value has the sign bit clear, then an unsigned integer min (max) for the others,
// so NaN and -0 behave as on the GPU.
// atomic_cas takes no mask and converts nothing: cmp and val must already have the
// pointee's type and the pointer's shape (upstream passes them to the IR unchanged).
#include <fmt/format.h>

#include "frontend/builtins_impl.h"

namespace tritium::frontend::bi {

using ir::OpKind;
using ir::ScalarType;

namespace {

std::string sem_arg(const CValue& v, const std::string& fn, SrcLoc loc) {
  if (v.kind == CValue::Kind::None) return "acq_rel";
  std::string s = str_arg(v, loc, fn + " sem");
  if (s == "acquire" || s == "release" || s == "acq_rel" || s == "relaxed") return s;
  fail(loc, fmt::format("memory semantic '{}' not supported by {} (accepted: 'acquire', 'release', 'acq_rel', "
                        "'relaxed')",
                        s, fn));
}

std::string scope_arg(const CValue& v, const std::string& fn, SrcLoc loc) {
  if (v.kind == CValue::Kind::None) return "gpu";
  std::string s = str_arg(v, loc, fn + " scope");
  if (s == "gpu" || s == "cta" || s == "sys") return s;
  fail(loc, fmt::format("memory scope '{}' not supported by {} (accepted: 'gpu', 'cta', 'sys')", s, fn));
}

ir::Value* pointer_of(const CValue& v, const std::string& fn, SrcLoc loc) {
  if (v.kind != CValue::Kind::Tensor || !v.tensor->type.is_ptr)
    fail(loc, fmt::format("{}: the pointer argument must be a pointer or a tensor of pointers, got {}", fn,
                          v.describe()));
  return v.tensor;
}

ir::Value* rmw(BuiltinContext& ctx, const std::string& kind, ir::Value* ptr, ir::Value* val, ir::Value* mask,
               const std::string& sem, const std::string& scope, SrcLoc loc) {
  std::vector<ir::Value*> ops = {ptr, val};
  if (mask) ops.push_back(mask);
  return ctx.b
      .create(OpKind::AtomicRMW, ops, {val->type}, loc,
              {{"rmw", kind}, {"sem", sem}, {"scope", scope}})
      ->result();
}

/// The checked operands of an atomic read-modify-write (upstream atom_red_typechecking_impl).
struct Rmw {
  ir::Value* ptr;
  ir::Value* val;
  ir::Value* mask;  // nullptr: every lane
  std::string sem, scope;
};

Rmw check(BuiltinContext& ctx, const std::string& op, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  const std::string fn = "tl.atomic_" + op;
  Args a("atomic_" + op, std::move(args), std::move(kw),
         {req("pointer"), req("val"), opt("mask"), opt("sem"), opt("scope")}, loc);
  ir::Builder& b = ctx.b;
  Rmw r;
  r.ptr = pointer_of(a["pointer"], fn, loc);
  const ScalarType et = r.ptr->type.scalar;
  const std::string et_name = sem::tt_name(ir::Type::of(et));
  if (et == ScalarType::F16 && op != "add") fail(loc, fmt::format("atomic_{} does not support fp16", op));
  if (et == ScalarType::BF16 && op != "add") fail(loc, fmt::format("atomic_{} does not support bf16", op));
  if (et == ScalarType::I16 || et == ScalarType::U16 || ir::bitwidth(et) < 16)
    fail(loc, fmt::format("atomic_{} does not support {}", op, et_name));
  r.val = tensor_arg(ctx, a["val"], loc, fn + " val");
  r.mask = a.has("mask") ? tensor_arg(ctx, a["mask"], loc, fn + " mask") : nullptr;
  r.sem = sem_arg(a["sem"], fn, loc);
  r.scope = scope_arg(a["scope"], fn, loc);
  if (r.ptr->type.is_tensor()) {
    const auto& shape = r.ptr->type.shape;
    r.val = sem::broadcast_to(b, r.val, shape, loc);
    if (r.mask) r.mask = sem::broadcast_to(b, r.mask, shape, loc);
  } else {
    if (r.val->type.is_tensor()) fail(loc, fn + ": val cannot be a block when the pointer is a scalar");
    if (r.mask && r.mask->type.is_tensor()) fail(loc, fn + ": mask cannot be a block when the pointer is a scalar");
  }
  r.val = sem::cast(b, r.val, ir::Type::of(et), loc);
  if (r.mask && !r.mask->type.is_bool())
    fail(loc, fmt::format("{}: mask must have boolean scalar type, got {}", fn, sem::tt_name(r.mask->type.element())));
  return r;
}

CValue simple(BuiltinContext& ctx, const std::string& op, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Rmw r = check(ctx, op, std::move(args), std::move(kw), loc);
  const bool fl = ir::is_float(r.ptr->type.scalar);
  if ((op == "and" || op == "or" || op == "xor") && fl)
    fail(loc, fmt::format("atomic_{} does not support {}", op, sem::tt_name(ir::Type::of(r.ptr->type.scalar))));
  const std::string kind = op == "add" && fl ? "fadd" : op;
  return CValue::of_tensor(rmw(ctx, kind, r.ptr, r.val, r.mask, r.sem, r.scope, loc));
}

CValue min_max(BuiltinContext& ctx, bool is_max, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  const std::string op = is_max ? "max" : "min";
  Rmw r = check(ctx, op, std::move(args), std::move(kw), loc);
  ir::Builder& b = ctx.b;
  const ScalarType et = r.ptr->type.scalar;
  if (ir::is_int(et)) return CValue::of_tensor(rmw(ctx, op, r.ptr, r.val, r.mask, r.sem, r.scope, loc));
  if (et != ScalarType::F32 && et != ScalarType::F64)
    fail(loc, fmt::format("atomic_{} not supported for dtype {}", op, sem::tt_name(ir::Type::of(et))));
  // Floats, as upstream: lanes whose value has the sign bit clear use a signed integer
  // max (min) on the bits, the others an unsigned integer min (max).
  const bool f64 = et == ScalarType::F64;
  const ScalarType st = f64 ? ScalarType::I64 : ScalarType::I32, ut = f64 ? ScalarType::U64 : ScalarType::U32;
  ir::Value* i_val = b.bitcast(r.val, r.val->type.with_scalar(st), loc);
  ir::Value* u_val = b.bitcast(r.val, r.val->type.with_scalar(ut), loc);
  auto pointer_to = [&](ScalarType t) {  // the same addresses, another pointee type
    ir::Type pt = r.ptr->type;
    pt.scalar = t;
    return b.bitcast(r.ptr, pt, loc);
  };
  ir::Value* i_ptr = pointer_to(st);
  ir::Value* u_ptr = pointer_to(ut);
  ir::Value* zero = sem::const_int(b, i_val->type, 0, loc);
  ir::Value* pos = b.cmp("ge", i_val, zero, loc);  // sign bit clear
  ir::Value* neg = b.cmp("lt", i_val, zero, loc);
  ir::Value* pos_mask = r.mask ? b.binary(OpKind::And, r.mask, pos, loc) : pos;
  ir::Value* neg_mask = r.mask ? b.binary(OpKind::And, r.mask, neg, loc) : neg;
  ir::Value* pos_ret = rmw(ctx, is_max ? "max" : "min", i_ptr, i_val, pos_mask, r.sem, r.scope, loc);
  ir::Value* neg_ret = rmw(ctx, is_max ? "min" : "max", u_ptr, u_val, neg_mask, r.sem, r.scope, loc);
  ir::Value* neg_bits = b.bitcast(neg_ret, neg_ret->type.with_scalar(st), loc);
  ir::Value* ret = b.select(pos, pos_ret, neg_bits, loc);
  return CValue::of_tensor(b.bitcast(ret, ret->type.with_scalar(et), loc));
}

CValue cas(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  const std::string fn = "tl.atomic_cas";
  Args a("atomic_cas", std::move(args), std::move(kw), {req("pointer"), req("cmp"), req("val"), opt("sem"), opt("scope")},
         loc);
  ir::Value* ptr = pointer_of(a["pointer"], fn, loc);
  ir::Value* cmp = tensor_arg(ctx, a["cmp"], loc, fn + " cmp");
  ir::Value* val = tensor_arg(ctx, a["val"], loc, fn + " val");
  const std::string sem = sem_arg(a["sem"], fn, loc), scope = scope_arg(a["scope"], fn, loc);
  const ScalarType et = ptr->type.scalar;
  const int w = ir::bitwidth(et);
  if (w != 16 && w != 32 && w != 64) fail(loc, "atomic_cas only supports elements with width {16, 32, 64}");
  const ir::Type want = ptr->type.with_scalar(et);
  for (auto [v, what] : {std::pair{cmp, "cmp"}, std::pair{val, "val"}})
    if (v->type != want) {
      const bool same_elem = v->type.scalar == et && !v->type.is_ptr;
      fail(loc, fmt::format("{}: {} has type {} but the pointer needs {} (atomic_cas converts nothing; {} {} first)",
                            fn, what, sem::tt_name(v->type), sem::tt_name(want), same_elem ? "broadcast" : "cast",
                            what));
    }
  return CValue::of_tensor(ctx.b
                               .create(OpKind::AtomicCAS, {ptr, cmp, val}, {want}, loc,
                                       {{"sem", sem}, {"scope", scope}})
                               ->result());
}

}  // namespace

void register_atomic(Registry& r) {
  for (const char* op : {"add", "and", "or", "xor", "xchg"}) {
    const std::string name = op;
    r["atomic_" + name] = [name](BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
      return simple(ctx, name, std::move(args), std::move(kw), loc);
    };
  }
  r["atomic_max"] = [](BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
    return min_max(ctx, true, std::move(args), std::move(kw), loc);
  };
  r["atomic_min"] = [](BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
    return min_max(ctx, false, std::move(args), std::move(kw), loc);
  };
  r["atomic_cas"] = cas;
}

}  // namespace tritium::frontend::bi
