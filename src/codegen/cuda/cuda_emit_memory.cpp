// CUDA renderer: loads, stores and atomics.
//
// A tensor access is done by each thread for the registers of the access's layout (the
// anchor: coalesced by axis analysis, cuda_layouts.h). Registers whose low bits run along
// the contiguous dimension are accessed as one vector of up to 16 bytes when axis analysis
// proves the pointers contiguous and aligned over the vector and the mask constant there.
// Stores and atomics are done by one holder per element only (no broadcast lane / warp bit
// set, no duplicate register); an atomic's old values are then shared with the other
// holders through shared memory. A store followed (in program order) by a load puts a block
// barrier before the load, so a program reads what its own threads wrote, as on the CPU; a
// store after loads or stores puts one before the store — unless every such access went
// through the same pointer value in the same layout with one holder per element (then each
// element is read and written by one thread, in program order). So no thread reads a value
// its program overwrites after it, stores land in program order, and scalars stay uniform.
// Scalar stores and atomics are done by thread 0 (the old value is broadcast).
#include <fmt/format.h>

#include "codegen/cuda/cuda_emitter.h"

namespace tritium::codegen::cuda {

using ir::Op;
using ir::OpKind;
using ir::ScalarType;
using ir::Value;

namespace {

int elem_bytes(const ir::Type& t) { return t.is_ptr ? 8 : std::max(1, ir::byte_size(t.scalar)); }

// A tensor whose every element is one constant (a constant op, or a splat / broadcast of one).
bool constant_tensor(const Value* v) {
  while (v->def && (v->def->kind == OpKind::Splat || v->def->kind == OpKind::Broadcast)) v = v->def->operands[0];
  return v->def && v->def->kind == OpKind::Constant;
}

}  // namespace

int access_vector(const Emitter& e, const LinearLayout& l, const Value* ptr, const Value* mask, int eb, int* dim) {
  if (l.bits(HwDim::Register) == 0 || e.opencl()) return 1;  // OpenCL: element by element
  const auto& b0 = l.basis(HwDim::Register, 0);
  int d0 = -1;
  for (size_t d = 0; d < b0.size(); ++d)
    if (b0[d] == 1) d0 = static_cast<int>(d);
  if (d0 < 0) return 1;
  int v = 1;
  while (v * 2 * eb <= 16 && __builtin_ctz(static_cast<unsigned>(v * 2)) <= l.bits(HwDim::Register)) {
    const int k = __builtin_ctz(static_cast<unsigned>(v));
    const auto& b = l.basis(HwDim::Register, k);
    bool unit = b[static_cast<size_t>(d0)] == v;
    for (size_t d = 0; d < b.size(); ++d) unit = unit && (static_cast<int>(d) == d0 || b[d] == 0);
    if (!unit) break;
    v *= 2;
  }
  const passes::AxisInfo pi = e.axis().get(ptr);
  while (v > 1 && (pi.contiguity[static_cast<size_t>(d0)] < v || pi.divisibility[static_cast<size_t>(d0)] < v * eb)) v /= 2;
  if (mask && mask->type.is_tensor()) {
    const passes::AxisInfo mi = e.axis().get(mask);
    while (v > 1 && mi.constancy[static_cast<size_t>(d0)] < v) v /= 2;
  }
  if (v * eb < 4) v = 1;  // vectors of at least one 32-bit word
  *dim = d0;
  return v;
}

std::string unpack_word(const std::string& w, int i, int eb, const std::string& T) {
  switch (eb) {
    case 8: return fmt::format("tr_bits<{}>(((uint64_t){}[{}] << 32) | {}[{}])", T, w, 2 * i + 1, w, 2 * i);
    case 4: return fmt::format("tr_bits<{}>({}[{}])", T, w, i);
    case 2: return fmt::format("tr_bits<{}>((uint16_t)({}[{}] >> {}))", T, w, i / 2, 16 * (i % 2));
    default: return fmt::format("tr_bits<{}>((uint8_t)({}[{}] >> {}))", T, w, i / 4, 8 * (i % 4));
  }
}

const char* vec_type(int bytes) { return bytes == 16 ? "uint4" : bytes == 8 ? "uint2" : "uint32_t"; }

std::string pack_words(const std::vector<std::string>& elems, int eb) {
  const int V = static_cast<int>(elems.size()), bytes = V * eb, words = bytes / 4;
  std::vector<std::string> w(static_cast<size_t>(words));
  const char* ub = eb == 8 ? "uint64_t" : eb == 4 ? "uint32_t" : eb == 2 ? "uint16_t" : "uint8_t";
  for (int i = 0; i < V; ++i) {
    const std::string bits = fmt::format("tr_bits<{}>({})", ub, elems[static_cast<size_t>(i)]);
    if (eb == 8) {
      w[static_cast<size_t>(2 * i)] = fmt::format("(uint32_t)({})", bits);
      w[static_cast<size_t>(2 * i + 1)] = fmt::format("(uint32_t)({} >> 32)", bits);
    } else {
      const int per = 4 / eb, k = i / per, sh = 8 * eb * (i % per);
      std::string part = sh ? fmt::format("((uint32_t){} << {})", bits, sh) : fmt::format("(uint32_t){}", bits);
      auto& x = w[static_cast<size_t>(k)];
      x = x.empty() ? part : x + " | " + part;
    }
  }
  return words == 1 ? w[0] : fmt::format("make_{}({})", vec_type(bytes), fmt::join(w, ", "));
}

void Emitter::hazard_barrier(bool store, const Value* ptr, bool atomic) {
  Access a{store, ptr, "", atomic || ptr->type.is_scalar(), false, ""};
  if (ptr->type.is_tensor()) {
    const LinearLayout& l = layout_of(ptr);
    a.key = layout_key(l);
    if (!owner(l).empty()) a.shared = true;
    for (int64_t k = 0; k < l.size(HwDim::Register) && !a.shared; ++k) a.shared = reg_dup(l, k);
  }
  a.by_thread0 = store && !atomic && ptr->type.is_scalar();
  bool need = false;
  std::string guard;  // the one loop guard of every conflict, or "" (unconditional)
  bool first = true;
  for (const Access& e : accesses_) {
    if (!(store || e.store) || !(a.shared || e.shared || e.ptr != ptr || e.key != a.key)) continue;
    if (a.by_thread0 && e.by_thread0) continue;  // both by thread 0, in program order
    guard = first ? e.guard : (guard == e.guard ? guard : "");
    first = false;
    need = true;
  }
  if (need) {
    const char* why = store ? "this program's earlier accesses are done before the store"
                            : "this program's earlier stores are visible to the load";
    if (guard.empty()) {
      barrier(why);
    } else {  // only the previous iteration's
      const size_t mark = out_.size();
      barrier(why);
      const size_t ind = out_.find_first_not_of(' ', mark);
      out_.insert(ind, fmt::format("if ({} > 0) ", guard));
    }
    accesses_.clear();
  }
  accesses_.push_back(a);
}

void Emitter::emit_load(const Op& op) {
  const Value* ptr = op.operands[0];
  const Value* mask = op.operands.size() >= 2 ? op.operands[1] : nullptr;
  const Value* other = op.operands.size() >= 3 ? op.operands[2] : nullptr;
  const Value* r = op.results[0];
  if (!ptr->type.is_ptr) refuse(op, "operand is not a pointer");
  // Metal / OpenCL: in a kernel with atomics every global load is volatile, as the serial
  // renderers make them: their atomics are relaxed and a plain load may hit a cache that is
  // not coherent across compute units (NVIDIA's OpenCL: a spin lock's critical section read
  // stale values, ConformanceAtomic.SpinLockGuardsANonAtomicReadModifyWrite).
  const bool vol = op.attr_int("volatile", 0) != 0 || (!cuda() && has_atomics_);
  hazard_barrier(false, ptr, false);
  if (r->type.is_scalar()) {
    std::string v = cx_.load(ptr->type, scalar(ptr), vol);
    if (mask) v = fmt::format("{} ? {} : {}", scalar(mask), v, other ? scalar(other) : cx_.zero(r->type));
    std::string n = fresh("s");
    if (vol && !cuda()) {
      // Metal / OpenCL: a volatile scalar may change between the threads' reads (another
      // program writing it); a scalar must be the same in every thread (branches and loops
      // on it hold barriers), so thread 0 reads it and the others take its value.
      line(fmt::format("{} {} = {};", cx_.type(r->type), n, cx_.zero(r->type)));
      need_smem(8);
      barrier();
      line(fmt::format("if (tr_tid == 0) *({})tr_smem = {};", sp(cx_.type(r->type)), v));
      barrier();
      line(fmt::format("{} = *({})tr_smem;", n, sp(cx_.type(r->type))));
      bind_scalar(r, n);
      return;
    }
    line(fmt::format("{} const {} = {};", cx_.type(r->type), n, v));
    bind_scalar(r, n);
    return;
  }
  const LinearLayout& l = layout_of(r);
  const int64_t R = l.size(HwDim::Register);
  const std::string T = cx_.type(r->type.element());
  ensure(ptr, l);
  ensure(mask, l);
  ensure(other, l);
  std::string a = declare_array(r->type, R, "v");
  const int eb = elem_bytes(r->type);
  int d0 = 0;
  const int V = (vol || r->type.scalar == ScalarType::I1) ? 1 : access_vector(*this, l, ptr, mask, eb, &d0);
  for (int64_t g = 0; g < R; g += V) {
    auto other_of = [&](int64_t rr) { return other ? el(other, l, rr) : cx_.zero(r->type.element()); };
    if (V == 1) {
      std::string v = cx_.load(ptr->type, el(ptr, l, g), vol);
      if (mask) v = fmt::format("{} ? {} : {}", el(mask, l, g), v, other_of(g));
      line(fmt::format("{}[{}] = {};", a, g, v));
      continue;
    }
    const int bytes = V * eb, words = bytes / 4;
    std::string w = fresh("w");
    // A masked vector with a constant `other` (or none) starts as other's bits and is
    // overwritten by the load where the mask holds: a predicated load, then one unpack.
    const bool preset = mask && eb <= 4 && (!other || constant_tensor(other));
    if (preset) {
      const int per = 4 / eb;
      std::vector<std::string> ws;
      for (int k = 0; k < words; ++k) {
        std::vector<std::string> elems;
        for (int i = 0; i < per; ++i) elems.push_back(other_of(g + k * per + i));
        ws.push_back(pack_words(elems, eb));
      }
      line(fmt::format("uint32_t {}[{}] = {{{}}};", w, words, fmt::join(ws, ", ")));
    } else {
      line(fmt::format("uint32_t {}[{}];", w, words));
    }
    if (mask) open(fmt::format("if ({})", el(mask, l, g)));
    else open("");
    std::string t = fresh("t");
    line(fmt::format("const {} {} = *({})({});", vec_type(bytes), t, gp(std::string("const ") + vec_type(bytes)), el(ptr, l, g)));
    if (words == 1) line(fmt::format("{}[0] = {};", w, t));
    else
      for (int k = 0; k < words; ++k) line(fmt::format("{}[{}] = {}.{};", w, k, t, "xyzw"[k]));
    if (preset) {
      close();
      for (int i = 0; i < V; ++i) line(fmt::format("{}[{}] = {};", a, g + i, unpack_word(w, i, eb, T)));
      continue;
    }
    for (int i = 0; i < V; ++i) line(fmt::format("{}[{}] = {};", a, g + i, unpack_word(w, i, eb, T)));
    if (mask) {
      close("} else {");
      ++indent_;
      for (int i = 0; i < V; ++i) line(fmt::format("{}[{}] = {};", a, g + i, other_of(g + i)));
    }
    close();
  }
  bind_array(r, a);
}

void Emitter::emit_store(const Op& op) {
  const Value* ptr = op.operands[0];
  const Value* val = op.operands[1];
  const Value* mask = op.operands.size() >= 3 ? op.operands[2] : nullptr;
  if (!ptr->type.is_ptr) refuse(op, "operand is not a pointer");
  hazard_barrier(true, ptr, false);
  if (ptr->type.is_scalar()) {
    std::string c = "tr_tid == 0";
    if (mask) c += " && " + scalar(mask);
    line(fmt::format("if ({}) *({}) = {};", c, scalar(ptr), scalar(val)));
    return;
  }
  const LinearLayout& l = layout_of(ptr);
  const int64_t R = l.size(HwDim::Register);
  const ir::Type vt = val->type.element();
  const int eb = elem_bytes(vt);
  int d0 = 0;
  const int V = vt.scalar == ScalarType::I1 && !vt.is_ptr ? 1 : access_vector(*this, l, ptr, mask, eb, &d0);
  ensure(ptr, l);
  ensure(val, l);
  ensure(mask, l);
  const std::string own = owner(l);
  if (!own.empty()) open(fmt::format("if ({})", own));
  for (int64_t g = 0; g < R; g += V) {
    if (reg_dup(l, g)) continue;
    if (V == 1) {
      std::string s = fmt::format("*({}) = {};", el(ptr, l, g), el(val, l, g));
      if (mask) s = fmt::format("if ({}) {}", el(mask, l, g), s);
      line(s);
      continue;
    }
    const int bytes = V * eb;
    std::vector<std::string> elems;
    for (int i = 0; i < V; ++i) elems.push_back(el(val, l, g + i));
    const std::string vec = pack_words(elems, eb);
    std::string s = fmt::format("*({})({}) = {};", gp(vec_type(bytes)), el(ptr, l, g), vec);
    if (mask) s = fmt::format("if ({}) {}", el(mask, l, g), s);
    line(s);
  }
  if (!own.empty()) close();
}

void Emitter::emit_atomic(const Op& op) {
  const bool cas = op.kind == OpKind::AtomicCAS;
  const Value* ptr = op.operands[0];
  const Value* mask = !cas && op.operands.size() >= 3 ? op.operands[2] : nullptr;
  const Value* r = op.results[0];
  const ScalarType S = ptr->type.scalar;
  const std::string T = cx_.type(ir::Type::of(S));
  if (S == ScalarType::I1 || ir::is_fp8(S)) refuse(op, std::string("atomics on ") + std::string(ir::name(S)));
  const std::string rmw = op.attr_str("rmw");
  const char* bits = S == ScalarType::F64 ? "uint64_t" : S == ScalarType::F32 ? "uint32_t" : "uint16_t";
  hazard_barrier(true, ptr, true);
  auto call = [&](const std::function<std::string(const Value*)>& at) -> std::string {
    const std::string p = at(ptr);
    if (cas) {
      const std::string c = at(op.operands[1]), v = at(op.operands[2]);
      if (!ir::is_float(S)) return fmt::format("tr_atomic_cas<{}>({}, {}, {})", T, p, c, v);
      return fmt::format("tr_bits<{}>(tr_atomic_cas<{}>(({}*)({}), tr_bits<{}>({}), tr_bits<{}>({})))", T, bits, bits, p,
                         bits, c, bits, v);
    }
    const std::string v = at(op.operands[1]);
    if (!ir::is_float(S)) {
      if (rmw == "add" || rmw == "and" || rmw == "or" || rmw == "xor" || rmw == "max" || rmw == "min" || rmw == "xchg")
        return fmt::format("tr_atomic_{}<{}>({}, {})", rmw, T, p, v);
      refuse(op, "atomic '" + rmw + "' on integers");
    }
    if (rmw == "xchg")
      return fmt::format("tr_bits<{}>(tr_atomic_xchg<{}>(({}*)({}), tr_bits<{}>({})))", T, bits, bits, p, bits, v);
    const std::string ct = CExpr::compute_type(S);
    const std::string old_v = CExpr::to_compute(S, fmt::format("tr_bits<{}>(o_)", T));
    const std::string new_v = CExpr::to_compute(S, fmt::format("({})", v));
    std::string upd;
    if (rmw == "fadd" || rmw == "add") upd = fmt::format("{} + {}", old_v, new_v);
    else if (rmw == "max") upd = fmt::format("tr_fmax<{}>({}, {})", ct, old_v, new_v);
    else if (rmw == "min") upd = fmt::format("tr_fmin<{}>({}, {})", ct, old_v, new_v);
    else refuse(op, "atomic '" + rmw + "' on floats");
    return fmt::format("tr_bits<{}>(tr_atomic_update(({}*)({}), [&]({} o_) {{ return tr_bits<{}>({}); }}))", T, bits, p,
                       bits, bits, CExpr::from_compute(S, upd));
  };
  const bool fence = op.attr_str("sem", "acq_rel") != "relaxed";
  const std::string zero = cx_.zero(r->type.element());
  if (msl() && ir::bitwidth(S) != 32)
    not_simt(op, "atomics on elements other than 32-bit (Metal has 32-bit device atomics only)");
  // Metal and OpenCL: a compare-and-swap loop on the element's bits (the prelude's
  // tr_cas_u<N>; their atomics are relaxed, the fences are written around the group as on
  // CUDA), the update inline, as the serial renderers write it.
  const int nb = ir::bitwidth(S);
  const std::string B = fmt::format("uint{}_t", nb);
  auto cas_loop_atomic = [&](const std::string& dst, const std::function<std::string(const Value*)>& at,
                             const std::string& m) {
    const bool fl = ir::is_float(S);
    auto value_of = [&](const std::string& b) { return fl || ir::is_signed_int(S) ? cx_.tcall("tr_bits", T, b) : b; };
    auto bits_of = [&](const std::string& v) { return fl || ir::is_signed_int(S) ? cx_.tcall("tr_bits", B, v) : v; };
    open(m.empty() ? std::string() : fmt::format("if ({})", m));
    line(fmt::format("{0} const ap_ = ({0})({1});", gp(B), at(ptr)));
    if (cas) {
      line(fmt::format("{} = {};", dst,
                       value_of(fmt::format("tr_cas_u{}(ap_, {}, {})", nb, bits_of(at(op.operands[1])),
                                            bits_of(at(op.operands[2]))))));
      close();
      return;
    }
    const std::string v = at(op.operands[1]);
    std::string upd;
    const std::string o = value_of("o_");
    if (rmw == "xchg") {
      upd = v;
    } else if (fl) {
      const std::string ct = CExpr::compute_type(S);
      const std::string a = CExpr::to_compute(S, o), b = CExpr::to_compute(S, "(" + v + ")");
      if (rmw == "fadd" || rmw == "add") upd = CExpr::from_compute(S, fmt::format("({} + {})", a, b));
      else if (rmw == "max") upd = CExpr::from_compute(S, cx_.tcall("tr_fmax", ct, a + ", " + b));
      else if (rmw == "min") upd = CExpr::from_compute(S, cx_.tcall("tr_fmin", ct, a + ", " + b));
      else refuse(op, "atomic '" + rmw + "' on floats");
    } else if (rmw == "add") upd = cx_.tcall("tr_add", T, o + ", " + v);
    else if (rmw == "and") upd = fmt::format("({})({} & {})", T, o, v);
    else if (rmw == "or") upd = fmt::format("({})({} | {})", T, o, v);
    else if (rmw == "xor") upd = fmt::format("({})({} ^ {})", T, o, v);
    else if (rmw == "max") upd = cx_.tcall("tr_imax", T, o + ", " + v);
    else if (rmw == "min") upd = cx_.tcall("tr_imin", T, o + ", " + v);
    else refuse(op, "atomic '" + rmw + "' on integers");
    if (msl())  // the word is only ever accessed atomically
      line("uint32_t o_ = atomic_load_explicit((device atomic_uint*)ap_, memory_order_relaxed);");
    else
      line(fmt::format("{} o_ = *({})ap_;", B, gp("volatile " + B)));
    open("for (;;)");
    line(fmt::format("const {} n_ = {};", B, bits_of(upd)));
    line(fmt::format("const {} s_ = tr_cas_u{}(ap_, o_, n_);", B, nb));
    line("if (s_ == o_) break;");
    line("o_ = s_;");
    close();
    line(fmt::format("{} = {};", dst, o));
    close();
  };
  if (r->type.is_scalar()) {
    std::string n = fresh("s");
    line(fmt::format("{} {} = {};", cx_.type(r->type), n, zero));
    need_smem(8);
    barrier();
    open("if (tr_tid == 0)");
    if (fence) line(this->fence());
    if (!cuda()) {
      cas_loop_atomic(n, [&](const Value* v) { return scalar(v); }, mask ? scalar(mask) : "");
    } else {
      std::string c = call([&](const Value* v) { return scalar(v); });
      line(mask ? fmt::format("{} = {} ? {} : {};", n, scalar(mask), c, zero) : fmt::format("{} = {};", n, c));
    }
    if (fence) line(this->fence());
    line(fmt::format("*({})tr_smem = {};", sp(cx_.type(r->type)), n));
    close();
    barrier();
    line(fmt::format("{} = *({})tr_smem;", n, sp(cx_.type(r->type))));
    bind_scalar(r, n);
    return;
  }
  const LinearLayout& l = layout_of(ptr);
  const int64_t R = l.size(HwDim::Register);
  for (const Value* o : op.operands) ensure(o, l);
  std::string a = declare_array(r->type, R, "v");
  for (int64_t k = 0; k < R; ++k) line(fmt::format("{}[{}] = {};", a, k, zero));
  const std::string own = owner(l);
  bool dup = !own.empty();
  if (!own.empty()) open(fmt::format("if ({})", own));
  if (fence) line(this->fence());
  for (int64_t k = 0; k < R; ++k) {
    if (reg_dup(l, k)) {
      dup = true;
      continue;
    }
    if (!cuda()) {
      cas_loop_atomic(fmt::format("{}[{}]", a, k), [&](const Value* v) { return el(v, l, k); }, mask ? el(mask, l, k) : "");
      continue;
    }
    std::string c = call([&](const Value* v) { return el(v, l, k); });
    line(mask ? fmt::format("if ({}) {}[{}] = {};", el(mask, l, k), a, k, c) : fmt::format("{}[{}] = {};", a, k, c));
  }
  if (fence) line(this->fence());
  if (!own.empty()) close();
  bind_array(r, a);
  if (dup && uses(r) > 0) {  // the other holders of each element read the owner's old value
    barrier();
    std::string sm = to_smem(r);
    barrier();
    for (int64_t k = 0; k < R; ++k) line(fmt::format("{}[{}] = {}[{}];", a, k, sm, lin(l, k)));
  }
}

}  // namespace tritium::codegen::cuda
