// Layout assignment (see layout_assign.h).
#include "passes/layout_assign.h"

#include <optional>
#include <set>

#include "layout/choose.h"
#include "passes/axis_info.h"

namespace tritium::passes {
namespace {

using ir::OpKind;
using layout::LinearLayout;

bool same_shape_op(OpKind k) {
  switch (k) {
    case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div: case OpKind::IDiv: case OpKind::Rem:
    case OpKind::And: case OpKind::Or: case OpKind::Xor: case OpKind::Shl: case OpKind::Shr:
    case OpKind::Min: case OpKind::Max: case OpKind::Neg: case OpKind::Not: case OpKind::Cmp: case OpKind::Select:
    case OpKind::Cast: case OpKind::Bitcast: case OpKind::Math: case OpKind::AddPtr: case OpKind::PtrToInt:
    case OpKind::IntToPtr: case OpKind::Hint: case OpKind::Scan: case OpKind::Sort: case OpKind::Flip:
      return true;
    default: return false;
  }
}


bool cheap(const ir::Value* v) {
  return v->def && (v->def->kind == OpKind::Constant || v->def->kind == OpKind::MakeRange ||
                    v->def->kind == OpKind::Splat);
}

struct Assigner {
  int num_warps, warp_size;
  AxisAnalysis axis;
  LayoutPlan plan;
  std::set<const ir::Value*> anchored;  // descends from a memory access's layout

  LinearLayout default_layout(const std::vector<int64_t>& shape) const {
    AxisInfo none{std::vector<int64_t>(shape.size(), 1), std::vector<int64_t>(shape.size(), 1),
                  std::vector<int64_t>(shape.size(), 1)};
    return layout::coalesced(shape, none, 4, num_warps, warp_size).layout(shape);
  }
  LinearLayout anchor_of(const ir::Value* ptr) const {
    return layout::coalesced(ptr->type.shape, axis.get(ptr), ir::byte_size(ptr->type.scalar), num_warps, warp_size)
        .layout(ptr->type.shape);
  }
  const LinearLayout* layout_of(const ir::Value* v) const {
    auto it = plan.layouts.find(v);
    return it == plan.layouts.end() ? nullptr : &it->second;
  }
  void convert_operands(const ir::Op& op, const LinearLayout& working) {
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const ir::Value* o = op.operands[i];
      if (!o->type.is_tensor() || o->type.shape != working.shape()) continue;
      const LinearLayout* l = layout_of(o);
      if (l && !(*l == working)) plan.conversions.push_back({&op, i, cheap(o)});
    }
  }

  // Backward: a memory access's anchor flows to the ops computing its pointers, masks and
  // values (same-shape elementwise chains), so address arithmetic is done where it is used.
  std::map<const ir::Value*, LinearLayout> desired;
  void want(const ir::Value* v, const LinearLayout& l) {
    if (v->type.is_tensor() && v->type.shape == l.shape()) desired.emplace(v, l);
  }
  void backward(const ir::Block& b) {
    for (auto it = b.ops.rbegin(); it != b.ops.rend(); ++it) {
      const ir::Op& op = **it;
      if (is_tensor_access(op)) {
        const LinearLayout a = anchor_of(op.operands[0]);
        for (const ir::Value* o : op.operands) want(o, a);
      } else if (same_shape_op(op.kind)) {
        for (const ir::Value* r : op.results)
          if (auto d = desired.find(r); d != desired.end())
            for (const ir::Value* o : op.operands) want(o, d->second);
      }
      for (auto rit = op.regions.rbegin(); rit != op.regions.rend(); ++rit) backward((*rit)->block);
    }
  }

  void visit(const ir::Block& b) {
    for (const auto& op : b.ops) {
      for (const auto& r : op->regions) visit(r->block);
      visit(*op);
    }
  }

  void visit(const ir::Op& op) {
    if (is_tensor_access(op)) {
      const LinearLayout a = anchor_of(op.operands[0]);
      convert_operands(op, a);
      for (const ir::Value* r : op.results)
        if (r->type.is_tensor()) plan.layouts.emplace(r, a), anchored.insert(r);
      return;
    }
    if (op.kind == OpKind::Reduce) {
      const LinearLayout* in = layout_of(op.operands[0]);
      const LinearLayout base = in ? *in : default_layout(op.operands[0]->type.shape);
      const LinearLayout s = base.sliced(static_cast<int>(op.attr_int("axis")));
      for (const ir::Value* r : op.results)
        if (r->type.is_tensor()) plan.layouts.emplace(r, s);
      for (size_t i = 1; i < op.operands.size(); ++i) {
        const LinearLayout* l = layout_of(op.operands[i]);
        if (l && !(*l == base)) plan.conversions.push_back({&op, i, cheap(op.operands[i])});
      }
      return;
    }
    for (const ir::Value* r : op.results) {
      if (!r->type.is_tensor()) continue;
      std::optional<LinearLayout> chosen;
      bool from_anchor = false;
      if (auto d = desired.find(r); d != desired.end() && (same_shape_op(op.kind) || cheap(r))) {
        chosen = d->second;  // computed in the layout of the access that uses it
        from_anchor = true;
      }
      if (!chosen && same_shape_op(op.kind)) {
        for (const ir::Value* o : op.operands)
          if (o->type.is_tensor() && o->type.shape == r->type.shape && anchored.count(o) && layout_of(o)) {
            chosen = *layout_of(o);
            from_anchor = true;
            break;
          }
        if (!chosen)
          for (const ir::Value* o : op.operands)
            if (o->type.is_tensor() && o->type.shape == r->type.shape && layout_of(o)) {
              chosen = *layout_of(o);
              break;
            }
      }
      if (!chosen) chosen = default_layout(r->type.shape);
      convert_operands(op, *chosen);
      plan.layouts.emplace(r, *chosen);
      if (from_anchor) anchored.insert(r);
    }
  }
};

}  // namespace

bool is_tensor_access(const ir::Op& op) {
  const bool memory = op.kind == OpKind::Load || op.kind == OpKind::Store || op.kind == OpKind::AtomicRMW ||
                      op.kind == OpKind::AtomicCAS;
  return memory && !op.operands.empty() && op.operands[0]->type.is_tensor();
}

LayoutPlan assign_layouts(const ir::Function& fn, int num_warps, int warp_size) {
  Assigner a{num_warps, warp_size, AxisAnalysis(fn), {}, {}, {}};
  a.backward(fn.body);
  a.visit(fn.body);
  return std::move(a.plan);
}

}  // namespace tritium::passes
