// ir::print: exact text of small functions (expected text written by hand).
#include <gtest/gtest.h>

#include "ir_test_util.h"

namespace tritium::ir {
namespace {

using testing::at;
using testing::TestKernel;

TEST(IrPrinter, FunctionWithForAndIf) {
  TestKernel k({Type::ptr(ScalarType::F32), Type::of(ScalarType::I32)});
  Value* zero = k.ci(ScalarType::I32, 0);
  Value* one = k.ci(ScalarType::I32, 1);
  Value* half = k.cf(ScalarType::F32, 0.5);
  Op* loop = k.b->create_for(zero, k.arg(1), one, {half}, at(2));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&loop->body());
    Value* f = k.b->cast(loop->body().args[0], ScalarType::F32, at(3));
    Value* s = k.b->binary(OpKind::Add, loop->body().args[1], f, at(3));
    k.b->create(OpKind::Yield, {s}, {}, at(3));
  }
  Value* c = k.b->cmp("gt", k.arg(1), zero, at(4));
  Op* br = k.b->create_if(c, {Type::of(ScalarType::F32)}, at(4));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&br->body(0));
    Value* e = k.b->math(MathFn::Exp, {loop->result(0)}, Type::of(ScalarType::F32), at(5));
    k.b->create(OpKind::Yield, {e}, {}, at(5));
    k.b->set_insertion_end(&br->body(1));
    k.b->create(OpKind::Yield, {half}, {}, at(6));
  }
  k.store(k.arg(0), br->result(0));
  k.ret();
  EXPECT_EQ(k.text(),
            "kernel @k(%0: ptr<fp32>, %1: i32) {\n"
            "  %2 = constant {value = 0} : i32\n"
            "  %3 = constant {value = 1} : i32\n"
            "  %4 = constant {value = 0.5} : fp32\n"
            "  %5 = for %2, %1, %3, %4 : fp32 {\n"
            "   ^(%6: i32, %7: fp32):\n"
            "    %8 = cast %6 : fp32\n"
            "    %9 = add %7, %8 : fp32\n"
            "    yield %9\n"
            "  }\n"
            "  %10 = cmp %1, %2 {pred = \"gt\"} : i1\n"
            "  %11 = if %10 : fp32 {\n"
            "   ^():\n"
            "    %12 = math.exp %5 : fp32\n"
            "    yield %12\n"
            "  } {\n"
            "   ^():\n"
            "    yield %4\n"
            "  }\n"
            "  store %0, %11\n"
            "  return\n"
            "}\n");
}

TEST(IrPrinter, AttributesSortedAndListsAndTensors) {
  TestKernel k({Type::tensor(ScalarType::I32, {4, 8})});
  k.b->create(OpKind::Trans, {k.arg(0)}, {Type::tensor(ScalarType::I32, {8, 4})}, at(1),
              {{"perm", std::vector<int64_t>{1, 0}}, {"a_first", int64_t{-3}}});
  k.b->create(OpKind::Split, {k.arg(0)}, {Type::of(ScalarType::I32), Type::of(ScalarType::I32)}, at(1));
  EXPECT_EQ(k.text(),
            "kernel @k(%0: tensor<4x8xi32>) {\n"
            "  %1 = trans %0 {a_first = -3, perm = [1, 0]} : tensor<8x4xi32>\n"
            "  %2, %3 = split %0 : i32, i32\n"
            "}\n");
}

TEST(IrPrinter, HelperWithResultsAndModule) {
  Module m;
  Function* k = m.add("main");
  k->is_kernel = true;
  Builder kb(*k);
  kb.set_insertion_end(&k->body);
  kb.create(OpKind::Return, {}, {}, at(1));
  Function* h = m.add("helper");
  Builder hb(*h);
  hb.set_insertion_end(&h->body);
  Value* x = hb.add_block_arg(h->body, Type::of(ScalarType::F64));
  h->result_types = {Type::of(ScalarType::F64), Type::of(ScalarType::I1)};
  Value* t = hb.const_int(Type::of(ScalarType::I1), 1, at(2));
  hb.create(OpKind::Return, {x, t}, {}, at(3));
  EXPECT_EQ(print(*h),
            "func @helper(%0: fp64) -> (fp64, i1) {\n"
            "  %1 = constant {value = 1} : i1\n"
            "  return %0, %1\n"
            "}\n");
  EXPECT_EQ(print(m), print(*k) + "\n" + print(*h));
}

}  // namespace
}  // namespace tritium::ir
