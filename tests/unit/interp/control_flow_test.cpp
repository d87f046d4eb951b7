// Interpreter: for / if / while / call, the grid (program_id, num_programs), assert, print,
// and refusals.
#include "frontend/source.h"
#include "interp_test_util.h"

namespace tritium::interp::testing {
namespace {

TEST(InterpControlFlow, ForLoopTripCountAndCarriedValues) {
  // out[0] = Σ_{i = lb; i < ub; i += 3} i·i ; out[1] = number of iterations.
  K k;
  Value* out = k.ptr_arg(ScalarType::I32);
  Value* lb = k.arg(Type::of(ScalarType::I32));
  Value* ub = k.arg(Type::of(ScalarType::I32));
  Op* loop = k.b.create_for(lb, ub, k.ci(ScalarType::I32, 3), {k.ci(ScalarType::I32, 0), k.ci(ScalarType::I32, 0)}, k.loc);
  {
    ir::InsertionGuard g(k.b);
    k.b.set_insertion_end(&loop->body());
    auto& a = loop->body().args;  // iv, sum, count
    Value* sq = k.bin(OpKind::Mul, a[0], a[0]);
    k.b.create(OpKind::Yield, {k.bin(OpKind::Add, a[1], sq), k.bin(OpKind::Add, a[2], k.ci(ScalarType::I32, 1))}, {},
               k.loc);
  }
  k.store(out, loop->result(0));
  k.store(k.addptr(out, k.ci(ScalarType::I32, 1)), loop->result(1));
  k.ret();
  for (auto [l, u] : std::vector<std::pair<int, int>>{{0, 10}, {-7, 8}, {5, 5}, {9, 2}, {-100, -99}}) {
    std::vector<int32_t> o(2);
    poison(o);
    run(k.m, {1, 1, 1}, {P(o.data()), I(l), I(u)});
    int32_t sum = 0, count = 0;
    for (int i = l; i < u; i += 3) sum += i * i, ++count;
    EXPECT_EQ(o[0], sum) << l << ".." << u;
    EXPECT_EQ(o[1], count) << l << ".." << u;
  }
}

TEST(InterpControlFlow, ForLoopWithTensorAccumulator) {
  // acc = zeros[64]; for i in range(0, 8): acc = acc·0.5 + x[i·64 + arange(64)]
  K k;
  Value* x = k.ptr_arg(ScalarType::F32);
  Value* out = k.ptr_arg(ScalarType::F32);
  Op* loop = k.b.create_for(k.ci(ScalarType::I32, 0), k.ci(ScalarType::I32, 8), k.ci(ScalarType::I32, 1),
                            {k.cf(ScalarType::F32, 0.0, {64})}, k.loc);
  {
    ir::InsertionGuard g(k.b);
    k.b.set_insertion_end(&loop->body());
    auto& a = loop->body().args;
    Value* base = k.b.splat(k.bin(OpKind::Mul, a[0], k.ci(ScalarType::I32, 64)), {64}, k.loc);
    Value* xv = k.load(k.addptr(x, k.bin(OpKind::Add, base, k.range(0, 64))));
    Value* scaled = k.bin(OpKind::Mul, a[1], k.cf(ScalarType::F32, 0.5, {64}));
    k.b.create(OpKind::Yield, {k.bin(OpKind::Add, scaled, xv)}, {}, k.loc);
  }
  k.store(k.addptr(out, k.range(0, 64)), loop->result(0));
  k.ret();
  std::vector<float> xs = random_floats(8 * 64, 81), o(64);
  poison(o);
  run(k.m, {1, 1, 1}, {P(xs.data()), P(o.data())});
  for (int j = 0; j < 64; ++j) {
    float acc = 0.0f;
    for (int i = 0; i < 8; ++i) {
      const float s = acc * 0.5f;  // two roundings, no contraction
      acc = s + xs[i * 64 + j];
    }
    ASSERT_EQ(fbits(o[j]), fbits(acc)) << j;
  }
}

TEST(InterpControlFlow, IfAndGrid3D) {
  // out[linear] = (pid_x even ? 2·v : v - 1) with v = pid_x + 10·pid_y + 100·pid_z + 1000·nx
  K k;
  Value* out = k.ptr_arg(ScalarType::I32);
  Value* px = k.pid(0);
  Value* py = k.pid(1);
  Value* pz = k.pid(2);
  auto np = [&](int axis) {
    return k.b.create(OpKind::NumPrograms, {}, {Type::of(ScalarType::I32)}, k.loc, {{"axis", int64_t(axis)}})->result();
  };
  Value* nx = np(0);
  Value* ny = np(1);
  auto c = [&](int64_t v) { return k.ci(ScalarType::I32, v); };
  Value* v = k.bin(OpKind::Add, k.bin(OpKind::Add, px, k.bin(OpKind::Mul, py, c(10))),
                   k.bin(OpKind::Add, k.bin(OpKind::Mul, pz, c(100)), k.bin(OpKind::Mul, nx, c(1000))));
  Value* even = k.cmp("eq", k.bin(OpKind::Rem, px, c(2)), c(0));
  Op* iff = k.b.create_if(even, {Type::of(ScalarType::I32)}, k.loc);
  {
    ir::InsertionGuard g(k.b);
    k.b.set_insertion_end(&iff->body(0));
    k.b.create(OpKind::Yield, {k.bin(OpKind::Mul, v, c(2))}, {}, k.loc);
    k.b.set_insertion_end(&iff->body(1));
    k.b.create(OpKind::Yield, {k.bin(OpKind::Sub, v, c(1))}, {}, k.loc);
  }
  Value* lin = k.bin(OpKind::Add, px, k.bin(OpKind::Mul, nx, k.bin(OpKind::Add, py, k.bin(OpKind::Mul, ny, pz))));
  k.store(k.addptr(out, lin), iff->result(0));
  k.ret();
  const int gx = 3, gy = 2, gz = 2;
  for (int threads : {1, 4}) {
    std::vector<int32_t> o(gx * gy * gz);
    poison(o);
    Options opt;
    opt.num_threads = threads;
    run(k.m, {gx, gy, gz}, {P(o.data())}, opt);
    for (int z = 0; z < gz; ++z)
      for (int y = 0; y < gy; ++y)
        for (int x = 0; x < gx; ++x) {
          const int v = x + 10 * y + 100 * z + 1000 * gx;
          ASSERT_EQ(o[x + gx * (y + gy * z)], x % 2 == 0 ? 2 * v : v - 1) << x << y << z << " threads " << threads;
        }
  }
}

TEST(InterpControlFlow, WhileLoopCollatzSteps) {
  K k;
  Value* in = k.ptr_arg(ScalarType::I64);
  Value* out = k.ptr_arg(ScalarType::I64);
  Value* p = k.pid(0);
  Value* n0 = k.load(k.addptr(in, p));
  const Type i64 = Type::of(ScalarType::I64);
  Op* w = k.b.create_while({n0, k.ci(ScalarType::I64, 0)}, {i64, i64}, k.loc);
  {
    ir::InsertionGuard g(k.b);
    k.b.set_insertion_end(&w->body(0));
    auto& a = w->body(0).args;
    Value* go = k.cmp("ne", a[0], k.ci(ScalarType::I64, 1));
    k.b.create(OpKind::Condition, {go, a[0], a[1]}, {}, k.loc);
    k.b.set_insertion_end(&w->body(1));
    auto& b = w->body(1).args;
    Value* odd = k.cmp("eq", k.bin(OpKind::Rem, b[0], k.ci(ScalarType::I64, 2)), k.ci(ScalarType::I64, 1));
    Value* up = k.bin(OpKind::Add, k.bin(OpKind::Mul, b[0], k.ci(ScalarType::I64, 3)), k.ci(ScalarType::I64, 1));
    Value* down = k.bin(OpKind::IDiv, b[0], k.ci(ScalarType::I64, 2));
    k.b.create(OpKind::Yield, {k.b.select(odd, up, down, k.loc), k.bin(OpKind::Add, b[1], k.ci(ScalarType::I64, 1))}, {},
               k.loc);
  }
  k.store(k.addptr(out, p), w->result(1));
  k.ret();
  std::vector<int64_t> ns = {1, 6, 27, 97}, o(4);
  poison(o);
  run(k.m, {4, 1, 1}, {P(ns.data()), P(o.data())});
  EXPECT_EQ(o, (std::vector<int64_t>{0, 8, 111, 118}));
}

TEST(InterpControlFlow, CallInterpretsTheCallee) {
  // @fma_like(x, y) = x·x + y on tensors; the kernel calls it twice.
  K k;
  ir::Function* helper = k.m.add("fma_like");
  {
    ir::Builder hb(*helper);
    hb.set_insertion_end(&helper->body);
    const Type t = Type::tensor(ScalarType::F32, {16});
    Value* x = hb.add_block_arg(helper->body, t);
    Value* y = hb.add_block_arg(helper->body, t);
    Value* r = hb.binary(OpKind::Add, hb.binary(OpKind::Mul, x, x, k.loc), y, k.loc);
    helper->result_types = {t};
    hb.create(OpKind::Return, {r}, {}, k.loc);
  }
  Value* xp = k.ptr_arg(ScalarType::F32);
  Value* op = k.ptr_arg(ScalarType::F32);
  Value* offs = k.range(0, 16);
  Value* x = k.load(k.addptr(xp, offs));
  const Type t = x->type;
  Value* c1 = k.b.create(OpKind::Call, {x, x}, {t}, k.loc, {{"callee", std::string("fma_like")}})->result();
  Value* c2 = k.b.create(OpKind::Call, {c1, x}, {t}, k.loc, {{"callee", std::string("fma_like")}})->result();
  k.store(k.addptr(op, offs), c2);
  k.ret();
  std::vector<float> xs = random_floats(16, 82), o(16);
  poison(o);
  run(k.m, {1, 1, 1}, {P(xs.data()), P(o.data())});
  for (int i = 0; i < 16; ++i) {
    const float sq = xs[i] * xs[i];
    const float a = sq + xs[i];
    const float sq2 = a * a;
    ASSERT_EQ(fbits(o[i]), fbits(sq2 + xs[i])) << i;
  }
}

void build_assert_kernel(K& k) {
  Value* x = k.ptr_arg(ScalarType::F32);
  Value* offs = k.block_offsets(4);
  Value* v = k.load(k.addptr(x, offs));
  Value* ok = k.cmp("gt", v, k.cf(ScalarType::F32, 0.0, {4}));
  k.b.create(OpKind::Assert, {ok}, {}, k.loc,
             {{"msg", std::string("x must be positive")}, {"file", std::string("test.py")}, {"line", int64_t(42)},
              {"func", std::string("kern")}});
  k.ret();
}

TEST(InterpDebug, AssertFailureNamesKernelLocationAndProgram) {
  K k;
  build_assert_kernel(k);
  std::vector<float> xs = {1, 2, 3, 4, 5, 6, -7, 8, -9, 1, 1, 1};
  try {
    run(k.m, {3, 1, 1}, {P(xs.data())});
    FAIL() << "expected a device_assert failure";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "device_assert failed: x must be positive at test.py:42 in kern, program (1, 0, 0)");
  }
  Options quiet;
  quiet.debug = false;
  EXPECT_NO_THROW(run(k.m, {3, 1, 1}, {P(xs.data())}, quiet));
  Options par;
  par.num_threads = 3;  // the lowest failing program is reported in parallel too
  EXPECT_THROW(
      {
        try {
          run(k.m, {3, 1, 1}, {P(xs.data())}, par);
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("program (1, 0, 0)"), std::string::npos) << e.what();
          throw;
        }
      },
      std::runtime_error);
}

TEST(InterpDebug, PrintFormatsLikeDevicePrint) {
  K k;
  Value* x = k.ptr_arg(ScalarType::F32);
  Value* v = k.load(k.addptr(x, k.range(0, 4)));
  Value* p = k.pid(0);
  k.b.create(OpKind::Print, {v}, {}, k.loc, {{"prefix", std::string(" x: ")}, {"hex", int64_t(0)}});
  k.b.create(OpKind::Print, {p, p}, {}, k.loc, {{"prefix", std::string(" p: ")}, {"hex", int64_t(1)}});
  k.b.create(OpKind::Print, {}, {}, k.loc, {{"prefix", std::string(" hello")}});
  k.ret();
  std::vector<float> xs = {1.5f, -2.0f, 0.25f, 3.0f};
  std::vector<std::string> lines;
  Options opt;
  opt.print = [&](const std::string& l) { lines.push_back(l); };
  run(k.m, {2, 1, 1}, {P(xs.data())}, opt);
  const std::vector<std::string> want = {
      "pid (0, 0, 0) idx (0) x: 1.500000", "pid (0, 0, 0) idx (1) x: -2.000000",
      "pid (0, 0, 0) idx (2) x: 0.250000", "pid (0, 0, 0) idx (3) x: 3.000000",
      "pid (0, 0, 0) idx () p: (operand 0) 0x00000000", "pid (0, 0, 0) idx () p: (operand 1) 0x00000000",
      "pid (0, 0, 0) hello",
  };
  ASSERT_EQ(lines.size(), 2 * want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(lines[i], want[i]);
  EXPECT_EQ(lines[want.size() + 4], "pid (1, 0, 0) idx () p: (operand 0) 0x00000001");
}

TEST(InterpRefusals, UnsupportedOpsAndBadLaunchesAreErrors) {
  {
    K k;  // exp on an integer tensor: a CompileError naming the op
    Value* x = k.ptr_arg(ScalarType::I32);
    Value* v = k.load(k.addptr(x, k.range(0, 4)));
    k.store(k.addptr(x, k.range(0, 4)), k.b.math(ir::MathFn::Exp, {v}, v->type, k.loc));
    k.ret();
    std::vector<int32_t> xs(4, 1);
    try {
      run(k.m, {1, 1, 1}, {P(xs.data())});
      FAIL() << "expected a CompileError";
    } catch (const frontend::CompileError& e) {
      EXPECT_NE(e.message().find("'math'"), std::string::npos) << e.message();
      EXPECT_NE(e.message().find("exp"), std::string::npos) << e.message();
    }
    EXPECT_EQ(xs, std::vector<int32_t>(4, 1)) << "nothing stored";
    EXPECT_THROW(run(k.m, {1, 1, 1}, {}), std::invalid_argument);  // wrong argument count
  }
  {
    K k;  // a loop whose step is zero at run time
    Value* step = k.arg(Type::of(ScalarType::I32));
    Op* loop = k.b.create_for(k.ci(ScalarType::I32, 0), k.ci(ScalarType::I32, 4), step, {}, k.loc);
    {
      ir::InsertionGuard g(k.b);
      k.b.set_insertion_end(&loop->body());
      k.b.create(OpKind::Yield, {}, {}, k.loc);
    }
    k.ret();
    EXPECT_THROW(run(k.m, {1, 1, 1}, {I(0)}), frontend::CompileError);
    EXPECT_NO_THROW(run(k.m, {1, 1, 1}, {I(2)}));
  }
}

}  // namespace
}  // namespace tritium::interp::testing
