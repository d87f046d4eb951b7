// Constant evaluation for the "fold" pass: the exact value of an op whose operands are all
// constants, or nothing when the result is not fully defined or not bit-exact on every
// backend. Kept apart from the rewriting driver (fold.cpp) so it can be tested directly.
//
// Integer constants are held canonically in an int64: signed types sign-extended from their
// width, unsigned types zero-extended (uint64 as its bit pattern), int1 as 0 or 1.
// Floats are held as a double whose value is exactly representable in the constant's type.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "ir/ir.h"

namespace tritium::passes::fold {

/// A constant's value: `i` for integer types, `f` for float types.
struct Const {
  bool is_float = false;
  int64_t i = 0;
  double f = 0;
};

/// The canonical form of integer `raw` in type `t`: truncated to t's width, then sign- or
/// zero-extended (int1 → 0/1).
int64_t canonical_int(int64_t raw, ir::ScalarType t);

/// The all-ones value of integer type `t` in canonical form (-1 signed, 2^w-1 unsigned, 1 for int1).
int64_t all_ones(ir::ScalarType t);

/// The value of `v` when it is defined by a `constant` op (scalar or splat tensor) of an
/// integer type (attribute truncated to the width; int1: attribute != 0), or of type
/// fp16/bf16/fp32/fp64 holding a value exact in that type (or NaN). nullopt otherwise.
std::optional<Const> constant_value(const ir::Value* v);

/// Evaluates `op` (one result) on constant operands `args` (one per operand). Returns the
/// result's value, or nullopt when the op is not folded: unknown kinds, division by zero,
/// signed overflow of division, shift amounts outside [0, width), float results that are
/// NaN or subnormal (backends may differ there), float arithmetic other than fp32/fp64
/// (fp16/bf16 constants are only cast, negated and compared), transcendental functions,
/// inexact casts, float → int casts, fp8.
std::optional<Const> evaluate(const ir::Op& op, const std::vector<Const>& args);

}  // namespace tritium::passes::fold
