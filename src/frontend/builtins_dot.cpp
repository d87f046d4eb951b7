// tl.dot (upstream core.py dot and semantic.py dot, with the NVIDIA backend's minimum
// sizes: K >= 16, or K >= 32 for 8-bit operands; M, N >= 1).
//
// Attributes of the Dot op: "input_precision" ("ieee", "tf32", "tf32x3"; fp32 operands
// default to "tf32" as on NVIDIA, other dtypes ignore it) and "max_num_imprecise_acc"
// (0 unless given; -1 = the target's default for fp8 operands, as upstream).
#include <fmt/format.h>

#include <algorithm>

#include "frontend/builtins_impl.h"

namespace tritium::frontend::bi {

using ir::ScalarType;

namespace {

std::string precision(const Args& a, SrcLoc loc) {
  if (a.has("input_precision") && a.has("allow_tf32"))
    fail(loc, "only one of input_precision and allow_tf32 can be specified");
  std::string p;
  if (!a.has("input_precision")) {
    bool allow = !a.has("allow_tf32") || bool_arg(a["allow_tf32"], loc, "allow_tf32");
    p = allow ? "tf32" : "ieee";
  } else {
    p = str_arg(a["input_precision"], loc, "input_precision");
    std::transform(p.begin(), p.end(), p.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  }
  if (p == "bf16x3" || p == "bf16x6") fail(loc, "input_precision=\"" + p + "\" is not supported yet");
  if (p != "tf32" && p != "tf32x3" && p != "ieee")
    fail(loc, "input_precision must be one of ('tf32', 'tf32x3', 'ieee', 'bf16x3', 'bf16x6'). Got " + p);
  return p;
}

bool dot_dtype_ok(ScalarType t) {
  return t == ScalarType::I8 || t == ScalarType::U8 || t == ScalarType::F16 || t == ScalarType::BF16 ||
         t == ScalarType::F32 || t == ScalarType::F64;
}

std::string shape_str(const std::vector<int64_t>& s) { return fmt::format("[{}]", fmt::join(s, ", ")); }

CValue dot(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("dot", std::move(args), std::move(kw),
         {req("input"), req("other"), opt("acc"), opt("input_precision"), opt("allow_tf32"), opt("max_num_imprecise_acc"),
          opt("out_dtype", CValue::of_dtype(ir::Type::of(ScalarType::F32)))},
         loc);
  ir::Builder& b = ctx.b;
  std::string prec = precision(a, loc);
  ir::Type out_dtype = dtype_arg(a["out_dtype"], loc, "tl.dot out_dtype");
  ir::Value* x = tensor_only(a["input"], loc, "tl.dot input");
  ir::Value* y = tensor_only(a["other"], loc, "tl.dot other");
  ir::Value* acc = a.has("acc") ? tensor_only(a["acc"], loc, "tl.dot acc") : nullptr;
  auto xs = x->type.shape, ys = y->type.shape;
  if (xs.size() != ys.size() || xs.size() < 2) fail(loc, "input and other must have equal ranks >= 2");
  if (!std::equal(xs.begin(), xs.end() - 2, ys.begin())) fail(loc, "input and other must have equal batch shapes");
  if (xs.back() != ys[ys.size() - 2])
    fail(loc, fmt::format("first input shape {} and second input shape {} are not compatible for matmul",
                          shape_str(xs), shape_str(ys)));
  std::vector<int64_t> c_shape(xs.begin(), xs.end() - 1);
  c_shape.push_back(ys.back());
  if (acc && acc->type.shape != c_shape) fail(loc, "accumulator shape is incompatible");
  size_t rank = c_shape.size();
  if (rank >= 4) {
    int64_t batch = 1;
    for (size_t i = 0; i + 2 < rank; ++i) batch *= c_shape[i];
    x = sem::reshape(b, x, {batch, xs[rank - 2], xs[rank - 1]}, false, loc);
    y = sem::reshape(b, y, {batch, ys[rank - 2], ys[rank - 1]}, false, loc);
    if (acc) acc = sem::reshape(b, acc, {batch, c_shape[rank - 2], c_shape[rank - 1]}, false, loc);
  }
  // semantic.dot
  ScalarType lt = x->type.scalar, rt = y->type.scalar;
  if (x->type.is_ptr || y->type.is_ptr) fail(loc, "tl.dot of pointers");
  if (!(ir::is_fp8(lt) && ir::is_fp8(rt))) {
    if (!dot_dtype_ok(lt)) fail(loc, "unsupported lhs dtype " + sem::tt_name(lt) + " for tl.dot");
    if (!dot_dtype_ok(rt)) fail(loc, "unsupported rhs dtype " + sem::tt_name(rt) + " for tl.dot");
    if (lt != rt)
      fail(loc, fmt::format("both operands of tl.dot must have the same dtype. Got {} and {}", sem::tt_name(lt),
                            sem::tt_name(rt)));
  }
  if (lt == ScalarType::F8E4B15 || rt == ScalarType::F8E4B15) {
    x = sem::cast(b, x, ir::Type::of(ScalarType::F16), loc);
    y = sem::cast(b, y, ir::Type::of(ScalarType::F16), loc);
    lt = rt = ScalarType::F16;
  }
  int64_t M = x->type.shape[x->type.rank() - 2], K = x->type.shape.back(), N = y->type.shape.back();
  int64_t min_k = ir::bitwidth(lt) == 8 ? 32 : 16;
  if (K < min_k) fail(loc, fmt::format("input shapes should have M >= 1, N >= 1 and K >= {} (got K = {})", min_k, K));
  ScalarType ret;
  if (ir::is_int(lt)) {
    if (lt != ScalarType::I8) fail(loc, "only int8 is supported for integer tl.dot (got " + sem::tt_name(lt) + ")");
    ret = ScalarType::I32;
  } else if (out_dtype.scalar == ScalarType::BF16) {
    fail(loc, "out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 and cast with "
              "`.to(tl.bfloat16)`");
  } else if (lt == ScalarType::F32 || lt == ScalarType::BF16) {
    ret = ScalarType::F32;
  } else if (lt == ScalarType::F64) {
    ret = ScalarType::F64;
  } else {
    if (out_dtype.scalar != ScalarType::F16 && out_dtype.scalar != ScalarType::F32)
      fail(loc, "out_dtype must be float16 or float32 for " + sem::tt_name(lt) + " operands");
    ret = out_dtype.scalar;
  }
  std::vector<int64_t> rshape = x->type.rank() == 3 ? std::vector<int64_t>{x->type.shape[0], M, N}
                                                    : std::vector<int64_t>{M, N};
  ir::Type ret_ty = ir::Type::tensor(ret, rshape);
  if (!acc) {
    acc = b.splat(sem::const_int(b, ir::Type::of(ret), 0, loc), rshape, loc);
  } else if (acc->type.shape != rshape || acc->type.is_ptr || acc->type.scalar != out_dtype.scalar) {
    // upstream asserts acc.element_ty == out_dtype (so int8 dots with acc need out_dtype=tl.int32)
    fail(loc, fmt::format("tl.dot accumulator of type {} does not match out_dtype {}", sem::tt_name(acc->type),
                          sem::tt_name(out_dtype.scalar)));
  }
  if (acc->type.scalar != ret)
    fail(loc, fmt::format("tl.dot accumulator type {} differs from the result type {}", sem::tt_name(acc->type.scalar),
                          sem::tt_name(ret)));
  bool fp8 = ir::is_fp8(lt) && ir::is_fp8(rt);
  int64_t imprecise = 0;
  if (a.has("max_num_imprecise_acc")) {
    imprecise = int_arg(a["max_num_imprecise_acc"], loc, "max_num_imprecise_acc");
    if (fp8 && imprecise > K)
      fail(loc, fmt::format("max_num_imprecise_acc ({}) must be <= K ({})", imprecise, K));
  } else if (fp8) {
    imprecise = -1;
  }
  ir::Value* r = b.create(ir::OpKind::Dot, {x, y, acc}, {ret_ty}, loc,
                          {{"input_precision", prec}, {"max_num_imprecise_acc", imprecise}})
                     ->result();
  if (rank >= 4) r = sem::reshape(b, r, c_shape, false, loc);
  return CValue::of_tensor(r);
}

}  // namespace

void register_dot(Registry& r) { r["dot"] = dot; }

}  // namespace tritium::frontend::bi
