// The pass pipeline: its list, dumps, verification, and an end-to-end run.
#include <gtest/gtest.h>

#include <stdexcept>

#include "../ir/ir_test_util.h"
#include "passes/pipeline.h"

namespace tritium::passes {
namespace {

using ir::Builder;
using ir::InsertionGuard;
using ir::Op;
using ir::OpKind;
using ir::ScalarType;
using ir::Type;
using ir::Value;
using testing::at;
using testing::TestKernel;

const Type kI32 = Type::of(ScalarType::I32);

TEST(PassPipeline, PassNamesInOrder) {
  EXPECT_EQ(pipeline_pass_names(), (std::vector<std::string>{"inline", "fold", "cse", "licm", "dce"}));
}

/// kernel(out, n): for i in 0..n: out[0] = scale(n) + i  where scale(v) = v * (2 + 3), plus
/// dead and duplicated code for the passes to clean up.
void build_example(TestKernel& k) {
  ir::Function* h = k.module.add("scale");
  h->result_types = {kI32};
  {
    Builder b(*h);
    b.set_insertion_end(&h->body);
    Value* v = b.add_block_arg(h->body, kI32);
    Value* five = b.binary(OpKind::Add, b.const_int(kI32, 2, at(20)), b.const_int(kI32, 3, at(20)), at(20));
    Value* unused = b.binary(OpKind::Sub, v, five, at(21));
    (void)unused;
    b.create(OpKind::Return, {b.binary(OpKind::Mul, v, five, at(22))}, {}, at(23));
  }
  Value* z = k.ci(ScalarType::I32, 0);
  Value* one = k.ci(ScalarType::I32, 1);
  Op* loop = k.b->create_for(z, k.arg(1), one, {z}, at(2));
  {
    InsertionGuard g(*k.b);
    k.b->set_insertion_end(&loop->body());
    Value* i = loop->body().args[0];
    Value* s = k.b->create(OpKind::Call, {k.arg(1)}, {kI32}, at(3), {{"callee", std::string("scale")}})->result();
    Value* s_again = k.b->create(OpKind::Call, {k.arg(1)}, {kI32}, at(4), {{"callee", std::string("scale")}})->result();
    Value* x = k.b->binary(OpKind::Add, s, i, at(5));
    Value* dead_carried = k.b->binary(OpKind::Add, loop->body().args[1], s_again, at(6));
    k.store(k.arg(0), k.b->binary(OpKind::Add, x, z, at(7)), 7);
    k.b->create(OpKind::Yield, {dead_carried}, {}, at(8));
  }
  k.ret(9);
}

TEST(PassPipeline, EndToEnd) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32});
  build_example(k);
  ASSERT_EQ(k.errors(), "");
  run_pipeline(k.module);
  ASSERT_EQ(k.module.functions.size(), 1u);
  ASSERT_EQ(k.errors(), "") << k.text();
  // Expected by hand: the call is inlined twice, 2 + 3 folds to 5, the two copies of
  // `n * 5` merge, the product leaves the loop, the dead loop-carried sum and the unused
  // `sub` copies go, `x + 0` is x.
  EXPECT_EQ(k.text(),
            "kernel @k(%0: ptr<i32>, %1: i32) {\n"
            "  %2 = constant {value = 0} : i32\n"
            "  %3 = constant {value = 1} : i32\n"
            "  %22 = constant {value = 5} : i32\n"
            "  %16 = mul %1, %22 : i32\n"
            "  for %2, %1, %3 {\n"
            "   ^(%5: i32):\n"
            "    %9 = add %16, %5 : i32\n"
            "    store %0, %9\n"
            "    yield\n"
            "  }\n"
            "  return\n"
            "}\n");
}

TEST(PassPipeline, DumpsAfterNamedPasses) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32});
  build_example(k);
  std::vector<std::string> seen;
  std::string after_inline;
  PipelineOptions o;
  o.dump_after = {"inline", "dce"};
  o.dump = [&](const std::string& pass, const std::string& text) {
    seen.push_back(pass);
    if (pass == "inline") after_inline = text;
  };
  run_pipeline(k.module, o);
  EXPECT_EQ(seen, (std::vector<std::string>{"inline", "dce"}));
  EXPECT_EQ(after_inline.find("call"), std::string::npos) << after_inline;
  EXPECT_NE(after_inline.find("kernel @k"), std::string::npos);
  EXPECT_EQ(after_inline.find("func @scale"), std::string::npos);
}

TEST(PassPipeline, DumpAllAndUnknownName) {
  TestKernel k({Type::ptr(ScalarType::I32), kI32});
  build_example(k);
  std::vector<std::string> seen;
  PipelineOptions o;
  o.dump_after = {"all"};
  o.dump = [&](const std::string& pass, const std::string&) { seen.push_back(pass); };
  run_pipeline(k.module, o);
  EXPECT_EQ(seen, pipeline_pass_names());

  TestKernel k2({Type::ptr(ScalarType::I32), kI32});
  build_example(k2);
  PipelineOptions bad;
  bad.dump_after = {"fold", "gvn"};
  EXPECT_THROW(run_pipeline(k2.module, bad), std::invalid_argument);
  EXPECT_EQ(k2.module.functions.size(), 2u) << "nothing runs when the options are wrong";
}

TEST(PassPipeline, VerifiesAfterEachPass) {
  // IR that is invalid from the start (a type mismatch that no pass touches) is reported
  // after the first pass when verify_each is on, and passes through when it is off.
  auto make = [](TestKernel& k) {
    Op* op = k.b->create(OpKind::Store, {k.arg(0), k.arg(1)}, {}, at(5));
    op->operands[1] = k.arg(2);  // i64 stored through ptr<i32>
    k.ret();
  };
  TestKernel k({Type::ptr(ScalarType::I32), kI32, Type::of(ScalarType::I64)});
  make(k);
  EXPECT_THROW(run_pipeline(k.module), std::logic_error);
  TestKernel k2({Type::ptr(ScalarType::I32), kI32, Type::of(ScalarType::I64)});
  make(k2);
  PipelineOptions o;
  o.verify_each = false;
  EXPECT_NO_THROW(run_pipeline(k2.module, o));
}

}  // namespace
}  // namespace tritium::passes
