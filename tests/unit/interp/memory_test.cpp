// Interpreter: masked loads/stores with `other`, poison mode, scalar memory ops, atomics.
#include <cmath>
#include <cstring>

#include "interp_test_util.h"

namespace tritium::interp::testing {
namespace {

// kernel(x*, out*, n): offs = pid·B + arange(B); m = offs < n;
//   out[offs] = load(x + offs, m [, other]) stored under `store_mask` (m, or all lanes).
void build_masked_copy(K& k, int64_t block, ScalarType t, bool with_other, double other, bool mask_store) {
  Value* x = k.ptr_arg(t);
  Value* out = k.ptr_arg(t);
  Value* n = k.arg(Type::of(ScalarType::I32));
  Value* offs = k.block_offsets(block);
  Value* m = k.cmp("lt", offs, k.b.splat(n, {block}, k.loc));
  Value* oth = with_other ? k.cf(t, other, {block}) : nullptr;
  Value* v = k.load(k.addptr(x, offs), m, oth);
  k.store(k.addptr(out, offs), v, mask_store ? m : nullptr);
  k.ret();
}

TEST(InterpMemory, MaskedLoadUsesOtherAndMaskedStoreSkipsLanes) {
  const int64_t n = 1000, block = 256, padded = 1024;
  std::vector<float> x = random_floats(n, 21);
  x.resize(padded, 1234.0f);  // beyond n: must never be read into the result
  std::vector<float> out(padded);
  poison(out);
  const float sentinel = out[0];
  K k;
  build_masked_copy(k, block, ScalarType::F32, true, -7.5, true);
  run(k.m, {4, 1, 1}, {P(x.data()), P(out.data()), I(n)});
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], x[i]) << i;
  for (int64_t i = n; i < padded; ++i) ASSERT_EQ(fbits(out[i]), fbits(sentinel)) << "masked store wrote " << i;

  // Unmasked store of a masked load: lanes past n get `other`.
  std::vector<float> out2(padded);
  poison(out2);
  K k2;
  build_masked_copy(k2, block, ScalarType::F32, true, -7.5, false);
  run(k2.m, {4, 1, 1}, {P(x.data()), P(out2.data()), I(n)});
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out2[i], x[i]);
  for (int64_t i = n; i < padded; ++i) ASSERT_EQ(out2[i], -7.5f) << i;
}

TEST(InterpMemory, MaskedLoadWithoutOtherIsZeroOrPoison) {
  const int64_t n = 100, block = 128;
  std::vector<int32_t> x(block);
  for (int64_t i = 0; i < block; ++i) x[i] = static_cast<int32_t>(i * 7 + 1);
  K k;
  build_masked_copy(k, block, ScalarType::I32, false, 0, false);
  std::vector<int32_t> out(block);
  poison(out);
  run(k.m, {1, 1, 1}, {P(x.data()), P(out.data()), I(n)});
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], x[i]);
  for (int64_t i = n; i < block; ++i) ASSERT_EQ(out[i], 0) << i;
  Options opt;
  opt.poison_masked_loads = true;
  poison(out);
  run(k.m, {1, 1, 1}, {P(x.data()), P(out.data()), I(n)}, opt);
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], x[i]);
  for (int64_t i = n; i < block; ++i) ASSERT_EQ(static_cast<uint32_t>(out[i]), 0xDEADBEEFu) << i;
  // Float poison is a NaN.
  std::vector<float> fx(block, 1.0f), fo(block);
  K kf;
  build_masked_copy(kf, block, ScalarType::F32, false, 0, false);
  run(kf.m, {1, 1, 1}, {P(fx.data()), P(fo.data()), I(n)}, opt);
  EXPECT_EQ(fo[n - 1], 1.0f);
  EXPECT_TRUE(std::isnan(fo[n]));
  EXPECT_EQ(fbits(fo[n]), poison_bits(ScalarType::F32));
  EXPECT_TRUE(std::isnan(from_fbits(static_cast<uint32_t>(poison_bits(ScalarType::F32)))));
}

TEST(InterpMemory, ScalarLoadStoreAndInt1) {
  // kernel(x*, flags*, out*): out[pid] = flags[pid] ? x[pid] * 2 : -1   (scalar ops only)
  K k;
  Value* x = k.ptr_arg(ScalarType::I64);
  Value* flags = k.ptr_arg(ScalarType::I1);
  Value* out = k.ptr_arg(ScalarType::I64);
  Value* p = k.pid(0);
  Value* xv = k.load(k.addptr(x, p));
  Value* f = k.load(k.addptr(flags, p));
  Value* twice = k.bin(OpKind::Mul, xv, k.ci(ScalarType::I64, 2));
  k.store(k.addptr(out, p), k.b.select(f, twice, k.ci(ScalarType::I64, -1), k.loc));
  k.ret();
  std::vector<int64_t> xs = {5, -3, int64_t(1) << 40, 9};
  std::vector<uint8_t> fl = {1, 0, 2, 1};  // 2: any non-zero byte reads as true
  std::vector<int64_t> o(4);
  poison(o);
  run(k.m, {4, 1, 1}, {P(xs.data()), P(fl.data()), P(o.data())});
  EXPECT_EQ(o, (std::vector<int64_t>{10, -1, int64_t(1) << 41, 18}));
}

TEST(InterpMemory, AtomicAddAndCas) {
  // 8 programs each atomically add (pid + 1) to counter[0] and CAS counter[1] from pid to pid+1.
  K k;
  Value* c = k.ptr_arg(ScalarType::I32);
  Value* olds = k.ptr_arg(ScalarType::I32);
  Value* p = k.pid(0);
  Value* one = k.ci(ScalarType::I32, 1);
  Value* inc = k.bin(OpKind::Add, p, one);
  Value* old = k.b.create(OpKind::AtomicRMW, {c, inc}, {Type::of(ScalarType::I32)}, k.loc, {{"rmw", std::string("add")}})->result();
  k.store(k.addptr(olds, p), old);
  Value* c1 = k.addptr(c, one);
  k.b.create(OpKind::AtomicCAS, {c1, p, inc}, {Type::of(ScalarType::I32)}, k.loc);
  k.ret();
  std::vector<int32_t> counter = {100, 0}, o(8);
  for (int threads : {1, 3}) {
    counter = {100, 0};
    poison(o);
    Options opt;
    opt.num_threads = threads;
    run(k.m, {8, 1, 1}, {P(counter.data()), P(o.data())}, opt);
    EXPECT_EQ(counter[0], 100 + 36);
    if (threads == 1) {
      EXPECT_EQ(counter[1], 8);  // programs in order: every CAS succeeds
      EXPECT_EQ(o, (std::vector<int32_t>{100, 101, 103, 106, 110, 115, 121, 128}));
    }
  }
}

TEST(InterpMemory, AtomicFaddFp16AndMaskedLanes) {
  // A 4-lane fadd on fp16 where lanes 0 and 2 hit the same address (applied in lane order);
  // lane 3 is masked off.
  K k;
  Value* base = k.ptr_arg(ScalarType::F16);
  Value* vals = k.ptr_arg(ScalarType::F16);
  Value* olds = k.ptr_arg(ScalarType::F16);
  Value* r = k.range(0, 4);
  Value* idx = k.bin(OpKind::Rem, r, k.ci(ScalarType::I32, 2, {4}));  // 0 1 0 1
  Value* m = k.cmp("lt", r, k.ci(ScalarType::I32, 3, {4}));
  Value* v = k.load(k.addptr(vals, r));
  Value* old = k.b.create(OpKind::AtomicRMW, {k.addptr(base, idx), v, m}, {Type::tensor(ScalarType::F16, {4})}, k.loc,
                          {{"rmw", std::string("fadd")}})->result();
  k.store(k.addptr(olds, r), old);
  k.ret();
  std::vector<uint16_t> mem = {0x3C00, 0x4000};            // 1.0, 2.0
  std::vector<uint16_t> add = {0x3C00, 0x1400, 0x3800, 0x4400};  // 1.0, 2^-10, 0.5, 4.0
  std::vector<uint16_t> o(4);
  poison(o);
  run(k.m, {1, 1, 1}, {P(mem.data()), P(add.data()), P(o.data())});
  EXPECT_EQ(mem[0], 0x4100);  // 1 + 1 + 0.5 = 2.5
  EXPECT_EQ(mem[1], 0x4000);  // 2 + 2^-10 rounds back to 2 (ulp at 2 is 2^-9: tie → even)
  EXPECT_EQ(o[0], 0x3C00);
  EXPECT_EQ(o[1], 0x4000);
  EXPECT_EQ(o[2], 0x4000);  // lane 2 sees lane 0's update
  EXPECT_EQ(o[3], 0);       // masked lane: 0
}

}  // namespace
}  // namespace tritium::interp::testing
