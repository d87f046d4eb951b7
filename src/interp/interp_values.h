// Runtime values of the reference interpreter (internal to src/interp/).
//
// A Val is a scalar or a row-major tensor of one element type, stored as raw element bits:
//   int1 → uint8_t (0/1), int8..int64 → int8_t..int64_t, uint8..uint64 → uint8_t..uint64_t,
//   fp8 formats → uint8_t, fp16/bf16 → uint16_t, fp32 → float, fp64 → double,
//   pointers → uint64_t (host address).
// Vals are immutable once produced; copies share storage (reshape/expand_dims are free).
// Elements up to 8 bytes in total live inline (no allocation for scalars).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "common/float_formats.h"
#include "ir/ir.h"

namespace tritium::interp {

/// One interpreter value (see the file comment).
class Val {
 public:
  ir::ScalarType scalar = ir::ScalarType::I32;
  bool is_ptr = false;
  std::vector<int64_t> shape;  ///< empty: a scalar
  int64_t numel = 0;           ///< 0 only for a default-constructed (unset) Val

  /// A fresh value of the given element type and shape, zero-filled.
  static Val make(ir::ScalarType s, bool is_ptr, std::vector<int64_t> shape);
  /// A fresh value of IR type `t`, zero-filled.
  static Val of_type(const ir::Type& t) { return make(t.scalar, t.is_ptr, t.shape); }
  /// A fresh value like `t`'s element type but with `shape`.
  static Val of_type(const ir::Type& t, std::vector<int64_t> shape) { return make(t.scalar, t.is_ptr, std::move(shape)); }

  /// Bytes per element (pointers 8, int1 1).
  int elem_size() const { return elem_size_; }
  /// True once produced (an op result or bound argument).
  bool defined() const { return numel > 0; }
  /// Raw storage (numel · elem_size bytes).
  std::byte* bytes() { return heap_ ? heap_.get() : inline_; }
  /// Raw read-only storage.
  const std::byte* bytes() const { return heap_ ? heap_.get() : inline_; }
  /// Typed view of the storage (T must be the storage type of the element type).
  template <class T> T* as() { return reinterpret_cast<T*>(bytes()); }
  /// Typed read-only view of the storage.
  template <class T> const T* as() const { return reinterpret_cast<const T*>(bytes()); }

  /// The same storage viewed with another shape of equal numel (reshape, expand_dims).
  Val reshaped(std::vector<int64_t> new_shape) const;
  /// The IR type of this value.
  ir::Type type() const { return ir::Type{scalar, is_ptr, shape}; }

 private:
  int elem_size_ = 4;
  std::shared_ptr<std::byte[]> heap_;
  alignas(8) std::byte inline_[8] = {};
};

/// Storage bytes of one element of (s, is_ptr).
int storage_size(ir::ScalarType s, bool is_ptr);
/// Integers other than int1 and uint*: int8..int64.
bool is_signed(ir::ScalarType s);
/// Narrow float formats stored as bits (fp16, bf16, fp8*).
bool is_narrow_float(ir::ScalarType s);
/// FloatFormat of a float ScalarType other than fp64.
FloatFormat float_format(ir::ScalarType s);

/// Element i as a 64-bit integer: sign-extended for signed ints, zero-extended for int1 /
/// unsigned, the address for pointers, the raw bits zero-extended for floats.
int64_t load_int(const Val& v, int64_t i);
/// Element i's raw bits, zero-extended.
uint64_t load_bits(const Val& v, int64_t i);
/// Element i of a float value as an exact double.
double load_double(const Val& v, int64_t i);
/// Stores raw bits (the low storage-size bytes of `bits`) into element i.
void store_bits(Val& v, int64_t i, uint64_t bits);
/// Stores an integer into element i, truncated to the width (int1: != 0).
void store_int(Val& v, int64_t i, uint64_t value);
/// A scalar Val of IR type `t` (a scalar type) holding raw bits `bits`.
Val scalar_from_bits(ir::ScalarType s, bool is_ptr, uint64_t bits);
/// A value whose every element holds raw bits `bits`.
Val filled(ir::ScalarType s, bool is_ptr, std::vector<int64_t> shape, uint64_t bits);
/// Copies `count` elements (elem_size bytes each) from src[src_off...] to dst[dst_off...].
void copy_elems(const Val& src, int64_t src_off, Val& dst, int64_t dst_off, int64_t count);
/// "fp32", "tensor<4x4xi32>" — for diagnostics.
std::string describe(const Val& v);

/// Type tag used by the dispatch helpers below.
template <class T> struct Tag { using type = T; };

/// Integer traits for loops: T is the storage type; kBool marks int1 (width 1).
template <class T, bool kBool = false> struct IntTraits {
  using Storage = T;
  static constexpr int kWidth = kBool ? 1 : static_cast<int>(sizeof(T) * 8);
  static constexpr bool kSigned = !kBool && std::is_signed_v<T>;
  /// Truncates a 64-bit value to the type (int1: low bit).
  static T wrap(uint64_t v) { return kBool ? static_cast<T>(v & 1u) : static_cast<T>(v); }
  /// Zero-extended bits of x.
  static uint64_t ubits(T x) {
    if constexpr (kBool) return static_cast<uint64_t>(x) & 1u;
    else return static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(x));
  }
  /// All-ones of the width.
  static constexpr uint64_t kMask = kWidth == 64 ? ~0ull : ((1ull << kWidth) - 1ull);
};

/// Calls f(IntTraits<...>{}) for integer ScalarType s; returns false if s is not an integer.
template <class F> bool visit_int(ir::ScalarType s, F&& f) {
  using ST = ir::ScalarType;
  switch (s) {
    case ST::I1: f(IntTraits<uint8_t, true>{}); return true;
    case ST::I8: f(IntTraits<int8_t>{}); return true;
    case ST::I16: f(IntTraits<int16_t>{}); return true;
    case ST::I32: f(IntTraits<int32_t>{}); return true;
    case ST::I64: f(IntTraits<int64_t>{}); return true;
    case ST::U8: f(IntTraits<uint8_t>{}); return true;
    case ST::U16: f(IntTraits<uint16_t>{}); return true;
    case ST::U32: f(IntTraits<uint32_t>{}); return true;
    case ST::U64: f(IntTraits<uint64_t>{}); return true;
    default: return false;
  }
}

/// Float element access for loops: decode to the compute type (float or double), encode
/// back with RNE. Native types (fp32, fp64) are identity.
template <class S, class C> struct FloatTraits {
  using Storage = S;
  using Compute = C;
  FloatFormat fmt;  // meaningful for narrow types only
  /// Exact value of stored bits x in the compute type.
  C decode(S x) const {
    if constexpr (std::is_same_v<S, C>) return x;
    else if constexpr (sizeof(S) == 2)
      return fmt == FloatFormat::F16 ? fp16_to_fp32(x) : bf16_to_fp32(x);
    else return fp8_to_fp32(fmt, x);
  }
  /// x rounded once (RNE) to the stored type.
  S encode(C x) const {
    if constexpr (std::is_same_v<S, C>) return x;
    else if constexpr (sizeof(S) == 2)
      return fmt == FloatFormat::F16 ? fp32_to_fp16(x) : fp32_to_bf16(x);
    else return fp32_to_fp8(fmt, x);
  }
};

/// Calls f(FloatTraits<...>{}) for float ScalarType s; returns false if s is not a float.
template <class F> bool visit_float(ir::ScalarType s, F&& f) {
  using ST = ir::ScalarType;
  switch (s) {
    case ST::F32: f(FloatTraits<float, float>{FloatFormat::F32}); return true;
    case ST::F64: f(FloatTraits<double, double>{FloatFormat::F32}); return true;
    case ST::F16: f(FloatTraits<uint16_t, float>{FloatFormat::F16}); return true;
    case ST::BF16: f(FloatTraits<uint16_t, float>{FloatFormat::BF16}); return true;
    case ST::F8E4NV: f(FloatTraits<uint8_t, float>{FloatFormat::F8E4NV}); return true;
    case ST::F8E5: f(FloatTraits<uint8_t, float>{FloatFormat::F8E5}); return true;
    case ST::F8E4B15: f(FloatTraits<uint8_t, float>{FloatFormat::F8E4B15}); return true;
    default: return false;
  }
}

}  // namespace tritium::interp
