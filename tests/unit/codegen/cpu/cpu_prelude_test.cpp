// Tests of the CPU prelude's fp16 conversions (src/codegen/cpu/cpu_prelude.cpp) as generated
// kernels see them: the prelude text is compiled with the CPU backend's own compiler and
// kernel flags into a shared object, and its functions are checked against tritium's
// independent bit-exact converter (src/common/float_formats.h, fp_encode / fp_decode).
//
//   tr_h2f     all 65,536 fp16 encodings decode exactly (NaN: quiet, payload kept).
//   tr_f2h_n   the bulk RNE conversion of the fp16 fast stores (F16C where the machine has
//              it) gives tr_f2h's bits for all 2^32 float bit patterns, and both agree with
//              fp_encode on every 97th pattern plus every pattern near the fp16 thresholds.
//              Row lengths that are not a multiple of 8 exercise the scalar tail.
//   tr_f2bf_n  the bulk RNE conversion of the bf16 fast stores (vcvtne2ps2bf16 where the
//              machine has AVX512-BF16, the scalar path for groups holding a subnormal,
//              which that instruction flushes) gives tr_f2bf's bits for all 2^32 float bit
//              patterns, and tr_f2bf agrees with fp_encode on every 97th pattern plus every
//              pattern near the bf16 thresholds; lengths leave 32-lane remainders.
//   tr_h2f_n   the bulk decode of fp16 loads' twins (F16C / AVX-512F where the machine has
//              it) gives tr_h2f's bits for all 65,536 encodings, at lengths and offsets that
//              leave 8- and 16-lane remainders, without writing past the end.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "codegen/cpu/cpu_codegen.h"
#include "common/float_formats.h"
#include "runtime/cpu/compiler.h"

namespace {

namespace fs = std::filesystem;

// Exported wrappers around the prelude functions, compiled with the kernel flags.
constexpr const char* kDriver = R"(
extern "C" __attribute__((visibility("default"))) float t_h2f(uint16_t h) { return tr_h2f(h); }
extern "C" __attribute__((visibility("default"))) uint16_t t_f2h(float f) { return tr_f2h(f); }
extern "C" __attribute__((visibility("default"))) void t_f2h_n(uint16_t* d, const float* s, int64_t n) {
  tr_f2h_n(d, s, n);
}
extern "C" __attribute__((visibility("default"))) uint16_t t_f2bf(float f) { return tr_f2bf(f); }
extern "C" __attribute__((visibility("default"))) void t_f2bf_n(uint16_t* d, const float* s, int64_t n) {
  tr_f2bf_n(d, s, n);
}
// The next-program prefetch queue (tr_pf), driven from the test.
static tr_pf t_pf_state;
extern "C" __attribute__((visibility("default"))) void* t_pf_new() {  // a zeroed queue, as tritium_run starts
  memset(&t_pf_state, 0, sizeof t_pf_state);
  return &t_pf_state;
}
extern "C" __attribute__((visibility("default"))) void t_pf_program(void* p) {  // as tritium_run does
  tr_pf* pf = (tr_pf*)p;
  pf->n = pf->i = 0;
  pf->seen = 0;
}
extern "C" __attribute__((visibility("default"))) void t_pf_note(void* p, int site, uintptr_t row, int64_t bytes) {
  tr_pf_note((tr_pf*)p, site, (const void*)row, bytes);
}
extern "C" __attribute__((visibility("default"))) void t_pf_step(void* p, int lines) { tr_pf_step((tr_pf*)p, lines); }
extern "C" __attribute__((visibility("default"))) int t_pf_pending(void* p) { return ((tr_pf*)p)->n - ((tr_pf*)p)->i; }
extern "C" __attribute__((visibility("default"))) uintptr_t t_pf_cur(void* p) {  // the line prefetched next
  tr_pf* pf = (tr_pf*)p;
  return pf->cur[pf->i & 7];
}
extern "C" __attribute__((visibility("default"))) uintptr_t t_pf_end(void* p) { tr_pf* pf = (tr_pf*)p; return pf->end[pf->i & 7]; }
extern "C" __attribute__((visibility("default"))) void t_h2f_n(float* d, const uint16_t* s, int64_t n) {
  tr_h2f_n(d, s, n);
}
extern "C" __attribute__((visibility("default"))) float t_fmin(float a, float b) { return tr_fmin(a, b); }
extern "C" __attribute__((visibility("default"))) float t_fmax(float a, float b) { return tr_fmax(a, b); }
extern "C" __attribute__((visibility("default"))) double t_dmin(double a, double b) { return tr_fmin(a, b); }
extern "C" __attribute__((visibility("default"))) double t_dmax(double a, double b) { return tr_fmax(a, b); }
extern "C" __attribute__((visibility("default"))) void t_fmax_n(float* d, const float* a, const float* b, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = tr_fmax(a[i], b[i]);  // vectorized, as in kernels
}
extern "C" __attribute__((visibility("default"))) void t_fmin_n(float* d, const float* a, const float* b, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = tr_fmin(a[i], b[i]);
}
)";

struct Prelude {
  void* so = nullptr;
  float (*h2f)(uint16_t) = nullptr;
  uint16_t (*f2h)(float) = nullptr;
  void (*f2h_n)(uint16_t*, const float*, int64_t) = nullptr;
  void (*h2f_n)(float*, const uint16_t*, int64_t) = nullptr;
  uint16_t (*f2bf)(float) = nullptr;
  void (*f2bf_n)(uint16_t*, const float*, int64_t) = nullptr;
  void* (*pf_new)() = nullptr;
  void (*pf_program)(void*) = nullptr;
  void (*pf_note)(void*, int, uintptr_t, int64_t) = nullptr;
  void (*pf_step)(void*, int) = nullptr;
  int (*pf_pending)(void*) = nullptr;
  uintptr_t (*pf_cur)(void*) = nullptr;
  uintptr_t (*pf_end)(void*) = nullptr;
  float (*fmin)(float, float) = nullptr;
  float (*fmax)(float, float) = nullptr;
  double (*dmin)(double, double) = nullptr;
  double (*dmax)(double, double) = nullptr;
  void (*fmax_n)(float*, const float*, const float*, int64_t) = nullptr;
  void (*fmin_n)(float*, const float*, const float*, int64_t) = nullptr;
};

const Prelude& prelude() {
  static Prelude p = [] {
    Prelude r;
    const fs::path dir = fs::temp_directory_path() / ("tritium_prelude_test_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path src = dir / "prelude.cpp", so = dir / "prelude.so";
    std::ofstream(src) << tritium::codegen::cpu::cpu_prelude() << kDriver;
    tritium::runtime::cpu::compile_shared_object(src, so, false);
    r.so = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!r.so) return r;
    r.h2f = reinterpret_cast<float (*)(uint16_t)>(dlsym(r.so, "t_h2f"));
    r.f2h = reinterpret_cast<uint16_t (*)(float)>(dlsym(r.so, "t_f2h"));
    r.f2h_n = reinterpret_cast<void (*)(uint16_t*, const float*, int64_t)>(dlsym(r.so, "t_f2h_n"));
    r.h2f_n = reinterpret_cast<void (*)(float*, const uint16_t*, int64_t)>(dlsym(r.so, "t_h2f_n"));
    r.f2bf = reinterpret_cast<uint16_t (*)(float)>(dlsym(r.so, "t_f2bf"));
    r.f2bf_n = reinterpret_cast<void (*)(uint16_t*, const float*, int64_t)>(dlsym(r.so, "t_f2bf_n"));
    r.pf_new = reinterpret_cast<void* (*)()>(dlsym(r.so, "t_pf_new"));
    r.pf_program = reinterpret_cast<void (*)(void*)>(dlsym(r.so, "t_pf_program"));
    r.pf_note = reinterpret_cast<void (*)(void*, int, uintptr_t, int64_t)>(dlsym(r.so, "t_pf_note"));
    r.pf_step = reinterpret_cast<void (*)(void*, int)>(dlsym(r.so, "t_pf_step"));
    r.pf_pending = reinterpret_cast<int (*)(void*)>(dlsym(r.so, "t_pf_pending"));
    r.pf_cur = reinterpret_cast<uintptr_t (*)(void*)>(dlsym(r.so, "t_pf_cur"));
    r.pf_end = reinterpret_cast<uintptr_t (*)(void*)>(dlsym(r.so, "t_pf_end"));
    r.fmin = reinterpret_cast<float (*)(float, float)>(dlsym(r.so, "t_fmin"));
    r.fmax = reinterpret_cast<float (*)(float, float)>(dlsym(r.so, "t_fmax"));
    r.dmin = reinterpret_cast<double (*)(double, double)>(dlsym(r.so, "t_dmin"));
    r.dmax = reinterpret_cast<double (*)(double, double)>(dlsym(r.so, "t_dmax"));
    using Row = void (*)(float*, const float*, const float*, int64_t);
    r.fmax_n = reinterpret_cast<Row>(dlsym(r.so, "t_fmax_n"));
    r.fmin_n = reinterpret_cast<Row>(dlsym(r.so, "t_fmin_n"));
    std::error_code ec;
    fs::remove_all(dir, ec);
    return r;
  }();
  return p;
}

uint32_t bits_of(float f) { return std::bit_cast<uint32_t>(f); }
float float_of(uint32_t u) { return std::bit_cast<float>(u); }

TEST(CpuPrelude, HalfToFloatIsExactForEveryEncoding) {
  const Prelude& p = prelude();
  ASSERT_NE(p.h2f, nullptr) << dlerror();
  int bad = 0;
  for (uint32_t h = 0; h < 65536; ++h) {
    const float got = p.h2f(static_cast<uint16_t>(h));
    const double want = tritium::fp_decode(tritium::FloatFormat::F16, h);
    const bool ok = std::isnan(want) ? (std::isnan(got) && std::signbit(got) == std::signbit(want) &&
                                        (bits_of(got) & 0x00400000u) &&                      // quiet
                                        ((bits_of(got) >> 13) & 0x1ffu) == (h & 0x1ffu))     // payload
                                     : bits_of(got) == bits_of(static_cast<float>(want));
    if (!ok && ++bad <= 5) ADD_FAILURE() << "h2f(0x" << std::hex << h << ") = " << got;
  }
  EXPECT_EQ(bad, 0);
}

TEST(CpuPrelude, BulkHalfToFloatMatchesScalarForEveryEncoding) {
  const Prelude& p = prelude();
  ASSERT_NE(p.h2f_n, nullptr) << dlerror();
  ASSERT_NE(p.h2f, nullptr);
  std::vector<uint16_t> in(65536);
  for (uint32_t h = 0; h < 65536; ++h) in[h] = static_cast<uint16_t>(h);
  const uint32_t kSentinel = 0x7fbadbadu;  // a NaN pattern neither decode produces
  int64_t bad = 0;
  // Whole range in one call, then chunks whose lengths leave every remainder mod 16 (the
  // 16-lane loop, the 8-lane loop and the scalar tail) at unaligned starts.
  std::vector<int64_t> lengths = {65536};
  for (int64_t len = 1; len <= 40; ++len) lengths.push_back(len);
  for (int64_t len : lengths) {
    std::vector<float> out(65536 + 1);
    for (int64_t start = 0; start < 65536; start += len) {
      const int64_t n = std::min<int64_t>(len, 65536 - start);
      std::memcpy(&out[start + n], &kSentinel, 4);
      p.h2f_n(out.data() + start, in.data() + start, n);
      if (bits_of(out[start + n]) != kSentinel && ++bad <= 5)
        ADD_FAILURE() << "tr_h2f_n wrote past its end (len " << len << ")";
    }
    for (uint32_t h = 0; h < 65536; ++h) {
      const uint32_t want = bits_of(p.h2f(static_cast<uint16_t>(h))), got = bits_of(out[h]);
      if (got != want && ++bad <= 5)
        ADD_FAILURE() << "len " << len << ", fp16 0x" << std::hex << h << ": bulk 0x" << got << ", scalar 0x" << want;
    }
  }
  EXPECT_EQ(bad, 0);
}

// Bulk `conv_n` against scalar `conv` for all 2^32 float bit patterns, in chunks of 2^16,
// each converted as one row of 2^16 - 5 elements (every pattern but each chunk's last 5
// goes through the vector groups; the sentinel after the row must survive) and then the
// last 5 (the scalar tail). Every 16th chunk is converted again in rows of 37 and 23
// elements (vector groups plus tails, and rows shorter than a group) at unaligned starts.
// Returns the mismatches (the first five are reported).
int64_t bulk_mismatches_over_all_floats(void (*conv_n)(uint16_t*, const float*, int64_t), uint16_t (*conv)(float),
                                        const char* name) {
  constexpr int64_t kChunk = 1 << 16;
  std::vector<float> in(kChunk);
  std::vector<uint16_t> out(kChunk + 1), want(kChunk);
  int64_t bad = 0;
  auto compare = [&](const char* how) {
    for (int64_t i = 0; i < kChunk; ++i)
      if (out[i] != want[i] && ++bad <= 5)
        ADD_FAILURE() << name << " (" << how << "), float 0x" << std::hex << bits_of(in[i]) << ": bulk 0x" << out[i]
                      << ", scalar 0x" << want[i];
  };
  auto row = [&](int64_t start, int64_t n) {
    const uint16_t keep = out[start + n];
    out[start + n] = 0xbeef;
    conv_n(out.data() + start, in.data() + start, n);
    if (out[start + n] != 0xbeef && ++bad <= 5) ADD_FAILURE() << name << " wrote past its row";
    out[start + n] = keep;
  };
  for (uint64_t base = 0; base < (uint64_t{1} << 32); base += kChunk) {
    for (int64_t i = 0; i < kChunk; ++i) in[i] = float_of(static_cast<uint32_t>(base + i));
    for (int64_t i = 0; i < kChunk; ++i) want[i] = conv(in[i]);
    row(0, kChunk - 5);
    row(kChunk - 5, 5);
    compare("one row");
    if ((base / kChunk) % 16 != 0) continue;
    std::fill(out.begin(), out.end(), 0);
    for (int64_t start = 0; start < kChunk;) {
      const int64_t n = std::min<int64_t>((start / 37) % 2 ? 23 : 37, kChunk - start);
      row(start, n);
      start += n;
    }
    compare("short rows");
  }
  return bad;
}

TEST(CpuPrelude, BulkFloatToHalfMatchesScalarForAllFloats) {
  const Prelude& p = prelude();
  ASSERT_NE(p.f2h_n, nullptr) << dlerror();
  ASSERT_NE(p.f2h, nullptr);
  EXPECT_EQ(bulk_mismatches_over_all_floats(p.f2h_n, p.f2h, "tr_f2h_n"), 0);
}

TEST(CpuPrelude, BulkFloatToBf16MatchesScalarForAllFloats) {
  const Prelude& p = prelude();
  ASSERT_NE(p.f2bf_n, nullptr) << dlerror();
  ASSERT_NE(p.f2bf, nullptr);
  EXPECT_EQ(bulk_mismatches_over_all_floats(p.f2bf_n, p.f2bf, "tr_f2bf_n"), 0);
}


// The prefetch queue: the program stride comes from each site's first row in consecutive
// programs; every row the site reads then queues the row one stride ahead; a site with
// stride 0 (the same row every program) queues nothing; a row another site already queued
// is not queued twice; the ring holds 8 rows; a step prefetches lines in order and moves to
// the next row at the end of one.
TEST(CpuPrelude, PrefetchQueuePredictsRowsAtTheProgramStride) {
  const Prelude& p = prelude();
  ASSERT_NE(p.pf_new, nullptr) << dlerror();
  void* pf = p.pf_new();
  const uintptr_t x = 0x100000, w = 0x900000, stride = 0x2000;
  // Program 0: nothing to compare with yet.
  p.pf_program(pf);
  p.pf_note(pf, 0, x, 1024);
  p.pf_note(pf, 1, w, 1024);
  EXPECT_EQ(p.pf_pending(pf), 0);
  // Program 1 reads its row in two blocks (site 0 in a loop), then the weights (site 1).
  p.pf_program(pf);
  p.pf_note(pf, 0, x + stride, 1024);
  p.pf_note(pf, 0, x + stride + 1024, 1024);
  p.pf_note(pf, 1, w, 1024);  // stride 0: nothing
  p.pf_note(pf, 2, x + stride, 1024);  // site 2 (a second pass): its first program, nothing
  ASSERT_EQ(p.pf_pending(pf), 2);
  EXPECT_EQ(p.pf_cur(pf), x + 2 * stride);
  EXPECT_EQ(p.pf_end(pf), x + 2 * stride + 1024);
  p.pf_step(pf, 15);  // 15 of the row's 16 lines
  EXPECT_EQ(p.pf_cur(pf), x + 2 * stride + 15 * 64);
  p.pf_step(pf, 1);  // the last line: on to the second block
  ASSERT_EQ(p.pf_pending(pf), 1);
  EXPECT_EQ(p.pf_cur(pf), x + 2 * stride + 1024);
  // Program 2: site 2 now has a stride and queues the row site 0 already queued: once.
  p.pf_program(pf);
  EXPECT_EQ(p.pf_pending(pf), 0);
  p.pf_note(pf, 0, x + 2 * stride, 1024);
  p.pf_note(pf, 2, x + 2 * stride, 1024);
  EXPECT_EQ(p.pf_pending(pf), 1);
  // A negative stride (rows in reverse) predicts downwards; the ring stops at 8 rows.
  p.pf_program(pf);
  p.pf_note(pf, 0, x, 64);  // stride -2 * stride from program 2
  EXPECT_EQ(p.pf_cur(pf), x - 2 * stride);
  for (int k = 1; k < 12; ++k) p.pf_note(pf, 0, x + k * 4096, 64);
  EXPECT_EQ(p.pf_pending(pf), 8);
  p.pf_step(pf, 100);  // one line per row: all 8 prefetched, then nothing left
  EXPECT_EQ(p.pf_pending(pf), 0);
  p.pf_step(pf, 1);
  EXPECT_EQ(p.pf_pending(pf), 0);
}

TEST(CpuPrelude, FloatToBf16RoundsLikeTheReferenceConverter) {
  const Prelude& p = prelude();
  ASSERT_NE(p.f2bf, nullptr) << dlerror();
  int64_t bad = 0, checked = 0;
  auto check = [&](uint32_t u) {
    const float f = float_of(u);
    const uint16_t got = p.f2bf(f);
    const uint32_t want = tritium::fp_encode_f32(tritium::FloatFormat::BF16, f);
    ++checked;
    // NaN: the reference's quiet NaN and tr_f2bf's (the input's top bits, quiet bit set)
    // may carry different payloads; both must be NaNs of the input's sign.
    const bool nan_in = (u & 0x7fffffffu) > 0x7f800000u;
    const bool ok = nan_in ? ((got & 0x7fffu) > 0x7f80u && (got & 0x40u) && (got >> 15) == (u >> 31)) : got == want;
    if (!ok && ++bad <= 5)
      ADD_FAILURE() << "float 0x" << std::hex << u << ": tr_f2bf 0x" << got << ", reference 0x" << want;
  };
  for (uint64_t u = 0; u < (uint64_t{1} << 32); u += 97) check(static_cast<uint32_t>(u));
  // Every pattern within 2^14 ulps of the bf16 edges: the smallest subnormals, the
  // subnormal/normal boundary, the overflow threshold, one, and NaN/Inf, both signs.
  for (float edge : {0x1p-149f, 0x1p-133f, 0x1p-126f, 0x1.fep127f, 1.0f, INFINITY}) {
    for (uint32_t sign : {0u, 0x80000000u}) {
      const uint32_t c = bits_of(edge) | sign;
      for (uint32_t d = 0; d < (1u << 14); ++d) check(c + d), check(c - d);
    }
  }
  EXPECT_EQ(bad, 0);
  EXPECT_GT(checked, 44000000);
}

TEST(CpuPrelude, FloatToHalfRoundsLikeTheReferenceConverter) {
  const Prelude& p = prelude();
  ASSERT_NE(p.f2h, nullptr) << dlerror();
  int64_t bad = 0, checked = 0;
  auto check = [&](uint32_t u) {
    const float f = float_of(u);
    const uint16_t got = p.f2h(f);
    const uint32_t want = tritium::fp_encode_f32(tritium::FloatFormat::F16, f);
    ++checked;
    if (got != want && ++bad <= 5)
      ADD_FAILURE() << "float 0x" << std::hex << u << ": tr_f2h 0x" << got << ", reference 0x" << want;
  };
  for (uint64_t u = 0; u < (uint64_t{1} << 32); u += 97) check(static_cast<uint32_t>(u));
  // Every pattern within 2^14 ulps of the fp16 edges: smallest subnormal, subnormal/normal
  // boundary, the overflow threshold (65520), one, and NaN/Inf, both signs.
  for (float edge : {0x1p-25f, 0x1p-24f, 0x1p-14f, 65504.0f, 65520.0f, 1.0f, INFINITY}) {
    for (uint32_t sign : {0u, 0x80000000u}) {
      const uint32_t c = bits_of(edge) | sign;
      for (uint32_t d = 0; d < (1u << 14); ++d) check(c + d), check(c - d);
    }
  }
  EXPECT_EQ(bad, 0);
  EXPECT_GT(checked, 44000000);
}

}  // namespace

namespace {

// The min / max rules (propagate_nan = 0), written directly from their statement: a NaN
// operand loses to a number; two NaNs give the first; -0 < +0; otherwise the smaller /
// larger value. Returns the expected bits.
template <class F, class U>
U rule_min_max(F a, F b, bool is_max) {
  auto bits = [](F x) { return std::bit_cast<U>(x); };
  if (std::isnan(a)) return std::isnan(b) ? bits(a) : bits(b);
  if (std::isnan(b)) return bits(a);
  if (a == b) {  // equal: identical, or +0 and -0
    if (a != 0) return bits(a);
    const bool neg = is_max ? (std::signbit(a) && std::signbit(b)) : (std::signbit(a) || std::signbit(b));
    return bits(neg ? F(-0.0) : F(0.0));
  }
  return bits(is_max ? (a > b ? a : b) : (a < b ? a : b));
}

template <class F, class U>
std::vector<F> special_values() {
  std::vector<F> v = {F(0.0), F(-0.0), F(1.0), F(-1.0), F(1.5), F(-2.25), std::numeric_limits<F>::infinity(),
                      -std::numeric_limits<F>::infinity(), std::numeric_limits<F>::min(),
                      std::numeric_limits<F>::denorm_min(), -std::numeric_limits<F>::denorm_min(),
                      std::numeric_limits<F>::max(), std::numeric_limits<F>::lowest()};
  const U exp_all = sizeof(U) == 4 ? U(0x7f800000u) : U(0x7ff0000000000000ull);
  const U sign = U(1) << (sizeof(U) * 8 - 1);
  for (U payload : {U(1), U(5), exp_all >> 1 & ~(exp_all >> 2), U(0x1234)}) {  // NaNs: quiet, signalling, payloads
    v.push_back(std::bit_cast<F>(U(exp_all | payload)));
    v.push_back(std::bit_cast<F>(U(sign | exp_all | payload)));
  }
  return v;
}

TEST(CpuPrelude, FloatMinMaxFollowTheRulesOnSpecialAndRandomValues) {
  const Prelude& p = prelude();
  ASSERT_NE(p.fmin, nullptr) << dlerror();
  ASSERT_NE(p.fmax_n, nullptr);
  std::vector<float> vals = special_values<float, uint32_t>();
  std::mt19937 rng(20261201);
  for (int i = 0; i < 200; ++i) vals.push_back(std::bit_cast<float>(static_cast<uint32_t>(rng())));
  vals.push_back(vals.back());  // an equal pair of random values
  std::vector<float> a, b;
  for (float x : vals)
    for (float y : vals) a.push_back(x), b.push_back(y);
  std::vector<float> mx(a.size()), mn(a.size());
  p.fmax_n(mx.data(), a.data(), b.data(), static_cast<int64_t>(a.size()));
  p.fmin_n(mn.data(), a.data(), b.data(), static_cast<int64_t>(a.size()));
  int bad = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const uint32_t want_max = rule_min_max<float, uint32_t>(a[i], b[i], true);
    const uint32_t want_min = rule_min_max<float, uint32_t>(a[i], b[i], false);
    for (auto [got, want, what] : {std::tuple{bits_of(p.fmax(a[i], b[i])), want_max, "max"},
                                   std::tuple{bits_of(mx[i]), want_max, "max (vector loop)"},
                                   std::tuple{bits_of(p.fmin(a[i], b[i])), want_min, "min"},
                                   std::tuple{bits_of(mn[i]), want_min, "min (vector loop)"}})
      if (got != want && ++bad <= 8)
        ADD_FAILURE() << what << "(0x" << std::hex << bits_of(a[i]) << ", 0x" << bits_of(b[i]) << ") = 0x" << got
                      << ", want 0x" << want;
  }
  EXPECT_EQ(bad, 0);
}

TEST(CpuPrelude, DoubleMinMaxFollowTheRules) {
  const Prelude& p = prelude();
  ASSERT_NE(p.dmin, nullptr) << dlerror();
  const std::vector<double> vals = special_values<double, uint64_t>();
  int bad = 0;
  for (double x : vals)
    for (double y : vals) {
      const uint64_t gmax = std::bit_cast<uint64_t>(p.dmax(x, y)), gmin = std::bit_cast<uint64_t>(p.dmin(x, y));
      if (gmax != rule_min_max<double, uint64_t>(x, y, true) && ++bad <= 5)
        ADD_FAILURE() << "max(" << x << ", " << y << ")";
      if (gmin != rule_min_max<double, uint64_t>(x, y, false) && ++bad <= 5)
        ADD_FAILURE() << "min(" << x << ", " << y << ")";
    }
  EXPECT_EQ(bad, 0);
}

}  // namespace
