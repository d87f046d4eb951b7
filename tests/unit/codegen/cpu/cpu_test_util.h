// Helpers for the CPU backend tests: building kernels by hand with ir::Builder, compiling
// them with the CPU device, and independent reference conversions (fp16 / bf16).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ir/builder.h"
#include "ir/ir.h"
#include "ir/verifier.h"
#include "runtime/device.h"
#include "runtime/kernel_abi.h"

namespace tritium::cputest {

using ir::OpKind;
using ir::ScalarType;
using ir::Type;
using ir::Value;

/// A kernel under construction: one module, one kernel function, a builder at its end.
struct KernelBuilder {
  ir::Module module;
  ir::Function* fn;
  ir::Builder b;
  ir::Loc loc{};

  explicit KernelBuilder(const std::string& name) : fn(module.add(name)), b(*fn) {
    fn->is_kernel = true;
    b.set_insertion_end(&fn->body);
  }
  /// Adds a kernel parameter.
  Value* param(const Type& t) { return b.add_block_arg(fn->body, t); }
  Value* ptr_param(ScalarType s) { return param(Type::ptr(s)); }
  Value* i32(int64_t v) { return b.const_int(Type::of(ScalarType::I32), v, loc); }
  Value* const_of(const Type& t, double v) {
    return ir::is_float(t.scalar) ? b.const_float(t, v, loc) : b.const_int(t, static_cast<int64_t>(v), loc);
  }
  Value* pid(int axis = 0) {
    return b.create(OpKind::ProgramId, {}, {Type::of(ScalarType::I32)}, loc, {{"axis", int64_t{axis}}})->result();
  }
  Value* range(int64_t n) {
    return b.create(OpKind::MakeRange, {}, {Type::tensor(ScalarType::I32, {n})}, loc,
                    {{"start", int64_t{0}}, {"end", n}})
        ->result();
  }
  Value* bin(OpKind k, Value* x, Value* y) { return b.binary(k, x, y, loc); }
  Value* splat(Value* s, std::vector<int64_t> shape) { return b.splat(s, std::move(shape), loc); }
  Value* addptr(Value* p, Value* off) { return b.create(OpKind::AddPtr, {p, off}, {p->type}, loc)->result(); }
  Value* load(Value* p, Value* mask = nullptr, Value* other = nullptr) {
    std::vector<Value*> ops = {p};
    if (mask) ops.push_back(mask);
    if (other) ops.push_back(other);
    return b.create(OpKind::Load, ops, {p->type.with_scalar(p->type.scalar)}, loc,
                    {{"has_mask", int64_t{mask != nullptr}}, {"has_other", int64_t{other != nullptr}}})
        ->result();
  }
  void store(Value* p, Value* v, Value* mask = nullptr) {
    std::vector<Value*> ops = {p, v};
    if (mask) ops.push_back(mask);
    b.create(OpKind::Store, ops, {}, loc, {{"has_mask", int64_t{mask != nullptr}}});
  }
  /// Pointer tensor base + offs (base splatted to offs' shape).
  Value* ptrs(Value* base, Value* offs) { return addptr(splat(base, offs->type.shape), offs); }
  /// Offsets pid*block + arange(block) and the mask offs < n (n a scalar i32).
  std::pair<Value*, Value*> block_offsets(int64_t block, Value* n) {
    Value* base = bin(OpKind::Mul, pid(), i32(block));
    Value* offs = bin(OpKind::Add, splat(base, {block}), range(block));
    Value* mask = b.cmp("lt", offs, splat(n, {block}), loc);
    return {offs, mask};
  }
  void ret() { b.create(OpKind::Return, {}, {}, loc); }
};

/// The process-wide CPU device used by the tests.
runtime::Device& cpu_device();

/// Verifies the IR (fails the test with the verifier's messages) and compiles it.
std::unique_ptr<runtime::LoadedKernel> compile(const ir::Module& m, const runtime::CodegenOptions& opts = {});

/// Launch-argument helpers.
inline tritium_arg arg_ptr(void* p) { tritium_arg a; a.ptr = p; return a; }
inline tritium_arg arg_i64(int64_t v) { tritium_arg a; a.i64 = v; return a; }
inline tritium_arg arg_f32(float v) { tritium_arg a; a.u64 = 0; a.f32 = v; return a; }

// ---- independent reference conversions ----

/// Bits of a float / double.
inline uint32_t bits_of(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float float_of(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
/// fp16 via the compiler's _Float16 (double -> fp16 is one correctly rounded conversion).
inline uint16_t ref_f16(double d) { _Float16 h = static_cast<_Float16>(d); uint16_t u; std::memcpy(&u, &h, 2); return u; }
inline double ref_f16_value(uint16_t u) { _Float16 h; std::memcpy(&h, &u, 2); return static_cast<double>(h); }
/// bf16 value of a bit pattern (exact).
inline double ref_bf16_value(uint16_t u) { return static_cast<double>(float_of(static_cast<uint32_t>(u) << 16)); }
/// Nearest bf16 (ties to even) to a finite double, found by comparing the two candidates
/// that bracket it (independent of the bit tricks the generated code uses).
uint16_t ref_bf16_rne(double d);

/// Random float in [lo, hi) that is never zero.
inline float rand_nonzero(std::mt19937& rng, float lo, float hi) {
  std::uniform_real_distribution<float> u(lo, hi);
  for (;;) {
    float v = u(rng);
    if (v != 0.0f) return v;
  }
}

}  // namespace tritium::cputest
