// IR types: a scalar, a pointer to a scalar, or a tensor (block) of either with a
// static shape. Every tensor dimension in the Triton language is a power of two.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ir/dtype.h"

namespace tritium::ir {

/// A value's type. `shape` empty means a scalar; otherwise a tensor of that shape.
/// `is_ptr` means the element is a pointer (global address space) to `scalar`.
struct Type {
  ScalarType scalar = ScalarType::I32;
  bool is_ptr = false;
  std::vector<int64_t> shape;

  static Type of(ScalarType s) { return Type{s, false, {}}; }
  static Type ptr(ScalarType pointee) { return Type{pointee, true, {}}; }
  static Type tensor(ScalarType s, std::vector<int64_t> shape) { return Type{s, false, std::move(shape)}; }

  bool is_tensor() const { return !shape.empty(); }
  bool is_scalar() const { return shape.empty(); }
  int rank() const { return static_cast<int>(shape.size()); }
  /// Number of elements (1 for a scalar).
  int64_t numel() const;
  /// The element type (shape dropped).
  Type element() const { return Type{scalar, is_ptr, {}}; }
  /// The same element type with another shape.
  Type with_shape(std::vector<int64_t> s) const { return Type{scalar, is_ptr, std::move(s)}; }
  /// The same shape with another scalar element (not a pointer).
  Type with_scalar(ScalarType s) const { return Type{s, false, shape}; }
  bool is_float() const { return !is_ptr && ir::is_float(scalar); }
  bool is_int() const { return !is_ptr && ir::is_int(scalar); }
  bool is_bool() const { return !is_ptr && scalar == ScalarType::I1; }

  bool operator==(const Type& o) const = default;
  /// Printer form: "fp32", "ptr<fp16>", "tensor<128x64xfp32>", "tensor<128xptr<fp32>>".
  std::string str() const;
};

}  // namespace tritium::ir
