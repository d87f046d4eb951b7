// Axis analysis (src/passes/axis_info.h): the facts of the values kernels store, checked
// two ways — against hand-derived expectations for the access patterns GPU backends
// vectorize (pid * BLOCK + arange, row-major 2-D tiles with a ":16" stride), and for
// soundness against the actual values the interpreter computes for every tested kernel:
// each claimed contiguous run really steps by 1, each run start really is divisible,
// each constant run really is constant.
#include <gtest/gtest.h>

#include <numeric>

#include "kernel_ir_util.h"
#include "passes/axis_info.h"
#include "tritium/tritium.h"

namespace {

using tritium::passes::AxisAnalysis;
using tritium::passes::AxisInfo;

// The facts of the value stored by the kernel's last `store` (and its pointer operand's).
std::pair<AxisInfo, AxisInfo> stored_facts(const std::string& text, const std::string& sig) {
  auto c = tritium::testing::kernel_ir_from_text(text, "k", sig, "axis.py");
  const tritium::ir::Function& fn = c->fn();
  AxisAnalysis a(fn);
  const tritium::ir::Op* store = nullptr;
  for (const auto& op : fn.body.ops)
    if (op->kind == tritium::ir::OpKind::Store) store = op.get();
  EXPECT_NE(store, nullptr);
  return {a.get(store->operands[1]), a.get(store->operands[0])};
}

// Checks the facts against the values (row-major, `shape`).
void expect_sound(const AxisInfo& f, const std::vector<int64_t>& v, const std::vector<int64_t>& shape) {
  const size_t rank = shape.size();
  std::vector<int64_t> stride(rank, 1);
  for (size_t d = rank; d-- > 1;) stride[d - 1] = stride[d] * shape[d];
  for (size_t i = 0; i < v.size(); ++i) {
    for (size_t d = 0; d < rank; ++d) {
      const int64_t pos = (static_cast<int64_t>(i) / stride[d]) % shape[d];
      const int64_t c = f.contiguity[d], k = f.constancy[d];
      if (pos % c == 0) {
        EXPECT_EQ(v[i] % f.divisibility[d], 0) << "run start " << i << " dim " << d << " value " << v[i];
      } else {
        EXPECT_EQ(v[i], v[i - static_cast<size_t>(stride[d])] + 1) << "inside a contiguous run " << i << " dim " << d;
      }
      if (pos % k != 0) EXPECT_EQ(v[i], v[i - static_cast<size_t>(stride[d])]) << "inside a constant run " << i;
    }
  }
}

// Runs the kernel on the interpreter (grid (2,)) and returns program 1's stored int64 values.
std::vector<int64_t> values(const std::string& text, const std::string& sig, size_t n, std::vector<tritium::Arg> extra) {
  tritium::Device dev = tritium::Device::get("interp");
  auto k = tritium::Module::from_string(text, "axis.py").kernel("k").compile(dev, sig);
  tritium::Buffer out = dev.alloc(2 * n * 8);
  std::vector<tritium::Arg> args = {out};
  for (auto& a : extra) args.push_back(a);
  k.launch({2}, args);
  auto all = out.download<int64_t>();
  return std::vector<int64_t>(all.begin() + static_cast<long>(n), all.end());
}

const char* kHeader = "import triton\nimport triton.language as tl\n\n@triton.jit\n";

TEST(AxisInfo, VectorAddOffsetsAndPointers) {
  const std::string src = std::string(kHeader) +
                          "def k(o_ptr, x_ptr, BLOCK: tl.constexpr):\n"
                          "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                          "    tl.store(o_ptr + offs, offs.to(tl.int64))\n";
  auto [v, p] = stored_facts(src, "*i64:16, *fp32:16, 64");
  EXPECT_EQ(v.contiguity, std::vector<int64_t>{64});
  EXPECT_EQ(v.divisibility, std::vector<int64_t>{64});  // pid * 64 + 0
  EXPECT_EQ(v.constancy, std::vector<int64_t>{1});
  EXPECT_EQ(p.contiguity, std::vector<int64_t>{64});
  EXPECT_EQ(p.divisibility, std::vector<int64_t>{16});  // bytes: the ":16" base
  tritium::Buffer x = tritium::Device::get("interp").alloc(1024);
  expect_sound(v, values(src, "*i64:16, *fp32:16, 64", 64, {x}), {64});
  // Without ":16" the base's alignment is unknown.
  auto [v2, p2] = stored_facts(src, "*i64, *fp32, 64");
  EXPECT_EQ(p2.divisibility, std::vector<int64_t>{1});
}

TEST(AxisInfo, RowMajorTileWithAStrideMultipleOf16) {
  const std::string src = std::string(kHeader) +
                          "def k(o_ptr, stride, M: tl.constexpr, N: tl.constexpr):\n"
                          "    r = tl.arange(0, M)[:, None]\n"
                          "    c = tl.arange(0, N)[None, :]\n"
                          "    offs = r * stride + c + tl.program_id(0) * (M * N)\n"
                          "    tl.store(o_ptr + tl.arange(0, M)[:, None] * N + c + tl.program_id(0) * (M * N), "
                          "offs.to(tl.int64))\n";
  auto [v, p] = stored_facts(src, "*i64:16, i32:16, 4, 8");
  EXPECT_EQ(v.contiguity, (std::vector<int64_t>{1, 8}));
  EXPECT_EQ(v.divisibility, (std::vector<int64_t>{1, 16}));  // along rows r*stride + c; along columns runs start at r*stride
  EXPECT_EQ(v.constancy, (std::vector<int64_t>{1, 1}));
  expect_sound(v, values(src, "*i64:16, i32:16, 4, 8", 32, {tritium::Arg(48)}), {4, 8});
}

TEST(AxisInfo, RunsShorterThanAnOperandsRunDoNotInheritItsAlignment) {
  // (i // 4) * 16 + i: runs of 4 starting at 0, 20, 40, ...: divisible by 4, not 16.
  const std::string src = std::string(kHeader) +
                          "def k(o_ptr):\n"
                          "    i = tl.arange(0, 16)\n"
                          "    q = tl.multiple_of((i // 4) * 16, 16)\n"
                          "    q = tl.max_constancy(q, 4)\n"
                          "    v = q + i\n"
                          "    tl.store(o_ptr + tl.program_id(0) * 16 + i, v.to(tl.int64))\n";
  auto [v, p] = stored_facts(src, "*i64");
  EXPECT_EQ(v.contiguity, std::vector<int64_t>{4});
  EXPECT_EQ(v.divisibility, std::vector<int64_t>{4});
  expect_sound(v, values(src, "*i64", 16, {}), {16});
}

TEST(AxisInfo, SelectCastsAndBroadcastsStaySound) {
  const std::string src = std::string(kHeader) +
                          "def k(o_ptr, n):\n"
                          "    i = tl.arange(0, 32)\n"
                          "    a = tl.where(i < 16, i + 64, i * 3)\n"
                          "    b = tl.broadcast_to((tl.arange(0, 4) * 8)[:, None], [4, 8]) + tl.arange(0, 8)[None, :]\n"
                          "    v = a.to(tl.int64) + tl.reshape(b, [32]).to(tl.int64) + n\n"
                          "    tl.store(o_ptr + tl.program_id(0) * 32 + i, v)\n";
  auto [v, p] = stored_facts(src, "*i64, i64");
  expect_sound(v, values(src, "*i64, i64", 32, {tritium::Arg(int64_t{5})}), {32});
  auto [v16, p16] = stored_facts(src, "*i64, i64:16");
  expect_sound(v16, values(src, "*i64, i64:16", 32, {tritium::Arg(int64_t{48})}), {32});
}

}  // namespace

// A for loop's induction variable: `range(0, n, 32)` gives multiples of 32 (and start 8 with
// step 32 only multiples of 8); the facts reach the accesses inside the body.
TEST(AxisInfo, LoopInductionVariableIsAMultipleOfStartAndStep) {
  for (int start : {0, 8}) {
    const std::string src = std::string(kHeader) +
                            "def k(o_ptr, n):\n"
                            "    for i in range(" + std::to_string(start) + ", n, 32):\n"
                            "        v = i + tl.arange(0, 16)\n"
                            "        tl.store(o_ptr + (i // 32) * 16 + tl.arange(0, 16), v.to(tl.int64))\n";
    auto c = tritium::testing::kernel_ir_from_text(src, "k", "*i64:16, i32", "axis.py");
    const tritium::ir::Function& fn = c->fn();
    AxisAnalysis a(fn);
    const tritium::ir::Op* store = nullptr;
    const tritium::ir::Value* iv = nullptr;
    for (const auto& op : fn.body.ops)
      if (op->kind == tritium::ir::OpKind::For) {
        iv = op->body().args[0];
        for (const auto& inner : op->body().ops)
          if (inner->kind == tritium::ir::OpKind::Store) store = inner.get();
      }
    ASSERT_NE(store, nullptr);
    EXPECT_EQ(a.get(iv).divisibility[0], start == 0 ? 32 : 8);
    // the stored value's cast operand: i + arange, one run of 16 starting at i
    const tritium::ir::Value* sum = store->operands[1]->def->operands[0];
    const AxisInfo f = a.get(sum);
    EXPECT_EQ(f.contiguity[0], 16);
    EXPECT_EQ(f.divisibility[0], start == 0 ? 32 : 8);
    // soundness against the values the interpreter computes (three iterations)
    tritium::Device dev = tritium::Device::get("interp");
    auto k = tritium::Module::from_string(src, "axis.py").kernel("k").compile(dev, "*i64:16, i32");
    tritium::Buffer out = dev.alloc(48 * 8);
    k.launch({1}, {out, tritium::Arg(start + 96)});
    auto vals = out.download<int64_t>();
    for (int it = 0; it < 3; ++it)
      expect_sound(f, std::vector<int64_t>(vals.begin() + it * 16, vals.begin() + it * 16 + 16), {16});
  }
}

// A bounds mask `offs < n` with n a multiple of 16 is constant over aligned groups of 16 (so
// masked accesses vectorize); `offs <= n` changes between n and n + 1 and claims nothing.
// Facts checked by hand and for soundness against the interpreter's values at several n.
TEST(AxisInfo, BoundsMasksAreConstantOverAlignedGroups) {
  struct P {
    const char* expr;
    int64_t constancy;
  };
  for (const P& p : {P{"offs < n", 16}, P{"offs >= n", 16}, P{"n > offs", 16}, P{"n <= offs", 16},
                     P{"offs <= n", 1}, P{"offs > n", 1}, P{"offs + 1 < n", 1}}) {
    const std::string src = std::string(kHeader) +
                            "def k(o_ptr, n):\n"
                            "    offs = tl.program_id(0) * 64 + tl.arange(0, 64)\n"
                            "    m = " + p.expr + "\n"
                            "    tl.store(o_ptr + offs, m.to(tl.int64))\n";
    auto [v, ptr] = stored_facts(src, "*i64:16, i32:16");
    // the stored value is the cast of the comparison: its facts are the comparison's
    auto c = tritium::testing::kernel_ir_from_text(src, "k", "*i64:16, i32:16", "axis.py");
    const tritium::ir::Function& fn = c->fn();
    AxisAnalysis a(fn);
    const tritium::ir::Value* cmp = nullptr;
    for (const auto& op : fn.body.ops)
      if (op->kind == tritium::ir::OpKind::Cmp) cmp = op->results[0];
    ASSERT_NE(cmp, nullptr) << p.expr;
    EXPECT_EQ(a.get(cmp).constancy, std::vector<int64_t>{p.constancy}) << p.expr;
    for (int64_t n : {16, 48, 80, 112, 128})
      expect_sound(a.get(cmp), values(src, "*i64:16, i32:16", 64, {tritium::Arg(n)}), {64});
  }
}

// Carried pointers (`a_ptrs += BLOCK_K * stride` in a matmul K loop) keep the facts their
// init and every yield share; a carried value the body scrambles loses them.
TEST(AxisInfo, LoopCarriedValuesKeepTheFactsInitAndYieldShare) {
  const std::string src = std::string(kHeader) +
                          "def k(o_ptr, n, STEP: tl.constexpr):\n"
                          "    p = o_ptr + tl.program_id(0) * 64 + tl.arange(0, 64)\n"
                          "    q = tl.arange(0, 64) * 2\n"
                          "    for i in range(0, n):\n"
                          "        tl.store(p, (tl.arange(0, 64) + i * STEP).to(tl.int64))\n"
                          "        p += STEP\n"
                          "        q = q * 3 + 1\n"
                          "    tl.store(o_ptr + tl.arange(0, 64), q.to(tl.int64))\n";
  for (int step : {64, 8, 1}) {
    const std::string sig = "*i64:16, i32, " + std::to_string(step);
    auto c = tritium::testing::kernel_ir_from_text(src, "k", sig, "axis.py");
    const tritium::ir::Function& fn = c->fn();
    AxisAnalysis a(fn);
    const tritium::ir::Op* loop = nullptr;
    for (const auto& op : fn.body.ops)
      if (op->kind == tritium::ir::OpKind::For) loop = op.get();
    ASSERT_NE(loop, nullptr);
    ASSERT_EQ(loop->body().args.size(), 3u);
    const AxisInfo p = a.get(loop->body().args[1]), q = a.get(loop->body().args[2]);
    EXPECT_EQ(p.contiguity, std::vector<int64_t>{64}) << step;
    // bytes: the base's 16 and the step's 8 * STEP bytes
    EXPECT_EQ(p.divisibility, std::vector<int64_t>{std::min<int64_t>(16, 8 * step)}) << step;
    EXPECT_EQ(a.get(loop->results[0]).contiguity, std::vector<int64_t>{64}) << step;
    EXPECT_EQ(q.contiguity, std::vector<int64_t>{1}) << step;  // 2i, then 6i + 1, ...: no runs
    EXPECT_EQ(q.divisibility, std::vector<int64_t>{1}) << step;
  }
}

// Where init and yield disagree on contiguity, the carried value's run starts are every
// element of the shorter runs (found by review: a contiguous init merged with a constant or
// strided yield claimed the yield's divisibility for elements 1, 2, ... of the init).
// Checked for soundness against every iteration's stored values.
TEST(AxisInfo, CarriedFactsMeetAtTheShorterRuns) {
  for (const char* update : {"q = tl.zeros([64], tl.int32)", "q = tl.arange(0, 64) * 16", "q, r = r, q"}) {
    const std::string src = std::string(kHeader) +
                            "def k(o_ptr, n):\n"
                            "    q = tl.arange(0, 64)\n"
                            "    r = tl.arange(0, 64) * 64\n"
                            "    for i in range(0, n):\n"
                            "        tl.store(o_ptr + i * 64 + tl.arange(0, 64), q.to(tl.int64))\n"
                            "        " + update + "\n";
    auto c = tritium::testing::kernel_ir_from_text(src, "k", "*i64:16, i32", "axis.py");
    const tritium::ir::Function& fn = c->fn();
    AxisAnalysis a(fn);
    const tritium::ir::Op* store = nullptr;
    for (const auto& op : fn.body.ops)
      if (op->kind == tritium::ir::OpKind::For)
        for (const auto& inner : op->body().ops)
          if (inner->kind == tritium::ir::OpKind::Store) store = inner.get();
    ASSERT_NE(store, nullptr) << update;
    const AxisInfo f = a.get(store->operands[1]->def->operands[0]);  // the carried q
    tritium::Device dev = tritium::Device::get("interp");
    auto k = tritium::Module::from_string(src, "axis.py").kernel("k").compile(dev, "*i64:16, i32");
    tritium::Buffer out = dev.alloc(3 * 64 * 8);
    k.launch({1}, {out, tritium::Arg(3)});
    auto vals = out.download<int64_t>();
    for (int it = 0; it < 3; ++it)
      expect_sound(f, std::vector<int64_t>(vals.begin() + it * 64, vals.begin() + it * 64 + 64), {64});
  }
}
