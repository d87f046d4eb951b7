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
// Ops with side effects (stores, atomics, asserts, prints, calls, loads are kept: loads are
// not kPure) are never removed, nor `while` loops.
//
// Entry point: eliminate_dead_code(fn).
//
// Example (%6, the loop-carried %s, and its chain are unused):
//   %4, %5 = for %0, %1, %2, %3, %3 : i32, i32 {       %4 = for %0, %1, %2, %3 : i32 {
//    ^(%6: i32, %7: i32, %8: i32):                     ^(%6: i32, %7: i32):
//     %9 = add %7, %6 : i32                 ==>          %9 = add %7, %6 : i32
//     %10 = mul %8, %8 : i32                             yield %9
//     yield %9, %10                                    }
//   }                                                  store %x, %4
//   store %x, %4
#pragma once
#include "ir/ir.h"

namespace tritium::passes {

/// Removes dead pure ops, unused if results and dead loop-carried values of `fn`, in place.
void eliminate_dead_code(ir::Function& fn);

}  // namespace tritium::passes
