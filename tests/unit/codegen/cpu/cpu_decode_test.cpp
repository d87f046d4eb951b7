// CPU backend: decoded twins (cpu_emitter.h). An fp16 load whose value is used as a number
// is decoded once per block, in bulk, by tr_h2f_n; a load whose bits are only moved keeps
// reading its fp16 array. These tests read the rendered C++ and run the kernels.
#include <gtest/gtest.h>

#include "codegen/cpu/cpu_codegen.h"
#include "cpu_test_util.h"

namespace tritium::cputest {
namespace {

/// The rendered kernel without the prelude (which defines tr_h2f_n itself).
std::string kernel_text(const ir::Module& m) {
  const std::string all = codegen::render_cpu(m, {});
  const size_t end = all.find("// ---- end of prelude");
  EXPECT_NE(end, std::string::npos);
  return all.substr(end);
}


/// out[i] = float(x[i]) for i < n (fp16 in, fp32 out).
ir::Module upcast(int64_t block) {
  KernelBuilder k("upcast");
  Value* x = k.ptr_param(ScalarType::F16);
  Value* out = k.ptr_param(ScalarType::F32);
  Value* n = k.param(Type::of(ScalarType::I32));
  auto [offs, mask] = k.block_offsets(block, n);
  Value* xv = k.load(k.ptrs(x, offs), mask);
  k.store(k.ptrs(out, offs), k.b.cast(xv, ScalarType::F32, k.loc), mask);
  k.ret();
  return std::move(k.module);
}

/// out[i] = x[i] and bits[i] = bitcast<int16>(x[i]): the fp16 value is only moved.
ir::Module copy_bits(int64_t block) {
  KernelBuilder k("copy_bits");
  Value* x = k.ptr_param(ScalarType::F16);
  Value* out = k.ptr_param(ScalarType::F16);
  Value* bits = k.ptr_param(ScalarType::I16);
  Value* n = k.param(Type::of(ScalarType::I32));
  auto [offs, mask] = k.block_offsets(block, n);
  Value* xv = k.load(k.ptrs(x, offs), mask);
  k.store(k.ptrs(out, offs), xv, mask);
  k.store(k.ptrs(bits, offs), k.b.bitcast(xv, xv->type.with_scalar(ScalarType::I16), k.loc), mask);
  k.ret();
  return std::move(k.module);
}

TEST(CpuDecodedTwin, CastToFloatDecodesTheLoadInBulk) {
  const std::string text = kernel_text(upcast(64));
  EXPECT_NE(text.find("tr_h2f_n("), std::string::npos) << text;
  EXPECT_EQ(text.find("tr_h2f("), std::string::npos) << "an element decoded one by one:\n" << text;
}

TEST(CpuDecodedTwin, BitsOnlyUsesKeepTheHalfArray) {
  const std::string text = kernel_text(copy_bits(64));
  EXPECT_EQ(text.find("tr_h2f_n("), std::string::npos) << text;
  EXPECT_EQ(text.find("tr_h2f("), std::string::npos) << text;
}

TEST(CpuDecodedTwin, CastToFloatIsExactForEveryEncoding) {
  const int n = 65536 - 5, cap = 65536;  // a masked tail, sentinels after n
  std::vector<uint16_t> x(cap);
  for (int i = 0; i < cap; ++i) x[i] = static_cast<uint16_t>(i);
  std::vector<float> out(cap, -12345.0f);
  auto kernel = compile(upcast(256));
  kernel->launch({(n + 255) / 256, 1, 1}, {arg_ptr(x.data()), arg_ptr(out.data()), arg_i64(n)});
  for (int i = 0; i < n; ++i) {
    const double want = ref_f16_value(x[i]);
    if (std::isnan(want)) {  // quiet, sign and payload kept
      ASSERT_TRUE(std::isnan(out[i])) << i;
      ASSERT_EQ(bits_of(out[i]), ((i & 0x8000u) << 16) | 0x7fc00000u | ((i & 0x3ffu) << 13)) << i;
    } else {
      ASSERT_EQ(bits_of(out[i]), bits_of(static_cast<float>(want))) << i;
    }
  }
  for (int i = n; i < cap; ++i) ASSERT_EQ(out[i], -12345.0f) << "masked element written at " << i;
}

}  // namespace
}  // namespace tritium::cputest
