// Interpreter: elementwise arithmetic on every kind of dtype, against expected values
// computed independently in the test (C++ arithmetic, _Float16 conversions, hand tables).
#include <cmath>
#include <limits>

#include "common/float_formats.h"
#include "interp_test_util.h"

namespace tritium::interp::testing {
namespace {

#include "common/tmath.inc"  // tr_expf: the interpreter's fp32 exp (tests/unit/common/tmath_test.cpp)

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

auto binop(OpKind k, std::map<std::string, ir::Attr> attrs = {}) {
  return [k, attrs](K& kb, const std::vector<Value*>& v) { return kb.bin(k, v[0], v[1], attrs); };
}

TEST(InterpElementwise, VectorAddFp32) {
  const int64_t n = 4096;
  const std::vector<float> x = random_floats(n, 1), y = random_floats(n, 2);
  std::vector<float> out(n);
  poison(out);
  run_map({ScalarType::F32, ScalarType::F32}, ScalarType::F32, n, 1024, {x.data(), y.data()}, out.data(),
          binop(OpKind::Add));
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(fbits(out[i]), fbits(x[i] + y[i])) << i;  // exact: one IEEE add
}

TEST(InterpElementwise, VectorAddAndMulFp16RoundOnce) {
  const int64_t n = 2048;
  std::mt19937_64 gen(3);
  std::uniform_int_distribution<uint32_t> code(0, 0x7BFF);
  std::vector<uint16_t> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = static_cast<uint16_t>(code(gen) | ((i & 1) << 15));
    y[i] = static_cast<uint16_t>(code(gen) | ((i & 2) << 14));
  }
  for (OpKind k : {OpKind::Add, OpKind::Mul, OpKind::Div}) {
    std::vector<uint16_t> out(n);
    poison(out);
    run_map({ScalarType::F16, ScalarType::F16}, ScalarType::F16, n, 256, {x.data(), y.data()}, out.data(), binop(k));
    for (int64_t i = 0; i < n; ++i) {
      const double a = static_cast<double>(half_from(x[i])), b = static_cast<double>(half_from(y[i]));
      // + and × of fp16 values are exact in fp64; libgcc's double→_Float16 rounds once (RNE).
      // ÷ in fp64 then to fp16 is innocuous double rounding (53 >= 2·11+2).
      const double exact = k == OpKind::Add ? a + b : k == OpKind::Mul ? a * b : a / b;
      const uint16_t want = half_bits(static_cast<_Float16>(exact));
      if (std::isnan(exact)) {
        ASSERT_TRUE(std::isnan(static_cast<float>(half_from(out[i])))) << i;
        continue;
      }
      ASSERT_EQ(out[i], want) << "op " << ir::op_info(k).name << " i=" << i << " a=" << a << " b=" << b;
    }
  }
}

// bf16 reference rounding written independently of the library: nearest of the two
// candidates around x (exact in fp64), ties to the even code.
uint16_t bf16_ref(double x) {
  const float xf = static_cast<float>(x);  // exact for the sums used below
  EXPECT_EQ(static_cast<double>(xf), x);
  const uint32_t u = fbits(xf);
  const uint16_t lo = static_cast<uint16_t>(u >> 16);
  const uint16_t hi = static_cast<uint16_t>(lo + 1);
  const double vlo = static_cast<double>(from_fbits(uint32_t(lo) << 16));
  const double vhi = static_cast<double>(from_fbits(uint32_t(hi) << 16));
  const double dlo = std::fabs(x - vlo), dhi = std::fabs(vhi - x);
  if (dlo < dhi) return lo;
  if (dhi < dlo) return hi;
  return (lo & 1) ? hi : lo;
}

TEST(InterpElementwise, VectorAddBf16RoundsToNearestEven) {
  const int64_t n = 1024;
  std::mt19937_64 gen(4);
  std::uniform_int_distribution<uint32_t> mant(0, 127), exp(127 - 6, 127 + 2);
  std::vector<uint16_t> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = static_cast<uint16_t>((exp(gen) << 7) | mant(gen));
    y[i] = static_cast<uint16_t>((exp(gen) << 7) | mant(gen) | ((i & 1) << 15));
  }
  std::vector<uint16_t> out(n);
  poison(out);
  run_map({ScalarType::BF16, ScalarType::BF16}, ScalarType::BF16, n, 128, {x.data(), y.data()}, out.data(),
          binop(OpKind::Add));
  int ties = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double a = from_fbits(uint32_t(x[i]) << 16), b = from_fbits(uint32_t(y[i]) << 16);
    const double s = a + b;  // exact: exponents within 2^-6..2^3, 8-bit mantissas
    ASSERT_EQ(out[i], bf16_ref(s)) << i << " " << a << " + " << b;
    const float sf = static_cast<float>(s);
    if ((fbits(sf) & 0xFFFF) == 0x8000) ++ties;
  }
  EXPECT_GT(ties, 10) << "the inputs should exercise exact ties";
}

TEST(InterpElementwise, IntegerWrapAround) {
  const int64_t n = 256;
  std::mt19937_64 gen(5);
  std::vector<int8_t> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = static_cast<int8_t>(gen());
    y[i] = static_cast<int8_t>(gen());
  }
  x[0] = 100, y[0] = 100;  // 200 wraps to -56
  for (OpKind k : {OpKind::Add, OpKind::Sub, OpKind::Mul}) {
    std::vector<int8_t> out(n);
    poison(out);
    run_map({ScalarType::I8, ScalarType::I8}, ScalarType::I8, n, 64, {x.data(), y.data()}, out.data(), binop(k));
    for (int64_t i = 0; i < n; ++i) {
      const int wide = k == OpKind::Add ? x[i] + y[i] : k == OpKind::Sub ? x[i] - y[i] : x[i] * y[i];
      ASSERT_EQ(out[i], static_cast<int8_t>(wide)) << i;  // C++20: conversion is modulo 2^8
    }
  }
  std::vector<int8_t> out(n);
  run_map({ScalarType::I8, ScalarType::I8}, ScalarType::I8, n, 64, {x.data(), y.data()}, out.data(), binop(OpKind::Add));
  EXPECT_EQ(out[0], -56);
  // uint16 multiply wraps modulo 2^16 (no promotion to int overflow).
  std::vector<uint16_t> ux(64, 65535), uy(64, 65535), uo(64);
  run_map({ScalarType::U16, ScalarType::U16}, ScalarType::U16, 64, 64, {ux.data(), uy.data()}, uo.data(),
          binop(OpKind::Mul));
  EXPECT_EQ(uo[0], 1);
}

TEST(InterpElementwise, IntegerDivisionTruncatesLikeC) {
  // Hand table: (a, b) → (a / b, a % b); then random operands against C's operators.
  std::vector<int32_t> a = {7, -7, 7, -7, 0, INT32_MIN, INT32_MIN, 5, -5, 123456};
  std::vector<int32_t> b = {2, 2, -2, -2, 3, -1, 1, 0, 0, 1000};
  const std::vector<int32_t> q = {3, -3, -3, 3, 0, INT32_MIN, INT32_MIN, -1, -1, 123};
  const std::vector<int32_t> r = {1, -1, 1, -1, 0, 0, 0, 5, -5, 456};
  std::mt19937_64 gen(6);
  while (a.size() < 512) {
    const int32_t x = static_cast<int32_t>(gen()) >> (gen() % 31), y = static_cast<int32_t>(gen()) >> (gen() % 31);
    if (y == 0 || (x == INT32_MIN && y == -1)) continue;
    a.push_back(x);
    b.push_back(y);
  }
  const int64_t n = static_cast<int64_t>(a.size());
  std::vector<int32_t> oq(n), orr(n);
  poison(oq);
  poison(orr);
  run_map({ScalarType::I32, ScalarType::I32}, ScalarType::I32, n, 128, {a.data(), b.data()}, oq.data(), binop(OpKind::IDiv));
  run_map({ScalarType::I32, ScalarType::I32}, ScalarType::I32, n, 128, {a.data(), b.data()}, orr.data(), binop(OpKind::Rem));
  for (size_t i = 0; i < q.size(); ++i) {
    EXPECT_EQ(oq[i], q[i]) << a[i] << " / " << b[i];
    EXPECT_EQ(orr[i], r[i]) << a[i] << " % " << b[i];
  }
  for (int64_t i = static_cast<int64_t>(q.size()); i < n; ++i) {
    ASSERT_EQ(oq[i], a[i] / b[i]) << a[i] << " / " << b[i];
    ASSERT_EQ(orr[i], a[i] % b[i]) << a[i] << " % " << b[i];
  }
  // Unsigned: division by zero gives all ones, remainder the dividend.
  std::vector<uint32_t> ua = {7, 0xFFFFFFFFu, 9}, ub = {0, 2, 4}, uq(4), ur(4);
  ua.push_back(1);
  ub.push_back(1);
  run_map({ScalarType::U32, ScalarType::U32}, ScalarType::U32, 4, 4, {ua.data(), ub.data()}, uq.data(), binop(OpKind::IDiv));
  run_map({ScalarType::U32, ScalarType::U32}, ScalarType::U32, 4, 4, {ua.data(), ub.data()}, ur.data(), binop(OpKind::Rem));
  EXPECT_EQ(uq[0], 0xFFFFFFFFu);
  EXPECT_EQ(ur[0], 7u);
  EXPECT_EQ(uq[1], 0x7FFFFFFFu);  // unsigned, not -1 / 2
  EXPECT_EQ(ur[2], 1u);
}

TEST(InterpElementwise, ShiftsClampAtTheWidth) {
  const std::vector<int32_t> amounts = {0, 1, 4, 31, 32, 33, 100, -1};
  std::vector<int32_t> x, s;
  for (int32_t v : {-1000, 1000, INT32_MIN, 1}) {
    for (int32_t a : amounts) {
      x.push_back(v);
      s.push_back(a);
    }
  }
  const int64_t n = static_cast<int64_t>(x.size());  // 32
  std::vector<int32_t> shl(n), shr(n);
  std::vector<uint32_t> lshr(n);
  run_map({ScalarType::I32, ScalarType::I32}, ScalarType::I32, n, n, {x.data(), s.data()}, shl.data(), binop(OpKind::Shl));
  run_map({ScalarType::I32, ScalarType::I32}, ScalarType::I32, n, n, {x.data(), s.data()}, shr.data(), binop(OpKind::Shr));
  run_map({ScalarType::U32, ScalarType::U32}, ScalarType::U32, n, n, {x.data(), s.data()}, lshr.data(), binop(OpKind::Shr));
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t amt = static_cast<uint32_t>(s[i]);  // amounts read as unsigned: -1 is huge
    const uint32_t ux = static_cast<uint32_t>(x[i]);
    const int32_t want_shl = amt >= 32 ? 0 : static_cast<int32_t>(ux << amt);
    const int32_t want_shr = amt >= 32 ? (x[i] < 0 ? -1 : 0) : (x[i] >> amt);
    const uint32_t want_lshr = amt >= 32 ? 0 : ux >> amt;
    EXPECT_EQ(shl[i], want_shl) << x[i] << " << " << s[i];
    EXPECT_EQ(shr[i], want_shr) << x[i] << " >> " << s[i];
    EXPECT_EQ(lshr[i], want_lshr) << ux << " >>> " << s[i];
  }
  EXPECT_EQ(shr[2 * 8 + 4], -1);  // INT32_MIN >> 32: sign fill
  // int8: shl by 7 keeps the low bit in the sign position; by 8 everything is gone.
  std::vector<int8_t> bx = {3, 3, -128, -128}, bs = {7, 8, 7, 9}, bo(4);
  run_map({ScalarType::I8, ScalarType::I8}, ScalarType::I8, 4, 4, {bx.data(), bs.data()}, bo.data(), binop(OpKind::Shl));
  EXPECT_EQ(bo[0], -128);
  EXPECT_EQ(bo[1], 0);
  run_map({ScalarType::I8, ScalarType::I8}, ScalarType::I8, 4, 4, {bx.data(), bs.data()}, bo.data(), binop(OpKind::Shr));
  EXPECT_EQ(bo[2], -1);
  EXPECT_EQ(bo[3], -1);
}

TEST(InterpElementwise, FloatMinMaxNaNAndSignedZeroRules) {
  const std::vector<float> a = {1.0f, kNaN, kNaN, 2.0f, -0.0f, 0.0f, -3.0f, 5.0f};
  const std::vector<float> b = {kNaN, 1.0f, kNaN, -2.0f, 0.0f, -0.0f, -3.0f, 7.0f};
  const int64_t n = 8;
  std::vector<float> mn0(n), mx0(n), mn1(n), mx1(n);
  auto run_op = [&](OpKind k, int prop, std::vector<float>& out) {
    poison(out);
    run_map({ScalarType::F32, ScalarType::F32}, ScalarType::F32, n, n, {a.data(), b.data()}, out.data(),
            binop(k, {{"propagate_nan", int64_t(prop)}}));
  };
  run_op(OpKind::Min, 0, mn0);
  run_op(OpKind::Max, 0, mx0);
  run_op(OpKind::Min, 1, mn1);
  run_op(OpKind::Max, 1, mx1);
  // propagate_nan = 0: the non-NaN operand wins.
  EXPECT_EQ(mn0[0], 1.0f);
  EXPECT_EQ(mx0[1], 1.0f);
  EXPECT_TRUE(std::isnan(mn0[2]));
  EXPECT_EQ(mn0[3], -2.0f);
  EXPECT_EQ(mx0[3], 2.0f);
  // min(-0, +0) = -0 and max = +0, either operand order.
  EXPECT_TRUE(std::signbit(mn0[4]) && mn0[4] == 0.0f);
  EXPECT_TRUE(std::signbit(mn0[5]) && mn0[5] == 0.0f);
  EXPECT_TRUE(!std::signbit(mx0[4]) && mx0[4] == 0.0f);
  EXPECT_TRUE(!std::signbit(mx0[5]) && mx0[5] == 0.0f);
  EXPECT_EQ(mn0[6], -3.0f);
  EXPECT_EQ(mx0[7], 7.0f);
  // propagate_nan = 1: NaN if either is NaN.
  for (int i : {0, 1, 2}) {
    EXPECT_TRUE(std::isnan(mn1[i])) << i;
    EXPECT_TRUE(std::isnan(mx1[i])) << i;
  }
  EXPECT_EQ(mn1[7], 5.0f);
}

TEST(InterpElementwise, ComparisonsOrderedExceptNe) {
  const std::vector<float> a = {kNaN, 1.0f, -0.0f, 2.0f};
  const std::vector<float> b = {1.0f, kNaN, 0.0f, 1.0f};
  const int64_t n = 4;
  const char* preds[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  const bool want[6][4] = {
      {false, false, true, false},  // eq
      {true, true, false, true},    // ne: unordered
      {false, false, false, false},
      {false, false, true, false},
      {false, false, false, true},
      {false, false, true, true},
  };
  for (int p = 0; p < 6; ++p) {
    std::vector<uint8_t> out(n);
    poison(out);
    run_map({ScalarType::F32, ScalarType::F32}, ScalarType::I1, n, n, {a.data(), b.data()}, out.data(),
            [&](K& k, const std::vector<Value*>& v) { return k.cmp(preds[p], v[0], v[1]); });
    for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], want[p][i] ? 1 : 0) << preds[p] << " " << i;
  }
  // Signed versus unsigned integer comparison of the same bits.
  std::vector<int32_t> x = {-1, 1}, y = {1, -1};
  std::vector<uint8_t> lt_s(2), lt_u(2);
  run_map({ScalarType::I32, ScalarType::I32}, ScalarType::I1, 2, 2, {x.data(), y.data()}, lt_s.data(),
          [](K& k, const std::vector<Value*>& v) { return k.cmp("lt", v[0], v[1]); });
  run_map({ScalarType::U32, ScalarType::U32}, ScalarType::I1, 2, 2, {x.data(), y.data()}, lt_u.data(),
          [](K& k, const std::vector<Value*>& v) { return k.cmp("lt", v[0], v[1]); });
  EXPECT_EQ(lt_s[0], 1);
  EXPECT_EQ(lt_s[1], 0);
  EXPECT_EQ(lt_u[0], 0);  // 0xFFFFFFFF < 1 is false
  EXPECT_EQ(lt_u[1], 1);
}

TEST(InterpElementwise, MathFunctionsFp32AndNarrowFma) {
  const int64_t n = 512;
  std::vector<float> x = random_floats(n, 8, 0.01f, 8.0f);
  auto unary = [&](ir::MathFn f, std::vector<float>& out) {
    poison(out);
    run_map({ScalarType::F32}, ScalarType::F32, n, 128, {x.data()}, out.data(),
            [f](K& k, const std::vector<Value*>& v) { return k.b.math(f, {v[0]}, v[0]->type, k.loc); });
  };
  std::vector<float> e(n), r(n), s(n), fl(n);
  unary(ir::MathFn::Exp, e);
  unary(ir::MathFn::Rsqrt, r);
  unary(ir::MathFn::Sqrt, s);
  unary(ir::MathFn::Floor, fl);
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(fbits(e[i]), fbits(tr_expf(x[i]))) << x[i];  // fp32 exp is tritium's own, not libm's
    if (x[i] > 0) {
      ASSERT_EQ(fbits(r[i]), fbits(1.0f / sqrtf(x[i]))) << x[i];
      ASSERT_EQ(fbits(s[i]), fbits(static_cast<float>(std::sqrt(static_cast<double>(x[i]))))) << x[i];  // correctly rounded
    } else {
      ASSERT_TRUE(std::isnan(r[i]));
    }
    ASSERT_EQ(fl[i], std::floor(x[i]));
  }
  // fp16 fma rounds once: 0x3C01·1.5 − 2^-24 is just below a tie → 0x3E01 (fp32-then-fp16 gives 0x3E02).
  std::vector<uint16_t> a = {0x3C01, 0x3C01}, b = {0x3E00, 0x3E00}, c = {0x8001, 0x0001}, o(2);
  run_map({ScalarType::F16, ScalarType::F16, ScalarType::F16}, ScalarType::F16, 2, 2, {a.data(), b.data(), c.data()},
          o.data(), [](K& k, const std::vector<Value*>& v) {
            return k.b.math(ir::MathFn::Fma, {v[0], v[1], v[2]}, v[0]->type, k.loc);
          });
  EXPECT_EQ(o[0], 0x3E01);
  EXPECT_EQ(o[1], 0x3E02);
}

TEST(InterpElementwise, NegAbsAndSelect) {
  std::vector<int32_t> x = {INT32_MIN, -5, 0, 7};
  std::vector<int32_t> neg(4), abs(4);
  run_map({ScalarType::I32}, ScalarType::I32, 4, 4, {x.data()}, neg.data(),
          [](K& k, const std::vector<Value*>& v) { return k.b.unary(OpKind::Neg, v[0], k.loc); });
  run_map({ScalarType::I32}, ScalarType::I32, 4, 4, {x.data()}, abs.data(),
          [](K& k, const std::vector<Value*>& v) { return k.b.math(ir::MathFn::Abs, {v[0]}, v[0]->type, k.loc); });
  EXPECT_EQ(neg, (std::vector<int32_t>{INT32_MIN, 5, 0, -7}));  // wraps
  EXPECT_EQ(abs, (std::vector<int32_t>{INT32_MIN, 5, 0, 7}));
  std::vector<float> f = {-0.0f, 1.5f, kNaN, -2.0f}, g(4), sel(4);
  run_map({ScalarType::F32}, ScalarType::F32, 4, 4, {f.data()}, g.data(),
          [](K& k, const std::vector<Value*>& v) { return k.b.unary(OpKind::Neg, v[0], k.loc); });
  EXPECT_EQ(fbits(g[0]), 0u);
  EXPECT_EQ(g[1], -1.5f);
  EXPECT_TRUE(std::isnan(g[2]) && std::signbit(g[2]));  // sign bit flipped
  run_map({ScalarType::F32, ScalarType::I32}, ScalarType::F32, 4, 4, {f.data(), x.data()}, sel.data(),
          [](K& k, const std::vector<Value*>& v) {
            Value* c = k.cmp("lt", v[1], k.ci(ScalarType::I32, 0, {4}));
            return k.b.select(c, v[0], k.cf(ScalarType::F32, 9.0, {4}), k.loc);
          });
  EXPECT_EQ(fbits(sel[0]), fbits(-0.0f));
  EXPECT_EQ(sel[1], 1.5f);
  EXPECT_EQ(sel[2], 9.0f);
  EXPECT_EQ(sel[3], 9.0f);
}

}  // namespace
}  // namespace tritium::interp::testing
