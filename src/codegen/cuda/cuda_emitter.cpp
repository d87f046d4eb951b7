// CUDA renderer: output, layout coordinates, values and views, conversions through shared
// memory, the op dispatch and elementwise ops (see cuda_emitter.h).
#include "codegen/cuda/cuda_emitter.h"

#include <fmt/format.h>

#include "frontend/source.h"

namespace tritium::codegen::cuda {

using ir::Op;
using ir::OpKind;
using ir::Value;

Emitter::Emitter(const ir::Function& fn, const runtime::CodegenOptions& opts, int sm, Target target)
    : fn_(fn), opts_(opts), target_(target),
      cx_(target == Target::Msl      ? CExpr("metal", false, Dialect::MSL)
          : target == Target::OpenCL ? CExpr("opencl", false, Dialect::OpenCL)
                                     : CExpr("cuda", !opts.portable_numerics)),
      num_warps_(opts.num_warps),
      plan_(plan_layouts(fn, opts.num_warps, opts.portable_numerics, target == Target::Cuda ? sm : kNoTensorCores)),
      axis_(fn) {
  // Metal: a threadgroup holds at most 1024 threads.
  if (num_warps_ < 1 || num_warps_ > 32 || (num_warps_ & (num_warps_ - 1)))
    throw frontend::CompileError(fn.loc, fmt::format("{} backend: num_warps must be a power of two in [1, 32], got {}",
                                                     cx_.backend(), num_warps_));
}

// ---- the target's spellings ------------------------------------------------------------------

void Emitter::barrier(const char* comment) {
  std::string s = msl()      ? "threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);"
                  : opencl() ? "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);"
                             : "__syncthreads();";
  if (comment) s += std::string("  // ") + comment;
  line(s);
  ++barriers_;
}
namespace {
// `T` with `space` applied to its pointee: "threadgroup float*", or for a pointer type
// "device float* threadgroup*" (the qualifier binds to what the outer pointer points at).
std::string spaced_ptr(const char* space, const std::string& T) {
  if (!space[0]) return T + "*";
  if (!T.empty() && T.back() == '*') return fmt::format("{} {}*", T, space);
  return fmt::format("{} {}*", space, T);
}
}  // namespace
std::string Emitter::sp(const std::string& T) const {
  return spaced_ptr(msl() ? "threadgroup" : opencl() ? "__local" : "", T);
}
std::string Emitter::gp(const std::string& T) const { return spaced_ptr(cx_.space(), T); }
std::string Emitter::fence() const {
  return msl()      ? "atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);"
         : opencl() ? "mem_fence(CLK_GLOBAL_MEM_FENCE);"
                    : "__threadfence();";
}
void Emitter::not_simt(const ir::Op& op, const std::string& why) const {
  if (cuda()) refuse(op, why);
  throw SimtUnsupported(op.loc, fmt::format("{} backend: {} not lowered by the {} yet: {}", cx_.backend(),
                                            op.name(),
                                            msl() ? "threadgroup-parallel MSL renderer"
                                                  : "work-group-parallel OpenCL C renderer",
                                            why));
}
void Emitter::shfl_xor(const std::string& T, const std::string& name, const std::string& x, int mask) {
  if (!opencl()) {
    line(fmt::format("const {} {} = tr_shfl_xor({}, {});", T, name, x, mask));
    return;
  }
  const bool wide = T == "int64_t" || T == "uint64_t" || T == "double" || (!T.empty() && T.back() == '*');
  const char* B = wide ? "ulong" : "uint";
  if (intel_subgroups_) {
    // The value's bits through the sub-group shuffle (32-bit words: a 64-bit value as two).
    const std::string bits = T == "float"    ? fmt::format("as_uint({})", x)
                             : T == "double" ? fmt::format("as_ulong({})", x)
                                             : fmt::format("({})({})", B, x);
    std::string got;
    if (wide) {
      line(fmt::format("const ulong {}_b = {};", name, bits));
      got = fmt::format("(((ulong)intel_sub_group_shuffle_xor((uint)({0}_b >> 32), {1}u) << 32) | "
                        "(ulong)intel_sub_group_shuffle_xor((uint){0}_b, {1}u))",
                        name, mask);
    } else {
      got = fmt::format("intel_sub_group_shuffle_xor({}, {}u)", bits, mask);
    }
    line(fmt::format("const {} {} = {};", T, name,
                     T == "float"    ? fmt::format("as_float({})", got)
                     : T == "double" ? fmt::format("as_double({})", got)
                                     : fmt::format("({})({})", T, got)));
    return;
  }
  // Every work-item writes its value's bits to its slot, then reads its partner's.
  uses_exchange_ = true;
  line(fmt::format("tr_xchg[tr_tid] = {};", T == "float"    ? fmt::format("(ulong)as_uint({})", x)
                                             : T == "double" ? fmt::format("as_ulong({})", x)
                                             : wide          ? fmt::format("(ulong)({})", x)
                                                             : fmt::format("(ulong)({})({})", B, x)));
  barrier();
  const std::string got = fmt::format("tr_xchg[tr_tid ^ {}]", mask);
  line(fmt::format("const {} {} = {};", T, name,
                   T == "float"    ? fmt::format("as_float((uint){})", got)
                   : T == "double" ? fmt::format("as_double({})", got)
                                   : fmt::format("({})({})", T, got)));
  barrier();
}

// ---- output ----------------------------------------------------------------------------------

void Emitter::line(const std::string& s) {
  out_.append(static_cast<size_t>(indent_) * 2, ' ');
  out_ += s;
  out_ += '\n';
}
void Emitter::open(const std::string& head) {
  line(head.empty() ? "{" : head + " {");
  ++indent_;
  conv_memo_.emplace_back();  // a conversion made inside the C++ block stays inside it
}
void Emitter::close(const std::string& tail) {
  --indent_;
  if (!conv_memo_.empty()) conv_memo_.pop_back();
  line(tail);
  if (tail != "}") conv_memo_.emplace_back();  // "} else {": the next block
}
std::string Emitter::fresh(const char* prefix) { return fmt::format("{}{}", prefix, counter_++); }

int Emitter::uses(const Value* v) const {
  auto it = uses_.find(v);
  return it == uses_.end() ? 0 : it->second;
}
void Emitter::count_uses(const ir::Block& b) {
  for (const auto& op : b.ops) {
    for (const Value* o : op->operands) ++uses_[o];
    for (const auto& r : op->regions) count_uses(r->block);
  }
}

// ---- layout coordinates --------------------------------------------------------------------

LinearLayout::Coord Emitter::reg_coord(const LinearLayout& l, int64_t r) {
  LinearLayout::Coord c(l.shape().size(), 0);
  for (int k = 0; k < l.bits(HwDim::Register); ++k)
    if ((r >> k) & 1) {
      const auto& b = l.basis(HwDim::Register, k);
      for (size_t d = 0; d < c.size(); ++d) c[d] ^= b[d];
    }
  return c;
}

bool Emitter::reg_dup(const LinearLayout& l, int64_t r) {
  for (int k = 0; k < l.bits(HwDim::Register); ++k)
    if ((r >> k) & 1) {
      bool zero = true;
      for (int64_t x : l.basis(HwDim::Register, k)) zero = zero && x == 0;
      if (zero) return true;
    }
  return false;
}

int64_t Emitter::constancy_reg(const Value* v, const LinearLayout& l, int64_t r) const {
  if (r == 0 || !(v->type.is_int() || v->type.is_ptr || v->type.scalar == ir::ScalarType::I1)) return r;
  const passes::AxisInfo ai = axis().get(v);
  const size_t rank = l.shape().size();
  if (ai.constancy.size() != rank) return r;
  for (int k = 0; k < l.bits(HwDim::Register); ++k) {
    if (!((r >> k) & 1)) continue;
    const auto& b = l.basis(HwDim::Register, k);
    int moved = 0;
    bool within = true;
    for (size_t d = 0; d < rank; ++d) {
      if (b[d] == 0) continue;
      ++moved;
      within = within && b[d] < ai.constancy[d];
    }
    if (moved == 0 || (moved == 1 && within)) r &= ~(int64_t{1} << k);
  }
  return r;
}

std::pair<int, int> Emitter::holder(const LinearLayout& l, int d, int bit) {
  const int64_t v = int64_t{1} << bit;
  for (int h = 0; h < 3; ++h)
    for (int k = 0; k < l.bits(static_cast<HwDim>(h)); ++k)
      if (l.basis(static_cast<HwDim>(h), k)[d] == v) return {h, k};
  return {-1, -1};
}

namespace {
// XOR of `var`-selected basis components: "((var >> k) & 1) * c" terms.
std::string hw_expr(const LinearLayout& l, const std::function<int64_t(const LinearLayout::Coord&)>& comp) {
  std::string e;
  for (int h : {1, 2}) {
    const char* var = h == 1 ? "tr_lane" : "tr_warp";
    for (int k = 0; k < l.bits(static_cast<HwDim>(h)); ++k) {
      const int64_t c = comp(l.basis(static_cast<HwDim>(h), k));
      if (!c) continue;
      e += fmt::format("{}(((({} >> {}) & 1)) * {})", e.empty() ? "" : " ^ ", var, k, c);
    }
  }
  return e;
}
}  // namespace

std::string Emitter::hw_var(const LinearLayout& l, int d) {
  const std::string key = layout_key(l) + fmt::format("#{}", d);
  auto it = hw_vars_.find(key);
  if (it != hw_vars_.end()) return it->second;
  std::string e = hw_expr(l, [d](const LinearLayout::Coord& c) { return c[static_cast<size_t>(d)]; });
  std::string name = "0";
  if (!e.empty()) {
    name = fresh("hw");
    prologue_ += fmt::format("  const int32_t {} = {};\n", name, e);
  }
  hw_vars_.emplace(key, name);
  return name;
}

std::string Emitter::hw_lin_var(const LinearLayout& l) {
  const std::string key = layout_key(l) + "#lin";
  auto it = hw_vars_.find(key);
  if (it != hw_vars_.end()) return it->second;
  const auto& shape = l.shape();
  std::string e = hw_expr(l, [&](const LinearLayout::Coord& c) {
    int64_t lin = 0;
    for (size_t d = 0; d < shape.size(); ++d) lin = lin * shape[d] + c[d];
    return lin;
  });
  std::string name = "0";
  if (!e.empty()) {
    name = fresh("hl");
    prologue_ += fmt::format("  const int32_t {} = {};\n", name, e);
  }
  hw_vars_.emplace(key, name);
  return name;
}

std::string Emitter::coord(const LinearLayout& l, int d, int64_t r) {
  const int64_t c = reg_coord(l, r)[static_cast<size_t>(d)];
  const std::string hw = hw_var(l, d);
  if (hw == "0") return std::to_string(c);
  if (c == 0) return hw;
  return fmt::format("({} ^ {})", hw, c);
}

std::string Emitter::lin(const LinearLayout& l, int64_t r) {
  const auto& shape = l.shape();
  const auto c = reg_coord(l, r);
  int64_t lc = 0;
  for (size_t d = 0; d < shape.size(); ++d) lc = lc * shape[d] + c[d];
  const std::string hw = hw_lin_var(l);
  if (hw == "0") return std::to_string(lc);
  if (lc == 0) return hw;
  return fmt::format("({} ^ {})", hw, lc);
}

std::string Emitter::owner(const LinearLayout& l) {
  std::string cond;
  for (int h : {1, 2}) {
    int64_t mask = 0;
    for (int k = 0; k < l.bits(static_cast<HwDim>(h)); ++k) {
      bool zero = true;
      for (int64_t x : l.basis(static_cast<HwDim>(h), k)) zero = zero && x == 0;
      if (zero) mask |= int64_t{1} << k;
    }
    if (mask) cond += fmt::format("{}(({} & {}) == 0)", cond.empty() ? "" : " && ", h == 1 ? "tr_lane" : "tr_warp", mask);
  }
  return cond;
}

// ---- values --------------------------------------------------------------------------------

std::string Emitter::scalar(const Value* v) const {
  auto it = scalars_.find(v);
  if (it == scalars_.end()) {
    if (v->def && v->def->kind == OpKind::Constant && v->type.is_scalar()) return cx_.literal(*v->def);
    throw std::logic_error(fmt::format("cuda renderer: scalar %{} has no name", v->id));
  }
  return it->second;
}
void Emitter::bind_scalar(const Value* v, const std::string& name) { scalars_[v] = name; }
void Emitter::bind_array(const Value* v, const std::string& name) { arrays_[v] = name; }

bool Emitter::is_view(OpKind k) {
  switch (k) {
    case OpKind::Constant: case OpKind::Splat: case OpKind::MakeRange: case OpKind::Broadcast:
    case OpKind::ExpandDims: case OpKind::Reshape: case OpKind::Trans: case OpKind::Hint: case OpKind::Join:
      return true;
    default: return false;
  }
}

bool Emitter::remat(const Value* v) {
  std::function<int(const Value*)> size = [&](const Value* u) -> int {
    if (u->type.is_scalar()) return 0;
    auto it = remat_memo_.find(u);
    if (it != remat_memo_.end()) return it->second;
    int n = -1;
    const Op* d = u->def;
    if (d && (d->kind == OpKind::Constant || d->kind == OpKind::MakeRange || d->kind == OpKind::Splat)) {
      n = 0;
    } else if (d && (d->kind == OpKind::Broadcast || d->kind == OpKind::ExpandDims || d->kind == OpKind::Reshape ||
                     d->kind == OpKind::Trans || d->kind == OpKind::Hint)) {
      n = size(d->operands[0]);
    } else if (d && (u->type.is_ptr || ir::is_int(u->type.scalar))) {
      switch (d->kind) {
        case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::And: case OpKind::Or: case OpKind::Xor:
        case OpKind::Shl: case OpKind::Shr: case OpKind::Min: case OpKind::Max: case OpKind::Cmp: case OpKind::Select:
        case OpKind::AddPtr: case OpKind::Cast: {
          n = 1;
          for (const Value* o : d->operands) {
            const int k = size(o);
            if (k < 0) {
              n = -1;
              break;
            }
            n += k;
          }
          if (n > 12) n = -1;
          break;
        }
        default: break;
      }
    }
    remat_memo_[u] = n;
    return n;
  };
  return v->def && !is_view(v->def->kind) && size(v) > 0;
}

std::string Emitter::declare_array(const ir::Type& t, int64_t regs, const char* prefix) {
  std::string n = fresh(prefix);
  line(fmt::format("{} {}[{}];", cx_.type(t.element()), n, regs));
  return n;
}

void Emitter::need_smem(int64_t bytes) { smem_bytes_ = std::max(smem_bytes_, bytes); }

int Emitter::smem_vector(const LinearLayout& l, int eb) {
  const size_t last = l.shape().size() - 1;
  int v = 1;
  while (v * 2 * eb <= 16) {
    const int k = __builtin_ctz(static_cast<unsigned>(v));
    if (k >= l.bits(HwDim::Register)) break;
    const auto& b = l.basis(HwDim::Register, k);
    bool unit = b[last] == v;
    for (size_t d = 0; d < last; ++d) unit = unit && b[d] == 0;
    if (!unit) break;
    v *= 2;
  }
  return v * eb >= 4 ? v : 1;
}

std::string Emitter::to_smem(const Value* v, int64_t byte_offset) {
  return to_smem(v, byte_offset, [](const std::string& i) { return i; });
}

std::string Emitter::to_smem(const Value* v, int64_t byte_offset,
                             const std::function<std::string(const std::string&)>& index) {
  int64_t numel = 1;
  for (int64_t d : v->type.shape) numel *= d;
  const std::string T = cx_.type(v->type.element());
  const int eb = v->type.is_ptr ? 8 : std::max(1, ir::byte_size(v->type.scalar));
  need_smem(byte_offset + numel * eb);
  const LinearLayout& l = layout_of(v);
  ensure(v, l);  // nothing may be converted inside the owner block below
  std::string sm = fresh("sm");
  line(fmt::format("{0} const {1} = ({0})(tr_smem + {2});", sp(T), sm, byte_offset));
  const std::string own = owner(l);
  const int V = byte_offset % 16 == 0 && !opencl() ? smem_vector(l, eb) : 1;
  if (!own.empty()) open(fmt::format("if ({})", own));
  for (int64_t r = 0; r < l.size(HwDim::Register); r += V) {
    if (reg_dup(l, r)) continue;
    if (V == 1) {
      line(fmt::format("{}[{}] = {};", sm, index(lin(l, r)), el(v, l, r)));
      continue;
    }
    std::vector<std::string> elems;
    for (int i = 0; i < V; ++i) elems.push_back(el(v, l, r + i));
    line(fmt::format("*({})&{}[{}] = {};", sp(vec_type(V * eb)), sm, index(lin(l, r)), pack_words(elems, eb)));
  }
  if (!own.empty()) close();
  return sm;
}

std::string Emitter::convert(const Value* v, const LinearLayout& to) {
  const auto key = std::make_pair(v, layout_key(to));
  for (auto it = conv_memo_.rbegin(); it != conv_memo_.rend(); ++it) {
    auto f = it->find(key);
    if (f != it->end()) return f->second;
  }
  line(fmt::format("// convert %{} to another layout through shared memory", v->id));
  int64_t numel = 1;
  for (int64_t d : v->type.shape) numel *= d;
  const int eb0 = v->type.is_ptr ? 8 : std::max(1, ir::byte_size(v->type.scalar));
  if (!cuda() && numel * eb0 > kPortableSharedBytes) {
    // Metal / OpenCL: through 32 KB, a slice of the row-major order at a time (each pass,
    // every thread writes the elements it owns in the slice and reads those it needs).
    const int64_t C = kPortableSharedBytes / eb0;
    const LinearLayout& l = layout_of(v);
    ensure(v, l);
    need_smem(C * eb0);
    std::string a = declare_array(v->type, to.size(HwDim::Register), "cv");
    const std::string T = cx_.type(v->type.element());
    std::string sm = fresh("sm"), c0 = fresh("c");
    line(fmt::format("{0} const {1} = ({0})tr_smem;", sp(T), sm));
    open(fmt::format("for (int32_t {0} = 0; {0} < {1}; {0} += {2})", c0, numel, C));
    barrier();
    const std::string own = owner(l);
    if (!own.empty()) open(fmt::format("if ({})", own));
    for (int64_t r = 0; r < l.size(HwDim::Register); ++r) {
      if (reg_dup(l, r)) continue;
      line(fmt::format("if ((uint32_t)(({}) - {}) < {}u) {}[({}) - {}] = {};", lin(l, r), c0, C, sm, lin(l, r), c0,
                       el(v, l, r)));
    }
    if (!own.empty()) close();
    barrier();
    for (int64_t r = 0; r < to.size(HwDim::Register); ++r)
      line(fmt::format("if ((uint32_t)(({}) - {}) < {}u) {}[{}] = {}[({}) - {}];", lin(to, r), c0, C, a, r, sm,
                       lin(to, r), c0));
    close();
    if (conv_memo_.empty()) conv_memo_.emplace_back();
    conv_memo_.back().emplace(key, a);
    return a;
  }
  barrier();
  std::string sm = to_smem(v);
  barrier();
  std::string a = declare_array(v->type, to.size(HwDim::Register), "cv");
  const int eb = v->type.is_ptr ? 8 : std::max(1, ir::byte_size(v->type.scalar));
  const int V = opencl() ? 1 : smem_vector(to, eb);
  const std::string T = cx_.type(v->type.element());
  for (int64_t r = 0; r < to.size(HwDim::Register); r += V) {
    if (V == 1) {
      line(fmt::format("{}[{}] = {}[{}];", a, r, sm, lin(to, r)));
      continue;
    }
    const int bytes = V * eb, words = bytes / 4;
    std::string w = fresh("w"), t = fresh("t");
    line(fmt::format("const {} {} = *({})&{}[{}];", vec_type(bytes), t, sp(std::string("const ") + vec_type(bytes)), sm, lin(to, r)));
    if (words == 1) line(fmt::format("const uint32_t {0}[1] = {{{1}}};", w, t));
    else if (words == 2) line(fmt::format("const uint32_t {0}[2] = {{{1}.x, {1}.y}};", w, t));
    else line(fmt::format("const uint32_t {0}[4] = {{{1}.x, {1}.y, {1}.z, {1}.w}};", w, t));
    for (int i = 0; i < V; ++i) line(fmt::format("{}[{}] = {};", a, r + i, unpack_word(w, i, eb, T)));
  }
  if (conv_memo_.empty()) conv_memo_.emplace_back();
  conv_memo_.back().emplace(key, a);
  return a;
}

std::string Emitter::el(const Value* v, const LinearLayout& l, int64_t r) {
  if (v->type.is_scalar()) return scalar(v);
  r = constancy_reg(v, l, r);
  auto it = arrays_.find(v);
  if (it != arrays_.end()) {
    const LinearLayout& a = layout_of(v);
    bool same = a.shape() == l.shape();
    for (int h : {1, 2}) {
      const auto hd = static_cast<HwDim>(h);
      if (!same || a.bits(hd) != l.bits(hd)) {
        same = false;
        break;
      }
      for (int k = 0; k < a.bits(hd) && same; ++k) same = a.basis(hd, k) == l.basis(hd, k);
    }
    int64_t rr = 0;
    for (int k = 0; same && k < l.bits(HwDim::Register); ++k) {
      const auto& b = l.basis(HwDim::Register, k);
      bool zero = true;
      for (int64_t x : b) zero = zero && x == 0;
      if (zero) continue;
      int found = -1;
      for (int j = 0; j < a.bits(HwDim::Register) && found < 0; ++j)
        if (a.basis(HwDim::Register, j) == b) found = j;
      if (found < 0) same = false;
      else if ((r >> k) & 1) rr |= int64_t{1} << found;
    }
    if (same) return fmt::format("{}[{}]", it->second, rr);
    return fmt::format("{}[{}]", convert(v, l), r);
  }
  const Op* d = v->def;
  if (!d) throw std::logic_error(fmt::format("cuda renderer: tensor %{} has no storage", v->id));
  if (remat(v)) {
    std::vector<std::string> a;
    for (const Value* o : d->operands) a.push_back(el(o, l, r));
    return "(" + cx_.elementwise_expr(*d, a) + ")";
  }
  switch (d->kind) {
    case OpKind::Constant: return cx_.literal(*d);
    case OpKind::Splat: return el(d->operands[0], l, r);
    case OpKind::Hint: return el(d->operands[0], l, r);
    case OpKind::MakeRange:
      return fmt::format("(int32_t)({} + {})", d->attr_int("start"), coord(l, 0, r));
    case OpKind::Broadcast: return el(d->operands[0], project(l, d->operands[0]->type.shape), r);
    case OpKind::ExpandDims: return el(d->operands[0], remove_dim(l, static_cast<int>(d->attr_int("axis"))), r);
    case OpKind::Trans: return el(d->operands[0], unpermute(l, d->attr_ints("perm")), r);
    case OpKind::Reshape:
      if (d->operands[0]->type.is_scalar()) return scalar(d->operands[0]);
      return el(d->operands[0], reshape_layout(l, d->operands[0]->type.shape), r);
    case OpKind::Join: {
      const LinearLayout m = drop_minor(l);
      const int last = static_cast<int>(l.shape().size()) - 1;
      const std::string c = coord(l, last, r);
      if (c == "0") return el(d->operands[0], m, r);
      if (c == "1") return el(d->operands[1], m, r);
      return fmt::format("((({}) & 1) ? {} : {})", c, el(d->operands[1], m, r), el(d->operands[0], m, r));
    }
    default:
      throw std::logic_error(fmt::format("cuda renderer: tensor %{} ({}) has no storage", v->id, d->name()));
  }
}

void Emitter::ensure(const Value* v, const LinearLayout& l) {
  if (!v || v->type.is_scalar()) return;
  for (int64_t r = 0; r < l.size(HwDim::Register); ++r) (void)el(v, l, r);
}

void Emitter::assign(const std::string& dst, const Value* v, const LinearLayout* dst_layout) {
  if (v->type.is_scalar()) {
    line(fmt::format("{} = {};", dst, scalar(v)));
    return;
  }
  const LinearLayout& l = dst_layout ? *dst_layout : layout_of(v);
  for (int64_t r = 0; r < l.size(HwDim::Register); ++r) line(fmt::format("{}[{}] = {};", dst, r, el(v, l, r)));
}

std::string Emitter::declare_like(const Value* like, const char* prefix) {
  if (like->type.is_tensor()) return declare_array(like->type, layout_of(like).size(HwDim::Register), prefix);
  std::string n = fresh(prefix);
  line(fmt::format("{} {} = {};", cx_.type(like->type), n, cx_.zero(like->type)));
  return n;
}

// ---- blocks and dispatch ----------------------------------------------------------------------

void Emitter::emit_block(const ir::Block& b, bool scoped) {
  if (scoped) conv_memo_.emplace_back();
  for (const auto& op : b.ops) emit_op(*op);
  if (scoped) conv_memo_.pop_back();
}

namespace {
bool is_elementwise(OpKind k) {
  switch (k) {
    case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div: case OpKind::IDiv: case OpKind::Rem:
    case OpKind::And: case OpKind::Or: case OpKind::Xor: case OpKind::Shl: case OpKind::Shr:
    case OpKind::Min: case OpKind::Max: case OpKind::Neg: case OpKind::Not: case OpKind::Cmp: case OpKind::Select:
    case OpKind::Cast: case OpKind::Bitcast: case OpKind::Math: case OpKind::AddPtr: case OpKind::PtrToInt:
    case OpKind::IntToPtr:
      return true;
    default: return false;
  }
}
}  // namespace

void Emitter::emit_op(const Op& op) {
  if (skip_ops_.count(&op)) return;  // a pipelined load: its tile is in the ring
  if (op.info().flags == ir::kPure && !op.results.empty()) {
    bool used = false;
    for (const Value* r : op.results) used = used || uses(r) > 0;
    if (!used && op.kind != OpKind::Yield) return;
  }
  if (is_view(op.kind)) {
    const Value* r = op.results[0];
    if (r->type.is_scalar()) {
      std::string n = fresh("s");
      std::string e = op.kind == OpKind::Constant ? cx_.literal(op) : scalar(op.operands[0]);
      line(fmt::format("{} const {} = {};", cx_.type(r->type), n, e));
      bind_scalar(r, n);
    }
    return;
  }
  if (is_elementwise(op.kind)) return emit_elementwise(op);
  switch (op.kind) {
    case OpKind::ProgramId: case OpKind::NumPrograms: {
      const int64_t axis = op.attr_int("axis");
      if (axis < 0 || axis > 2) refuse(op, "axis must be 0, 1 or 2");
      const char* xyz = axis == 0 ? "x" : axis == 1 ? "y" : "z";
      std::string n = fresh("s");
      if (opencl()) {
        line(fmt::format("const int32_t {} = (int32_t){}({});", n, op.kind == OpKind::ProgramId ? "get_group_id" : "get_num_groups",
                         axis));
      } else {
        const char* src = op.kind == OpKind::ProgramId ? (msl() ? "tr_pid" : "blockIdx") : (msl() ? "tr_npid" : "gridDim");
        line(fmt::format("const int32_t {} = (int32_t){}.{};", n, src, xyz));
      }
      bind_scalar(op.results[0], n);
      return;
    }
    case OpKind::Undef: {
      const Value* r = op.results[0];
      std::string n = declare_like(r, "u");
      if (r->type.is_tensor()) {
        for (int64_t k = 0; k < layout_of(r).size(HwDim::Register); ++k)
          line(fmt::format("{}[{}] = {};", n, k, cx_.zero(r->type.element())));
        bind_array(r, n);
      } else {
        bind_scalar(r, n);
      }
      return;
    }
    case OpKind::Load: return emit_load(op);
    case OpKind::Store: return emit_store(op);
    case OpKind::AtomicRMW: case OpKind::AtomicCAS: return emit_atomic(op);
    case OpKind::Dot: return emit_dot(op);
    case OpKind::Reduce: return emit_reduce(op);
    case OpKind::Scan: return emit_scan(op);
    case OpKind::Split: case OpKind::Flip: case OpKind::Cat: case OpKind::Gather: return emit_smem_gather(op);
    case OpKind::Histogram: return emit_histogram(op);
    case OpKind::MapElementwise: return emit_map(op);
    case OpKind::For: return emit_for(op);
    case OpKind::If: return emit_if(op);
    case OpKind::While: return emit_while(op);
    case OpKind::Assert: return emit_assert(op);
    case OpKind::Print: return emit_print(op);
    case OpKind::Barrier: barrier("tl.debug_barrier"); return;
    case OpKind::Yield: case OpKind::Condition:
      if (terminator_handlers.empty()) refuse(op, "terminator outside a region");
      terminator_handlers.back()(op);
      return;
    case OpKind::Return:
      if (!op.operands.empty()) refuse(op, "a kernel cannot return values");
      if (op.parent == &fn_.body && fn_.body.ops.back().get() == &op) return;
      line("return;");
      return;
    case OpKind::Sort: return emit_sort(op);
    case OpKind::Call: refuse(op, "call to @" + op.attr_str("callee") + " (run the inline pass first)");
    default: refuse(op, "no lowering for this op");
  }
}

void Emitter::emit_elementwise(const Op& op) {
  const Value* res = op.results[0];
  if (res->type.is_scalar()) {
    std::vector<std::string> a;
    for (const Value* o : op.operands) a.push_back(scalar(o));
    std::string n = fresh("s");
    line(fmt::format("{} const {} = {};", cx_.type(res->type), n, cx_.elementwise_expr(op, a)));
    bind_scalar(res, n);
    return;
  }
  if (remat(res)) return;  // recomputed in each use (el)
  const LinearLayout& l = layout_of(res);
  std::string arr = declare_array(res->type, l.size(HwDim::Register), "v");
  for (int64_t r = 0; r < l.size(HwDim::Register); ++r) {
    std::vector<std::string> a;
    for (const Value* o : op.operands) a.push_back(el(o, l, r));
    line(fmt::format("{}[{}] = {};", arr, r, cx_.elementwise_expr(op, a)));
  }
  bind_array(res, arr);
}

std::string Emitter::fail_statement(const std::string& message, const std::string& file, int64_t ln) {
  fail_sites.push_back(CudaFailSite{message, file, ln});
  // Metal: a 32-bit key, linear program id * sites + site - 1 (tr_key0 is declared by the
  // MSL kernel's head, msl_simt.cpp, once the number of sites is known).
  if (msl()) return fmt::format("tr_fail(tr_status, tr_key0 + {}u);", fail_sites.size() - 1);
  if (opencl()) return fmt::format("tr_fail(tr_status, {});", fail_sites.size());  // the OpenCL prelude's
  return fmt::format("tr_fail_report(tr_fail, {});", fail_sites.size());
}

std::vector<std::string> Emitter::failure_messages() const {
  std::vector<std::string> out;
  for (const auto& f : fail_sites) {
    const std::string what = f.message.rfind("error: ", 0) == 0 ? f.message.substr(7) : "device_assert failed: " + f.message;
    out.push_back(fmt::format("{} at {}:{} in {}", what, f.file, f.line, fn_.name));
  }
  return out;
}

std::string SimtUnsupported::brief() const {
  if (!loc().valid()) return message();
  std::string file(loc().filename());
  if (const size_t slash = file.rfind('/'); slash != std::string::npos) file = file.substr(slash + 1);
  return fmt::format("{}:{}:{}: {}", file, loc().line, loc().col, message());
}

// ---- the kernel -------------------------------------------------------------------------------

std::string Emitter::render() {
  count_uses(fn_.body);
  ir::walk(const_cast<ir::Block&>(fn_.body), [&](ir::Op& op) {
    has_atomics_ = has_atomics_ || op.kind == OpKind::AtomicRMW || op.kind == OpKind::AtomicCAS;
  });
  out_.clear();
  prologue_ = msl()      ? "  const int32_t tr_tid = (int32_t)tr_tid_in, tr_lane = tr_tid & 31, tr_warp = tr_tid >> 5;\n"
                           "  (void)tr_lane; (void)tr_warp;\n"
              : opencl() ? "  const int32_t tr_tid = (int32_t)get_local_id(0), tr_lane = tr_tid & 31, tr_warp = tr_tid >> 5;\n"
                           "  (void)tr_lane; (void)tr_warp;\n"
                    : "  const int32_t tr_tid = (int32_t)threadIdx.x, tr_lane = tr_tid & 31, tr_warp = tr_tid >> 5;\n"
                      "  (void)tr_lane; (void)tr_warp; (void)tr_fail;\n";
  indent_ = 1;
  for (size_t i = 0; i < fn_.body.args.size(); ++i) {
    const Value* a = fn_.body.args[i];
    if (a->type.is_tensor())
      throw frontend::CompileError(fn_.loc, "cuda backend: kernel parameter " + std::to_string(i) +
                                                " is a tensor; only pointers and scalars can be passed");
    const std::string ct = cx_.type(a->type);
    std::string src;
    if (msl()) {  // buffers bound at their offsets; scalars by constant reference (msl_simt.cpp)
      src = !a->type.is_ptr && a->type.scalar == ir::ScalarType::I1 ? fmt::format("(uint8_t)(a{} != 0)", i)
                                                                      : fmt::format("a{}", i);
    } else if (opencl()) {  // a buffer and a byte offset into it (opencl_simt.cpp)
      src = a->type.is_ptr ? fmt::format("({})(a{}_base + a{}_off)", ct, i, i)
            : a->type.scalar == ir::ScalarType::I1 ? fmt::format("(uint8_t)(a{} != 0)", i)
                                                   : fmt::format("a{}", i);
    } else if (a->type.is_ptr) {
      src = fmt::format("({})a{}.ptr", ct, i);
    } else {
      switch (a->type.scalar) {
        case ir::ScalarType::F32: src = fmt::format("a{}.f32", i); break;
        case ir::ScalarType::F64: src = fmt::format("a{}.f64", i); break;
        case ir::ScalarType::I1: src = fmt::format("(uint8_t)(a{}.u64 != 0)", i); break;
        default:
          src = ir::is_signed_int(a->type.scalar) ? fmt::format("({})a{}.i64", ct, i) : fmt::format("({})a{}.u64", ct, i);
      }
    }
    std::string n = fresh("s");
    line(fmt::format("{} const {} = {};{}", ct, n, src, a->name.empty() ? "" : "  // " + a->name));
    bind_scalar(a, n);
  }
  emit_block(fn_.body);
  if (opencl()) {  // no ring, no global scratch: local memory for scratch and lane exchanges
    std::string head = fmt::format("  __local uchar tr_smem_[{}] __attribute__((aligned(16)));\n"
                                   "  __local uchar* const tr_smem = tr_smem_;\n  (void)tr_smem;\n",
                                   std::max<int64_t>(16, (smem_bytes_ + 15) / 16 * 16));
    if (uses_exchange_) head += fmt::format("  __local ulong tr_xchg[{}];\n", threads());
    return head + prologue_ + out_;
  }
  if (msl()) {  // no ring, no global scratch: the threadgroup memory is scratch alone
    std::string head = "  threadgroup uchar* const tr_smem = tr_dyn_smem;\n  (void)tr_smem;\n";
    if (!fail_sites.empty())
      head += fmt::format(
          "  // a failure at site k (1-based) of the lowest failing program: (linear program id * {0} + k - 1)\n"
          "  const uint tr_key0 = ((uint)tr_pid.x + (uint)tr_npid.x * ((uint)tr_pid.y + (uint)tr_npid.y * (uint)tr_pid.z)) * {0}u;\n",
          fail_sites.size());
    return head + prologue_ + out_;
  }
  // The pipelining ring first (cuda_emit_pipeline.cpp), scratch after it.
  // The ring first (cuda_emit_pipeline.cpp), scratch after it (or over it, when no pipelined
  // loop body uses scratch). wgmma's swizzled tiles must start 1024-byte aligned: then the
  // base is rounded up at run time (1 KiB more is allocated, shared_bytes()).
  const std::string smem = fmt::format(
      "  const uint32_t tr_dyn_u = (uint32_t)__cvta_generic_to_shared(tr_dyn_smem);\n"
      "  const uint32_t tr_pad = {}, tr_ring = tr_dyn_u + tr_pad;\n"
      "  unsigned char* const tr_smem = tr_dyn_smem + tr_pad + {};\n  (void)tr_smem; (void)tr_ring;\n",
      sm90a() ? "(0u - tr_dyn_u) & 1023u" : "0u", ring_scratch_disjoint_ ? ring_bytes_ : 0);
  // The program's global scratch (tensor maps; cuda_emit_tma.cpp), by its linear block index.
  const std::string gs =
      tma_descs_ == 0 ? std::string()
                      : fmt::format("  unsigned char* const tr_gs = tr_gscratch + ((uint64_t)blockIdx.x + (uint64_t)gridDim.x * "
                                    "((uint64_t)blockIdx.y + (uint64_t)gridDim.y * blockIdx.z)) * {}ull;\n",
                                    global_scratch_bytes());
  return smem + gs + prologue_ + out_;
}

}  // namespace tritium::codegen::cuda
