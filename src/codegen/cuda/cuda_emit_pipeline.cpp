// CUDA renderer: software pipelining of a for loop's tensor-core operands (num_stages > 1),
// the scheme of upstream Triton's pipeliner for sm_80+ (cp.async ring buffers; Tillet et
// al., and NVIDIA's "CUTLASS: software pipelining" for the multistage mainloop).
//
// A load in the loop body qualifies when its only reader is an mma-planned tl.dot (directly
// or through tl.trans) that would copy it to shared memory anyway, its `other` is absent or
// +0, its vector (access_vector) is 4 to 16 bytes, and its pointer and mask are computed in
// the body by pure ops (the *slice*) from the induction variable, values defined before the
// loop, and loop-carried pointers that the loop only advances by a loop-invariant offset
// (`p += inc` yielded, p read by nothing but the slice and that advance, its final value
// unused). The body must have no nested control flow, stores, atomics or barriers.
//
// Emission, S = num_stages ring slots of one tile per qualifying load (S + 1 with a wgmma
// kept in flight, plan_pipeline):
//   prologue   iterations 0 .. S-2: the slice evaluated at that iteration's induction
//              value, each thread's vectors copied global -> shared with cp.async (masked-off
//              or past-the-end vectors zero-filled: src-size 0 reads nothing), the carried
//              pointers advanced, one commit group per iteration;
//   iteration k: wait until at most S-2 groups are pending (iteration k's has landed), one
//              block barrier (every thread's copies are visible, and everyone finished
//              reading slot (k-1) mod S in iteration k-1), then the copies of iteration
//              k+S-1 into that slot, commit, then the body: the dot reads slot k mod S
//              with ldmatrix;
//   after      wait for all groups and a barrier (the ring may be reused).
// So the carried pointers hold iteration k+S-1's value inside iteration k. The ring sits at
// the start of dynamic shared memory and scratch (tr_smem) after it (cuda_emitter.cpp).
// Elements reach the dot exactly as the synchronous path delivers them: no numerics change.
//
// A dot operand defined before the loop (attention's q) is converted to its mma fragment
// layout once, before the loop, and read from registers (packed pairs) in every iteration.
#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <optional>
#include <set>

#include "codegen/cuda/cuda_emitter.h"

namespace tritium::codegen::cuda {

using ir::Op;
using ir::OpKind;
using ir::Value;

namespace {

bool is_zero_constant(const Value* v) {
  const Op* d = v->def;
  while (d && (d->kind == OpKind::Splat || d->kind == OpKind::Broadcast || d->kind == OpKind::Hint)) d = d->operands[0]->def;
  if (!d || d->kind != OpKind::Constant) return false;
  auto it = d->attrs.find("value");
  if (it == d->attrs.end()) return false;
  if (const int64_t* i = std::get_if<int64_t>(&it->second)) return *i == 0;
  if (const double* f = std::get_if<double>(&it->second)) return *f == 0.0 && !std::signbit(*f);
  return false;
}

bool slice_op_kind(OpKind k) {
  switch (k) {
    case OpKind::Constant: case OpKind::Splat: case OpKind::MakeRange: case OpKind::Broadcast:
    case OpKind::ExpandDims: case OpKind::Reshape: case OpKind::Trans: case OpKind::Hint:
    case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::IDiv: case OpKind::Rem: case OpKind::And:
    case OpKind::Or: case OpKind::Xor: case OpKind::Shl: case OpKind::Shr: case OpKind::Min: case OpKind::Max:
    case OpKind::Not: case OpKind::Cmp: case OpKind::Select: case OpKind::Cast: case OpKind::AddPtr:
      return true;
    default: return false;
  }
}

constexpr int64_t kRingAlign = 1024;  // tiles start where wgmma's swizzle patterns do

}  // namespace

Emitter::PipePlan Emitter::plan_pipeline(const Op& loop) {
  PipePlan pp;
  // tl.range(..., num_stages=N) overrides the kernel's num_stages for its loop.
  const int asked = loop.has_attr("num_stages") ? static_cast<int>(loop.attr_int("num_stages")) : opts_.num_stages;
  const int stages = std::min(asked, max_stages_);
  if (stages < 2 || opts_.portable_numerics) return pp;
  const ir::Block& body = loop.body();
  std::set<const Op*> in_body;
  for (const auto& op : body.ops) {
    switch (op->kind) {
      case OpKind::For: case OpKind::If: case OpKind::While: case OpKind::Store: case OpKind::AtomicRMW:
      case OpKind::AtomicCAS: case OpKind::Barrier: case OpKind::Assert: case OpKind::Call: case OpKind::Print:
        return pp;
      default: break;
    }
    in_body.insert(op.get());
  }
  const Op* yield = body.ops.empty() ? nullptr : body.ops.back().get();
  if (!yield || yield->kind != OpKind::Yield) return pp;
  auto carried_index = [&](const Value* v) -> int {
    for (size_t j = 1; j < body.args.size(); ++j)
      if (body.args[j] == v) return static_cast<int>(j) - 1;
    return -1;
  };
  auto inside = [&](const Value* v) { return (v->def && in_body.count(v->def)) || carried_index(v) >= 0 || v == body.args[0]; };

  std::set<const Op*> slice;
  std::set<int> advanced;
  // Adds the ops computing `v` to the slice; false when one is not allowed.
  std::function<bool(const Value*)> add = [&](const Value* v) -> bool {
    if (!v || v == body.args[0]) return true;
    const int j = carried_index(v);
    if (j >= 0) {
      const Value* y = yield->operands[static_cast<size_t>(j)];
      if (y == v) return true;  // carried unchanged: loop-invariant
      // A pointer advanced by `p += inc`, or a scalar integer by `o += inc` (a block pointer's
      // offsets under tl.advance), inc loop-invariant.
      const OpKind adv = v->type.is_ptr ? OpKind::AddPtr : OpKind::Add;
      if ((!v->type.is_ptr && !(v->type.is_int() && v->type.is_scalar())) || !y->def || y->def->kind != adv ||
          y->def->operands[0] != v || inside(y->def->operands[1]) || uses(loop.results[static_cast<size_t>(j)]) != 0)
        return false;
      advanced.insert(j);
      return true;
    }
    if (!v->def || !in_body.count(v->def)) return true;  // defined before the loop
    const Op* d = v->def;
    if (!slice_op_kind(d->kind) || !d->regions.empty()) return false;
    if (slice.count(d)) return true;
    for (const Value* o : d->operands)
      if (!add(o)) return false;
    slice.insert(d);
    return true;
  };

  int64_t offset = 0;
  for (const auto& up : body.ops) {
    const Op& op = *up;
    if (op.kind != OpKind::Dot) continue;
    const MmaPlan mp = mma_plan(op, num_warps_, false, plan_.mma_along_m, plan_.sm);
    if (!mp.ok || mp.epr != 2) continue;  // the ring holds 16-bit tiles (int8 / tf32 dots: synchronous)
    for (int which = 0; which < 2; ++which) {
      const Value* v = op.operands[static_cast<size_t>(which)];
      if (layout_of(v) == (which == 0 ? mp.a : mp.b)) continue;  // already in registers
      if (!inside(v)) {
        if (which == 0) pp.hoisted.push_back(&op);
        continue;
      }
      const Value* x = v;
      bool trans = false;
      if (x->def && x->def->kind == OpKind::Trans && uses(x) == 1 && x->def->attr_ints("perm") == std::vector<int64_t>{1, 0}) {
        x = x->def->operands[0];
        trans = true;
      }
      if (!x->def || x->def->kind != OpKind::Load || !in_body.count(x->def) || uses(x) != 1) continue;
      const Op& L = *x->def;
      // A value defined before the loop, or carried unchanged (a block pointer's fields): its
      // value before the loop; nullptr for one the body computes.
      auto invariant = [&](const Value* o) -> const Value* {
        for (int j = carried_index(o); j >= 0 && yield->operands[static_cast<size_t>(j)] == o; j = carried_index(o))
          o = loop.operands[3 + static_cast<size_t>(j)];
        return inside(o) ? nullptr : o;
      };
      if (!(which == 0 && trans) && tma_window(L, invariant)) {
        const std::set<const Op*> slice_before = slice;
        const std::set<int> adv_before = advanced;
        // The window's offsets; its pointer and mask too (unused by the copies: they read
        // carried values only the slice may read).
        if (add(L.operands[4]) && add(L.operands[5]) && add(L.operands[0]) && add(L.operands[1])) {
          PipeLoad pl;
          pl.load = &L;
          pl.dot = &op;
          pl.which = which;
          pl.operand = v;
          pl.cdim = 1;
          pl.rows = x->type.shape[0];
          pl.cols = x->type.shape[1];
          pl.kmajor = which == 1 && trans;
          pl.offset = offset;
          pl.tma = true;
          pp.defer = pp.defer || mp.wgmma;
          offset += (pl.rows * pl.cols * 2 + kRingAlign - 1) / kRingAlign * kRingAlign;
          pp.tma_bytes += pl.rows * pl.cols * 2;
          pp.loads.push_back(pl);
          continue;
        }
        slice = slice_before;
        advanced = adv_before;
      }
      const Value* ptr = L.operands[0];
      const Value* mask = L.operands.size() >= 2 ? L.operands[1] : nullptr;
      const Value* other = L.operands.size() >= 3 ? L.operands[2] : nullptr;
      if (!ptr->type.is_tensor() || L.attr_int("volatile", 0) != 0 || (other && !is_zero_constant(other))) continue;
      const LinearLayout& l = layout_of(x);
      int d0 = -1;
      const int V = access_vector(*this, l, ptr, mask, 2, &d0);
      if (V * 2 < 4 || d0 < 0) continue;
      const int c = trans ? 1 - d0 : d0;  // the operand's contiguous dimension
      if (which == 0 && c != 1) continue;  // A is read K-contiguous (ldmatrix without .trans)
      const std::set<const Op*> slice_before = slice;
      const std::set<int> adv_before = advanced;
      if (!add(ptr) || !add(mask)) {
        slice = slice_before;
        advanced = adv_before;
        continue;
      }
      pp.async_proxy = pp.async_proxy || mp.wgmma;
      pp.defer = pp.defer || mp.wgmma;
      pp.cp_async = true;
      PipeLoad pl;
      pl.load = &L;
      pl.dot = &op;
      pl.which = which;
      pl.operand = v;
      pl.vec = V;
      pl.cdim = d0;
      pl.cols = x->type.shape[static_cast<size_t>(d0)];
      pl.rows = x->type.shape[static_cast<size_t>(1 - d0)];
      pl.kmajor = which == 1 && c == 0;
      pl.offset = offset;
      offset += (pl.rows * pl.cols * 2 + kRingAlign - 1) / kRingAlign * kRingAlign;
      pp.loads.push_back(pl);
    }
  }
  if (pp.loads.empty()) return pp;
  // A carried pointer advanced ahead must be read by nothing but the slice and its advance.
  std::set<const Op*> pipelined;
  for (const PipeLoad& pl : pp.loads) pipelined.insert(pl.load);
  for (int j : advanced) {
    const Value* arg = body.args[static_cast<size_t>(j) + 1];
    const Op* adv = yield->operands[static_cast<size_t>(j)]->def;
    for (const auto& op : body.ops)
      for (const Value* o : op->operands)
        if (o == arg && op.get() != adv && !slice.count(op.get()) && !pipelined.count(op.get())) return PipePlan{};
    for (const auto& op : body.ops)  // nor by a nested region
      for (const auto& r : op->regions)
        for (const auto& rop : r->block.ops)
          for (const Value* o : rop->operands)
            if (o == arg) return PipePlan{};
  }
  // Inside the body the carried storage holds iteration k+S-1's pointer: anything computed
  // from it (slice values, the advance itself) may only reach the pipelined copies.
  {
    std::set<const Value*> tainted;
    for (int j : advanced) tainted.insert(body.args[static_cast<size_t>(j) + 1]);
    for (const auto& op : body.ops) {
      if (!slice.count(op.get())) continue;
      bool t = false;
      for (const Value* o : op->operands) t = t || tainted.count(o);
      if (t)
        for (const Value* r : op->results) tainted.insert(r);
    }
    for (const auto& op : body.ops)
      for (const Value* o : op->operands)
        if (tainted.count(o) && op.get() != yield && !slice.count(op.get()) && !pipelined.count(op.get()) &&
            carried_index(o) < 0)
          return PipePlan{};
    for (int j : advanced) {
      const Value* y = yield->operands[static_cast<size_t>(j)];
      if (uses(y) != 1) return PipePlan{};  // the advanced pointer read in the body, too
    }
    // Nor may the loop yield such a value into another carried slot (it would leave the loop
    // computed from a later iteration's value): only each advance into its own slot.
    for (size_t i = 0; i < yield->operands.size(); ++i)
      if (tainted.count(yield->operands[i]) && !advanced.count(static_cast<int>(i))) return PipePlan{};
  }
  // The loads must not feed the slice (their values are only available in shared memory).
  for (const PipeLoad& pl : pp.loads)
    for (const Op* s : slice)
      for (const Value* o : s->operands)
        if (o == pl.load->results[0]) return PipePlan{};
  pp.stage_bytes = offset;
  pp.stages = stages;
  // `acc = tl.dot(a, b, acc)` on wgmma with acc only carried: the dot accumulates in place
  // and its instructions stay in flight into the next iteration (wait for all but the newest
  // group), so the tensor cores do not idle across the loop's barrier. The slot a copy
  // overwrites must then be two iterations old: one more slot (upstream Triton allocates
  // num_stages + 1 buffers for a pipelined wgmma, too).
  for (const auto& up : body.ops) {
    const Op& op = *up;
    if (!inflight_ok_) break;
    if (op.kind != OpKind::Dot || !mma_plan(op, num_warps_, false, plan_.mma_along_m, plan_.sm).wgmma) continue;
    const int j = carried_index(op.operands[2]);
    // Only a dot reading nothing but the ring and registers may stay in flight: scratch
    // shared memory is rewritten by the next dot or iteration while it would still read it.
    bool a_ok = false, b_ok = false;
    const MmaPlan mp = mma_plan(op, num_warps_, false, plan_.mma_along_m, plan_.sm);
    for (const PipeLoad& pl : pp.loads) {
      if (pl.dot != &op) continue;
      a_ok = a_ok || pl.which == 0;
      b_ok = b_ok || pl.which == 1;
    }
    for (const Op* h : pp.hoisted) a_ok = a_ok || h == &op;
    a_ok = a_ok || layout_of(op.operands[0]) == mp.a;
    if (!a_ok || !b_ok || loop.has_attr("disallow_acc_multi_buffer")) continue;
    if (j < 0 || uses(op.operands[2]) != 1 || uses(op.results[0]) != 1 ||
        yield->operands[static_cast<size_t>(j)] != op.results[0] ||
        !(layout_of(op.results[0]) == layout_of(loop.results[static_cast<size_t>(j)])))
      continue;
    pp.inflight.push_back({&op, j});
  }
  pp.slots = stages + (pp.inflight.empty() ? 0 : 1);
  pp.bar_offset = pp.slots * pp.stage_bytes;  // the mbarriers of TMA slots after the tiles
  pp.tmap_offset = (pp.bar_offset + 8 * pp.slots + 127) / 128 * 128;
  for (PipeLoad& pl : pp.loads)
    if (pl.tma) pl.desc = tma_descs_++;  // its tensor map's place in the program's scratch
  for (const auto& op : body.ops)
    if (slice.count(op.get())) pp.slice.push_back(op.get());
  pp.advanced.assign(advanced.begin(), advanced.end());
  pp.ok = true;
  return pp;
}

void Emitter::pipeline_issue(const Op& loop, const PipePlan& pp, const std::vector<std::string>& carried,
                             const std::string& iv, const std::string& valid, const std::string& slot,
                             bool advance) {
  const ir::Block& body = loop.body();
  // The slice is emitted again for another iteration; the body's own bindings of its
  // values (it may already have emitted them: a prefetch issued inside a dot) come back after.
  std::vector<std::pair<const Value*, std::optional<std::string>>> saved_s, saved_a;
  auto save = [&](const Value* v) {
    auto si = scalars_.find(v);
    saved_s.emplace_back(v, si == scalars_.end() ? std::nullopt : std::optional<std::string>(si->second));
    auto ai = arrays_.find(v);
    saved_a.emplace_back(v, ai == arrays_.end() ? std::nullopt : std::optional<std::string>(ai->second));
  };
  save(body.args[0]);
  for (const Op* s : pp.slice)
    for (const Value* r : s->results) save(r);
  if (advance)
    for (int j : pp.advanced) save(body.ops.back()->operands[static_cast<size_t>(j)]);
  // Conversions made for the current iteration must not be reused for another one.
  std::vector<std::map<std::pair<const Value*, std::string>, std::string>> memo;
  memo.swap(conv_memo_);
  open("");
  bind_scalar(body.args[0], iv);
  for (const Op* s : pp.slice) emit_op(*s);
  if (pp.tma_bytes > 0) tma_issue(pp, valid, slot);  // cuda_emit_tma.cpp
  for (const PipeLoad& pl : pp.loads) {
    if (pl.tma) continue;
    const Op& L = *pl.load;
    const Value* x = L.results[0];
    const Value* ptr = L.operands[0];
    const Value* mask = L.operands.size() >= 2 ? L.operands[1] : nullptr;
    const LinearLayout& l = layout_of(x);
    ensure(ptr, l);
    ensure(mask, l);
    const std::string own = owner(l);
    if (!own.empty()) open(fmt::format("if ({})", own));
    const int bytes = pl.vec * 2;
    for (int64_t g = 0; g < l.size(HwDim::Register); g += pl.vec) {
      if (reg_dup(l, g)) continue;
      std::string idx = tile_index_of(l, pl.cdim, pl.rows, pl.cols, g);
      if (idx.empty())
        idx = tile_index(fmt::format("({}) * {} + ({})", coord(l, 1 - pl.cdim, g), pl.cols, coord(l, pl.cdim, g)),
                         pl.rows, pl.cols);
      std::string pred = valid;  // & not &&: no branch per copy (both sides are pure)
      if (mask) pred = fmt::format("(bool)({}) & (bool)({})", pred, el(mask, l, g));
      line(fmt::format("tr_cp_async{}(tr_ring + {} * {}u + {}u + 2u * (uint32_t)({}), {}, {});", bytes, slot,
                       pp.stage_bytes, pl.offset, idx, el(ptr, l, g), pred));
    }
    if (!own.empty()) close();
  }
  if (advance) {
    for (int j : pp.advanced) {
      const Value* y = body.ops.back()->operands[static_cast<size_t>(j)];
      emit_op(*y->def);
      assign(carried[static_cast<size_t>(j)], y,
             y->type.is_tensor() ? &layout_of(loop.results[static_cast<size_t>(j)]) : nullptr);
    }
  }
  close();
  conv_memo_.swap(memo);
  if (pp.cp_async) line("tr_cp_commit();");
  for (auto& [v, n] : saved_s)
    if (n) scalars_[v] = *n;
    else scalars_.erase(v);
  for (auto& [v, n] : saved_a)
    if (n) arrays_[v] = *n;
    else arrays_.erase(v);
}

void Emitter::pipeline_prologue(const Op& loop, const PipePlan& pp, const std::vector<std::string>& carried,
                                const std::string& lb, const std::string& st, const std::string& trips) {
  const ir::Type& ivt = loop.body().args[0]->type;
  // (the TMA slots' mbarriers and staged tensor maps after the tiles; scratch after the ring
  // stays 1024-byte aligned)
  int64_t maps = 0;
  for (const PipeLoad& pl : pp.loads) maps += pl.tma ? 128 : 0;
  const int64_t ring = pp.tma_bytes > 0 ? pp.tmap_offset + maps : pp.slots * pp.stage_bytes;
  ring_bytes_ = std::max(ring_bytes_, (ring + kRingAlign - 1) / kRingAlign * kRingAlign);
  line(fmt::format("// software pipeline ({} stages): dot operands copied global -> shared ahead with {}", pp.stages,
                   pp.tma_bytes == 0 ? "cp.async" : pp.cp_async ? "TMA and cp.async" : "TMA"));
  for (const auto& [d, j] : pp.inflight) {  // accumulated in place: the carried storage
    inplace_acc_[d] = carried[static_cast<size_t>(j)];
    line(fmt::format("// dot %{}: wgmma accumulates in place and stays in flight across iterations ({} ring slots)",
                     d->results[0]->id, pp.slots));
  }
  for (const Op* d : pp.hoisted) {
    const MmaPlan mp = mma_plan(*d, num_warps_, false, plan_.mma_along_m, plan_.sm);
    const Value* a = d->operands[0];
    ensure(a, mp.a);
    const int64_t R = mp.a.size(HwDim::Register);
    const std::string hf = fresh("hf");
    line(fmt::format("uint32_t {}[{}];", hf, R / 2));
    for (int64_t r = 0; r < R; r += 2)
      line(fmt::format("{}[{}] = {};", hf, r / 2, pack_halves(el(a, mp.a, r), el(a, mp.a, r + 1))));
    frag_regs_[d] = hf;
  }
  // Scratch shared memory may overlap the ring (Emitter::render): what was staged there
  // before the loop must have been read by every thread before the copies land.
  // (With TMA, each thread's earlier global writes are ordered before the async proxy's reads.)
  if (pp.tma_bytes > 0) line("tr_fence_proxy_async();");
  line("__syncthreads();  // scratch reads are done before the ring is written");
  if (pp.tma_bytes > 0) tma_prologue(pp);
  for (int s = 0; s + 1 < pp.stages; ++s) {
    const std::string iv = fresh("piv");
    line(fmt::format("const {0} {1} = ({0})((uint64_t){2} + {3}ull * (uint64_t){4});", CExpr::ctype(ivt), iv, lb, s, st));
    pipeline_issue(loop, pp, carried, iv, fmt::format("({}ull < {})", s, trips), std::to_string(s), true);
  }
}

void Emitter::pipeline_iteration(const Op& loop, const PipePlan& pp, const std::vector<std::string>& carried,
                                 const std::string& k, const std::string& lb, const std::string& st,
                                 const std::string& trips, const std::string& ivn) {
  const ir::Type& ivt = loop.body().args[0]->type;
  if (pp.cp_async) line(fmt::format("tr_cp_wait<{}>();", pp.stages - 2));
  if (pp.tma_bytes > 0) tma_wait(pp, k);
  if (pp.async_proxy) line("tr_fence_async_smem();  // cp.async's writes -> wgmma's async proxy");
  line("__syncthreads();  // iteration k's copies are visible; slot (k-1) mod S is free");
  const std::string ahead = fresh("pk"), iv = fresh("piv"), slot = fresh("pslot");
  line(fmt::format("const uint64_t {} = {} + {}ull;", ahead, k, pp.stages - 1));
  line(fmt::format("const {0} {1} = ({0})((uint64_t){2} + {3} * (uint64_t){4});", CExpr::ctype(ivt), iv, lb, ahead, st));
  line(fmt::format("const uint32_t {} = (uint32_t)({} % {}ull);", slot, ahead, pp.slots));
  const std::string valid = fmt::format("({} < {})", ahead, trips);
  // With wgmma the copies are issued after the first dot's instructions, while the tensor
  // cores run (Emitter::run_pending_prefetch); slot (k-1) mod S is free either way.
  if (pp.defer)
    pending_prefetch_ = [this, &loop, &pp, &carried, iv, valid, slot]() {
      pipeline_issue(loop, pp, carried, iv, valid, slot, false);
    };
  else
    pipeline_issue(loop, pp, carried, iv, valid, slot, false);
  bind_scalar(loop.body().args[0], ivn);
  const std::string cur = fresh("pcur");
  line(fmt::format("const uint32_t {} = (uint32_t)({} % {}ull) * {}u;", cur, k, pp.slots, pp.stage_bytes));
  for (const PipeLoad& pl : pp.loads) {
    staged_[pl.operand] = Staged{fmt::format("(tr_ring + {} + {}u)", cur, pl.offset), pl.cols, pl.kmajor};
    skip_ops_.insert(pl.load);
  }
}

void Emitter::run_pending_prefetch() {
  if (!pending_prefetch_) return;
  const std::function<void()> f = std::move(pending_prefetch_);
  pending_prefetch_ = nullptr;
  f();
}

void Emitter::pipeline_epilogue(const PipePlan& pp) {
  for (const auto& [d, j] : pp.inflight)  // the last iteration's dot, its accumulator tied to the wait
    wg_wait(0, inplace_acc_.at(d), layout_of(d->results[0]).size(HwDim::Register));
  for (const auto& [d, j] : pp.inflight) inplace_acc_.erase(d);
  if (pp.cp_async) line("tr_cp_wait<0>();");
  line("__syncthreads();  // the ring is free again");
  if (pp.tma_bytes > 0) tma_epilogue(pp);
  for (const PipeLoad& pl : pp.loads) {
    staged_.erase(pl.operand);
    skip_ops_.erase(pl.load);
  }
  for (const Op* d : pp.hoisted) frag_regs_.erase(d);
}

}  // namespace tritium::codegen::cuda
