// CUDA renderer: reductions in the canonical order, scans, and the ops that gather
// elements from shared memory (split, flip, cat, gather, histogram).
//
// Reduce along axis a of length n = 2^B: the coordinate bits of a are combined from the top
// bit down, each pair with the lower index on the left — exactly the interpreter's halving
// tree (interpreter.h, "Reduce"). A bit held by a register is combined in the thread, a lane
// bit with __shfl_xor_sync, a warp bit through shared memory; both partners compute the
// same combined value, so the result's broadcast lanes and warps agree. Consecutive warp
// bits share one shared-memory round (each thread combines its group's partials itself).
// A combine whose result does not depend on the order (order_free_combine: integer
// max / min / add / and / or / xor; float max / min / add in native numerics, as upstream
// Triton) takes the cheaper order instead: registers, then lanes, then warps.
#include <fmt/format.h>

#include "codegen/cuda/cuda_emitter.h"
#include "codegen/topk_text.h"
#include "ir/sort_params.h"

namespace tritium::codegen::cuda {

using ir::Op;
using ir::OpKind;
using ir::Value;

std::vector<std::string> Emitter::emit_combine(const Op& op, const std::vector<std::string>& lhs,
                                               const std::vector<std::string>& rhs) {
  const ir::Block& body = op.body();
  const size_t n = lhs.size();
  if (body.args.size() != 2 * n) refuse(op, "combine region must take two values per operand");
  for (size_t k = 0; k < n; ++k) {
    bind_scalar(body.args[k], lhs[k]);
    bind_scalar(body.args[n + k], rhs[k]);
  }
  std::vector<std::string> out;
  terminator_handlers.push_back([&](const Op& y) {
    if (y.kind != OpKind::Yield || y.operands.size() != n) refuse(op, "combine region must yield one value per operand");
    for (const Value* v : y.operands) {
      if (!v->type.is_scalar()) refuse(op, "combine region must yield scalars");
      out.push_back(scalar(v));
    }
  });
  emit_block(body);
  terminator_handlers.pop_back();
  return out;
}

namespace {
// True when every order of combining gives the same result bits (or, in native numerics,
// results as conformant as the canonical order's, as upstream Triton's own order is): a
// reduce of one operand whose region is a single max / min / add / and / or / xor of its two
// arguments. Integers: always (exact, commutative and associative). Floats: native only —
// max / min may then differ in the sign of a zero result or a NaN's payload, sums in rounding.
bool order_free_combine(const Op& op, bool native) {
  if (op.operands.size() != 1 || op.regions.empty()) return false;
  const ir::Block& b = op.body();
  if (b.ops.size() != 2 || b.args.size() != 2) return false;
  const Op& c = *b.ops[0];
  const Op& y = *b.ops[1];
  if (y.kind != OpKind::Yield || y.operands.size() != 1 || c.results.size() != 1 || y.operands[0] != c.results[0] ||
      c.operands.size() != 2)
    return false;
  const bool args = (c.operands[0] == b.args[0] && c.operands[1] == b.args[1]) ||
                    (c.operands[0] == b.args[1] && c.operands[1] == b.args[0]);
  if (!args || c.results[0]->type.is_ptr) return false;
  const bool fl = ir::is_float(c.results[0]->type.scalar);
  switch (c.kind) {
    case OpKind::Max: case OpKind::Min: case OpKind::Add: return !fl || native;
    case OpKind::And: case OpKind::Or: case OpKind::Xor: return !fl;
    default: return false;
  }
}
}  // namespace

void Emitter::emit_reduce(const Op& op) {
  const size_t N = op.operands.size();
  const Value* x0 = op.operands[0];
  const int axis = static_cast<int>(op.attr_int("axis"));
  const LinearLayout& L = layout_of(x0);
  if (!is_simple(L)) refuse(op, "operand layout is not a simple blocked layout");
  const int64_t R = L.size(HwDim::Register);
  const int64_t n = x0->type.shape[static_cast<size_t>(axis)];
  int nb = 0;
  while ((int64_t{1} << nb) < n) ++nb;
  std::vector<std::string> w(N), T(N);
  for (size_t k = 0; k < N; ++k) {
    T[k] = cx_.type(op.operands[k]->type.element());
    w[k] = declare_array(op.operands[k]->type, R, "rw");
    for (int64_t r = 0; r < R; ++r) line(fmt::format("{}[{}] = {};", w[k], r, el(op.operands[k], L, r)));
  }
  std::vector<int64_t> live;
  for (int64_t r = 0; r < R; ++r) live.push_back(r);
  // One shared-memory slot per thread and partial, as wide as the widest operand element
  // (16-byte aligned).
  int64_t widest = 1;
  for (const Value* o : op.operands) widest = std::max<int64_t>(widest, o->type.is_ptr ? 8 : ir::byte_size(o->type.scalar));
  const int64_t slot_bytes = (widest * threads() + 15) / 16 * 16;
  auto combine_into = [&](int64_t r, const std::vector<std::string>& lhs, const std::vector<std::string>& rhs) {
    std::vector<std::string> res = emit_combine(op, lhs, rhs);
    for (size_t k = 0; k < N; ++k) line(fmt::format("{}[{}] = {};", w[k], r, res[k]));
  };
  const bool any_order = order_free_combine(op, !opts_.portable_numerics);
  if (any_order) {
    // Any order: the thread's registers first, then lanes by butterfly shuffles (both
    // partners combine the same two values), then all warp bits in one shared-memory round.
    std::vector<int> lane_bits, warp_bits;
    for (int j = 0; j < nb; ++j) {
      auto [h, bit] = holder(L, axis, j);
      if (h < 0) refuse(op, "reduced axis bit without a holder");
      if (h == 1) lane_bits.push_back(bit);
      if (h == 2) warp_bits.push_back(bit);
      if (h != 0) continue;
      std::vector<int64_t> next;
      for (int64_t r : live) {
        if ((r >> bit) & 1) continue;
        combine_into(r, {fmt::format("{}[{}]", w[0], r)}, {fmt::format("{}[{}]", w[0], r | (int64_t{1} << bit))});
        next.push_back(r);
      }
      live = next;
    }
    for (int bit : lane_bits)
      for (int64_t r : live) {
        const std::string o = fresh("o");
        shfl_xor(T[0], o, fmt::format("{}[{}]", w[0], r), 1 << bit);
        combine_into(r, {fmt::format("{}[{}]", w[0], r)}, {o});
      }
    if (!warp_bits.empty()) {
      const int64_t slot = slot_bytes;
      need_smem(slot * static_cast<int64_t>(live.size()));
      barrier();
      for (size_t s = 0; s < live.size(); ++s)
        line(fmt::format("(({})(tr_smem + {}))[tr_tid] = {}[{}];", sp(T[0]), slot * static_cast<int64_t>(s), w[0], live[s]));
      barrier();
      int64_t mask = 0;
      for (int b : warp_bits) mask |= int64_t{32} << b;
      const int64_t C = int64_t{1} << warp_bits.size();
      // Where the lowest log2(C) lane bits hold one value (reduced above, or broadcast),
      // lane j of each group of C lanes reads the partial of the group's j-th warp and the
      // group combines them by shuffles: one shared-memory read per thread instead of C.
      bool by_lanes = L.bits(HwDim::Lane) >= static_cast<int>(warp_bits.size());
      for (size_t i = 0; i < warp_bits.size() && by_lanes; ++i) {
        const auto& bl = L.basis(HwDim::Lane, static_cast<int>(i));
        for (size_t d = 0; d < bl.size(); ++d) by_lanes = by_lanes && (bl[d] == 0 || static_cast<int>(d) == axis);
      }
      if (by_lanes) {
        std::string place;
        for (size_t i = 0; i < warp_bits.size(); ++i)
          place += fmt::format("{}(((tr_lane >> {}) & 1) << {})", place.empty() ? "" : " | ", i, 5 + warp_bits[i]);
        for (size_t s = 0; s < live.size(); ++s) {
          std::string acc = fresh("o");
          line(fmt::format("{} {} = (({})(tr_smem + {}))[(tr_tid & ~{}) | {}];", T[0], acc, sp(T[0]),
                           slot * static_cast<int64_t>(s), mask, place));
          for (size_t i = 0; i < warp_bits.size(); ++i) {
            const std::string o = fresh("o");
            shfl_xor(T[0], o, acc, 1 << i);
            line(fmt::format("{} = {};", acc, emit_combine(op, {acc}, {o})[0]));
          }
          line(fmt::format("{}[{}] = {};", w[0], live[s], acc));
        }
      }
      for (size_t s = 0; s < live.size() && !by_lanes; ++s) {
        std::string acc;
        for (int64_t c = 0; c < C; ++c) {
          int64_t place = 0;
          for (size_t i = 0; i < warp_bits.size(); ++i)
            if ((c >> i) & 1) place |= int64_t{32} << warp_bits[i];
          const std::string o = fresh("o");
          line(fmt::format("const {} {} = (({})(tr_smem + {}))[(tr_tid & ~{}) | {}];", T[0], o, sp(T[0]),
                           slot * static_cast<int64_t>(s), mask, place));
          if (acc.empty()) {
            acc = o;
            continue;
          }
          const std::string n = fresh("c");
          line(fmt::format("const {} {} = {};", T[0], n, emit_combine(op, {acc}, {o})[0]));
          acc = n;
        }
        line(fmt::format("{}[{}] = {};", w[0], live[s], acc));
      }
    }
  }
  for (int j = nb - 1; j >= 0 && !any_order; --j) {
    auto [h, bit] = holder(L, axis, j);
    if (h < 0) refuse(op, "reduced axis bit without a holder");
    if (h == 0) {
      std::vector<int64_t> next;
      for (int64_t r : live) {
        if ((r >> bit) & 1) continue;
        std::vector<std::string> lhs, rhs;
        for (size_t k = 0; k < N; ++k) {
          lhs.push_back(fmt::format("{}[{}]", w[k], r));
          rhs.push_back(fmt::format("{}[{}]", w[k], r | (int64_t{1} << bit)));
        }
        combine_into(r, lhs, rhs);
        next.push_back(r);
      }
      live = next;
      continue;
    }
    if (h == 2) {
      // A warp bit, with the warp bits right below it: one shared-memory round for all of
      // them; each thread reads the partials of every warp of its group and combines them
      // in the same tree (the first bit's pairs first), lower index on the left.
      std::vector<int> wb = {bit};
      while (j > 0 && holder(L, axis, j - 1).first == 2) wb.push_back(holder(L, axis, --j).second);
      const int64_t slot = slot_bytes;
      need_smem(slot * static_cast<int64_t>(live.size() * N));
      barrier();
      for (size_t s = 0; s < live.size(); ++s)
        for (size_t k = 0; k < N; ++k)
          line(fmt::format("(({})(tr_smem + {}))[tr_tid] = {}[{}];", sp(T[k]), slot * static_cast<int64_t>(s * N + k), w[k],
                           live[s]));
      barrier();
      int64_t mask = 0;
      for (int b : wb) mask |= int64_t{32} << b;
      const int64_t C = int64_t{1} << wb.size();
      for (size_t s = 0; s < live.size(); ++s) {
        std::vector<std::vector<std::string>> cur(static_cast<size_t>(C), std::vector<std::string>(N));
        for (int64_t c = 0; c < C; ++c) {
          int64_t place = 0;
          for (size_t i = 0; i < wb.size(); ++i)
            if ((c >> i) & 1) place |= int64_t{32} << wb[i];
          for (size_t k = 0; k < N; ++k) {
            cur[c][k] = fresh("o");
            line(fmt::format("const {} {} = (({})(tr_smem + {}))[(tr_tid & ~{}) | {}];", T[k], cur[c][k], sp(T[k]),
                             slot * static_cast<int64_t>(s * N + k), mask, place));
          }
        }
        for (size_t i = 0; i < wb.size(); ++i)
          for (int64_t c = 0; c < C; ++c) {
            if (c & ((int64_t{2} << i) - 1)) continue;  // bits below and at i are zero
            std::vector<std::string> res = emit_combine(op, cur[c], cur[c | (int64_t{1} << i)]);
            for (size_t k = 0; k < N; ++k) {
              std::string n = fresh("c");
              line(fmt::format("const {} {} = {};", T[k], n, res[k]));
              cur[c][k] = n;
            }
          }
        for (size_t k = 0; k < N; ++k) line(fmt::format("{}[{}] = {};", w[k], live[s], cur[0][k]));
      }
      continue;
    }
    std::vector<std::vector<std::string>> other(live.size(), std::vector<std::string>(N));
    for (size_t s = 0; s < live.size(); ++s)  // a lane bit: the partner's partial by shuffle
      for (size_t k = 0; k < N; ++k) {
        other[s][k] = fresh("o");
        shfl_xor(T[k], other[s][k], fmt::format("{}[{}]", w[k], live[s]), 1 << bit);
      }
    std::string lower = fresh("lo");
    line(fmt::format("const bool {} = ((tr_lane >> {}) & 1) == 0;", lower, bit));
    for (size_t s = 0; s < live.size(); ++s) {
      std::vector<std::string> lhs, rhs;
      for (size_t k = 0; k < N; ++k) {
        const std::string mine = fmt::format("{}[{}]", w[k], live[s]);
        std::string a = fresh("l"), b = fresh("r");
        line(fmt::format("const {} {} = {} ? {} : {};", T[k], a, lower, mine, other[s][k]));
        line(fmt::format("const {} {} = {} ? {} : {};", T[k], b, lower, other[s][k], mine));
        lhs.push_back(a);
        rhs.push_back(b);
      }
      combine_into(live[s], lhs, rhs);
    }
  }
  std::vector<int> dropped;
  const LinearLayout S = slice_layout(L, axis, &dropped);
  std::vector<int> kept;
  for (int k = 0; k < L.bits(HwDim::Register); ++k)
    if (std::find(dropped.begin(), dropped.end(), k) == dropped.end()) kept.push_back(k);
  for (size_t k = 0; k < N; ++k) {
    const Value* res = op.results[k];
    if (res->type.is_scalar()) {
      std::string s = fresh("s");
      line(fmt::format("const {} {} = {}[0];", T[k], s, w[k]));
      bind_scalar(res, s);
      continue;
    }
    if (!(layout_of(res) == S)) refuse(op, "result layout differs from the operand's slice");
    std::string a = declare_array(res->type, S.size(HwDim::Register), "rd");
    for (int64_t r = 0; r < S.size(HwDim::Register); ++r) {
      int64_t rr = 0;
      for (size_t b = 0; b < kept.size(); ++b)
        if ((r >> b) & 1) rr |= int64_t{1} << kept[b];
      line(fmt::format("{}[{}] = {}[{}];", a, r, w[k], rr));
    }
    bind_array(res, a);
  }
}

namespace {
int64_t numel_of(const ir::Type& t) {
  int64_t n = 1;
  for (int64_t d : t.shape) n *= d;
  return n;
}
int64_t ebytes(const ir::Type& t) { return t.is_ptr ? 8 : std::max(1, ir::byte_size(t.scalar)); }
int64_t stride_of(const std::vector<int64_t>& shape, int axis) {
  int64_t s = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) s *= shape[d];
  return s;
}
int64_t align8(int64_t x) { return (x + 15) / 16 * 16; }  // 16: shared-memory vectors stay aligned
}  // namespace

void Emitter::emit_scan(const Op& op) {
  const size_t N = op.operands.size();
  const int axis = static_cast<int>(op.attr_int("axis"));
  const bool reverse = op.attr_int("reverse", 0) != 0;
  const auto& shape = op.operands[0]->type.shape;
  const int64_t n = shape[static_cast<size_t>(axis)], st = stride_of(shape, axis);
  for (const Value* o : op.operands) ensure(o, layout_of(o));  // conversions before the table is written
  barrier();
  std::vector<std::string> sm(N);
  int64_t off = 0;
  for (size_t k = 0; k < N; ++k) {
    sm[k] = to_smem(op.operands[k], off);
    off = align8(off + numel_of(op.operands[k]->type) * ebytes(op.operands[k]->type));
  }
  barrier();
  for (size_t k = 0; k < N; ++k)
    if (!(layout_of(op.results[k]) == layout_of(op.results[0]))) refuse(op, "scan results in different layouts");
  const LinearLayout& L = layout_of(op.results[0]);
  const int64_t R = L.size(HwDim::Register);
  std::vector<std::string> out(N);
  for (size_t k = 0; k < N; ++k) out[k] = declare_array(op.results[k]->type, R, "sc");
  for (int64_t r = 0; r < R; ++r) {
    open("");
    const std::string i = fresh("i"), base = fresh("b"), t = fresh("t");
    line(fmt::format("const int32_t {} = {};", i, coord(L, axis, r)));
    line(fmt::format("const int32_t {} = {} - {} * {};", base, lin(L, r), i, st));
    std::vector<std::string> acc(N);
    for (size_t k = 0; k < N; ++k) {
      acc[k] = fresh("acc");
      line(fmt::format("{} {} = {}[{} + {} * {}];", cx_.type(op.operands[k]->type.element()), acc[k], sm[k], base,
                       reverse ? n - 1 : 0, st));
    }
    const std::string last = reverse ? fmt::format("{} - 1 - {}", n, i) : i;
    if (opencl()) {
      // A trip count the same in every work-item, the steps past this one's own skipped:
      // PoCL 3.1's optimizer gives every work-item the last one's trip count otherwise
      // (ConformanceScan.CumsumAndCumprodOfFp32Rows; right with -cl-opt-disable).
      open(fmt::format("for (int32_t {0} = 1; {0} < {1}; ++{0})", t, n));
      open(fmt::format("if ({} <= {})", t, last));
    } else {
      open(fmt::format("for (int32_t {0} = 1; {0} <= {1}; ++{0})", t, last));
    }
    std::vector<std::string> xs(N);
    for (size_t k = 0; k < N; ++k) {
      xs[k] = fresh("x");
      line(fmt::format("const {} {} = {}[{} + ({}) * {}];", cx_.type(op.operands[k]->type.element()), xs[k], sm[k],
                       base, reverse ? fmt::format("{} - 1 - {}", n, t) : t, st));
    }
    std::vector<std::string> res = emit_combine(op, acc, xs);
    for (size_t k = 0; k < N; ++k) line(fmt::format("{} = {};", acc[k], res[k]));
    if (opencl()) close();
    close();
    for (size_t k = 0; k < N; ++k) line(fmt::format("{}[{}] = {};", out[k], r, acc[k]));
    close();
  }
  for (size_t k = 0; k < N; ++k) bind_array(op.results[k], out[k]);
}

void Emitter::emit_smem_gather(const Op& op) {
  if (op.kind == OpKind::Gather) ensure(op.operands[1], layout_of(op.results[0]));  // before the table is written
  ensure(op.operands[0], layout_of(op.operands[0]));
  if (op.kind == OpKind::Cat) ensure(op.operands[1], layout_of(op.operands[1]));
  barrier();
  std::string sm = to_smem(op.operands[0]);
  if (op.kind == OpKind::Cat) {
    const int64_t bytes = numel_of(op.operands[0]->type) * ebytes(op.operands[0]->type);
    to_smem(op.operands[1], bytes);  // b right after a: the result's row-major order (cat along dim 0)
  }
  barrier();
  for (size_t k = 0; k < op.results.size(); ++k) {
    const Value* res = op.results[k];
    const LinearLayout& L = layout_of(res);
    const int64_t R = L.size(HwDim::Register);
    std::string a = declare_array(res->type, R, "g");
    for (int64_t r = 0; r < R; ++r) {
      std::string src;
      switch (op.kind) {
        case OpKind::Split: src = fmt::format("{}[({}) * 2 + {}]", sm, lin(L, r), k); break;
        case OpKind::Cat: src = fmt::format("{}[{}]", sm, lin(L, r)); break;
        case OpKind::Flip: {
          const int axis = static_cast<int>(op.attr_int("axis"));
          const auto& shape = res->type.shape;
          src = fmt::format("{}[({}) ^ {}]", sm, lin(L, r),
                            (shape[static_cast<size_t>(axis)] - 1) * stride_of(shape, axis));
          break;
        }
        case OpKind::Gather: {
          const int axis = static_cast<int>(op.attr_int("axis"));
          const Value* idx = op.operands[1];
          const auto& sshape = op.operands[0]->type.shape;
          const int64_t n = sshape[static_cast<size_t>(axis)];
          std::string iv = fresh("gi");
          line(fmt::format("const {} {} = {};", cx_.type(idx->type.element()), iv, el(idx, L, r)));
          std::string at;
          for (size_t d = 0; d < sshape.size(); ++d) {
            const std::string c = static_cast<int>(d) == axis ? fmt::format("(int64_t){}", iv) : coord(L, static_cast<int>(d), r);
            at += fmt::format("{}({}) * {}", at.empty() ? "" : " + ", c, stride_of(sshape, static_cast<int>(d)));
          }
          const std::string ok = ir::is_signed_int(idx->type.scalar) ? fmt::format("({0} >= 0 && (int64_t){0} < {1})", iv, n)
                                                                     : fmt::format("((uint64_t){} < {}{})", iv, n, cuda() ? "ull" : "UL");
          src = fmt::format("({} ? {}[{}] : {})", ok, sm, at, cx_.zero(res->type.element()));
          break;
        }
        default: refuse(op, "not a gather op");
      }
      line(fmt::format("{}[{}] = {};", a, r, src));
    }
    bind_array(res, a);
  }
}

// tl.sort / tl.topk / tl.bitonic_merge: the interpreter's bitonic network (interpreter.h,
// "Sort") over the whole tensor in shared memory, ping-ponging between two buffers with a
// block barrier after every step; the threads share each step's positions.
void Emitter::emit_sort(const Op& op) {
  const Value* x = op.operands[0];
  const Value* r = op.results[0];
  ir::SortParams spar;
  if (std::string why = ir::sort_params(op, x->type, &spar); !why.empty()) refuse(op, why);
  const int64_t n = spar.n;
  const int levels = spar.levels, lk = spar.lk;
  const int64_t numel = numel_of(x->type), rows = numel / n;
  const bool desc = spar.descending;
  const ir::ScalarType S = x->type.scalar;
  const std::string T = cx_.type(x->type.element());
  const int64_t second = align8(numel * ebytes(x->type));
  need_smem(2 * second);
  ensure(x, layout_of(x));  // conversions before the buffers are written
  barrier();
  std::string a = to_smem(x);
  barrier();
  auto cv = [&](const std::string& e) { return CExpr::to_compute(S, e); };
  const LinearLayout& Lr = layout_of(r);
  std::string out = declare_array(r->type, Lr.size(HwDim::Register), "so");
  open("");
  line(fmt::format("{0} cur_ = {1}; {0} nxt_ = ({0})(tr_smem + {2}); int64_t m_ = {3};", sp(T), a, second, n));
  // One merge of the network: stage_ levels down from (stage_ - 1), order_ 0 ascending, 1
  // descending, 2 alternating by stage_ (a lambda on CUDA; inline on Metal, which has none).
  auto merge_body = [&]() {
    open("for (int i_ = stage_ - 1; i_ >= 0; --i_)");
    open(fmt::format("for (int64_t e_ = tr_tid; e_ < {} * m_; e_ += {})", rows, threads()));
    line("const int64_t r_ = e_ / m_, p_ = e_ % m_;");
    line("const int64_t q_ = p_ ^ ((int64_t)1 << i_);");
    line("const bool f_ = order_ == 2 ? ((p_ >> stage_) & 1) != 0 : order_ == 1;");
    line("const bool right_ = ((p_ >> i_) & 1) != 0;");
    line(fmt::format("const bool gt_ = {} > {};", cv("cur_[r_ * m_ + p_]"), cv("cur_[r_ * m_ + q_]")));
    line("nxt_[r_ * m_ + p_] = (gt_ != (f_ != right_)) ? cur_[r_ * m_ + q_] : cur_[r_ * m_ + p_];");
    close();
    barrier();
    line(fmt::format("{} sw_ = cur_; cur_ = nxt_; nxt_ = sw_;", sp(T)));
    close();
  };
  auto merge = [&](const std::string& stage, const std::string& order) {
    if (cuda()) {
      line(fmt::format("merge_({}, {});", stage, order));
      return;
    }
    open("");
    line(fmt::format("const int stage_ = {}, order_ = {};", stage, order));
    merge_body();
    close();
  };
  if (cuda()) {
    open("auto merge_ = [&](int stage_, int order_)");
    merge_body();
    close("};");
  }
  if (spar.merge) {
    merge(std::to_string(levels), desc ? "1" : "0");
  } else {
    open(fmt::format("for (int s_ = 1; s_ <= {}; ++s_)", lk));
    merge("s_", fmt::format("s_ < {} ? 2 : {}", levels, desc ? 1 : 0));
    close();
  }
  if (lk < levels) {
    open(fmt::format("for (int s_ = {0} + 1; s_ <= {1}; ++s_)", lk, levels));
    line("const int64_t half_ = m_ / 2;");
    open(fmt::format("for (int64_t e_ = tr_tid; e_ < {} * half_; e_ += {})", rows, threads()));
    line("const int64_t r_ = e_ / half_, np_ = e_ % half_;");
    for (const std::string& l : topk_pair_select(S, lk, desc, !cuda())) line(l);  // Metal / OpenCL: no GCC builtins
    close();
    barrier();
    line(fmt::format("{} sw_ = cur_; cur_ = nxt_; nxt_ = sw_;", sp(T)));
    line("m_ = half_;");
    merge(std::to_string(lk), fmt::format("s_ < {} ? 2 : {}", levels, desc ? 1 : 0));
    close();
  }
  for (int64_t k = 0; k < Lr.size(HwDim::Register); ++k) line(fmt::format("{}[{}] = cur_[{}];", out, k, lin(Lr, k)));
  close();
  bind_array(r, out);
}

void Emitter::emit_histogram(const Op& op) {
  const Value* x = op.operands[0];
  const Value* mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const Value* res = op.results[0];
  const int64_t B = res->type.shape[0];
  const LinearLayout& L = layout_of(x);
  ensure(x, L);
  ensure(mask, L);  // before the bins take the shared memory
  need_smem(B * 4);
  barrier();
  line(fmt::format("for (int32_t i_ = tr_tid; i_ < {}; i_ += {}) (({})tr_smem)[i_] = 0;", B, threads(), sp("int32_t")));
  barrier();
  const std::string own = owner(L);
  if (!own.empty()) open(fmt::format("if ({})", own));
  for (int64_t r = 0; r < L.size(HwDim::Register); ++r) {
    if (reg_dup(L, r)) continue;
    std::string v = fresh("hv");
    line(fmt::format("const {} {} = {};", cx_.type(x->type.element()), v, el(x, L, r)));
    std::string ok = ir::is_signed_int(x->type.scalar) ? fmt::format("{0} >= 0 && (int64_t){0} < {1}", v, B)
                                                       : fmt::format("(uint64_t){} < {}{}", v, B, cuda() ? "ull" : "UL");
    if (mask) ok += " && " + el(mask, L, r);
    line(msl()      ? fmt::format("if ({}) atomic_fetch_add_explicit((threadgroup atomic_int*)tr_smem + {}, 1, memory_order_relaxed);", ok, v)
         : opencl() ? fmt::format("if ({}) atomic_add((__local int*)tr_smem + {}, 1);", ok, v)
                    : fmt::format("if ({}) atomicAdd((int32_t*)tr_smem + {}, 1);", ok, v));
  }
  if (!own.empty()) close();
  barrier();
  const LinearLayout& Lr = layout_of(res);
  std::string a = declare_array(res->type, Lr.size(HwDim::Register), "h");
  for (int64_t r = 0; r < Lr.size(HwDim::Register); ++r)
    line(fmt::format("{}[{}] = (({})tr_smem)[{}];", a, r, sp("int32_t"), lin(Lr, r)));
  bind_array(res, a);
}

}  // namespace tritium::codegen::cuda
