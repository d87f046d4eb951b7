// Axis analysis (Triton's AxisInfo): for every integer or pointer value of a function, per
// dimension, what is known about runs of its elements — what a GPU backend needs to choose
// coalesced, vectorized memory accesses (16-byte loads where contiguity and alignment are
// proven) and what the CPU backend can use the same way.
//
// For dimension d of a value v (scalars have one dimension of size 1):
//   contiguity[d]   c: along d, the elements come in aligned runs of c where each is the
//                   previous + 1 (pointers: + 1 element);
//   divisibility[d] a power of two that divides the first element of every such run
//                   (pointers: of its byte address);
//   constancy[d]    k: along d, the elements come in aligned runs of k equal values.
// Every fact is a power of two (1 = nothing known) and sound: an op the analysis does not
// understand gets 1 everywhere. Divisibility of the value 0 is capped at kMaxDivisibility.
//
// Facts come from: make_range (contiguous from `start`), constants, the `hint` op
// (tl.multiple_of / max_contiguous / max_constancy and the ":16" specialization of
// arguments), splat / broadcast / expand_dims, integer + - *, addptr, comparisons and
// select (constancy), casts between integer types.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "ir/ir.h"

namespace tritium::passes {

/// The facts of one value (one entry per dimension; one entry for a scalar).
struct AxisInfo {
  std::vector<int64_t> contiguity, divisibility, constancy;
  bool operator==(const AxisInfo&) const = default;
};

/// The largest divisibility recorded (that of 0).
constexpr int64_t kMaxDivisibility = int64_t{1} << 30;

/// Axis facts of every value of a function (and the bodies of its regions), computed once
/// in program order; a for loop's carried values get the facts that hold for both their
/// init and what the body yields (a fixed point), its induction variable is divisible by
/// what divides both its start and its step; while loops' carried values know nothing.
class AxisAnalysis {
 public:
  explicit AxisAnalysis(const ir::Function& fn);
  /// The facts of `v` (all ones for a value the analysis did not see).
  AxisInfo get(const ir::Value* v) const;

 private:
  void visit(const ir::Block& b);
  void visit(const ir::Op& op);
  void visit_for_carried(const ir::Op& op);
  std::map<const ir::Value*, AxisInfo> info_;
};

}  // namespace tritium::passes
