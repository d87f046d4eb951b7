// CPU renderer: loads, stores and atomics. Masked-off lanes never touch memory; a
// masked-off load without `other` gives 0 and a masked-off atomic returns 0. int1 is one
// byte in memory: loads give (byte != 0), stores write 0 or 1.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <unordered_set>

#include "codegen/cpu/cpu_emitter.h"

namespace tritium::codegen::cpu {

using ir::Op;
using ir::OpKind;
using ir::ScalarType;
using ir::Value;

void Emitter::emit_load(const Op& op) {
  const Value* ptr = op.operands[0];
  const Value* mask = op.operands.size() >= 2 ? op.operands[1] : nullptr;
  const Value* other = op.operands.size() >= 3 ? op.operands[2] : nullptr;
  const Value* r = op.results[0];
  if (!ptr->type.is_ptr) refuse(op, "operand is not a pointer");
  // OpenCL C: in a kernel with atomics (a lock, a counter other programs advance) every
  // load is volatile, so a value another work-group published is read from memory, not a
  // cache that is not coherent across compute units (NVIDIA's L1).
  const bool vol = op.attr_int("volatile", 0) != 0 || (cl_like() && has_atomics_);
  const bool san = sanitizing();
  auto value = [&](const Idx& i) {
    std::string p = elem(ptr, i);
    std::string v = cx_.load(ptr->type, p, vol);
    if (san) v = sanitized_load(op, ptr, p, v, poison_of(r->type.scalar));
    if (!mask) return v;
    std::string m = elem(mask, i);
    std::string o = other ? elem(other, i) : san ? poison_of(r->type.scalar) : zero_of(r->type.element());
    return fmt::format("{} ? {} : {}", m, v, o);
  };
  if (r->type.is_scalar()) {
    std::string n = fmt::format("s{}", r->id);
    line(fmt::format("{} const {} = {};", ctype(r->type), n, value({})));
    bind(r, n, Storage::Scalar);
    return;
  }
  std::string n = declare_array(r->type, "v");
  // Where it is safe, the value is a pointer: at the row in memory when the fast path finds
  // every lane valid, else at the filled local array (streaming kernels then read memory
  // once, in the loop that uses the values, instead of copying every block first).
  std::string alias;
  if (load_may_alias(op)) {
    alias = fresh("vp");
    line(fmt::format("const {}* {} = {};", ctype(r->type.element()), alias, n));
  }
  const std::string row_bytes = bytes_of(r->type);
  const FastAccess fast = emit_fast_access(op, n, alias);
  if (fast != FastAccess::kAlways) {
    if (fast == FastAccess::kGuarded) open("else");
    loop_nest(r->type.shape, [&](const Idx& i) { line(fmt::format("{}[{}] = {};", n, i.lin, value(i))); });
    if (fast == FastAccess::kGuarded) close();
  }
  if (!alias.empty()) aliased_loads.push_back(AliasedLoad{alias, n, row_bytes});
  bind(r, alias.empty() ? n : alias, Storage::Array);
  // Used as numbers: decode the block once, in bulk, into its twin (see cpu_emitter.h).
  if (!cl_like() && !r->type.is_ptr && r->type.scalar == ScalarType::F16 && used_as_number(r)) {
    std::string d = fresh("vd");
    line(fmt::format("alignas(64) float {}[{}];", d, r->type.numel()));
    array_bytes_ += r->type.numel() * 4;
    line(fmt::format("tr_h2f_n({}, {}, {});", d, name(r), r->type.numel()));
    twins_[r] = d;
  }
}

bool Emitter::load_may_alias(const Op& op) const {
  return !cl_like() && op.results[0]->type.rank() == 1 && !op.attr_int("volatile", 0) &&
         op.operands[0]->type.scalar != ScalarType::I1;
}

void Emitter::snapshot_aliased_loads(const std::function<std::string(const AliasedLoad&)>& overlap_with) {
  for (const AliasedLoad& a : aliased_loads) {
    const std::string cond = overlap_with ? overlap_with(a) : "";
    open(fmt::format("if ((const void*){} != (const void*){}{})", a.ptr, a.buf, cond.empty() ? "" : " && " + cond));
    line(fmt::format("memcpy({}, {}, {});", a.buf, a.ptr, a.bytes));
    line(fmt::format("{} = {};", a.ptr, a.buf));
    close();
  }
}

void Emitter::emit_store(const Op& op) {
  const Value* ptr = op.operands[0];
  const Value* val = op.operands[1];
  const Value* mask = op.operands.size() >= 3 ? op.operands[2] : nullptr;
  if (!ptr->type.is_ptr) refuse(op, "operand is not a pointer");
  const bool san = sanitizing();
  auto body = [&](const Idx& i) {
    std::string p = elem(ptr, i);
    std::string v = elem(val, i);
    if (ptr->type.scalar == ScalarType::I1) v = fmt::format("(uint8_t)({} & 1)", v);
    std::string st = fmt::format("*({}) = {};", p, v);
    if (san) st = sanitized_store(op, ptr, p, st);
    if (mask) line(fmt::format("if ({}) {{ {} }}", elem(mask, i), st));
    else line(st);
  };
  if (ptr->type.is_scalar()) {
    snapshot_aliased_loads(nullptr);
    body({});
    return;
  }
  const FastAccess fast = emit_fast_access(op, "");  // snapshots per row where it is taken
  if (fast == FastAccess::kAlways) return;
  if (fast == FastAccess::kGuarded) open("else");
  snapshot_aliased_loads(nullptr);
  loop_nest(ptr->type.shape, body);
  if (fast == FastAccess::kGuarded) close();
}

void Emitter::assign_per_element(const Value* r, const std::function<void(const Idx&, const std::string&)>& body) {
  if (r->type.is_scalar()) {
    std::string n = fmt::format("s{}", r->id);
    line(fmt::format("{} {};", ctype(r->type), n));
    body({}, n);
    bind(r, n, Storage::Scalar);
    return;
  }
  std::string n = declare_array(r->type, "v");
  loop_nest(r->type.shape, [&](const Idx& i) { body(i, fmt::format("{}[{}]", n, i.lin)); });
  bind(r, n, Storage::Array);
}

void Emitter::emit_atomic_rmw(const Op& op) {
  if (cl_like()) return emit_atomic_cl(op);
  const Value* ptr = op.operands[0];
  const Value* val = op.operands[1];
  const Value* mask = op.operands.size() >= 3 ? op.operands[2] : nullptr;
  const Value* r = op.results[0];
  const ScalarType S = ptr->type.scalar;
  const std::string rmw = op.attr_str("rmw");
  const std::string T = ctype(ir::Type::of(S));
  if (S == ScalarType::I1 || ir::is_fp8(S)) refuse(op, std::string("atomics on ") + std::string(ir::name(S)));
  if (cx_.msl() && ir::bitwidth(S) != 32)  // MSL: 32-bit device atomics only (64-bit ones are not on every Apple GPU)
    refuse(op, std::string("atomics on ") + std::string(ir::name(S)) +
                   " are not lowered by the MSL renderer yet (it has 32-bit device atomics only)");
  auto call = [&](const std::string& p, const std::string& v) -> std::string {
    if (!ir::is_float(S)) {
      if (rmw == "add" || rmw == "and" || rmw == "or" || rmw == "xor" || rmw == "max" || rmw == "min" ||
          rmw == "xchg")
        return fmt::format("tr_atomic_{}<{}>({}, {})", rmw, T, p, v);
      refuse(op, "atomic '" + rmw + "' on integers");
    }
    const char* bits = S == ScalarType::F64 ? "uint64_t" : S == ScalarType::F32 ? "uint32_t" : "uint16_t";
    if (rmw == "xchg")
      return fmt::format("tr_bits<{}>(tr_atomic_xchg<{}>(({}*)({}), tr_bits<{}>({})))", T, bits, bits, p, bits, v);
    std::string ct = compute_type(S);
    // The old value in the compute type, and the updated value back as bits.
    std::string old_v = to_compute(S, fmt::format("tr_bits<{}>(o_)", T));
    std::string new_v = to_compute(S, fmt::format("({})", v));
    std::string upd;
    if (rmw == "fadd" || rmw == "add") upd = fmt::format("{} + {}", old_v, new_v);
    else if (rmw == "max") upd = fmt::format("tr_fmax<{}>({}, {})", ct, old_v, new_v);
    else if (rmw == "min") upd = fmt::format("tr_fmin<{}>({}, {})", ct, old_v, new_v);
    else refuse(op, "atomic '" + rmw + "' on floats");
    return fmt::format("tr_bits<{}>(tr_atomic_update(({}*)({}), [&]({} o_) {{ return tr_bits<{}>({}); }}))", T, bits,
                       p, bits, bits, from_compute(S, upd));
  };
  const bool san = opts_.sanitize;
  auto body = [&](const Idx& i, const std::string& dst) {
    std::string p = elem(ptr, i);
    std::string v = elem(val, i);
    std::string c = call(p, v);
    if (san) c = sanitized_load(op, ptr, p, c, poison_of(S), 2);
    if (mask) {
      std::string m = elem(mask, i);
      line(fmt::format("{} = {} ? {} : {};", dst, m, c, zero_of(r->type.element())));
    } else {
      line(fmt::format("{} = {};", dst, c));
    }
  };
  assign_per_element(r, body);
}

void Emitter::emit_atomic_cas(const Op& op) {
  if (cl_like()) return emit_atomic_cl(op);
  const Value* ptr = op.operands[0];
  const Value* cmp = op.operands[1];
  const Value* val = op.operands[2];
  const Value* r = op.results[0];
  const ScalarType S = ptr->type.scalar;
  if (S == ScalarType::I1 || ir::is_fp8(S)) refuse(op, std::string("atomics on ") + std::string(ir::name(S)));
  if (cx_.msl() && ir::bitwidth(S) != 32)  // MSL: 32-bit device atomics only (64-bit ones are not on every Apple GPU)
    refuse(op, std::string("atomics on ") + std::string(ir::name(S)) +
                   " are not lowered by the MSL renderer yet (it has 32-bit device atomics only)");
  const std::string T = ctype(ir::Type::of(S));
  auto call = [&](const Idx& i) {
    std::string p = elem(ptr, i), c = elem(cmp, i), v = elem(val, i);
    std::string e;
    if (!ir::is_float(S)) {
      e = fmt::format("tr_atomic_cas<{}>({}, {}, {})", T, p, c, v);
    } else {
      const char* bits = S == ScalarType::F64 ? "uint64_t" : S == ScalarType::F32 ? "uint32_t" : "uint16_t";
      e = fmt::format("tr_bits<{}>(tr_atomic_cas<{}>(({}*)({}), tr_bits<{}>({}), tr_bits<{}>({})))", T, bits, bits, p,
                      bits, c, bits, v);
    }
    return opts_.sanitize ? sanitized_load(op, ptr, p, e, poison_of(S), 2) : e;
  };
  if (r->type.is_scalar()) {
    std::string n = fmt::format("s{}", r->id);
    line(fmt::format("{} const {} = {};", ctype(r->type), n, call({})));
    bind(r, n, Storage::Scalar);
    return;
  }
  std::string n = declare_array(r->type, "v");
  loop_nest(r->type.shape, [&](const Idx& i) { line(fmt::format("{}[{}] = {};", n, i.lin, call(i))); });
  bind(r, n, Storage::Array);
}

void Emitter::emit_atomic_cl(const Op& op) {
  // OpenCL C: every atomic is a compare-and-swap loop on the element's bits (tr_cas_uN of
  // the OpenCL prelude), the update written inline; same results as the C++ helpers.
  const bool cas = op.kind == OpKind::AtomicCAS;
  const Value* ptr = op.operands[0];
  const Value* val = op.operands[cas ? 2 : 1];
  const Value* cmp = cas ? op.operands[1] : nullptr;
  const Value* mask = !cas && op.operands.size() >= 3 ? op.operands[2] : nullptr;
  const Value* r = op.results[0];
  const ScalarType S = ptr->type.scalar;
  if (S == ScalarType::I1 || ir::is_fp8(S)) refuse(op, std::string("atomics on ") + std::string(ir::name(S)));
  if (cx_.msl() && ir::bitwidth(S) != 32)  // MSL: 32-bit device atomics only (64-bit ones are not on every Apple GPU)
    refuse(op, std::string("atomics on ") + std::string(ir::name(S)) +
                   " are not lowered by the MSL renderer yet (it has 32-bit device atomics only)");
  const std::string rmw = cas ? "cas" : op.attr_str("rmw");
  const std::string T = CExpr::ctype(ir::Type::of(S));
  const int bits = ir::bitwidth(S);
  const std::string B = fmt::format("uint{}_t", bits);
  const bool fl = ir::is_float(S);
  auto value_of = [&](const std::string& b) { return fl || ir::is_signed_int(S) ? tcall("tr_bits", T, b) : b; };
  auto bits_of = [&](const std::string& v) { return fl || ir::is_signed_int(S) ? tcall("tr_bits", B, v) : v; };
  // The new value from the old one (`o`, of type T) and the operand `v`.
  auto update = [&](const std::string& o, const std::string& v) -> std::string {
    if (rmw == "xchg") return v;
    if (fl) {
      const std::string ct = compute_type(S);
      const std::string a = to_compute(S, o), b = to_compute(S, "(" + v + ")");
      if (rmw == "fadd" || rmw == "add") return from_compute(S, fmt::format("({} + {})", a, b));
      if (rmw == "max") return from_compute(S, tcall("tr_fmax", ct, a + ", " + b));
      if (rmw == "min") return from_compute(S, tcall("tr_fmin", ct, a + ", " + b));
      refuse(op, "atomic '" + rmw + "' on floats");
    }
    if (rmw == "add") return tcall("tr_add", T, o + ", " + v);
    if (rmw == "and") return fmt::format("({})({} & {})", T, o, v);
    if (rmw == "or") return fmt::format("({})({} | {})", T, o, v);
    if (rmw == "xor") return fmt::format("({})({} ^ {})", T, o, v);
    if (rmw == "max") return tcall("tr_imax", T, o + ", " + v);
    if (rmw == "min") return tcall("tr_imin", T, o + ", " + v);
    refuse(op, "atomic '" + rmw + "' on integers");
  };
  // A device-memory fence on either side (OpenCL C 1.2 atomics and MSL's are relaxed); MSL:
  // a device-scope fence (MSL 3.2), which orders against other threadgroups' programs, as a
  // threadgroup_barrier would not.
  const char* fence = cx_.msl() ? "atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);"
                                : "mem_fence(CLK_GLOBAL_MEM_FENCE);";
  auto body = [&](const Idx& i, const std::string& dst) {
    const std::string p = elem(ptr, i), v = elem(val, i);
    const std::string c = cas ? elem(cmp, i) : "";
    if (mask) open(fmt::format("if ({})", elem(mask, i)));
    else open("");
    // Sanitize mode (msl-emu): an access outside its buffer is reported and skipped.
    const std::string ok = sanitizing() ? san_condition(ptr, p) : "";
    if (!ok.empty()) {
      open(fmt::format("if (!{})", ok));
      line(san_report(op, ptr, p, 2) + ";");
      line(fmt::format("{} = {};", dst, poison_of(S)));
      close();
      open("else");
    }
    line(fmt::format("{0} {1}* const ap_ = ({0} {1}*)({2});", cx_.space(), B, p));
    line(fence);
    if (cas) {
      line(fmt::format("{} = {};", dst, value_of(fmt::format("tr_cas_u{}(ap_, {}, {})", bits, bits_of(c), bits_of(v)))));
    } else {
      if (cx_.msl())  // the word is only ever accessed atomically
        line(fmt::format("{} o_ = atomic_load_explicit((device atomic_uint*)ap_, memory_order_relaxed);", B));
      else
        line(fmt::format("{} o_ = *(volatile {} {}*)ap_;", B, cx_.space(), B));
      open("for (;;)");
      line(fmt::format("const {} n_ = {};", B, bits_of(update(value_of("o_"), v))));
      line(fmt::format("const {} s_ = tr_cas_u{}(ap_, o_, n_);", B, bits));
      line("if (s_ == o_) break;");
      line("o_ = s_;");
      close();
      line(fmt::format("{} = {};", dst, value_of("o_")));
    }
    line(fence);
    if (!ok.empty()) close();
    close();
    if (mask) line(fmt::format("else {} = {};", dst, zero_of(r->type.element())));
  };
  assign_per_element(r, body);
}

int Emitter::pointer_root(const Value* v) {
  if (auto it = pointer_roots_.find(v); it != pointer_roots_.end()) return it->second;
  constexpr int kAny = -1, kUnchecked = -2;
  int root = kUnchecked;
  if (!v->def) {
    const Op* owner = v->block ? v->block->parent : nullptr;
    if (v->block && !owner) {
      root = v->index;  // a function parameter: its slot
    } else if (owner && owner->kind == OpKind::For && v->index >= 1 &&
               static_cast<size_t>(v->index) + 2 < owner->operands.size()) {
      // A loop-carried pointer (body args: iv, iters...; operands: lb, ub, step, inits...):
      // its initial value's root when what the body yields for it has that root too. The
      // yield is walked with v provisionally at that root; if the walk disagrees, every
      // root it memoized (some derived from the provisional one) is dropped.
      root = pointer_root(owner->operands[static_cast<size_t>(v->index) + 2]);
      const size_t k = static_cast<size_t>(v->index) - 1;
      const ir::Block& body = owner->regions.at(0)->block;
      if (root != kUnchecked && !body.ops.empty() && k < body.ops.back()->operands.size()) {
        const auto saved = pointer_roots_;
        pointer_roots_[v] = root;
        const int yielded = pointer_root(body.ops.back()->operands[k]);
        if (yielded != root) {
          pointer_roots_ = saved;
          root = yielded == kUnchecked ? kUnchecked : kAny;
        }
      }
    }
    // Other region arguments (while loops, reduce / scan combines) are not traced.
  } else if (v->def->regions.empty() && v->def->kind != OpKind::Load) {
    // Results of region ops (for / while / if results) and pointers loaded from memory are
    // not traced (unchecked, like raw pointers): the root of what a region yields is not
    // its operands'.
    bool first = true;
    for (const Value* o : v->def->operands) {
      if (!o->type.is_ptr) continue;
      const int r = pointer_root(o);
      if (first) root = r, first = false;
      else if (r != root) root = (r == kUnchecked || root == kUnchecked) ? kUnchecked : kAny;
    }
  }
  pointer_roots_[v] = root;
  return root;
}

std::string Emitter::poison_of(ScalarType t) const {
  switch (t) {
    case ScalarType::F16: return "(uint16_t)0x7e5a";
    case ScalarType::BF16: return "(uint16_t)0x7fe5";
    case ScalarType::F32: return tcall("tr_bits", "float", "(uint32_t)0x7fc0a5a5u");
    case ScalarType::F64: return tcall("tr_bits", "double", "(uint64_t)0x7ff8a5a5a5a5a5a5ull");
    case ScalarType::I1: return "(uint8_t)1";
    default: return fmt::format("({})0xa5a5a5a5a5a5a5a5ull", ctype(ir::Type::of(t)));
  }
}

namespace {
// The report's source position and the argument's name of a checked access.
struct SanSite {
  std::string file;
  int64_t line;
  std::string what;
};
SanSite san_site(const Op& op, const ir::Function& fn, int root) {
  SanSite s{std::string(op.loc.filename()), static_cast<int64_t>(op.loc.line), "a pointer"};
  if (root >= 0 && static_cast<size_t>(root) < fn.body.args.size() && !fn.body.args[root]->name.empty())
    s.what = fn.body.args[root]->name;
  else if (root >= 0)
    s.what = fmt::format("argument {}", root);
  return s;
}
}  // namespace

std::string Emitter::san_condition(const Value* ptr, const std::string& p) {
  const int root = pointer_root(ptr);
  if (root == -2) return "";  // from an integer or from memory: no extent known
  return fmt::format("tr_san_ok(host, {0}, {1}, (const void*)({2}), sizeof(*({2})))", root, fn_.body.args.size(), p);
}

std::string Emitter::san_report(const Op& op, const Value* ptr, const std::string& p, int kind) {
  const int root = pointer_root(ptr);
  const SanSite site = san_site(op, fn_, root);
  return fmt::format("tr_san_fail(host, {0}, (const void*)({1}), sizeof(*({1})), {2}, {3}, {4}, {5}, {6}, pid0, pid1, pid2)",
                     root, p, kind, c_string(site.what), c_string(site.file), site.line, c_string(fn_.name));
}

std::string Emitter::sanitized_load(const Op& op, const Value* ptr, const std::string& p, const std::string& load,
                                    const std::string& fallback, int kind) {
  const std::string ok = san_condition(ptr, p);
  if (ok.empty()) return load;
  return fmt::format("({} ? {} : ({}, {}))", ok, load, san_report(op, ptr, p, kind), fallback);
}

std::string Emitter::sanitized_store(const Op& op, const Value* ptr, const std::string& p, const std::string& store) {
  const std::string ok = san_condition(ptr, p);
  if (ok.empty()) return store;
  return fmt::format("if ({}) {{ {} }} else {};", ok, store, san_report(op, ptr, p, 1));
}

}  // namespace tritium::codegen::cpu
