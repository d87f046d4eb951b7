// Python builtins inside kernels (upstream code_generator.py builtin_namespace and
// core.py builtin_min / builtin_max): min and max (constexprs fold; tensors chain
// tl.minimum / tl.maximum), len, int, float, isinstance, and — tritium's addition, on
// constexprs only — abs and bool. print is device_print (builtins_debug.cpp).
#include <fmt/format.h>

#include <cmath>

#include "frontend/builtins_impl.h"

namespace tritium::frontend::bi {

namespace {

using K = CValue::Kind;

bool is_num(const CValue& v) { return v.kind == K::Int || v.kind == K::Float || v.kind == K::Bool; }

CValue py_minmax(BuiltinContext& ctx, bool is_max, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  const char* name = is_max ? "max" : "min";
  Args a(name, std::move(args), std::move(kw), {opt("propagate_nan")}, loc, true, 0);
  CValues vals = a.rest();
  bool all_const = true;
  for (const auto& v : vals) all_const = all_const && v.kind != K::Tensor;
  if (all_const) {
    if (a.has("propagate_nan")) fail(loc, std::string("propagate_nan is not supported on builtin ") + name);
    if (vals.empty()) fail(loc, std::string(name) + "() arg is an empty sequence");
    for (const auto& v : vals) {
      if (v.kind == K::Float && std::isnan(v.f)) fail(loc, std::string(name) + "() of a NaN constexpr");
      if (v.kind == K::Float && v.f == 0.0 && std::signbit(v.f)) fail(loc, std::string(name) + "() of -0.0");
    }
    CValue best = vals[0];
    for (size_t i = 1; i < vals.size(); ++i) {
      // Python keeps the first of equal values.
      bool better = constexpr_truth(fold_compare(is_max ? CmpOp::Gt : CmpOp::Lt, vals[i], best, loc), loc);
      if (better) best = vals[i];
    }
    return best;
  }
  if (vals.size() < 2) fail(loc, std::string(name) + " requires at least 2 values");
  std::vector<KwArg> pk;
  if (a.has("propagate_nan")) pk.push_back(KwArg{"propagate_nan", std::make_shared<CValue>(a["propagate_nan"])});
  CValue acc = vals[0];
  for (size_t i = 1; i < vals.size(); ++i) acc = call_builtin(ctx, is_max ? "maximum" : "minimum", {acc, vals[i]}, pk, loc);
  return acc;
}

CValue one_arg(const char* name, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  Args a(name, std::move(args), std::move(kw), {req("x")}, loc);
  if (a["x"].kind == K::Tensor) fail(loc, std::string(name) + "() of a run-time value is not supported in a kernel");
  return a["x"];
}

CValue py_len(BuiltinContext&, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  CValue x = one_arg("len", std::move(args), std::move(kw), loc);
  if (is_record(x))
    fail(loc, "object of type " + x.describe() + " has no len()");
  if (x.kind == K::Tuple) return CValue::of_int(static_cast<int64_t>(x.elems.size()));
  if (x.kind == K::Str) return CValue::of_int(static_cast<int64_t>(x.s.size()));
  fail(loc, "object of type " + x.describe() + " has no len()");
}

CValue py_int(BuiltinContext&, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  CValue x = one_arg("int", std::move(args), std::move(kw), loc);
  switch (x.kind) {
    case K::Int: return x;
    case K::Bool: return CValue::of_int(x.b ? 1 : 0);
    case K::Float: {
      if (!std::isfinite(x.f)) fail(loc, "cannot convert float " + fmt::format("{}", x.f) + " to integer");
      double t = std::trunc(x.f);
      if (t < -9.3e18 || t >= 1.8e19) fail(loc, "integer constant out of the supported range");
      return sem::make_int(t < 0 ? static_cast<__int128>(static_cast<int64_t>(t))
                                 : static_cast<__int128>(static_cast<unsigned __int128>(t)),
                           loc);
    }
    case K::Str: {
      try {
        size_t pos = 0;
        long long v = std::stoll(x.s, &pos, 10);
        if (pos != x.s.size()) throw std::invalid_argument(x.s);
        return CValue::of_int(v);
      } catch (const std::exception&) {
        fail(loc, "invalid literal for int(): '" + x.s + "'");
      }
    }
    default: fail(loc, "int() argument must be a number or a string, not " + x.describe());
  }
}

CValue py_float(BuiltinContext&, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  CValue x = one_arg("float", std::move(args), std::move(kw), loc);
  if (x.kind == K::Float) return x;
  if (x.kind == K::Int || x.kind == K::Bool)
    return CValue::of_float(static_cast<double>(static_cast<long double>(sem::int_value(x))));
  if (x.kind == K::Str) {
    try {
      size_t pos = 0;
      double v = std::stod(x.s, &pos);
      if (pos != x.s.size()) throw std::invalid_argument(x.s);
      return CValue::of_float(v);
    } catch (const std::exception&) {
      fail(loc, "could not convert string to float: '" + x.s + "'");
    }
  }
  fail(loc, "float() argument must be a number or a string, not " + x.describe());
}

CValue py_bool(BuiltinContext&, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  CValue x = one_arg("bool", std::move(args), std::move(kw), loc);
  return CValue::of_bool(constexpr_truth(x, loc));
}

CValue py_abs(BuiltinContext&, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  CValue x = one_arg("abs", std::move(args), std::move(kw), loc);
  if (x.kind == K::Float) return CValue::of_float(std::fabs(x.f));
  if (is_num(x)) {
    __int128 v = sem::int_value(x);
    return sem::make_int(v < 0 ? -v : v, loc);
  }
  fail(loc, "bad operand type for abs(): " + x.describe());
}

// isinstance(obj, cls) as upstream evaluates it in a kernel: the code generator unwraps
// constexpr arguments before calling Python's isinstance, so a constexpr 16 is an `int`
// (and never a tl.constexpr), a run-time value (block pointers included) is a tl.tensor, a
// tensor descriptor a tl.tensor_descriptor, a tuple a tl.tuple (not a Python tuple / list).
bool instance_of(const CValue& v, const CValue& cls, SrcLoc loc) {
  if (cls.kind == K::Tuple && !is_record(cls))  // a kernel's (a, b) is a tl.tuple, not a Python tuple
    fail(loc, "isinstance() with a tuple of types is not supported (upstream passes a tl.tuple, which Python's "
              "isinstance rejects); test each type");
  if (cls.kind != K::Builtin)
    fail(loc, "isinstance() arg 2 must be a type or a tuple of types, got " + cls.describe());
  const std::string& n = cls.s;
  if (n == "py.int") return v.kind == K::Int || v.kind == K::Bool;  // bool is an int in Python
  if (n == "py.bool") return v.kind == K::Bool;
  if (n == "py.float") return v.kind == K::Float;
  if (n == "py.list" || n == "constexpr") return false;
  if (n == "tensor") return v.kind == K::Tensor || is_block_ptr(v);
  if (n == "tensor_descriptor" || n == "tensor_descriptor_base") return is_tensor_desc(v);
  if (n == "dtype") return v.kind == K::DType;
  if (n == "tuple") return v.kind == K::Tuple && !is_record(v);
  fail(loc, "isinstance() with " + display_name(n) + " as the type is not supported yet in tritium kernels");
}

CValue py_isinstance(BuiltinContext&, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  if (!kw.empty()) fail(loc, "isinstance() takes no keyword arguments");
  if (args.size() != 2) fail(loc, fmt::format("isinstance expected 2 arguments, got {}", args.size()));
  return CValue::of_bool(instance_of(args[0], args[1], loc));
}

}  // namespace

void register_python(Registry& r) {
  r["py.min"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return py_minmax(c, false, std::move(a), std::move(k), l);
  };
  r["py.max"] = [](BuiltinContext& c, CValues a, std::vector<KwArg> k, SrcLoc l) {
    return py_minmax(c, true, std::move(a), std::move(k), l);
  };
  r["py.len"] = py_len;
  r["py.int"] = py_int;
  r["py.float"] = py_float;
  r["py.bool"] = py_bool;
  r["py.abs"] = py_abs;
  r["py.isinstance"] = py_isinstance;
  for (const char* n : {"py.list", "py.getattr", "py.hasattr"}) {
    std::string name = n;
    r[name] = [name](BuiltinContext&, CValues, std::vector<KwArg>, SrcLoc l) -> CValue {
      fail(l, display_name(name) + "() is not supported yet in tritium kernels");
    };
  }
}

}  // namespace tritium::frontend::bi
