// CPU renderer: structured control flow (for / if / while) and debugging ops.
//
// Loop-carried values, if results and while values get their own storage (a local, or an
// array for tensors) declared before the construct; region terminators assign to it.
// For loops assign in two phases (compute every yielded value, then copy), because a
// yielded value may read the carried storage it replaces.
#include <fmt/format.h>

#include <cmath>

#include "codegen/cpu/cpu_emitter.h"
#include "passes/known_positive.h"

namespace tritium::codegen::cpu {

using ir::Op;
using ir::OpKind;
using ir::ScalarType;
using ir::Value;

namespace {
/// A local (scalar) or array declaration for a value of type `t`.
std::string declare_storage(Emitter& e, const ir::Type& t, const char* prefix, Storage* s) {
  if (t.is_tensor()) {
    *s = Storage::Array;
    return e.declare_array(t, prefix);
  }
  *s = Storage::Scalar;
  std::string n = e.fresh(prefix);
  e.line(fmt::format("{} {} = {};", e.ctype(t), n, e.zero_of(t)));
  return n;
}
}  // namespace

void Emitter::emit_for(const Op& op) {
  const ir::Block& body = op.body();
  const size_t n = op.results.size();
  if (body.args.size() != n + 1 || op.operands.size() != n + 3) refuse(op, "malformed for");
  const ir::Type& ivt = body.args[0]->type;
  if (!ivt.is_int() || !ivt.is_scalar()) refuse(op, "induction variable must be a scalar integer");
  // Pointer tensors advanced by a uniform offset (p = p + splat(s)) are carried as their
  // initial value plus an int64 element offset; everything else gets its own storage.
  const Op* yield = body.ops.empty() ? nullptr : body.ops.back().get();
  if (!yield || yield->kind != OpKind::Yield || yield->operands.size() != n) refuse(op, "loop body must end in yield");
  std::vector<std::string> carried(n);
  std::vector<const Value*> step(n, nullptr);  // uniform offset of a carried pointer (null: unchanged)
  std::vector<bool> is_ptr_slot(n, false);
  for (size_t k = 0; k < n; ++k) {
    const Value* arg = body.args[k + 1];
    const Value* yv = yield->operands[k];
    if (arg->type.is_tensor() && arg->type.is_ptr) {
      bool ok = yv == arg;
      if (!ok && yv->def && yv->def->kind == OpKind::AddPtr && yv->def->operands[0] == arg &&
          dims_used(yv->def->operands[1]) == 0) {
        ok = true;
        step[k] = yv->def->operands[1];
      }
      if (ok) {
        is_ptr_slot[k] = true;
        carried[k] = fresh("po");
        line(fmt::format("int64_t {} = 0;", carried[k]));
        for (const Value* v : {arg, static_cast<const Value*>(op.results[k])}) {
          bind(v, carried[k], Storage::Virtual);
          carried_ptrs_[v] = CarriedPtr{op.operands[3 + k], carried[k]};
        }
        continue;
      }
    }
    Storage s;
    carried[k] = declare_storage(*this, op.results[k]->type, "c", &s);
    assign(carried[k], op.operands[3 + k]);
    bind(op.results[k], carried[k], s);
    bind(arg, carried[k], s);
  }
  // The trip count is computed once (as the interpreter does): iv = lb + k*step for
  // k < ceil((ub - lb) / step) when lb < ub, comparing by the iv type's signedness; a
  // non-positive step with lb < ub is a run-time error.
  const bool sgn = ir::is_signed_int(ivt.scalar);
  const char* wide = sgn ? "int64_t" : "uint64_t";
  std::string lb = fresh("lb"), ub = fresh("ub"), st = fresh("st"), trips = fresh("trips"), k = fresh("k");
  line(fmt::format("const {0} {1} = ({0}){2}, {3} = ({0}){4}, {5} = ({0}){6};", wide, lb, elem(op.operands[0], {}), ub,
                   elem(op.operands[1], {}), st, elem(op.operands[2], {})));
  line(fmt::format("uint64_t {} = 0;", trips));
  open(fmt::format("if ({} < {})", lb, ub));
  if (!passes::known_positive(op.operands[2])) {  // a positive constant or tl.num_programs needs no check
    open(fmt::format("if ({} <= 0)", st));
    line(fail_stmt({"error: for loop step must be positive at run time", std::string(op.loc.filename()),
                    static_cast<int64_t>(op.loc.line)}));
    line("return;");
    close();
  }
  if (cl_like())  // no 128-bit integers: ceil(d / st) as d / st + (d % st != 0)
    line(fmt::format("{0} = ((uint64_t){1} - (uint64_t){2}) / (uint64_t){3} + (((uint64_t){1} - (uint64_t){2}) % "
                     "(uint64_t){3} != 0);",
                     trips, ub, lb, st));
  else
    line(fmt::format("{} = (uint64_t)(((unsigned __int128)((uint64_t){} - (uint64_t){}) + (uint64_t){} - 1) / (uint64_t){});",
                     trips, ub, lb, st, st));
  close();
  open(fmt::format("for (uint64_t {0} = 0; {0} < {1}; ++{0})", k, trips));
  std::string ivn = fmt::format("s{}", body.args[0]->id);
  line(fmt::format("{} const {} = ({})((uint64_t){} + {} * (uint64_t){});", ctype(ivt), ivn, ctype(ivt), lb, k, st));
  bind(body.args[0], ivn, Storage::Scalar);
  terminator_handlers.push_back([&, n](const Op& y) {
    if (y.kind != OpKind::Yield || y.operands.size() != n) refuse(op, "loop body must yield the carried values");
    // A yielded elementwise chain that reads carried arrays only at the element it writes,
    // and only its own slot's (acc = acc + x * x), is written in place after every other
    // new value has been computed.
    std::vector<bool> in_place(n, false);
    for (size_t k = 0; k < n; ++k) {
      const Value* v = y.operands[k];
      if (is_ptr_slot[k] || v == body.args[k + 1] || v->type.is_scalar() || storage(v) != Storage::Virtual) continue;
      bool ok = true;
      std::vector<std::pair<const Value*, bool>> todo = {{v, false}};  // (value, reached through a view)
      while (ok && !todo.empty()) {
        auto [u, via_view] = todo.back();
        todo.pop_back();
        for (size_t j = 0; j < n; ++j)
          if (u == body.args[j + 1] && !is_ptr_slot[j]) ok = ok && j == k && !via_view;
        if (u->type.is_scalar() || carried_ptr(u) || storage(u) != Storage::Virtual || !u->def) continue;
        const bool view = is_view(u->def->kind) && u->def->kind != OpKind::Splat && u->def->kind != OpKind::Hint;
        for (auto* o : u->def->operands) todo.push_back({o, via_view || view});
      }
      in_place[k] = ok;
    }
    std::vector<std::string> src(n);
    for (size_t k = 0; k < n; ++k) {  // phase 1: evaluate everything that changes
      const Value* v = y.operands[k];
      if (v == body.args[k + 1]) continue;
      if (in_place[k]) continue;
      if (is_ptr_slot[k]) {
        const Value* u = step[k];
        src[k] = fresh("n");
        Idx zero{std::vector<std::string>(static_cast<size_t>(u->type.rank()), "0"), "0"};
        line(fmt::format("const int64_t {} = {} + (int64_t)({});", src[k], carried[k], elem(u, u->type.is_scalar() ? Idx{} : zero)));
        continue;
      }
      if (v->type.is_scalar()) {
        src[k] = fresh("n");
        line(fmt::format("{} const {} = {};", ctype(v->type), src[k], elem(v, {})));
      } else if (storage(v) == Storage::Array && v->def != nullptr && v->def->parent == &body) {
        src[k] = name(v);  // an array computed in this iteration: not carried, copy directly
      } else {
        src[k] = declare_array(v->type, "n");
        materialize_into(src[k], v);
      }
    }
    for (size_t k = 0; k < n; ++k)  // phase 2: in-place updates first (they read old values)
      if (in_place[k]) materialize_into(carried[k], y.operands[k]);
    for (size_t k = 0; k < n; ++k) {  // then every other carried value
      if (src[k].empty()) continue;
      const Value* v = y.operands[k];
      if (v->type.is_scalar() || is_ptr_slot[k]) line(fmt::format("{} = {};", carried[k], src[k]));
      else if (src[k] != carried[k]) line(fmt::format("memcpy({}, {}, {});", carried[k], src[k], bytes_of(v->type)));
    }
  });
  emit_block(body);
  terminator_handlers.pop_back();
  close();
}

void Emitter::emit_if(const Op& op) {
  if (op.regions.size() != 2) refuse(op, "if needs then and else regions");
  const size_t n = op.results.size();
  std::vector<std::string> res(n);
  for (size_t k = 0; k < n; ++k) {
    Storage s;
    res[k] = declare_storage(*this, op.results[k]->type, "r", &s);
    bind(op.results[k], res[k], s);
  }
  auto handler = [&, n](const Op& y) {
    if (y.kind != OpKind::Yield || y.operands.size() != n) refuse(op, "branch must yield the if's results");
    for (size_t k = 0; k < n; ++k) assign(res[k], y.operands[k]);
  };
  open(fmt::format("if ({})", elem(op.operands[0], {})));
  terminator_handlers.push_back(handler);
  emit_block(op.body(0));
  terminator_handlers.pop_back();
  close();
  if (!op.body(1).ops.empty() && !(op.body(1).ops.size() == 1 && n == 0)) {
    open("else");
    terminator_handlers.push_back(handler);
    emit_block(op.body(1));
    terminator_handlers.pop_back();
    close();
  }
}

void Emitter::emit_while(const Op& op) {
  if (op.regions.size() != 2) refuse(op, "while needs before and after regions");
  const ir::Block& before = op.body(0);
  const ir::Block& after = op.body(1);
  const size_t nb = op.operands.size(), na = op.results.size();
  if (before.args.size() != nb || after.args.size() != na) refuse(op, "malformed while");
  std::vector<std::string> wv(nb), rv(na);
  for (size_t k = 0; k < nb; ++k) {
    Storage s;
    wv[k] = declare_storage(*this, op.operands[k]->type, "w", &s);
    assign(wv[k], op.operands[k]);
    bind(before.args[k], wv[k], s);
  }
  for (size_t k = 0; k < na; ++k) {
    Storage s;
    rv[k] = declare_storage(*this, op.results[k]->type, "r", &s);
    bind(op.results[k], rv[k], s);
    bind(after.args[k], rv[k], s);
  }
  open("for (;;)");
  terminator_handlers.push_back([&, na](const Op& c) {
    if (c.kind != OpKind::Condition || c.operands.size() != na + 1) refuse(op, "before region must end in condition");
    std::string cond = fresh("cond");
    line(fmt::format("const uint8_t {} = {};", cond, elem(c.operands[0], {})));
    for (size_t k = 0; k < na; ++k) assign(rv[k], c.operands[k + 1]);
    line(fmt::format("if (!{}) break;", cond));
  });
  emit_block(before);
  terminator_handlers.pop_back();
  terminator_handlers.push_back([&, nb](const Op& y) {
    if (y.kind != OpKind::Yield || y.operands.size() != nb) refuse(op, "after region must yield the loop values");
    // Yielded values may read the while's values but never the before-region arguments,
    // so direct assignment is safe except for values that are themselves before-args.
    for (size_t k = 0; k < nb; ++k) assign(wv[k], y.operands[k]);
  });
  emit_block(after);
  terminator_handlers.pop_back();
  close();
}

void Emitter::emit_assert(const Op& op) {
  if (!opts_.debug) {
    line("// device_assert: inactive (not a debug build)");
    return;
  }
  const Value* c = op.operands[0];
  // The failing program runs on to its end (as in the interpreter); the runtime raises.
  std::string file = op.attr_str("file");
  if (file.empty()) file = std::string(op.loc.filename());
  const int64_t ln = op.has_attr("line") ? op.attr_int("line") : static_cast<int64_t>(op.loc.line);
  const std::string call = fail_stmt({op.attr_str("msg"), file, ln});
  if (c->type.is_scalar()) {
    open(fmt::format("if (!{})", elem(c, {})));
    line(call);
    close();
    return;
  }
  std::string bad = fresh("bad");
  line(fmt::format("uint8_t {} = 0;", bad));
  loop_nest(c->type.shape, [&](const Idx& i) { line(fmt::format("{} |= (uint8_t)!{};", bad, elem(c, i))); });
  open(fmt::format("if ({})", bad));
  line(call);
  close();
}

std::vector<std::string> Emitter::failure_messages() const {
  std::vector<std::string> out;
  for (const Failure& f : failures_) {
    const std::string what =
        f.message.rfind("error: ", 0) == 0 ? f.message.substr(7) : "device_assert failed: " + f.message;
    out.push_back(fmt::format("{} at {}:{} in {}", what, f.file, f.line, fn_.name));
  }
  return out;
}

std::string Emitter::fail_stmt(const Failure& f) {
  if (!cl_like())
    return fmt::format("host->assert_fail({}, {}, {}, {}, pid0, pid1, pid2);", c_string(f.message), c_string(f.file),
                       f.line, c_string(fn_.name));
  failures_.push_back(f);
  if (cx_.msl())
    return fmt::format("if (!tr_failed_) {{ tr_failed_ = 1; tr_fail(tr_status, tr_key0 + {}u); }}", failures_.size() - 1);
  return fmt::format("if (!tr_failed_) {{ tr_failed_ = 1; tr_fail(tr_status, {}); }}", failures_.size());
}

void Emitter::emit_print(const Op& op) {
  if (cx_.msl()) refuse(op, std::string("tl.device_print is not lowered by the ") + cx_.renderer_name() + " yet");
  // One line per operand element, as upstream device_print and the interpreter:
  //   "pid (x, y, z) idx (i, j)<prefix>[(operand k) ]<value>"
  // C++: snprintf into a buffer handed to host->print (the launcher's stdout, one line at a
  // time); OpenCL C: the kernel's own printf (OpenCL 1.2), whose 64-bit conversions are %ld /
  // %lu / %lx on long / ulong.
  const bool cl = cx_.opencl();
  const char* ll = cl ? "l" : "ll";
  const char* sll = cl ? "long" : "long long";
  const char* ull = cl ? "ulong" : "unsigned long long";
  const bool hex = op.attr_int("hex", 0) != 0;
  const std::string prefix = op.attr_str("prefix");
  const std::string head = "pid (%d, %d, %d)";
  auto emit_line = [&](const std::string& f, const std::string& args) {
    if (cl) return line(fmt::format("printf({}, pid0, pid1, pid2{});", c_string(f + "\n"), args));
    line(fmt::format("{{ char buf_[1024]; snprintf(buf_, sizeof buf_, {}, pid0, pid1, pid2{}); host->print(buf_); }}",
                     c_string(f), args));
  };
  auto esc = [](const std::string& s) {  // a literal part of a printf format
    std::string o;
    for (char c : s) o += c == '%' ? std::string("%%") : std::string(1, c);
    return o;
  };
  if (op.operands.empty()) {
    emit_line(head + esc(prefix), "");
    return;
  }
  const size_t nops = op.operands.size();
  for (size_t k = 0; k < nops; ++k) {
    const Value* v = op.operands[k];
    const ScalarType S = v->type.scalar;
    const std::string opnd = nops > 1 ? fmt::format("(operand {}) ", k) : "";
    std::vector<int> widths;
    for (int64_t d : v->type.shape)
      widths.push_back(d > 1 ? static_cast<int>(std::ceil(std::log10(static_cast<double>(d)))) : 0);
    auto one = [&](const Idx& i) {
      std::string e = elem(v, i), vf, va;
      const int bits = ir::bitwidth(S);
      const char* ubits = bits == 64 ? "uint64_t" : bits == 32 ? "uint32_t" : bits == 16 ? "uint16_t" : "uint8_t";
      if (v->type.is_ptr) {
        vf = fmt::format("0x%{}x", ll);
        va = fmt::format("({})(uintptr_t)({})", ull, e);
      } else if (hex) {
        vf = fmt::format("0x%0{}{}x", bits <= 1 ? 1 : (bits + 3) / 4, ll);
        va = S == ScalarType::I1 ? fmt::format("({})({})", ull, e) : fmt::format("({}){}", ull, tcall("tr_bits", ubits, e));
      } else if (ir::is_float(S)) {
        vf = "%f";
        va = fmt::format("(double)({})", to_compute(S, e));
      } else if (ir::is_signed_int(S)) {
        vf = fmt::format("%{}d", ll);
        va = fmt::format("({})({})", sll, e);
      } else {
        vf = fmt::format("%{}u", ll);
        va = fmt::format("({})({})", ull, e);
      }
      std::string f = head + " idx (", args;
      for (size_t d = 0; d < i.dims.size(); ++d) {
        f += fmt::format("{}%{}{}d", d ? ", " : "", widths[d], ll);
        args += fmt::format(", ({})({})", sll, i.dims[d]);
      }
      f.append(")").append(esc(prefix)).append(esc(opnd)).append(vf);
      emit_line(f, args + ", " + va);
    };
    if (v->type.is_scalar()) one({});
    else loop_nest(v->type.shape, one);
  }
}

}  // namespace tritium::codegen::cpu
