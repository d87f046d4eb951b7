// CPU backend: where the renderer emits streaming stores (the prelude's tr_stream_n; see
// cpu_emit_access.cpp). Rows of at least 256 bytes get a chunked store that streams when
// the launch's policy says so, and tritium_run then ends with tr_stream_fence; short rows
// and kernels with atomics keep plain stores. The values are checked by
// tests/conformance/stream_store_test.cpp.
#include <gtest/gtest.h>

#include "codegen/cpu/cpu_codegen.h"
#include "cpu_test_util.h"

namespace tritium::cputest {
namespace {

std::string kernel_text(const ir::Module& m) {
  const std::string all = codegen::render_cpu(m, {});
  const size_t end = all.find("// ---- end of prelude");
  EXPECT_NE(end, std::string::npos);
  return all.substr(end);
}

/// out[i] = x[i] * 2 for i < n, element type `t`, one block of `block` per program.
ir::Module scale(ScalarType t, int64_t block, bool with_atomic = false) {
  KernelBuilder k("scale");
  Value* x = k.ptr_param(t);
  Value* out = k.ptr_param(t);
  Value* n = k.param(Type::of(ScalarType::I32));
  auto [offs, mask] = k.block_offsets(block, n);
  Value* xv = k.load(k.ptrs(x, offs), mask);
  k.store(k.ptrs(out, offs), k.bin(OpKind::Add, xv, xv), mask);
  if (with_atomic) {
    Value* one = k.const_of(Type::of(t), 1);
    ir::Op* a = k.b.create(OpKind::AtomicRMW, {out, one}, {Type::of(t)}, k.loc);
    a->attrs["rmw"] = std::string("add");
    a->attrs["sem"] = std::string("acq_rel");
    a->attrs["scope"] = std::string("gpu");
  }
  k.ret();
  return std::move(k.module);
}

/// out[i] = x[i] * exp(x[i]) (fp32): heavy arithmetic on a block read in place.
ir::Module x_exp(int64_t block) {
  KernelBuilder k("x_exp");
  Value* x = k.ptr_param(ScalarType::F32);
  Value* out = k.ptr_param(ScalarType::F32);
  Value* n = k.param(Type::of(ScalarType::I32));
  auto [offs, mask] = k.block_offsets(block, n);
  Value* xv = k.load(k.ptrs(x, offs), mask);
  ir::Op* e = k.b.create(OpKind::Math, {xv}, {xv->type}, k.loc);
  e->attrs["fn"] = static_cast<int64_t>(ir::MathFn::Exp);
  k.store(k.ptrs(out, offs), k.bin(OpKind::Mul, xv, e->result()), mask);
  k.ret();
  return std::move(k.module);
}

TEST(CpuStreamStores, LongRowsGetAStreamingPathAndTheFence) {
  for (auto [t, block] : {std::pair{ScalarType::F32, 64}, std::pair{ScalarType::F16, 1024},
                          std::pair{ScalarType::I8, 256}}) {
    const std::string text = kernel_text(scale(t, block));
    // fp16 rounded from fp32 streams from its bulk conversion (tr_f2h_n_stream)
    const char* call = t == ScalarType::F16 ? "tr_f2h_n_stream(" : "tr_stream_n(";
    EXPECT_NE(text.find(call), std::string::npos) << ir::name(t) << "\n" << text;
    EXPECT_NE(text.find("host->stream_min_bytes"), std::string::npos) << text;
    EXPECT_NE(text.find("tr_stream_fence();"), std::string::npos) << text;
  }
}

TEST(CpuStreamStores, ShortRowsAtomicKernelsAndHeavyInPlaceRowsStorePlainly) {
  // (x_exp: a row computed with heavy arithmetic from a block read in place; see
  // Emitter::heavy_in_place)
  for (const ir::Module& m : {scale(ScalarType::F32, 32), scale(ScalarType::I8, 128), scale(ScalarType::F32, 1024, true),
                              x_exp(1024)}) {
    const std::string text = kernel_text(m);
    EXPECT_EQ(text.find("tr_stream_n("), std::string::npos) << text;
    EXPECT_EQ(text.find("tr_f2h_n_stream("), std::string::npos) << text;
    EXPECT_EQ(text.find("tr_stream_fence();"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace tritium::cputest
