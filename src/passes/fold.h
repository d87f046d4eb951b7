// Pass "fold": constant folding and trivial integer identities.
//
// * Ops whose operands are all constants are replaced by a constant when the result is
//   exact and fully defined on every backend (see fold_eval.h): integer arithmetic wrapping
//   at the type's width, C-truncating idiv/rem (not by zero, not MIN / -1), shifts by
//   amounts in [0, width), comparisons, int↔int casts, exact int→float and float→float
//   casts among fp16/bf16/fp32/fp64, fp32/fp64 + - * / and negation (not when an operand
//   or the result is NaN or subnormal), splat/broadcast/expand_dims/reshape/trans of a
//   constant (→ tensor constant).
//   Transcendental functions are never folded.
// * Integer identities: x+0, 0+x, x-0, x*1, 1*x, x*0 → 0, x&-1, x&0 → 0, x|0, x|-1 → -1,
//   x^0, x<<0, x>>0, x//1, addptr(p, 0) → p; select(c, x, x) and select with a constant
//   condition pick their operand.
// * Control flow: `if` with a constant condition is replaced by the taken region's ops
//   (its results by that region's yielded values); `for` whose constant bounds give zero
//   iterations (step > 0, lb >= ub) is removed and its results replaced by its inits.
//
// Entry point: fold_constants(fn).
//
// Example (new constants get fresh ids; the unused %2, %3 are left for "dce"):
//   %2 = constant {value = 6} : i32            %2 = constant {value = 6} : i32
//   %3 = constant {value = 7} : i32            %3 = constant {value = 7} : i32
//   %4 = mul %2, %3 : i32             ==>      %7 = constant {value = 42} : i32
//   %5 = splat %4 : tensor<4xi32>              %8 = constant {value = 42} : tensor<4xi32>
//   %6 = add %1, %5 : tensor<4xi32>            %6 = add %1, %8 : tensor<4xi32>
#pragma once
#include "ir/ir.h"

namespace tritium::passes {

/// Folds constants, identities, constant `if`s and zero-trip `for`s in `fn`, in place.
/// Never changes the values a program computes.
void fold_constants(ir::Function& fn);

}  // namespace tritium::passes
