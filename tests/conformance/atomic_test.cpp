// Atomics (tl.atomic_add / and / or / xor / max / min / xchg / cas, function and method
// forms) on the interpreter and the CPU backend, bit for bit (the harness), against values
// computed here from the definitions:
//   * within one program, lanes apply in row-major order, each returning the value memory
//     held just before it (so duplicate addresses chain; masked-off lanes return 0);
//   * float max / min follow upstream's lowering: two atomic operations, first a signed
//     integer max (min) on the bits for the lanes whose value has the sign bit clear, then
//     an unsigned integer min (max) for the others (so -0 / +0 and NaN behave as on the
//     GPU, not as IEEE maxNum);
//   * across programs only order-independent results are compared: integer sums and
//     bitwise combinations, exact float sums of small integers, and a counter guarded by a
//     spin lock built from atomic_cas / atomic_xchg (on the CPU backend the programs run on
//     several threads, so an unguarded read-modify-write would lose updates).
#include <fmt/format.h>

#include <bit>

#include "conformance_util.h"
#include "halfbits.h"

using namespace conformance;

namespace {

const char* kPrelude = "import triton\nimport triton.language as tl\n\n";

TEST(ConformanceAtomic, IntegerOpsChainOverDuplicateAddressesInLaneOrder) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(cell, old_add, old_and, old_or, old_xor, old_xchg, v_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(v_ptr + offs)
    m = offs % 5 != 3
    slot = offs % 3                   # three lanes per cell: duplicates chain
    tl.store(old_add + offs, tl.atomic_add(cell + slot, v, mask=m))
    tl.store(old_and + offs, tl.atomic_and(cell + 3 + slot, v, mask=m, sem="relaxed"))
    tl.store(old_or + offs, (cell + 6 + slot).atomic_or(v, m, "release", "cta"))
    tl.store(old_xor + offs, tl.atomic_xor(cell + 9 + slot, v, sem="acquire", scope="sys"))
    tl.store(old_xchg + offs, tl.atomic_xchg(cell + 12 + slot, v, mask=m))
)";
  const int B = 32;
  auto cell = rand_int<int32_t>(15, -1000000, 1000000);
  auto v = rand_int<int32_t>(B, -2000000000, 2000000000);
  Case c(src, "k", "*i32, *i32, *i32, *i32, *i32, *i32, *i32, 32");
  c.in(cell);
  for (int k = 0; k < 5; ++k) c.out<int32_t>(B);
  c.in(v);
  auto r = c.run({1});
  std::vector<int32_t> mem = cell;
  std::vector<std::vector<int32_t>> want(5, std::vector<int32_t>(B));
  for (int i = 0; i < B; ++i) {
    const bool m = i % 5 != 3;
    const int s = i % 3;
    auto apply = [&](int k, int base, bool on, auto f) {
      int32_t& x = mem[base + s];
      want[k][i] = on ? x : 0;
      if (on) x = f(x, v[i]);
    };
    apply(0, 0, m, [](int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)); });
    apply(1, 3, m, [](int32_t a, int32_t b) { return a & b; });
    apply(2, 6, m, [](int32_t a, int32_t b) { return a | b; });
    apply(3, 9, true, [](int32_t a, int32_t b) { return a ^ b; });
    apply(4, 12, m, [](int32_t, int32_t b) { return b; });
  }
  EXPECT_EQ(r.get<int32_t>(0), mem);
  for (int k = 0; k < 5; ++k) EXPECT_EQ(r.get<int32_t>(1 + k), want[k]) << "returned values of op " << k;
}

TEST(ConformanceAtomic, SignedAndUnsignedIntegerMaxMin) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(si, ui, sl, old_si_max, old_ui_min, old_sl_max, a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    slot = offs % 4
    tl.store(old_si_max + offs, tl.atomic_max(si + slot, tl.load(a_ptr + offs)))
    tl.atomic_min(si + 4 + slot, tl.load(a_ptr + offs))
    tl.store(old_ui_min + offs, tl.atomic_min(ui + slot, tl.load(b_ptr + offs)))
    tl.atomic_max(ui + 4 + slot, tl.load(b_ptr + offs))
    tl.store(old_sl_max + offs, tl.atomic_max(sl + slot, tl.load(c_ptr + offs)))
)";
  const int B = 64;
  auto si = rand_int<int32_t>(8, -1000, 1000);
  auto a = rand_int<int32_t>(B, -2000000000, 2000000000);
  std::vector<uint32_t> ui(8), b(B);  // values above 2^31 too: unsigned order differs from signed
  for (auto& x : ui) x = static_cast<uint32_t>(rng()());
  for (auto& x : b) x = static_cast<uint32_t>(rng()());
  auto sl = rand_int<int64_t>(4, -(int64_t{1} << 40), int64_t{1} << 40);
  auto cv = rand_int<int64_t>(B, -(int64_t{1} << 62), int64_t{1} << 62);
  Case c(src, "k", "*i32, *u32, *i64, *i32, *u32, *i64, *i32, *u32, *i64, 64");
  c.in(si).in(ui).in(sl).out<int32_t>(B).out<uint32_t>(B).out<int64_t>(B).in(a).in(b).in(cv);
  // The old values: a cell's 16 lanes span two warps, whose order on a GPU is not defined
  // (the H200 run of 2026-12-01 saw another order once); the cells' final values commute.
  c.order_free({3, 4, 5});
  auto r = c.run({1});
  std::vector<int32_t> wsi = si, osi(B);
  std::vector<uint32_t> wui = ui, oui(B);
  std::vector<int64_t> wsl = sl, osl(B);
  for (int i = 0; i < B; ++i) {
    const int s = i % 4;
    osi[i] = wsi[s], wsi[s] = std::max(wsi[s], a[i]);
    wsi[4 + s] = std::min(wsi[4 + s], a[i]);
    oui[i] = wui[s], wui[s] = std::min(wui[s], b[i]);
    wui[4 + s] = std::max(wui[4 + s], b[i]);
    osl[i] = wsl[s], wsl[s] = std::max(wsl[s], cv[i]);
  }
  EXPECT_EQ(r.get<int32_t>(0), wsi);
  EXPECT_EQ(r.get<uint32_t>(1), wui);
  EXPECT_EQ(r.get<int64_t>(2), wsl);
  EXPECT_EQ(r.get<int32_t>(3), osi);
  EXPECT_EQ(r.get<uint32_t>(4), oui);
  EXPECT_EQ(r.get<int64_t>(5), osl);
}

// Upstream's float max / min on the bits (see the file comment).
uint32_t float_max_bits(uint32_t old, uint32_t v, bool is_max) {
  if (!(v >> 31)) {  // sign bit clear: signed integer max / min
    const int32_t a = static_cast<int32_t>(old), b = static_cast<int32_t>(v);
    return static_cast<uint32_t>(is_max ? std::max(a, b) : std::min(a, b));
  }
  return is_max ? std::min(old, v) : std::max(old, v);  // unsigned min / max
}

TEST(ConformanceAtomic, FloatMaxMinFollowUpstreamsIntegerLowering) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(mx, mn, old_mx, old_mn, v_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(v_ptr + offs)
    slot = offs % 8
    m = offs % 7 != 6
    tl.store(old_mx + offs, tl.atomic_max(mx + slot, v, mask=m))
    tl.store(old_mn + offs, (mn + slot).atomic_min(v, mask=m))
)";
  // Cells and values: both zeros, infinities, NaNs of both signs, subnormals, normals.
  const std::vector<uint32_t> specials = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00001u,
                                          0xffc00002u, 0x00000001u, 0x80000001u, 0x3f800000u, 0xbf800000u};
  std::vector<float> cells(8), v(128);
  for (int i = 0; i < 8; ++i) cells[i] = std::bit_cast<float>(specials[i]);
  auto rnd = rand_f32(v.size(), -100.f, 100.f);
  for (size_t i = 0; i < v.size(); ++i) v[i] = i % 3 == 0 ? std::bit_cast<float>(specials[i % specials.size()]) : rnd[i];
  Case c(src, "k", "*fp32, *fp32, *fp32, *fp32, *fp32, 128");
  c.in(cells).in(cells).out<float>(v.size()).out<float>(v.size()).in(v);
  // old_mx / old_mn: the lanes of one cell span all four warps, whose order on a GPU is
  // not defined; the cells' final values are order-free (max / min commute) and compared.
  c.order_free({2, 3});
  auto r = c.run({1});
  std::vector<uint32_t> wmx(8), wmn(8), omx(v.size()), omn(v.size());
  for (int i = 0; i < 8; ++i) wmx[i] = wmn[i] = specials[i];
  // Two atomic operations, as upstream emits them: first every lane whose value has the
  // sign bit clear, then the others, each in lane order.
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = 0; i < v.size(); ++i) {
      const int s = static_cast<int>(i % 8);
      const bool m = i % 7 != 6;
      const uint32_t vb = std::bit_cast<uint32_t>(v[i]);
      if (static_cast<int>(vb >> 31) != pass) continue;
      omx[i] = m ? wmx[s] : 0, omn[i] = m ? wmn[s] : 0;
      if (m) wmx[s] = float_max_bits(wmx[s], vb, true), wmn[s] = float_max_bits(wmn[s], vb, false);
    }
  auto bits_of = [](const std::vector<float>& f) {
    std::vector<uint32_t> u(f.size());
    for (size_t i = 0; i < f.size(); ++i) u[i] = std::bit_cast<uint32_t>(f[i]);
    return u;
  };
  EXPECT_EQ(bits_of(r.get<float>(0)), wmx);
  EXPECT_EQ(bits_of(r.get<float>(1)), wmn);
  EXPECT_EQ(bits_of(r.get<float>(2)), omx);
  EXPECT_EQ(bits_of(r.get<float>(3)), omn);
  // On ordinary numbers that is the float max / min.
  const float a = 3.5f, b = -7.25f;
  EXPECT_EQ(std::bit_cast<float>(float_max_bits(std::bit_cast<uint32_t>(a), std::bit_cast<uint32_t>(b), true)), a);
  EXPECT_EQ(std::bit_cast<float>(float_max_bits(std::bit_cast<uint32_t>(b), std::bit_cast<uint32_t>(a), false)), b);
}

TEST(ConformanceAtomic, FloatAddInFp32Fp16Bf16AndFp64Max) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(f32, f16, b16, f64, old32, v_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(v_ptr + offs)
    slot = offs % 4
    tl.store(old32 + offs, tl.atomic_add(f32 + slot, v))
    tl.atomic_add(f16 + slot, v.to(tl.float16))
    tl.atomic_add(b16 + slot, v.to(tl.bfloat16))
    tl.atomic_max(f64 + slot, v.to(tl.float64) * 0.5)
)";
  const int B = 64;
  std::vector<float> v(B);
  for (int i = 0; i < B; ++i) v[i] = static_cast<float>(rand_int<int32_t>(1, -8, 8)[0]) * 0.25f;  // exact sums
  std::vector<float> f32 = {1.5f, -2.0f, 0.25f, 3.0f};
  std::vector<uint16_t> f16 = {exact_half(1.5), exact_half(-2.0), exact_half(0.25), exact_half(3.0)};
  std::vector<uint16_t> b16(4);
  for (int i = 0; i < 4; ++i) b16[i] = static_cast<uint16_t>(std::bit_cast<uint32_t>(f32[i]) >> 16);  // exact
  std::vector<double> f64 = {-100.0, 0.0, -0.0, 1e300};
  Case c(src, "k", "*fp32, *fp16, *bf16, *fp64, *fp32, *fp32, 64");
  c.in(f32).in(f16).in(b16).in(f64).out<float>(B).in(v);
  // old32 and the float sums: which lane's add comes first is the interpreter's row-major
  // order only (a float sum's rounding depends on it); the fp64 max commutes and is compared.
  c.order_free({0, 1, 2, 4});
  auto r = c.run({1});
  std::vector<float> w32 = f32, o32(B);
  std::vector<double> w64 = f64;
  for (int i = 0; i < B; ++i) {
    const int s = i % 4;
    o32[i] = w32[s], w32[s] += v[i];
    const uint64_t hb = std::bit_cast<uint64_t>(static_cast<double>(v[i]) * 0.5), ob = std::bit_cast<uint64_t>(w64[s]);
    const uint64_t nb = !(hb >> 63) ? static_cast<uint64_t>(std::max(static_cast<int64_t>(ob), static_cast<int64_t>(hb)))
                                    : std::min(ob, hb);  // upstream's lowering, on 64-bit words
    w64[s] = std::bit_cast<double>(nb);
  }
  const auto g32 = r.get<float>(0), go32 = r.get<float>(4);
  const auto g16 = r.get<uint16_t>(1), gb16 = r.get<uint16_t>(2);
  const auto g64 = r.get<double>(3);
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(bits(g32[s]), bits(w32[s])) << s;
    EXPECT_EQ(half_to_float(g16[s]), w32[s]) << s;  // every partial sum is exact in fp16 and bf16
    EXPECT_EQ(bf16_to_float(gb16[s]), w32[s]) << s;
    EXPECT_EQ(bits(g64[s]), bits(w64[s])) << s;
  }
  for (int i = 0; i < B; ++i) EXPECT_EQ(bits(go32[i]), bits(o32[i])) << i;
}

TEST(ConformanceAtomic, CompareAndSwapScalarAndBlock) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(cells, olds, cmp_ptr, val_ptr, s64, old_s, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    cmp = tl.load(cmp_ptr + offs)
    val = tl.load(val_ptr + offs)
    tl.store(olds + offs, tl.atomic_cas(cells + offs % 4, cmp, val))
    o = tl.atomic_cas(s64, tl.full((), 7, tl.int64), tl.full((), -9, tl.int64), sem="acquire")
    tl.store(old_s, o)
)";
  const int B = 16;
  std::vector<int32_t> cells = {1, 2, 3, 4}, cmp(B), val(B);
  for (int i = 0; i < B; ++i) cmp[i] = 1 + (i * 7) % 6, val[i] = 100 + i;  // some lanes match, some do not
  std::vector<int64_t> s64 = {7};
  Case c(src, "k", "*i32, *i32, *i32, *i32, *i64, *i64, 16");
  c.in(cells).out<int32_t>(B).in(cmp).in(val).in(s64).out<int64_t>(1);
  auto r = c.run({1});
  std::vector<int32_t> w = cells, o(B);
  for (int i = 0; i < B; ++i) {
    int32_t& x = w[i % 4];
    o[i] = x;
    if (x == cmp[i]) x = val[i];
  }
  EXPECT_EQ(r.get<int32_t>(0), w);
  EXPECT_EQ(r.get<int32_t>(1), o);
  EXPECT_EQ(r.get<int64_t>(4)[0], -9);
  EXPECT_EQ(r.get<int64_t>(5)[0], 7);
}

TEST(ConformanceAtomic, ManyProgramsCombineOrderIndependently) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(counter, bits, fsum, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    tl.atomic_add(counter + offs % 2, pid + offs)
    tl.atomic_or(bits + pid % 4, tl.full((), 1, tl.int64) << (pid % 61))
    tl.atomic_add(fsum, (pid % 5).to(tl.float32))        # small integers: every order is exact
)";
  const int programs = 1000, B = 8;
  Case c(src, "k", "*i32, *i64, *fp32, 8");
  c.in(std::vector<int32_t>{0, 0}).in(std::vector<int64_t>(4, 0)).in(std::vector<float>{0.f});
  auto r = c.run({programs});
  int64_t even = 0, odd = 0, f = 0;
  std::vector<int64_t> bits_want(4, 0);
  for (int p = 0; p < programs; ++p) {
    for (int i = 0; i < B; ++i) (i % 2 ? odd : even) += p + i;
    bits_want[p % 4] |= int64_t{1} << (p % 61);
    f += p % 5;
  }
  EXPECT_EQ(r.get<int32_t>(0), (std::vector<int32_t>{static_cast<int32_t>(even), static_cast<int32_t>(odd)}));
  EXPECT_EQ(r.get<int64_t>(1), bits_want);
  EXPECT_EQ(r.get<float>(2)[0], static_cast<float>(f));
}

TEST(ConformanceAtomic, SpinLockGuardsANonAtomicReadModifyWrite) {
  const std::string src = std::string(kPrelude) + R"(
@triton.jit
def k(lock, data, N: tl.constexpr):
    pid = tl.program_id(0)
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    # critical section: plain loads and stores, two cells that must stay consistent
    count = tl.load(data)
    total = tl.load(data + 1)
    for i in range(N):
        total += pid
    tl.store(data + 1, total)
    tl.store(data, count + 1)
    tl.atomic_xchg(lock, 0)
)";
  const int programs = 4000, N = 50;
  Case c(src, "k", "*i32, *i64, 50");
  c.in(std::vector<int32_t>{0}).in(std::vector<int64_t>{0, 0});
  auto r = c.run({programs});
  EXPECT_EQ(r.get<int32_t>(0)[0], 0) << "lock released";
  const auto d = r.get<int64_t>(1);
  EXPECT_EQ(d[0], programs) << "lost updates: the lock did not exclude";
  EXPECT_EQ(d[1], int64_t{N} * programs * (programs - 1) / 2);
}

}  // namespace
