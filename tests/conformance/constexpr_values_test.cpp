// Constexpr parameters given dtypes and strings, as Liger / vLLM / applied-ai kernels take
// them (`X_dtype: tl.constexpr` receiving tl.float16, `reduction: tl.constexpr` receiving
// 'mean'): signature entries `tl.float16` and `'mean'` (or "mean"), and tritium::DType /
// std::string through Kernel::compile's named constexprs; on the interpreter and the CPU
// backend (bit-identical: the harness) against values computed here (one fp32 division
// rounded to fp16 / fp32: exact references).
#include "conformance_util.h"
#include "halfbits.h"

using namespace conformance;

namespace {

const char* kSrc = R"(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, n, OUT_DTYPE: tl.constexpr, MODE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if MODE == "mean":
        x = x / n
    tl.static_assert(OUT_DTYPE == y_ptr.dtype.element_ty)
    tl.store(y_ptr + offs, x.to(OUT_DTYPE), mask=offs < n)
)";

TEST(ConformanceConstexprValues, DtypeAndStringEntries) {
  const int n = 50;
  auto x = rand_f32(64, -100.f, 100.f);
  for (const char* mode : {"'mean'", "\"sum\""}) {
    const bool mean = std::string(mode) == "'mean'";
    Case c(kSrc, "k", std::string("*fp32, *fp16, i32, tl.float16, ") + mode + ", 64");
    c.in(x).out<uint16_t>(64).scalar(tritium::Arg(n));
    auto y = c.run({1}).get<uint16_t>(1);
    for (int i = 0; i < n; ++i) ASSERT_EQ(y[i], half_rne(mean ? x[i] / float(n) : x[i])) << mode << " " << i;
  }
  Case c(kSrc, "k", "*fp32, *fp32, i32, triton.language.float32, 'mean', 64");
  c.in(x).out<float>(64).scalar(tritium::Arg(n));
  auto y = c.run({1}).get<float>(1);
  for (int i = 0; i < n; ++i) ASSERT_EQ(y[i], x[i] / float(n)) << i;
}

TEST(ConformanceConstexprValues, NamedDtypeThroughTheApi) {
  tritium::Device dev = tritium::Device::get("cpu");
  tritium::Kernel k = tritium::Module::from_string(kSrc, "cv.py").kernel("k");
  tritium::CompiledKernel ck = k.compile(dev, "*fp32, *bf16, i32", {},
                                         {{"OUT_DTYPE", tritium::DType{"bfloat16"}}, {"MODE", std::string("sum")},
                                          {"BLOCK", int64_t{64}}});
  EXPECT_NE(ck.signature().find("OUT_DTYPE=tl.bfloat16"), std::string::npos) << ck.signature();
  EXPECT_THROW(k.compile(dev, "*fp32, *bf16, i32", {}, {{"OUT_DTYPE", tritium::DType{"bfloat17"}}, {"MODE", std::string("x")},
                                                        {"BLOCK", int64_t{64}}}),
               tritium::Error);
}

}  // namespace
