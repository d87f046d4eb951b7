// Helpers for the interpreter tests: build small kernels by hand with ir::Builder (no
// frontend) and launch them on host buffers.
#pragma once
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "interp/interpreter.h"
#include "ir/builder.h"
#include "ir/ir.h"

namespace tritium::interp::testing {

using ir::Op;
using ir::OpKind;
using ir::ScalarType;
using ir::Type;
using ir::Value;

/// A kernel under construction: module, kernel function, builder at the end of its body.
struct K {
  ir::Module m;
  ir::Function* fn;
  ir::Builder b;
  ir::Loc loc{};

  explicit K(const std::string& name = "kern") : fn(m.add(name)), b(*fn) {
    fn->is_kernel = true;
    b.set_insertion_end(&fn->body);
  }
  Value* arg(Type t) { return b.add_block_arg(fn->body, std::move(t)); }
  Value* ptr_arg(ScalarType s) { return arg(Type::ptr(s)); }
  Value* ci(ScalarType s, int64_t v, std::vector<int64_t> shape = {}) { return b.const_int(Type{s, false, shape}, v, loc); }
  Value* cf(ScalarType s, double v, std::vector<int64_t> shape = {}) { return b.const_float(Type{s, false, shape}, v, loc); }
  Value* range(int64_t start, int64_t end) {
    return b.create(OpKind::MakeRange, {}, {Type::tensor(ScalarType::I32, {end - start})}, loc,
                    {{"start", start}, {"end", end}})->result();
  }
  Value* pid(int axis = 0) {
    return b.create(OpKind::ProgramId, {}, {Type::of(ScalarType::I32)}, loc, {{"axis", int64_t(axis)}})->result();
  }
  Value* bin(OpKind k, Value* x, Value* y, std::map<std::string, ir::Attr> attrs = {}) {
    return b.create(k, {x, y}, {x->type}, loc, std::move(attrs))->result();
  }
  Value* cmp(const std::string& pred, Value* x, Value* y) { return b.cmp(pred, x, y, loc); }
  /// p (scalar or tensor pointer) + off; a scalar p is splatted to off's shape.
  Value* addptr(Value* p, Value* off) {
    if (p->type.is_scalar() && off->type.is_tensor()) p = b.splat(p, off->type.shape, loc);
    return b.create(OpKind::AddPtr, {p, off}, {p->type}, loc)->result();
  }
  Value* load(Value* ptr, Value* mask = nullptr, Value* other = nullptr) {
    std::vector<Value*> ops = {ptr};
    if (mask) ops.push_back(mask);
    if (other) ops.push_back(other);
    return b.create(OpKind::Load, ops, {ptr->type.with_scalar(ptr->type.scalar)}, loc,
                    {{"has_mask", int64_t(mask != nullptr)}, {"has_other", int64_t(other != nullptr)}})->result();
  }
  void store(Value* ptr, Value* val, Value* mask = nullptr) {
    std::vector<Value*> ops = {ptr, val};
    if (mask) ops.push_back(mask);
    b.create(OpKind::Store, ops, {}, loc, {{"has_mask", int64_t(mask != nullptr)}});
  }
  /// Offsets pid(0)·block + [0, block).
  Value* block_offsets(int64_t block) {
    Value* base = b.binary(OpKind::Mul, pid(0), ci(ScalarType::I32, block), loc);
    return b.binary(OpKind::Add, b.splat(base, {block}, loc), range(0, block), loc);
  }
  void ret() { b.create(OpKind::Return, {}, {}, loc); }
};

inline tritium_arg P(const void* p) {
  tritium_arg a;
  a.ptr = const_cast<void*>(p);
  return a;
}
inline tritium_arg I(int64_t v) {
  tritium_arg a;
  a.i64 = v;
  return a;
}
inline tritium_arg F32(float v) {
  tritium_arg a;
  a.u64 = 0;
  a.f32 = v;
  return a;
}

/// kernel(in0*, ..., out*): offs = pid·block + arange(block); out[offs] = body(in_i[offs]...).
inline void build_map(K& k, const std::vector<ScalarType>& ins, ScalarType out, int64_t block,
                      const std::function<Value*(K&, const std::vector<Value*>&)>& body) {
  std::vector<Value*> ptrs;
  for (ScalarType t : ins) ptrs.push_back(k.ptr_arg(t));
  Value* optr = k.ptr_arg(out);
  Value* offs = k.block_offsets(block);
  std::vector<Value*> vals;
  for (Value* p : ptrs) vals.push_back(k.load(k.addptr(p, offs)));
  k.store(k.addptr(optr, offs), body(k, vals));
  k.ret();
}

/// Builds and runs a map kernel over n elements (n a multiple of block).
inline void run_map(const std::vector<ScalarType>& ins, ScalarType out, int64_t n, int64_t block,
                    const std::vector<const void*>& in_bufs, void* out_buf,
                    const std::function<Value*(K&, const std::vector<Value*>&)>& body, const Options& opt = {}) {
  K k;
  build_map(k, ins, out, block, body);
  std::vector<tritium_arg> args;
  for (const void* p : in_bufs) args.push_back(P(p));
  args.push_back(P(out_buf));
  run(k.m, {static_cast<int32_t>(n / block), 1, 1}, args, opt);
}

/// Fills a buffer with a recognizable poison byte pattern (unwritten elements show).
template <class T> void poison(std::vector<T>& v) { std::memset(v.data(), 0xA5, v.size() * sizeof(T)); }

inline uint16_t half_bits(_Float16 h) {
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
inline _Float16 half_from(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return h;
}
inline uint32_t fbits(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}
inline float from_fbits(uint32_t b) {
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}

/// Random non-zero floats with |x| in [lo, hi).
inline std::vector<float> random_floats(size_t n, uint64_t seed, float lo = 0.5f, float hi = 4.0f) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> mag(lo, hi);
  std::bernoulli_distribution neg(0.5);
  std::vector<float> v(n);
  for (float& x : v) x = neg(gen) ? -mag(gen) : mag(gen);
  return v;
}

}  // namespace tritium::interp::testing
