// Pass "inline": calls replaced by deep copies of their callees; helpers removed; refusals.
#include <gtest/gtest.h>

#include <stdexcept>

#include "../ir/ir_test_util.h"
#include "frontend/source.h"
#include "passes/inline.h"

namespace tritium::passes {
namespace {

using frontend::CompileError;
using ir::Builder;
using ir::Function;
using ir::InsertionGuard;
using ir::Op;
using ir::OpKind;
using ir::ScalarType;
using ir::Type;
using ir::Value;
using testing::at;
using testing::count_ops;
using testing::TestKernel;

const Type kI32 = Type::of(ScalarType::I32);

/// Adds helper `name(params) -> results` to the module and returns it; `body` fills it.
Function* add_helper(ir::Module& m, const std::string& name, std::vector<Type> params, std::vector<Type> results,
                     const std::function<void(Builder&, Function&)>& body) {
  Function* f = m.add(name);
  f->result_types = std::move(results);
  Builder b(*f);
  b.set_insertion_end(&f->body);
  for (auto& t : params) b.add_block_arg(f->body, t);
  body(b, *f);
  return f;
}

Value* call(TestKernel& k, const std::string& callee, std::vector<Value*> args, std::vector<Type> results,
            uint32_t line = 1) {
  Op* c = k.b->create(OpKind::Call, std::move(args), std::move(results), at(line), {{"callee", callee}});
  return c->results.empty() ? nullptr : c->result(0);
}

TEST(PassInline, SimpleCallPrinted) {
  TestKernel k({kI32, Type::ptr(ScalarType::I32)});
  add_helper(k.module, "sq", {kI32}, {kI32}, [](Builder& b, Function& f) {
    Value* m = b.binary(OpKind::Mul, f.body.args[0], f.body.args[0], at(10));
    b.create(OpKind::Return, {m}, {}, at(11));
  });
  Value* r = call(k, "sq", {k.arg(0)}, {kI32});
  Value* s = k.b->binary(OpKind::Add, r, k.arg(0), at(2));
  k.store(k.arg(1), s);
  k.ret();
  ASSERT_EQ(k.errors(), "");
  inline_calls(k.module);
  ASSERT_EQ(k.module.functions.size(), 1u);
  EXPECT_EQ(k.module.functions[0].get(), k.fn);
  ASSERT_EQ(k.errors(), "") << k.text();
  EXPECT_EQ(k.text(),
            "kernel @k(%0: i32, %1: ptr<i32>) {\n"
            "  %4 = mul %0, %0 : i32\n"
            "  %3 = add %4, %0 : i32\n"
            "  store %1, %3\n"
            "  return\n"
            "}\n");
  EXPECT_EQ(s->def->operand(0)->def->loc.line, 10u) << "copied ops keep the callee's locations";
}

TEST(PassInline, NestedCallsRegionsAndMultipleResults) {
  TestKernel k({kI32, Type::ptr(ScalarType::I32)});
  // inner(x) -> (x + 1, x * 2)
  add_helper(k.module, "inner", {kI32}, {kI32, kI32}, [](Builder& b, Function& f) {
    Value* x = f.body.args[0];
    Value* one = b.const_int(kI32, 1, at(20));
    Value* two = b.const_int(kI32, 2, at(20));
    Value* a = b.binary(OpKind::Add, x, one, at(21));
    Value* m = b.binary(OpKind::Mul, x, two, at(22));
    b.create(OpKind::Return, {a, m}, {}, at(23));
  });
  // outer(n): acc = 0; for i in 0..n: (p, q) = inner(i); acc += p * q (if i > 0); return acc
  add_helper(k.module, "outer", {kI32}, {kI32}, [](Builder& b, Function& f) {
    Value* n = f.body.args[0];
    Value* z = b.const_int(kI32, 0, at(30));
    Value* one = b.const_int(kI32, 1, at(30));
    Op* loop = b.create_for(z, n, one, {z}, at(31));
    {
      InsertionGuard g(b);
      b.set_insertion_end(&loop->body());
      Value* i = loop->body().args[0];
      Op* c = b.create(OpKind::Call, {i}, {kI32, kI32}, at(32), {{"callee", std::string("inner")}});
      Value* cond = b.cmp("gt", i, z, at(33));
      Op* br = b.create_if(cond, {kI32}, at(33));
      b.set_insertion_end(&br->body(0));
      Value* pq = b.binary(OpKind::Mul, c->result(0), c->result(1), at(34));
      Value* acc = b.binary(OpKind::Add, loop->body().args[1], pq, at(34));
      b.create(OpKind::Yield, {acc}, {}, at(34));
      b.set_insertion_end(&br->body(1));
      b.create(OpKind::Yield, {loop->body().args[1]}, {}, at(35));
      b.set_insertion_end(&loop->body());
      b.create(OpKind::Yield, {br->result(0)}, {}, at(36));
    }
    b.create(OpKind::Return, {loop->result(0)}, {}, at(37));
  });
  // The kernel calls outer twice (two independent copies) and inner once.
  Value* r1 = call(k, "outer", {k.arg(0)}, {kI32});
  Value* r2 = call(k, "outer", {r1}, {kI32});
  Op* c3 = k.b->create(OpKind::Call, {r2}, {kI32, kI32}, at(3), {{"callee", std::string("inner")}});
  k.store(k.arg(1), c3->result(1));
  k.ret();
  ASSERT_EQ(k.errors(), "");
  inline_calls(k.module);
  ASSERT_EQ(k.module.functions.size(), 1u);
  ASSERT_EQ(k.errors(), "") << k.text();  // dominance: no value of a helper leaked in
  EXPECT_EQ(count_ops(*k.fn, OpKind::Call), 0);
  EXPECT_EQ(count_ops(*k.fn, OpKind::For), 2);
  EXPECT_EQ(count_ops(*k.fn, OpKind::If), 2);
  EXPECT_EQ(count_ops(*k.fn, OpKind::Mul), 2 + 2 + 1);  // per outer copy: inner's mul + p*q; plus inner
  // The second loop's upper bound is the first loop's result.
  Op* first_for = nullptr;
  Op* second_for = nullptr;
  for (auto& op : k.fn->body.ops)
    if (op->kind == OpKind::For) (first_for ? second_for : first_for) = op.get();
  ASSERT_TRUE(first_for && second_for);
  EXPECT_EQ(second_for->operand(1), first_for->result(0));
  EXPECT_NE(first_for->body().args[0], second_for->body().args[0]);
  // The stored value is inner's second result (x * 2) of the second loop's result.
  const Op& stored = *k.fn->body.ops[k.fn->body.ops.size() - 2]->operand(1)->def;
  ASSERT_EQ(stored.kind, OpKind::Mul);
  EXPECT_EQ(stored.operand(0), second_for->result(0));
}

TEST(PassInline, HelperWithoutResultsAndCallInsideRegion) {
  TestKernel k({kI32, Type::ptr(ScalarType::I32), Type::of(ScalarType::I1)});
  add_helper(k.module, "put", {Type::ptr(ScalarType::I32), kI32}, {}, [](Builder& b, Function& f) {
    b.create(OpKind::Store, {f.body.args[0], f.body.args[1]}, {}, at(40));
  });  // no return at all
  Op* br = k.b->create_if(k.arg(2), {}, at(1));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&br->body(0));
    call(k, "put", {k.arg(1), k.arg(0)}, {});
    k.b->create(OpKind::Yield, {}, {}, at(2));
    k.b->set_insertion_end(&br->body(1));
    k.b->create(OpKind::Yield, {}, {}, at(2));
  }
  k.ret();
  inline_calls(k.module);
  ASSERT_EQ(k.errors(), "") << k.text();
  ASSERT_EQ(br->body(0).ops.size(), 2u);
  EXPECT_EQ(br->body(0).ops[0]->kind, OpKind::Store);
  EXPECT_EQ(br->body(0).ops[0]->parent, &br->body(0));
  EXPECT_EQ(br->body(0).ops[0]->operand(1), k.arg(0));
}

TEST(PassInline, UnknownCalleeIsACompileError) {
  TestKernel k({kI32});
  call(k, "missing", {k.arg(0)}, {}, 17);
  try {
    inline_calls(k.module);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.message(), "call to unknown function 'missing'");
    EXPECT_EQ(e.loc().line, 17u);
  }
}

TEST(PassInline, RecursionIsACompileError) {
  TestKernel k({kI32});
  add_helper(k.module, "f", {kI32}, {}, [](Builder& b, Function& f) {
    b.create(OpKind::Call, {f.body.args[0]}, {}, at(50), {{"callee", std::string("g")}});
  });
  add_helper(k.module, "g", {kI32}, {}, [](Builder& b, Function& f) {
    b.create(OpKind::Call, {f.body.args[0]}, {}, at(60), {{"callee", std::string("f")}});
  });
  call(k, "f", {k.arg(0)}, {}, 2);
  try {
    inline_calls(k.module);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.message(), "recursive call of 'f' is not supported");
    EXPECT_EQ(e.loc().line, 60u);
  }
}

TEST(PassInline, ReturnInsideControlFlowIsACompileError) {
  TestKernel k({kI32, Type::of(ScalarType::I1)});
  add_helper(k.module, "early", {Type::of(ScalarType::I1)}, {}, [](Builder& b, Function& f) {
    Op* br = b.create_if(f.body.args[0], {}, at(70));
    b.set_insertion_end(&br->body(0));
    b.create(OpKind::Return, {}, {}, at(71));
    b.set_insertion_end(&br->body(1));
    b.create(OpKind::Yield, {}, {}, at(72));
  });
  call(k, "early", {k.arg(1)}, {});
  try {
    inline_calls(k.module);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.message(), "'return' inside control flow of function 'early' is not supported");
    EXPECT_EQ(e.loc().line, 71u);
  }
}

TEST(PassInline, SignatureMismatchesAreInternalErrors) {
  {
    TestKernel k({kI32});
    add_helper(k.module, "h", {kI32, kI32}, {}, [](Builder&, Function&) {});
    call(k, "h", {k.arg(0)}, {});
    EXPECT_THROW(inline_calls(k.module), std::logic_error);
  }
  {
    TestKernel k({Type::of(ScalarType::I64)});
    add_helper(k.module, "h", {kI32}, {}, [](Builder&, Function&) {});
    call(k, "h", {k.arg(0)}, {});
    EXPECT_THROW(inline_calls(k.module), std::logic_error);
  }
  {
    TestKernel k({kI32});
    add_helper(k.module, "h", {kI32}, {}, [](Builder& b, Function&) { b.create(OpKind::Return, {}, {}, at(1)); });
    call(k, "h", {k.arg(0)}, {kI32});
    EXPECT_THROW(inline_calls(k.module), std::logic_error);
  }
}

TEST(PassInline, ModuleWithoutKernelIsAnInternalError) {
  ir::Module m;
  m.add("helper");
  EXPECT_THROW(inline_calls(m), std::logic_error);
}

}  // namespace
}  // namespace tritium::passes
