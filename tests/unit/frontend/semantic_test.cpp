// Triton's typing rules (src/frontend/semantic.h). Every expected type below is written
// from upstream Triton 3.6 (python/triton/language/semantic.py, core.py); the rule is cited
// next to each case. These tests are about types, shapes, emitted op kinds and errors;
// numerical results are tested end to end elsewhere.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "frontend/semantic.h"
#include "ir/builder.h"
#include "ir/verifier.h"

namespace tritium::frontend {
namespace {

using ir::OpKind;
using ir::ScalarType;
using ir::Type;
using S = ScalarType;

class SemanticTest : public ::testing::Test {
 protected:
  SemanticTest() : b(fn) { b.set_insertion_end(&fn.body); }

  ir::Value* arg(Type t) { return b.add_block_arg(fn.body, t); }
  ir::Value* scalar(S s) { return arg(Type::of(s)); }
  ir::Value* block(S s, std::vector<int64_t> shape) { return arg(Type::tensor(s, std::move(shape))); }
  static sem::Operand op(ir::Value* v) { return sem::operand(v); }
  static sem::Operand lit(CValue v) { return sem::operand(v, SrcLoc{}, "test"); }
  int count(OpKind k) {
    int n = 0;
    ir::walk(fn.body, [&](ir::Op& o) { n += o.kind == k; });
    return n;
  }
  void verify() {
    auto errs = ir::verify(fn);
    EXPECT_TRUE(errs.empty()) << (errs.empty() ? "" : errs[0]);
  }
  // Expects a CompileError whose message contains `needle`, located at `loc`.
  void expect_error(const std::function<void()>& f, const std::string& needle) {
    try {
      f();
      ADD_FAILURE() << "expected a CompileError containing '" << needle << "'";
    } catch (const CompileError& e) {
      EXPECT_NE(e.message().find(needle), std::string::npos) << "message: " << e.message();
      EXPECT_EQ(e.loc().line, loc.line);
      EXPECT_EQ(e.loc().col, loc.col);
    }
  }

  ir::Function fn;
  ir::Builder b;
  SrcLoc loc{nullptr, 7, 3, 0};
};

CValue big(uint64_t u) {
  CValue c = CValue::of_int(0);
  c.is_u64 = true;
  c.u = u;
  return c;
}

// ---- literal typing: semantic.to_tensor -----------------------------------------------

TEST_F(SemanticTest, LiteralTypesFollowUpstreamRanges) {
  // int: [-2^31, 2^31) int32, [2^31, 2^32) uint32, [-2^63, 2^63) int64, [2^63, 2^64) uint64
  EXPECT_EQ(sem::literal_type(CValue::of_int(0), loc), S::I32);
  EXPECT_EQ(sem::literal_type(CValue::of_int(2147483647), loc), S::I32);
  EXPECT_EQ(sem::literal_type(CValue::of_int(-2147483648LL), loc), S::I32);
  EXPECT_EQ(sem::literal_type(CValue::of_int(2147483648LL), loc), S::U32);
  EXPECT_EQ(sem::literal_type(CValue::of_int(4294967295LL), loc), S::U32);
  EXPECT_EQ(sem::literal_type(CValue::of_int(4294967296LL), loc), S::I64);
  EXPECT_EQ(sem::literal_type(CValue::of_int(-2147483649LL), loc), S::I64);
  EXPECT_EQ(sem::literal_type(big(uint64_t{1} << 63), loc), S::U64);
  // bool → int1; float → fp32 unless finite, non-zero and outside fp32's normal range
  EXPECT_EQ(sem::literal_type(CValue::of_bool(true), loc), S::I1);
  EXPECT_EQ(sem::literal_type(CValue::of_float(1.5), loc), S::F32);
  EXPECT_EQ(sem::literal_type(CValue::of_float(0.0), loc), S::F32);
  EXPECT_EQ(sem::literal_type(CValue::of_float(1e-40), loc), S::F64);
  EXPECT_EQ(sem::literal_type(CValue::of_float(1e300), loc), S::F64);
  EXPECT_EQ(sem::literal_type(CValue::of_float(HUGE_VAL), loc), S::F32);
  EXPECT_EQ(sem::literal_type(CValue::of_float(std::nan("")), loc), S::F32);
}

// ---- integer_promote_impl (C usual arithmetic conversions, int1 unsigned) ---------------

TEST_F(SemanticTest, IntegerPromotionTable) {
  EXPECT_EQ(sem::integer_promote(S::I8, S::I16), S::I16);   // same signedness: wider
  EXPECT_EQ(sem::integer_promote(S::U32, S::I32), S::U32);  // unsigned of >= rank wins
  EXPECT_EQ(sem::integer_promote(S::I32, S::U32), S::U32);
  EXPECT_EQ(sem::integer_promote(S::U8, S::I32), S::I32);   // signed of greater rank wins
  EXPECT_EQ(sem::integer_promote(S::U32, S::I64), S::I64);
  EXPECT_EQ(sem::integer_promote(S::U64, S::I64), S::U64);
  EXPECT_EQ(sem::integer_promote(S::I1, S::I8), S::I8);     // int1 is unsigned (UINT_TYPES)
  EXPECT_EQ(sem::integer_promote(S::I1, S::U8), S::U8);
  EXPECT_TRUE(sem::tt_unsigned(S::I1));
  EXPECT_FALSE(sem::tt_signed(S::I1));
}

// ---- computation_type_impl ----------------------------------------------------------------

TEST_F(SemanticTest, FloatPromotionBetweenTensors) {
  auto ct = [&](S a, S b, bool dm = false) { return sem::computation_type(a, false, b, false, dm, loc); };
  // 3) comes before 4) upstream: any fp16 operand gives fp16 (fp32 for / and %), so
  // fp16 with bf16 is fp16; 4) bf16 mixed with anything else (but fp16) gives fp32.
  EXPECT_EQ(ct(S::F16, S::BF16), S::F16);
  EXPECT_EQ(ct(S::BF16, S::F16, true), S::F32);
  EXPECT_EQ(ct(S::BF16, S::BF16), S::BF16);
  EXPECT_EQ(ct(S::BF16, S::BF16, true), S::F32);  // / and % on bf16 compute in fp32
  EXPECT_EQ(ct(S::F16, S::F16), S::F16);
  EXPECT_EQ(ct(S::F16, S::F16, true), S::F32);    // 3) fp16 / or % → fp32
  EXPECT_EQ(ct(S::F16, S::F32), S::F32);          // 2) fp32 beats fp16
  EXPECT_EQ(ct(S::F64, S::F16), S::F64);          // 1) fp64 wins
  EXPECT_EQ(ct(S::F16, S::I32), S::F16);          // float tensor beats int tensor
  EXPECT_EQ(ct(S::BF16, S::I64), S::F32);         // bf16 with a non-bf16 → fp32
  EXPECT_EQ(ct(S::F8E4NV, S::F8E5), S::F16);      // 5) different fp8 → fp16
  EXPECT_EQ(ct(S::F8E5, S::F8E5), S::F8E5);
  EXPECT_EQ(ct(S::I8, S::I16), S::I16);
  EXPECT_EQ(ct(S::U32, S::I32), S::U32);
}

TEST_F(SemanticTest, WeakPythonScalarsDoNotPromote) {
  // 0) a scalar of lower or equal kind (bool < int < float) does not take part
  auto ct = [&](S tensor, S scalar, bool dm = false) { return sem::computation_type(tensor, false, scalar, true, dm, loc); };
  EXPECT_EQ(ct(S::I8, S::I32), S::I8);     // int8 tensor + 3
  EXPECT_EQ(ct(S::F16, S::F32), S::F16);   // fp16 tensor + 1.5
  EXPECT_EQ(ct(S::I32, S::F32), S::F32);   // int tensor + 2.5: float scalar is of a higher kind
  EXPECT_EQ(ct(S::I32, S::F64), S::F64);   // int tensor + 1e-40 (an fp64 literal)
  EXPECT_EQ(ct(S::F16, S::I32, true), S::F32);  // fp16 % 2 computes in fp32
  EXPECT_EQ(ct(S::BF16, S::F32, true), S::F32);
  EXPECT_EQ(ct(S::I1, S::I32), S::I32);    // bool tensor + 1: int is of a higher kind
  EXPECT_EQ(ct(S::I8, S::I1), S::I8);      // int8 tensor + True
}

TEST_F(SemanticTest, DivisionOfMixedSignednessIsAnError) {
  expect_error([&] { sem::computation_type(S::I32, false, S::U32, false, true, loc); }, "different signedness");
  EXPECT_EQ(sem::computation_type(S::I32, false, S::U32, false, false, loc), S::U32);  // fine for +
  ir::Value* x = block(S::I32, {16});
  ir::Value* y = block(S::U32, {16});
  expect_error([&] { sem::floordiv(b, op(x), op(y), loc); }, "different signedness");
  expect_error([&] { sem::mod(b, op(y), op(x), loc); }, "different signedness");
  expect_error([&] { sem::truediv(b, op(x), op(y), loc); }, "different signedness");
}

// ---- binary_op_type_checking_impl: scalar range checks -----------------------------------

TEST_F(SemanticTest, OutOfRangeScalarsAreErrors) {
  ir::Value* i8 = block(S::I8, {16});
  ir::Value* u8 = block(S::U8, {16});
  ir::Value* i32 = block(S::I32, {16});
  // int8 tensor + 300: computed in int8, 300 does not fit
  expect_error([&] { sem::add(b, op(i8), lit(CValue::of_int(300)), loc); }, "out of range for type int8");
  // uint8 tensor + (-1): unsigned tensor and negative scalar
  expect_error([&] { sem::add(b, op(u8), lit(CValue::of_int(-1)), loc); }, "unsigned tensor and a negative scalar");
  // int32 tensor + 2**33
  expect_error([&] { sem::mul(b, op(i32), lit(CValue::of_int(int64_t{1} << 33)), loc); }, "out of range for type int32");
  // in range: stays int8
  ir::Value* r = sem::add(b, op(i8), lit(CValue::of_int(-128)), loc);
  EXPECT_EQ(r->type, Type::tensor(S::I8, {16}));
  verify();
}

TEST_F(SemanticTest, ArithmeticResultTypes) {
  ir::Value* i8 = block(S::I8, {16});
  ir::Value* f16 = block(S::F16, {16});
  ir::Value* bf16 = block(S::BF16, {16});
  ir::Value* i32 = block(S::I32, {16});
  EXPECT_EQ(sem::add(b, op(i8), lit(CValue::of_int(3)), loc)->type.scalar, S::I8);
  EXPECT_EQ(sem::add(b, op(f16), lit(CValue::of_float(1.5)), loc)->type.scalar, S::F16);
  EXPECT_EQ(sem::add(b, op(f16), lit(CValue::of_int(2)), loc)->type.scalar, S::F16);
  EXPECT_EQ(sem::add(b, op(i32), lit(CValue::of_float(2.5)), loc)->type.scalar, S::F32);
  EXPECT_EQ(sem::add(b, op(f16), op(bf16), loc)->type.scalar, S::F16);  // rule 3) before 4)
  EXPECT_EQ(sem::add(b, op(bf16), op(block(S::I8, {16})), loc)->type.scalar, S::F32);
  EXPECT_EQ(sem::sub(b, op(i8), op(i32), loc)->type.scalar, S::I32);
  // `/` is always floating: int/int → fp32; fp16/fp16 → fp32 (div_or_mod)
  ir::Value* q = sem::truediv(b, op(i32), op(i32), loc);
  EXPECT_EQ(q->type, Type::tensor(S::F32, {16}));
  EXPECT_EQ(q->def->kind, OpKind::Div);
  EXPECT_EQ(sem::truediv(b, op(f16), op(f16), loc)->type.scalar, S::F32);
  EXPECT_EQ(sem::truediv(b, op(f16), lit(CValue::of_float(2.0)), loc)->type.scalar, S::F32);
  // `%` on floats: fmod in at least fp32
  ir::Value* m = sem::mod(b, op(f16), lit(CValue::of_int(2)), loc);
  EXPECT_EQ(m->type.scalar, S::F32);
  EXPECT_EQ(m->def->kind, OpKind::Rem);
  // `//` of ints: C truncation (IDiv); of floats: an error upstream
  ir::Value* d = sem::floordiv(b, op(i8), lit(CValue::of_int(2)), loc);
  EXPECT_EQ(d->def->kind, OpKind::IDiv);
  EXPECT_EQ(d->type.scalar, S::I8);
  expect_error([&] { sem::floordiv(b, op(f16), op(f16), loc); }, "only defined on integers");
  verify();
}

TEST_F(SemanticTest, ComparisonsAreNotWeakTyped) {
  // tensor.__gt__ calls to_tensor(other) first: the literal gets its own type (int32), so
  // an int8 tensor is compared in int32 and 300 is not an error.
  ir::Value* i8 = block(S::I8, {16});
  ir::Value* zero = sem::to_tensor(b, CValue::of_int(0), loc, "t");
  ir::Value* c = sem::compare(b, "gt", op(i8), op(zero), loc);
  EXPECT_EQ(c->type, Type::tensor(S::I1, {16}));
  EXPECT_EQ(c->def->operand(0)->type.scalar, S::I32);
  ir::Value* c300 = sem::to_tensor(b, CValue::of_int(300), loc, "t");
  EXPECT_EQ(sem::compare(b, "eq", op(i8), op(c300), loc)->def->operand(0)->type.scalar, S::I32);
  ir::Value* f16 = block(S::F16, {16});
  ir::Value* half = sem::to_tensor(b, CValue::of_float(0.5), loc, "t");
  EXPECT_EQ(sem::compare(b, "lt", op(f16), op(half), loc)->def->operand(0)->type.scalar, S::F32);
  verify();
}

TEST_F(SemanticTest, BoolOrderedComparisonsWidenToUint8) {
  ir::Value* x = block(S::I1, {8});
  ir::Value* y = block(S::I1, {8});
  ir::Value* lt = sem::compare(b, "lt", op(x), op(y), loc);
  EXPECT_EQ(lt->def->operand(0)->type.scalar, S::U8);  // unsigned compare, as Triton's icmp ult
  ir::Value* eq = sem::compare(b, "eq", op(x), op(y), loc);
  EXPECT_EQ(eq->def->operand(0)->type.scalar, S::I1);
  verify();
}

// ---- shifts and bitwise ------------------------------------------------------------------

TEST_F(SemanticTest, ShiftTypesAndArithmeticChoice) {
  ir::Value* i8 = block(S::I8, {16});
  ir::Value* i32 = block(S::I32, {16});
  ir::Value* u32 = block(S::U32, {16});
  ir::Value* u8 = block(S::U8, {16});
  ir::Value* l = sem::shift(b, true, false, op(i8), lit(CValue::of_int(3)), loc);
  EXPECT_EQ(l->type.scalar, S::I8);
  EXPECT_EQ(l->def->kind, OpKind::Shl);
  // uint8 >> 1: logical shift on uint8
  ir::Value* r = sem::shift(b, false, false, op(u8), lit(CValue::of_int(1)), loc);
  EXPECT_EQ(r->def->kind, OpKind::Shr);
  EXPECT_EQ(r->type.scalar, S::U8);
  // int32 >> uint32: promoted to uint32, but upstream emits ashr (the left tensor is signed):
  // reinterpreted as int32 around the shift.
  ir::Value* a = sem::shift(b, false, true, op(i32), op(u32), loc);
  EXPECT_EQ(a->type.scalar, S::U32);
  ASSERT_EQ(a->def->kind, OpKind::Bitcast);
  EXPECT_EQ(a->def->operand(0)->def->kind, OpKind::Shr);
  EXPECT_EQ(a->def->operand(0)->type.scalar, S::I32);
  expect_error([&] { sem::bitwise(b, OpKind::And, op(block(S::F32, {4})), op(block(S::F32, {4})), loc); },
               "invalid operands");
  expect_error([&] { sem::invert(b, block(S::F32, {4}), loc); }, "unary invert");
  verify();
}

// ---- pointers ------------------------------------------------------------------------------

TEST_F(SemanticTest, PointerArithmetic) {
  ir::Value* p = arg(Type::ptr(S::F32));
  ir::Value* offs = block(S::I32, {128});
  ir::Value* q = sem::add(b, op(p), op(offs), loc);
  EXPECT_EQ(q->type, (Type{S::F32, true, {128}}));
  EXPECT_EQ(q->def->kind, OpKind::AddPtr);
  ir::Value* q2 = sem::add(b, op(offs), op(p), loc);  // offset + ptr
  EXPECT_EQ(q2->def->kind, OpKind::AddPtr);
  EXPECT_TRUE(q2->type.is_ptr);
  // unsigned offsets narrower than 64 bits are zero-extended to int64
  ir::Value* q3 = sem::add(b, op(p), op(block(S::U32, {128})), loc);
  EXPECT_EQ(q3->def->operand(1)->type.scalar, S::I64);
  // ptr - 1 → addptr of (0 - 1)
  ir::Value* q4 = sem::sub(b, op(p), lit(CValue::of_int(1)), loc);
  EXPECT_EQ(q4->def->kind, OpKind::AddPtr);
  EXPECT_EQ(q4->def->operand(1)->def->kind, OpKind::Sub);
  expect_error([&] { sem::add(b, op(p), lit(CValue::of_float(1.5)), loc); }, "invalid operands");
  expect_error([&] { sem::add(b, op(p), op(p), loc); }, "cannot add pointers");
  expect_error([&] { sem::mul(b, op(p), lit(CValue::of_int(2)), loc); }, "invalid operands");
  expect_error([&] { sem::sub(b, lit(CValue::of_int(1)), op(p), loc); }, "invalid operands");
  // comparisons do not allow pointers upstream (allow_lhs_ptr=False)
  expect_error([&] { sem::compare(b, "eq", op(p), op(p), loc); }, "invalid operands");
  expect_error([&] { sem::minus(b, p, loc); }, "unary minus");
  verify();
}

// ---- broadcasting ----------------------------------------------------------------------------

TEST_F(SemanticTest, BroadcastingFollowsNumpyRules) {
  ir::Value* col = block(S::F32, {4, 1});
  ir::Value* row = block(S::F32, {1, 8});
  ir::Value* s = sem::add(b, op(col), op(row), loc);
  EXPECT_EQ(s->type.shape, (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(count(OpKind::Broadcast), 2);
  ir::Value* v = block(S::F32, {8});
  ir::Value* m = block(S::F32, {4, 8});
  ir::Value* t = sem::mul(b, op(v), op(m), loc);
  EXPECT_EQ(t->type.shape, (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(count(OpKind::ExpandDims), 1);
  ir::Value* sc = scalar(S::F32);
  EXPECT_EQ(sem::add(b, op(sc), op(v), loc)->type.shape, (std::vector<int64_t>{8}));
  EXPECT_EQ(count(OpKind::Splat), 1);
  expect_error([&] { sem::add(b, op(block(S::F32, {4})), op(block(S::F32, {8})), loc); }, "incompatible dimensions");
  expect_error([&] { sem::broadcast_to(b, block(S::F32, {4}), {4, 4}, loc); }, "rank mismatch");
  verify();
}

// ---- unary operators -------------------------------------------------------------------------

TEST_F(SemanticTest, UnaryOperators) {
  ir::Value* f = block(S::F32, {4});
  ir::Value* neg = sem::minus(b, f, loc);
  EXPECT_EQ(neg->def->kind, OpKind::Sub);  // 0 - x, as upstream (so -(+0.0) is +0.0)
  ir::Value* u = block(S::U32, {4});
  EXPECT_EQ(sem::minus(b, u, loc)->type.scalar, S::U32);  // unary minus on unsigned wraps
  ir::Value* inv = sem::invert(b, block(S::I32, {4}), loc);
  EXPECT_EQ(inv->def->kind, OpKind::Xor);
  ir::Value* n = sem::logical_not(b, block(S::I1, {4}), loc);
  EXPECT_EQ(n->type.scalar, S::I1);
  // not_ bitcasts to int1: any wider type is refused
  expect_error([&] { sem::logical_not(b, block(S::I32, {4}), loc); }, "cannot bitcast");
  expect_error([&] { sem::logical(b, true, block(S::F32, {4}), block(S::I1, {4}), loc); }, "cannot bitcast");
  EXPECT_EQ(sem::logical(b, false, block(S::I1, {4}), scalar(S::I1), loc)->type, Type::tensor(S::I1, {4}));
  verify();
}

// ---- casts -----------------------------------------------------------------------------------

TEST_F(SemanticTest, CastRules) {
  ir::Value* h = block(S::F16, {4});
  ir::Value* bf = sem::cast(b, h, Type::of(S::BF16), loc);  // fp16 → bf16 goes through fp32
  EXPECT_EQ(bf->type.scalar, S::BF16);
  EXPECT_EQ(bf->def->operand(0)->type.scalar, S::F32);
  ir::Value* f = block(S::F32, {4});
  ir::Value* tb = sem::cast(b, f, Type::of(S::I1), loc);  // → int1 is != 0
  EXPECT_EQ(tb->def->kind, OpKind::Cmp);
  EXPECT_EQ(tb->def->attr_str("pred"), "ne");
  ir::Value* fb = sem::cast(b, block(S::I1, {4}), Type::of(S::F32), loc);  // int1 → 0/1
  EXPECT_EQ(fb->def->kind, OpKind::Select);
  ir::Value* rz = sem::cast(b, f, Type::of(S::F16), loc, "rtz");
  EXPECT_EQ(rz->def->attr_str("rounding"), "rtz");
  EXPECT_EQ(sem::cast(b, f, Type::of(S::F32), loc), f);  // same type: no op
  expect_error([&] { sem::cast(b, f, Type::of(S::F64), loc, "rtz"); }, "only for truncating fp conversions");
  expect_error([&] { sem::cast(b, f, Type::of(S::F16), loc, "rd"); }, "invalid rounding mode");
  expect_error([&] { sem::cast(b, block(S::F8E5, {4}), Type::of(S::I32), loc); }, "cannot cast");
  expect_error([&] { sem::bitcast(b, f, Type::of(S::I16), loc); }, "cannot bitcast");
  EXPECT_EQ(sem::bitcast(b, f, Type::of(S::I32), loc)->def->kind, OpKind::Bitcast);
  ir::Value* p = arg(Type::ptr(S::F32));
  EXPECT_EQ(sem::cast(b, p, Type::of(S::I64), loc)->def->kind, OpKind::PtrToInt);
  expect_error([&] { sem::cast(b, p, Type::of(S::I32), loc); }, "cannot cast");
  // int → pointer: LLVM's inttoptr zero-extends, so a signed int32 is reinterpreted first
  ir::Value* ip = sem::cast(b, scalar(S::I32), Type::ptr(S::F32), loc);
  EXPECT_EQ(ip->def->kind, OpKind::IntToPtr);
  EXPECT_EQ(ip->def->operand(0)->type.scalar, S::I64);
  EXPECT_EQ(ip->def->operand(0)->def->operand(0)->type.scalar, S::U32);
  verify();
}

// ---- where ----------------------------------------------------------------------------------

TEST_F(SemanticTest, WherePromotesAndBroadcasts) {
  ir::Value* m = block(S::I1, {4, 8});
  ir::Value* x = block(S::F16, {1, 8});
  ir::Value* r = sem::where(b, m, op(x), lit(CValue::of_float(0.0)), loc);  // weak 0.0 keeps fp16
  EXPECT_EQ(r->type, Type::tensor(S::F16, {4, 8}));
  EXPECT_EQ(r->def->kind, OpKind::Select);
  ir::Value* c = scalar(S::I32);  // non-bool condition: cast (x != 0)
  ir::Value* r2 = sem::where(b, c, op(block(S::F32, {8})), op(block(S::F16, {8})), loc);
  EXPECT_EQ(r2->type, Type::tensor(S::F32, {8}));
  EXPECT_EQ(r2->def->operand(0)->type, Type::tensor(S::I1, {8}));
  verify();
}

// ---- debug-mode overflow checks ---------------------------------------------------------------

TEST_F(SemanticTest, SanitizeOverflowOnlyWhenAsked) {
  ir::Value* x = block(S::I32, {4});
  sem::add(b, op(x), op(x), loc, false);
  EXPECT_EQ(count(OpKind::Assert), 0);
  sem::add(b, op(x), op(x), loc, true);
  EXPECT_EQ(count(OpKind::Assert), 1);
  sem::add(b, op(block(S::I64, {4})), op(block(S::I64, {4})), loc, true);  // 64-bit: no check
  EXPECT_EQ(count(OpKind::Assert), 1);
  sem::mul(b, op(block(S::F32, {4})), op(block(S::F32, {4})), loc, true);  // floats: no check
  EXPECT_EQ(count(OpKind::Assert), 1);
  verify();
}

TEST_F(SemanticTest, MakeIntKeepsPythonIntsIn64Bits) {
  EXPECT_EQ(sem::make_int(-(static_cast<__int128>(1) << 63), loc).i, INT64_MIN);
  CValue u = sem::make_int((static_cast<__int128>(1) << 64) - 1, loc);
  EXPECT_TRUE(u.is_u64);
  EXPECT_EQ(u.u, UINT64_MAX);
  expect_error([&] { sem::make_int(static_cast<__int128>(1) << 64, loc); }, "out of the supported range");
}

}  // namespace
}  // namespace tritium::frontend
