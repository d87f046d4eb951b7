// CPU backend: masked loads with `other`, structured control flow (for with loop-carried
// tensor and scalar, if, while), program ids over a 3-D grid, atomics, device_assert.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <set>
#include <stdexcept>

#include "cpu_test_util.h"
#include "frontend/source.h"

namespace tritium::cputest {
namespace {

TEST(CpuControl, MaskedLoadWithOther) {
  // out[i] = i < n ? x[i] : -7.5 for the whole block (the store is unmasked).
  const int64_t block = 64;
  KernelBuilder k("masked_other");
  Value* x = k.ptr_param(ScalarType::F32);
  Value* out = k.ptr_param(ScalarType::F32);
  Value* n = k.param(Type::of(ScalarType::I32));
  auto [offs, mask] = k.block_offsets(block, n);
  Value* other = k.splat(k.const_of(Type::of(ScalarType::F32), -7.5), {block});
  Value* xv = k.load(k.ptrs(x, offs), mask, other);
  k.store(k.ptrs(out, offs), xv);
  k.ret();
  const int nvalid = 150;  // 2 full programs + 22 of the third
  std::mt19937 rng(21);
  std::vector<float> xs(nvalid), res(3 * block, NAN);  // x is only nvalid long: masked lanes must not read it
  for (auto& v : xs) v = rand_nonzero(rng, -5, 5);
  auto kernel = compile(k.module);
  kernel->launch({3, 1, 1}, {arg_ptr(xs.data()), arg_ptr(res.data()), arg_i64(nvalid)});
  for (int i = 0; i < 3 * block; ++i) ASSERT_EQ(res[i], i < nvalid ? xs[i] : -7.5f) << i;
}

TEST(CpuControl, WrappingOffsetsKeepInt32Semantics) {
  // offs = s + arange(64) wraps past INT32_MAX for s = INT32_MAX - 10: lane 10 has offs = MAX
  // (not < n = MAX), lanes 11.. wrap negative (< n again). out[i] = load(x + (offs - s), offs < n, -1)
  const int64_t block = 64;
  KernelBuilder k("wrapping");
  Value* x = k.ptr_param(ScalarType::F32);
  Value* out = k.ptr_param(ScalarType::F32);
  Value* s = k.param(Type::of(ScalarType::I32));
  Value* n = k.param(Type::of(ScalarType::I32));
  Value* offs = k.bin(OpKind::Add, k.splat(s, {block}), k.range(block));
  Value* mask = k.b.cmp("lt", offs, k.splat(n, {block}), k.loc);
  Value* rel = k.bin(OpKind::Sub, offs, k.splat(s, {block}));
  Value* other = k.splat(k.const_of(Type::of(ScalarType::F32), -1.0), {block});
  k.store(k.ptrs(out, k.range(block)), k.load(k.ptrs(x, rel), mask, other));
  k.ret();
  std::mt19937 rng(24);
  std::vector<float> xs(block), res(block, NAN);
  for (auto& v : xs) v = rand_nonzero(rng, 1, 2);
  auto kernel = compile(k.module);
  kernel->launch({1, 1, 1}, {arg_ptr(xs.data()), arg_ptr(res.data()), arg_i64(INT32_MAX - 10), arg_i64(INT32_MAX)});
  for (int i = 0; i < block; ++i) ASSERT_EQ(res[i], i == 10 ? -1.0f : xs[i]) << i;
  // Without wrapping (s = 5, n = 40) the contiguous path must agree too.
  std::fill(res.begin(), res.end(), NAN);
  kernel->launch({1, 1, 1}, {arg_ptr(xs.data()), arg_ptr(res.data()), arg_i64(5), arg_i64(40)});
  for (int i = 0; i < block; ++i) ASSERT_EQ(res[i], i + 5 < 40 ? xs[i] : -1.0f) << i;
}

TEST(CpuControl, TwoDimensionalMaskedTiles) {
  // A 20 x 40 matrix (row stride 50) in 16 x 32 tiles: out = load(x, (rm < M) & (rn < N), 0.5) + 2,
  // stored with the same mask into a 20 x 40 output (row stride 45).
  const int64_t BM = 16, BN = 32, M = 20, N = 40, SX = 50, SO = 45;
  KernelBuilder k("tiles");
  Value* x = k.ptr_param(ScalarType::F32);
  Value* out = k.ptr_param(ScalarType::F32);
  Value* m = k.param(Type::of(ScalarType::I32));
  Value* nn = k.param(Type::of(ScalarType::I32));
  Value* sx = k.param(Type::of(ScalarType::I32));
  Value* so = k.param(Type::of(ScalarType::I32));
  Value* rm = k.bin(OpKind::Add, k.splat(k.bin(OpKind::Mul, k.pid(0), k.i32(BM)), {BM}), k.range(BM));
  Value* rn = k.bin(OpKind::Add, k.splat(k.bin(OpKind::Mul, k.pid(1), k.i32(BN)), {BN}), k.range(BN));
  Value* rm2 = k.b.expand_dims(rm, 1, k.loc);
  Value* rn2 = k.b.expand_dims(rn, 0, k.loc);
  auto offs = [&](Value* stride) {
    Value* rows = k.b.broadcast(k.bin(OpKind::Mul, rm2, k.splat(stride, {BM, 1})), {BM, BN}, k.loc);
    return k.bin(OpKind::Add, rows, k.b.broadcast(rn2, {BM, BN}, k.loc));
  };
  Value* mrow = k.b.broadcast(k.b.cmp("lt", rm2, k.splat(m, {BM, 1}), k.loc), {BM, BN}, k.loc);
  Value* mcol = k.b.broadcast(k.b.cmp("lt", rn2, k.splat(nn, {1, BN}), k.loc), {BM, BN}, k.loc);
  Value* mask = k.bin(OpKind::And, mrow, mcol);
  Value* other = k.splat(k.const_of(Type::of(ScalarType::F32), 0.5), {BM, BN});
  Value* v = k.load(k.ptrs(x, offs(sx)), mask, other);
  Value* two = k.splat(k.const_of(Type::of(ScalarType::F32), 2.0), {BM, BN});
  k.store(k.ptrs(out, offs(so)), k.bin(OpKind::Add, v, two), mask);
  k.ret();
  std::mt19937 rng(25);
  std::vector<float> xs(M * SX), res(M * SO, NAN);
  for (auto& val : xs) val = rand_nonzero(rng, -4, 4);
  auto kernel = compile(k.module);
  kernel->launch({2, 2, 1}, {arg_ptr(xs.data()), arg_ptr(res.data()), arg_i64(M), arg_i64(N), arg_i64(SX), arg_i64(SO)});
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < SO; ++j) {
      float got = res[i * SO + j];
      if (j < N) ASSERT_EQ(got, xs[i * SX + j] + 2.0f) << i << "," << j;
      else ASSERT_TRUE(std::isnan(got)) << "written outside the mask at " << i << "," << j;
    }
}

TEST(CpuControl, ForLoopCarriesTensorAndScalar) {
  // acc = 0; cnt = 0; for t in range(0, T): acc = acc * 0.5 + x[t, :]; cnt = cnt + t
  // out[:] = acc; out_cnt = cnt
  const int64_t block = 32, T = 7;
  KernelBuilder k("for_loop");
  Value* x = k.ptr_param(ScalarType::F32);
  Value* out = k.ptr_param(ScalarType::F32);
  Value* out_cnt = k.ptr_param(ScalarType::I32);
  Value* acc0 = k.splat(k.const_of(Type::of(ScalarType::F32), 0.0), {block});
  Value* cnt0 = k.i32(0);
  ir::Op* loop = k.b.create_for(k.i32(0), k.i32(T), k.i32(1), {acc0, cnt0}, k.loc);
  {
    ir::InsertionGuard g(k.b);
    k.b.set_insertion_end(&loop->body());
    Value* t = loop->body().args[0];
    Value* acc = loop->body().args[1];
    Value* cnt = loop->body().args[2];
    Value* row = k.bin(OpKind::Mul, t, k.i32(block));
    Value* offs = k.bin(OpKind::Add, k.splat(row, {block}), k.range(block));
    Value* xv = k.load(k.ptrs(x, offs));
    Value* half = k.splat(k.const_of(Type::of(ScalarType::F32), 0.5), {block});
    Value* next = k.bin(OpKind::Add, k.bin(OpKind::Mul, acc, half), xv);
    k.b.create(OpKind::Yield, {next, k.bin(OpKind::Add, cnt, t)}, {}, k.loc);
  }
  k.store(k.ptrs(out, k.range(block)), loop->result(0));
  k.store(out_cnt, loop->result(1));
  k.ret();
  std::mt19937 rng(22);
  std::vector<float> xs(T * block), res(block, NAN);
  std::vector<int32_t> cnt(1, -1);
  for (auto& v : xs) v = rand_nonzero(rng, -3, 3);
  auto kernel = compile(k.module);
  kernel->launch({1, 1, 1}, {arg_ptr(xs.data()), arg_ptr(res.data()), arg_ptr(cnt.data())});
  for (int64_t j = 0; j < block; ++j) {
    float acc = 0;  // each step rounds once in fp32, as the kernel does
    for (int64_t t = 0; t < T; ++t) acc = acc * 0.5f + xs[t * block + j];
    ASSERT_EQ(bits_of(res[j]), bits_of(acc)) << j;
  }
  EXPECT_EQ(cnt[0], 0 + 1 + 2 + 3 + 4 + 5 + 6);
}

TEST(CpuControl, ForLoopSwapsCarriedTensors) {
  // (a, b) = (x, y); for _ in range(3): (a, b) = (b, a + b)  — yields read the carried storage.
  const int64_t block = 16;
  KernelBuilder k("swap");
  Value* x = k.ptr_param(ScalarType::I32);
  Value* out = k.ptr_param(ScalarType::I32);
  Value* xv = k.load(k.ptrs(x, k.range(block)));
  Value* yv = k.bin(OpKind::Mul, xv, k.splat(k.i32(3), {block}));
  ir::Op* loop = k.b.create_for(k.i32(0), k.i32(3), k.i32(1), {xv, yv}, k.loc);
  {
    ir::InsertionGuard g(k.b);
    k.b.set_insertion_end(&loop->body());
    Value* a = loop->body().args[1];
    Value* b = loop->body().args[2];
    k.b.create(OpKind::Yield, {b, k.bin(OpKind::Add, a, b)}, {}, k.loc);
  }
  k.store(k.ptrs(out, k.range(block)), loop->result(0));
  k.ret();
  std::vector<int32_t> xs(block), res(block, 0);
  for (int i = 0; i < block; ++i) xs[i] = i * 7 - 40;
  auto kernel = compile(k.module);
  kernel->launch({1, 1, 1}, {arg_ptr(xs.data()), arg_ptr(res.data())});
  for (int i = 0; i < block; ++i) {
    int32_t a = xs[i], b = 3 * xs[i];
    for (int t = 0; t < 3; ++t) {
      int32_t nb = a + b;
      a = b;
      b = nb;
    }
    ASSERT_EQ(res[i], a) << i;
  }
}

TEST(CpuControl, IfOnProgramIdAndWhileLoop) {
  // v = pid % 2 == 0 ? x * 2 : x - 1   (a tensor yielded by if)
  // s = pid + 1; while s < 100: s = s * 3 + 1     (a scalar while)
  // out[pid, :] = v + s
  const int64_t block = 8;
  KernelBuilder k("if_while");
  Value* x = k.ptr_param(ScalarType::F32);
  Value* out = k.ptr_param(ScalarType::F32);
  Value* pid = k.pid();
  Value* offs = k.bin(OpKind::Add, k.splat(k.bin(OpKind::Mul, pid, k.i32(block)), {block}), k.range(block));
  Value* xv = k.load(k.ptrs(x, offs));
  Value* even = k.b.cmp("eq", k.bin(OpKind::Rem, pid, k.i32(2)), k.i32(0), k.loc);
  Type tt = Type::tensor(ScalarType::F32, {block});
  ir::Op* iff = k.b.create_if(even, {tt}, k.loc);
  {
    ir::InsertionGuard g(k.b);
    k.b.set_insertion_end(&iff->body(0));
    Value* two = k.splat(k.const_of(Type::of(ScalarType::F32), 2.0), {block});
    k.b.create(OpKind::Yield, {k.bin(OpKind::Mul, xv, two)}, {}, k.loc);
    k.b.set_insertion_end(&iff->body(1));
    Value* one = k.splat(k.const_of(Type::of(ScalarType::F32), 1.0), {block});
    k.b.create(OpKind::Yield, {k.bin(OpKind::Sub, xv, one)}, {}, k.loc);
  }
  Type i32 = Type::of(ScalarType::I32);
  ir::Op* wh = k.b.create_while({k.bin(OpKind::Add, pid, k.i32(1))}, {i32}, k.loc);
  {
    ir::InsertionGuard g(k.b);
    k.b.set_insertion_end(&wh->body(0));
    Value* s = wh->body(0).args[0];
    Value* c = k.b.cmp("lt", s, k.i32(100), k.loc);
    k.b.create(OpKind::Condition, {c, s}, {}, k.loc);
    k.b.set_insertion_end(&wh->body(1));
    Value* s2 = wh->body(1).args[0];
    k.b.create(OpKind::Yield, {k.bin(OpKind::Add, k.bin(OpKind::Mul, s2, k.i32(3)), k.i32(1))}, {}, k.loc);
  }
  Value* sf = k.b.cast(wh->result(0), ScalarType::F32, k.loc);
  k.store(k.ptrs(out, offs), k.bin(OpKind::Add, iff->result(0), k.splat(sf, {block})));
  k.ret();
  const int progs = 5;
  std::mt19937 rng(23);
  std::vector<float> xs(progs * block), res(progs * block, NAN);
  for (auto& v : xs) v = rand_nonzero(rng, -3, 3);
  auto kernel = compile(k.module);
  kernel->launch({progs, 1, 1}, {arg_ptr(xs.data()), arg_ptr(res.data())});
  for (int p = 0; p < progs; ++p) {
    int s = p + 1;
    while (s < 100) s = s * 3 + 1;
    for (int j = 0; j < block; ++j) {
      float xv = xs[p * block + j];
      float v = p % 2 == 0 ? xv * 2.0f : xv - 1.0f;
      ASSERT_EQ(bits_of(res[p * block + j]), bits_of(v + static_cast<float>(s))) << p << "," << j;
    }
  }
}

TEST(CpuControl, ThreeDimensionalGridProgramIds) {
  // out[linear] = pid_x + 1000 * pid_y + 1000000 * pid_z + 7 * num_programs(0..2) checksum
  KernelBuilder k("grid3d");
  Value* out = k.ptr_param(ScalarType::I32);
  Value* px = k.pid(0);
  Value* py = k.pid(1);
  Value* pz = k.pid(2);
  auto nprog = [&](int axis) {
    return k.b.create(OpKind::NumPrograms, {}, {Type::of(ScalarType::I32)}, k.loc, {{"axis", int64_t{axis}}})->result();
  };
  Value* gx = nprog(0);
  Value* gy = nprog(1);
  Value* lin = k.bin(OpKind::Add, px, k.bin(OpKind::Mul, gx, k.bin(OpKind::Add, py, k.bin(OpKind::Mul, gy, pz))));
  Value* code = k.bin(OpKind::Add, px, k.bin(OpKind::Add, k.bin(OpKind::Mul, py, k.i32(1000)),
                                             k.bin(OpKind::Mul, pz, k.i32(1000000))));
  Value* check = k.bin(OpKind::Mul, k.bin(OpKind::Add, gx, k.bin(OpKind::Add, gy, nprog(2))), k.i32(7));
  k.store(k.addptr(out, lin), k.bin(OpKind::Add, code, check));
  k.ret();
  const int GX = 37, GY = 5, GZ = 3;
  std::vector<int32_t> res(GX * GY * GZ, -1);
  auto kernel = compile(k.module);
  kernel->launch({GX, GY, GZ}, {arg_ptr(res.data())});
  for (int z = 0; z < GZ; ++z)
    for (int y = 0; y < GY; ++y)
      for (int x = 0; x < GX; ++x)
        ASSERT_EQ(res[x + GX * (y + GY * z)], x + 1000 * y + 1000000 * z + 7 * (GX + GY + GZ)) << x << "," << y << "," << z;
}

TEST(CpuControl, AtomicAddFromEveryProgram) {
  // counter += 1 and total += pid from every program, with parallel programs.
  KernelBuilder k("atomics");
  Value* ctr = k.ptr_param(ScalarType::I32);
  Value* old_out = k.ptr_param(ScalarType::I32);
  Value* pid = k.pid();
  Value* old = k.b.create(OpKind::AtomicRMW, {ctr, k.i32(1)}, {Type::of(ScalarType::I32)}, k.loc,
                          {{"rmw", std::string("add")}})->result();
  k.b.create(OpKind::AtomicRMW, {k.addptr(ctr, k.i32(1)), pid}, {Type::of(ScalarType::I32)}, k.loc,
             {{"rmw", std::string("add")}});
  k.store(k.addptr(old_out, pid), old);
  k.ret();
  const int progs = 2000;
  std::vector<int32_t> counters(2, 0), olds(progs, -1);
  auto kernel = compile(k.module);
  kernel->launch({progs, 1, 1}, {arg_ptr(counters.data()), arg_ptr(olds.data())});
  EXPECT_EQ(counters[0], progs);
  EXPECT_EQ(counters[1], progs * (progs - 1) / 2);
  std::set<int32_t> seen(olds.begin(), olds.end());  // every old value 0..progs-1 exactly once
  EXPECT_EQ(seen.size(), static_cast<size_t>(progs));
  EXPECT_EQ(*seen.begin(), 0);
  EXPECT_EQ(*seen.rbegin(), progs - 1);
}

TEST(CpuControl, TensorAtomicsAndCompareAndSwap) {
  // Every program p: fadd 16 exactly representable floats into total[0] (order-independent
  // exact sum), atomic max/min of its lane values into int32 and fp32 cells, and one
  // compare-and-swap on a lock (only the first swap from 0 succeeds).
  const int64_t block = 16;
  KernelBuilder k("atomics2");
  Value* fcell = k.ptr_param(ScalarType::F32);  // [0] sum, [1] max, [2] min
  Value* icell = k.ptr_param(ScalarType::I32);  // [0] max, [1] min, [2] lock
  Value* olds = k.ptr_param(ScalarType::I32);   // CAS result per program
  Value* pid = k.pid();
  Value* lane = k.range(block);
  Value* iv = k.bin(OpKind::Sub, k.bin(OpKind::Mul, k.splat(pid, {block}), lane), k.splat(k.i32(100), {block}));
  Value* fv = k.b.cast(iv, ScalarType::F32, k.loc);
  Value* mask = k.b.cmp("ne", lane, k.splat(k.i32(5), {block}), k.loc);  // lane 5 never participates
  auto rmw = [&](const char* what, Value* p, Value* v) {
    return k.b.create(OpKind::AtomicRMW, {k.splat(p, {block}), v, mask}, {v->type}, k.loc, {{"rmw", std::string(what)}})->result();
  };
  rmw("fadd", fcell, fv);
  rmw("max", k.addptr(fcell, k.i32(1)), fv);
  rmw("min", k.addptr(fcell, k.i32(2)), fv);
  rmw("max", icell, iv);
  rmw("min", k.addptr(icell, k.i32(1)), iv);
  Value* lock = k.addptr(icell, k.i32(2));
  Value* old = k.b.create(OpKind::AtomicCAS, {lock, k.i32(0), k.bin(OpKind::Add, pid, k.i32(1))},
                          {Type::of(ScalarType::I32)}, k.loc)->result();
  k.store(k.addptr(olds, pid), old);
  k.ret();
  const int progs = 64;
  std::vector<float> fc = {0.0f, -1e30f, 1e30f};
  std::vector<int32_t> ic = {INT32_MIN, INT32_MAX, 0}, o(progs, -7);
  auto kernel = compile(k.module);
  kernel->launch({progs, 1, 1}, {arg_ptr(fc.data()), arg_ptr(ic.data()), arg_ptr(o.data())});
  double sum = 0;
  int32_t mx = INT32_MIN, mn = INT32_MAX;
  for (int p = 0; p < progs; ++p)
    for (int l = 0; l < block; ++l) {
      if (l == 5) continue;
      int32_t v = p * l - 100;
      sum += v;
      mx = std::max(mx, v);
      mn = std::min(mn, v);
    }
  EXPECT_EQ(fc[0], static_cast<float>(sum));  // every partial sum is an integer below 2^24: exact
  EXPECT_EQ(fc[1], static_cast<float>(mx));
  EXPECT_EQ(fc[2], static_cast<float>(mn));
  EXPECT_EQ(ic[0], mx);
  EXPECT_EQ(ic[1], mn);
  int winners = 0;
  for (int p = 0; p < progs; ++p) {
    if (o[p] == 0) {
      ++winners;
      EXPECT_EQ(ic[2], p + 1);  // the winner's value is in the lock
    } else {
      EXPECT_EQ(o[p], ic[2]);  // everyone else saw the winner's value
    }
  }
  EXPECT_EQ(winners, 1);
}

TEST(CpuControl, DeviceAssertOnATensorCondition) {
  // assert x[0:8] < limit for every lane (debug build)
  KernelBuilder k("checked_tensor");
  Value* x = k.ptr_param(ScalarType::F32);
  Value* limit = k.param(Type::of(ScalarType::F32));
  Value* v = k.load(k.ptrs(x, k.range(8)));
  k.b.create(OpKind::Assert, {k.b.cmp("lt", v, k.splat(limit, {8}), k.loc)}, {}, k.loc,
             {{"msg", std::string("too big")}, {"file", std::string("t.py")}, {"line", int64_t{7}}});
  k.ret();
  runtime::CodegenOptions dbg;
  dbg.debug = true;
  auto kernel = compile(k.module, dbg);
  std::vector<float> xs = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_NO_THROW(kernel->launch({1, 1, 1}, {arg_ptr(xs.data()), arg_f32(9.0f)}));
  try {
    kernel->launch({1, 1, 1}, {arg_ptr(xs.data()), arg_f32(8.0f)});  // the last lane fails
    FAIL() << "expected the launch to raise";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "device_assert failed: too big at t.py:7 in checked_tensor, program (0, 0, 0)");
  }
}

TEST(CpuControl, DeviceAssertRaisesAfterLaunch) {
  // assert x[pid] >= 0 (active in debug builds only)
  KernelBuilder k("checked");
  Value* x = k.ptr_param(ScalarType::I32);
  Value* v = k.load(k.addptr(x, k.pid()));
  Value* ok = k.b.cmp("ge", v, k.i32(0), k.loc);
  k.b.create(OpKind::Assert, {ok}, {}, k.loc,
             {{"msg", std::string("x must be non-negative")}, {"file", std::string("kern.py")},
              {"func", std::string("checked")}, {"line", int64_t{42}}});
  k.ret();
  std::vector<int32_t> xs = {0, 1, 2, -3, 4, -5, 6};
  runtime::CodegenOptions dbg;
  dbg.debug = true;
  auto kernel = compile(k.module, dbg);
  for (int rep = 0; rep < 3; ++rep) {  // the lowest failing program is reported, every time
    try {
      kernel->launch({7, 1, 1}, {arg_ptr(xs.data())});
      FAIL() << "expected the launch to raise";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "device_assert failed: x must be non-negative at kern.py:42 in checked, program (3, 0, 0)");
    }
  }
  xs[3] = 3;
  xs[5] = 5;
  EXPECT_NO_THROW(kernel->launch({7, 1, 1}, {arg_ptr(xs.data())}));
  xs[3] = -3;  // without debug the assert is not compiled in
  auto quiet = compile(k.module);
  EXPECT_NO_THROW(quiet->launch({7, 1, 1}, {arg_ptr(xs.data())}));
}

TEST(CpuControl, UnsupportedOpIsACompileErrorWithLocation) {
  auto src = frontend::Source::from_string("def k():\n    helper()\n", "kern.py");
  KernelBuilder k("calls");
  k.loc = src->loc_at(13);  // the call on line 2
  k.b.create(OpKind::Call, {}, {}, k.loc, {{"callee", std::string("helper")}});
  k.ret();
  k.module.add("helper");
  k.module.functions.back()->body.ops.clear();
  try {
    cpu_device().compile(k.module, {});
    FAIL() << "expected a CompileError";
  } catch (const frontend::CompileError& e) {
    EXPECT_NE(e.message().find("cpu backend: call not supported"), std::string::npos) << e.what();
    EXPECT_EQ(e.loc().line, 2u);
    EXPECT_NE(std::string(e.what()).find("kern.py:2:"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tritium::cputest
