// The shape of a Sort op (tl.sort / tl.topk / tl.bitonic_merge) that every executor of it
// needs (the interpreter, the CPU renderer): row length n = 2^levels of the last dimension,
// k = 2^lk kept columns, the direction, whether it is a single merge. One derivation, so the
// executors cannot disagree on it. Semantics: src/interp/interpreter.h ("Sort").
#pragma once
#include <cstdint>
#include <string>

#include "ir/ir.h"

namespace tritium::ir {

struct SortParams {
  int64_t n = 0;  ///< length of the sorted (last) dimension
  int levels = 0;  ///< log2(n)
  int64_t k = 0;  ///< columns kept (attr "k", default n)
  int lk = 0;     ///< log2(k)
  bool descending = false;
  bool merge = false;  ///< tl.bitonic_merge: the last merge stage alone
};

/// Reads Sort op `op` applied to a value of type `operand`. Returns "" and fills `out`, or
/// the reason the op cannot be executed (not a numeric tensor, n or k not a power of two).
std::string sort_params(const Op& op, const Type& operand, SortParams* out);

}  // namespace tritium::ir
