// Constant folding of integer arithmetic, checked against native C++ arithmetic on the
// fixed-width types (an implementation independent of fold_eval's canonical-int64 scheme),
// on random operands plus edge values. Also float folding against hand-computed bits.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <type_traits>

#include "../ir/ir_test_util.h"
#include "passes/fold.h"
#include "passes/fold_eval.h"

namespace tritium::passes {
namespace {

using ir::OpKind;
using ir::ScalarType;
using ir::Type;
using testing::at;
using testing::TestKernel;

/// Builds `op(const a, const b)` (or `op(const a)` when unary), stores it, runs the fold
/// pass, and returns the constant the store then reads (nullopt if it is not a constant).
std::optional<ir::Attr> fold_scalar(OpKind kind, Type t, std::vector<ir::Attr> values, Type result,
                                    std::map<std::string, ir::Attr> attrs = {}) {
  TestKernel k({Type::ptr(result.scalar)});
  std::vector<ir::Value*> ops;
  for (auto& v : values)
    ops.push_back(k.b->create(OpKind::Constant, {}, {t}, at(1), {{"value", v}})->result());
  ir::Value* r = k.b->create(kind, ops, {result}, at(2), std::move(attrs))->result();
  ir::Op* st = k.store(k.arg(0), r);
  k.ret();
  EXPECT_EQ(k.errors(), "") << k.text();
  fold_constants(*k.fn);
  EXPECT_EQ(k.errors(), "") << k.text();
  ir::Value* stored = st->operand(1);
  if (!stored->def || stored->def->kind != OpKind::Constant) return std::nullopt;
  return stored->def->attrs.at("value");
}

template <typename T> constexpr ScalarType scalar_of() {
  if constexpr (std::is_same_v<T, int8_t>) return ScalarType::I8;
  if constexpr (std::is_same_v<T, int16_t>) return ScalarType::I16;
  if constexpr (std::is_same_v<T, int32_t>) return ScalarType::I32;
  if constexpr (std::is_same_v<T, int64_t>) return ScalarType::I64;
  if constexpr (std::is_same_v<T, uint8_t>) return ScalarType::U8;
  if constexpr (std::is_same_v<T, uint16_t>) return ScalarType::U16;
  if constexpr (std::is_same_v<T, uint32_t>) return ScalarType::U32;
  return ScalarType::U64;
}

/// The documented canonical attribute value of a T: sign-extended for signed T,
/// zero-extended for unsigned T.
template <typename T> int64_t canon(T v) {
  if constexpr (std::is_signed_v<T>) return static_cast<int64_t>(v);
  else return static_cast<int64_t>(static_cast<uint64_t>(v));
}

/// Reference results with C++ arithmetic on T (nullopt: the fold must leave the op alone).
template <typename T> std::optional<int64_t> reference(OpKind k, T a, T b) {
  using U = std::make_unsigned_t<T>;
  constexpr int bits = sizeof(T) * 8;
  const bool sgn = std::is_signed_v<T>;
  auto wrap = [](uint64_t x) { return canon(static_cast<T>(static_cast<U>(x))); };
  switch (k) {
    case OpKind::Add: return wrap(static_cast<uint64_t>(static_cast<U>(a)) + static_cast<U>(b));
    case OpKind::Sub: return wrap(static_cast<uint64_t>(static_cast<U>(a)) - static_cast<U>(b));
    case OpKind::Mul: return wrap(static_cast<uint64_t>(static_cast<U>(a)) * static_cast<U>(b));
    case OpKind::And: return canon(static_cast<T>(a & b));
    case OpKind::Or: return canon(static_cast<T>(a | b));
    case OpKind::Xor: return canon(static_cast<T>(a ^ b));
    case OpKind::IDiv:
    case OpKind::Rem:
      if (b == 0) return std::nullopt;
      if (sgn && a == std::numeric_limits<T>::min() && b == static_cast<T>(-1)) return std::nullopt;
      return canon(static_cast<T>(k == OpKind::IDiv ? a / b : a % b));
    case OpKind::Shl:
    case OpKind::Shr: {
      if ((sgn && b < 0) || static_cast<uint64_t>(b) >= static_cast<uint64_t>(bits)) return std::nullopt;
      if (k == OpKind::Shl) return canon(static_cast<T>(static_cast<U>(static_cast<uint64_t>(static_cast<U>(a)) << b)));
      return canon(static_cast<T>(a >> b));
    }
    case OpKind::Min: return canon(std::min(a, b));
    case OpKind::Max: return canon(std::max(a, b));
    default: return std::nullopt;
  }
}

template <typename T> std::vector<T> sample_values(std::mt19937_64& rng, int n) {
  std::vector<T> v = {T(0), T(1), static_cast<T>(-1), std::numeric_limits<T>::min(), std::numeric_limits<T>::max(),
                      T(2), T(7), static_cast<T>(-7)};
  for (int i = 0; i < n; ++i) v.push_back(static_cast<T>(rng()));
  return v;
}

template <typename T> void check_binary_ops() {
  std::mt19937_64 rng(12345 + sizeof(T) * 2 + std::is_signed_v<T>);
  ScalarType st = scalar_of<T>();
  Type t = Type::of(st);
  constexpr int bits = sizeof(T) * 8;
  auto values = sample_values<T>(rng, 6);
  const OpKind kinds[] = {OpKind::Add, OpKind::Sub, OpKind::Mul, OpKind::And, OpKind::Or, OpKind::Xor,
                          OpKind::IDiv, OpKind::Rem, OpKind::Min, OpKind::Max};
  for (OpKind k : kinds)
    for (T a : values)
      for (T b : values) {
        auto want = reference<T>(k, a, b);
        auto got = fold_scalar(k, t, {ir::Attr{canon(a)}, ir::Attr{canon(b)}}, t);
        ASSERT_EQ(want.has_value(), got.has_value())
            << ir::op_info(k).name << " " << ir::name(st) << " " << +a << ", " << +b;
        if (want) {
          EXPECT_EQ(std::get<int64_t>(*got), *want) << ir::op_info(k).name << " " << ir::name(st) << " " << +a << ", " << +b;
        }
      }
  // Shifts: amounts around [0, width), plus random operands.
  for (OpKind k : {OpKind::Shl, OpKind::Shr})
    for (T a : values)
      for (int64_t s : {int64_t{-1}, int64_t{0}, int64_t{1}, int64_t{bits / 2 - 1}, int64_t{bits - 1}, int64_t{bits},
                        int64_t{bits + 3}}) {
        T b = static_cast<T>(s);
        if (!std::is_signed_v<T> && s < 0) b = std::numeric_limits<T>::max();
        auto want = reference<T>(k, a, b);
        auto got = fold_scalar(k, t, {ir::Attr{canon(a)}, ir::Attr{canon(b)}}, t);
        ASSERT_EQ(want.has_value(), got.has_value()) << ir::op_info(k).name << " " << ir::name(st) << " " << +a << ", " << s;
        if (want) {
          EXPECT_EQ(std::get<int64_t>(*got), *want) << ir::op_info(k).name << " " << +a << ", " << s;
        }
      }
  // Comparisons, negation, bitwise not.
  const char* preds[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  for (T a : values)
    for (T b : values) {
      bool want[] = {a == b, a != b, a < b, a <= b, a > b, a >= b};
      for (int p = 0; p < 6; ++p) {
        auto got = fold_scalar(OpKind::Cmp, t, {ir::Attr{canon(a)}, ir::Attr{canon(b)}}, Type::of(ScalarType::I1),
                               {{"pred", std::string(preds[p])}});
        ASSERT_TRUE(got.has_value()) << preds[p];
        EXPECT_EQ(std::get<int64_t>(*got), want[p] ? 1 : 0) << preds[p] << " " << +a << ", " << +b;
      }
    }
  for (T a : values) {
    using U = std::make_unsigned_t<T>;
    auto neg = fold_scalar(OpKind::Neg, t, {ir::Attr{canon(a)}}, t);
    ASSERT_TRUE(neg.has_value());
    EXPECT_EQ(std::get<int64_t>(*neg), canon(static_cast<T>(static_cast<U>(U(0) - static_cast<U>(a)))));
    auto inv = fold_scalar(OpKind::Not, t, {ir::Attr{canon(a)}}, t);
    ASSERT_TRUE(inv.has_value());
    EXPECT_EQ(std::get<int64_t>(*inv), canon(static_cast<T>(~a)));
  }
}

TEST(PassFoldEval, Int8AgainstNativeArithmetic) { check_binary_ops<int8_t>(); }
TEST(PassFoldEval, Int16AgainstNativeArithmetic) { check_binary_ops<int16_t>(); }
TEST(PassFoldEval, Int32AgainstNativeArithmetic) { check_binary_ops<int32_t>(); }
TEST(PassFoldEval, Int64AgainstNativeArithmetic) { check_binary_ops<int64_t>(); }
TEST(PassFoldEval, Uint8AgainstNativeArithmetic) { check_binary_ops<uint8_t>(); }
TEST(PassFoldEval, Uint16AgainstNativeArithmetic) { check_binary_ops<uint16_t>(); }
TEST(PassFoldEval, Uint32AgainstNativeArithmetic) { check_binary_ops<uint32_t>(); }
TEST(PassFoldEval, Uint64AgainstNativeArithmetic) { check_binary_ops<uint64_t>(); }

TEST(PassFoldEval, NonCanonicalInputsAreNormalized) {
  // A u8 constant written as -1 is 255; an i8 constant written as 200 is -56.
  auto r = fold_scalar(OpKind::Add, Type::of(ScalarType::U8), {ir::Attr{int64_t{-1}}, ir::Attr{int64_t{1}}},
                  Type::of(ScalarType::U8));
  ASSERT_TRUE(r);
  EXPECT_EQ(std::get<int64_t>(*r), 0);
  r = fold_scalar(OpKind::Sub, Type::of(ScalarType::I8), {ir::Attr{int64_t{200}}, ir::Attr{int64_t{1}}},
                  Type::of(ScalarType::I8));
  ASSERT_TRUE(r);
  EXPECT_EQ(std::get<int64_t>(*r), -57);
  // An int1 constant written as 2 is true (attribute != 0), so `not` of it is false.
  r = fold_scalar(OpKind::Not, Type::of(ScalarType::I1), {ir::Attr{int64_t{2}}}, Type::of(ScalarType::I1));
  ASSERT_TRUE(r);
  EXPECT_EQ(std::get<int64_t>(*r), 0);
  EXPECT_EQ(fold::canonical_int(0x1FF, ScalarType::U8), 255);
  EXPECT_EQ(fold::canonical_int(0x180, ScalarType::I8), -128);
  EXPECT_EQ(fold::canonical_int(3, ScalarType::I1), 1);
  EXPECT_EQ(fold::canonical_int(-1, ScalarType::U32), 4294967295);
  EXPECT_EQ(fold::all_ones(ScalarType::U16), 65535);
  EXPECT_EQ(fold::all_ones(ScalarType::I64), -1);
  EXPECT_EQ(fold::all_ones(ScalarType::I1), 1);
}

TEST(PassFoldEval, Int1FoldsOnlySignednessFreeOps) {
  Type b = Type::of(ScalarType::I1);
  auto one = ir::Attr{int64_t{1}}, zero = ir::Attr{int64_t{0}};
  EXPECT_EQ(std::get<int64_t>(*fold_scalar(OpKind::Xor, b, {one, one}, b)), 0);
  EXPECT_EQ(std::get<int64_t>(*fold_scalar(OpKind::Or, b, {one, one}, b)), 1);
  EXPECT_EQ(std::get<int64_t>(*fold_scalar(OpKind::Add, b, {one, one}, b)), 0);  // wraps mod 2
  EXPECT_EQ(std::get<int64_t>(*fold_scalar(OpKind::Not, b, {one}, b)), 0);
  EXPECT_EQ(std::get<int64_t>(*fold_scalar(OpKind::Cmp, b, {one, zero}, b, {{"pred", std::string("ne")}})), 1);
  // int1 is unsigned for Triton but signed for LLVM: ordering, division, shifts are left alone.
  EXPECT_FALSE(fold_scalar(OpKind::Cmp, b, {one, zero}, b, {{"pred", std::string("lt")}}));
  EXPECT_FALSE(fold_scalar(OpKind::Max, b, {one, zero}, b));
  EXPECT_FALSE(fold_scalar(OpKind::Shr, b, {one, one}, b));
  EXPECT_FALSE(fold_scalar(OpKind::Rem, b, {one, one}, b));
}

double as_float_bits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return static_cast<double>(f);
}
double as_double_bits(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}
std::optional<double> fold_f(OpKind k, ScalarType s, double a, double b) {
  auto r = fold_scalar(k, Type::of(s), {ir::Attr{a}, ir::Attr{b}}, Type::of(s));
  if (!r) return std::nullopt;
  return std::get<double>(*r);
}
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(PassFoldEval, Fp32ArithmeticRoundsInFp32) {
  const double eps24 = std::ldexp(1.0, -24), eps23 = std::ldexp(1.0, -23);
  // 1 + 2^-24 is a tie between 1 and 1 + 2^-23; round-to-even gives 1 (in fp64 it is exact).
  auto r = fold_f(OpKind::Add, ScalarType::F32, 1.0, eps24);
  ASSERT_TRUE(r);
  EXPECT_TRUE(same_bits(*r, 1.0)) << *r;
  // (1 + 2^-23) + 2^-24: tie, the even neighbour is 1 + 2^-22.
  r = fold_f(OpKind::Add, ScalarType::F32, 1.0 + eps23, eps24);
  ASSERT_TRUE(r);
  EXPECT_TRUE(same_bits(*r, 1.0 + 2 * eps23)) << *r;
  // 1/3 in fp32 is 0x3EAAAAAB; in fp64 0x3FD5555555555555.
  r = fold_f(OpKind::Div, ScalarType::F32, 1.0, 3.0);
  ASSERT_TRUE(r);
  EXPECT_TRUE(same_bits(*r, as_float_bits(0x3EAAAAABu)));
  r = fold_f(OpKind::Div, ScalarType::F64, 1.0, 3.0);
  ASSERT_TRUE(r);
  EXPECT_TRUE(same_bits(*r, as_double_bits(0x3FD5555555555555ull)));
  // 3 * 0.1f: 0.1f = 0x3DCCCCCD; the fp32 product is 0x3E99999A.
  r = fold_f(OpKind::Mul, ScalarType::F32, 3.0, as_float_bits(0x3DCCCCCDu));
  ASSERT_TRUE(r);
  EXPECT_TRUE(same_bits(*r, as_float_bits(0x3E99999Au)));
  r = fold_f(OpKind::Sub, ScalarType::F32, 0.5, 0.5);
  ASSERT_TRUE(r);
  EXPECT_TRUE(same_bits(*r, 0.0));  // +0, not -0
  r = fold_f(OpKind::Mul, ScalarType::F32, std::ldexp(1.0, 127), 4.0);  // overflow → +inf, defined everywhere
  ASSERT_TRUE(r);
  EXPECT_TRUE(std::isinf(*r) && *r > 0);
}

TEST(PassFoldEval, FloatCasesLeftAlone) {
  // NaN results, NaN operands, subnormal results/operands.
  EXPECT_FALSE(fold_f(OpKind::Div, ScalarType::F32, 0.0, 0.0));
  EXPECT_FALSE(fold_f(OpKind::Add, ScalarType::F32, std::nan(""), 1.0));
  EXPECT_FALSE(fold_f(OpKind::Mul, ScalarType::F32, 1e-30, 1e-10));
  EXPECT_FALSE(fold_f(OpKind::Add, ScalarType::F64, 1e-310, 0.0));
  // An fp32 constant whose value is not an fp32 number is not trusted.
  EXPECT_FALSE(fold_f(OpKind::Add, ScalarType::F32, 0.1, 1.0));
  // fp16/bf16 are not folded, nor float rem, min/max.
  EXPECT_FALSE(fold_f(OpKind::Add, ScalarType::F16, 1.0, 2.0));
  EXPECT_FALSE(fold_f(OpKind::Mul, ScalarType::BF16, 1.0, 2.0));
  EXPECT_FALSE(fold_f(OpKind::Div, ScalarType::F16, 1.0, 4.0));
  EXPECT_FALSE(fold_f(OpKind::Rem, ScalarType::F32, 5.0, 3.0));
  EXPECT_FALSE(fold_f(OpKind::Max, ScalarType::F32, 5.0, 3.0));
  // Transcendental functions are never folded.
  for (ir::MathFn f : {ir::MathFn::Exp, ir::MathFn::Sqrt, ir::MathFn::Sin, ir::MathFn::Floor})
    EXPECT_FALSE(fold_scalar(OpKind::Math, Type::of(ScalarType::F32), {ir::Attr{4.0}}, Type::of(ScalarType::F32),
                             {{"fn", static_cast<int64_t>(f)}}));
}

TEST(PassFoldEval, FloatNegAndCompare) {
  auto n = fold_scalar(OpKind::Neg, Type::of(ScalarType::F32), {ir::Attr{0.0}}, Type::of(ScalarType::F32));
  ASSERT_TRUE(n);
  EXPECT_TRUE(same_bits(std::get<double>(*n), -0.0));
  Type f = Type::of(ScalarType::F64), b = Type::of(ScalarType::I1);
  auto cmp = [&](const char* p, double x, double y) {
    return fold_scalar(OpKind::Cmp, f, {ir::Attr{x}, ir::Attr{y}}, b, {{"pred", std::string(p)}});
  };
  EXPECT_EQ(std::get<int64_t>(*cmp("lt", -2.5, 1.0)), 1);
  EXPECT_EQ(std::get<int64_t>(*cmp("ge", -2.5, 1.0)), 0);
  EXPECT_EQ(std::get<int64_t>(*cmp("eq", 0.0, -0.0)), 1);
  EXPECT_FALSE(cmp("ne", std::nan(""), 1.0));
  // fp16 / bf16 constants compare and negate exactly (no arithmetic rounding involved).
  auto h = fold_scalar(OpKind::Cmp, Type::of(ScalarType::F16), {ir::Attr{1.5}, ir::Attr{2.0}}, b,
                       {{"pred", std::string("lt")}});
  ASSERT_TRUE(h);
  EXPECT_EQ(std::get<int64_t>(*h), 1);
  auto nb = fold_scalar(OpKind::Neg, Type::of(ScalarType::BF16), {ir::Attr{-2.25}}, Type::of(ScalarType::BF16));
  ASSERT_TRUE(nb);
  EXPECT_EQ(std::get<double>(*nb), 2.25);
}

TEST(PassFoldEval, Casts) {
  auto cast = [](ScalarType from, ir::Attr v, ScalarType to) {
    return fold_scalar(OpKind::Cast, Type::of(from), {v}, Type::of(to));
  };
  auto I = [](int64_t x) { return ir::Attr{x}; };
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarType::I8, I(-1), ScalarType::I32)), -1);          // sign-extends
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarType::U8, I(255), ScalarType::I32)), 255);        // zero-extends
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarType::I32, I(-1), ScalarType::U32)), 4294967295);
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarType::I32, I(300), ScalarType::I8)), 44);          // truncates
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarType::I32, I(-200), ScalarType::U8)), 56);
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarType::I1, I(1), ScalarType::I64)), 1);             // bool zero-extends
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarType::I64, I(1), ScalarType::I1)), 1);
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarType::I64, I(0), ScalarType::I1)), 0);
  EXPECT_FALSE(cast(ScalarType::I32, I(2), ScalarType::I1));  // != 0 vs truncation disagree
  // int → float only when exact.
  EXPECT_EQ(std::get<double>(*cast(ScalarType::I32, I(-3), ScalarType::F32)), -3.0);
  EXPECT_EQ(std::get<double>(*cast(ScalarType::I32, I(16777216), ScalarType::F32)), 16777216.0);
  EXPECT_FALSE(cast(ScalarType::I32, I(16777217), ScalarType::F32));
  EXPECT_EQ(std::get<double>(*cast(ScalarType::I64, I(16777217), ScalarType::F64)), 16777217.0);
  EXPECT_EQ(std::get<double>(*cast(ScalarType::U64, I(INT64_MIN), ScalarType::F32)), 9223372036854775808.0);
  EXPECT_FALSE(cast(ScalarType::U64, I(-1), ScalarType::F64));  // 2^64 - 1 needs 64 bits
  EXPECT_EQ(std::get<double>(*cast(ScalarType::I1, I(1), ScalarType::F32)), 1.0);
  EXPECT_EQ(std::get<double>(*cast(ScalarType::I32, I(-2048), ScalarType::F16)), -2048.0);
  EXPECT_FALSE(cast(ScalarType::I32, I(2049), ScalarType::F16));   // needs 12 significand bits
  EXPECT_FALSE(cast(ScalarType::I32, I(65536), ScalarType::F16));  // beyond fp16's range
  EXPECT_EQ(std::get<double>(*cast(ScalarType::I64, I(int64_t{1} << 40), ScalarType::BF16)), 1099511627776.0);
  EXPECT_FALSE(cast(ScalarType::I32, I(257), ScalarType::BF16));  // 9 significand bits
  // float ↔ float.
  EXPECT_EQ(std::get<double>(*cast(ScalarType::F32, ir::Attr{0.25}, ScalarType::F64)), 0.25);
  EXPECT_EQ(std::get<double>(*cast(ScalarType::F64, ir::Attr{0.25}, ScalarType::F32)), 0.25);
  EXPECT_FALSE(cast(ScalarType::F64, ir::Attr{0.1}, ScalarType::F32));  // would round
  // fp16 / bf16: exact values only (fp16 has 11 significand bits, normal min 2^-14, max 65504;
  // bf16 has 8 bits and fp32's exponent range).
  EXPECT_EQ(std::get<double>(*cast(ScalarType::F32, ir::Attr{-0.0}, ScalarType::F16)), 0.0);
  EXPECT_TRUE(std::signbit(std::get<double>(*cast(ScalarType::F32, ir::Attr{-0.0}, ScalarType::F16))));
  EXPECT_EQ(std::get<double>(*cast(ScalarType::F32, ir::Attr{65504.0}, ScalarType::F16)), 65504.0);
  EXPECT_EQ(std::get<double>(*cast(ScalarType::F32, ir::Attr{1.0 + std::ldexp(1.0, -10)}, ScalarType::F16)),
            1.0 + std::ldexp(1.0, -10));
  EXPECT_FALSE(cast(ScalarType::F32, ir::Attr{1.0 + std::ldexp(1.0, -11)}, ScalarType::F16));
  EXPECT_FALSE(cast(ScalarType::F32, ir::Attr{65520.0}, ScalarType::F16));              // overflows
  EXPECT_FALSE(cast(ScalarType::F32, ir::Attr{std::ldexp(1.0, -20)}, ScalarType::F16));  // subnormal
  EXPECT_EQ(std::get<double>(*cast(ScalarType::F32, ir::Attr{1.0 + std::ldexp(1.0, -7)}, ScalarType::BF16)),
            1.0 + std::ldexp(1.0, -7));
  EXPECT_FALSE(cast(ScalarType::F32, ir::Attr{1.0 + std::ldexp(1.0, -8)}, ScalarType::BF16));
  EXPECT_EQ(std::get<double>(*cast(ScalarType::BF16, ir::Attr{-1.5}, ScalarType::F32)), -1.5);
  EXPECT_EQ(std::get<double>(*cast(ScalarType::F16, ir::Attr{0.25}, ScalarType::BF16)), 0.25);
  // An fp16 constant that is not an fp16 number is not trusted.
  EXPECT_FALSE(cast(ScalarType::F16, ir::Attr{0.1}, ScalarType::F32));
  // float → int is never folded.
  EXPECT_FALSE(cast(ScalarType::F32, ir::Attr{2.0}, ScalarType::I32));
}

}  // namespace
}  // namespace tritium::passes
