// CPU renderer: reduce and scan with an arbitrary combine region, emitted inline.
//
// Reduce order (canonical, shared with the interpreter): along the axis of length n (a
// power of two), while n > 1: h = n/2; v[i] = combine(v[i], v[i + h]) for i < h; n = h.
// Written as loops over (outer, i < h, inner) with the inner dimension innermost, so the
// combine vectorises across i (last axis) or across the inner dimension (other axes).
//
// Scan order: sequential along the axis, inclusive: out[0] = x[0], out[i] =
// combine(out[i-1], x[i]); reverse scans run from the end: out[i] = combine(out[i+1], x[i]).
#include <fmt/format.h>

#include "codegen/cpu/cpu_emitter.h"
#include "codegen/topk_text.h"
#include "ir/sort_params.h"

namespace tritium::codegen::cpu {

using ir::Op;
using ir::Value;

namespace {
struct AxisSplit {
  int64_t outer = 1, len = 1, inner = 1;
};
AxisSplit split_axis(const std::vector<int64_t>& shape, int axis) {
  AxisSplit s;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    if (d < axis) s.outer *= shape[d];
    else if (d == axis) s.len = shape[d];
    else s.inner *= shape[d];
  }
  return s;
}
}  // namespace

std::vector<std::string> Emitter::emit_combine(const Op& op, const std::vector<std::string>& lhs,
                                               const std::vector<std::string>& rhs) {
  const ir::Block& body = op.body();
  const size_t n = op.operands.size();
  if (body.args.size() != 2 * n) refuse(op, "combine region must take 2 arguments per operand");
  for (size_t k = 0; k < n; ++k) {
    for (int side = 0; side < 2; ++side) {
      const Value* arg = body.args[side * n + k];
      if (arg->type.is_tensor()) refuse(op, "combine region arguments must be scalars");
      std::string a = fresh(side ? "b" : "a");
      line(fmt::format("{} const {} = {};", ctype(arg->type), a, side ? rhs[k] : lhs[k]));
      bind(arg, a, Storage::Scalar);
    }
  }
  std::vector<std::string> outs;
  terminator_handlers.push_back([&](const Op& y) {
    if (y.kind != ir::OpKind::Yield || y.operands.size() != n) refuse(op, "combine region must yield one value per operand");
    for (size_t k = 0; k < n; ++k) {
      std::string o = fresh("c");
      line(fmt::format("{} const {} = {};", ctype(y.operands[k]->type), o, elem(y.operands[k], {})));
      outs.push_back(o);
    }
  });
  emit_block(body);
  terminator_handlers.pop_back();
  if (outs.size() != n) refuse(op, "combine region without a yield");
  return outs;
}

void Emitter::emit_reduce(const Op& op) {
  const size_t n = op.operands.size();
  const auto& shape = op.operands[0]->type.shape;
  const int axis = static_cast<int>(op.attr_int("axis"));
  if (axis < 0 || axis >= static_cast<int>(shape.size())) refuse(op, "axis out of range");
  for (auto* v : op.operands)
    if (v->type.shape != shape) refuse(op, "operands of different shapes");
  const AxisSplit s = split_axis(shape, axis);
  if (s.len & (s.len - 1)) refuse(op, "reduced dimension is not a power of two");
  if (op.results.size() != n) refuse(op, "one result per operand expected");

  // Work arrays in the operands' layout. The first halving step reads the operands
  // themselves (arrays, or virtual values computed in the loop) and writes the lower half
  // of each run, so no copy of the operands is made; later steps work in place.
  std::vector<std::string> w(n);
  for (size_t k = 0; k < n; ++k) {
    w[k] = declare_array(op.operands[k]->type, "w");
    if (s.len == 1) materialize_into(w[k], op.operands[k]);
  }
  // One halving step: v[i] = combine(src[i], src[i + h]) for i < h, with h the C++
  // expression `hx`; `first` reads the operands, else the work arrays.
  auto level = [&](const std::string& hx, bool first) {
    std::string o = fresh("o"), i = fresh("i"), j = fresh("j");
    if (s.outer > 1) open(fmt::format("for (int64_t {0} = 0; {0} < {1}; ++{0})", o, s.outer));
    open(fmt::format("for (int64_t {0} = 0; {0} < {1}; ++{0})", i, hx));
    if (s.inner > 1) open(fmt::format("for (int64_t {0} = 0; {0} < {1}; ++{0})", j, s.inner));
    memo_.emplace_back();
    std::string base = s.outer > 1 ? fmt::format("{}*{} + {}", o, s.len, i) : i;
    std::string li = s.inner > 1 ? fmt::format("({})*{} + {}", base, s.inner, j) : base;
    std::string ri = s.inner > 1 ? fmt::format("{} + {}*{}", li, hx, s.inner) : fmt::format("{} + {}", li, hx);
    std::string L = fresh("li"), R = fresh("ri");
    line(fmt::format("const int64_t {} = {};", L, li));
    line(fmt::format("const int64_t {} = {};", R, ri));
    std::vector<std::string> lhs, rhs;
    for (size_t k = 0; k < n; ++k) {
      if (first) {
        lhs.push_back(elem(op.operands[k], Idx{{}, L}));
        rhs.push_back(elem(op.operands[k], Idx{{}, R}));
      } else {
        lhs.push_back(fmt::format("{}[{}]", w[k], L));
        rhs.push_back(fmt::format("{}[{}]", w[k], R));
      }
    }
    auto outs = emit_combine(op, lhs, rhs);
    for (size_t k = 0; k < n; ++k) line(fmt::format("{}[{}] = {};", w[k], L, outs[k]));
    memo_.pop_back();
    if (s.inner > 1) close();
    close();
    if (s.outer > 1) close();
  };
  if (s.len > 1) {
    level(std::to_string(s.len / 2), true);
    if (s.len > 2) {
      std::string h = fresh("h");
      open(fmt::format("for (int64_t {0} = {1}; {0} >= 1; {0} >>= 1)", h, s.len / 4));
      level(h, false);
      close();
    }
  }
  for (size_t k = 0; k < n; ++k) {
    const Value* r = op.results[k];
    if (r->type.is_scalar()) {
      std::string nm = fmt::format("s{}", r->id);
      line(fmt::format("{} const {} = {}[0];", ctype(r->type), nm, w[k]));
      bind(r, nm, Storage::Scalar);
    } else if (s.outer == 1) {
      bind(r, w[k], Storage::Array);  // the first `inner` elements are the result, in order
    } else {
      std::string nm = declare_array(r->type, "v");
      std::string o = fresh("o");
      open(fmt::format("for (int64_t {0} = 0; {0} < {1}; ++{0})", o, s.outer));
      if (s.inner > 1) {
        std::string j = fresh("j");
        open(fmt::format("for (int64_t {0} = 0; {0} < {1}; ++{0})", j, s.inner));
        line(fmt::format("{}[{}*{} + {}] = {}[{}*{} + {}];", nm, o, s.inner, j, w[k], o, s.len * s.inner, j));
        close();
      } else {
        line(fmt::format("{}[{}] = {}[{}*{}];", nm, o, w[k], o, s.len));
      }
      close();
      bind(r, nm, Storage::Array);
    }
  }
}

void Emitter::emit_scan(const Op& op) {
  const size_t n = op.operands.size();
  const auto& shape = op.operands[0]->type.shape;
  const int axis = static_cast<int>(op.attr_int("axis"));
  const bool reverse = op.attr_int("reverse", 0) != 0;
  if (axis < 0 || axis >= static_cast<int>(shape.size())) refuse(op, "axis out of range");
  for (auto* v : op.operands)
    if (v->type.shape != shape) refuse(op, "operands of different shapes");
  if (op.results.size() != n) refuse(op, "one result per operand expected");
  const AxisSplit s = split_axis(shape, axis);

  std::vector<std::string> w(n);
  for (size_t k = 0; k < n; ++k) {
    w[k] = declare_array(op.operands[k]->type, "w");
    materialize_into(w[k], op.operands[k]);
  }
  if (s.len > 1) {
    std::string o = fresh("o"), i = fresh("i"), j = fresh("j");
    if (s.outer > 1) open(fmt::format("for (int64_t {0} = 0; {0} < {1}; ++{0})", o, s.outer));
    if (reverse) open(fmt::format("for (int64_t {0} = {1}; {0} >= 0; --{0})", i, s.len - 2));
    else open(fmt::format("for (int64_t {0} = 1; {0} < {1}; ++{0})", i, s.len));
    if (s.inner > 1) open(fmt::format("for (int64_t {0} = 0; {0} < {1}; ++{0})", j, s.inner));
    std::string base = s.outer > 1 ? fmt::format("{}*{} + {}", o, s.len, i) : i;
    std::string cur = s.inner > 1 ? fmt::format("({})*{} + {}", base, s.inner, j) : base;
    std::string C = fresh("ci"), P = fresh("pi");
    line(fmt::format("const int64_t {} = {};", C, cur));
    line(fmt::format("const int64_t {} = {} {} {};", P, C, reverse ? "+" : "-", s.inner));
    std::vector<std::string> acc, x;
    for (size_t k = 0; k < n; ++k) {
      acc.push_back(fmt::format("{}[{}]", w[k], P));
      x.push_back(fmt::format("{}[{}]", w[k], C));
    }
    auto outs = emit_combine(op, acc, x);
    for (size_t k = 0; k < n; ++k) line(fmt::format("{}[{}] = {};", w[k], C, outs[k]));
    if (s.inner > 1) close();
    close();
    if (s.outer > 1) close();
  }
  for (size_t k = 0; k < n; ++k) bind(op.results[k], w[k], Storage::Array);
}

// tl.sort / tl.topk: the interpreter's bitonic network and bitonic top-k (interpreter.h,
// interp_shape.cpp eval_sort), rows of the last dimension, comparing values in the compute
// type and moving bits.
void Emitter::emit_sort(const Op& op) {
  const Value* x = op.operands[0];
  const Value* r = op.results[0];
  ir::SortParams sp;
  if (std::string why = ir::sort_params(op, x->type, &sp); !why.empty()) refuse(op, why);
  const int64_t n = sp.n;
  const int levels = sp.levels, lk = sp.lk;
  const int64_t rows = x->type.numel() / n;
  const bool desc = sp.descending;
  const ir::ScalarType S = x->type.scalar;
  const std::string T = ctype(x->type.element());
  std::string a = declare_array(x->type, "w"), t = declare_array(x->type, "t");
  materialize_into(a, x);
  const std::string out = declare_array(r->type, "v");
  auto cv = [&](const std::string& e) { return to_compute(S, e); };
  open("");
  line(fmt::format("{4}{0}* cur_ = {1}; {4}{0}* nxt_ = {2}; int64_t m_ = {3};", T, a, t, n, priv()));
  // One bitonic merge of `stage_` levels in order `order_` (0 ascending, 1 descending, 2
  // alternating by block): a lambda in C++; written out at each use in OpenCL C.
  auto merge_body = [&] {
    open("for (int i_ = stage_ - 1; i_ >= 0; --i_)");
    open(fmt::format("for (int64_t r_ = 0; r_ < {}; ++r_)", rows));
    open("for (int64_t p_ = 0; p_ < m_; ++p_)");
    line("const int64_t q_ = p_ ^ ((int64_t)1 << i_);");
    line("const bool f_ = order_ == 2 ? ((p_ >> stage_) & 1) != 0 : order_ == 1;");
    line("const bool right_ = ((p_ >> i_) & 1) != 0;");
    line(fmt::format("const bool gt_ = {} > {};", cv("cur_[r_ * m_ + p_]"), cv("cur_[r_ * m_ + q_]")));
    line("nxt_[r_ * m_ + p_] = (gt_ != (f_ != right_)) ? cur_[r_ * m_ + q_] : cur_[r_ * m_ + p_];");
    close();
    close();
    line(fmt::format("{}{}* sw_ = cur_; cur_ = nxt_; nxt_ = sw_;", priv(), T));
    close();
  };
  auto merge = [&](const std::string& stage, const std::string& order) {
    if (!cl_like()) return line(fmt::format("merge_({}, {});", stage, order));
    open("");
    line(fmt::format("const int stage_ = {}, order_ = {};", stage, order));
    merge_body();
    close();
  };
  if (!cl_like()) {
    open("auto merge_ = [&](int stage_, int order_)");
    merge_body();
    close("};");
  }
  if (sp.merge) {  // tl.bitonic_merge: the last merge alone
    merge(std::to_string(levels), desc ? "1" : "0");
  } else {
    open(fmt::format("for (int s_ = 1; s_ <= {}; ++s_)", lk));
    merge("s_", fmt::format("s_ < {} ? 2 : {}", levels, desc ? 1 : 0));
    close();
  }
  if (lk < levels) {
    open(fmt::format("for (int s_ = {0} + 1; s_ <= {1}; ++s_)", lk, levels));
    line("const int64_t half_ = m_ / 2;");
    open(fmt::format("for (int64_t r_ = 0; r_ < {}; ++r_)", rows));
    open("for (int64_t np_ = 0; np_ < half_; ++np_)");
    for (const std::string& l : topk_pair_select(S, lk, desc, cl_like())) line(l);
    close();
    close();
    line(fmt::format("{}{}* sw_ = cur_; cur_ = nxt_; nxt_ = sw_;", priv(), T));
    line("m_ = half_;");
    merge(std::to_string(lk), fmt::format("s_ < {} ? 2 : {}", levels, desc ? 1 : 0));
    close();
  }
  line(fmt::format("memcpy({}, cur_, {});", out, bytes_of(r->type)));
  close();
  bind(r, out, Storage::Array);
}

}  // namespace tritium::codegen::cpu
