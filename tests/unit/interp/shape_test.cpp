// Interpreter: shape ops (2-D loads via broadcast offsets, trans, reshape, join/split, cat)
// against index arithmetic written out in the test.
#include "interp_test_util.h"

namespace tritium::interp::testing {
namespace {

// Offsets r[:, None] * cols + c[None, :] for an R×C row-major tile.
Value* tile_offsets(K& k, int64_t rows, int64_t cols) {
  Value* r = k.b.expand_dims(k.range(0, rows), 1, k.loc);  // [R,1]
  Value* c = k.b.expand_dims(k.range(0, cols), 0, k.loc);  // [1,C]
  Value* rs = k.bin(OpKind::Mul, r, k.ci(ScalarType::I32, cols, {rows, 1}));
  return k.bin(OpKind::Add, k.b.broadcast(rs, {rows, cols}, k.loc), k.b.broadcast(c, {rows, cols}, k.loc));
}

TEST(InterpShape, TransposeOfATile) {
  const int64_t R = 8, C = 16;
  K k;
  Value* x = k.ptr_arg(ScalarType::F32);
  Value* out = k.ptr_arg(ScalarType::F32);
  Value* t = k.load(k.addptr(x, tile_offsets(k, R, C)));  // [R, C]
  Value* tt = k.b.create(OpKind::Trans, {t}, {Type::tensor(ScalarType::F32, {C, R})}, k.loc,
                         {{"perm", std::vector<int64_t>{1, 0}}})->result();
  k.store(k.addptr(out, tile_offsets(k, C, R)), tt);
  k.ret();
  std::vector<float> xs = random_floats(R * C, 31), o(R * C);
  poison(o);
  run(k.m, {1, 1, 1}, {P(xs.data()), P(o.data())});
  for (int64_t i = 0; i < R; ++i)
    for (int64_t j = 0; j < C; ++j) ASSERT_EQ(o[j * R + i], xs[i * C + j]) << i << "," << j;
}

TEST(InterpShape, ThreeDPermuteReshapeJoinSplitCat) {
  // x: 2x4x8 int32 (values 0..63). out0 = permute(x, (2,0,1)) flattened (8x2x4);
  // out1 = reshape to 8x8 then cat with itself (16x8), flattened;
  // out2 = join(a, b) with a = x, b = -x, flattened (2x4x8x2); out3 = split(join)[1] = -x.
  K k;
  Value* x = k.ptr_arg(ScalarType::I32);
  Value* o0 = k.ptr_arg(ScalarType::I32);
  Value* o1 = k.ptr_arg(ScalarType::I32);
  Value* o2 = k.ptr_arg(ScalarType::I32);
  Value* o3 = k.ptr_arg(ScalarType::I32);
  Value* flat = k.load(k.addptr(x, k.range(0, 64)));
  Value* x3 = k.b.create(OpKind::Reshape, {flat}, {Type::tensor(ScalarType::I32, {2, 4, 8})}, k.loc)->result();
  Value* p = k.b.create(OpKind::Trans, {x3}, {Type::tensor(ScalarType::I32, {8, 2, 4})}, k.loc,
                        {{"perm", std::vector<int64_t>{2, 0, 1}}})->result();
  auto flatten = [&](Value* v, int64_t n) {
    return k.b.create(OpKind::Reshape, {v}, {Type::tensor(ScalarType::I32, {n})}, k.loc)->result();
  };
  k.store(k.addptr(o0, k.range(0, 64)), flatten(p, 64));
  Value* sq = k.b.create(OpKind::Reshape, {flat}, {Type::tensor(ScalarType::I32, {8, 8})}, k.loc)->result();
  Value* cat = k.b.create(OpKind::Cat, {sq, sq}, {Type::tensor(ScalarType::I32, {16, 8})}, k.loc)->result();
  k.store(k.addptr(o1, k.range(0, 128)), flatten(cat, 128));
  Value* neg = k.b.unary(OpKind::Neg, x3, k.loc);
  Value* j = k.b.create(OpKind::Join, {x3, neg}, {Type::tensor(ScalarType::I32, {2, 4, 8, 2})}, k.loc)->result();
  k.store(k.addptr(o2, k.range(0, 128)), flatten(j, 128));
  Op* sp = k.b.create(OpKind::Split, {j}, {x3->type, x3->type}, k.loc);
  k.store(k.addptr(o3, k.range(0, 64)), flatten(sp->result(1), 64));
  k.ret();
  std::vector<int32_t> xs(64), r0(64), r1(128), r2(128), r3(64);
  for (int i = 0; i < 64; ++i) xs[i] = i;
  poison(r0), poison(r1), poison(r2), poison(r3);
  run(k.m, {1, 1, 1}, {P(xs.data()), P(r0.data()), P(r1.data()), P(r2.data()), P(r3.data())});
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 8; ++c) {
        const int v = a * 32 + b * 8 + c;
        ASSERT_EQ(r0[c * 8 + a * 4 + b], v);  // result[c][a][b] = x[a][b][c]
        ASSERT_EQ(r2[v * 2], v);
        ASSERT_EQ(r2[v * 2 + 1], -v);
        ASSERT_EQ(r3[v], -v);
      }
  for (int i = 0; i < 128; ++i) ASSERT_EQ(r1[i], i % 64);
}

}  // namespace
}  // namespace tritium::interp::testing
