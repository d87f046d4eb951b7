// Pass "licm": loop-invariant code motion out of `for` bodies.
//
// An op directly in a `for` body is hoisted in front of the loop when it is kPure, owns no
// regions, and each operand is defined outside the loop or by an op already hoisted.
// Loads are never hoisted (they are not pure: a store in the loop may change memory). Ops
// that could trap when executed speculatively (the loop may run zero times) stay: integer
// idiv/rem unless the divisor is a constant other than 0 (and -1 for signed types), and
// float → int casts. Inner loops are processed first, so an op can leave a whole nest.
//
// Entry point: hoist_loop_invariants(fn).
//
// Example:
//   for %1, %2, %3 {                      %8 = mul %0, %0 : i32
//    ^(%7: i32):                          %9 = add %8, %7 ...   (stays: uses the iv)
//     %8 = mul %0, %0 : i32       ==>     for %1, %2, %3 {
//     %9 = add %8, %7 : i32                ^(%7: i32):
//     store %p, %9                           %9 = add %8, %7 : i32
//     yield                                  store %p, %9
//   }                                        yield
//                                          }
// (the hoisted `mul` moves in front of the loop; ops using the induction variable stay.)
#pragma once
#include "ir/ir.h"

namespace tritium::passes {

/// Hoists loop-invariant pure ops out of every `for` of `fn`, in place.
void hoist_loop_invariants(ir::Function& fn);

}  // namespace tritium::passes
