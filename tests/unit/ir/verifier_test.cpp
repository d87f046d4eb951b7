// ir::verify: one test per rule (a function breaking exactly that rule and the message it
// must produce), plus well-formed functions that must pass.
#include <gtest/gtest.h>

#include <stdexcept>

#include "ir_test_util.h"

namespace tritium::ir {
namespace {

using testing::at;
using testing::TestKernel;

const Type kI32 = Type::of(ScalarType::I32);
const Type kF32 = Type::of(ScalarType::F32);
const Type kI1 = Type::of(ScalarType::I1);
Type T(ScalarType s, std::vector<int64_t> shape) { return Type::tensor(s, std::move(shape)); }

/// Appends an op without the builder's count checks (to build invalid IR).
Op* raw(Block& b, OpKind kind, std::vector<Value*> operands, std::vector<Value*> results, uint32_t line = 9,
        std::map<std::string, Attr> attrs = {}) {
  auto op = std::make_unique<Op>();
  op->kind = kind;
  op->loc = at(line);
  op->operands = std::move(operands);
  op->attrs = std::move(attrs);
  op->parent = &b;
  for (size_t i = 0; i < results.size(); ++i) {
    results[i]->def = op.get();
    results[i]->index = static_cast<int>(i);
    op->results.push_back(results[i]);
  }
  b.ops.push_back(std::move(op));
  return b.ops.back().get();
}

/// Expects exactly one violation, equal to `expected`.
void expect_only(const TestKernel& k, const std::string& expected) {
  auto errs = verify(*k.fn, &k.module);
  ASSERT_EQ(errs.size(), 1u) << k.errors() << k.text();
  EXPECT_EQ(errs[0], expected) << k.text();
}

TEST(IrVerifier, WellFormedFunctionsPass) {
  TestKernel k({Type::ptr(ScalarType::F32), kI32});
  Value* zero = k.ci(ScalarType::I32, 0);
  Value* one = k.ci(ScalarType::I32, 1);
  Value* r = k.b->create(OpKind::MakeRange, {}, {T(ScalarType::I32, {16})}, at(2), {{"start", int64_t{0}}, {"end", int64_t{16}}})->result();
  Value* ps = k.b->splat(k.arg(0), {16}, at(3));
  Value* p = k.b->create(OpKind::AddPtr, {ps, r}, {ps->type}, at(3))->result();
  Value* n = k.b->splat(k.arg(1), {16}, at(4));
  Value* m = k.b->cmp("lt", r, n, at(4));
  Value* other = k.cf(T(ScalarType::F32, {16}), 0.0);
  Value* x = k.b->create(OpKind::Load, {p, m, other}, {T(ScalarType::F32, {16})}, at(5))->result();
  Op* loop = k.b->create_for(zero, k.arg(1), one, {x}, at(6));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&loop->body());
    Value* c = k.b->cmp("gt", loop->body().args[0], zero, at(7));
    Op* br = k.b->create_if(c, {x->type}, at(7));
    k.b->set_insertion_end(&br->body(0));
    Value* e = k.b->math(MathFn::Exp, {loop->body().args[1]}, x->type, at(8));
    k.b->create(OpKind::Yield, {e}, {}, at(8));
    k.b->set_insertion_end(&br->body(1));
    k.b->create(OpKind::Yield, {x}, {}, at(9));  // value of an enclosing block: visible
    k.b->set_insertion_end(&loop->body());
    k.b->create(OpKind::Yield, {br->result(0)}, {}, at(9));
  }
  Op* red = k.b->create_reduce(OpKind::Reduce, {loop->result(0)}, 0, {kF32}, at(10));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&red->body());
    Value* s = k.b->binary(OpKind::Add, red->body().args[0], red->body().args[1], at(10));
    k.b->create(OpKind::Yield, {s}, {}, at(10));
  }
  Op* w = k.b->create_while({zero}, {kI32}, at(11));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&w->body(0));
    Value* c = k.b->cmp("lt", w->body(0).args[0], k.arg(1), at(11));
    k.b->create(OpKind::Condition, {c, w->body(0).args[0]}, {}, at(11));
    k.b->set_insertion_end(&w->body(1));
    Value* nx = k.b->binary(OpKind::Add, w->body(1).args[0], one, at(12));
    k.b->create(OpKind::Yield, {nx}, {}, at(12));
  }
  k.store(p, loop->result(0), 13);
  k.b->create(OpKind::Store, {k.arg(0), red->result(0)}, {}, at(13));
  k.ret(14);
  EXPECT_EQ(k.errors(), "") << k.text();
  EXPECT_NO_THROW(verify_or_throw(*k.fn, &k.module));
}

TEST(IrVerifier, VerifyOrThrowListsViolations) {
  TestKernel k({kI32, kF32});
  raw(k.fn->body, OpKind::Add, {k.arg(0), k.arg(1)}, {k.fn->new_value(kI32)}, 4);
  try {
    verify_or_throw(*k.fn, &k.module);
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "internal compiler error: invalid IR in @k:\n  add (line 4): operand types differ: i32 vs fp32");
  }
}

TEST(IrVerifier, TerminatorNotLast) {
  TestKernel k({kI32});
  k.ret(3);
  k.ci(ScalarType::I32, 1);
  expect_only(k, "return (line 3): terminator is not the last op of its block");
}

TEST(IrVerifier, RegionMustEndWithYield) {
  TestKernel k({kI32});
  Op* loop = k.b->create_for(k.arg(0), k.arg(0), k.arg(0), {}, at(2));
  (void)loop;
  expect_only(k, "region must end with 'yield'");
}

TEST(IrVerifier, WhileBeforeRegionMustEndWithCondition) {
  TestKernel k({kI32});
  Op* w = k.b->create_while({}, {}, at(2));
  InsertionGuard g(*k.b);
  k.b->set_insertion_end(&w->body(0));
  k.b->create(OpKind::Yield, {}, {}, at(2));
  k.b->set_insertion_end(&w->body(1));
  k.b->create(OpKind::Yield, {}, {}, at(2));
  auto errs = verify(*k.fn, &k.module);
  ASSERT_FALSE(errs.empty());
  EXPECT_EQ(errs[0], "region must end with 'condition'");
}

TEST(IrVerifier, WrongOperandCount) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::Neg, {k.arg(0), k.arg(0)}, {k.fn->new_value(kI32)});
  expect_only(k, "neg (line 9): wrong operand count");
}

TEST(IrVerifier, WrongResultCount) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::Neg, {k.arg(0)}, {});
  expect_only(k, "neg (line 9): wrong result count");
}

TEST(IrVerifier, NullOperand) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::Neg, {nullptr}, {k.fn->new_value(kI32)});
  expect_only(k, "neg (line 9): null operand");
}

TEST(IrVerifier, UseBeforeDefinition) {
  TestKernel k({kI32});
  Value* later = k.fn->new_value(kI32);
  raw(k.fn->body, OpKind::Neg, {later}, {k.fn->new_value(kI32)}, 2);
  raw(k.fn->body, OpKind::Neg, {k.arg(0)}, {later}, 3);
  expect_only(k, "neg (line 2): operand %1 does not dominate its use");
}

TEST(IrVerifier, InnerRegionValueNotVisibleOutside) {
  TestKernel k({kI32});
  Op* loop = k.b->create_for(k.arg(0), k.arg(0), k.arg(0), {}, at(2));
  Value* inner;
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&loop->body());
    inner = k.b->unary(OpKind::Neg, loop->body().args[0], at(3));
    k.b->create(OpKind::Yield, {}, {}, at(3));
  }
  k.b->unary(OpKind::Neg, inner, at(4));
  expect_only(k, "neg (line 4): operand %2 does not dominate its use");
}

TEST(IrVerifier, ValueOfAnotherFunctionIsNotVisible) {
  TestKernel k({kI32});
  TestKernel other({kI32});
  raw(k.fn->body, OpKind::Neg, {other.arg(0)}, {k.fn->new_value(kI32)}, 5);
  expect_only(k, "neg (line 5): operand %0 does not dominate its use");
}

TEST(IrVerifier, OperandTypesDiffer) {
  TestKernel k({kI32, Type::of(ScalarType::I64)});
  raw(k.fn->body, OpKind::Mul, {k.arg(0), k.arg(1)}, {k.fn->new_value(kI32)});
  expect_only(k, "mul (line 9): operand types differ: i32 vs i64");
}

TEST(IrVerifier, ResultTypeMismatch) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::Add, {k.arg(0), k.arg(0)}, {k.fn->new_value(Type::of(ScalarType::I64))});
  expect_only(k, "add (line 9): result type should be i32");
}

TEST(IrVerifier, PointerOperandOfArithmetic) {
  TestKernel k({Type::ptr(ScalarType::F32)});
  raw(k.fn->body, OpKind::Add, {k.arg(0), k.arg(0)}, {k.fn->new_value(k.arg(0)->type)});
  expect_only(k, "add (line 9): pointer operand");
}

TEST(IrVerifier, DivNeedsFloats) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::Div, {k.arg(0), k.arg(0)}, {k.fn->new_value(kI32)});
  expect_only(k, "div (line 9): div needs float operands");
}

TEST(IrVerifier, BitwiseNeedsIntegers) {
  TestKernel k({kF32});
  raw(k.fn->body, OpKind::Xor, {k.arg(0), k.arg(0)}, {k.fn->new_value(kF32)});
  expect_only(k, "xor (line 9): integer operands required");
}

TEST(IrVerifier, BadPredicate) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::Cmp, {k.arg(0), k.arg(0)}, {k.fn->new_value(kI1)}, 9, {{"pred", std::string("less")}});
  expect_only(k, "cmp (line 9): bad predicate");
}

TEST(IrVerifier, AttributeOfWrongKindIsReportedNotThrown) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::Cmp, {k.arg(0), k.arg(0)}, {k.fn->new_value(kI1)}, 9, {{"pred", int64_t{1}}});
  expect_only(k, "cmp (line 9): attribute 'pred' of cmp is not a string");
}

TEST(IrVerifier, MathArity) {
  TestKernel k({kF32});
  raw(k.fn->body, OpKind::Math, {k.arg(0), k.arg(0)}, {k.fn->new_value(kF32)}, 9,
      {{"fn", static_cast<int64_t>(MathFn::Exp)}});
  expect_only(k, "math (line 9): wrong arity for math function");
}

TEST(IrVerifier, UnknownMathFunction) {
  TestKernel k({kF32});
  raw(k.fn->body, OpKind::Math, {k.arg(0)}, {k.fn->new_value(kF32)}, 9, {{"fn", int64_t{10000}}});
  expect_only(k, "math (line 9): unknown math function");
}

TEST(IrVerifier, SelectConditionMustBeBool) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::Select, {k.arg(0), k.arg(0), k.arg(0)}, {k.fn->new_value(kI32)});
  expect_only(k, "select (line 9): select condition must be int1");
}

TEST(IrVerifier, SelectConditionShape) {
  TestKernel k({kI1, T(ScalarType::F32, {4})});
  raw(k.fn->body, OpKind::Select, {k.arg(0), k.arg(1), k.arg(1)}, {k.fn->new_value(k.arg(1)->type)});
  expect_only(k, "select (line 9): select condition shape differs");
}

TEST(IrVerifier, SelectOperandsDiffer) {
  TestKernel k({kI1, kI32, Type::of(ScalarType::U32)});
  raw(k.fn->body, OpKind::Select, {k.arg(0), k.arg(1), k.arg(2)}, {k.fn->new_value(kI32)});
  expect_only(k, "select (line 9): select operands differ");
}

TEST(IrVerifier, CastChangesShape) {
  TestKernel k({T(ScalarType::I32, {4})});
  raw(k.fn->body, OpKind::Cast, {k.arg(0)}, {k.fn->new_value(T(ScalarType::F32, {8}))});
  expect_only(k, "cast (line 9): shape changes");
}

TEST(IrVerifier, BitcastWidth) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::Bitcast, {k.arg(0)}, {k.fn->new_value(Type::of(ScalarType::F64))});
  expect_only(k, "bitcast (line 9): bitcast between different widths");
}

TEST(IrVerifier, AddPtrNeedsPointerAndInt) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::AddPtr, {k.arg(0), k.arg(0)}, {k.fn->new_value(kI32)});
  auto errs = verify(*k.fn, &k.module);
  ASSERT_FALSE(errs.empty());
  EXPECT_EQ(errs[0], "addptr (line 9): addptr needs ptr and int");
}

TEST(IrVerifier, AddPtrShapes) {
  Type pt = Type::ptr(ScalarType::F32).with_shape({4});
  TestKernel k({pt, T(ScalarType::I32, {8})});
  raw(k.fn->body, OpKind::AddPtr, {k.arg(0), k.arg(1)}, {k.fn->new_value(pt)});
  expect_only(k, "addptr (line 9): addptr shapes differ");
}

TEST(IrVerifier, SplatOfTensor) {
  TestKernel k({T(ScalarType::I32, {4})});
  raw(k.fn->body, OpKind::Splat, {k.arg(0)}, {k.fn->new_value(T(ScalarType::I32, {4}))});
  auto errs = verify(*k.fn, &k.module);
  ASSERT_FALSE(errs.empty());
  EXPECT_EQ(errs[0], "splat (line 9): splat of a tensor");
}

TEST(IrVerifier, SplatElementType) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::Splat, {k.arg(0)}, {k.fn->new_value(T(ScalarType::F32, {4}))});
  expect_only(k, "splat (line 9): splat element type differs");
}

TEST(IrVerifier, BroadcastRank) {
  TestKernel k({T(ScalarType::I32, {4})});
  raw(k.fn->body, OpKind::Broadcast, {k.arg(0)}, {k.fn->new_value(T(ScalarType::I32, {2, 4}))});
  expect_only(k, "broadcast (line 9): broadcast changes rank");
}

TEST(IrVerifier, BroadcastNonUnitDim) {
  TestKernel k({T(ScalarType::I32, {2, 4})});
  raw(k.fn->body, OpKind::Broadcast, {k.arg(0)}, {k.fn->new_value(T(ScalarType::I32, {4, 4}))});
  expect_only(k, "broadcast (line 9): broadcast of a non-1 dimension");
}

TEST(IrVerifier, ReshapeElementCount) {
  TestKernel k({T(ScalarType::I32, {2, 4})});
  raw(k.fn->body, OpKind::Reshape, {k.arg(0)}, {k.fn->new_value(T(ScalarType::I32, {16}))});
  expect_only(k, "reshape (line 9): element count changes");
}

TEST(IrVerifier, TransPermRank) {
  TestKernel k({T(ScalarType::I32, {2, 4})});
  raw(k.fn->body, OpKind::Trans, {k.arg(0)}, {k.fn->new_value(T(ScalarType::I32, {4, 2}))}, 9,
      {{"perm", std::vector<int64_t>{0}}});
  expect_only(k, "trans (line 9): perm rank mismatch");
}

TEST(IrVerifier, TransPermEntryOutOfRange) {
  TestKernel k({T(ScalarType::I32, {2, 4})});
  raw(k.fn->body, OpKind::Trans, {k.arg(0)}, {k.fn->new_value(T(ScalarType::I32, {4, 2}))}, 9,
      {{"perm", std::vector<int64_t>{1, 7}}});
  expect_only(k, "trans (line 9): perm entry out of range");
}

TEST(IrVerifier, TransResultShape) {
  TestKernel k({T(ScalarType::I32, {2, 4})});
  raw(k.fn->body, OpKind::Trans, {k.arg(0)}, {k.fn->new_value(T(ScalarType::I32, {2, 4}))}, 9,
      {{"perm", std::vector<int64_t>{1, 0}}});
  auto errs = verify(*k.fn, &k.module);
  ASSERT_EQ(errs.size(), 2u);  // both dimensions are wrong
  EXPECT_EQ(errs[0], "trans (line 9): trans result shape");
}

TEST(IrVerifier, RangeLengthPowerOfTwo) {
  TestKernel k({});
  raw(k.fn->body, OpKind::MakeRange, {}, {k.fn->new_value(T(ScalarType::I32, {12}))}, 9,
      {{"start", int64_t{0}}, {"end", int64_t{12}}});
  expect_only(k, "make_range (line 9): range length must be a positive power of two");
}

TEST(IrVerifier, RangeResultType) {
  TestKernel k({});
  raw(k.fn->body, OpKind::MakeRange, {}, {k.fn->new_value(T(ScalarType::I32, {8}))}, 9,
      {{"start", int64_t{0}}, {"end", int64_t{16}}});
  expect_only(k, "make_range (line 9): result type should be tensor<16xi32>");
}

TEST(IrVerifier, LoadNeedsPointer) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::Load, {k.arg(0)}, {k.fn->new_value(kI32)});
  expect_only(k, "load (line 9): load needs a pointer");
}

TEST(IrVerifier, LoadResultType) {
  TestKernel k({Type::ptr(ScalarType::F16)});
  raw(k.fn->body, OpKind::Load, {k.arg(0)}, {k.fn->new_value(kF32)});
  expect_only(k, "load (line 9): load result type differs from pointee");
}

TEST(IrVerifier, LoadMask) {
  TestKernel k({Type::ptr(ScalarType::F32).with_shape({4}), T(ScalarType::I1, {8})});
  raw(k.fn->body, OpKind::Load, {k.arg(0), k.arg(1)}, {k.fn->new_value(T(ScalarType::F32, {4}))});
  expect_only(k, "load (line 9): load mask must be int1 of the pointer's shape");
}

TEST(IrVerifier, LoadOther) {
  TestKernel k({Type::ptr(ScalarType::F32), kI1, kI32});
  raw(k.fn->body, OpKind::Load, {k.arg(0), k.arg(1), k.arg(2)}, {k.fn->new_value(kF32)});
  expect_only(k, "load (line 9): load other type differs");
}

// A load's window (ops.def): base, offsets (i32), shape and strides (i64) after ptr, mask,
// other, counted by attr "window"; extra operands without it are refused.
TEST(IrVerifier, LoadWindowOperands) {
  const Type kI64 = Type::of(ScalarType::I64);
  {
    TestKernel k({Type::ptr(ScalarType::F32), kI1, kF32, kI32, kI64});
    raw(k.fn->body, OpKind::Load, {k.arg(0), k.arg(1), k.arg(2), k.arg(0), k.arg(3), k.arg(4), k.arg(4)},
        {k.fn->new_value(kF32)}, 9, {{"window", int64_t{1}}});
    EXPECT_TRUE(verify(*k.fn, &k.module).empty()) << k.errors();
  }
  {
    TestKernel k({Type::ptr(ScalarType::F32), kI1, kF32, kI32, kI64});
    raw(k.fn->body, OpKind::Load, {k.arg(0), k.arg(1), k.arg(2), k.arg(0), k.arg(4), k.arg(4), k.arg(4)},
        {k.fn->new_value(kF32)}, 9, {{"window", int64_t{1}}});
    expect_only(k, "load (line 9): load window offsets must be i32 scalars, shape and strides i64 scalars");
  }
  {
    TestKernel k({Type::ptr(ScalarType::F32), kI1, kF32, kI32, kI64});
    raw(k.fn->body, OpKind::Load, {k.arg(0), k.arg(1), k.arg(2), k.arg(0), k.arg(3), k.arg(4)}, {k.fn->new_value(kF32)},
        9, {{"window", int64_t{1}}});
    expect_only(k, "load (line 9): load window: expected 4 + 3 * window operands");
  }
  {
    TestKernel k({Type::ptr(ScalarType::F32), kI1, kF32});
    raw(k.fn->body, OpKind::Load, {k.arg(0), k.arg(1), k.arg(2), k.arg(0)}, {k.fn->new_value(kF32)});
    expect_only(k, "load (line 9): load takes at most 3 operands without a window");
  }
}

TEST(IrVerifier, StoreNeedsPointer) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::Store, {k.arg(0), k.arg(0)}, {});
  expect_only(k, "store (line 9): store needs a pointer");
}

TEST(IrVerifier, StoreValueType) {
  TestKernel k({Type::ptr(ScalarType::F32), kI32});
  raw(k.fn->body, OpKind::Store, {k.arg(0), k.arg(1)}, {});
  expect_only(k, "store (line 9): stored value type differs from pointee");
}

TEST(IrVerifier, StoreMask) {
  TestKernel k({Type::ptr(ScalarType::F32), kF32, kI32});
  raw(k.fn->body, OpKind::Store, {k.arg(0), k.arg(1), k.arg(2)}, {});
  expect_only(k, "store (line 9): store mask must be int1 of the pointer's shape");
}

TEST(IrVerifier, DotRanks) {
  TestKernel k({T(ScalarType::F16, {16}), T(ScalarType::F16, {16, 16}), T(ScalarType::F32, {16, 16})});
  raw(k.fn->body, OpKind::Dot, {k.arg(0), k.arg(1), k.arg(2)}, {k.fn->new_value(k.arg(2)->type)});
  expect_only(k, "dot (line 9): dot ranks");
}

TEST(IrVerifier, DotShapes) {
  TestKernel k({T(ScalarType::F16, {16, 32}), T(ScalarType::F16, {16, 16}), T(ScalarType::F32, {16, 16})});
  raw(k.fn->body, OpKind::Dot, {k.arg(0), k.arg(1), k.arg(2)}, {k.fn->new_value(k.arg(2)->type)});
  expect_only(k, "dot (line 9): dot shapes");
}

TEST(IrVerifier, DotOperandDtypes) {
  TestKernel k({T(ScalarType::F16, {16, 16}), T(ScalarType::BF16, {16, 16}), T(ScalarType::F32, {16, 16})});
  raw(k.fn->body, OpKind::Dot, {k.arg(0), k.arg(1), k.arg(2)}, {k.fn->new_value(k.arg(2)->type)});
  expect_only(k, "dot (line 9): dot operand dtypes differ");
}

TEST(IrVerifier, ReduceNeedsOneRegion) {
  TestKernel k({T(ScalarType::F32, {16})});
  Op* op = raw(k.fn->body, OpKind::Reduce, {k.arg(0)}, {k.fn->new_value(kF32)}, 9, {{"axis", int64_t{0}}});
  (void)op;
  expect_only(k, "reduce (line 9): needs one combine region");
}

TEST(IrVerifier, ReduceAxisOutOfRange) {
  TestKernel k({T(ScalarType::F32, {16})});
  Op* red = k.b->create_reduce(OpKind::Reduce, {k.arg(0)}, 1, {kF32}, at(9));
  InsertionGuard g(*k.b);
  k.b->set_insertion_end(&red->body());
  k.b->create(OpKind::Yield, {red->body().args[0]}, {}, at(9));
  expect_only(k, "reduce (line 9): axis out of range");
}

TEST(IrVerifier, ReduceYieldCountAndType) {
  TestKernel k({T(ScalarType::F32, {16}), kI32});
  Op* red = k.b->create_reduce(OpKind::Reduce, {k.arg(0)}, 0, {kF32}, at(9));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&red->body());
    k.b->create(OpKind::Yield, {k.arg(1)}, {}, at(9));
  }
  expect_only(k, "reduce (line 9): region value 0 has type i32, expected fp32");
  Op* red2 = k.b->create_reduce(OpKind::Scan, {k.arg(0)}, 0, {k.arg(0)->type}, at(8));
  InsertionGuard g(*k.b);
  k.b->set_insertion_end(&red2->body());
  k.b->create(OpKind::Yield, {}, {}, at(8));
  auto errs = verify(*k.fn, &k.module);
  ASSERT_EQ(errs.size(), 2u);
  EXPECT_EQ(errs[1], "scan (line 8): region terminator passes 0 values, expected 1");
}

TEST(IrVerifier, ForNeedsOneRegion) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::For, {k.arg(0), k.arg(0), k.arg(0)}, {});
  expect_only(k, "for (line 9): for needs one region");
}

TEST(IrVerifier, ForBoundsScalarInts) {
  TestKernel k({kF32, kI32});
  Op* loop = k.b->create_for(k.arg(1), k.arg(0), k.arg(1), {}, at(9));
  InsertionGuard g(*k.b);
  k.b->set_insertion_end(&loop->body());
  k.b->create(OpKind::Yield, {}, {}, at(9));
  expect_only(k, "for (line 9): loop bounds must be scalar ints");
}

TEST(IrVerifier, ForBodyArgumentCount) {
  TestKernel k({kI32});
  Op* loop = k.b->create_for(k.arg(0), k.arg(0), k.arg(0), {}, at(9));
  k.b->add_block_arg(loop->body(), kI32);
  InsertionGuard g(*k.b);
  k.b->set_insertion_end(&loop->body());
  k.b->create(OpKind::Yield, {}, {}, at(9));
  expect_only(k, "for (line 9): body argument count");
}

TEST(IrVerifier, ForBodyArgumentType) {
  TestKernel k({kI32, kF32});
  Op* loop = k.b->create_for(k.arg(0), k.arg(0), k.arg(0), {k.arg(1)}, at(9));
  loop->body().args[1]->type = kI32;
  InsertionGuard g(*k.b);
  k.b->set_insertion_end(&loop->body());
  k.b->create(OpKind::Yield, {k.arg(1)}, {}, at(9));
  expect_only(k, "for (line 9): body argument 1 type differs");
}

TEST(IrVerifier, ForInductionVariableType) {
  TestKernel k({kI32});
  Op* loop = k.b->create_for(k.arg(0), k.arg(0), k.arg(0), {}, at(9));
  loop->body().args[0]->type = Type::of(ScalarType::I64);
  InsertionGuard g(*k.b);
  k.b->set_insertion_end(&loop->body());
  k.b->create(OpKind::Yield, {}, {}, at(9));
  expect_only(k, "for (line 9): induction variable type differs from lb");
}

TEST(IrVerifier, ForInitType) {
  TestKernel k({kI32, kF32});
  Op* loop = k.b->create_for(k.arg(0), k.arg(0), k.arg(0), {k.arg(1)}, at(9));
  loop->operands[3] = k.arg(0);  // init now i32, result and body arg fp32
  InsertionGuard g(*k.b);
  k.b->set_insertion_end(&loop->body());
  k.b->create(OpKind::Yield, {loop->body().args[1]}, {}, at(9));
  expect_only(k, "for (line 9): loop-carried value 0 init type differs");
}

TEST(IrVerifier, ForInitCount) {
  TestKernel k({kI32, kF32});
  Op* loop = k.b->create_for(k.arg(0), k.arg(0), k.arg(0), {k.arg(1)}, at(9));
  loop->operands.push_back(k.arg(1));
  InsertionGuard g(*k.b);
  k.b->set_insertion_end(&loop->body());
  k.b->create(OpKind::Yield, {loop->body().args[1]}, {}, at(9));
  expect_only(k, "for (line 9): loop-carried init count differs from result count");
}

TEST(IrVerifier, ForYieldCount) {
  TestKernel k({kI32, kF32});
  Op* loop = k.b->create_for(k.arg(0), k.arg(0), k.arg(0), {k.arg(1)}, at(9));
  InsertionGuard g(*k.b);
  k.b->set_insertion_end(&loop->body());
  k.b->create(OpKind::Yield, {}, {}, at(9));
  expect_only(k, "for (line 9): region terminator passes 0 values, expected 1");
}

TEST(IrVerifier, IfConditionScalarBool) {
  TestKernel k({T(ScalarType::I1, {4})});
  Op* br = k.b->create(OpKind::If, {k.arg(0)}, {}, at(9), {}, 2);
  InsertionGuard g(*k.b);
  for (int r = 0; r < 2; ++r) {
    k.b->set_insertion_end(&br->body(r));
    k.b->create(OpKind::Yield, {}, {}, at(9));
  }
  expect_only(k, "if (line 9): if condition must be scalar int1");
}

TEST(IrVerifier, IfNeedsTwoRegions) {
  TestKernel k({kI1});
  Op* br = k.b->create(OpKind::If, {k.arg(0)}, {}, at(9), {}, 1);
  InsertionGuard g(*k.b);
  k.b->set_insertion_end(&br->body(0));
  k.b->create(OpKind::Yield, {}, {}, at(9));
  expect_only(k, "if (line 9): if needs two regions");
}

TEST(IrVerifier, IfYieldTypes) {
  TestKernel k({kI1, kI32, kF32});
  Op* br = k.b->create_if(k.arg(0), {kI32}, at(9));
  InsertionGuard g(*k.b);
  k.b->set_insertion_end(&br->body(0));
  k.b->create(OpKind::Yield, {k.arg(1)}, {}, at(9));
  k.b->set_insertion_end(&br->body(1));
  k.b->create(OpKind::Yield, {k.arg(2)}, {}, at(9));
  expect_only(k, "if (line 9): region value 0 has type fp32, expected i32");
}

TEST(IrVerifier, WhileNeedsTwoRegions) {
  TestKernel k({kI32});
  raw(k.fn->body, OpKind::While, {k.arg(0)}, {});
  expect_only(k, "while (line 9): while needs two regions");
}

/// A while loop over one i32 whose regions are filled by the test.
struct WhileCase {
  TestKernel k{{kI32, kF32}};
  Op* w = k.b->create_while({k.arg(0)}, {kI32}, at(9));
  void fill(Value* cond, Value* passed, Value* yielded) {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&w->body(0));
    k.b->create(OpKind::Condition, {cond, passed}, {}, at(9));
    k.b->set_insertion_end(&w->body(1));
    k.b->create(OpKind::Yield, {yielded}, {}, at(9));
  }
};

TEST(IrVerifier, WhileConditionScalarBool) {
  WhileCase c;
  c.fill(c.w->body(0).args[0], c.w->body(0).args[0], c.w->body(1).args[0]);
  expect_only(c.k, "while (line 9): while condition must be scalar int1");
}

TEST(IrVerifier, WhileConditionPassesResultTypes) {
  WhileCase c;
  Value* t;
  {
    InsertionGuard g(*c.k.b);
    c.k.b->set_insertion_end(&c.w->body(0));
    t = c.k.b->cmp("eq", c.w->body(0).args[0], c.w->body(0).args[0], at(9));
  }
  c.fill(t, c.k.arg(1), c.w->body(1).args[0]);
  expect_only(c.k, "while (line 9): region value 0 has type fp32, expected i32");
}

TEST(IrVerifier, WhileRegionArgumentTypes) {
  WhileCase c;
  c.w->body(0).args[0]->type = kF32;
  c.w->body(1).args[0]->type = kF32;
  Value* t;
  {
    InsertionGuard g(*c.k.b);
    c.k.b->set_insertion_end(&c.w->body(0));
    t = c.k.b->cmp("eq", c.k.arg(0), c.k.arg(0), at(9));
  }
  c.fill(t, c.k.arg(0), c.k.arg(0));
  auto errs = verify(*c.k.fn, &c.k.module);
  ASSERT_EQ(errs.size(), 2u) << c.k.errors();
  EXPECT_EQ(errs[0], "while (line 9): before-region argument 0 type differs");
  EXPECT_EQ(errs[1], "while (line 9): after-region argument 0 type differs");
}

TEST(IrVerifier, UnknownCallee) {
  TestKernel k({kI32});
  k.b->create(OpKind::Call, {k.arg(0)}, {}, at(9), {{"callee", std::string("nowhere")}});
  expect_only(k, "call (line 9): unknown callee nowhere");
  EXPECT_TRUE(verify(*k.fn, nullptr).empty()) << "without a module, callees are not checked";
}

}  // namespace
}  // namespace tritium::ir
