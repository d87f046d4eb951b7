#include "ir/types.h"

namespace tritium::ir {

int64_t Type::numel() const {
  int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

std::string Type::str() const {
  std::string elem = is_ptr ? "ptr<" + std::string(short_name(scalar)) + ">" : std::string(short_name(scalar));
  if (shape.empty()) return elem;
  std::string s = "tensor<";
  for (auto d : shape) s += std::to_string(d) + "x";
  return s + elem + ">";
}

}  // namespace tritium::ir
