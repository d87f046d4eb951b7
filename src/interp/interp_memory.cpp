// Pointer arithmetic, loads, stores and atomics on host memory (semantics: interpreter.h).
#include <cmath>
#include <cstring>
#include <mutex>

#include "interp/interp_ops.h"

namespace tritium::interp {
namespace {

using ir::ScalarType;

void check_same_count(const ir::Op& op, const Val& ptr, const Val* other, const char* what) {
  if (other && other->numel != ptr.numel && other->numel != 1)
    refuse(op, std::string(what) + " shape " + describe(*other) + " differs from the pointer's " + describe(ptr));
}
int64_t stride_of(const Val* v) { return v && v->numel == 1 ? 0 : 1; }

// Reads / writes one element of `size` bytes at a host address.
uint64_t read_mem(uint64_t addr, int size) {
  uint64_t b = 0;
  std::memcpy(&b, reinterpret_cast<const void*>(addr), static_cast<size_t>(size));
  return b;
}
void write_mem(uint64_t addr, uint64_t bits, int size) {
  std::memcpy(reinterpret_cast<void*>(addr), &bits, static_cast<size_t>(size));
}

// min/max of raw bits of type t with the propagate_nan = 0 rule for floats.
uint64_t minmax_bits(ScalarType t, uint64_t a, uint64_t b, bool is_max) {
  if (ir::is_float(t)) {
    const double x = t == ScalarType::F64 ? double_from_bits(a)
                     : t == ScalarType::F32 ? static_cast<double>(float_from_bits(static_cast<uint32_t>(a)))
                                            : fp_decode(float_format(t), static_cast<uint32_t>(a));
    const double y = t == ScalarType::F64 ? double_from_bits(b)
                     : t == ScalarType::F32 ? static_cast<double>(float_from_bits(static_cast<uint32_t>(b)))
                                            : fp_decode(float_format(t), static_cast<uint32_t>(b));
    if (std::isnan(x)) return b;
    if (std::isnan(y)) return a;
    if (x == y) return (std::signbit(x) == is_max) ? b : a;  // max prefers +0, min prefers -0
    return ((x < y) == is_max) ? b : a;
  }
  const int w = ir::bitwidth(t);
  if (is_signed(t)) {
    const uint64_t sign = w == 64 ? 0 : (1ull << (w - 1));
    const int64_t x = w == 64 ? static_cast<int64_t>(a) : static_cast<int64_t>((a ^ sign) - sign);
    const int64_t y = w == 64 ? static_cast<int64_t>(b) : static_cast<int64_t>((b ^ sign) - sign);
    return ((x < y) == is_max) ? b : a;
  }
  return ((a < b) == is_max) ? b : a;
}

uint64_t fadd_bits(ScalarType t, uint64_t a, uint64_t b) {
  switch (t) {
    case ScalarType::F64: return bits_of(double_from_bits(a) + double_from_bits(b));
    case ScalarType::F32:
      return bits_of(float_from_bits(static_cast<uint32_t>(a)) + float_from_bits(static_cast<uint32_t>(b)));
    default: {
      const FloatFormat f = float_format(t);
      const float x = static_cast<float>(fp_decode(f, static_cast<uint32_t>(a)));
      const float y = static_cast<float>(fp_decode(f, static_cast<uint32_t>(b)));
      return fp_encode_f32(f, x + y);
    }
  }
}

// Loads lanes of ES bytes: memory where the mask allows, else `other`, else `fill`.
template <int ES>
void load_lanes(const uint64_t* addr, const uint8_t* m, int64_t sm, const Val* other, int64_t so, uint64_t fill, Val& r) {
  std::byte* out = r.bytes();
  const int64_t n = r.numel;
  if (!m) {
    for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * ES, reinterpret_cast<const void*>(addr[i]), ES);
    return;
  }
  const std::byte* oth = other ? other->bytes() : nullptr;
  for (int64_t i = 0; i < n; ++i) {
    if (m[i * sm]) std::memcpy(out + i * ES, reinterpret_cast<const void*>(addr[i]), ES);
    else if (oth) std::memcpy(out + i * ES, oth + i * so * ES, ES);
    else std::memcpy(out + i * ES, &fill, ES);  // little-endian: the low ES bytes
  }
}

// Stores lanes of ES bytes where the mask allows.
template <int ES>
void store_lanes(const uint64_t* addr, const std::byte* in, int64_t sv, const uint8_t* m, int64_t sm, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    if (!m || m[i * sm]) std::memcpy(reinterpret_cast<void*>(addr[i]), in + i * sv * ES, ES);
}

}  // namespace

Val eval_addptr(const ir::Op& op, const Val& p, const Val& off) {
  if (!p.is_ptr || off.is_ptr || !ir::is_int(off.scalar)) refuse(op, "needs a pointer and an integer offset");
  const int64_t n = std::max(p.numel, off.numel);
  if ((p.numel != n && p.numel != 1) || (off.numel != n && off.numel != 1)) refuse(op, "operand shapes differ");
  Val r = Val::make(p.scalar, true, p.numel == n ? p.shape : off.shape);
  const uint64_t es = static_cast<uint64_t>(ir::byte_size(p.scalar));
  const uint64_t* pp = p.as<uint64_t>();
  uint64_t* pr = r.as<uint64_t>();
  const int64_t sp = p.numel == 1 ? 0 : 1, so = off.numel == 1 ? 0 : 1;
  if (off.scalar == ScalarType::I32) {
    const int32_t* po = off.as<int32_t>();
    for (int64_t i = 0; i < n; ++i) pr[i] = pp[i * sp] + static_cast<uint64_t>(static_cast<int64_t>(po[i * so])) * es;
  } else {
    for (int64_t i = 0; i < n; ++i) pr[i] = pp[i * sp] + static_cast<uint64_t>(load_int(off, i * so)) * es;
  }
  return r;
}

Val eval_load(const ir::Op& op, const Val& ptr, const Val* mask, const Val* other, const MemoryContext& mc) {
  if (!ptr.is_ptr) refuse(op, "operand is not a pointer");
  check_same_count(op, ptr, mask, "mask");
  check_same_count(op, ptr, other, "other");
  if (other && (other->scalar != ptr.scalar || other->is_ptr)) refuse(op, "'other' has the wrong type");
  const ScalarType t = ptr.scalar;
  Val r = Val::make(t, false, ptr.shape);
  const int es = r.elem_size();
  const int64_t n = ptr.numel;
  const uint64_t* addr = ptr.as<uint64_t>();
  const bool poison = mc.options && mc.options->poison_masked_loads;
  const uint64_t fill = poison ? poison_bits(t) : 0;
  const uint8_t* m = mask ? mask->as<uint8_t>() : nullptr;
  const int64_t sm = stride_of(mask), so = stride_of(other);
  switch (es) {
    case 1: load_lanes<1>(addr, m, sm, other, so, fill, r); break;
    case 2: load_lanes<2>(addr, m, sm, other, so, fill, r); break;
    case 4: load_lanes<4>(addr, m, sm, other, so, fill, r); break;
    case 8: load_lanes<8>(addr, m, sm, other, so, fill, r); break;
    default: refuse(op, "unsupported element size");
  }
  if (t == ScalarType::I1) {  // int1 is stored as a byte: any non-zero byte reads as 1
    uint8_t* p = r.as<uint8_t>();
    for (int64_t i = 0; i < n; ++i) p[i] = p[i] != 0;
  }
  return r;
}

void eval_store(const ir::Op& op, const Val& ptr, const Val& value, const Val* mask) {
  if (!ptr.is_ptr) refuse(op, "operand is not a pointer");
  if (value.scalar != ptr.scalar || value.is_ptr) refuse(op, "stored value type differs from the pointee");
  check_same_count(op, ptr, &value, "value");
  check_same_count(op, ptr, mask, "mask");
  const int es = value.elem_size();
  const int64_t n = ptr.numel;
  const uint64_t* addr = ptr.as<uint64_t>();
  const uint8_t* m = mask ? mask->as<uint8_t>() : nullptr;
  const int64_t sm = stride_of(mask), sv = stride_of(&value);
  switch (es) {
    case 1: store_lanes<1>(addr, value.bytes(), sv, m, sm, n); break;
    case 2: store_lanes<2>(addr, value.bytes(), sv, m, sm, n); break;
    case 4: store_lanes<4>(addr, value.bytes(), sv, m, sm, n); break;
    case 8: store_lanes<8>(addr, value.bytes(), sv, m, sm, n); break;
    default: refuse(op, "unsupported element size");
  }
}

Val eval_atomic_rmw(const ir::Op& op, const Val& ptr, const Val& value, const Val* mask, const MemoryContext& mc) {
  if (!ptr.is_ptr) refuse(op, "operand is not a pointer");
  if (value.scalar != ptr.scalar || value.is_ptr) refuse(op, "value type differs from the pointee");
  check_same_count(op, ptr, &value, "value");
  check_same_count(op, ptr, mask, "mask");
  const ScalarType t = ptr.scalar;
  const std::string rmw = op.attr_str("rmw");
  const bool is_float = ir::is_float(t);
  enum class K { kAdd, kFAdd, kAnd, kOr, kXor, kMax, kMin, kXchg } k;
  if (rmw == "add") k = is_float ? K::kFAdd : K::kAdd;
  else if (rmw == "fadd") k = K::kFAdd;
  else if (rmw == "and") k = K::kAnd;
  else if (rmw == "or") k = K::kOr;
  else if (rmw == "xor") k = K::kXor;
  else if (rmw == "max") k = K::kMax;
  else if (rmw == "min") k = K::kMin;
  else if (rmw == "xchg") k = K::kXchg;
  else refuse(op, "unknown rmw kind '" + rmw + "'");
  if (k == K::kFAdd && !is_float) refuse(op, "fadd on integer type");
  if ((k == K::kAnd || k == K::kOr || k == K::kXor) && is_float) refuse(op, "bitwise atomic on float type");
  if (t == ScalarType::I1 && k != K::kXchg && k != K::kAnd && k != K::kOr && k != K::kXor)
    refuse(op, "arithmetic atomic on int1");
  Val r = filled(t, false, ptr.shape, mc.options && mc.options->poison_masked_loads ? poison_bits(t) : 0);
  const int es = r.elem_size();
  const int w = ir::bitwidth(t);
  const uint64_t wmask = w == 64 ? ~0ull : (1ull << w) - 1ull;
  const uint64_t* addr = ptr.as<uint64_t>();
  const uint8_t* m = mask ? mask->as<uint8_t>() : nullptr;
  const int64_t sm = stride_of(mask), sv = stride_of(&value);
  std::unique_lock<std::mutex> lock;
  if (mc.atomic_mutex) lock = std::unique_lock<std::mutex>(*mc.atomic_mutex);
  for (int64_t i = 0; i < ptr.numel; ++i) {  // lanes in row-major order
    if (m && !m[i * sm]) continue;
    const uint64_t old = read_mem(addr[i], es);
    const uint64_t v = load_bits(value, i * sv);
    uint64_t nv = 0;
    switch (k) {
      case K::kAdd: nv = (old + v) & wmask; break;
      case K::kFAdd: nv = fadd_bits(t, old, v); break;
      case K::kAnd: nv = old & v; break;
      case K::kOr: nv = old | v; break;
      case K::kXor: nv = old ^ v; break;
      case K::kMax: nv = minmax_bits(t, old, v, true); break;
      case K::kMin: nv = minmax_bits(t, old, v, false); break;
      case K::kXchg: nv = v; break;
    }
    write_mem(addr[i], nv, es);
    store_bits(r, i, t == ScalarType::I1 ? (old != 0) : old);
  }
  return r;
}

Val eval_atomic_cas(const ir::Op& op, const Val& ptr, const Val& cmp, const Val& value, const MemoryContext& mc) {
  if (!ptr.is_ptr) refuse(op, "operand is not a pointer");
  if (value.scalar != ptr.scalar || cmp.scalar != ptr.scalar || value.is_ptr || cmp.is_ptr)
    refuse(op, "operand types differ from the pointee");
  check_same_count(op, ptr, &value, "value");
  check_same_count(op, ptr, &cmp, "cmp");
  Val r = Val::make(ptr.scalar, false, ptr.shape);
  const int es = r.elem_size();
  const uint64_t* addr = ptr.as<uint64_t>();
  const int64_t sv = stride_of(&value), sc = stride_of(&cmp);
  std::unique_lock<std::mutex> lock;
  if (mc.atomic_mutex) lock = std::unique_lock<std::mutex>(*mc.atomic_mutex);
  for (int64_t i = 0; i < ptr.numel; ++i) {
    const uint64_t old = read_mem(addr[i], es);
    if (old == load_bits(cmp, i * sc)) write_mem(addr[i], load_bits(value, i * sv), es);
    store_bits(r, i, old);
  }
  return r;
}

}  // namespace tritium::interp
