#include "frontend/value.h"

#include <fmt/format.h>

namespace tritium::frontend {

std::string CValue::describe() const {
  switch (kind) {
    case Kind::Tensor: return tensor ? tensor->type.str() : "tensor";
    case Kind::Int: return is_u64 ? fmt::format("constexpr int {}", u) : fmt::format("constexpr int {}", i);
    case Kind::Float: return fmt::format("constexpr float {}", f);
    case Kind::Bool: return b ? "constexpr True" : "constexpr False";
    case Kind::None: return "None";
    case Kind::Str: return "constexpr str '" + s + "'";
    case Kind::DType: return "dtype " + dtype.str();
    case Kind::Tuple:
      if (s == kBlockPtrTag) return "block pointer";
      if (s == kTensorDescTag) return "tensor descriptor";
      return fmt::format("tuple of {}", elems.size());
    case Kind::JitFn: return "jit function " + (fn ? fn->name : std::string("?"));
    case Kind::Builtin: return "builtin " + s;
    case Kind::Namespace: return "module " + s;
    case Kind::Method: return "method " + s;
    case Kind::Slice: return "slice";
    case Kind::Ellipsis: return "Ellipsis";
    case Kind::Lambda: return "lambda";
    case Kind::ConstexprFn: return "constexpr function " + (fn ? fn->name : std::string("?"));
  }
  return "?";
}

bool is_record(const CValue& v) {
  return v.kind == CValue::Kind::Tuple && (v.s == kBlockPtrTag || v.s == kTensorDescTag);
}

}  // namespace tritium::frontend
