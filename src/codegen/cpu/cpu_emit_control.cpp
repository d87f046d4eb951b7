// CPU renderer: structured control flow (for / if / while) and debugging ops.
//
// Loop-carried values, if results and while values get their own storage (a local, or an
// array for tensors) declared before the construct; region terminators assign to it.
// For loops assign in two phases (compute every yielded value, then copy), because a
// yielded value may read the carried storage it replaces.
#include <fmt/format.h>

#include "codegen/cpu/cpu_emitter.h"

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
  e.line(fmt::format("{} {} = {};", Emitter::ctype(t), n, Emitter::zero_of(t)));
  return n;
}
}  // namespace

void Emitter::emit_for(const Op& op) {
  const ir::Block& body = op.body();
  const size_t n = op.results.size();
  if (body.args.size() != n + 1 || op.operands.size() != n + 3) refuse(op, "malformed for");
  const ir::Type& ivt = body.args[0]->type;
  if (!ivt.is_int() || !ivt.is_scalar()) refuse(op, "induction variable must be a scalar integer");
  std::vector<std::string> carried(n);
  for (size_t k = 0; k < n; ++k) {
    Storage s;
    carried[k] = declare_storage(*this, op.results[k]->type, "c", &s);
    assign(carried[k], op.operands[3 + k]);
    bind(op.results[k], carried[k], s);
    bind(body.args[k + 1], carried[k], s);
  }
  // The induction variable runs in a 64-bit counter (no overflow at the end of the range).
  const char* wide = ivt.scalar == ScalarType::U64 ? "uint64_t" : "int64_t";
  std::string iv = fresh("iv");
  open(fmt::format("for ({0} {1} = ({0}){2}; {1} < ({0}){3}; {1} += ({0}){4})", wide, iv, elem(op.operands[0], {}),
                   elem(op.operands[1], {}), elem(op.operands[2], {})));
  std::string ivn = fmt::format("s{}", body.args[0]->id);
  line(fmt::format("const {} {} = ({}){};", ctype(ivt), ivn, ctype(ivt), iv));
  bind(body.args[0], ivn, Storage::Scalar);
  terminator_handlers.push_back([&, n](const Op& y) {
    if (y.kind != OpKind::Yield || y.operands.size() != n) refuse(op, "loop body must yield the carried values");
    std::vector<std::string> src(n);
    for (size_t k = 0; k < n; ++k) {  // phase 1: evaluate everything that changes
      const Value* v = y.operands[k];
      if (v == body.args[k + 1]) continue;
      if (v->type.is_scalar()) {
        src[k] = fresh("n");
        line(fmt::format("const {} {} = {};", ctype(v->type), src[k], elem(v, {})));
      } else if (storage(v) == Storage::Array && v->def != nullptr && v->def->parent == &body) {
        src[k] = name(v);  // an array computed in this iteration: not carried, copy directly
      } else {
        src[k] = declare_array(v->type, "n");
        materialize_into(src[k], v);
      }
    }
    for (size_t k = 0; k < n; ++k) {  // phase 2: update the carried storage
      if (src[k].empty()) continue;
      const Value* v = y.operands[k];
      if (v->type.is_scalar()) line(fmt::format("{} = {};", carried[k], src[k]));
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
  std::string call = fmt::format("host->assert_fail({}, {}, {}, {}, pid0, pid1, pid2); return;", c_string(op.attr_str("msg")),
                                 c_string(op.attr_str("file", std::string(op.loc.filename()))),
                                 op.attr_int("line", op.loc.line), c_string(op.attr_str("func", fn_.name)));
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

void Emitter::emit_print(const Op& op) {
  const bool hex = op.attr_int("hex", 0) != 0;
  const std::string prefix = op.attr_str("prefix");
  if (op.operands.empty()) {
    line(fmt::format("{{ char buf_[512]; snprintf(buf_, sizeof buf_, \"pid (%d, %d, %d) %s\", pid0, pid1, pid2, {}); "
                     "host->print(buf_); }}",
                     c_string(prefix)));
    return;
  }
  const size_t nops = op.operands.size();
  for (size_t k = 0; k < nops; ++k) {
    const Value* v = op.operands[k];
    if (v->type.is_ptr) refuse(op, "printing pointers");
    auto one = [&](const Idx& i, const std::string& idx_fmt, const std::string& idx_args) {
      const ScalarType S = v->type.scalar;
      std::string e = elem(v, i), vf, va;
      if (ir::is_float(S) && !hex) {
        vf = "%.9g";
        va = fmt::format("(double)({})", to_compute(S, e));
      } else if (ir::is_float(S)) {
        vf = "0x%llx";
        va = fmt::format("(unsigned long long)tr_bits<{}>({})", S == ScalarType::F64 ? "uint64_t" : S == ScalarType::F32 ? "uint32_t" : ir::byte_size(S) == 2 ? "uint16_t" : "uint8_t", e);
      } else if (hex || !ir::is_signed_int(S) || S == ScalarType::I1) {
        vf = hex ? "0x%llx" : "%llu";
        va = fmt::format("(unsigned long long)tr_ubits({})", e);
        if (S == ScalarType::I1) va = fmt::format("(unsigned long long)({})", e);
      } else {
        vf = "%lld";
        va = fmt::format("(long long)({})", e);
      }
      std::string opnd = nops > 1 ? fmt::format("(operand {}) ", k) : "";
      line(fmt::format("{{ char buf_[512]; snprintf(buf_, sizeof buf_, \"pid (%d, %d, %d) {}%s{}{}\", pid0, pid1, pid2{}, "
                       "{}, {}); host->print(buf_); }}",
                       idx_fmt, opnd, vf, idx_args, c_string(prefix), va));
    };
    if (v->type.is_scalar()) {
      one({}, "", "");
      continue;
    }
    loop_nest(v->type.shape, [&](const Idx& i) {
      std::string f = "idx (", args;
      for (size_t d = 0; d < i.dims.size(); ++d) {
        f += d ? ", %lld" : "%lld";
        args += fmt::format(", (long long){}", i.dims[d]);
      }
      f += ") ";
      one(i, f, args);
    });
  }
}

}  // namespace tritium::codegen::cpu
