// Attributes, methods and subscripts of values: tensor .dtype .shape .T .numel .type and
// the tensor member functions of core.py / math.py / standard.py; dtype attributes and
// predicates (core.py dtype, pointer_type, block_type); tensor.__getitem__ and tuple
// indexing.
#include <fmt/format.h>

#include <set>

#include "frontend/builtins_impl.h"

namespace tritium::frontend {

using K = CValue::Kind;
using ir::ScalarType;

namespace {

// Functions upstream registers as tensor methods (_tensor_member_fn), plus tensor's own.
const std::set<std::string>& tensor_methods() {
  static const std::set<std::string> s = {
      "to", "logical_and", "logical_or", "broadcast_to", "trans", "permute", "split", "view", "item", "reshape",
      "expand_dims", "cast", "store", "reduce", "exp", "exp2", "log", "log2", "cos", "sin", "sqrt", "sqrt_rn", "rsqrt",
      "abs", "erf", "floor", "ceil", "cdiv", "sigmoid", "softmax", "ravel", "max", "argmax", "min", "argmin", "sum",
      "xor_sum", "reduce_or", "atomic_cas", "atomic_xchg", "atomic_add", "atomic_max", "atomic_min", "atomic_and",
      "atomic_or", "atomic_xor", "associative_scan", "cumsum", "cumprod",
      "advance",
      "flip", "histogram", "gather"};
  return s;
}

const std::set<std::string>& dtype_predicates() {
  static const std::set<std::string> s = {
      "is_fp8",    "is_fp8e4nv", "is_fp8e4b8", "is_fp8e4b15", "is_fp8e5",    "is_fp8e5b16",         "is_fp16",
      "is_bf16",   "is_fp32",    "is_fp64",    "is_int1",     "is_int8",     "is_int16",            "is_int32",
      "is_int64",  "is_uint8",   "is_uint16",  "is_uint32",   "is_uint64",   "is_floating",         "is_int",
      "is_bool",   "is_ptr",     "is_block",   "is_const",    "is_int_signed", "is_int_unsigned",
      "is_standard_floating"};
  return s;
}

CValue method(const std::string& name, const CValue& self) {
  CValue m;
  m.kind = K::Method;
  m.s = name;
  m.elems = {self};
  return m;
}

bool dtype_predicate(const std::string& p, const ir::Type& t) {
  if (p == "is_block") return t.is_tensor();
  if (p == "is_ptr") return t.is_scalar() && t.is_ptr;
  if (p == "is_const") return false;
  if (t.is_tensor() || t.is_ptr) return false;  // the name of a block/pointer type matches no scalar predicate
  ScalarType s = t.scalar;
  static const std::pair<const char*, ScalarType> kExact[] = {
      {"is_fp8e4nv", ScalarType::F8E4NV}, {"is_fp8e4b15", ScalarType::F8E4B15}, {"is_fp8e5", ScalarType::F8E5},
      {"is_fp16", ScalarType::F16},       {"is_bf16", ScalarType::BF16},        {"is_fp32", ScalarType::F32},
      {"is_fp64", ScalarType::F64},       {"is_int1", ScalarType::I1},          {"is_bool", ScalarType::I1},
      {"is_int8", ScalarType::I8},        {"is_int16", ScalarType::I16},        {"is_int32", ScalarType::I32},
      {"is_int64", ScalarType::I64},      {"is_uint8", ScalarType::U8},         {"is_uint16", ScalarType::U16},
      {"is_uint32", ScalarType::U32},     {"is_uint64", ScalarType::U64}};
  for (const auto& [n, e] : kExact)
    if (p == n) return s == e;
  if (p == "is_fp8") return ir::is_fp8(s);
  if (p == "is_fp8e4b8" || p == "is_fp8e5b16") return false;
  if (p == "is_floating") return ir::is_float(s);
  if (p == "is_standard_floating")
    return s == ScalarType::F16 || s == ScalarType::BF16 || s == ScalarType::F32 || s == ScalarType::F64;
  if (p == "is_int") return ir::is_int(s);
  if (p == "is_int_signed") return sem::tt_signed(s);
  if (p == "is_int_unsigned") return sem::tt_unsigned(s);
  return false;
}

int fp_mantissa_width(ScalarType s) {
  switch (s) {
    case ScalarType::F8E4NV: case ScalarType::F8E4B15: return 3;
    case ScalarType::F8E5: return 2;
    case ScalarType::F16: return 10;
    case ScalarType::BF16: return 7;
    case ScalarType::F32: return 23;
    case ScalarType::F64: return 52;
    default: return -1;
  }
}

int exponent_bias(ScalarType s) {
  switch (s) {
    case ScalarType::F8E4NV: return 7;
    case ScalarType::F8E4B15: case ScalarType::F8E5: case ScalarType::F16: return 15;
    case ScalarType::BF16: case ScalarType::F32: return 127;
    case ScalarType::F64: return 1023;
    default: return -1;
  }
}

CValue dtype_attr(const CValue& self, const std::string& attr, SrcLoc loc) {
  const ir::Type& t = self.dtype;
  if (dtype_predicates().count(attr)) return method("dtype." + attr, self);
  auto no_attr = [&]() -> CValue { bi::fail(loc, fmt::format("'{}' has no attribute '{}'", sem::tt_name(t), attr)); };
  if (attr == "name") return CValue::of_str(sem::tt_name(t));
  if (t.is_tensor()) {  // block_type
    if (attr == "element_ty" || attr == "scalar") return CValue::of_dtype(t.element());
    if (attr == "shape") return bi::shape_tuple(t);
    if (attr == "numel") return CValue::of_int(t.numel());
    return no_attr();
  }
  if (t.is_ptr) {
    if (attr == "element_ty") return CValue::of_dtype(ir::Type::of(t.scalar));
    if (attr == "scalar") return self;
    if (attr == "address_space") return CValue::of_int(1);
    return no_attr();
  }
  ScalarType s = t.scalar;
  if (attr == "scalar") return self;
  if (attr == "primitive_bitwidth") return CValue::of_int(ir::bitwidth(s));
  if (attr == "int_bitwidth" && ir::is_int(s)) return CValue::of_int(ir::bitwidth(s));
  if (attr == "fp_mantissa_width" && ir::is_float(s)) return CValue::of_int(fp_mantissa_width(s));
  if (attr == "exponent_bias" && ir::is_float(s)) return CValue::of_int(exponent_bias(s));
  return no_attr();
}

}  // namespace

CValue value_attr(BuiltinContext& ctx, const CValue& self, const std::string& attr, SrcLoc loc) {
  switch (self.kind) {
    case K::Tensor: {
      const ir::Type& t = self.tensor->type;
      if (attr == "dtype") return CValue::of_dtype(t.element());
      if (attr == "shape") return bi::shape_tuple(t);
      if (attr == "numel") return CValue::of_int(t.numel());
      if (attr == "type") return CValue::of_dtype(t);
      if (attr == "T") {
        if (t.rank() != 2) bi::fail(loc, ".T needs a 2-D tensor, got " + sem::tt_name(t));
        return call_builtin(ctx, "permute", {self, CValue::of_int(1), CValue::of_int(0)}, {}, loc);
      }
      if (tensor_methods().count(attr)) return method(attr, self);
      bi::fail(loc, fmt::format("'tensor' object has no attribute '{}'", attr));
    }
    case K::Tuple:
      if (bi::is_block_ptr(self)) {
        if (attr == "advance") return method(attr, self);  // block_ptr.advance(offsets)
        return bi::block_ptr_attr(self, attr, loc);          // .dtype / .type
      }
      if (bi::is_tensor_desc(self)) {  // desc.load(offsets), desc.store(offsets, value), attributes
        if (attr == "load") return method("load_tensor_descriptor", self);
        if (attr == "store") return method("store_tensor_descriptor", self);
        return bi::tensor_desc_attr(self, attr, loc);
      }
      bi::fail(loc, fmt::format("{} has no attribute '{}'", self.describe(), attr));
    case K::DType: return dtype_attr(self, attr, loc);
    case K::Namespace: {
      if (auto v = namespace_attr(self.s, attr)) return *v;
      bi::fail(loc, fmt::format("module '{}' has no attribute '{}'", self.s, attr));
    }
    case K::Int: case K::Float: case K::Bool: case K::Str: case K::None:
      if (attr == "value") return self;  // constexpr.value
      bi::fail(loc, fmt::format("attribute '{}' of {} is not supported", attr, self.describe()));
    default: bi::fail(loc, fmt::format("{} has no attribute '{}'", self.describe(), attr));
  }
}

CValue call_method(BuiltinContext& ctx, const CValue& m, CValues args, std::vector<KwArg> kwargs, SrcLoc loc) {
  if (m.kind != K::Method || m.elems.empty()) bi::fail(loc, m.describe() + " is not callable");
  const CValue& self = m.elems[0];
  const std::string& name = m.s;
  if (name.rfind("dtype.", 0) == 0) {
    if (!args.empty() || !kwargs.empty()) bi::fail(loc, name.substr(6) + "() takes no arguments");
    return CValue::of_bool(dtype_predicate(name.substr(6), self.dtype));
  }
  if (name == "logical_and" || name == "logical_or") {
    bi::Args a(name, std::move(args), std::move(kwargs), {bi::req("other")}, loc);
    return logical_op(ctx, name == "logical_and" ? BoolOp::And : BoolOp::Or, self, a["other"], loc);
  }
  if (bi::is_math_method(name)) {
    bi::Args a(name, std::move(args), std::move(kwargs), {}, loc);
    return bi::call_math_method(ctx, name, self, loc);
  }
  CValues all = {self};
  for (auto& a : args) all.push_back(std::move(a));
  return call_builtin(ctx, name == "to" ? "cast" : name, std::move(all), std::move(kwargs), loc);
}

namespace {

CValue tensor_subscript(BuiltinContext& ctx, const CValue& self, const CValue& index, SrcLoc loc) {
  CValues slices = index.kind == K::Tuple ? index.elems : CValues{index};
  ir::Value* ret = self.tensor;
  for (size_t dim = 0; dim < slices.size(); ++dim) {
    const CValue& sl = slices[dim];
    if (sl.kind == K::None) {
      ret = sem::expand_dims(ctx.b, ret, static_cast<int>(dim), loc);
    } else if (sl.kind == K::Slice && sl.elems.size() == 3 && sl.elems[0].kind == K::None &&
               sl.elems[1].kind == K::None && sl.elems[2].kind == K::None) {
      // `:` keeps the dimension
    } else {
      std::string what = sl.kind == K::Slice ? "a slice with bounds" : sl.describe();
      bi::fail(loc, "unsupported tensor index: " + what + " (only None and `:` are allowed)");
    }
  }
  return CValue::of_tensor(ret);
}

int64_t slice_bound(const CValue& v, SrcLoc loc) {
  if (v.kind == K::Bool) return v.b ? 1 : 0;
  return bi::int_arg(v, loc, "slice bound");
}

CValue tuple_subscript(const CValue& self, const CValue& index, SrcLoc loc) {
  auto n = static_cast<int64_t>(self.elems.size());
  if (index.kind == K::Int || index.kind == K::Bool) {
    int64_t i = slice_bound(index, loc);
    if (i < 0) i += n;
    if (i < 0 || i >= n) bi::fail(loc, "tuple index out of range");
    return self.elems[static_cast<size_t>(i)];
  }
  if (index.kind == K::Slice && index.elems.size() == 3) {
    int64_t step = index.elems[2].kind == K::None ? 1 : slice_bound(index.elems[2], loc);
    if (step == 0) bi::fail(loc, "slice step cannot be zero");
    auto clamp_bound = [&](const CValue& v, int64_t dflt) {
      if (v.kind == K::None) return dflt;
      int64_t b = slice_bound(v, loc);
      if (b < 0) b += n;
      if (step > 0) return std::clamp<int64_t>(b, 0, n);
      return std::clamp<int64_t>(b, -1, n - 1);
    };
    int64_t start = clamp_bound(index.elems[0], step > 0 ? 0 : n - 1);
    int64_t stop = clamp_bound(index.elems[1], step > 0 ? n : -1);
    CValues out;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) out.push_back(self.elems[static_cast<size_t>(i)]);
    CValue r = self;
    r.elems = std::move(out);
    return r;
  }
  bi::fail(loc, "tuple indices must be constexpr integers or slices, not " + index.describe());
}

}  // namespace

CValue subscript(BuiltinContext& ctx, const CValue& self, const CValue& index, SrcLoc loc) {
  if (self.kind == K::Tensor) return tensor_subscript(ctx, self, index, loc);
  if (is_record(self))
    bi::fail(loc, "a " + self.describe() + " cannot be indexed (load through it, or use its attributes)");
  if (self.kind == K::Tuple) return tuple_subscript(self, index, loc);
  bi::fail(loc, self.describe() + " is not subscriptable");
}

}  // namespace tritium::frontend
