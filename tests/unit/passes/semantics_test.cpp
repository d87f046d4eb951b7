// The passes never change what a program computes: random programs (integer and float
// arithmetic, comparisons, selects, casts, helper calls, if/for with constant and run-time
// conditions, stores inside regions) are run by the reference interpreter before and after
// the whole pipeline, on random non-zero inputs, into output buffers poisoned beforehand;
// the outputs must be bit-identical (the interpreter is the same on both sides, so any
// difference — NaN payloads included — is a change made by a pass). Tolerance: none.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>

#include "../ir/ir_test_util.h"
#include "interp/interpreter.h"
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
using testing::count_all_ops;

// Element types of the generated programs' variables (int1 values come from comparisons).
const ScalarType kTypes[] = {ScalarType::I8,  ScalarType::I32, ScalarType::I64, ScalarType::U8,  ScalarType::U32,
                             ScalarType::F32, ScalarType::F64, ScalarType::F16, ScalarType::BF16};
constexpr int kNumTypes = 9;
constexpr int kSlots = 64;  // output slots per type

/// Deterministic generator of one random kernel (same seed → same program).
class Gen {
 public:
  ir::Module m;
  int stores = 0;

  explicit Gen(uint64_t seed) : rng_(seed) {
    make_helpers();
    k_ = m.add("k");
    k_->is_kernel = true;
    // Kernel first: the interpreter runs the first kernel function; keep helpers after it.
    std::rotate(m.functions.begin(), m.functions.end() - 1, m.functions.end());
    b_ = std::make_unique<Builder>(*k_);
    b_->set_insertion_end(&k_->body);
    for (ScalarType t : kTypes) out_.push_back(b_->add_block_arg(k_->body, Type::ptr(t)));
    scopes_.emplace_back();
    for (ScalarType t : kTypes) scopes_.back().push_back(b_->add_block_arg(k_->body, Type::of(t)));
    block(10 + static_cast<int>(rng_() % 15), 0);
    for (Value* v : scopes_.back())
      if (coin(2)) store(v);
    b_->create(OpKind::Return, {}, {}, at(99));
  }

 private:
  std::mt19937_64 rng_;
  ir::Function* k_;
  std::unique_ptr<Builder> b_;
  std::vector<Value*> out_;
  std::vector<std::vector<Value*>> scopes_;
  int next_slot_[kNumTypes] = {};

  bool coin(int n) { return rng_() % n == 0; }
  int pick_int(int n) { return static_cast<int>(rng_() % n); }
  static int type_index(ScalarType t) {
    for (int i = 0; i < kNumTypes; ++i)
      if (kTypes[i] == t) return i;
    return -1;
  }
  ScalarType random_type() { return kTypes[pick_int(kNumTypes)]; }
  ScalarType random_int_type() { return kTypes[pick_int(5)]; }

  void make_helpers() {
    // mad(a, b) = a * b + (a + 0) on i32; two(x) = (x * 2, x + 1) on fp32.
    ir::Function* mad = m.add("mad");
    Type i32 = Type::of(ScalarType::I32);
    mad->result_types = {i32};
    Builder hb(*mad);
    hb.set_insertion_end(&mad->body);
    Value* a = hb.add_block_arg(mad->body, i32);
    Value* b = hb.add_block_arg(mad->body, i32);
    Value* p = hb.binary(OpKind::Mul, a, b, at(50));
    Value* a0 = hb.binary(OpKind::Add, a, hb.const_int(i32, 0, at(50)), at(50));
    hb.create(OpKind::Return, {hb.binary(OpKind::Add, p, a0, at(51))}, {}, at(51));
    ir::Function* two = m.add("two");
    Type f32 = Type::of(ScalarType::F32);
    two->result_types = {f32, f32};
    Builder tb(*two);
    tb.set_insertion_end(&two->body);
    Value* x = tb.add_block_arg(two->body, f32);
    Value* d = tb.binary(OpKind::Mul, x, tb.const_float(f32, 2.0, at(60)), at(60));
    Value* s = tb.binary(OpKind::Add, x, tb.const_float(f32, 1.0, at(60)), at(60));
    tb.create(OpKind::Return, {d, s}, {}, at(61));
  }

  Value* constant(ScalarType t) {
    Type ty = Type::of(t);
    if (ir::is_float(t)) {
      static const double kF[] = {0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 0.1, -7.25, 1e-3, 65536.0};
      double v = kF[pick_int(10)];
      if (t != ScalarType::F64) v = static_cast<double>(static_cast<float>(v));  // fp16/bf16: rounded by the IR
      return b_->const_float(ty, v, at(1));
    }
    static const int64_t kI[] = {0, 1, -1, 2, 3, 7, -8, 100, 127, -128, 255, 65535, INT32_MIN, INT64_MAX};
    int64_t v = coin(4) ? static_cast<int64_t>(rng_()) : kI[pick_int(14)];
    return b_->const_int(ty, v, at(1));
  }

  /// A visible value of scalar type t (sometimes a fresh constant).
  Value* pick(ScalarType t) {
    std::vector<Value*> c;
    for (auto& s : scopes_)
      for (Value* v : s)
        if (v->type == Type::of(t)) c.push_back(v);
    if (c.empty() || coin(4)) {
      Value* v = constant(t);
      scopes_.back().push_back(v);
      return v;
    }
    return c[pick_int(static_cast<int>(c.size()))];
  }
  void def(Value* v) { scopes_.back().push_back(v); }

  void store(Value* v) {
    if (v->type.is_bool()) v = b_->cast(v, ScalarType::I32, at(2));
    int ti = type_index(v->type.scalar);
    if (ti < 0 || next_slot_[ti] >= kSlots) return;
    Value* off = b_->const_int(Type::of(ScalarType::I32), next_slot_[ti]++, at(2));
    Value* p = b_->create(OpKind::AddPtr, {out_[ti], off}, {out_[ti]->type}, at(2))->result();
    b_->create(OpKind::Store, {p, v}, {}, at(2));
    ++stores;
  }

  void block(int n, int depth) {
    for (int i = 0; i < n; ++i) op(depth);
  }

  void op(int depth) {
    static const OpKind kIntOps[] = {OpKind::Add, OpKind::Sub, OpKind::Mul, OpKind::And, OpKind::Or, OpKind::Xor,
                                     OpKind::IDiv, OpKind::Rem, OpKind::Shl, OpKind::Shr, OpKind::Min, OpKind::Max};
    static const OpKind kFloatOps[] = {OpKind::Add, OpKind::Sub, OpKind::Mul, OpKind::Div};
    static const char* kPreds[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    int c = pick_int(depth < 2 ? 14 : 11);
    switch (c) {
      case 0: case 1: case 2: case 3: {
        ScalarType t = random_int_type();
        def(b_->binary(kIntOps[pick_int(12)], pick(t), pick(t), at(3)));
        break;
      }
      case 4: {
        ScalarType t = kTypes[5 + pick_int(4)];
        def(b_->binary(kFloatOps[pick_int(4)], pick(t), pick(t), at(4)));
        break;
      }
      case 5: {
        ScalarType t = random_type();
        def(b_->cmp(kPreds[pick_int(6)], pick(t), pick(t), at(5)));
        break;
      }
      case 6: {
        ScalarType t = random_type();
        Value* cond = coin(3) ? b_->const_int(Type::of(ScalarType::I1), pick_int(2), at(6)) : pick(ScalarType::I1);
        def(b_->select(cond, pick(t), coin(3) ? pick(t) : pick(t), at(6)));
        break;
      }
      case 7: {
        ScalarType from = coin(5) ? ScalarType::I1 : random_type();
        ScalarType to = coin(6) ? ScalarType::I1 : random_type();
        if (ir::is_float(from) && !ir::is_float(to)) break;  // float → int saturation: covered elsewhere
        if (from == to) break;
        def(b_->cast(pick(from), to, at(7)));
        break;
      }
      case 8: {
        if (coin(2)) {
          Op* call = b_->create(OpKind::Call, {pick(ScalarType::I32), pick(ScalarType::I32)},
                                {Type::of(ScalarType::I32)}, at(8), {{"callee", std::string("mad")}});
          def(call->result(0));
        } else {
          Type f32 = Type::of(ScalarType::F32);
          Op* call = b_->create(OpKind::Call, {pick(ScalarType::F32)}, {f32, f32}, at(8),
                                {{"callee", std::string("two")}});
          def(call->result(0));
          def(call->result(1));
        }
        break;
      }
      case 9: {
        ScalarType t = random_type();
        def(b_->unary(ir::is_float(t) || coin(2) ? OpKind::Neg : OpKind::Not, pick(t), at(9)));
        break;
      }
      case 10:
        store(pick(random_type()));
        break;
      case 11: case 12:
        gen_if(depth);
        break;
      case 13:
        gen_for(depth);
        break;
    }
  }

  void gen_if(int depth) {
    Value* cond = coin(2) ? b_->const_int(Type::of(ScalarType::I1), pick_int(2), at(10)) : pick(ScalarType::I1);
    std::vector<Type> types;
    for (int i = pick_int(3); i > 0; --i) types.push_back(Type::of(random_type()));
    Op* br = b_->create_if(cond, types, at(10));
    for (int r = 0; r < 2; ++r) {
      InsertionGuard g(*b_);
      b_->set_insertion_end(&br->body(r));
      scopes_.emplace_back();
      block(1 + pick_int(4), depth + 1);
      std::vector<Value*> ys;
      for (auto& t : types) ys.push_back(pick(t.scalar));
      b_->create(OpKind::Yield, ys, {}, at(11));
      scopes_.pop_back();
    }
    for (Value* r : br->results) def(r);
  }

  void gen_for(int depth) {
    Type i32 = Type::of(ScalarType::I32);
    Value* lb = b_->const_int(i32, pick_int(4), at(12));
    Value* ub = coin(2) ? b_->const_int(i32, pick_int(7), at(12))
                        : b_->binary(OpKind::And, pick(ScalarType::I32), b_->const_int(i32, 7, at(12)), at(12));
    Value* step = b_->const_int(i32, 1 + pick_int(2), at(12));
    std::vector<Value*> inits;
    for (int i = pick_int(3); i > 0; --i) inits.push_back(pick(random_type()));
    Op* loop = b_->create_for(lb, ub, step, inits, at(12));
    {
      InsertionGuard g(*b_);
      b_->set_insertion_end(&loop->body());
      scopes_.emplace_back(loop->body().args.begin(), loop->body().args.end());
      block(1 + pick_int(5), depth + 1);
      if (coin(2)) store(pick(random_type()));
      std::vector<Value*> ys;
      for (Value* v : inits) ys.push_back(pick(v->type.scalar));
      b_->create(OpKind::Yield, ys, {}, at(13));
      scopes_.pop_back();
    }
    for (Value* r : loop->results) def(r);
  }
};

/// Output buffers (one per type, kSlots elements of up to 8 bytes) poisoned with 0xA5.
struct Outputs {
  std::vector<std::vector<uint8_t>> bufs;
  Outputs() : bufs(kNumTypes, std::vector<uint8_t>(kSlots * 8, 0xA5)) {}
};

void run(const ir::Module& m, Outputs& out, const std::vector<tritium_arg>& scalars) {
  std::vector<tritium_arg> args;
  for (auto& b : out.bufs) {
    tritium_arg a;
    a.ptr = b.data();
    args.push_back(a);
  }
  args.insert(args.end(), scalars.begin(), scalars.end());
  interp::run(m, {1, 1, 1}, args);
}

std::vector<tritium_arg> random_inputs(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<tritium_arg> a(kNumTypes);
  auto nz = [&] {
    uint64_t x;
    do x = rng(); while ((x & 0xFF) == 0);
    return x;
  };
  a[0].i64 = static_cast<int8_t>(nz());
  a[1].i64 = static_cast<int32_t>(nz());
  a[2].i64 = static_cast<int64_t>(nz());
  a[3].u64 = static_cast<uint8_t>(nz());
  a[4].u64 = static_cast<uint32_t>(nz());
  a[5].u64 = 0;
  a[5].f32 = static_cast<float>(static_cast<int>(nz() % 2001) - 1000) / 16.0f + 0.03125f;
  a[6].f64 = static_cast<double>(static_cast<int>(nz() % 2001) - 1000) / 64.0 + 0.015625;
  static const uint16_t kF16[] = {0x3C00, 0xBE00, 0x4500, 0x3555, 0xC4D2};   // 1, -1.5, 5, ~1/3, ~-4.8
  static const uint16_t kBF16[] = {0x3F80, 0xC010, 0x4120, 0x3EAB, 0xBDCD};  // 1, -2.25, 10, ~1/3, ~-0.1
  a[7].u64 = kF16[nz() % 5];
  a[8].u64 = kBF16[nz() % 5];
  return a;
}

TEST(PassSemantics, PipelinePreservesResultsOfRandomPrograms) {
  int changed = 0, total_before = 0, total_after = 0, total_stores = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    Gen ref(seed), opt(seed);
    ASSERT_EQ(ir::print(ref.m), ir::print(opt.m)) << "generator is not deterministic";
    for (auto& f : ref.m.functions) ASSERT_TRUE(ir::verify(*f, &ref.m).empty()) << ir::print(*f);
    int before = count_all_ops(*ref.m.functions[0]);
    std::string before_text = ir::print(opt.m);
    run_pipeline(opt.m);
    int after = count_all_ops(*opt.m.functions[0]);
    total_before += before;
    total_after += after;
    total_stores += ref.stores;
    changed += before_text != ir::print(opt.m);
    for (uint64_t input = 0; input < 3; ++input) {
      auto scalars = random_inputs(seed * 1000 + input);
      Outputs a, b;
      run(ref.m, a, scalars);
      run(opt.m, b, scalars);
      for (int t = 0; t < kNumTypes; ++t)
        ASSERT_EQ(a.bufs[t], b.bufs[t]) << "seed " << seed << " input " << input << " type " << ir::name(kTypes[t])
                                        << "\nbefore:\n" << before_text << "\nafter:\n" << ir::print(opt.m);
    }
  }
  // The comparison is only meaningful if the passes did rewrite the programs and the
  // programs stored results.
  EXPECT_EQ(changed, 60);
  EXPECT_LT(total_after, total_before * 3 / 4) << total_before << " ops before, " << total_after << " after";
  EXPECT_GT(total_stores, 200);
}

}  // namespace
}  // namespace tritium::passes
