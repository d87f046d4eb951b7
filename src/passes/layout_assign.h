// Layout assignment (step 1 of the CUDA code generator plan, docs/design.md): a LinearLayout
// for every tensor value of a kernel, and the places where an op reads an operand in a
// layout other than the operand's own (a conversion a code generator must emit, or, for
// values that are cheap to recompute — constants, make_range, splat — a rematerialization).
//
// Rules:
//  * loads, stores and atomics through a tensor of pointers: the coalesced blocked layout of
//    the pointer (layout/choose.h over axis analysis) — the anchors; first, backwards, an
//    anchor flows to the same-shape elementwise chain and the constants / ranges / splats
//    computing the access's operands (pointers, masks, values), so address arithmetic is
//    done in the layout of the access it feeds (the first access seen from the end wins);
//  then, in program order:
//  * ops whose result has the shape of their tensor operands (elementwise, compare, select,
//    cast, math, addptr, scan, sort, flip, gather's index side): the layout of the first
//    operand that descends from an anchor, else of the first tensor operand;
//  * reduce: its operand's layout sliced along the axis (LinearLayout::sliced);
//  * every other tensor result (expand_dims, broadcast, reshape, trans, dot, join, split,
//    cat, make_range, constants, splat, histogram, map_elementwise): the default blocked
//    layout of its shape (one element per thread, lanes and warps row-major);
//  * an op's working layout is its result's (a store's: its anchor); each tensor operand
//    whose layout differs is a Conversion.
#pragma once
#include <map>
#include <vector>

#include "ir/ir.h"
#include "layout/linear_layout.h"

namespace tritium::passes {

/// What assign_layouts decided.
struct LayoutPlan {
  std::map<const ir::Value*, layout::LinearLayout> layouts;  ///< every tensor value seen
  /// `op` reads operand `operand` in `to`, not in the operand's own layout.
  struct Conversion {
    const ir::Op* op;
    size_t operand;
    bool remat;  ///< the operand is a constant / make_range / splat: recompute it in `to`
  };
  std::vector<Conversion> conversions;
};

/// True for a load, store or atomic through a tensor of pointers (a layout anchor).
bool is_tensor_access(const ir::Op& op);

/// Assigns layouts to the tensor values of `fn` for programs of `num_warps` warps of
/// `warp_size` lanes (powers of two).
LayoutPlan assign_layouts(const ir::Function& fn, int num_warps, int warp_size = 32);

}  // namespace tritium::passes
