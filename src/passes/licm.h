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
// Example (%5 and %7 do not depend on the loop; the load and users of the iv stay):
//   for %2, %1, %3 {                         %5 = mul %1, %1 : i32
//    ^(%4: i32):                             %7 = sub %5, %3 : i32
//     %5 = mul %1, %1 : i32                  for %2, %1, %3 {
//     %6 = add %5, %4 : i32          ==>      ^(%4: i32):
//     %7 = sub %5, %3 : i32                    %6 = add %5, %4 : i32
//     %8 = load %0 : i32                       %8 = load %0 : i32
//     %9 = xor %6, %7 : i32                    %9 = xor %6, %7 : i32
//     store %0, %9                             store %0, %9
//     yield                                    yield
//   }                                        }
#pragma once
#include "ir/ir.h"

namespace tritium::passes {

/// Hoists loop-invariant pure ops out of every `for` of `fn`, in place.
void hoist_loop_invariants(ir::Function& fn);

}  // namespace tritium::passes
