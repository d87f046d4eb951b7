// The shape of a Sort op (see sort_params.h).
#include "ir/sort_params.h"

namespace tritium::ir {

std::string sort_params(const Op& op, const Type& operand, SortParams* out) {
  if (operand.shape.empty() || operand.is_ptr) return "sort needs a tensor of numbers";
  SortParams p;
  p.n = operand.shape.back();
  if (p.n <= 0 || (p.n & (p.n - 1))) return "the sorted dimension is not a power of two";
  while ((int64_t{1} << p.levels) < p.n) ++p.levels;
  p.k = op.attr_int("k", p.n);
  while ((int64_t{1} << p.lk) < p.k) ++p.lk;
  if (p.k <= 0 || p.k > p.n || (int64_t{1} << p.lk) != p.k) return "k is not a power of two <= n";
  p.descending = op.attr_int("descending", 0) != 0;
  p.merge = op.attr_int("merge", 0) != 0;
  *out = p;
  return "";
}

}  // namespace tritium::ir
