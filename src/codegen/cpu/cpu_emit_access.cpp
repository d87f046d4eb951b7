// CPU renderer: fast paths for contiguous loads and stores.
//
// Triton computes offsets in wrapping int32 arithmetic, which hides from the C++ compiler
// that `base + (pid*B + arange(B))` walks memory contiguously (it emits gathers and scalar
// masked stores). When the pointer tensor is an affine function of the loop indices with
// stride 1 along the last dimension, and the mask is a conjunction of "row-uniform" terms
// and prefix bounds `offs < n` (offs affine, stride 1 along the last dimension), the access
// is rendered as
//
//   if (<no intermediate value of the offset arithmetic wraps for this block>) {
//     for each row:  lim = clamp(n - offs(row, 0), 0, L)   (and 0 when a row term is false)
//                    v[row, 0:lim] = p_row[0:lim];  v[row, lim:L] = other
//   } else { <the general element-by-element loop> }
//
// The guard makes the fast path exact: with no wrap, the int64 affine value equals the
// wrapped int32 one, so the same lanes are read and written. Worked example, vector add
// with BLOCK = 1024: offs = pid*1024 + arange(1024) is affine (base pid*1024, stride 1);
// the guard checks pid*1024 and pid*1024 + 1023 fit in int32; the mask offs < n becomes
// lim = clamp(n - pid*1024, 0, 1024).
#include <fmt/format.h>

#include <functional>
#include <unordered_set>

#include <algorithm>
#include <charconv>
#include <optional>

#include "codegen/cpu/cpu_emitter.h"

namespace tritium::codegen::cpu {

using ir::Op;
using ir::OpKind;
using ir::ScalarType;
using ir::Value;

namespace {

// Elements per chunk of a store row's value loop (Emitter::emit_fast_access): 1 KiB of fp32.
constexpr int64_t kStoreChunk = 256;

/// An integer tensor as base + sum_d coef[d] * i_d (exact math; C++ __int128 expressions).
struct Affine {
  std::string base;
  std::vector<std::string> coef;
};

std::optional<int64_t> literal_int(const std::string& s) {
  int64_t v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string add_e(const std::string& a, const std::string& b, bool sub = false) {
  auto x = literal_int(a), y = literal_int(b);
  if (x && y && *x > -(int64_t{1} << 40) && *x < (int64_t{1} << 40) && *y > -(int64_t{1} << 40) && *y < (int64_t{1} << 40))
    return std::to_string(sub ? *x - *y : *x + *y);
  if (y && *y == 0) return a;
  if (x && *x == 0 && !sub) return b;
  return fmt::format("({} {} {})", a, sub ? "-" : "+", b);
}

std::string mul_e(const std::string& a, const std::string& b) {
  auto x = literal_int(a), y = literal_int(b);
  if ((x && *x == 0) || (y && *y == 0)) return "0";
  if (x && *x == 1) return b;
  if (y && *y == 1) return a;
  if (x && y && *x > -(int64_t{1} << 30) && *x < (int64_t{1} << 30) && *y > -(int64_t{1} << 30) && *y < (int64_t{1} << 30))
    return std::to_string(*x * *y);
  return fmt::format("({} * {})", a, b);
}

/// Range of an integer type as __int128 literals.
std::pair<std::string, std::string> type_range(ScalarType t) {
  switch (t) {
    case ScalarType::I8: return {"-128", "127"};
    case ScalarType::I16: return {"-32768", "32767"};
    case ScalarType::I32: return {"-2147483648LL", "2147483647LL"};
    case ScalarType::I64: return {"(-(__int128)9223372036854775807LL - 1)", "(__int128)9223372036854775807LL"};
    case ScalarType::U8: return {"0", "255"};
    case ScalarType::U16: return {"0", "65535"};
    case ScalarType::U32: return {"0", "4294967295LL"};
    case ScalarType::U64: return {"0", "(__int128)18446744073709551615ull"};
    default: return {"0", "1"};
  }
}

class AffineAnalysis {
 public:
  explicit AffineAnalysis(Emitter& e) : e_(e) {}
  std::vector<std::string> guards;  // C++ bool expressions that make the affine forms exact

  /// The affine form of integer value `v` (a scalar or a virtual tensor), or nullopt.
  std::optional<Affine> of(const Value* v) {
    if (v->type.is_ptr || !v->type.is_int() || v->type.scalar == ScalarType::I1 || v->type.scalar == ScalarType::U64)
      return std::nullopt;
    const int rank = v->type.rank();
    if (v->type.is_scalar() || e_.storage(v) == Storage::Scalar) {
      if (!v->type.is_scalar()) return std::nullopt;
      return Affine{fmt::format("(__int128){}", e_.name(v)), {}};
    }
    if (e_.storage(v) != Storage::Virtual || !v->def) return std::nullopt;
    const Op& op = *v->def;
    const auto& shape = v->type.shape;
    switch (op.kind) {
      case OpKind::Constant: {
        auto it = op.attrs.find("value");
        if (it == op.attrs.end() || !std::holds_alternative<int64_t>(it->second)) return std::nullopt;
        return Affine{std::to_string(std::get<int64_t>(it->second)), std::vector<std::string>(rank, "0")};
      }
      case OpKind::MakeRange:
        return Affine{std::to_string(op.attr_int("start")), {"1"}};
      case OpKind::Splat: {
        auto s = of(op.operands[0]);
        if (!s) return std::nullopt;
        return Affine{s->base, std::vector<std::string>(rank, "0")};
      }
      case OpKind::Hint:
        return of(op.operands[0]);
      case OpKind::Broadcast: {
        auto s = of(op.operands[0]);
        if (!s) return std::nullopt;
        const auto& src = op.operands[0]->type.shape;
        for (size_t d = 0; d < src.size(); ++d)
          if (src[d] == 1) s->coef[d].assign(1, '0');
        return s;
      }
      case OpKind::ExpandDims: {
        auto s = of(op.operands[0]);
        if (!s) return std::nullopt;
        s->coef.insert(s->coef.begin() + op.attr_int("axis"), "0");
        return s;
      }
      case OpKind::Add: case OpKind::Sub: {
        auto a = of(op.operands[0]), b = of(op.operands[1]);
        if (!a || !b) return std::nullopt;
        const bool sub = op.kind == OpKind::Sub;
        Affine r{add_e(a->base, b->base, sub), {}};
        for (int d = 0; d < rank; ++d) r.coef.push_back(add_e(a->coef[d], b->coef[d], sub));
        guard(r, v->type.scalar, shape);
        return r;
      }
      case OpKind::Mul: {
        auto a = of(op.operands[0]), b = of(op.operands[1]);
        if (!a || !b) return std::nullopt;
        auto uniform = [](const Affine& x) {
          for (auto& c : x.coef)
            if (c != "0") return false;
          return true;
        };
        if (!uniform(*b)) std::swap(a, b);
        if (!uniform(*b)) return std::nullopt;  // a product of two varying values is not affine
        Affine r{mul_e(a->base, b->base), {}};
        for (int d = 0; d < rank; ++d) r.coef.push_back(mul_e(a->coef[d], b->base));
        guard(r, v->type.scalar, shape);
        return r;
      }
      case OpKind::Cast: {  // int -> int keeps the value when it fits the target type
        const ir::Type& src = op.operands[0]->type;
        if (src.is_ptr || !src.is_int() || src.scalar == ScalarType::I1) return std::nullopt;
        auto a = of(op.operands[0]);
        if (!a) return std::nullopt;
        guard(*a, v->type.scalar, shape);
        return a;
      }
      default:
        return std::nullopt;
    }
  }

  /// Pointer tensor `p` as scalar base pointer + affine element offset.
  bool pointer(const Value* p, std::string* base, Affine* off) {
    if (p->type.is_scalar()) return false;
    if (const Emitter::CarriedPtr* cp = e_.carried_ptr(p)) {
      if (!pointer(cp->init, base, off)) return false;
      off->base = add_e(off->base, fmt::format("(__int128){}", cp->off));
      return true;
    }
    if (e_.storage(p) != Storage::Virtual) return false;
    const Op& op = *p->def;
    const int rank = p->type.rank();
    switch (op.kind) {
      case OpKind::Splat:
        if (e_.storage(op.operands[0]) != Storage::Scalar) return false;
        *base = e_.name(op.operands[0]);
        *off = Affine{"0", std::vector<std::string>(rank, "0")};
        return true;
      case OpKind::Hint:
        return pointer(op.operands[0], base, off);
      case OpKind::Broadcast: {
        if (!pointer(op.operands[0], base, off)) return false;
        const auto& src = op.operands[0]->type.shape;
        for (size_t d = 0; d < src.size(); ++d)
          if (src[d] == 1) off->coef[d].assign(1, '0');
        return true;
      }
      case OpKind::ExpandDims:
        if (!pointer(op.operands[0], base, off)) return false;
        off->coef.insert(off->coef.begin() + op.attr_int("axis"), "0");
        return true;
      case OpKind::AddPtr: {
        Affine inner;
        if (!pointer(op.operands[0], base, &inner)) return false;
        auto o = of(op.operands[1]);
        if (!o) return false;
        off->base = add_e(inner.base, o->base);
        off->coef.clear();
        for (int d = 0; d < rank; ++d) off->coef.push_back(add_e(inner.coef[d], o->coef[d]));
        return true;
      }
      default:
        return false;
    }
  }

 private:
  /// Requires every value of `a` over the index box of `shape` to fit type `t`.
  void guard(const Affine& a, ScalarType t, const std::vector<int64_t>& shape) {
    auto [lo, hi] = type_range(t);
    std::string args = a.base;
    for (size_t d = 0; d < 4; ++d) {
      if (d < a.coef.size() && a.coef[d] != "0" && shape[d] > 1) args += fmt::format(", {}, {}", a.coef[d], shape[d]);
      else args += ", 0, 1";
    }
    if (a.coef.size() > 4) {
      guards.push_back("false");
      return;
    }
    guards.push_back(fmt::format("tr_aff_in({}, {}, {})", lo, hi, args));
  }
  Emitter& e_;
};

/// Bit d set when `v` (virtual or not) may depend on index dimension d of its shape.
}  // namespace

uint64_t Emitter::dims_used(const Value* v) {
  const int rank = v->type.rank();
  const uint64_t all = rank >= 64 ? ~0ull : (1ull << rank) - 1;
  if (v->type.is_scalar()) return 0;
  if (const CarriedPtr* cp = carried_ptr(v)) return dims_used(cp->init);
  if (storage(v) != Storage::Virtual) return all;
  const Op& op = *v->def;
  switch (op.kind) {
    case OpKind::Constant: case OpKind::Undef: case OpKind::Splat: return 0;
    case OpKind::MakeRange: return 1;
    case OpKind::Hint: return dims_used(op.operands[0]);
    case OpKind::Broadcast: {
      uint64_t m = dims_used(op.operands[0]);
      const auto& src = op.operands[0]->type.shape;
      for (size_t d = 0; d < src.size(); ++d)
        if (src[d] == 1) m &= ~(1ull << d);
      return m;
    }
    case OpKind::ExpandDims: {
      const int axis = static_cast<int>(op.attr_int("axis"));
      uint64_t m = dims_used(op.operands[0]);
      uint64_t low = m & ((1ull << axis) - 1);
      return low | ((m >> axis) << (axis + 1));
    }
    case OpKind::Reshape: case OpKind::Trans: case OpKind::Split: return all;
    default: {
      uint64_t m = 0;
      for (auto* o : op.operands) m |= o->type.is_scalar() ? 0 : dims_used(o);
      return m;
    }
  }
}

namespace {

/// A prefix bound along the last dimension: lanes with offs(row, j) < rhs (or <= rhs).
struct Prefix {
  Affine offs;
  const Value* rhs;  // row-uniform integer value
  bool inclusive;
};

}  // namespace

FastAccess Emitter::emit_fast_access(const Op& op, const std::string& dst, const std::string& alias) {
  if (cl_like()) return FastAccess::kNone;  // OpenCL C: the general element loops
  if (opts_.sanitize) return FastAccess::kNone;  // every access checked, element by element
  const bool is_load = op.kind == OpKind::Load;
  const Value* ptr = op.operands[0];
  const Value* mask = nullptr;
  const Value* other = nullptr;
  const Value* val = nullptr;
  if (is_load) {
    if (op.operands.size() >= 2) mask = op.operands[1];
    if (op.operands.size() >= 3) other = op.operands[2];
    if (op.attr_int("volatile", 0)) return FastAccess::kNone;
  } else {
    val = op.operands[1];
    if (op.operands.size() >= 3) mask = op.operands[2];
  }
  const auto& shape = ptr->type.shape;
  const int rank = static_cast<int>(shape.size());
  if (rank == 0 || rank > 4 || ptr->type.scalar == ScalarType::I1) return FastAccess::kNone;
  const int64_t L = shape[rank - 1];
  if (L < 4) return FastAccess::kNone;
  const uint64_t last_bit = 1ull << (rank - 1);

  AffineAnalysis aa(*this);
  std::string pbase;
  Affine poff;
  if (!aa.pointer(ptr, &pbase, &poff)) return FastAccess::kNone;
  if (poff.coef[rank - 1] != "1") return FastAccess::kNone;

  // Mask: a conjunction of row-uniform terms and prefix bounds.
  std::vector<const Value*> row_terms;
  std::vector<Prefix> prefixes;
  std::vector<const Value*> todo;
  if (mask) todo.push_back(mask);
  while (!todo.empty()) {
    const Value* m = todo.back();
    todo.pop_back();
    if (!(dims_used(m) & last_bit)) {
      row_terms.push_back(m);
      continue;
    }
    if (storage(m) != Storage::Virtual) return FastAccess::kNone;
    const Op& mo = *m->def;
    if (mo.kind == OpKind::And) {
      todo.push_back(mo.operands[0]);
      todo.push_back(mo.operands[1]);
      continue;
    }
    if (mo.kind == OpKind::Broadcast && mo.operands[0]->type.shape.back() == L) {  // e.g. (rn < N)[None, :]
      // Only a pure re-broadcast of leading dims keeps the last dimension's meaning.
      todo.push_back(mo.operands[0]);
      if (mo.operands[0]->type.rank() != rank) return FastAccess::kNone;
      continue;
    }
    if (mo.kind != OpKind::Cmp) return FastAccess::kNone;
    const std::string pred = mo.attr_str("pred");
    const Value* lhs = mo.operands[0];
    const Value* rhs = mo.operands[1];
    bool swapped = false;
    if (pred == "gt" || pred == "ge") std::swap(lhs, rhs), swapped = true;
    else if (pred != "lt" && pred != "le") return FastAccess::kNone;
    if (lhs->type.rank() != rank || dims_used(rhs) & last_bit) return FastAccess::kNone;
    auto a = aa.of(lhs);
    if (!a || a->coef[rank - 1] != "1") return FastAccess::kNone;
    for (int d = 0; d < rank; ++d)
      if (lhs->type.shape[d] == 1) a->coef[d].assign(1, '0');  // a broadcast operand: constant along d
    if (!rhs->type.is_int() || rhs->type.scalar == ScalarType::U64 || rhs->type.scalar == ScalarType::I1) return FastAccess::kNone;
    prefixes.push_back(Prefix{*a, rhs, (pred == "le") || (swapped && pred == "ge")});
  }

  // ---- emission ----
  std::string g;
  std::vector<std::string> seen;
  for (auto& s : aa.guards) {
    if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
    seen.push_back(s);
    g += (g.empty() ? "" : " && ") + s;
  }
  const bool guarded = !g.empty();
  // A rank-1 load (at any loop depth) predicts the next program's row from each row it reads
  // (tr_pf_note, the prelude); the compute loops after it prefetch the predictions.
  const int pf_site = is_load && rank == 1 && pf_sites_ < 8 ? pf_sites_++ : -1;
  if (guarded) {
    std::string ok = fresh("fast");
    line(fmt::format("const bool {} = {};", ok, g));
    open(fmt::format("if ({})", ok));
  } else {
    open("");  // no offset arithmetic can wrap: the contiguous loops are always exact
  }
  const std::string T = ctype(ptr->type.element());  // pointer type
  int id = counter_++;
  // Streaming stores (the prelude's tr_stream_n): rows of at least 256 bytes, decided once
  // per op and launch from the bytes the whole grid writes through it; not in kernels with
  // atomics, whose ordering non-temporal stores would weaken.
  const int esize = ir::byte_size(ptr->type.scalar);
  std::string nt;
  if (!is_load && T.find('*') + 1 == T.size() && may_stream_ && L * esize >= 256 && !heavy_in_place(val)) {
    nt = fresh("nt");
    line(fmt::format("const bool {} = TR_STREAM && host->stream_min_bytes >= 0 && (double)grid[0] * grid[1] * grid[2] "
                     "* {}.0 >= (double)host->stream_min_bytes;",
                     nt, ptr->type.numel() * esize));
    streams_ = true;
  }
  memo_.emplace_back();
  Idx row;
  int loops = 0;
  for (int d = 0; d + 1 < rank; ++d) {
    if (shape[d] == 1) {
      row.dims.push_back("0");
      continue;
    }
    std::string iv = fmt::format("i{}_{}", id, d);
    open(fmt::format("for (int64_t {0} = 0; {0} < {1}; ++{0})", iv, shape[d]));
    row.dims.push_back(iv);
    ++loops;
  }
  auto row_value = [&](const Affine& a) {  // the affine value at (row, 0) as int64
    std::string e = a.base;
    for (int d = 0; d + 1 < rank; ++d) e = add_e(e, mul_e(a.coef[d], row.dims[d]));
    return fmt::format("(int64_t)({})", e);
  };
  std::string rp = fresh("rowp"), lim = fresh("lim"), lb = fresh("lb");
  line(fmt::format("{} const {} = {} + {};", T, rp, pbase, row_value(poff)));
  Idx at0 = row;
  at0.dims.push_back("0");
  line(fmt::format("const int64_t {} = {};", lb, lin_of(at0, shape)));
  line(fmt::format("int64_t {} = {};", lim, L));
  for (const Value* t : row_terms) line(fmt::format("if (!{}) {} = 0;", elem(t, at0), lim));
  for (const Prefix& p : prefixes) {
    std::string bound = fmt::format("(int64_t)({}) - {}{}", elem(p.rhs, at0), row_value(p.offs), p.inclusive ? " + 1" : "");
    line(fmt::format("{0} = tr_imin<int64_t>({0}, tr_imax<int64_t>((int64_t)0, {1}));", lim, bound));
  }
  if (!is_load) {  // the row about to be written: copy aliased loads it overlaps first
    const std::string wbytes = fmt::format("{} * (int64_t)sizeof(*{})", lim, rp);
    snapshot_aliased_loads([&](const AliasedLoad& a) {
      return fmt::format("tr_overlap({}, (int64_t)({}), {}, {})", a.ptr, a.bytes, rp, wbytes);
    });
  }
  std::string j = fmt::format("j{}", id);
  // fp16 / bf16 stores of values computed in fp32 and rounded once (rounds_from_f32): the
  // values go to a local fp32 chunk, then one bulk RNE conversion (tr_f2h_n, tr_f2bf_n)
  // writes them.
  const bool f32_round = !is_load && rounds_from_f32(val);
  auto lane = [&](const std::string& start, const std::string& end, bool valid) {
    open(fmt::format("for (int64_t {0} = {1}; {0} < {2}; ++{0})", j, start, end));
    memo_.emplace_back();
    Idx i = row;
    i.dims.push_back(j);
    i.lin = fmt::format("({} + {})", lb, j);
    if (is_load) {
      std::string v = valid ? fmt::format("{}[{}]", rp, j) : (other ? elem(other, i) : zero_of(ir::Type::of(ptr->type.scalar)));
      line(fmt::format("{}[{} + {}] = {};", dst, lb, j, v));
    } else {
      line(fmt::format("{}[{}] = {};", rp, j, elem(val, i)));
    }
    memo_.pop_back();
    close();
  };
  // A store row in chunks of kStoreChunk elements, when loads before it predict the next
  // program's rows and the row computes enough per byte to leave the memory system idle
  // (a rounding from fp32 to fp16 / bf16, or a math function or division): a burst of one
  // prefetched line per 16 elements before each chunk (16 lines; in a hand-written loop 8
  // lines per 256 elements did as well as one line per 16 elements, 16 slightly worse, 64 and
  // more clearly worse); cheap rows are left to the hardware prefetchers, which software
  // prefetches only disturbed there. Also when it may stream (each chunk goes to a local
  // buffer, streamed out when `nt` holds, else straight to the row: one copy of the value
  // code either way), or when
  // it rounds from fp32 (each chunk's fp32 values go to a local buffer and are converted by
  // one bulk call). A chunk keeps the local buffers in L1: a whole-row fp32 buffer of a
  // 4096-wide block is 16 KiB, and with the row's decoded operands it overflowed L1.
  const bool prefetch = !is_load && pf_sites_ > 0 && L >= 64 && (f32_round || cost_of(val).heavy);
  auto chunked_lanes = [&]() {
    const int64_t chunk = std::min<int64_t>(L, kStoreChunk);
    const std::string elem_t = T.substr(0, T.size() - 1);  // the element type
    const std::string c = fresh("c"), n = fresh("n");
    std::string buf, wp;
    if (f32_round) {
      buf = fresh("f32row");
      line(fmt::format("alignas(64) float {}[{}];", buf, chunk));
      array_bytes_ += chunk * 4;
    } else if (!nt.empty()) {
      buf = fresh("ntbuf");
      line(fmt::format("alignas(64) {} {}[{}];", elem_t, buf, chunk));
      array_bytes_ += chunk * esize;
    }
    open(fmt::format("for (int64_t {0} = 0; {0} < {1}; {0} += {2})", c, lim, chunk));
    line(fmt::format("const int64_t {} = tr_imin<int64_t>({}, {} - {});", n, chunk, lim, c));
    if (prefetch) line(fmt::format("tr_pf_step(pf, {});", (chunk + 15) / 16));
    if (!f32_round && !nt.empty()) {
      wp = fresh("wp");
      line(fmt::format("{} const {} = {} ? {} : {} + {};", T, wp, nt, buf, rp, c));
    }
    open(fmt::format("for (int64_t {0} = 0; {0} < {1}; ++{0})", j, n));
    memo_.emplace_back();
    Idx i = row;
    i.dims.push_back(fmt::format("({} + {})", c, j));
    i.lin = fmt::format("({} + {} + {})", lb, c, j);
    if (f32_round) line(fmt::format("{}[{}] = {};", buf, j, unrounded_f16(val, i)));
    else if (!wp.empty()) line(fmt::format("{}[{}] = {};", wp, j, elem(val, i)));
    else line(fmt::format("{}[{} + {}] = {};", rp, c, j, elem(val, i)));
    memo_.pop_back();
    close();
    if (f32_round) {
      const char* conv = ptr->type.scalar == ScalarType::BF16 ? "tr_f2bf_n" : "tr_f2h_n";
      if (nt.empty()) line(fmt::format("{}({} + {}, {}, {});", conv, rp, c, buf, n));
      else line(fmt::format("if ({0}) {1}_stream({2} + {3}, {4}, {5}); else {1}({2} + {3}, {4}, {5});", nt, conv, rp, c, buf, n));
    } else if (!nt.empty()) {
      line(fmt::format("if ({}) tr_stream_n({} + {}, {}, {} * (int64_t)sizeof(*{}));", nt, rp, c, buf, n, rp));
    }
    close();
  };
  const bool aliased = is_load && !alias.empty() && rank == 1;
  if (pf_site >= 0) line(fmt::format("tr_pf_note(pf, {}, {}, {});", pf_site, rp, L * esize));
  if (aliased) {  // every lane valid: read the block where it lies (load_may_alias)
    open(fmt::format("if ({} == {})", lim, L));
    line(fmt::format("{} = {};", alias, rp));
    close();
    open("else");
  }
  if (!is_load && (prefetch || !nt.empty() || f32_round)) chunked_lanes();
  else lane("0", lim, true);
  if (is_load && (!prefixes.empty() || !row_terms.empty())) lane(lim, std::to_string(L), false);
  if (aliased) close();
  for (int k = 0; k < loops; ++k) close();
  memo_.pop_back();
  close();
  return guarded ? FastAccess::kGuarded : FastAccess::kAlways;
}

Emitter::ValueCost Emitter::cost_of(const Value* v) {
  ValueCost c;
  std::unordered_set<const Value*> seen;
  std::function<void(const Value*)> walk = [&](const Value* x) {
    if (x->type.is_scalar() || !seen.insert(x).second) return;
    if (storage(x) == Storage::Array) {
      if (!twin(x))
        for (const AliasedLoad& a : aliased_loads)
          if (a.ptr == name(x)) c.in_place = true;
      return;
    }
    if (storage(x) != Storage::Virtual || !x->def) return;
    const Op& op = *x->def;
    if (op.kind == OpKind::Math && op.math_fn() != ir::MathFn::Abs) c.heavy = true;
    if (op.kind == OpKind::Div && !x->type.is_ptr && ir::is_float(x->type.scalar)) c.heavy = true;
    for (const Value* o : op.operands) walk(o);
  };
  walk(v);
  return c;
}

bool Emitter::heavy_in_place(const Value* v) {
  const ValueCost c = cost_of(v);
  return c.heavy && c.in_place;
}

bool Emitter::rounds_from_f32(const Value* v) const {
  if (storage(v) != Storage::Virtual || !v->def || v->type.is_ptr ||
      (v->type.scalar != ScalarType::F16 && v->type.scalar != ScalarType::BF16))
    return false;
  const Op& op = *v->def;
  switch (op.kind) {
    case OpKind::Cast: {
      const ir::Type& src = op.operands[0]->type;
      const std::string r = op.attr_str("rounding");
      return !src.is_ptr && src.scalar == ScalarType::F32 && (r.empty() || r == "rtne");
    }
    case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div:
      return true;
    default:
      return false;
  }
}

std::string Emitter::unrounded_f16(const Value* v, const Idx& idx) {
  if (!rounds_from_f32(v)) return "";
  const Op& op = *v->def;
  switch (op.kind) {
    case OpKind::Cast:
      return elem(op.operands[0], idx);
    case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div: {
      const char* o = op.kind == OpKind::Add ? "+" : op.kind == OpKind::Sub ? "-" : op.kind == OpKind::Mul ? "*" : "/";
      // elementwise_expr's fp16 / bf16 arithmetic, without its final tr_f2h / tr_f2bf
      return fmt::format("({} {} {})", compute_elem(op.operands[0], idx), o, compute_elem(op.operands[1], idx));
    }
    default:
      return "";
  }
}

}  // namespace tritium::codegen::cpu
