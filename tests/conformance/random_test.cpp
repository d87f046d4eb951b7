// Conformance of tritium's random numbers (src/frontend/stdlib/random.py): tl.philox,
// tl.philox_impl, tl.randint, tl.randint4x, tl.rand, tl.rand4x, tl.randn, tl.randn4x,
// tl.uint_to_uniform_float and tl.pair_uniform_to_normal, each run on the interpreter and
// the CPU backend (bit-identical, checked by the harness) for offsets of every integer
// dtype Triton allows (int32, uint32, int64, uint64; arange + a per-program base, and
// random 64-bit values), seeds of every kind (run-time int32 / int64 / uint64 scalars, Python
// literals up to 2^64, constexpr parameters, negative values), 1-D and 2-D blocks.
//
// Expected values come from an independent C++ Philox4x32-R / Philox4x64-R written from
// the definition in J. K. Salmon, M. A. Moraes, R. O. Dror, D. E. Shaw, "Parallel random
// numbers: as easy as 1, 2, 3", SC 2011 (checked here against the known-answer vectors of the
// paper's Random123 distribution), plus upstream Triton 3.6's mapping (learned from its
// python/triton/language/random.py): key = (low, high) 32-bit words of the seed converted to
// uint64; counter = (offset converted to uint32, high 32 bits of 64-bit offsets else 0, 0, 0).
// Exactness: integers bit-exact. rand* and uint_to_uniform_float bit-exact: each value is one
// int→fp32 conversion and one fp32 multiply by a constant rounded to fp32, both correctly
// rounded IEEE operations the reference performs identically. randn* and
// pair_uniform_to_normal within r·2^-20 absolute (r = sqrt(-2 ln u1) <= 5.68): everything up
// to the inputs of log/cos/sin is reproduced exactly (max, the fp32 product 2π·u2), but log,
// cos and sin are not correctly rounded (tritium's own implementations here, hardware
// approximations upstream), so the reference evaluates them in double: a log error of up to
// 4 ulp becomes <= 2^-22 relative after sqrt, cos/sin errors up to 2^-21 absolute, plus three
// fp32 roundings — below r·2^-20.
#include "conformance_util.h"

#include <array>
#include <cstdio>

using namespace conformance;

namespace {

using W4 = std::array<uint32_t, 4>;
using D4 = std::array<uint64_t, 4>;

// ---- independent reference ------------------------------------------------------------------

// Philox4x32-R (Salmon et al. 2011): R rounds of the S-box on (x0, x1, x2, x3)
// with the multipliers M0 (of x0), M1 (of x2); the key (k0, k1) advances by the Weyl
// constants between rounds.
W4 philox4x32(W4 x, uint32_t k0, uint32_t k1, int rounds = 10) {
  for (int r = 0; r < rounds; ++r) {
    if (r > 0) k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
    uint64_t p0 = uint64_t{0xD2511F53u} * x[0];
    uint64_t p1 = uint64_t{0xCD9E8D57u} * x[2];
    x = W4{uint32_t(p1 >> 32) ^ x[1] ^ k0, uint32_t(p1), uint32_t(p0 >> 32) ^ x[3] ^ k1, uint32_t(p0)};
  }
  return x;
}

// Philox4x64-R: the same network on 64-bit words (Random123's constants).
D4 philox4x64(D4 x, uint64_t k0, uint64_t k1, int rounds = 10) {
  for (int r = 0; r < rounds; ++r) {
    if (r > 0) k0 += 0x9E3779B97F4A7C15ull, k1 += 0xBB67AE8584CAA73Bull;
    unsigned __int128 p0 = (unsigned __int128)0xD2E7470EE14C6C93ull * x[0];
    unsigned __int128 p1 = (unsigned __int128)0xCA5A826395121157ull * x[2];
    x = D4{uint64_t(p1 >> 64) ^ x[1] ^ k0, uint64_t(p1), uint64_t(p0 >> 64) ^ x[3] ^ k1, uint64_t(p0)};
  }
  return x;
}

// Triton's randint4x for a seed (as uint64: the value modulo 2^64, which is what converting
// an int32 / uint32 / int64 / uint64 seed to uint64 gives) and an offset given by its bits
// modulo 2^64 and whether its dtype is wider than 32 bits.
W4 ref_randint4x(uint64_t seed, uint64_t offset, bool wide, int rounds = 10) {
  W4 ctr{uint32_t(offset), wide ? uint32_t(offset >> 32) : 0u, 0u, 0u};
  return philox4x32(ctr, uint32_t(seed), uint32_t(seed >> 32), rounds);
}

// uint_to_uniform_float: signed reading, v < 0 folded to -v - 1 (= ~v, no overflow), int →
// fp32 (round to nearest even), times the scale rounded from double to fp32 (as the Python
// float literal is).
float ref_uniform(uint32_t bits) {
  int32_t v = static_cast<int32_t>(bits);
  if (v < 0) v = ~v;
  return static_cast<float>(v) * static_cast<float>(4.6566127342e-10);
}
float ref_uniform64(uint64_t bits) {
  int64_t v = static_cast<int64_t>(bits);
  if (v < 0) v = ~v;
  return static_cast<float>(v) * static_cast<float>(1.0842020432385337e-19);
}

// Box-Muller as Triton computes it, the fp32-exact steps in fp32 and log/cos/sin in double;
// `radius` receives r for the tolerance.
std::pair<double, double> ref_normal(float u1, float u2, double* radius) {
  float u = std::max(static_cast<float>(1.0e-7), u1);
  float angle = static_cast<float>(6.283185307179586) * u2;
  double r = std::sqrt(-2.0 * std::log(static_cast<double>(u)));
  *radius = r;
  return {r * std::cos(static_cast<double>(angle)), r * std::sin(static_cast<double>(angle))};
}

void expect_normal(float got, double want, double radius, const std::string& what) {
  EXPECT_LE(std::fabs(double(got) - want), radius * 0x1p-20) << what << ": got " << got << ", want " << want;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

// ---- the reference itself: Random123 known-answer vectors -------------------------------------

// Random123's kat_vectors for philox4x32_10 and philox4x64_10 (counter = key = 0; every
// word all-ones; the hexadecimal digits of pi), copied by hand.
struct Kat32 {
  W4 ctr;
  uint32_t k0, k1;
  W4 out;
};
const Kat32 kKat32[] = {
    {{0, 0, 0, 0}, 0, 0, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, 0xffffffff, 0xffffffff,
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, 0xa4093822, 0x299f31d0,
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};
struct Kat64 {
  D4 ctr;
  uint64_t k0, k1;
  D4 out;
};
const Kat64 kKat64[] = {
    {{0, 0, 0, 0}, 0, 0, {0x16554d9eca36314cull, 0xdb20fe9d672d0fdcull, 0xd7e772cee186176bull, 0x7e68b68aec7ba23bull}},
    {{~0ull, ~0ull, ~0ull, ~0ull}, ~0ull, ~0ull,
     {0x87b092c3013fe90bull, 0x438c3c67be8d0224ull, 0x9cc7d7c69cd777b6ull, 0xa09caebf594f0ba0ull}},
    {{0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull, 0x082efa98ec4e6c89ull},
     0x452821e638d01377ull, 0xbe5466cf34e90c6cull,
     {0xa528f45403e61d95ull, 0x38c72dbd566e9788ull, 0xa5a1610e72fd18b5ull, 0x57bd43b5e52b7fe6ull}},
};

TEST(ConformanceRandom, ReferenceMatchesRandom123KnownAnswers) {
  for (const auto& k : kKat32) EXPECT_EQ(philox4x32(k.ctr, k.k0, k.k1), k.out);
  for (const auto& k : kKat64) EXPECT_EQ(philox4x64(k.ctr, k.k0, k.k1), k.out);
}

// ---- tl.philox_impl / tl.philox on the known answers ------------------------------------------

const char* kKatSrc = R"(
import triton
import triton.language as tl

@triton.jit
def kat32(c_ptr, k_ptr, seed_ptr, o_impl, o_impl7, o_philox, N: tl.constexpr):
    i = tl.arange(0, N)
    c0 = tl.load(c_ptr + 4 * i + 0)
    c1 = tl.load(c_ptr + 4 * i + 1)
    c2 = tl.load(c_ptr + 4 * i + 2)
    c3 = tl.load(c_ptr + 4 * i + 3)
    k0 = tl.load(k_ptr + 2 * i)
    k1 = tl.load(k_ptr + 2 * i + 1)
    r0, r1, r2, r3 = tl.philox_impl(c0, c1, c2, c3, k0, k1)
    tl.store(o_impl + 4 * i + 0, r0)
    tl.store(o_impl + 4 * i + 1, r1)
    tl.store(o_impl + 4 * i + 2, r2)
    tl.store(o_impl + 4 * i + 3, r3)
    s0, s1, s2, s3 = tl.philox_impl(c0, c1, c2, c3, k0, k1, n_rounds=7)
    tl.store(o_impl7 + 4 * i + 0, s0)
    tl.store(o_impl7 + 4 * i + 1, s1)
    tl.store(o_impl7 + 4 * i + 2, s2)
    tl.store(o_impl7 + 4 * i + 3, s3)
    # tl.philox with a per-element uint64 seed (k1 << 32 | k0) and int32 counter words
    seed = tl.load(seed_ptr + i)
    p0, p1, p2, p3 = tl.philox(seed, c0.to(tl.int32, bitcast=True), c1, c2, c3)
    tl.store(o_philox + 4 * i + 0, p0)
    tl.store(o_philox + 4 * i + 1, p1)
    tl.store(o_philox + 4 * i + 2, p2)
    tl.store(o_philox + 4 * i + 3, p3)

@triton.jit
def kat64(c_ptr, k_ptr, o_impl, o_philox, seed, N: tl.constexpr):
    i = tl.arange(0, N)
    c0 = tl.load(c_ptr + 4 * i + 0)
    c1 = tl.load(c_ptr + 4 * i + 1)
    c2 = tl.load(c_ptr + 4 * i + 2)
    c3 = tl.load(c_ptr + 4 * i + 3)
    k0 = tl.load(k_ptr + 2 * i)
    k1 = tl.load(k_ptr + 2 * i + 1)
    r0, r1, r2, r3 = tl.random.philox_impl(c0, c1, c2, c3, k0, k1, 10)
    tl.store(o_impl + 4 * i + 0, r0)
    tl.store(o_impl + 4 * i + 1, r1)
    tl.store(o_impl + 4 * i + 2, r2)
    tl.store(o_impl + 4 * i + 3, r3)
    # 64-bit counter words (int64, reinterpreted): Philox4x64 keyed (seed, 0)
    p0, p1, p2, p3 = tl.philox(seed, c0.to(tl.int64, bitcast=True), c1, c2, c3)
    tl.static_assert(p0.dtype == tl.uint64)
    tl.store(o_philox + 4 * i + 0, p0)
    tl.store(o_philox + 4 * i + 1, p1)
    tl.store(o_philox + 4 * i + 2, p2)
    tl.store(o_philox + 4 * i + 3, p3)
)";

TEST(ConformanceRandom, PhiloxImplKnownAnswers32) {
  const int n = 8;  // the three vectors, then random counters and keys
  std::vector<uint32_t> c(4 * n), k(2 * n);
  std::vector<uint64_t> seeds(n);
  auto rc = rand_int<uint32_t>(4 * n, 0, 0xffffffff, false), rk = rand_int<uint32_t>(2 * n, 0, 0xffffffff, false);
  for (int i = 0; i < n; ++i) {
    for (int w = 0; w < 4; ++w) c[4 * i + w] = i < 3 ? kKat32[i].ctr[w] : rc[4 * i + w];
    k[2 * i] = i < 3 ? kKat32[i].k0 : rk[2 * i];
    k[2 * i + 1] = i < 3 ? kKat32[i].k1 : rk[2 * i + 1];
    seeds[i] = uint64_t{k[2 * i + 1]} << 32 | k[2 * i];
  }
  Case cs(kKatSrc, "kat32", "*u32, *u32, *u64, *u32, *u32, *u32, 8");
  cs.in(c).in(k).in(seeds).out<uint32_t>(4 * n).out<uint32_t>(4 * n).out<uint32_t>(4 * n);
  auto r = cs.run({1});
  auto impl = r.get<uint32_t>(3), impl7 = r.get<uint32_t>(4), ph = r.get<uint32_t>(5);
  for (int i = 0; i < n; ++i) {
    W4 ctr{c[4 * i], c[4 * i + 1], c[4 * i + 2], c[4 * i + 3]};
    W4 want = philox4x32(ctr, k[2 * i], k[2 * i + 1]);
    if (i < 3) EXPECT_EQ(want, kKat32[i].out);
    W4 want7 = philox4x32(ctr, k[2 * i], k[2 * i + 1], 7);
    for (int w = 0; w < 4; ++w) {
      EXPECT_EQ(impl[4 * i + w], want[w]) << "philox_impl vector " << i << " word " << w;
      EXPECT_EQ(impl7[4 * i + w], want7[w]) << "philox_impl n_rounds=7 vector " << i << " word " << w;
      EXPECT_EQ(ph[4 * i + w], want[w]) << "philox(seed) vector " << i << " word " << w;
    }
  }
}

TEST(ConformanceRandom, PhiloxImplKnownAnswers64) {
  const int n = 4;
  std::vector<uint64_t> c(4 * n), k(2 * n);
  for (int i = 0; i < n; ++i) {
    for (int w = 0; w < 4; ++w) c[4 * i + w] = i < 3 ? kKat64[i].ctr[w] : rng()();
    k[2 * i] = i < 3 ? kKat64[i].k0 : rng()();
    k[2 * i + 1] = i < 3 ? kKat64[i].k1 : rng()();
  }
  const uint64_t seed = 0xF00DBEEF12345678ull;  // above 2^63: a uint64 argument
  Case cs(kKatSrc, "kat64", "*u64, *u64, *u64, *u64, u64, 4");
  cs.in(c).in(k).out<uint64_t>(4 * n).out<uint64_t>(4 * n).scalar(seed);
  auto r = cs.run({1});
  auto impl = r.get<uint64_t>(2), ph = r.get<uint64_t>(3);
  for (int i = 0; i < n; ++i) {
    D4 ctr{c[4 * i], c[4 * i + 1], c[4 * i + 2], c[4 * i + 3]};
    D4 want = philox4x64(ctr, k[2 * i], k[2 * i + 1]);
    D4 want_seeded = philox4x64(ctr, seed, 0);
    for (int w = 0; w < 4; ++w) {
      if (i < 3) EXPECT_EQ(impl[4 * i + w], kKat64[i].out[w]) << "Random123 philox4x64_10 vector " << i;
      EXPECT_EQ(impl[4 * i + w], want[w]) << "philox_impl uint64 vector " << i << " word " << w;
      EXPECT_EQ(ph[4 * i + w], want_seeded[w]) << "philox(seed, int64 words) vector " << i << " word " << w;
    }
  }
}

// ---- every function, every offset dtype, every kind of seed -----------------------------------

// OFFSETS_EXPR computes `offs` (OFFSET_T) from `i` (the element's global index, int32) and
// `offs_ptr`; SEED_EXPR is the seed (the parameter `seed`, or a literal).
const char* kAllSrc = R"(
import triton
import triton.language as tl

@triton.jit
def allrng(offs_ptr, o_int4, o_int, o_u4, o_u, o_n4, o_n, seed, base, N: tl.constexpr):
    pid = tl.program_id(0)
    i = pid * N + tl.arange(0, N)
    offs = OFFSETS_EXPR
    a, b, c, d = tl.randint4x(SEED_EXPR, offs)
    tl.static_assert(a.dtype == tl.uint32)
    tl.store(o_int4 + 4 * i + 0, a)
    tl.store(o_int4 + 4 * i + 1, b)
    tl.store(o_int4 + 4 * i + 2, c)
    tl.store(o_int4 + 4 * i + 3, d)
    tl.store(o_int + i, tl.randint(SEED_EXPR, offs))
    u0, u1, u2, u3 = tl.rand4x(SEED_EXPR, offs)
    tl.store(o_u4 + 4 * i + 0, u0)
    tl.store(o_u4 + 4 * i + 1, u1)
    tl.store(o_u4 + 4 * i + 2, u2)
    tl.store(o_u4 + 4 * i + 3, u3)
    tl.store(o_u + i, tl.rand(SEED_EXPR, offs))
    n0, n1, n2, n3 = tl.randn4x(SEED_EXPR, offs)
    tl.store(o_n4 + 4 * i + 0, n0)
    tl.store(o_n4 + 4 * i + 1, n1)
    tl.store(o_n4 + 4 * i + 2, n2)
    tl.store(o_n4 + 4 * i + 3, n3)
    tl.store(o_n + i, tl.randn(SEED_EXPR, offs))
)";

struct OffsetKind {
  const char* dtype;  // Triton dtype name
  const char* sig;    // signature type of `base` and the pointee of offs_ptr
  bool wide;          // more than 32 bits
  bool is_signed;
};
const OffsetKind kOffsetKinds[] = {
    {"int32", "i32", false, true},
    {"uint32", "u32", false, false},
    {"int64", "i64", true, true},
    {"uint64", "u64", true, false},
};

struct SeedKind {
  const char* name;
  std::string expr;     // SEED_EXPR
  std::string sig;      // signature entry of the `seed` parameter
  uint64_t value;       // the seed modulo 2^64
  tritium::Arg arg;     // the run-time argument (ignored for constexpr entries)
};

std::vector<SeedKind> seed_kinds() {
  return {
      {"run-time negative int32", "seed", "i32", uint64_t(int64_t{-123456789}), tritium::Arg(int32_t{-123456789})},
      {"run-time int64 above 2^32", "seed", "i64", 0x0000000fcafeb0baull, tritium::Arg(int64_t{0x0000000fcafeb0ba})},
      {"run-time negative int64", "seed", "i64", uint64_t(int64_t{-0x123456789abcdef}),
       tritium::Arg(int64_t{-0x123456789abcdef})},
      {"run-time uint64 above 2^63", "seed", "u64", 0xF00DBEEF12345678ull, tritium::Arg(uint64_t{0xF00DBEEF12345678ull})},
      {"constexpr parameter", "seed", "42", 42, tritium::Arg(0)},
      {"literal 0", "0", "i32", 0, tritium::Arg(0)},
      {"literal uint32", "0xffffffff", "i32", 0xffffffffull, tritium::Arg(0)},
      {"literal int64", "0x0000000fcafeb0ba", "i32", 0x0000000fcafeb0baull, tritium::Arg(0)},
      {"literal negative", "-7", "i32", uint64_t(int64_t{-7}), tritium::Arg(0)},
      {"literal uint64", "0xFEDCBA9876543210", "i32", 0xFEDCBA9876543210ull, tritium::Arg(0)},
  };
}

// Runs allrng for one offset dtype and seed kind on `programs` programs of N = 64 elements.
// `loaded`: offsets are random 64-bit values loaded from memory (truncated to the dtype);
// otherwise arange + pid * N + base, base near the top of the dtype's range.
void check_all(const OffsetKind& ok, const SeedKind& sk, bool loaded, tritium::CompileOptions opts = {}) {
  const int N = 64, programs = 3, n = N * programs;
  std::string what = std::string("offsets ") + ok.dtype + (loaded ? " (loaded)" : " (arange + base)") + ", seed " +
                     sk.name + (opts.debug ? ", debug" : "") + (opts.portable_numerics ? ", portable numerics" : "");
  SCOPED_TRACE(what);
  std::string offs = loaded ? "tl.load(offs_ptr + i)" : std::string("i.to(tl.") + ok.dtype + ") + base";
  std::string src = replace_all(replace_all(kAllSrc, "OFFSETS_EXPR", offs), "SEED_EXPR", sk.expr);
  if (sk.sig == "42") src = replace_all(src, ", seed, base,", ", seed: tl.constexpr, base,");
  // base: the offsets cross 2^31 (int32: stay below it), 2^32 or 2^63 within the grid.
  int64_t base_i = 0;
  uint64_t base_u = 0;
  if (std::string(ok.dtype) == "int32") base_i = 0x7fffffff - n;
  if (std::string(ok.dtype) == "uint32") base_u = 0x80000000u - N;
  if (std::string(ok.dtype) == "int64") base_i = -int64_t{N} - 5;  // negative and non-negative offsets
  if (std::string(ok.dtype) == "uint64") base_u = 0xFFFFFFFFull - N;
  std::vector<uint64_t> offbits(n);  // each offset's bits, modulo 2^64, as the dtype holds it
  auto r64 = rand_int<uint64_t>(n, INT64_MIN, INT64_MAX, false);
  for (int e = 0; e < n; ++e) {
    uint64_t v = loaded ? r64[e] : (ok.is_signed ? uint64_t(base_i + e) : base_u + e);
    offbits[e] = ok.wide ? v : (ok.is_signed ? uint64_t(int64_t(int32_t(uint32_t(v)))) : uint64_t(uint32_t(v)));
  }
  // the offsets buffer in the dtype's width
  std::vector<uint32_t> o32(n);
  for (int e = 0; e < n; ++e) o32[e] = uint32_t(offbits[e]);
  std::string sig = std::string("*") + ok.sig + ", *u32, *u32, *fp32, *fp32, *fp32, *fp32, " + sk.sig + ", " +
                    ok.sig + ", 64";
  Case c(src, "allrng", sig, opts);
  if (ok.wide) c.in(offbits);
  else c.in(o32);
  c.out<uint32_t>(4 * n).out<uint32_t>(n).out<float>(4 * n).out<float>(n).out<float>(4 * n).out<float>(n);
  if (sk.sig != "42") c.scalar(sk.arg);
  if (ok.is_signed) {
    if (ok.wide) c.scalar(base_i);
    else c.scalar(int32_t(base_i));
  } else {
    if (ok.wide) c.scalar(base_u);
    else c.scalar(uint32_t(base_u));
  }
  auto r = c.run({programs});
  auto i4 = r.get<uint32_t>(1), i1 = r.get<uint32_t>(2);
  auto u4 = r.get<float>(3), u1 = r.get<float>(4), n4 = r.get<float>(5), n1 = r.get<float>(6);
  int failures = 0;
  for (int e = 0; e < n && failures < 8; ++e) {
    W4 w = ref_randint4x(sk.value, offbits[e], ok.wide);
    std::string at = "element " + std::to_string(e) + " offset " + hex(offbits[e]);
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(i4[4 * e + k], w[k]) << "randint4x word " << k << ", " << at;
      EXPECT_EQ(bits(u4[4 * e + k]), bits(ref_uniform(w[k]))) << "rand4x word " << k << ", " << at;
    }
    EXPECT_EQ(i1[e], w[0]) << "randint, " << at;
    EXPECT_EQ(bits(u1[e]), bits(ref_uniform(w[0]))) << "rand, " << at;
    double r01, r23;
    auto [a, b] = ref_normal(ref_uniform(w[0]), ref_uniform(w[1]), &r01);
    auto [cc, d] = ref_normal(ref_uniform(w[2]), ref_uniform(w[3]), &r23);
    expect_normal(n4[4 * e + 0], a, r01, "randn4x word 0, " + at);
    expect_normal(n4[4 * e + 1], b, r01, "randn4x word 1, " + at);
    expect_normal(n4[4 * e + 2], cc, r23, "randn4x word 2, " + at);
    expect_normal(n4[4 * e + 3], d, r23, "randn4x word 3, " + at);
    // randn is the first word of randn4x: the same operations, so the same bits
    EXPECT_EQ(bits(n1[e]), bits(n4[4 * e])) << "randn vs randn4x, " << at;
    if (::testing::Test::HasFailure()) ++failures;
  }
}

TEST(ConformanceRandom, AllFunctionsInt32Offsets) {
  for (const auto& sk : seed_kinds()) check_all(kOffsetKinds[0], sk, false);
  check_all(kOffsetKinds[0], seed_kinds()[0], true);
}
TEST(ConformanceRandom, AllFunctionsUint32Offsets) {
  auto seeds = seed_kinds();
  for (int s : {1, 3, 6}) check_all(kOffsetKinds[1], seeds[s], false);
  check_all(kOffsetKinds[1], seeds[2], true);
}
TEST(ConformanceRandom, AllFunctionsInt64Offsets) {
  auto seeds = seed_kinds();
  for (int s : {0, 1, 4, 9}) check_all(kOffsetKinds[2], seeds[s], false);
  check_all(kOffsetKinds[2], seeds[3], true);
}
TEST(ConformanceRandom, AllFunctionsUint64Offsets) {
  auto seeds = seed_kinds();
  for (int s : {2, 7, 8}) check_all(kOffsetKinds[3], seeds[s], false);
  check_all(kOffsetKinds[3], seeds[0], true);
  check_all(kOffsetKinds[3], seeds[3], true);
}

TEST(ConformanceRandom, DebugAndPortableModes) {
  // debug: overflow checks are active (the stdlib's wrapping arithmetic must not trip them,
  // also for words 0x80000000, which the uniform conversion folds); portable numerics:
  // tritium's own log / cos / sin, within the same bound.
  tritium::CompileOptions debug, portable;
  debug.debug = true;
  portable.portable_numerics = true;
  auto seeds = seed_kinds();
  check_all(kOffsetKinds[3], seeds[3], true, debug);
  check_all(kOffsetKinds[0], seeds[0], false, debug);
  check_all(kOffsetKinds[2], seeds[1], true, portable);
}

// ---- shapes, n_rounds, scalar offsets, float offsets, name resolution ---------------------------

TEST(ConformanceRandom, TwoDimensionalOffsetsAndRounds) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def rng2d(o_int, o_int3, o_u, seed, stride, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    offs = rows * stride + cols + tl.program_id(0) * M * stride
    r = tl.randint(seed, offs)
    tl.static_assert(r.shape == (M, N))
    idx = tl.program_id(0) * M * N + rows * N + cols
    tl.store(o_int + idx, r)
    tl.store(o_int3 + idx, tl.randint(seed, offs, n_rounds=3))
    tl.store(o_u + idx, tl.rand(seed, offs, 6))
)";
  const int M = 8, N = 16, P = 2, stride = 1000, n = M * N * P;
  const int64_t seed = -1;
  Case c(src, "rng2d", "*u32, *u32, *fp32, i64, i32, 8, 16");
  c.out<uint32_t>(n).out<uint32_t>(n).out<float>(n).scalar(seed).scalar(stride);
  auto r = c.run({P});
  auto a = r.get<uint32_t>(0), b = r.get<uint32_t>(1);
  auto u = r.get<float>(2);
  for (int p = 0; p < P; ++p)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        int idx = p * M * N + i * N + j;
        uint32_t off = uint32_t(i * stride + j + p * M * stride);
        EXPECT_EQ(a[idx], ref_randint4x(uint64_t(seed), off, false)[0]) << idx;
        EXPECT_EQ(b[idx], ref_randint4x(uint64_t(seed), off, false, 3)[0]) << idx;
        EXPECT_EQ(bits(u[idx]), bits(ref_uniform(ref_randint4x(uint64_t(seed), off, false, 6)[0]))) << idx;
      }
}

TEST(ConformanceRandom, ScalarOffsetsAndFloatOffsets) {
  // A scalar offset gives scalars. Float offsets are accepted as upstream's randint4x
  // accepts them: offset.to(tl.uint32) converts by value (truncation), an fp32 has 32 bits
  // so the high counter word is 0.
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def scal(o_int, o_f, seed, off, N: tl.constexpr):
    r = tl.randint(seed, off)
    tl.static_assert(r.shape == ())
    tl.store(o_int, r)
    tl.store(o_int + 1, tl.randint(seed, off.to(tl.int64) * 1000003))
    x = tl.arange(0, N).to(tl.float32) * 1.5 + 0.25
    tl.store(o_f + tl.arange(0, N), tl.randint(seed, x))
)";
  const int N = 16;
  const int32_t seed = 77, off = 123456;
  Case c(src, "scal", "*u32, *u32, i32, i32, 16");
  c.out<uint32_t>(2).out<uint32_t>(N).scalar(seed).scalar(off);
  auto r = c.run({1});
  auto a = r.get<uint32_t>(0), f = r.get<uint32_t>(1);
  EXPECT_EQ(a[0], ref_randint4x(seed, uint32_t(off), false)[0]);
  EXPECT_EQ(a[1], ref_randint4x(seed, uint64_t(int64_t{off} * 1000003), true)[0]);
  for (int i = 0; i < N; ++i) {
    float x = static_cast<float>(i) * 1.5f + 0.25f;
    EXPECT_EQ(f[i], ref_randint4x(seed, static_cast<uint32_t>(x), false)[0]) << i;
  }
}

TEST(ConformanceRandom, StdlibNamesResolveInTheirOwnModule) {
  // The user module rebinds names the stdlib uses (tl, N_ROUNDS_DEFAULT, a constant, a
  // function called randint) and imports the language under another name; the stdlib's
  // names resolve in its own module, and the user's randint stays the user's.
  const char* src = R"(
import triton
import triton.language as language
from triton.language import randint as tl_randint
from triton.language.random import randint4x

tl = None
N_ROUNDS_DEFAULT = 1
_MUL32_W0 = 12345

@triton.jit
def randint(seed, offset):
    return offset * 2

@triton.jit
def names(o, seed, N: language.constexpr):
    offs = language.arange(0, N)
    language.store(o + offs, tl_randint(seed, offs))
    language.store(o + N + offs, randint(seed, offs).to(language.uint32))
    a, b, c, d = randint4x(seed, offs)
    language.store(o + 2 * N + offs, d)
    language.store(o + 3 * N + offs, language.random.randint(seed, offs))
)";
  const int N = 32;
  Case c(src, "names", "*u32, i32, 32");
  c.out<uint32_t>(4 * N).scalar(int32_t{2024});
  auto o = c.run({1}).get<uint32_t>(0);
  for (int i = 0; i < N; ++i) {
    W4 w = ref_randint4x(2024, uint32_t(i), false);
    EXPECT_EQ(o[i], w[0]) << i;
    EXPECT_EQ(o[N + i], uint32_t(2 * i)) << i;
    EXPECT_EQ(o[2 * N + i], w[3]) << i;
    EXPECT_EQ(o[3 * N + i], w[0]) << i;
  }
}

// ---- the float conversions on their own --------------------------------------------------------

TEST(ConformanceRandom, UintToUniformFloatLimits) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def conv(x32, x64, o, N: tl.constexpr):
    i = tl.arange(0, N)
    v = tl.load(x32 + i)
    w = tl.load(x64 + i)
    tl.store(o + 0 * N + i, tl.uint_to_uniform_float(v))
    tl.store(o + 1 * N + i, tl.uint_to_uniform_float(v.to(tl.int32, bitcast=True)))
    tl.store(o + 2 * N + i, tl.random.uint_to_uniform_float(w))
    tl.store(o + 3 * N + i, tl.uint_to_uniform_float(w.to(tl.int64, bitcast=True)))
)";
  const int N = 64;
  std::vector<uint32_t> v = rand_int<uint32_t>(N, 0, 0xffffffff, false);
  std::vector<uint64_t> w = rand_int<uint64_t>(N, INT64_MIN, INT64_MAX, false);
  const uint32_t edge32[] = {0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x7fffff80, 0x7fffffbf, 0xffffff7f};
  const uint64_t edge64[] = {0, 1, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull, 0x7fffff8000000000ull};
  for (size_t i = 0; i < std::size(edge32); ++i) v[i] = edge32[i];
  for (size_t i = 0; i < std::size(edge64); ++i) w[i] = edge64[i];
  tritium::CompileOptions debug;
  debug.debug = true;  // INT_MIN inputs must not trip the overflow checks
  Case c(src, "conv", "*u32, *u64, *fp32, 64", debug);
  c.in(v).in(w).out<float>(4 * N);
  auto o = c.run({1}).get<float>(2);
  for (int i = 0; i < N; ++i) {
    EXPECT_EQ(bits(o[i]), bits(ref_uniform(v[i]))) << hex(v[i]);
    EXPECT_EQ(bits(o[N + i]), bits(ref_uniform(v[i]))) << hex(v[i]);
    EXPECT_EQ(bits(o[2 * N + i]), bits(ref_uniform64(w[i]))) << hex(w[i]);
    EXPECT_EQ(bits(o[3 * N + i]), bits(ref_uniform64(w[i]))) << hex(w[i]);
    for (int k = 0; k < 4; ++k) {
      EXPECT_GE(o[k * N + i], 0.0f);
      EXPECT_LT(o[k * N + i], 1.0f);
    }
  }
  // the extremes meet just below 1 (upstream's test_rand_limits)
  EXPECT_EQ(o[2], o[3]);
  EXPECT_GE(o[2], 1.0f - std::numeric_limits<float>::epsilon());
  EXPECT_EQ(o[2 * N + 2], o[2 * N + 3]);
  EXPECT_GE(o[2 * N + 2], 1.0f - std::numeric_limits<float>::epsilon());
}

TEST(ConformanceRandom, PairUniformToNormal) {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def bm(u_ptr, v_ptr, o, N: tl.constexpr):
    i = tl.arange(0, N)
    a, b = tl.pair_uniform_to_normal(tl.load(u_ptr + i), tl.load(v_ptr + i))
    tl.store(o + i, a)
    tl.store(o + N + i, b)
)";
  const int N = 64;
  auto u = rand_f32(N, 0.f, 1.f), v = rand_f32(N, 0.f, 1.f);
  u[0] = 0.0f, u[1] = 1e-8f, u[2] = 1.0e-7f, u[3] = 1.0f - std::numeric_limits<float>::epsilon() / 2;  // clamp edges
  v[0] = 0.0f, v[1] = 0.25f, v[2] = 0.5f, v[3] = 0.99999994f;
  Case c(src, "bm", "*fp32, *fp32, *fp32, 64");
  c.in(u).in(v).out<float>(2 * N);
  auto o = c.run({1}).get<float>(2);
  for (int i = 0; i < N; ++i) {
    double r;
    auto [a, b] = ref_normal(u[i], v[i], &r);
    expect_normal(o[i], a, r, "cos half " + std::to_string(i));
    expect_normal(o[N + i], b, r, "sin half " + std::to_string(i));
  }
  // u1 = 0 is clamped to 1e-7: r = sqrt(-2 ln fp32(1e-7)), the largest radius
  EXPECT_NEAR(o[0], std::sqrt(-2.0 * std::log(double(1.0e-7f))), 1e-5);
}

}  // namespace
