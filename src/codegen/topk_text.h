// The C statements of one pair of the top-k halving merge (ir/sort_params.h), shared by
// the CPU and CUDA renderers: element np_ of row r_ keeps the larger (desc) or smaller of
// cur_[ia_] and cur_[ib_] — the partners 2^lk apart — into nxt_ (the interpreter's rule:
// NaN first, then -0 / +0 by sign, then by value). Expects int64_t r_, np_, m_, half_ and
// arrays cur_ / nxt_ of the element's storage type in scope.
#pragma once
#include <string>
#include <vector>

#include "ir/dtype.h"

namespace tritium::codegen {

/// The statements, in order, for storage type `s` (compared in its compute type).
std::vector<std::string> topk_pair_select(ir::ScalarType s, int lk, bool desc, bool opencl = false);

}  // namespace tritium::codegen
