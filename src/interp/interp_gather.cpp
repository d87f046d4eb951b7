// Ops whose element positions come from values: gather (tl.gather) and histogram
// (tl.histogram). Semantics: interpreter.h.
#include "interp/interp_ops.h"

namespace tritium::interp {

Val eval_gather(const ir::Op& op, const Val& src, const Val& index) {
  const int64_t axis = op.attr_int("axis");
  const int rank = static_cast<int>(src.shape.size());
  if (rank == 0 || static_cast<int>(index.shape.size()) != rank || axis < 0 || axis >= rank)
    refuse(op, "source and index ranks or the axis do not fit");
  // Row-major: a position is (outer, axis, inner); only the axis coordinate changes.
  int64_t inner = 1;
  for (int d = static_cast<int>(axis) + 1; d < rank; ++d) inner *= src.shape[d];
  const int64_t n = src.shape[axis], m = index.shape[axis];
  Val r = Val::make(src.scalar, src.is_ptr, index.shape);
  for (int64_t i = 0; i < r.numel; ++i) {
    const int64_t in = i % inner, outer = i / inner / m;
    // load_int extends by the index's signedness; uint64 values >= 2^63 read as negative,
    // which is out of range as they are.
    const int64_t k = load_int(index, i);
    const uint64_t bits = (k >= 0 && k < n) ? load_bits(src, (outer * n + k) * inner + in) : 0;
    store_bits(r, i, bits);
  }
  return r;
}

Val eval_histogram(const ir::Op& op, const Val& input, const Val* mask) {
  const ir::Type& rt = op.results.at(0)->type;
  if (input.shape.size() != 1 || rt.shape.size() != 1) refuse(op, "histogram of a tensor that is not 1-D");
  if (mask && mask->numel != input.numel) refuse(op, "mask shape differs from the input's");
  const int64_t bins = rt.shape[0];
  std::vector<int32_t> counts(static_cast<size_t>(bins), 0);
  for (int64_t i = 0; i < input.numel; ++i) {
    if (mask && load_bits(*mask, i) == 0) continue;
    const int64_t v = load_int(input, i);  // uint64 >= 2^63: negative, not counted
    if (v >= 0 && v < bins) ++counts[static_cast<size_t>(v)];
  }
  Val r = Val::make(ir::ScalarType::I32, false, rt.shape);
  for (int64_t b = 0; b < bins; ++b) store_bits(r, b, static_cast<uint32_t>(counts[static_cast<size_t>(b)]));
  return r;
}

}  // namespace tritium::interp
