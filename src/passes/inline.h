// Pass "inline": replaces every `call` by a copy of the callee's body, then drops every
// non-kernel function, so the module holds only its kernel(s).
//
// Callees are inlined bottom-up: a helper's own calls are inlined into it before it is
// copied into its callers, so one sweep leaves no call behind. The callee's parameters
// are mapped to the call's operands, its ops are deep-copied (regions included) at the
// call's position, and the operands of its final `return` replace the call's results.
//
// Example (before → after; the copied `mul` gets a fresh value id in the kernel):
//   func @sq(%0: i32) -> (i32) {
//     %1 = mul %0, %0 : i32
//     return %1
//   }
//   kernel @k(%0: i32, %1: ptr<i32>) {        kernel @k(%0: i32, %1: ptr<i32>) {
//     %2 = call %0 {callee = "sq"} : i32        %4 = mul %0, %0 : i32
//     %3 = add %2, %0 : i32            ==>      %3 = add %4, %0 : i32
//     store %1, %3                              store %1, %3
//     return                                    return
//   }                                         }
//
// Refusals (frontend::CompileError at the op's location): a call to a function that is not
// in the module, a recursive call, a `return` that is not the last op of the callee's body.
#pragma once
#include "ir/ir.h"

namespace tritium::passes {

/// Inlines all calls of every kernel in `m` and removes the non-kernel functions.
/// Throws std::logic_error when `m` has no kernel or a call's operands/results do not match
/// the callee's signature (internal errors).
void inline_calls(ir::Module& m);

}  // namespace tritium::passes
