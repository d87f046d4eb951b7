// Differential tests: the same hand-built IR on the reference interpreter (src/interp/) and
// on the CPU backend must give identical bytes in every output buffer, for every dtype and
// op family: elementwise arithmetic with special values, the full cast matrix with both
// rounding modes, math functions, reductions / scans / dots, shape ops, control flow and
// device_print. Inputs are random bit patterns mixed with special values; outputs start
// poisoned, so an element one side does not write shows up as a difference.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include <fmt/format.h>

#include "cpu_test_util.h"
#include "interp/interpreter.h"

namespace tritium::cputest {
namespace {

/// One kernel argument: a byte buffer (passed as a pointer) or a scalar slot.
struct Arg {
  std::vector<uint8_t> bytes;
  bool buffer = true;
  tritium_arg scalar{};
  std::string what;                     // name for messages
  ScalarType elem = ScalarType::U8;     // element type (NaN-aware comparison of floats)
};

Arg buffer(size_t n, const std::string& what, ScalarType elem, uint8_t fill = 0xA5) {
  Arg a;
  a.bytes.assign(n * static_cast<size_t>(ir::byte_size(elem)), fill);
  a.what = what;
  a.elem = elem;
  return a;
}

/// True when element `i` of two buffers of type `t` holds NaN in both (NaN payload and sign
/// are not part of the cross-backend contract, see interpreter.h; "is NaN" is).
bool both_nan(ScalarType t, const uint8_t* x, const uint8_t* y) {
  uint64_t a = 0, b = 0;
  std::memcpy(&a, x, static_cast<size_t>(ir::byte_size(t)));
  std::memcpy(&b, y, static_cast<size_t>(ir::byte_size(t)));
  auto is_nan = [t](uint64_t v) {
    switch (t) {
      case ScalarType::F16: return (v & 0x7c00) == 0x7c00 && (v & 0x3ff);
      case ScalarType::BF16: return (v & 0x7f80) == 0x7f80 && (v & 0x7f);
      case ScalarType::F32: return (v & 0x7f800000) == 0x7f800000 && (v & 0x7fffff);
      case ScalarType::F64: return (v & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (v & 0xfffffffffffffull);
      case ScalarType::F8E5: return (v & 0x7c) == 0x7c && (v & 3);
      case ScalarType::F8E4NV: return (v & 0x7f) == 0x7f;
      default: return false;
    }
  };
  return is_nan(a) && is_nan(b);
}

/// Random bytes with special values of `t` sprinkled in (every 4th element).
Arg random_input(ScalarType t, int64_t n, uint32_t seed, const std::string& what) {
  const int bytes = ir::byte_size(t);
  Arg a = buffer(static_cast<size_t>(n), what, t);
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> specials;
  switch (t) {
    case ScalarType::F32:
      specials = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001, 0x807fffff, 0x3f800000,
                  0xbf800000, 0x7f7fffff, 0x3f808000, 0x3f818000, 0x477ff000, 0x33000000, 0x4f000000, 0xcf000000};
      break;
    case ScalarType::F64:
      specials = {0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
                  1, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x43e0000000000000ull, 0x41dfffffffc00000ull};
      break;
    case ScalarType::F16:
      specials = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x3c00, 0xbc00, 0x7bff, 0x03ff};
      break;
    case ScalarType::BF16:
      specials = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x0001, 0x3f80, 0xbf80, 0x7f7f};
      break;
    case ScalarType::I1:
      break;
    default:
      if (ir::is_int(t)) {
        const int w = ir::bitwidth(t);
        const uint64_t ones = w == 64 ? ~0ull : (1ull << w) - 1;
        specials = {0, 1, ones, ones >> 1, (ones >> 1) + 1, 2, 3, static_cast<uint64_t>(w - 1), static_cast<uint64_t>(w),
                    static_cast<uint64_t>(w + 1)};
      }
  }
  for (int64_t i = 0; i < n; ++i) {
    uint64_t v = rng();
    if (t == ScalarType::I1) v &= 1;
    else if (!specials.empty() && i % 4 == 0) v = specials[(i / 4) % specials.size()];
    else if (ir::is_float(t) && i % 4 == 1) {  // ordinary magnitudes too, not only random bits
      double d = std::uniform_real_distribution<double>(-4, 4)(rng);
      if (t == ScalarType::F32) { float f = static_cast<float>(d); std::memcpy(&v, &f, 4); }
      else if (t == ScalarType::F64) std::memcpy(&v, &d, 8);
      else if (t == ScalarType::F16) v = ref_f16(d);
      else if (t == ScalarType::BF16) v = ref_bf16_rne(d);
    } else if (ir::is_int(t) && i % 4 == 1) {
      v = rng() % 40;  // small values: in-range shift amounts, small divisors
    }
    std::memcpy(a.bytes.data() + i * bytes, &v, static_cast<size_t>(bytes));
  }
  return a;
}

std::vector<tritium_arg> slots(std::vector<Arg>& args) {
  std::vector<tritium_arg> out;
  for (auto& a : args) {
    if (a.buffer) {
      tritium_arg s;
      s.ptr = a.bytes.data();
      out.push_back(s);
    } else {
      out.push_back(a.scalar);
    }
  }
  return out;
}

/// Runs `m` on the interpreter and on the CPU backend (kernel precompiled) and compares
/// every buffer byte for byte.
void expect_same(const ir::Module& m, runtime::LoadedKernel& kernel, const std::array<int32_t, 3>& grid,
                 const std::vector<Arg>& args) {
  std::vector<Arg> ia = args, ca = args;
  interp::Options io;
  io.print = [](const std::string&) {};
  interp::run(m, grid, slots(ia), io);
  testing::internal::CaptureStdout();  // device_print output is compared elsewhere
  kernel.launch(grid, slots(ca));
  testing::internal::GetCapturedStdout();
  for (size_t k = 0; k < args.size(); ++k) {
    if (!args[k].buffer) continue;
    const auto& x = ia[k].bytes;
    const auto& y = ca[k].bytes;
    ASSERT_EQ(x.size(), y.size());
    const ScalarType t = args[k].elem;
    const size_t es = static_cast<size_t>(ir::byte_size(t));
    size_t diffs = 0;
    std::string report;
    for (size_t i = 0; i + es <= x.size(); i += es) {
      if (std::memcmp(&x[i], &y[i], es) == 0 || both_nan(t, &x[i], &y[i])) continue;
      if (++diffs <= 5) {
        uint64_t a = 0, b = 0;
        std::memcpy(&a, &x[i], es);
        std::memcpy(&b, &y[i], es);
        report += fmt::format("\n  element {}: interp 0x{:x}, cpu 0x{:x}", i / es, a, b);
      }
    }
    EXPECT_EQ(diffs, 0u) << args[k].what << " (" << ir::name(t) << "): " << diffs << " elements differ" << report;
  }
}

/// Compiles several modules concurrently, as many at a time as there are cores (the CPU
/// device is thread-safe).
std::vector<std::unique_ptr<runtime::LoadedKernel>> compile_all(const std::vector<const ir::Module*>& ms) {
  std::vector<std::unique_ptr<runtime::LoadedKernel>> out(ms.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < ms.size();) out[i] = compile(*ms[i]);
  };
  std::vector<std::thread> pool;
  unsigned n = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), static_cast<unsigned>(ms.size())));
  for (unsigned t = 0; t < n; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  return out;
}

constexpr int64_t B = 64;  // elements per test vector

const ScalarType kAllTypes[] = {ScalarType::I1,  ScalarType::I8,  ScalarType::I16, ScalarType::I32,
                                ScalarType::I64, ScalarType::U8,  ScalarType::U16, ScalarType::U32,
                                ScalarType::U64, ScalarType::F8E4NV, ScalarType::F8E5, ScalarType::F8E4B15,
                                ScalarType::F16, ScalarType::BF16, ScalarType::F32, ScalarType::F64};

// ---- elementwise ops -----------------------------------------------------------------------

/// Every binary / unary op on dtype `t`: out[k*B + i] = op_k(x[i], y[i]); cmp[k*B + i] = pred_k.
struct ElementwiseKernel {
  ir::Module module;
  int nops = 0;
};

ElementwiseKernel elementwise_kernel(ScalarType t) {
  KernelBuilder k(std::string("ew_") + std::string(ir::name(t)));
  Value* x = k.ptr_param(t);
  Value* y = k.ptr_param(t);
  Value* out = k.ptr_param(t);
  Value* cmp = k.ptr_param(ScalarType::I1);
  Value* r = k.range(B);
  Value* xv = k.load(k.ptrs(x, r));
  Value* yv = k.load(k.ptrs(y, r));
  int slot = 0;
  auto put = [&](Value* v) {
    Value* offs = k.bin(OpKind::Add, r, k.splat(k.i32(slot++ * B), {B}));
    k.store(k.ptrs(out, offs), v);
  };
  const bool fl = ir::is_float(t);
  auto mm = [&](OpKind kind, int prop) {
    return k.b.create(kind, {xv, yv}, {xv->type}, k.loc, {{"propagate_nan", int64_t{prop}}})->result();
  };
  for (OpKind op : {OpKind::Add, OpKind::Sub, OpKind::Mul}) put(k.bin(op, xv, yv));
  put(mm(OpKind::Min, 0));
  put(mm(OpKind::Max, 0));
  put(k.b.unary(OpKind::Neg, xv, k.loc));
  put(k.b.math(ir::MathFn::Abs, {xv}, xv->type, k.loc));
  put(k.b.select(k.b.cmp("lt", xv, yv, k.loc), yv, xv, k.loc));
  if (fl) {
    put(mm(OpKind::Min, 1));
    put(mm(OpKind::Max, 1));
    put(k.bin(OpKind::Div, xv, yv));
    put(k.bin(OpKind::Rem, xv, yv));
    put(k.b.math(ir::MathFn::Fma, {xv, yv, xv}, xv->type, k.loc));
    for (ir::MathFn f : {ir::MathFn::Sqrt, ir::MathFn::Floor, ir::MathFn::Ceil, ir::MathFn::Rint, ir::MathFn::Trunc,
                         ir::MathFn::Round, ir::MathFn::Rsqrt})
      put(k.b.math(f, {xv}, xv->type, k.loc));
    put(k.b.math(ir::MathFn::Copysign, {xv, yv}, xv->type, k.loc));
  } else {
    for (OpKind op : {OpKind::IDiv, OpKind::Rem, OpKind::And, OpKind::Or, OpKind::Xor, OpKind::Shl, OpKind::Shr})
      put(k.bin(op, xv, yv));
    put(k.b.unary(OpKind::Not, xv, k.loc));
    put(k.b.math(ir::MathFn::Umulhi, {xv, yv}, xv->type, k.loc));
    put(k.b.math(ir::MathFn::Clz, {xv}, xv->type, k.loc));
    put(k.b.math(ir::MathFn::Popc, {xv}, xv->type, k.loc));
  }
  int cslot = 0;
  for (const char* p : {"eq", "ne", "lt", "le", "gt", "ge"}) {
    Value* offs = k.bin(OpKind::Add, r, k.splat(k.i32(cslot++ * B), {B}));
    k.store(k.ptrs(cmp, offs), k.b.cmp(p, xv, yv, k.loc));
  }
  if (fl) {
    for (ir::MathFn f : {ir::MathFn::Isnan, ir::MathFn::Isinf, ir::MathFn::Signbit}) {
      Value* offs = k.bin(OpKind::Add, r, k.splat(k.i32(cslot++ * B), {B}));
      k.store(k.ptrs(cmp, offs), k.b.math(f, {xv}, xv->type.with_scalar(ScalarType::I1), k.loc));
    }
  }
  k.ret();
  return {std::move(k.module), slot};
}

TEST(CpuVsInterp, ElementwiseOpsEveryDtype) {
  std::vector<ScalarType> types = {ScalarType::I1,  ScalarType::I8,  ScalarType::I16, ScalarType::I32,
                                   ScalarType::I64, ScalarType::U8,  ScalarType::U16, ScalarType::U32,
                                   ScalarType::U64, ScalarType::F16, ScalarType::BF16, ScalarType::F32,
                                   ScalarType::F64, ScalarType::F8E5};
  std::vector<ElementwiseKernel> ks;
  for (auto t : types) ks.push_back(elementwise_kernel(t));
  std::vector<const ir::Module*> ms;
  for (auto& k : ks) ms.push_back(&k.module);
  auto compiled = compile_all(ms);
  for (size_t i = 0; i < types.size(); ++i) {
    SCOPED_TRACE(std::string(ir::name(types[i])));
    std::vector<Arg> args = {random_input(types[i], B, 100 + i, "x"), random_input(types[i], B, 200 + i, "y"),
                             buffer(static_cast<size_t>(ks[i].nops * B), "out", types[i]), buffer(9 * B, "cmp", ScalarType::I1)};
    expect_same(ks[i].module, *compiled[i], {1, 1, 1}, args);
  }
}

// ---- casts -------------------------------------------------------------------------------

/// Per source dtype s, one kernel casting it to every destination dtype d:
/// out_d[rtz*B + i] = cast(x[i]) (the RTZ half only for float -> float).
TEST(CpuVsInterp, CastMatrixBothRoundings) {
  const int ns = static_cast<int>(std::size(kAllTypes));
  std::vector<ir::Module> mods;
  for (int s = 0; s < ns; ++s) {
    KernelBuilder k(std::string("casts_from_") + std::string(ir::name(kAllTypes[s])));
    Value* in = k.ptr_param(kAllTypes[s]);
    std::vector<Value*> outs;
    for (auto t : kAllTypes) outs.push_back(k.ptr_param(t));
    Value* r = k.range(B);
    Value* xv = k.load(k.ptrs(in, r));
    for (int d = 0; d < ns; ++d)
      for (int rtz = 0; rtz < 2; ++rtz) {
        const bool narrowing = ir::is_float(kAllTypes[s]) && ir::is_float(kAllTypes[d]);
        if (rtz && !narrowing) continue;
        Value* offs = k.bin(OpKind::Add, r, k.splat(k.i32(rtz * B), {B}));
        k.store(k.ptrs(outs[d], offs), k.b.cast(xv, kAllTypes[d], k.loc, rtz ? "rtz" : ""));
      }
    k.ret();
    mods.push_back(std::move(k.module));
  }
  std::vector<const ir::Module*> ms;
  for (auto& m : mods) ms.push_back(&m);
  auto compiled = compile_all(ms);
  for (int s = 0; s < ns; ++s) {
    SCOPED_TRACE("from " + std::string(ir::name(kAllTypes[s])));
    std::vector<Arg> args = {random_input(kAllTypes[s], B, 300 + s, "in")};
    for (int d = 0; d < ns; ++d)
      args.push_back(buffer(2 * B, "out " + std::string(ir::name(kAllTypes[d])), kAllTypes[d]));
    expect_same(mods[s], *compiled[s], {1, 1, 1}, args);
  }
}

/// fp16 / bf16 <-> fp32 over every 16-bit pattern, and fp32 -> fp16 / bf16 (both roundings)
/// over 2^20 fp32 patterns spread across the whole bit space (every class: zeros,
/// subnormals, normals, ties, overflow, Inf, NaN).
TEST(CpuVsInterp, HalfConversionsExhaustive) {
  constexpr int64_t BLK = 1024;
  KernelBuilder k("half_conv");
  Value* h = k.ptr_param(ScalarType::F16);
  Value* bf = k.ptr_param(ScalarType::BF16);
  Value* f = k.ptr_param(ScalarType::F32);
  Value* out_hf = k.ptr_param(ScalarType::F32);
  Value* out_bf = k.ptr_param(ScalarType::F32);
  Value* out_h = k.ptr_param(ScalarType::F16);
  Value* out_b = k.ptr_param(ScalarType::BF16);
  Value* offs = k.bin(OpKind::Add, k.splat(k.bin(OpKind::Mul, k.pid(), k.i32(BLK)), {BLK}), k.range(BLK));
  Value* in16 = k.b.cmp("lt", offs, k.splat(k.i32(65536), {BLK}), k.loc);
  k.store(k.ptrs(out_hf, offs), k.b.cast(k.load(k.ptrs(h, offs), in16), ScalarType::F32, k.loc), in16);
  k.store(k.ptrs(out_bf, offs), k.b.cast(k.load(k.ptrs(bf, offs), in16), ScalarType::F32, k.loc), in16);
  Value* fv = k.load(k.ptrs(f, offs));
  Value* twice = k.bin(OpKind::Mul, offs, k.splat(k.i32(2), {BLK}));
  Value* twice1 = k.bin(OpKind::Add, twice, k.splat(k.i32(1), {BLK}));
  k.store(k.ptrs(out_h, twice), k.b.cast(fv, ScalarType::F16, k.loc));
  k.store(k.ptrs(out_h, twice1), k.b.cast(fv, ScalarType::F16, k.loc, "rtz"));
  k.store(k.ptrs(out_b, twice), k.b.cast(fv, ScalarType::BF16, k.loc));
  k.store(k.ptrs(out_b, twice1), k.b.cast(fv, ScalarType::BF16, k.loc, "rtz"));
  k.ret();
  const int64_t nf = int64_t{1} << 20;
  Arg hin = buffer(65536, "fp16 in", ScalarType::F16), bin = buffer(65536, "bf16 in", ScalarType::BF16);
  for (uint32_t i = 0; i < 65536; ++i) {
    std::memcpy(&hin.bytes[2 * i], &i, 2);
    std::memcpy(&bin.bytes[2 * i], &i, 2);
  }
  Arg fin = buffer(nf, "fp32 in", ScalarType::F32);
  for (uint32_t i = 0; i < nf; ++i) {
    uint32_t bits = i * 4096u + (i & 4095u);  // high bits sweep every exponent, low bits vary
    if (i % 7 == 0) bits = (bits & 0xffffe000u) | 0x1000u;  // exact fp16 ties
    if (i % 11 == 0) bits = (bits & 0xffff0000u) | 0x8000u;  // exact bf16 ties
    std::memcpy(&fin.bytes[4 * i], &bits, 4);
  }
  auto kernel = compile(k.module);
  expect_same(k.module, *kernel, {static_cast<int32_t>(nf / BLK), 1, 1},
              {hin, bin, fin, buffer(65536, "fp16->fp32", ScalarType::F32), buffer(65536, "bf16->fp32", ScalarType::F32),
               buffer(2 * nf, "fp32->fp16", ScalarType::F16), buffer(2 * nf, "fp32->bf16", ScalarType::BF16)});
}

// ---- math functions ----------------------------------------------------------------------------

TEST(CpuVsInterp, MathFunctionsF32F64) {
  using ir::MathFn;
  const MathFn unary[] = {MathFn::Exp,  MathFn::Exp2, MathFn::Log,   MathFn::Log2,  MathFn::Sin,  MathFn::Cos,
                          MathFn::Erf,  MathFn::Tanh, MathFn::Log1p, MathFn::Expm1, MathFn::Erfc, MathFn::Tan,
                          MathFn::Atan, MathFn::Asin, MathFn::Acos,  MathFn::Sinh,  MathFn::Cosh, MathFn::Exp10,
                          MathFn::Log10, MathFn::Cbrt, MathFn::SqrtRn};
  const MathFn binary[] = {MathFn::Pow, MathFn::Atan2, MathFn::Hypot, MathFn::Fmod};
  KernelBuilder k("math");
  std::vector<std::pair<Value*, Value*>> io;
  for (auto t : {ScalarType::F32, ScalarType::F64}) {
    Value* x = k.ptr_param(t);
    Value* y = k.ptr_param(t);
    Value* out = k.ptr_param(t);
    Value* r = k.range(B);
    Value* xv = k.load(k.ptrs(x, r));
    Value* yv = k.load(k.ptrs(y, r));
    int slot = 0;
    auto put = [&](Value* v) { k.store(k.ptrs(out, k.bin(OpKind::Add, r, k.splat(k.i32(slot++ * B), {B}))), v); };
    for (auto f : unary) put(k.b.math(f, {xv}, xv->type, k.loc));
    for (auto f : binary) put(k.b.math(f, {xv, yv}, xv->type, k.loc));
    // a constant argument: the compiler must not fold expf(const) differently from libm
    Value* c = k.splat(k.const_of(Type::of(t), 0.7), {B});
    put(k.b.math(MathFn::Exp, {c}, c->type, k.loc));
    put(k.b.math(MathFn::Sin, {c}, c->type, k.loc));
  }
  k.ret();
  auto kernel = compile(k.module);
  const size_t nslots = std::size(unary) + std::size(binary) + 2;
  std::vector<Arg> args;
  uint32_t seed = 400;
  for (auto t : {ScalarType::F32, ScalarType::F64}) {
    args.push_back(random_input(t, B, seed++, "x"));
    args.push_back(random_input(t, B, seed++, "y"));
    args.push_back(buffer(nslots * B, std::string("out ") + std::string(ir::name(t)), t));
  }
  expect_same(k.module, *kernel, {1, 1, 1}, args);
}

// ---- reductions, scans, dots ------------------------------------------------------------------

Value* reduce_with(KernelBuilder& k, OpKind kind, Value* v, int axis, OpKind combine, int prop = 0) {
  auto shape = v->type.shape;
  if (kind == OpKind::Reduce) shape.erase(shape.begin() + axis);
  Type rt = shape.empty() ? v->type.element() : v->type.with_shape(shape);
  ir::Op* red = k.b.create_reduce(kind, {v}, axis, {rt}, k.loc);
  ir::InsertionGuard g(k.b);
  k.b.set_insertion_end(&red->body());
  auto& a = red->body().args;
  Value* c = k.b.create(combine, {a[0], a[1]}, {a[0]->type}, k.loc, {{"propagate_nan", int64_t{prop}}})->result();
  k.b.create(OpKind::Yield, {c}, {}, k.loc);
  return red->result(0);
}

TEST(CpuVsInterp, ReductionsScansAndDots) {
  constexpr int64_t R = 16, C = 32;
  std::vector<ir::Module> mods;
  std::vector<std::vector<Arg>> inputs;
  // 1. f32 / f16 / bf16 sums, max (both NaN modes) along both axes, scans both directions.
  for (auto t : {ScalarType::F32, ScalarType::F16, ScalarType::BF16}) {
    KernelBuilder k(std::string("red_") + std::string(ir::name(t)));
    Value* x = k.ptr_param(t);
    Value* out = k.ptr_param(t);
    Value* rm = k.b.expand_dims(k.range(R), 1, k.loc);
    Value* rn = k.b.expand_dims(k.range(C), 0, k.loc);
    Value* offs = k.bin(OpKind::Add, k.b.broadcast(k.bin(OpKind::Mul, rm, k.splat(k.i32(C), {R, 1})), {R, C}, k.loc),
                        k.b.broadcast(rn, {R, C}, k.loc));
    Value* xv = k.load(k.ptrs(x, offs));
    int64_t base = 0;
    auto put = [&](Value* v) {
      if (v->type.is_scalar()) {
        k.store(k.addptr(out, k.i32(base)), v);
        base += 1;
        return;
      }
      Value* o = v->type.rank() == 1 ? k.range(v->type.shape[0]) : offs;
      k.store(k.ptrs(out, k.bin(OpKind::Add, o, k.splat(k.i32(base), v->type.shape))), v);
      base += v->type.numel();
    };
    for (int axis = 0; axis < 2; ++axis) {
      put(reduce_with(k, OpKind::Reduce, xv, axis, OpKind::Add));
      put(reduce_with(k, OpKind::Reduce, xv, axis, OpKind::Max, 0));
      put(reduce_with(k, OpKind::Reduce, xv, axis, OpKind::Min, 1));
      for (int rev = 0; rev < 2; ++rev) {
        Value* s = reduce_with(k, OpKind::Scan, xv, axis, OpKind::Add);
        s->def->attrs["reverse"] = int64_t{rev};
        put(s);
      }
    }
    Value* flat = k.b.create(OpKind::Reshape, {xv}, {xv->type.with_shape({R * C})}, k.loc)->result();
    put(reduce_with(k, OpKind::Reduce, flat, 0, OpKind::Add));
    k.ret();
    inputs.push_back({random_input(t, R * C, 500 + static_cast<uint32_t>(mods.size()), "x"),
                      buffer(static_cast<size_t>(base + 64), "out", t)});
    mods.push_back(std::move(k.module));
  }
  // 2. dots: (f16 x f16 -> f16), (bf16 x bf16 -> f32), (f32 x f32 -> f32), (i8 x i8 -> i32), (f16 -> bf16 acc),
  //    and a batched fp64 dot.
  struct DotCase { ScalarType in, acc; int64_t batch; };
  for (DotCase dc : {DotCase{ScalarType::F16, ScalarType::F16, 1}, DotCase{ScalarType::BF16, ScalarType::F32, 1},
                     DotCase{ScalarType::F32, ScalarType::F32, 1}, DotCase{ScalarType::I8, ScalarType::I32, 1},
                     DotCase{ScalarType::BF16, ScalarType::BF16, 1}, DotCase{ScalarType::F64, ScalarType::F64, 2}}) {
    constexpr int64_t M = 16, N = 32, K = 16;
    KernelBuilder k("dot");
    Value* a = k.ptr_param(dc.in);
    Value* b = k.ptr_param(dc.in);
    Value* c = k.ptr_param(dc.acc);
    auto tile = [&](int64_t rows, int64_t cols) {
      std::vector<int64_t> shape = {rows, cols};
      Value* rr = k.b.expand_dims(k.range(rows), 1, k.loc);
      Value* cc = k.b.expand_dims(k.range(cols), 0, k.loc);
      Value* o = k.bin(OpKind::Add, k.b.broadcast(k.bin(OpKind::Mul, rr, k.splat(k.i32(cols), {rows, 1})), shape, k.loc),
                       k.b.broadcast(cc, shape, k.loc));
      if (dc.batch == 1) return o;
      // [batch, rows, cols]: o + b*rows*cols
      Value* o3 = k.b.broadcast(k.b.expand_dims(o, 0, k.loc), {dc.batch, rows, cols}, k.loc);
      Value* bb = k.b.expand_dims(k.b.expand_dims(k.bin(OpKind::Mul, k.range(dc.batch), k.splat(k.i32(rows * cols), {dc.batch})), 1, k.loc), 2, k.loc);
      return k.bin(OpKind::Add, o3, k.b.broadcast(bb, {dc.batch, rows, cols}, k.loc));
    };
    Value* oa = tile(M, K);
    Value* ob = tile(K, N);
    Value* oc = tile(M, N);
    Value* av = k.load(k.ptrs(a, oa));
    Value* bv = k.load(k.ptrs(b, ob));
    Value* cv = k.load(k.ptrs(c, oc));
    Value* d = k.b.create(OpKind::Dot, {av, bv, cv}, {cv->type}, k.loc, {{"input_precision", std::string("ieee")}})->result();
    k.store(k.ptrs(c, oc), d);
    k.ret();
    uint32_t s = 600 + static_cast<uint32_t>(mods.size()) * 3;
    // Moderate values (random bits would make most dots NaN / Inf).
    auto moderate = [&](ScalarType t, int64_t n, uint32_t seed) {
      Arg a = buffer(static_cast<size_t>(n), "tile", t);
      std::mt19937 rng(seed);
      for (int64_t i = 0; i < n; ++i) {
        double v = std::uniform_real_distribution<double>(-2, 2)(rng);
        uint64_t bits = 0;
        switch (t) {
          case ScalarType::F16: bits = ref_f16(v); break;
          case ScalarType::BF16: bits = ref_bf16_rne(v); break;
          case ScalarType::F32: { float f = static_cast<float>(v); std::memcpy(&bits, &f, 4); break; }
          case ScalarType::F64: std::memcpy(&bits, &v, 8); break;
          default: bits = static_cast<uint64_t>(static_cast<int64_t>(v * 60)); break;
        }
        std::memcpy(a.bytes.data() + i * ir::byte_size(t), &bits, static_cast<size_t>(ir::byte_size(t)));
      }
      return a;
    };
    inputs.push_back({moderate(dc.in, dc.batch * M * K, s), moderate(dc.in, dc.batch * K * N, s + 1),
                      moderate(dc.acc, dc.batch * M * N, s + 2)});
    mods.push_back(std::move(k.module));
  }
  std::vector<const ir::Module*> ms;
  for (auto& m : mods) ms.push_back(&m);
  auto compiled = compile_all(ms);
  for (size_t i = 0; i < mods.size(); ++i) {
    SCOPED_TRACE("module " + std::to_string(i) + " " + mods[i].functions[0]->name);
    expect_same(mods[i], *compiled[i], {1, 1, 1}, inputs[i]);
  }
}

// ---- shapes, control flow, print ---------------------------------------------------------------

TEST(CpuVsInterp, ShapeOpsControlFlowAndPrint) {
  constexpr int64_t R = 8, C = 16;
  KernelBuilder k("shapes");
  Value* x = k.ptr_param(ScalarType::F32);
  Value* y = k.ptr_param(ScalarType::I32);
  Value* out = k.ptr_param(ScalarType::F32);
  Value* iout = k.ptr_param(ScalarType::I32);
  Value* n = k.param(Type::of(ScalarType::I32));
  Value* pid = k.pid();
  Value* rm = k.b.expand_dims(k.range(R), 1, k.loc);
  Value* rn = k.b.expand_dims(k.range(C), 0, k.loc);
  Value* offs = k.bin(OpKind::Add, k.b.broadcast(k.bin(OpKind::Mul, rm, k.splat(k.i32(C), {R, 1})), {R, C}, k.loc),
                      k.b.broadcast(rn, {R, C}, k.loc));
  Value* mask = k.b.cmp("lt", offs, k.splat(n, {R, C}), k.loc);
  Value* xv = k.load(k.ptrs(x, offs), mask);  // masked-out lanes read 0
  Value* yv = k.load(k.ptrs(y, k.range(C)));
  int64_t base = 0;
  auto put = [&](Value* v) {
    Value* o = k.b.create(OpKind::Reshape, {v}, {v->type.with_shape({v->type.numel()})}, k.loc)->result();
    Value* offs1 = k.bin(OpKind::Add, k.range(v->type.numel()), k.splat(k.i32(base), {v->type.numel()}));
    Value* pidoff = k.splat(k.bin(OpKind::Mul, pid, k.i32(4096)), {v->type.numel()});
    k.store(k.ptrs(out, k.bin(OpKind::Add, offs1, pidoff)), o);
    base += v->type.numel();
  };
  Value* t = k.b.create(OpKind::Trans, {xv}, {xv->type.with_shape({C, R})}, k.loc, {{"perm", std::vector<int64_t>{1, 0}}})->result();
  put(t);
  put(k.bin(OpKind::Mul, t, t));
  Value* j = k.b.create(OpKind::Join, {xv, xv}, {xv->type.with_shape({R, C, 2})}, k.loc)->result();
  ir::Op* sp = k.b.create(OpKind::Split, {k.bin(OpKind::Add, j, j)}, {xv->type, xv->type}, k.loc);
  put(sp->result(1));
  put(k.b.create(OpKind::Cat, {xv, t->def->operands[0]}, {xv->type.with_shape({2 * R, C})}, k.loc)->result());
  // an int row, converted, broadcast against the tile
  Value* yf = k.b.cast(yv, ScalarType::F32, k.loc);
  put(k.bin(OpKind::Sub, xv, k.b.broadcast(k.b.expand_dims(yf, 0, k.loc), {R, C}, k.loc)));
  // for loop: acc = acc * 0.75 + x * iv   (iv from 1 to n/8 step 3)
  Value* acc0 = k.splat(k.const_of(Type::of(ScalarType::F32), 1.0), {R, C});
  Value* ub = k.b.binary(OpKind::IDiv, n, k.i32(8), k.loc);
  ir::Op* loop = k.b.create_for(k.i32(1), ub, k.i32(3), {acc0}, k.loc);
  {
    ir::InsertionGuard g(k.b);
    k.b.set_insertion_end(&loop->body());
    Value* ivf = k.splat(k.b.cast(loop->body().args[0], ScalarType::F32, k.loc), {R, C});
    Value* q = k.splat(k.const_of(Type::of(ScalarType::F32), 0.75), {R, C});
    Value* next = k.bin(OpKind::Add, k.bin(OpKind::Mul, loop->body().args[1], q), k.bin(OpKind::Mul, xv, ivf));
    k.b.create(OpKind::Yield, {next}, {}, k.loc);
  }
  put(loop->result(0));
  // integer if/else on the program id
  Value* odd = k.b.cmp("ne", k.bin(OpKind::And, pid, k.i32(1)), k.i32(0), k.loc);
  ir::Op* iff = k.b.create_if(odd, {yv->type}, k.loc);
  {
    ir::InsertionGuard g(k.b);
    k.b.set_insertion_end(&iff->body(0));
    k.b.create(OpKind::Yield, {k.bin(OpKind::Shl, yv, k.splat(k.i32(3), {C}))}, {}, k.loc);
    k.b.set_insertion_end(&iff->body(1));
    k.b.create(OpKind::Yield, {k.bin(OpKind::IDiv, yv, k.splat(k.i32(-3), {C}))}, {}, k.loc);
  }
  k.store(k.ptrs(iout, k.bin(OpKind::Add, k.range(C), k.splat(k.bin(OpKind::Mul, pid, k.i32(C)), {C}))), iff->result(0));
  // device_print of a scalar and of a small tensor with two operands
  k.b.create(OpKind::Print, {pid}, {}, k.loc, {{"prefix", std::string(" pid=")}, {"hex", int64_t{0}}});
  Value* small = k.b.cast(k.range(2), ScalarType::F16, k.loc);
  k.b.create(OpKind::Print, {small, k.range(2)}, {}, k.loc, {{"prefix", std::string(" v: ")}, {"hex", int64_t{0}}});
  k.b.create(OpKind::Print, {k.range(2)}, {}, k.loc, {{"prefix", std::string(" h ")}, {"hex", int64_t{1}}});
  k.ret();
  ASSERT_LT(base, 4096);

  auto kernel = compile(k.module);
  const int progs = 2;
  std::vector<Arg> args = {random_input(ScalarType::F32, R * C, 700, "x"), random_input(ScalarType::I32, C, 701, "y"),
                           buffer(progs * 4096, "out", ScalarType::F32), buffer(progs * C, "iout", ScalarType::I32)};
  Arg nn;
  nn.buffer = false;
  nn.scalar.i64 = 100;  // masks part of the tile; the loop runs iv = 1, 4, 7, 10
  nn.what = "n";
  args.push_back(nn);
  // Both print; compare their lines (the interpreter through Options::print).
  std::vector<std::string> ilines;
  {
    std::vector<Arg> ia = args;
    interp::Options io;
    io.print = [&](const std::string& l) { ilines.push_back(l); };
    interp::run(k.module, {progs, 1, 1}, slots(ia), io);
  }
  testing::internal::CaptureStdout();
  std::vector<Arg> ca = args;
  kernel->launch({progs, 1, 1}, slots(ca));
  std::string cout_text = testing::internal::GetCapturedStdout();
  std::vector<std::string> clines;
  for (size_t p = 0, q; p < cout_text.size(); p = q + 1) {
    q = cout_text.find('\n', p);
    if (q == std::string::npos) q = cout_text.size();
    clines.push_back(cout_text.substr(p, q - p));
  }
  std::sort(ilines.begin(), ilines.end());  // programs run in parallel on the CPU
  std::sort(clines.begin(), clines.end());
  EXPECT_EQ(clines, ilines);
  EXPECT_EQ(ilines.size(), static_cast<size_t>(progs * (1 + 4 + 2)));
  expect_same(k.module, *kernel, {progs, 1, 1}, args);
}

}  // namespace
}  // namespace tritium::cputest
