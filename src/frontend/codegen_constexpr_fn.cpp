// Calls of @triton.constexpr_function functions from kernels (upstream 3.6
// runtime/jit.py ConstexprFunction): the arguments, which must be compile-time values, are
// unwrapped, the plain Python function runs at compile time (tritium's host-Python
// evaluator, pyeval.h), and its result is a constexpr.
#include <new>

#include <fmt/format.h>

#include "frontend/codegen_impl.h"
#include "frontend/pyeval.h"

namespace tritium::frontend::cg {
namespace {

PyValue to_py(const CValue& v, SrcLoc loc, const std::string& fn) {
  switch (v.kind) {
    case CValue::Kind::Int:
      if (v.is_u64) fail(loc, fmt::format("{}(): integer {} does not fit in 64 signed bits", fn, v.u));
      return PyValue::of_int(v.i);
    case CValue::Kind::Float: return PyValue::of_float(v.f);
    case CValue::Kind::Bool: return PyValue::of_bool(v.b);
    case CValue::Kind::Str: return PyValue::of_str(v.s);
    case CValue::Kind::None: return PyValue::none();
    case CValue::Kind::Tuple: {
      PyValue t = PyValue::list({}, PyValue::Kind::Tuple);
      for (const CValue& e : v.elems) t.items.push_back(to_py(e, loc, fn));
      return t;
    }
    default: break;
  }
  fail(loc, fmt::format("constexpr function {}() needs compile-time values (int, float, bool, str, None or tuples "
                        "of them), got {}",
                        fn, v.describe()));
}

CValue from_py(const PyValue& v, SrcLoc loc, const std::string& fn) {
  switch (v.kind) {
    case PyValue::Kind::Int: return CValue::of_int(v.i);
    case PyValue::Kind::Float: return CValue::of_float(v.f);
    case PyValue::Kind::Bool: return CValue::of_bool(v.b);
    case PyValue::Kind::Str: return CValue::of_str(v.s);
    case PyValue::Kind::None: return CValue::none();
    case PyValue::Kind::Tuple: case PyValue::Kind::List: {
      CValues out;
      for (const PyValue& e : v.items) out.push_back(from_py(e, loc, fn));
      return CValue::of_tuple(out);
    }
    default: break;
  }
  fail(loc, fmt::format("constexpr function {}() returned {}, which is not a compile-time value tritium can use",
                        fn, v.repr()));
}

}  // namespace

CValue FunctionGen::call_constexpr_function(const CValue& f, const CValues& args, const std::vector<KwArg>& kwargs,
                                            SrcLoc loc) {
  const std::string& name = f.fn->name;
  std::vector<PyValue> pargs;
  for (const CValue& a : args) pargs.push_back(to_py(a, loc, name));
  std::vector<std::pair<std::string, PyValue>> pkw;
  for (const KwArg& k : kwargs) pkw.emplace_back(k.name, to_py(*k.value, loc, name));
  PyValue fn;
  fn.kind = PyValue::Kind::Function;
  fn.fn = f.fn;
  fn.module = f.fn_module;
  try {
    PyEvaluator ev(*f.fn_module, std::numeric_limits<uint32_t>::max());
    return from_py(ev.call(fn, pargs, loc, pkw), loc, name);
  } catch (const CompileError& e) {
    if (e.loc().file == loc.file && e.loc().line == loc.line) throw;
    fail(loc, fmt::format("constexpr function {}(): {} (at line {} of its definition)", name, e.message(), e.loc().line));
  } catch (const std::bad_alloc&) {  // host code past memory before a size bound caught it
    fail(loc, fmt::format("constexpr function {}(): out of memory evaluating its host code at compile time", name));
  }
}

}  // namespace tritium::frontend::cg
