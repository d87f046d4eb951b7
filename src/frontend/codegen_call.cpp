// Calls: language builtins and methods (builtins.h), the compile-time builtins the code
// generator owns (tl.static_assert, tl.static_print, tl.constexpr), and jit helpers,
// which are specialized on their arguments (tensor types and compile-time values) into
// one ir::Function each, memoized by specialization, and called with a `call` op.
#include <fmt/format.h>

#include <iostream>

#include "frontend/codegen_impl.h"
#include "frontend/codegen_values.h"
#include "frontend/module_loader.h"
#include "frontend/stdlib/stdlib.h"

namespace tritium::frontend::cg {

namespace {

constexpr int kMaxCallDepth = 64;

// Values that can be bound to a parameter of a jit helper.
bool passable(const CValue& v) {
  switch (v.kind) {
    case CValue::Kind::Tensor: case CValue::Kind::Int: case CValue::Kind::Float: case CValue::Kind::Bool:
    case CValue::Kind::None: case CValue::Kind::Str: case CValue::Kind::DType: case CValue::Kind::JitFn:
      return true;
    case CValue::Kind::Tuple:
      for (const auto& e : v.elems)
        if (!passable(e)) return false;
      return true;
    default:
      return false;
  }
}

}  // namespace

CValue FunctionGen::eval_call(const CallExpr& e) {
  CValue f = eval(*e.func);
  CValues args;
  for (const auto& a : e.args) {
    if (auto* st = a->dyn<StarredExpr>()) {
      CValue v = eval(*st->value);
      if (v.kind != CValue::Kind::Tuple)
        fail(a->loc, "only tuples can be unpacked with * in a call (got " + v.describe() + ")");
      args.insert(args.end(), v.elems.begin(), v.elems.end());
    } else {
      args.push_back(eval(*a));
    }
  }
  std::vector<KwArg> kwargs;
  for (const auto& kw : e.keywords) {
    if (kw.name.empty()) fail(kw.loc, "**kwargs in calls are not supported inside jit functions");
    kwargs.push_back(KwArg{kw.name, std::make_shared<CValue>(eval(*kw.value))});
  }
  return call_value(f, std::move(args), std::move(kwargs), e.loc);
}

CValue FunctionGen::call_value(const CValue& f, CValues args, std::vector<KwArg> kwargs, SrcLoc loc) {
  switch (f.kind) {
    case CValue::Kind::JitFn:
      return call_jit(f, std::move(args), std::move(kwargs), loc);
    case CValue::Kind::Builtin:
      if (f.s == "static_assert") return call_static_assert(args, kwargs, loc);
      if (f.s == "static_print") {
        if (!kwargs.empty()) fail(loc, "tl.static_print does not take keyword arguments");
        return call_static_print(args, loc);
      }
      if (f.s == "constexpr") {
        if (args.size() != 1 || !kwargs.empty()) fail(loc, "tl.constexpr() takes exactly one argument");
        if (has_tensor(args[0]))
          fail(loc, "tl.constexpr() needs a compile-time value (got " + args[0].describe() + ")");
        return args[0];
      }
      return call_builtin(ctx_, f.s, std::move(args), std::move(kwargs), loc);
    case CValue::Kind::Method:
      return call_method(ctx_, f, std::move(args), std::move(kwargs), loc);
    case CValue::Kind::Lambda:
      fail(loc, "calling a lambda is not supported inside jit functions");
    case CValue::Kind::ConstexprFn:
      return call_constexpr_function(f, args, kwargs, loc);
    default:
      fail(loc, "'" + f.describe() + "' is not callable");
  }
}

CValue FunctionGen::call_static_assert(const CValues& args, const std::vector<KwArg>& kwargs, SrcLoc loc) {
  if (args.empty() || args.size() > 2 || !kwargs.empty())
    fail(loc, "`static_assert` requires one or two positional arguments only");
  const CValue& c = args[0];
  if (c.kind != CValue::Kind::Bool) {
    if (has_tensor(c))
      fail(loc, "Assertion condition could not be determined at compile-time. Make sure that it depends only on "
                "`constexpr` values");
    fail(loc, "static_assert condition must be a bool (got " + c.describe() + ")");
  }
  if (!c.b) {
    std::string msg = args.size() == 2 ? py_str(args[1]) : "";
    fail(loc, msg.empty() ? "static_assert failed" : "static_assert failed: " + msg);
  }
  return CValue::none();
}

CValue FunctionGen::call_static_print(const CValues& args, SrcLoc loc) {
  std::string line;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) line += ' ';
    line += py_str(args[i]);
  }
  std::cerr << line << "\n";
  note_compile_time_output();  // no lowering-free cache entry: the print repeats at each compile
  return CValue::none();
}

CValue FunctionGen::call_jit(const CValue& fnv, CValues args, std::vector<KwArg> kwargs, SrcLoc loc) {
  if (fnv.kind != CValue::Kind::JitFn || !fnv.fn || !stdlib::is_stdlib_module(fnv.fn_module) ||
      stdlib::is_stdlib_module(module_))
    return call_jit_impl(fnv, std::move(args), std::move(kwargs), loc);
  try {
    return call_jit_impl(fnv, std::move(args), std::move(kwargs), loc);
  } catch (const CompileError& e) {
    const SrcLoc& at = e.loc();
    if (at.file && !stdlib::is_stdlib_source(at.file)) throw;  // already points into user code
    std::string msg = e.message();
    const std::string assert_prefix = "static_assert failed: ";  // the stdlib's argument checks
    if (msg.rfind(assert_prefix, 0) == 0) msg = msg.substr(assert_prefix.size());
    fail(loc, fmt::format("tl.{}: {} (raised at {}:{}:{} in tritium's Triton-language standard library)", fnv.fn->name,
                          msg, at.filename(), at.line, at.col));
  }
}

CValue FunctionGen::call_jit_impl(const CValue& fnv, CValues args, std::vector<KwArg> kwargs, SrcLoc loc) {
  if (fnv.kind != CValue::Kind::JitFn || !fnv.fn) fail(loc, "'" + fnv.describe() + "' is not a jit function");
  if (!def_) fail(loc, "jit function '" + fnv.fn->name + "' cannot be called at module level");
  const FunctionDef& f = *fnv.fn;
  if (f.parse_error) throw CompileError(f.parse_error->loc, f.parse_error->message);
  const std::string& name = f.name;

  // Bind the arguments as Python does.
  std::vector<std::optional<CValue>> bound(f.params.size());
  std::vector<size_t> positional;
  for (size_t i = 0; i < f.params.size(); ++i) {
    const Param& p = f.params[i];
    if (p.kind == ParamKind::VarArgs || p.kind == ParamKind::VarKwargs)
      fail(p.loc, "variadic parameters (*args / **kwargs) are not supported in jit functions");
    if (p.kind == ParamKind::PositionalOnly || p.kind == ParamKind::Normal) positional.push_back(i);
  }
  if (args.size() > positional.size())
    fail(loc, fmt::format("{}() takes {} positional argument{} but {} were given", name, positional.size(),
                          positional.size() == 1 ? "" : "s", args.size()));
  for (size_t k = 0; k < args.size(); ++k) bound[positional[k]] = std::move(args[k]);
  for (auto& kw : kwargs) {
    size_t i = 0;
    for (; i < f.params.size(); ++i)
      if (f.params[i].name == kw.name &&
          (f.params[i].kind == ParamKind::Normal || f.params[i].kind == ParamKind::KeywordOnly))
        break;
    if (i == f.params.size()) fail(loc, name + "() got an unexpected keyword argument '" + kw.name + "'");
    if (bound[i]) fail(loc, name + "() got multiple values for argument '" + kw.name + "'");
    bound[i] = *kw.value;
  }
  std::vector<ir::Value*> runtime;
  std::string key = fmt::format("{}@{}:{}:{}(", name, static_cast<const void*>(f.loc.file), f.loc.line, f.loc.col);
  std::string mangled = name + "_";
  for (size_t i = 0; i < f.params.size(); ++i) {
    const Param& p = f.params[i];
    if (!bound[i]) {
      if (!p.default_value) fail(loc, name + "() missing required argument '" + p.name + "'");
      bound[i] = st_.env_of(fnv.fn_module).eval_default(st_, p);
    }
    const CValue& v = *bound[i];
    if (!passable(v))
      fail(loc, "cannot pass " + v.describe() + " as argument '" + p.name + "' of jit function " + name + "()");
    // Upstream ignores the annotations of a helper's parameters (call_JitFunction binds by
    // value: only constexpr *values* specialize), so a run-time value reaching a parameter
    // annotated tl.constexpr is an ordinary argument, as in the fused-attention tutorial's
    // `offs_m: tl.constexpr`. Only tritium's own stdlib functions (n_rounds of tl.randint,
    // ...) refuse it, with a clearer message than the static_range failure it would meet.
    if (st_.is_constexpr(p.annotation.get()) && has_tensor(v) && stdlib::is_stdlib_module(fnv.fn_module))
      fail(loc, "argument '" + p.name + "' of " + name + "() is tl.constexpr but receives a run-time value (" +
                    v.describe() + ")");
    flatten(v, runtime);
    std::string m = mangle(v);
    key += m + ",";
    mangled += "_" + m;
  }
  key += ")";

  auto it = st_.helpers.find(key);
  if (it != st_.helpers.end() && !it->second.done)
    fail(loc, "recursive call of jit function '" + name + "' with the same argument types and constants is not supported");
  if (it == st_.helpers.end()) {
    if (st_.call_depth >= kMaxCallDepth) {
      // Recursion only where `name` is on the chain being generated (a helper of the same
      // definition not finished yet); a chain of distinct helpers is just too deep.
      const std::string prefix = key.substr(0, key.find('(') + 1);
      bool recursive = false;
      for (const auto& [k, h] : st_.helpers) recursive = recursive || (!h.done && k.rfind(prefix, 0) == 0);
      fail(loc, recursive ? fmt::format("jit function calls nested more than {} deep (unbounded recursion of '{}'?)",
                                        kMaxCallDepth, name)
                          : fmt::format("jit function calls nested more than {} deep", kMaxCallDepth));
    }
    std::string ir_name = mangled;
    for (int n = 1; st_.ir_names.count(ir_name); ++n) ir_name = mangled + "_" + std::to_string(n);
    st_.ir_names.insert(ir_name);
    ir::Function* hf = st_.out.add(ir_name);
    hf->loc = f.loc;
    it = st_.helpers.emplace(key, HelperInfo{hf, CValue::none(), false}).first;

    FunctionGen g(st_, *hf, &f, false, fnv.fn_module);
    for (size_t i = 0; i < f.params.size(); ++i) {
      const CValue& v = *bound[i];
      std::vector<ir::Value*> leaves;
      for (auto& t : flat_types(v)) {
        ir::Value* a = g.b_.add_block_arg(hf->body, t);
        a->name = f.params[i].name;
        leaves.push_back(a);
      }
      size_t cursor = 0;
      g.bind(f.params[i].name, unflatten(v, leaves, cursor));
    }
    ++st_.call_depth;
    g.gen_body();
    --st_.call_depth;
    it->second.ret_template = g.return_value();
    it->second.done = true;
  }
  const HelperInfo& info = it->second;
  ir::Op* call = b_.create(ir::OpKind::Call, runtime, info.fn->result_types, loc, {{"callee", info.fn->name}});
  size_t cursor = 0;
  return unflatten(info.ret_template, call->results, cursor);
}

}  // namespace tritium::frontend::cg
