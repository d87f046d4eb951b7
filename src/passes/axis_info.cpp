// Axis analysis (see axis_info.h). Each transfer function keeps the facts sound: a fact is
// only larger than 1 when it follows from the operands' facts, as argued per op below.
#include "passes/axis_info.h"

#include <algorithm>
#include <bit>

namespace tritium::passes {
namespace {

using ir::OpKind;

size_t dims_of(const ir::Value* v) { return std::max<size_t>(1, v->type.shape.size()); }
int64_t size_of(const ir::Value* v, size_t d) { return v->type.shape.empty() ? 1 : v->type.shape[d]; }

AxisInfo unknown(const ir::Value* v) {
  const size_t n = dims_of(v);
  return AxisInfo{std::vector<int64_t>(n, 1), std::vector<int64_t>(n, 1), std::vector<int64_t>(n, 1)};
}

int64_t pow2_divisor(int64_t x) {
  if (x == 0) return kMaxDivisibility;
  const uint64_t u = x < 0 ? ~static_cast<uint64_t>(x) + 1 : static_cast<uint64_t>(x);
  return std::min<int64_t>(kMaxDivisibility, int64_t{1} << std::countr_zero(u));
}

// The divisibility of x's elements at the starts of aligned runs of length c: x's own
// when its runs are no longer than c (run starts coincide), else that of an element c·m
// into a run, which only c (and x's) divisibility guarantee.
// `unit`: bytes per element for a pointer (its divisibility is of byte addresses), else 1.
int64_t at_runs_of(const AxisInfo& x, size_t d, int64_t c, int64_t unit = 1) {
  return x.contiguity[d] > c ? std::min(x.divisibility[d], c * unit) : x.divisibility[d];
}

bool is_int_like(const ir::Value* v) { return v->type.is_ptr || ir::is_int(v->type.scalar); }

}  // namespace

AxisAnalysis::AxisAnalysis(const ir::Function& fn) { visit(fn.body); }

AxisInfo AxisAnalysis::get(const ir::Value* v) const {
  auto it = info_.find(v);
  return it == info_.end() ? unknown(v) : it->second;
}

void AxisAnalysis::visit(const ir::Block& b) {
  for (const auto& op : b.ops) {
    // A for loop's induction variable lb + k * step is divisible by what divides both lb and
    // step (Triton's rule: `range(0, K, BLOCK_K)` gives multiples of BLOCK_K).
    if (op->kind == OpKind::For && op->operands.size() >= 3 && !op->regions.empty() &&
        !op->body().args.empty()) {
      const ir::Value* iv = op->body().args[0];
      AxisInfo f = unknown(iv);
      f.divisibility[0] = std::min(get(op->operands[0]).divisibility[0], get(op->operands[2]).divisibility[0]);
      info_[iv] = f;
      visit_for_carried(*op);  // the body, and the loop's results
      continue;
    }
    for (const auto& r : op->regions) visit(r->block);  // region values: their own facts (other args unknown)
    visit(*op);
  }
}

namespace {
// Facts true of both a and b. Divisibility is that of run starts: where the contiguity
// drops to c, the starts of the shorter runs are only known to be divisible by what divides
// the longer runs' starts and c steps (c * unit: element bytes for pointers).
AxisInfo meet(const AxisInfo& a, const AxisInfo& b, int64_t unit) {
  AxisInfo m = a;
  for (size_t d = 0; d < m.contiguity.size() && d < b.contiguity.size(); ++d) {
    const int64_t c = std::min(a.contiguity[d], b.contiguity[d]);
    m.contiguity[d] = c;
    m.divisibility[d] = std::min(at_runs_of(a, d, c, unit), at_runs_of(b, d, c, unit));
    m.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
  }
  return m;
}
}  // namespace

// A carried value holds its init on the first iteration and what the body yielded on the
// others: its facts are the meet of both, found by iterating from the init's facts (each
// round can only lower facts, all powers of two, so this ends); the loop's results hold
// the same facts. `a_ptrs += BLOCK_K * stride_ak` keeps a_ptrs' contiguity and alignment.
void AxisAnalysis::visit_for_carried(const ir::Op& op) {
  const ir::Block& body = op.body();
  const ir::Op* y = body.ops.empty() ? nullptr : body.ops.back().get();
  const size_t carried = op.results.size();
  std::vector<AxisInfo> f(carried);
  for (size_t k = 0; k < carried; ++k) {
    const ir::Value* arg = body.args[k + 1];
    const AxisInfo init = get(op.operands[3 + k]);
    f[k] = dims_of(arg) == init.contiguity.size() ? init : unknown(arg);
  }
  for (int round = 0;; ++round) {
    for (size_t k = 0; k < carried; ++k) info_[body.args[k + 1]] = f[k];
    visit(body);
    if (!y || y->kind != OpKind::Yield || y->operands.size() < carried) {
      for (size_t k = 0; k < carried; ++k) f[k] = unknown(body.args[k + 1]);
      break;
    }
    bool changed = false;
    for (size_t k = 0; k < carried; ++k) {
      const ir::Value* arg = body.args[k + 1];
      const int64_t unit = arg->type.is_ptr ? std::max(1, ir::byte_size(arg->type.scalar)) : 1;
      const AxisInfo next = meet(f[k], get(y->operands[k]), unit);
      changed = changed || !(next == f[k]);
      f[k] = next;
    }
    if (!changed) break;
    if (round == 64) {  // not expected (facts only fall); stay sound regardless
      for (size_t k = 0; k < carried; ++k) f[k] = unknown(body.args[k + 1]);
      for (size_t k = 0; k < carried; ++k) info_[body.args[k + 1]] = f[k];
      visit(body);
      break;
    }
  }
  for (size_t k = 0; k < carried; ++k) info_[op.results[k]] = f[k];
}

void AxisAnalysis::visit(const ir::Op& op) {
  if (op.results.size() != 1) return;
  const ir::Value* r = op.results[0];
  const size_t n = dims_of(r);
  AxisInfo out = unknown(r);
  auto in = [&](int i) { return get(op.operands.at(static_cast<size_t>(i))); };
  switch (op.kind) {
    case OpKind::Constant: {
      // Every element equal: runs of constancy over the whole dimension; an int's power of two.
      for (size_t d = 0; d < n; ++d) out.constancy[d] = size_of(r, d);
      if (ir::is_int(r->type.scalar) && !r->type.is_ptr)
        for (size_t d = 0; d < n; ++d) out.divisibility[d] = pow2_divisor(op.attr_int("value"));
      break;
    }
    case OpKind::MakeRange: {
      // start, start + 1, ..., end - 1: one contiguous run starting at `start`.
      out.contiguity[0] = op.attr_int("end") - op.attr_int("start");
      out.divisibility[0] = pow2_divisor(op.attr_int("start"));
      break;
    }
    case OpKind::Splat: {
      const AxisInfo s = in(0);
      for (size_t d = 0; d < n; ++d) out.divisibility[d] = s.divisibility[0], out.constancy[d] = size_of(r, d);
      break;
    }
    case OpKind::Broadcast: {
      const AxisInfo s = in(0);
      const ir::Value* x = op.operands[0];
      for (size_t d = 0; d < n; ++d) {
        if (size_of(x, d) == 1 && size_of(r, d) > 1) {  // one element repeated along d
          out.divisibility[d] = s.divisibility[d];
          out.constancy[d] = size_of(r, d);
        } else {
          out.contiguity[d] = s.contiguity[d], out.divisibility[d] = s.divisibility[d], out.constancy[d] = s.constancy[d];
        }
      }
      break;
    }
    case OpKind::ExpandDims: {
      const AxisInfo s = in(0);
      const size_t axis = static_cast<size_t>(op.attr_int("axis"));
      const ir::Value* x = op.operands[0];
      // The new dimension has size 1, so each element starts a run along it: it needs a
      // power of two dividing EVERY element, known only when no dimension is contiguous
      // (then every element starts a run along every dimension, so each divisibility holds).
      bool any_contig = false;
      int64_t all = 1;
      for (size_t d = 0; d < s.contiguity.size(); ++d) {
        any_contig = any_contig || s.contiguity[d] > 1;
        all = std::max(all, s.divisibility[d]);
      }
      size_t src = 0;
      for (size_t d = 0; d < n; ++d) {
        if (d == axis) {
          out.divisibility[d] = any_contig ? 1 : all;
          continue;
        }
        if (x->type.shape.empty()) continue;  // a scalar source: handled as splat-like below
        out.contiguity[d] = s.contiguity[src], out.divisibility[d] = s.divisibility[src], out.constancy[d] = s.constancy[src];
        ++src;
      }
      break;
    }
    case OpKind::Hint: {
      out = in(0);
      out.contiguity.resize(n, 1), out.divisibility.resize(n, 1), out.constancy.resize(n, 1);
      auto raise = [&](const char* attr, std::vector<int64_t>& v) {
        if (!op.has_attr(attr)) return;
        const auto vals = op.attr_ints(attr);
        for (size_t d = 0; d < n && d < vals.size(); ++d)
          if (vals[d] > 0 && (vals[d] & (vals[d] - 1)) == 0) v[d] = std::max(v[d], std::min(vals[d], kMaxDivisibility));
      };
      raise("multiple_of", out.divisibility);  // the author's promise (tl.multiple_of / ":16")
      raise("max_contiguous", out.contiguity);
      raise("max_constancy", out.constancy);
      break;
    }
    case OpKind::Add: case OpKind::Sub: case OpKind::AddPtr: {
      if (!is_int_like(r)) break;
      const AxisInfo a = in(0), b = in(1);
      const bool ptr = op.kind == OpKind::AddPtr;
      const int64_t esize = ptr ? ir::byte_size(r->type.scalar) : 1;
      for (size_t d = 0; d < n; ++d) {
        // Contiguous + constant over a run stays contiguous (x - contiguous does not).
        int64_t c = std::min(a.contiguity[d], b.constancy[d]);
        if (op.kind != OpKind::Sub) c = std::max(c, std::min(a.constancy[d], b.contiguity[d]));
        out.contiguity[d] = c;
        // The first element of each aligned run of c is a_k + b_k with both known at run starts.
        out.divisibility[d] = std::min(at_runs_of(a, d, c, esize), at_runs_of(b, d, c) * esize);
        out.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
      }
      break;
    }
    case OpKind::Mul: {
      if (!is_int_like(r)) break;
      const AxisInfo a = in(0), b = in(1);
      for (size_t d = 0; d < n; ++d) {
        // Every element is a run start (contiguity 1): a product of two elements each with
        // the divisibility that holds for all its elements.
        const int64_t da = at_runs_of(a, d, 1), db = at_runs_of(b, d, 1);
        out.divisibility[d] = std::min(kMaxDivisibility, da * db);
        out.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
      }
      break;
    }
    case OpKind::Cmp: {
      const AxisInfo a = in(0), b = in(1);
      const std::string pred = op.attr_str("pred");
      const bool ints = ir::is_int(op.operands[0]->type.scalar) && !op.operands[0]->type.is_ptr;
      // x (contiguous) against c (constant over the run): x < c and x >= c change value only
      // where x reaches c. Over aligned groups of g = min(contiguity and first-element
      // divisibility of x, divisibility and constancy of c) — powers of two — x takes
      // m, m+1, ..., m+g-1 with m and c both multiples of g, so c never falls inside a group
      // (m < c means m + g - 1 < c): the comparison is constant over every group. (x <= c and
      // x > c change between c and c + 1, which can fall inside a group.)
      // (A contiguous run of a narrow integer may wrap at 2^(bits-1), changing the sign
      // inside a group: g is capped there.)
      const int64_t wrap = int64_t{1} << std::min(62, 8 * ir::byte_size(op.operands[0]->type.scalar) - 1);
      auto groups = [&](const AxisInfo& x, const AxisInfo& c, size_t d) {
        return std::min({x.contiguity[d], x.divisibility[d], c.divisibility[d], c.constancy[d], wrap});
      };
      for (size_t d = 0; d < n; ++d) {
        int64_t k = std::min(a.constancy[d], b.constancy[d]);
        if (ints && (pred == "lt" || pred == "ge")) k = std::max(k, groups(a, b, d));
        if (ints && (pred == "gt" || pred == "le")) k = std::max(k, groups(b, a, d));  // c > x, c <= x
        out.constancy[d] = k;
      }
      break;
    }
    case OpKind::Select: {
      const AxisInfo c = in(0), a = in(1), b = in(2);
      for (size_t d = 0; d < n; ++d) {
        // Where the condition is constant over a run the result is a's or b's run there.
        const int64_t run = std::min({c.constancy[d], a.contiguity[d], b.contiguity[d]});
        out.contiguity[d] = run;
        out.divisibility[d] = std::min(at_runs_of(a, d, run), at_runs_of(b, d, run));
        out.constancy[d] = std::min({c.constancy[d], a.constancy[d], b.constancy[d]});
      }
      break;
    }
    case OpKind::And: case OpKind::Or: case OpKind::Xor: case OpKind::Not: case OpKind::Neg: case OpKind::Min:
    case OpKind::Max: case OpKind::Div: case OpKind::IDiv: case OpKind::Rem: case OpKind::Shl: case OpKind::Shr:
    case OpKind::Math: case OpKind::Bitcast: {
      // A pure elementwise function of operands that are each constant over a run is
      // constant there (masks combined with &, |: the bounds masks of a 2-D tile).
      for (size_t d = 0; d < n; ++d) {
        int64_t k = size_of(r, d);
        for (size_t i = 0; i < op.operands.size(); ++i) k = std::min(k, in(static_cast<int>(i)).constancy[d]);
        out.constancy[d] = k;
      }
      break;
    }
    case OpKind::Cast: {
      const ir::Value* x = op.operands[0];
      // Integer widening keeps every value (and so every fact); anything else only constancy.
      const AxisInfo s = in(0);
      if (!x->type.is_ptr && !r->type.is_ptr && ir::is_int(x->type.scalar) && ir::is_int(r->type.scalar) &&
          ir::bitwidth(r->type.scalar) >= ir::bitwidth(x->type.scalar) &&
          (ir::is_signed_int(x->type.scalar) == ir::is_signed_int(r->type.scalar) || !ir::is_signed_int(x->type.scalar)) &&
          x->type.scalar != ir::ScalarType::I1) {
        out = s;
      } else {
        out.constancy = s.constancy;
      }
      break;
    }
    default: break;
  }
  info_[r] = std::move(out);
}

}  // namespace tritium::passes
