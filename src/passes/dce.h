// Pass "dce": dead-code elimination.
//
// Repeats until nothing changes:
// * removes pure ops (kPure, including reduce/scan with their combine regions) none of whose
//   results is used, at every nesting level, last op first so chains of dead ops go at once;
// * removes `if` results that nothing uses (and the matching yield operands of both
//   branches), and an `if` without results whose branches hold nothing but their yield;
// * removes loop-carried values of `for` whose result is unused and whose body argument
//   only flows, through pure ops of the body, into its own yield operand (those pure ops go
//   too); and a `for` without results whose body holds nothing but its yield.
// Never removed: ops that are not kPure (stores, atomics, asserts, prints, calls, and loads,
// which read memory), and `while` loops.
//
// Entry point: eliminate_dead_code(fn).
//
// Example (result %5 is unused and its body argument %8 only feeds its own yield):
//   %4, %5 = for %2, %1, %3, %2, %3 : i32, i32 {        %4 = for %2, %1, %3, %2 : i32 {
//    ^(%6: i32, %7: i32, %8: i32):                       ^(%6: i32, %7: i32):
//     %9 = add %7, %6 : i32                    ==>         %9 = add %7, %6 : i32
//     %10 = mul %8, %8 : i32                               yield %9
//     yield %9, %10                                      }
//   }                                                    store %0, %4
//   store %0, %4
#pragma once
#include "ir/ir.h"

namespace tritium::passes {

/// Removes dead pure ops, unused if results and dead loop-carried values of `fn`, in place.
void eliminate_dead_code(ir::Function& fn);

}  // namespace tritium::passes
