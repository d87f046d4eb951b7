// Debugging and hints: tl.static_assert, static_print, device_print (and Python print),
// device_assert (emitted only in debug mode, as upstream's options.debug), debug_barrier,
// assume, multiple_of, max_contiguous, max_constancy (upstream core.py / semantic.py and
// code_generator.py's static implementations).
#include <fmt/format.h>

#include <iostream>

#include "frontend/builtins_impl.h"
#include "frontend/module_loader.h"

namespace tritium::frontend::bi {

namespace {

// Python's str() of a compile-time value, for static_print.
std::string py_str(const CValue& v) {
  switch (v.kind) {
    case CValue::Kind::Int: return v.is_u64 ? std::to_string(v.u) : std::to_string(v.i);
    case CValue::Kind::Float: {
      std::string s = fmt::format("{}", v.f);
      if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
      return s;
    }
    case CValue::Kind::Bool: return v.b ? "True" : "False";
    case CValue::Kind::None: return "None";
    case CValue::Kind::Str: return v.s;
    case CValue::Kind::Tuple: {
      std::vector<std::string> parts;
      for (const auto& e : v.elems) parts.push_back(py_str(e));
      return fmt::format("({}{})", fmt::join(parts, ", "), parts.size() == 1 ? "," : "");
    }
    case CValue::Kind::DType: return sem::tt_name(v.dtype);
    case CValue::Kind::Tensor: {
      std::vector<std::string> dims;
      for (auto d : v.tensor->type.shape) dims.push_back(fmt::format("constexpr[{}]", d));
      return fmt::format("{}[{}]", sem::tt_name(v.tensor->type.element()), fmt::join(dims, ", "));
    }
    default: return v.describe();
  }
}

CValue static_assert_(BuiltinContext&, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  if (args.empty() || args.size() > 2 || !kw.empty())
    fail(loc, "`static_assert` requires one or two positional arguments only");
  if (args[0].kind != CValue::Kind::Bool)
    fail(loc, "static_assert condition could not be determined at compile-time (got " + args[0].describe() +
                  "). Make sure that it depends only on `constexpr` values");
  if (!args[0].b) {
    std::string msg = args.size() == 2 ? py_str(args[1]) : "";
    fail(loc, msg.empty() ? "static_assert failed" : "static_assert failed: " + msg);
  }
  return CValue::none();
}

CValue static_print(BuiltinContext&, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("static_print", std::move(args), std::move(kw),
         {opt("sep", CValue::of_str(" ")), opt("end", CValue::of_str("\n")), opt("file"), opt("flush")}, loc, true, 0);
  std::vector<std::string> parts;
  for (const auto& v : a.rest()) parts.push_back(py_str(v));
  std::cout << fmt::format("{}", fmt::join(parts, str_arg(a["sep"], loc, "sep"))) << str_arg(a["end"], loc, "end");
  std::cout.flush();
  note_compile_time_output();  // no lowering-free cache entry: the print repeats at each compile
  return CValue::none();
}

CValue device_print(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("device_print", std::move(args), std::move(kw), {req("prefix"), opt("hex", CValue::of_bool(false))}, loc, true,
         1);
  std::string prefix = a["prefix"].kind == CValue::Kind::Str ? a["prefix"].s : "";
  if (a["prefix"].kind != CValue::Kind::Str) fail(loc, a["prefix"].describe() + " is not a string (device_print prefix)");
  for (unsigned char ch : prefix)
    if (ch < 0x20 || ch > 0x7e)
      if (ch != '\t' && ch != '\n' && ch != '\r' && ch != '\v' && ch != '\f')
        fail(loc, "device_print prefix is not an ascii string");
  std::vector<ir::Value*> vals;
  for (const auto& v : a.rest()) vals.push_back(tensor_arg(ctx, v, loc, "device_print argument"));
  bool any = !vals.empty();
  if (any && (prefix.empty() || prefix.back() != ' ')) prefix += " ";
  if (any && (prefix.size() < 2 || prefix.substr(prefix.size() - 2) != ": ")) prefix = prefix.substr(0, prefix.size() - 1) + ": ";
  if (prefix.size() > 2 && prefix[0] != ' ') prefix = " " + prefix;
  ctx.b.create(ir::OpKind::Print, vals, {}, loc,
               {{"prefix", prefix}, {"hex", static_cast<int64_t>(bool_arg(a["hex"], loc, "hex"))}});
  return CValue::none();
}

CValue device_assert(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a("device_assert", std::move(args), std::move(kw), {req("cond"), opt("msg", CValue::of_str("")), opt("mask")},
         loc);
  std::string msg = a["msg"].kind == CValue::Kind::Str ? a["msg"].s : "";
  if (a["msg"].kind != CValue::Kind::Str) fail(loc, "device_assert msg must be a string literal");
  ir::Value* mask = a.has("mask") ? tensor_arg(ctx, a["mask"], loc, "device_assert mask") : nullptr;
  ir::Value* cond = tensor_arg(ctx, a["cond"], loc, "device_assert condition");
  if (!ctx.opts.debug) return CValue::none();  // upstream: only with options.debug
  if (mask) cond = sem::bitwise(ctx.b, ir::OpKind::Or, sem::operand(cond), sem::operand(sem::logical_not(ctx.b, mask, loc)), loc);
  if (!cond->type.is_bool()) fail(loc, "device_assert condition must be int1, got " + sem::tt_name(cond->type.element()));
  sem::assert_op(ctx.b, cond, msg, loc);
  return CValue::none();
}

CValue hint(BuiltinContext& ctx, const std::string& name, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a(name, std::move(args), std::move(kw), {req("input"), req("values")}, loc);
  ir::Value* x = tensor_only(a["input"], loc, "tl." + name + " input");
  std::vector<int64_t> values;
  const CValue& v = a["values"];
  CValues items = v.kind == CValue::Kind::Tuple ? v.elems : CValues{v};
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].kind != CValue::Kind::Int)
      fail(loc, fmt::format("values element {} must have type `constexpr[int]`, got {}", i, items[i].describe()));
    values.push_back(int_arg(items[i], loc, "hint value"));
  }
  size_t want = static_cast<size_t>(x->type.rank());
  if (name == "multiple_of") want = std::max<size_t>(1, want);
  if (values.size() != want) fail(loc, "shape of input to " + name + " does not match the length of values");
  return CValue::of_tensor(ctx.b.create(ir::OpKind::Hint, {x}, {x->type}, loc, {{name, values}})->result());
}

}  // namespace

void register_debug(Registry& r) {
  r["static_assert"] = static_assert_;
  r["static_print"] = static_print;
  r["device_print"] = device_print;
  r["py.print"] = device_print;
  r["device_assert"] = device_assert;
  r["debug_barrier"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    Args args("debug_barrier", std::move(a), std::move(k), {}, l);
    c.b.create(ir::OpKind::Barrier, {}, {}, l);
    return CValue::none();
  };
  r["assume"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    Args args("assume", std::move(a), std::move(k), {req("cond")}, l);
    tensor_arg(c, args["cond"], l, "tl.assume condition");  // a hint only: nothing to emit
    return CValue::none();
  };
  // Programmatic dependent launch (tl.extra.cuda.gdc_wait / gdc_launch_dependents): waiting
  // for the previous grid and letting the next one start early. tritium launches one grid
  // after another (each launch completes before the next), so both are satisfied as no-ops.
  for (const char* n : {"cuda.gdc_wait", "cuda.gdc_launch_dependents"}) {
    std::string name = n;
    r[name] = [name](BuiltinContext&, CValues a, std::vector<KwArg> k, SrcLoc l) {
      Args args(name.substr(5).c_str(), std::move(a), std::move(k), {}, l);
      return CValue::none();
    };
  }
  // core.py get_int_dtype(bitwidth, signed): the integer dtype of that width.
  r["get_int_dtype"] = [](BuiltinContext&, CValues a, std::vector<KwArg> k, SrcLoc l) {
    Args args("get_int_dtype", std::move(a), std::move(k), {req("bitwidth"), req("signed")}, l);
    const int64_t w = int_arg(args["bitwidth"], l, "get_int_dtype bitwidth");
    const bool sg = bool_arg(args["signed"], l, "get_int_dtype signed");
    using S = ir::ScalarType;
    std::optional<S> t;
    if (w == 1) t = S::I1;
    if (w == 8) t = sg ? S::I8 : S::U8;
    if (w == 16) t = sg ? S::I16 : S::U16;
    if (w == 32) t = sg ? S::I32 : S::U32;
    if (w == 64) t = sg ? S::I64 : S::U64;
    if (!t) fail(l, fmt::format("Unsupported bitwidth {} and signedness {}", w, sg ? "True" : "False"));
    return CValue::of_dtype(ir::Type::of(*t));
  };
  for (const char* n : {"multiple_of", "max_contiguous", "max_constancy"}) {
    std::string name = n;
    r[name] = [name](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
      return hint(c, name, std::move(a), std::move(k), l);
    };
  }
}

}  // namespace tritium::frontend::bi
