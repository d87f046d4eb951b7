// The parameters of a Dot op (tl.dot) that every renderer of it needs (the CPU and cuda
// emitters): the problem size M x N x K (and a batch B for rank-3 operands), the operand,
// accumulator and compute dtypes, the input precision. One derivation and one set of
// refusals, so the renderers cannot disagree on which dots they run or how they read them.
// Semantics: src/interp/interpreter.h ("Dot").
//
// Example: a: fp16[2, 32, 16], b: fp16[2, 16, 64], acc and result: fp32[2, 32, 64] give
// rank 3, B 2, M 32, K 16, N 64, operand F16, acc F32, compute F32, narrow_acc false.
#pragma once
#include <cstdint>
#include <string>

#include "ir/ir.h"

namespace tritium::ir {

struct DotParams {
  size_t rank = 0;    ///< 2, or 3 with a leading batch dimension
  int64_t B = 1;      ///< batch size (shape[0] of a rank-3 `a`), else 1
  int64_t M = 0;      ///< rows of a and of the result
  int64_t N = 0;      ///< columns of b and of the result
  int64_t K = 0;      ///< columns of a = rows of b (the reduced dimension)
  ScalarType operand = ScalarType::F32;  ///< dtype of a and b (they agree)
  ScalarType acc = ScalarType::F32;      ///< dtype of the accumulator: the result's
  /// Type the products are formed in, the operands converted to it exactly: the accumulator
  /// type for integer dots, fp64 for an fp64 accumulator, else fp32 (a narrow accumulator
  /// rounds each step once from the exact a*b + r).
  ScalarType compute = ScalarType::F32;
  bool is_float = true;     ///< floating-point operands (and accumulator)
  bool narrow_acc = false;  ///< fp16 / bf16 accumulator (out_dtype)
  /// Attribute "input_precision" (default "ieee"): "", ieee, tf32, tf32x3 or hf32. Every
  /// value is computed as ieee by both renderers (tf32 only "where the target has it").
  std::string input_precision = "ieee";
};

/// Reads Dot op `op` (operands a, b, acc; one result). Returns its parameters, or throws
/// frontend::CompileError(op.loc, "<backend> backend: dot not supported: <why>") -- the text
/// of the renderers' refuse() -- for a dot they cannot run: operands not of rank 2 or 3 (all
/// alike), shapes that do not chain, an unknown input_precision, a and b of different
/// dtypes, pointer operands, float operands with an integer accumulator or the reverse,
/// int1, fp64 operands without an fp64 accumulator, a float accumulator other than
/// fp16 / bf16 / fp32 / fp64. `backend` names the renderer ("cpu", "cuda").
DotParams dot_params(const Op& op, const std::string& backend);

}  // namespace tritium::ir
