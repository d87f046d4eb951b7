// Control flow: if/elif/else (static on compile-time conditions, an `if` op otherwise),
// for over range / tl.range (a `for` op) / tl.static_range and tuples (unrolled), and
// while (a `while` op), with upstream Triton's rules for the values that flow out of
// regions: a dynamic if yields every live-in it reassigns and every new name defined in
// both branches; a loop carries every live-in its body reassigns, with a fixed type.
#include <fmt/format.h>

#include "frontend/codegen_impl.h"
#include "frontend/codegen_values.h"
#include "frontend/semantic.h"

namespace tritium::frontend::cg {

namespace {

constexpr int64_t kMaxStaticIterations = 1 << 16;

void add_results(ir::Function& fn, ir::Op* op, const std::vector<ir::Type>& types) {
  for (const auto& t : types) {
    ir::Value* v = fn.new_value(t);
    v->def = op;
    v->index = static_cast<int>(op->results.size());
    op->results.push_back(v);
  }
}

// Binds call-style arguments of a range builtin to its parameter names.
std::vector<std::optional<CValue>> bind_range_args(const std::string& fname, const std::vector<std::string>& params,
                                                   size_t max_positional, CValues args,
                                                   const std::vector<KwArg>& kwargs, SrcLoc loc) {
  std::vector<std::optional<CValue>> out(params.size());
  if (args.empty() && kwargs.empty()) fail(loc, fname + "() expects at least one argument");
  if (args.size() > max_positional)
    fail(loc, fmt::format("{}() takes at most {} positional arguments ({} given)", fname, max_positional, args.size()));
  for (size_t i = 0; i < args.size(); ++i) out[i] = std::move(args[i]);
  for (const auto& kw : kwargs) {
    size_t i = 0;
    while (i < params.size() && params[i] != kw.name) ++i;
    if (i == params.size()) fail(loc, fname + "() got an unexpected keyword argument '" + kw.name + "'");
    if (out[i]) fail(loc, fname + "() got multiple values for argument '" + kw.name + "'");
    out[i] = *kw.value;
  }
  if (!out[0]) fail(loc, fname + "() missing required argument '" + params[0] + "'");
  return out;
}

bool is_none_or_absent(const std::optional<CValue>& v) { return !v || v->kind == CValue::Kind::None; }

}  // namespace

bool FunctionGen::static_condition(const CValue& c, SrcLoc loc, const char* what) {
  switch (c.kind) {
    case CValue::Kind::Bool: return c.b;
    case CValue::Kind::Int: return c.is_u64 ? c.u != 0 : c.i != 0;
    case CValue::Kind::None: return false;
    default:
      fail(loc, fmt::format("`{}` conditionals can only accept values of type {{bool, int, NoneType}}, not objects of "
                            "type {}",
                            what, py_type_name(c)));
  }
}

// ---- if -------------------------------------------------------------------------------------

void FunctionGen::gen_if(const IfStmt& s, const StmtList& stmts, size_t index, const Cont* after) {
  Cont rest = [&] { gen_stmts(stmts, index + 1, after); };
  CValue c = eval(*s.test);
  if (!c.is_tensor()) {
    const StmtList& branch = static_condition(c, s.test->loc, "if") ? s.body : s.orelse;
    if (find_return(branch)) {
      gen_stmts(branch, 0, &rest);  // a return below may need the rest of the function
      return;
    }
    gen_stmts(branch, 0, nullptr);
    rest();
    return;
  }
  ir::Value* cond = to_condition(ctx_, c, s.test->loc);
  const Stmt* ret = find_return(s.body);
  if (!ret) ret = find_return(s.orelse);
  if (ret) {
    if (loop_depth_ > 0)
      fail(ret->loc, "Cannot have `return` statements inside `while` or `for` statements in triton.");
    gen_returning_if(s, cond, rest);
    return;
  }
  gen_dynamic_if(s, cond);
  rest();
}

void FunctionGen::gen_dynamic_if(const IfStmt& s, ir::Value* cond) {
  const Scope live = scope_;
  const std::set<std::string> dead = dead_ivs_;
  ir::Op* op = b_.create_if(cond, {}, s.loc);
  Scope out[2];
  std::set<std::string> dead_out;
  for (int br = 0; br < 2; ++br) {
    scope_ = live;
    dead_ivs_ = dead;
    ir::InsertionGuard g(b_);
    b_.set_insertion_end(&op->body(br));
    gen_stmts(br == 0 ? s.body : s.orelse, 0, nullptr);
    out[br] = scope_;
    dead_out.insert(dead_ivs_.begin(), dead_ivs_.end());
  }

  // Decide which names flow out of the if (upstream visit_then_else_blocks).
  std::vector<std::string> names;       // yielded, in order
  std::vector<CValue> vals[2];
  std::vector<std::pair<std::string, CValue>> constants;  // equal compile-time values
  auto both_defined = [&](const std::string& name, const CValue& t, const CValue& e) {
    if (!same_type(t, e))
      fail(s.loc, fmt::format("Mismatched type for {} between then block ({}) and else block ({})", name, type_text(t),
                              type_text(e)));
    if (has_tensor(t)) {
      names.push_back(name);
      vals[0].push_back(t);
      vals[1].push_back(e);
    } else {
      constants.emplace_back(name, t);
    }
  };
  std::set<std::string> dropped;
  for (const auto& [name, lv] : live.vars()) {
    const CValue* t = out[0].find(name);
    const CValue* e = out[1].find(name);
    if (!t || !e) {  // unbound in a branch (a dynamic loop's variable): undefined afterwards
      dropped.insert(name);
      continue;
    }
    bool ct = !same_value(*t, lv), ce = !same_value(*e, lv);
    if (!ct && !ce) continue;
    if (has_tensor(lv)) {
      for (int br = 0; br < 2; ++br) {
        const CValue& v = br == 0 ? *t : *e;
        if (!same_type(v, lv))
          fail(s.loc, fmt::format("initial value for `{}` is of type {}, but the {} block redefines it as {}", name,
                                  type_text(lv), br == 0 ? "then" : "else", type_text(v)));
      }
      names.push_back(name);
      vals[0].push_back(*t);
      vals[1].push_back(*e);
    } else if (ct && ce) {
      both_defined(name, *t, *e);
    } else {
      fail(s.loc, fmt::format("`{}` is the compile-time value {} before this dynamic if and is reassigned in only its "
                              "{} block; Triton cannot merge it (make it a tensor before the if)",
                              name, type_text(lv), ct ? "then" : "else"));
    }
  }
  for (const auto& [name, t] : out[0].vars()) {
    if (live.contains(name)) continue;
    if (const CValue* e = out[1].find(name)) both_defined(name, t, *e);
  }

  std::vector<ir::Type> types;
  for (int br = 0; br < 2; ++br) {
    std::vector<ir::Value*> ys;
    for (const auto& v : vals[br]) flatten(v, ys);
    if (br == 0)
      for (auto* y : ys) types.push_back(y->type);
    ir::InsertionGuard g(b_);
    b_.set_insertion_end(&op->body(br));
    b_.create(ir::OpKind::Yield, ys, {}, s.loc);
  }
  add_results(fn_, op, types);

  scope_ = live;
  dead_ivs_ = dead_out;
  for (const auto& n : dropped) scope_.erase(n);
  size_t cursor = 0;
  for (size_t k = 0; k < names.size(); ++k) {
    scope_.set(names[k], unflatten(vals[0][k], op->results, cursor));
    dead_ivs_.erase(names[k]);
  }
  for (auto& [name, v] : constants) {
    scope_.set(name, v);
    dead_ivs_.erase(name);
  }
}

void FunctionGen::gen_returning_if(const IfStmt& s, ir::Value* cond, const Cont& rest) {
  const Scope live = scope_;
  const std::set<std::string> dead = dead_ivs_;
  ir::Op* op = b_.create_if(cond, {}, s.loc);
  CValue rets[2];
  for (int br = 0; br < 2; ++br) {
    scope_ = live;
    dead_ivs_ = dead;
    returned_ = false;
    ret_slot_.reset();
    ir::InsertionGuard g(b_);
    b_.set_insertion_end(&op->body(br));
    gen_stmts(br == 0 ? s.body : s.orelse, 0, &rest);
    rets[br] = ret_slot_ ? *ret_slot_ : CValue::none();
  }
  if (!same_type(rets[0], rets[1]))
    fail(s.loc, "Inconsistent return types: " + type_text(rets[0]) + " and " + type_text(rets[1]));
  for (int br = 0; br < 2; ++br) {
    ir::InsertionGuard g(b_);
    b_.set_insertion_end(&op->body(br));
    b_.create(ir::OpKind::Yield, flatten(rets[br]), {}, s.loc);
  }
  add_results(fn_, op, flat_types(rets[0]));
  size_t cursor = 0;
  ret_slot_ = unflatten(rets[0], op->results, cursor);
  returned_ = true;
  scope_ = live;
  dead_ivs_ = dead;
}

// ---- loops ----------------------------------------------------------------------------------

std::vector<std::string> FunctionGen::find_carried(const StmtList& body, const std::string& iv_name,
                                                   const ir::Type* iv_type, SrcLoc loc) {
  const Scope live = scope_;
  const std::set<std::string> dead = dead_ivs_;
  {
    ir::Block scratch;  // the dry run's IR is thrown away
    ir::InsertionGuard g(b_);
    b_.set_insertion_end(&scratch);
    if (iv_type) {
      scope_.set(iv_name, CValue::of_tensor(b_.create(ir::OpKind::Undef, {}, {*iv_type}, loc)->result()));
      dead_ivs_.erase(iv_name);
    }
    ++loop_depth_;
    gen_stmts(body, 0, nullptr);
    --loop_depth_;
  }
  std::vector<std::string> names;
  for (const auto& [name, lv] : live.vars()) {
    if (name == iv_name) continue;
    const CValue* now = scope_.find(name);
    if (!now || same_value(*now, lv)) continue;
    if (!has_tensor(lv))
      fail(loc, fmt::format("cannot reassign `{}` in a dynamic loop: before the loop it is {}, and a loop can only "
                            "carry tensors (assign a tensor before the loop)",
                            name, lv.describe()));
    if (!same_type(*now, lv))
      fail(loc, fmt::format("Loop-carried variable {} has initial type {} but is re-assigned to {} in loop! Please "
                            "make sure that the type stays consistent.",
                            name, type_text(lv), type_text(*now)));
    names.push_back(name);
  }
  scope_ = live;
  dead_ivs_ = dead;
  return names;
}

void FunctionGen::gen_for(const ForStmt& s, const StmtList& stmts, size_t index, const Cont* after) {
  Cont rest = [&] { gen_stmts(stmts, index + 1, after); };
  if (s.is_async) fail(s.loc, "async for is not supported inside jit functions");
  if (!s.orelse.empty()) fail(s.loc, "`for ... else` is not supported in triton");
  const Expr& it = *s.iter;
  const auto* call = it.dyn<CallExpr>();
  CValue fnv = call ? eval(*call->func) : CValue::none();
  bool is_range = fnv.kind == CValue::Kind::Builtin &&
                  (fnv.s == "range" || fnv.s == "static_range" || fnv.s == "py.range");
  if (!is_range) {
    CValue seq = eval(it);
    if (seq.kind != CValue::Kind::Tuple)
      fail(it.loc, "for loops can only iterate over range(), tl.range(), tl.static_range() or a tuple (got " +
                       seq.describe() + ")");
    gen_static_for(s, seq.elems, rest);
    return;
  }
  const auto* target = s.target->dyn<NameExpr>();
  if (!target) fail(s.target->loc, "the variable of a range loop must be a plain name");

  CValues args;
  for (const auto& a : call->args) {
    if (auto* st = a->dyn<StarredExpr>()) {
      CValue v = eval(*st->value);
      if (v.kind != CValue::Kind::Tuple) fail(a->loc, "only tuples can be unpacked with * in a call");
      args.insert(args.end(), v.elems.begin(), v.elems.end());
    } else {
      args.push_back(eval(*a));
    }
  }
  std::vector<KwArg> kwargs;
  for (const auto& kw : call->keywords) {
    if (kw.name.empty()) fail(kw.loc, "**kwargs in calls are not supported inside jit functions");
    kwargs.push_back(KwArg{kw.name, std::make_shared<CValue>(eval(*kw.value))});
  }

  SrcLoc cl = call->loc;
  std::map<std::string, ir::Attr> attrs;
  std::optional<CValue> a1, a2, a3;
  if (fnv.s == "py.range") {
    if (!kwargs.empty()) fail(cl, "range() takes no keyword arguments");
    if (args.empty() || args.size() > 3)
      fail(cl, fmt::format("range expected at least 1 argument and at most 3, got {}", args.size()));
    a1 = args[0];
    if (args.size() > 1) a2 = args[1];
    if (args.size() > 2) a3 = args[2];
  } else if (fnv.s == "static_range") {
    auto b = bind_range_args("static_range", {"arg1", "arg2", "step"}, 3, std::move(args), kwargs, cl);
    a1 = b[0], a2 = b[1], a3 = b[2];
  } else {
    static const std::vector<std::string> names = {"arg1", "arg2", "step", "num_stages", "loop_unroll_factor",
                                                   "disallow_acc_multi_buffer", "flatten", "warp_specialize",
                                                   "disable_licm"};
    auto b = bind_range_args("range", names, names.size(), std::move(args), kwargs, cl);
    a1 = b[0], a2 = b[1], a3 = b[2];
    for (size_t i = 3; i < names.size(); ++i) {
      if (is_none_or_absent(b[i])) continue;
      const CValue& v = *b[i];
      if (has_tensor(v)) fail(cl, "tl.range argument '" + names[i] + "' must be a compile-time constant");
      if (i < 5) {
        if (v.kind != CValue::Kind::Int) fail(cl, "tl.range argument '" + names[i] + "' must be an int");
        attrs[names[i]] = v.i;
      } else if (constexpr_truth(v, cl)) {
        attrs[names[i]] = int64_t{1};
      }
    }
  }
  // Python's range(stop) / range(start, stop[, step]).
  CValue lb = CValue::of_int(0), ub, step = CValue::of_int(1);
  if (is_none_or_absent(a2)) {
    ub = *a1;
  } else {
    lb = *a1;
    ub = *a2;
  }
  if (!is_none_or_absent(a3)) step = *a3;

  if (fnv.s == "static_range") {
    const char* what[3] = {"start", "end", "step"};
    const CValue* v[3] = {&lb, &ub, &step};
    int64_t n[3];
    for (int k = 0; k < 3; ++k) {
      if (v[k]->kind == CValue::Kind::Bool) n[k] = v[k]->b;
      else if (v[k]->kind == CValue::Kind::Int && !v[k]->is_u64) n[k] = v[k]->i;
      else fail(cl, fmt::format("{} used as tl.static_range {} value is not a constexpr int", v[k]->describe(), what[k]));
    }
    if (n[2] == 0) fail(cl, "static_range() arg 3 must not be zero");
    CValues items;
    for (int64_t i = n[0]; n[2] > 0 ? i < n[1] : i > n[1];) {
      if (static_cast<int64_t>(items.size()) >= kMaxStaticIterations)
        fail(cl, fmt::format("tl.static_range with more than {} iterations is too large to unroll",
                             kMaxStaticIterations));
      items.push_back(CValue::of_int(i));
      if (__builtin_add_overflow(i, n[2], &i)) break;  // the next value is past the end of int64
    }
    gen_static_for(s, items, rest);
    return;
  }
  gen_dynamic_for(s, target->id, lb, ub, step, std::move(attrs));
  rest();
}

void FunctionGen::gen_static_for(const ForStmt& s, const CValues& items, const Cont& rest) {
  auto bind_item = [&](const CValue& item) { assign_target(*s.target, item); };
  if (!find_return(s.body)) {
    for (const auto& item : items) {
      bind_item(item);
      gen_stmts(s.body, 0, nullptr);
    }
    rest();
    return;
  }
  // A return inside the unrolled body: each iteration continues into the next one, the
  // last into the rest of the function (see codegen_impl.h on continuations).
  std::function<void(size_t)> run = [&](size_t k) {
    if (k == items.size()) {
      rest();
      return;
    }
    bind_item(items[k]);
    Cont next = [&run, k] { run(k + 1); };
    gen_stmts(s.body, 0, &next);
  };
  run(0);
}

void FunctionGen::gen_dynamic_for(const ForStmt& s, const std::string& var, CValue lb, CValue ub, CValue step,
                                  std::map<std::string, ir::Attr> attrs) {
  SrcLoc loc = s.loc;
  bool negative = false;
  if (step.kind == CValue::Kind::Int && !step.is_u64) {
    if (step.i == 0) fail(s.iter->loc, "range() arg 3 must not be zero");
    if (step.i < 0) {
      negative = true;
      step = CValue::of_int(-step.i);
      std::swap(lb, ub);
    }
  }
  ir::Value* v[3] = {to_ir(ctx_, lb, s.iter->loc), to_ir(ctx_, ub, s.iter->loc), to_ir(ctx_, step, s.iter->loc)};
  for (auto* x : v)
    if (!x->type.is_int() || !x->type.is_scalar())
      fail(s.iter->loc, fmt::format("For loop bounds and step must all be ints, are ({}, {}, {})", v[0]->type.str(),
                                    v[1]->type.str(), v[2]->type.str()));
  ir::ScalarType ivt = sem::integer_promote(sem::integer_promote(v[0]->type.scalar, v[1]->type.scalar), v[2]->type.scalar);
  ir::Type iv_type = ir::Type::of(ivt);
  for (auto*& x : v)
    if (!(x->type == iv_type)) x = sem::cast(b_, x, iv_type, s.iter->loc);

  std::vector<std::string> carried = find_carried(s.body, var, &iv_type, loc);
  const Scope live = scope_;
  std::vector<ir::Value*> inits;
  for (const auto& n : carried) flatten(*live.find(n), inits);
  ir::Op* loop = b_.create_for(v[0], v[1], v[2], inits, loc);
  for (auto& [k, a] : attrs) loop->attrs[k] = a;
  {
    ir::InsertionGuard g(b_);
    ir::Block& body = loop->body();
    b_.set_insertion_end(&body);
    ir::Value* iv = body.args[0];
    if (negative) iv = b_.binary(ir::OpKind::Add, b_.binary(ir::OpKind::Sub, v[1], iv, loc), v[0], loc);
    scope_.set(var, CValue::of_tensor(iv));
    dead_ivs_.erase(var);
    std::vector<ir::Value*> args(body.args.begin() + 1, body.args.end());
    size_t cursor = 0;
    for (const auto& n : carried) scope_.set(n, unflatten(*live.find(n), args, cursor));
    ++loop_depth_;
    gen_stmts(s.body, 0, nullptr);
    --loop_depth_;
    yield_carried(carried, live, loc);
  }
  std::vector<std::string> gone = unbound_after(live, var);
  scope_ = live;
  size_t cursor = 0;
  for (const auto& n : carried) scope_.set(n, unflatten(*live.find(n), loop->results, cursor));
  scope_.erase(var);
  dead_ivs_.insert(var);
  for (const auto& n : gone) {
    scope_.erase(n);
    dead_ivs_.insert(n);
  }
}

std::vector<std::string> FunctionGen::unbound_after(const Scope& live, const std::string& iv_name) const {
  std::vector<std::string> gone;
  for (const auto& [name, v] : live.vars())
    if (name != iv_name && !scope_.contains(name)) gone.push_back(name);
  return gone;
}

void FunctionGen::yield_carried(const std::vector<std::string>& carried, const Scope& live, SrcLoc loc) {
  std::vector<ir::Value*> ys;
  for (const auto& n : carried) {
    const CValue* now = scope_.find(n);
    if (!now) fail(loc, "loop-carried variable `" + n + "` is not defined at the end of the loop body");
    if (!same_type(*now, *live.find(n)))
      fail(loc, fmt::format("Loop-carried variable {} has initial type {} but is re-assigned to {} in loop! Please "
                            "make sure that the type stays consistent.",
                            n, type_text(*live.find(n)), type_text(*now)));
    flatten(*now, ys);
  }
  b_.create(ir::OpKind::Yield, ys, {}, loc);
}

void FunctionGen::gen_while(const WhileStmt& s) {
  if (!s.orelse.empty()) fail(s.loc, "`while ... else` is not supported in triton");
  std::vector<std::string> carried = find_carried(s.body, "", nullptr, s.loc);
  const Scope live = scope_;
  std::vector<ir::Value*> inits;
  for (const auto& n : carried) flatten(*live.find(n), inits);
  std::vector<ir::Type> types;
  for (auto* x : inits) types.push_back(x->type);
  ir::Op* w = b_.create_while(inits, types, s.loc);
  std::vector<std::string> gone;
  auto bind_carried = [&](const std::vector<ir::Value*>& vals) {
    scope_ = live;
    size_t cursor = 0;
    for (const auto& n : carried) scope_.set(n, unflatten(*live.find(n), vals, cursor));
  };
  {
    ir::InsertionGuard g(b_);
    ir::Block& before = w->body(0);
    b_.set_insertion_end(&before);
    bind_carried(before.args);
    CValue c = eval(*s.test);
    if (!c.is_tensor())
      fail(s.test->loc, "the condition of a while loop must be a run-time value (got " + c.describe() +
                            "); a compile-time condition would make the loop static or infinite");
    std::vector<ir::Value*> ops{to_condition(ctx_, c, s.test->loc)};
    ops.insert(ops.end(), before.args.begin(), before.args.end());
    b_.create(ir::OpKind::Condition, ops, {}, s.loc);
  }
  {
    ir::InsertionGuard g(b_);
    ir::Block& after = w->body(1);
    b_.set_insertion_end(&after);
    bind_carried(after.args);
    ++loop_depth_;
    gen_stmts(s.body, 0, nullptr);
    --loop_depth_;
    yield_carried(carried, live, s.loc);
    gone = unbound_after(live, "");
  }
  bind_carried(w->results);
  for (const auto& n : gone) {
    scope_.erase(n);
    dead_ivs_.insert(n);
  }
}

}  // namespace tritium::frontend::cg
