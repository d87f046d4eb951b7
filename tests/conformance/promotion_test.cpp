// Type promotion of binary arithmetic: the result dtype of `x + y` for every pair of
// tensor dtypes among int8..int64, uint8..uint64, fp16, bf16, fp32, fp64, and for tensors
// with Python scalars (int, float, bool), checked at compile time with tl.static_assert
// inside generated kernels; plus the values of a few mixed pairs. The expected table is
// computed here from upstream Triton's rules (semantic.py computation_type_impl):
// fp64 > fp32 > fp16 (fp16 wins over bf16) > bf16 (bf16 + int gives fp32); integers use
// C's usual conversions; Python scalars of equal or lower kind do not take part.
#include "conformance_util.h"

#include <map>
#include <sstream>

using namespace conformance;

namespace {

struct DT {
  const char* tl;   // triton name
  const char* sig;  // signature name
  bool is_float;
  bool is_signed;
  int bits;
};

const std::vector<DT>& dtypes() {
  static const std::vector<DT> v = {
      {"int8", "i8", false, true, 8},       {"int16", "i16", false, true, 16},   {"int32", "i32", false, true, 32},
      {"int64", "i64", false, true, 64},    {"uint8", "u8", false, false, 8},    {"uint16", "u16", false, false, 16},
      {"uint32", "u32", false, false, 32},  {"uint64", "u64", false, false, 64}, {"float16", "fp16", true, true, 16},
      {"bfloat16", "bf16", true, true, 16}, {"float32", "fp32", true, true, 32}, {"float64", "fp64", true, true, 64},
  };
  return v;
}

// Expected dtype of tensor(a) + tensor(b), written independently from the rules above.
std::string expect_add(const DT& a, const DT& b) {
  std::string an = a.tl, bn = b.tl;
  if (an == "float64" || bn == "float64") return "float64";
  if (an == "float32" || bn == "float32") return "float32";
  if (an == "float16" || bn == "float16") return "float16";
  if (an == "bfloat16" || bn == "bfloat16") return (an == bn) ? "bfloat16" : "float32";
  // integers
  if (a.is_signed == b.is_signed) return a.bits >= b.bits ? an : bn;
  const DT& u = a.is_signed ? b : a;
  const DT& s = a.is_signed ? a : b;
  return u.bits >= s.bits ? u.tl : s.tl;
}

// Expected dtype of tensor(a) <op> python scalar of kind k (0 bool, 1 int, 2 float).
std::string expect_scalar(const DT& a, int kind) {
  int tkind = a.is_float ? 2 : 1;
  if (kind <= tkind) return a.tl;
  return "float32";  // python float with an integer tensor: the scalar is fp32
}

std::string header() { return "import triton\nimport triton.language as tl\n\n@triton.jit\n"; }

TEST(ConformancePromotion, TensorTensorAddTable) {
  const auto& d = dtypes();
  std::ostringstream s;
  s << header() << "def promo(";
  for (size_t i = 0; i < d.size(); ++i) s << "p" << i << ", ";
  s << "o_ptr):\n";
  for (size_t i = 0; i < d.size(); ++i) s << "    x" << i << " = tl.load(p" << i << " + tl.arange(0, 4))\n";
  for (size_t i = 0; i < d.size(); ++i)
    for (size_t j = 0; j < d.size(); ++j)
      s << "    tl.static_assert((x" << i << " + x" << j << ").dtype == tl." << expect_add(d[i], d[j]) << ", \""
        << d[i].tl << "+" << d[j].tl << "\")\n";
  // also -, *: same rules
  s << "    tl.static_assert((x0 * x4).dtype == tl.uint8)\n";
  s << "    tl.static_assert((x9 - x8).dtype == tl.float16)\n";
  s << "    tl.store(o_ptr + tl.arange(0, 4), x2)\n";
  std::string sig;
  for (auto& t : d) sig += std::string("*") + t.sig + ", ";
  sig += "*i32";
  Case c(s.str(), "promo", sig);
  for (size_t i = 0; i < d.size(); ++i) c.in(std::vector<uint64_t>(4, 0x3C003C003C003C00ULL));  // bytes only; values unused
  c.out<int32_t>(4);
  auto r = c.run({1});
  auto o = r.get<int32_t>(d.size());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(o[i], 0x3C003C00);
}

TEST(ConformancePromotion, TensorScalarTable) {
  const auto& d = dtypes();
  std::ostringstream s;
  s << header() << "def promo_s(";
  for (size_t i = 0; i < d.size(); ++i) s << "p" << i << ", ";
  s << "o_ptr):\n";
  const char* lits[3] = {"True", "3", "2.5"};
  for (size_t i = 0; i < d.size(); ++i) {
    s << "    x" << i << " = tl.load(p" << i << " + tl.arange(0, 4))\n";
    for (int k = 0; k < 3; ++k) {
      s << "    tl.static_assert((x" << i << " + " << lits[k] << ").dtype == tl." << expect_scalar(d[i], k) << ", \""
        << d[i].tl << "+" << lits[k] << "\")\n";
      s << "    tl.static_assert((" << lits[k] << " * x" << i << ").dtype == tl." << expect_scalar(d[i], k) << ")\n";
    }
  }
  // comparisons are not weak: but the result is int1 either way
  s << "    tl.static_assert((x0 > 0).dtype == tl.int1)\n";
  // `/` of two ints is fp32; `/` with fp16 computes in fp32; fp64 stays fp64
  s << "    tl.static_assert((x2 / x2).dtype == tl.float32)\n";
  s << "    tl.static_assert((x0 / x1).dtype == tl.float32)\n";
  s << "    tl.static_assert((x8 / x8).dtype == tl.float32)\n";
  s << "    tl.static_assert((x9 / x9).dtype == tl.float32)\n";
  s << "    tl.static_assert((x8 % x8).dtype == tl.float32)\n";
  s << "    tl.static_assert((x11 / x2).dtype == tl.float64)\n";
  s << "    tl.static_assert((x8 / 2).dtype == tl.float32)\n";
  s << "    tl.static_assert((x2 // 2).dtype == tl.int32)\n";
  s << "    tl.static_assert((x0 // 2).dtype == tl.int8)\n";
  s << "    tl.store(o_ptr + tl.arange(0, 4), x2)\n";
  std::string sig;
  for (auto& t : d) sig += std::string("*") + t.sig + ", ";
  sig += "*i32";
  Case c(s.str(), "promo_s", sig);
  for (size_t i = 0; i < d.size(); ++i) c.in(std::vector<uint64_t>(4, 0x3C003C003C003C00ULL));
  c.out<int32_t>(4);
  auto r = c.run({1});
  EXPECT_EQ(r.get<int32_t>(d.size())[3], 0x3C003C00);
}

// Values of mixed-dtype arithmetic.
TEST(ConformancePromotion, MixedValues) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def mixed(a8, u8, u16, i32, u32, i64, f16, bf, o1, o2, o3, o4, o5, o6, o7, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a8 + offs)
    b = tl.load(u8 + offs)
    c = tl.load(u16 + offs)
    d = tl.load(i32 + offs)
    e = tl.load(u32 + offs)
    f = tl.load(i64 + offs)
    h = tl.load(f16 + offs)
    g = tl.load(bf + offs)
    tl.store(o1 + offs, a + c)
    tl.store(o2 + offs, d + e)
    tl.store(o3 + offs, f + b)
    tl.store(o4 + offs, a + b)
    tl.store(o5 + offs, g + a)
    tl.store(o6 + offs, a + 2.5)
    tl.store(o7 + offs, b + 200)
)";
  const int n = 64;
  auto a = rand_int<int8_t>(n, -128, 127);
  auto b = rand_int<uint8_t>(n, 1, 255);
  auto cc = rand_int<uint16_t>(n, 1, 65535);
  auto d = rand_int<int32_t>(n, -2000000000, 2000000000);
  auto e = rand_int<uint32_t>(n, 1, 4294967295LL);
  auto f = rand_int<int64_t>(n, -(1LL << 62), 1LL << 62);
  // fp16 / bf16 inputs: small integers are exact in both formats.
  auto hv = rand_int<int16_t>(n, -30, 30);
  std::vector<uint16_t> h(n), g(n);
  for (int i = 0; i < n; ++i) {
    float fv = static_cast<float>(hv[i]);
    uint32_t u = bits(fv);
    g[i] = static_cast<uint16_t>(u >> 16);  // exact (small integer)
    // fp16 of a small integer: sign, exponent 15+e, 10-bit mantissa
    int m = std::abs(hv[i]);
    int ex = 0;
    while ((m >> ex) > 1) ++ex;
    uint16_t mant = static_cast<uint16_t>(((m << 10) >> ex) & 0x3FF);
    h[i] = static_cast<uint16_t>((hv[i] < 0 ? 0x8000 : 0) | ((15 + ex) << 10) | mant);
  }
  Case c(src, "mixed", "*i8, *u8, *u16, *i32, *u32, *i64, *fp16, *bf16, *u16, *u32, *i64, *u8, *fp32, *fp32, *u8, 64");
  c.in(a).in(b).in(cc).in(d).in(e).in(f).in(h).in(g);
  c.out<uint16_t>(n).out<uint32_t>(n).out<int64_t>(n).out<uint8_t>(n).out<float>(n).out<float>(n).out<uint8_t>(n);
  auto r = c.run({1});
  auto o1 = r.get<uint16_t>(8);
  auto o2 = r.get<uint32_t>(9);
  auto o3 = r.get<int64_t>(10);
  auto o4 = r.get<uint8_t>(11);
  auto o5 = r.get<float>(12);
  auto o6 = r.get<float>(13);
  auto o7 = r.get<uint8_t>(14);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(o1[i], static_cast<uint16_t>(static_cast<uint16_t>(a[i]) + cc[i])) << i;
    EXPECT_EQ(o2[i], static_cast<uint32_t>(static_cast<uint32_t>(d[i]) + e[i])) << i;
    EXPECT_EQ(o3[i], f[i] + b[i]) << i;
    EXPECT_EQ(o4[i], static_cast<uint8_t>(static_cast<uint8_t>(a[i]) + b[i])) << i;
    EXPECT_EQ(o5[i], static_cast<float>(hv[i] + a[i])) << i;
    EXPECT_EQ(o6[i], static_cast<float>(a[i]) + 2.5f) << i;
    EXPECT_EQ(o7[i], static_cast<uint8_t>(b[i] + 200)) << i;  // uint8 arithmetic wraps
  }
}

TEST(ConformancePromotion, MixedSignednessDivisionIsAnError) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def bad(a_ptr, b_ptr, o_ptr):
    a = tl.load(a_ptr)
    b = tl.load(b_ptr)
    tl.store(o_ptr, a % b)
)";
  auto e = expect_compile_error(src, "bad", "*i16, *u8, *i16", "signedness");
  EXPECT_EQ(e.line(), 9);
}

}  // namespace
