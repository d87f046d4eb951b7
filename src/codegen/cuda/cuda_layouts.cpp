// Layouts for the CUDA renderer (see cuda_layouts.h).
#include "codegen/cuda/cuda_layouts.h"

#include <fmt/format.h>

#include <functional>
#include <set>
#include <tuple>
#include <stdexcept>

#include "layout/choose.h"
#include "passes/axis_info.h"

namespace tritium::codegen::cuda {
namespace {

using Coord = LinearLayout::Coord;
using Bases = std::vector<std::vector<Coord>>;
using ir::OpKind;

// A load, store or atomic through a tensor of pointers: a layout anchor.
bool is_tensor_access(const ir::Op& op) {
  const bool memory = op.kind == OpKind::Load || op.kind == OpKind::Store || op.kind == OpKind::AtomicRMW ||
                      op.kind == OpKind::AtomicCAS;
  return memory && !op.operands.empty() && op.operands[0]->type.is_tensor();
}

Bases bases_of(const LinearLayout& l) {
  Bases b(3);
  for (int h = 0; h < 3; ++h)
    for (int k = 0; k < l.bits(static_cast<HwDim>(h)); ++k) b[h].push_back(l.basis(static_cast<HwDim>(h), k));
  return b;
}

bool is_zero(const Coord& c) {
  for (int64_t x : c)
    if (x) return false;
  return true;
}


bool same_shape_op(OpKind k) {
  switch (k) {
    case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div: case OpKind::IDiv: case OpKind::Rem:
    case OpKind::And: case OpKind::Or: case OpKind::Xor: case OpKind::Shl: case OpKind::Shr:
    case OpKind::Min: case OpKind::Max: case OpKind::Neg: case OpKind::Not: case OpKind::Cmp: case OpKind::Select:
    case OpKind::Cast: case OpKind::Bitcast: case OpKind::Math: case OpKind::AddPtr: case OpKind::PtrToInt:
    case OpKind::IntToPtr: case OpKind::Hint:
      return true;
    default: return false;
  }
}


}  // namespace

bool is_simple(const LinearLayout& l) {
  const auto& shape = l.shape();
  std::vector<int64_t> seen(shape.size(), 0);
  const Bases b = bases_of(l);
  for (const auto& hb : b)
    for (const Coord& c : hb) {
      int nz = -1;
      for (size_t d = 0; d < c.size(); ++d)
        if (c[d]) {
          if (nz >= 0 || (c[d] & (c[d] - 1))) return false;
          nz = static_cast<int>(d);
        }
      if (nz < 0) continue;
      if (seen[nz] & c[nz]) return false;
      seen[nz] |= c[nz];
    }
  for (size_t d = 0; d < shape.size(); ++d)
    if (seen[d] != shape[d] - 1) return false;
  return true;
}

std::string layout_key(const LinearLayout& l) {
  std::string k = fmt::format("[{}]", fmt::join(l.shape(), ","));
  const Bases b = bases_of(l);
  for (int h = 0; h < 3; ++h) {
    k += "|";
    for (const Coord& c : b[h]) k += fmt::format("({})", fmt::join(c, ","));
  }
  return k;
}

LinearLayout insert_dim(const LinearLayout& l, int axis) {
  std::vector<int64_t> shape = l.shape();
  shape.insert(shape.begin() + axis, 1);
  Bases b = bases_of(l);
  for (auto& hb : b)
    for (Coord& c : hb) c.insert(c.begin() + axis, 0);
  return LinearLayout(shape, b);
}

LinearLayout remove_dim(const LinearLayout& l, int axis) {
  std::vector<int64_t> shape = l.shape();
  shape.erase(shape.begin() + axis);
  Bases b = bases_of(l);
  for (auto& hb : b)
    for (Coord& c : hb) c.erase(c.begin() + axis);
  return LinearLayout(shape, b);
}

LinearLayout project(const LinearLayout& l, const std::vector<int64_t>& operand_shape) {
  Bases b = bases_of(l);
  for (auto& hb : b)
    for (Coord& c : hb)
      for (size_t d = 0; d < c.size(); ++d)
        if (operand_shape[d] == 1) c[d] = 0;
  return LinearLayout(operand_shape, b);
}

LinearLayout broadcast_fwd(const LinearLayout& l, const std::vector<int64_t>& shape) {
  Bases b = bases_of(l);
  std::vector<Coord> need;  // the new dims' coordinate bits, last dimension first
  for (size_t d = shape.size(); d-- > 0;)
    if (l.shape()[d] == 1 && shape[d] > 1)
      for (int k = 0; k < log2i(shape[d]); ++k) {
        Coord c(shape.size(), 0);
        c[d] = int64_t{1} << k;
        need.push_back(c);
      }
  size_t next = 0;
  for (int h : {1, 2})
    for (Coord& c : b[h])
      if (next < need.size() && is_zero(c)) c = need[next++];
  for (; next < need.size(); ++next) b[0].push_back(need[next]);
  return LinearLayout(shape, b);
}

LinearLayout reshape_layout(const LinearLayout& l, const std::vector<int64_t>& shape) {
  const auto& old = l.shape();
  Bases b = bases_of(l);
  for (auto& hb : b)
    for (Coord& c : hb) {
      int64_t lin = 0;
      for (size_t d = 0; d < old.size(); ++d) lin = lin * old[d] + c[d];
      Coord n(shape.size(), 0);
      for (size_t d = shape.size(); d-- > 0;) {
        n[d] = lin % shape[d];
        lin /= shape[d];
      }
      c = n;
    }
  return LinearLayout(shape, b);
}

LinearLayout permute(const LinearLayout& l, const std::vector<int64_t>& perm) {
  std::vector<int64_t> shape(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) shape[i] = l.shape()[perm[i]];
  Bases b = bases_of(l);
  for (auto& hb : b)
    for (Coord& c : hb) {
      Coord n(perm.size());
      for (size_t i = 0; i < perm.size(); ++i) n[i] = c[perm[i]];
      c = n;
    }
  return LinearLayout(shape, b);
}

LinearLayout unpermute(const LinearLayout& l, const std::vector<int64_t>& perm) {
  std::vector<int64_t> shape(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) shape[perm[i]] = l.shape()[i];
  Bases b = bases_of(l);
  for (auto& hb : b)
    for (Coord& c : hb) {
      Coord n(perm.size());
      for (size_t i = 0; i < perm.size(); ++i) n[perm[i]] = c[i];
      c = n;
    }
  return LinearLayout(shape, b);
}

LinearLayout slice_layout(const LinearLayout& l, int axis, std::vector<int>* dropped) {
  std::vector<int64_t> shape = l.shape();
  shape.erase(shape.begin() + axis);
  Bases b = bases_of(l), out(3);
  for (int h = 0; h < 3; ++h)
    for (size_t k = 0; k < b[h].size(); ++k) {
      Coord c = b[h][k];
      const bool along = c[axis] != 0;
      c.erase(c.begin() + axis);
      if (h == 0 && along) {
        if (dropped) dropped->push_back(static_cast<int>(k));
        continue;
      }
      out[h].push_back(c);
    }
  return LinearLayout(shape, out);
}

LinearLayout drop_minor(const LinearLayout& l) {
  std::vector<int64_t> s = l.shape();
  s.back() = 1;
  return remove_dim(project(l, s), static_cast<int>(s.size()) - 1);
}

LinearLayout join_layout(const LinearLayout& l) {
  std::vector<int64_t> shape = l.shape();
  shape.push_back(2);
  Bases b = bases_of(l);
  for (auto& hb : b)
    for (Coord& c : hb) c.push_back(0);
  Coord top(shape.size(), 0);
  top.back() = 1;
  b[0].push_back(top);
  return LinearLayout(shape, b);
}

LinearLayout default_layout(const std::vector<int64_t>& shape, int num_warps) {
  passes::AxisInfo none{std::vector<int64_t>(shape.size(), 1), std::vector<int64_t>(shape.size(), 1),
                        std::vector<int64_t>(shape.size(), 1)};
  return layout::coalesced(shape, none, 4, num_warps, 32).layout(shape);
}

bool mma_warps_along_m(const ir::Function& fn) {
  int dots = 0;
  std::function<void(const ir::Block&)> walk = [&](const ir::Block& b) {
    for (const auto& op : b.ops) {
      dots += op->kind == OpKind::Dot;
      for (const auto& r : op->regions) walk(r->block);
    }
  };
  walk(fn.body);
  return dots > 1;
}

MmaPlan mma_plan(const ir::Op& dot, int num_warps, bool portable, bool warps_along_m, int sm) {
  MmaPlan p;
  if (portable || sm == kNoTensorCores || dot.operands.size() != 3) return p;
  const ir::Type& at = dot.operands[0]->type;
  const ir::Type& bt = dot.operands[1]->type;
  const ir::Type& rt = dot.results[0]->type;
  if (at.rank() != 2 || bt.rank() != 2 || at.is_ptr || bt.is_ptr || at.scalar != bt.scalar) return p;
  if ((at.scalar == ir::ScalarType::F16 || at.scalar == ir::ScalarType::BF16) && rt.scalar == ir::ScalarType::F32) {
    p.kind = at.scalar == ir::ScalarType::F16 ? MmaKind::F16 : MmaKind::BF16;
    p.epr = 2;
  } else if (at.scalar == ir::ScalarType::I8 && rt.scalar == ir::ScalarType::I32) {
    p.kind = MmaKind::S8;
    p.epr = 4;
  } else if (at.scalar == ir::ScalarType::F32 && rt.scalar == ir::ScalarType::F32 &&
             dot.attr_str("input_precision", "ieee") == "tf32") {
    p.kind = MmaKind::TF32;
    p.epr = 1;
  } else {
    return p;
  }
  const int64_t M = at.shape[0], K = at.shape[1], N = bt.shape[1];
  const int64_t ks = 8 * p.epr;  // K of one mma: k16 (16-bit), k32 (int8), k8 (tf32)
  if (M % 16 || N % 8 || K % ks) return p;
  // int8 / tf32: the tensor cores only where the staged operands and one whole-tile
  // conversion of the accumulator (to the store's layout) fit in an sm_90 block's shared
  // memory; beyond that the FMA chain, which needs neither (these dots took it before).
  if (p.epr != 2 && M * N * 4 + (M + N) * (K * (4 / p.epr) + 16) > 232448) return p;
  // wgmma (sm_90a): warpgroups of 4 warps, each m64 instruction covering 16 rows per warp,
  // so the warps go along M; N up to 256 per instruction, K in the canonical layouts.
  p.wgmma = p.epr == 2 && sm == 90 && num_warps % 4 == 0 && M % (16 * num_warps) == 0 && N <= 256 && N % 16 == 0 &&
            K % 16 == 0;
  int64_t wm = 1, wn = 1;
  if (warps_along_m || p.wgmma) {
    while (wm * 2 <= num_warps && 16 * wm * 2 <= M) wm *= 2;
    while (wm * wn * 2 <= num_warps && 8 * wn * 2 <= N) wn *= 2;
  } else {
    while (wm * wn * 2 <= num_warps) {  // split the longer side of the per-warp tile
      const bool can_m = 16 * wm * 2 <= M, can_n = 8 * wn * 2 <= N;
      if (can_m && (M / wm >= N / wn || !can_n)) wm *= 2;
      else if (can_n) wn *= 2;
      else break;
    }
  }
  p.wm = wm;
  p.wn = wn;
  const int wbits = log2i(num_warps), wmb = log2i(wm), wnb = log2i(wn);
  p.mt = M / (16 * wm);
  p.nt = N / (8 * wn);
  p.kt = K / ks;
  p.bf16 = p.kind == MmaKind::BF16;
  auto c2 = [](int64_t r, int64_t c) { return Coord{r, c}; };
  Bases acc(3), a(3), b(3);
  // accumulator [M, N]
  acc[0] = {c2(0, 1), c2(8, 0)};
  for (int64_t i = 1; i < p.nt; i *= 2) acc[0].push_back(c2(0, 8 * wn * i));
  for (int64_t i = 1; i < p.mt; i *= 2) acc[0].push_back(c2(16 * wm * i, 0));
  acc[1] = {c2(0, 2), c2(0, 4), c2(1, 0), c2(2, 0), c2(4, 0)};
  // The operand fragments are the same in bytes for every element size: a 32-bit register
  // holds epr consecutive k (its low register bits), lanes t = lane % 4 step k by epr,
  // the second half of a k-step is 4 * epr further.
  const int64_t e = p.epr;
  // a [M, K]
  for (int64_t i = 1; i < e; i *= 2) a[0].push_back(c2(0, i));
  a[0].push_back(c2(8, 0));
  a[0].push_back(c2(0, 4 * e));
  for (int64_t i = 1; i < p.kt; i *= 2) a[0].push_back(c2(0, ks * i));
  for (int64_t i = 1; i < p.mt; i *= 2) a[0].push_back(c2(16 * wm * i, 0));
  a[1] = {c2(0, e), c2(0, 2 * e), c2(1, 0), c2(2, 0), c2(4, 0)};
  // b [K, N]
  for (int64_t i = 1; i < e; i *= 2) b[0].push_back(c2(i, 0));
  b[0].push_back(c2(4 * e, 0));
  for (int64_t i = 1; i < p.kt; i *= 2) b[0].push_back(c2(ks * i, 0));
  for (int64_t i = 1; i < p.nt; i *= 2) b[0].push_back(c2(0, 8 * wn * i));
  b[1] = {c2(e, 0), c2(2 * e, 0), c2(0, 1), c2(0, 2), c2(0, 4)};
  for (int k = 0; k < wbits; ++k) {
    if (k < wmb) {
      acc[2].push_back(c2(16 << k, 0));
      a[2].push_back(c2(16 << k, 0));
      b[2].push_back(c2(0, 0));
    } else if (k < wmb + wnb) {
      acc[2].push_back(c2(0, 8 << (k - wmb)));
      a[2].push_back(c2(0, 0));
      b[2].push_back(c2(0, 8 << (k - wmb)));
    } else {
      acc[2].push_back(c2(0, 0));
      a[2].push_back(c2(0, 0));
      b[2].push_back(c2(0, 0));
    }
  }
  p.acc = LinearLayout({M, N}, acc);
  p.a = LinearLayout({M, K}, a);
  p.b = LinearLayout({K, N}, b);
  p.ok = true;
  return p;
}

const LinearLayout& LayoutPlan::of(const ir::Value* v) const {
  auto it = layouts.find(v);
  if (it == layouts.end()) throw std::logic_error(fmt::format("cuda layout plan: no layout for %{}", v->id));
  return it->second;
}

namespace {

struct Planner {
  int num_warps;
  bool portable;
  bool along_m;  // mma_warps_along_m
  int sm;        // target compute capability x 10
  passes::AxisAnalysis axis;
  LayoutPlan plan;
  std::map<const ir::Value*, LinearLayout> want;
  /// Carried block arguments of for loops whose layout is provisional (nothing in the body
  /// asked for one): the init's until the body has been planned.
  std::set<const ir::Value*> tentative;

  LinearLayout anchor_of(const ir::Value* ptr) const {
    return layout::coalesced(ptr->type.shape, axis.get(ptr), ir::byte_size(ptr->type.scalar), num_warps, 32)
        .layout(ptr->type.shape);
  }
  const LinearLayout* get(const ir::Value* v) const {
    auto it = plan.layouts.find(v);
    return it == plan.layouts.end() ? nullptr : &it->second;
  }
  void want_v(const ir::Value* v, const LinearLayout& l) {
    if (v->type.is_tensor() && v->type.shape == l.shape()) want.emplace(v, l);
  }
  void set(const ir::Value* v, const LinearLayout& l) {
    if (v->type.is_tensor()) plan.layouts.insert_or_assign(v, l);
  }
  LinearLayout dflt(const ir::Value* v) const { return default_layout(v->type.shape, num_warps); }
  LinearLayout of_or_default(const ir::Value* v) const {
    const LinearLayout* l = get(v);
    return l ? *l : dflt(v);
  }

  void backward(const ir::Block& b) {
    for (auto it = b.ops.rbegin(); it != b.ops.rend(); ++it) {
      const ir::Op& op = **it;
      if (op.kind == OpKind::For) {  // the body first: its block arguments' wants go to the inits
        backward(op.body());
        for (size_t k = 0; k < op.results.size(); ++k) {
          auto w = want.find(op.body().args[k + 1]);
          if (w == want.end()) continue;
          const LinearLayout W = w->second;
          want_v(op.operands[3 + k], W);
          want_v(op.results[k], W);
        }
        continue;
      }
      if (op.kind == OpKind::Dot) {
        const MmaPlan mp = mma_plan(op, num_warps, portable, along_m, sm);
        if (mp.ok) want_v(op.operands[2], mp.acc);
      }
      if (is_tensor_access(op)) {
        const LinearLayout a = anchor_of(op.operands[0]);
        for (const ir::Value* o : op.operands) want_v(o, a);
      } else if (!op.results.empty()) {
        auto w = want.find(op.results[0]);
        if (w != want.end()) {
          const LinearLayout W = w->second;
          const ir::Value* src = op.operands.empty() ? nullptr : op.operands[0];
          if (same_shape_op(op.kind)) {
            for (const ir::Value* o : op.operands) want_v(o, W);
          } else if (op.kind == OpKind::Broadcast) {
            want_v(src, project(W, src->type.shape));
          } else if (op.kind == OpKind::ExpandDims) {
            want_v(src, remove_dim(W, static_cast<int>(op.attr_int("axis"))));
          } else if (op.kind == OpKind::Trans) {
            want_v(src, unpermute(W, op.attr_ints("perm")));
          } else if (op.kind == OpKind::Reshape && src->type.is_tensor()) {
            want_v(src, reshape_layout(W, src->type.shape));
          }
        }
      }
      for (auto rit = op.regions.rbegin(); rit != op.regions.rend(); ++rit) backward((*rit)->block);
    }
  }

  void visit(const ir::Block& b) {
    for (const auto& op : b.ops) visit(*op);
  }

  void visit(const ir::Op& op) {
    switch (op.kind) {
      case OpKind::For: {
        const ir::Block& body = op.body();
        for (size_t k = 0; k < op.results.size(); ++k) {
          const ir::Value* init = op.operands[3 + k];
          if (!init->type.is_tensor()) continue;
          auto w = want.find(body.args[k + 1]);
          if (w == want.end()) tentative.insert(body.args[k + 1]);
          const LinearLayout l = w != want.end() ? w->second : of_or_default(init);
          set(body.args[k + 1], l);
          set(op.results[k], l);
        }
        visit(body);
        // A carried tensor nothing in the body asked for (an accumulator: `acc += x * x`)
        // takes the layout of the value the body yields for it, and the body is planned
        // again: the init is then converted once before the loop instead of the carried
        // value on every iteration.
        const ir::Op* y = body.ops.empty() ? nullptr : body.ops.back().get();
        bool again = false;
        for (size_t k = 0; y && y->kind == OpKind::Yield && k < op.results.size() && k < y->operands.size(); ++k) {
          if (!op.operands[3 + k]->type.is_tensor() || want.count(body.args[k + 1])) continue;
          const LinearLayout* yl = get(y->operands[k]);
          if (!yl || *yl == plan.of(body.args[k + 1])) continue;
          const LinearLayout l = *yl;
          set(body.args[k + 1], l);
          set(op.results[k], l);
          again = true;
        }
        if (again) visit(body);
        return;
      }
      case OpKind::While: {
        const ir::Block& before = op.body(0);
        const ir::Block& after = op.body(1);
        for (size_t k = 0; k < op.operands.size() && k < before.args.size(); ++k)
          if (op.operands[k]->type.is_tensor()) set(before.args[k], of_or_default(op.operands[k]));
        visit(before);
        const ir::Op* cond = before.ops.empty() ? nullptr : before.ops.back().get();
        for (size_t k = 0; k < op.results.size(); ++k) {
          if (!op.results[k]->type.is_tensor()) continue;
          LinearLayout l = cond && k + 1 < cond->operands.size() ? of_or_default(cond->operands[k + 1])
                                                                  : dflt(op.results[k]);
          set(op.results[k], l);
          if (k < after.args.size()) set(after.args[k], l);
        }
        visit(after);
        return;
      }
      case OpKind::If: {
        visit(op.body(0));
        const ir::Op* y = op.body(0).ops.empty() ? nullptr : op.body(0).ops.back().get();
        for (size_t k = 0; k < op.results.size(); ++k) {
          if (!op.results[k]->type.is_tensor()) continue;
          set(op.results[k], y && k < y->operands.size() ? of_or_default(y->operands[k]) : dflt(op.results[k]));
        }
        visit(op.body(1));
        return;
      }
      default:
        break;
    }
    for (const auto& r : op.regions) visit(r->block);
    if (is_tensor_access(op)) {
      const LinearLayout a = anchor_of(op.operands[0]);
      for (const ir::Value* r : op.results) set(r, a);
      return;
    }
    if (op.results.empty()) return;
    const ir::Value* r0 = op.results[0];
    const ir::Value* src = op.operands.empty() ? nullptr : op.operands[0];
    auto w = want.find(r0);
    switch (op.kind) {
      case OpKind::Reduce: {
        const LinearLayout in = of_or_default(src);
        for (const ir::Value* r : op.results)
          if (r->type.is_tensor()) set(r, slice_layout(in, static_cast<int>(op.attr_int("axis"))));
        return;
      }
      case OpKind::Broadcast: case OpKind::ExpandDims: case OpKind::Trans: case OpKind::Reshape: {
        if (w != want.end()) return set(r0, w->second);
        if (!src->type.is_tensor()) return set(r0, dflt(r0));
        const LinearLayout in = of_or_default(src);
        if (op.kind == OpKind::Broadcast) return set(r0, broadcast_fwd(in, r0->type.shape));
        if (op.kind == OpKind::ExpandDims) return set(r0, insert_dim(in, static_cast<int>(op.attr_int("axis"))));
        if (op.kind == OpKind::Trans) return set(r0, permute(in, op.attr_ints("perm")));
        return set(r0, reshape_layout(in, r0->type.shape));
      }
      case OpKind::Join:
        return set(r0, join_layout(of_or_default(src)));
      case OpKind::Split: {
        const LinearLayout l = drop_minor(of_or_default(src));
        for (const ir::Value* r : op.results) set(r, l);
        return;
      }
      case OpKind::Dot: {
        const MmaPlan mp = mma_plan(op, num_warps, portable, along_m, sm);
        return set(r0, mp.ok ? mp.acc : of_or_default(op.operands[2]));
      }
      case OpKind::Gather:
        return set(r0, of_or_default(op.operands[1]));
      case OpKind::Scan: case OpKind::Sort: case OpKind::Flip: case OpKind::MapElementwise: {
        const LinearLayout l = w != want.end() ? w->second : of_or_default(src);
        for (const ir::Value* r : op.results)
          if (r->type.is_tensor() && r->type.shape == l.shape()) set(r, l);
          else set(r, dflt(r));
        return;
      }
      default:
        break;
    }
    // A narrowing cast (acc.to(tl.float16) before the store) stays in its operand's layout
    // when that differs from the one wanted: the conversion then moves the narrower values
    // (upstream Triton converts the truncated accumulator, too).
    if (op.kind == OpKind::Cast && src && src->type.is_tensor() && r0->type.is_tensor() && w != want.end() &&
        !src->type.is_ptr && !r0->type.is_ptr && ir::byte_size(r0->type.scalar) < ir::byte_size(src->type.scalar)) {
      const LinearLayout* in = get(src);
      if (in && !(*in == w->second)) return set(r0, *in);
    }
    for (const ir::Value* r : op.results) {
      if (!r->type.is_tensor()) continue;
      if (auto wr = want.find(r); wr != want.end()) {
        set(r, wr->second);
        continue;
      }
      // An elementwise result follows the layout of an operand computed at full size rather
      // than a view of something smaller (broadcast, splat, constant, range), then the one
      // repeating the fewest elements (zero basis vectors), then with the fewest registers
      // per thread, the first such — `where(mask[None, :], qk, x)` keeps qk's layout; a
      // carried value's tentative layout (see For) only when no other operand has one.
      auto cost = [](const ir::Value* o, const LinearLayout& l) {
        // views of something smaller (broadcasts, splats, constants, ranges) last
        const ir::Op* d = o->def;
        const bool view = d && (d->kind == OpKind::Broadcast || d->kind == OpKind::ExpandDims ||
                                d->kind == OpKind::Splat || d->kind == OpKind::Constant || d->kind == OpKind::MakeRange);
        int zeros = 0;
        for (int h = 0; h < 3; ++h)
          for (int k = 0; k < l.bits(static_cast<HwDim>(h)); ++k) {
            bool zero = true;
            for (int64_t x : l.basis(static_cast<HwDim>(h), k)) zero = zero && x == 0;
            zeros += zero;
          }
        return std::make_tuple(view, zeros, l.size(HwDim::Register));
      };
      const LinearLayout* chosen = nullptr;
      const ir::Value* chosen_v = nullptr;
      if (same_shape_op(op.kind))
        for (int pass = 0; pass < 2 && !chosen; ++pass)
          for (const ir::Value* o : op.operands) {
            if (!o->type.is_tensor() || o->type.shape != r->type.shape || (pass == 0 && tentative.count(o))) continue;
            const LinearLayout* l = get(o);
            if (l && (!chosen || cost(o, *l) < cost(chosen_v, *chosen))) chosen = l, chosen_v = o;
          }
      set(r, chosen ? *chosen : dflt(r));
    }
  }
};

}  // namespace

LayoutPlan plan_layouts(const ir::Function& fn, int num_warps, bool portable, int sm) {
  Planner p{num_warps, portable, mma_warps_along_m(fn), sm, passes::AxisAnalysis(fn), {}, {}, {}};
  p.plan.mma_along_m = p.along_m;
  p.plan.sm = sm;
  p.backward(fn.body);
  p.visit(fn.body);
  return std::move(p.plan);
}

int log2i(int64_t x) {
  int n = 0;
  while ((int64_t{1} << n) < x) ++n;
  return n;
}

}  // namespace tritium::codegen::cuda
