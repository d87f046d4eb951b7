// Kernel::run (Triton's kernel[grid](...)) honouring @triton.autotune, @triton.heuristics
// and @triton.jit(do_not_specialize=...), on the interp and cpu backends. Expected values
// are computed here from the inputs (integer arithmetic or one correctly rounded fp32
// operation, so results must match exactly); outputs are poisoned before each launch.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "tritium/tritium.h"

namespace {

using tritium::Arg;
using tritium::Buffer;
using tritium::ConstexprValue;
using tritium::Device;
using tritium::Error;
using tritium::ErrorKind;
using tritium::Grid;
using tritium::Kernel;
using tritium::Meta;
using tritium::Module;

const char* const kSource = R"(import triton
import triton.language as tl

BLOCKS = [16, 32]

def make_configs():
    """Host code the decorator calls: assignments, a loop, append, return."""
    out = []
    for b in BLOCKS:
        out.append(triton.Config({'BLOCK': b}, num_warps=2))
    return out + [triton.Config({'BLOCK': 64}, num_warps=4, num_stages=2)]

@triton.autotune(configs=make_configs(), key=['n'])
@triton.jit
def scale(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * alpha, mask=m)

@triton.autotune(configs=[triton.Config({'BLOCK': b}) for b in (8, 4096)], key=['n'])
@triton.jit
def static_fail(x_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= 1024, "BLOCK too large")
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)

@triton.autotune(configs=[triton.Config({'BLOCK': 16}), triton.Config({'BLOCK': 32})], key=['n'],
                 reset_to_zero=['acc_ptr'], restore_value=['inout_ptr'])
@triton.jit
def accumulate(x_ptr, acc_ptr, inout_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.atomic_add(acc_ptr, tl.sum(x, axis=0))
    tl.store(inout_ptr + offs, tl.load(inout_ptr + offs, mask=m) + x, mask=m)

@triton.heuristics({'BLOCK': lambda args: triton.next_power_of_2(args['n']),
                    'EVEN': lambda args: args['n'] == args['BLOCK']})
@triton.jit
def row_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    if EVEN:
        x = tl.load(x_ptr + offs)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.store(out_ptr, tl.sum(x, axis=0) * 2 + EVEN)

@triton.heuristics({'USE_H0': lambda args: args['h0_ptr'] is not None})
@triton.jit
def optional_ptr(x_ptr, h0_ptr, out_ptr, n, USE_H0: tl.constexpr):
    offs = tl.arange(0, 64)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if h0_ptr is not None:
        tl.static_assert(USE_H0)
        x += tl.load(h0_ptr + offs, mask=m)
    else:
        tl.static_assert(not USE_H0)
    tl.store(out_ptr + offs, x, mask=m)

@triton.jit(do_not_specialize=['n'], do_not_specialize_on_alignment=[0])
def spec(x_ptr, y_ptr, n, m, k):
    tl.store(x_ptr, n + m + k)
    tl.store(y_ptr, n)
)";

std::vector<int32_t> random_ints(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int32_t> d(-1000, 1000);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = d(gen) | 1;  // odd: never 0
  return v;
}

class KernelRun : public ::testing::TestWithParam<std::string> {
 protected:
  Device dev = Device::get(GetParam());
  Module mod = Module::from_string(kSource, "run_test.py");
};

TEST_P(KernelRun, AutotunePicksAConfigOncePerKeyAndComputesTheResult) {
  Kernel k = mod.kernel("scale");
  ASSERT_EQ(k.decorators().configs.size(), 3u);
  bool first = true;
  for (int n : {1000, 37, 1000}) {
    std::vector<float> x(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) x[static_cast<size_t>(i)] = static_cast<float>(i % 97) * 0.37f - 11.f;
    Buffer bx = dev.upload(x);
    std::vector<float> poison(static_cast<size_t>(n), std::nanf(""));
    Buffer bo = dev.upload(poison);
    auto grid = [n](const Meta& m) { return Grid(tritium::cdiv(n, std::get<int64_t>(m.at("BLOCK")))); };
    Kernel::RunResult r = k.run(dev, grid, {Arg::tensor(bx, "fp32"), Arg::tensor(bo, "fp32"), n, 1.5f});
    std::vector<float> out = bo.download<float>();
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[static_cast<size_t>(i)], x[static_cast<size_t>(i)] * 1.5f) << "n=" << n << " i=" << i;
    ASSERT_GE(r.config, 0);
    ASSERT_LT(r.config, 3);
    // The meta-parameters of the chosen config, and its num_warps, reached the launch.
    const tritium::AutotuneConfig cfg = k.decorators().configs[static_cast<size_t>(r.config)];
    EXPECT_EQ(std::get<int64_t>(r.meta.at("BLOCK")), std::get<int64_t>(cfg.kwargs[0].second));
    EXPECT_EQ(std::get<int64_t>(r.meta.at("num_warps")), cfg.num_warps);
    EXPECT_EQ(std::get<int64_t>(r.meta.at("n")), n);
    if (n == 37) EXPECT_TRUE(r.tuned) << "a new key value tunes again";
    if (first) EXPECT_TRUE(r.tuned);
    if (!first && n == 1000) {
      EXPECT_FALSE(r.tuned) << "the result for n=1000 is kept";
      EXPECT_TRUE(r.timings.empty());
    }
    if (r.tuned) {
      ASSERT_EQ(r.timings.size(), 3u);
      for (double t : r.timings) EXPECT_TRUE(t > 0 && std::isfinite(t));
    }
    first = false;
  }
}

TEST_P(KernelRun, ConfigThatFailsToCompileIsSkipped) {
  Kernel k = mod.kernel("static_fail");
  std::vector<int32_t> x = random_ints(100, 1), expect = x;
  for (auto& v : expect) ++v;
  Buffer bx = dev.upload(x);
  auto r = k.run(dev, [](const Meta& m) { return Grid(tritium::cdiv(100, std::get<int64_t>(m.at("BLOCK")))); },
                 {Arg::tensor(bx, "i32"), 100});
  EXPECT_EQ(r.config, 0);
  ASSERT_EQ(r.timings.size(), 2u);
  EXPECT_TRUE(std::isinf(r.timings[1]));
  // Timed launches changed x in place (no restore_value here); the last launch added 1 to
  // whatever was there, so only check the result against the value before that launch.
  std::vector<int32_t> before = bx.download<int32_t>();
  k.run(dev, [](const Meta& m) { return Grid(tritium::cdiv(100, std::get<int64_t>(m.at("BLOCK")))); },
        {Arg::tensor(bx, "i32"), 100});
  std::vector<int32_t> after = bx.download<int32_t>();
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(after[i], before[i] + 1) << i;
}

TEST_P(KernelRun, ResetToZeroAndRestoreValueMakeTuningInvisible) {
  Kernel k = mod.kernel("accumulate");
  const int n = 300;
  std::vector<int32_t> x = random_ints(n, 2), io = random_ints(n, 3);
  Buffer bx = dev.upload(x), bio = dev.upload(io);
  std::vector<int32_t> acc0 = {123456};  // not zero: reset_to_zero must clear it
  Buffer bacc = dev.upload(acc0);
  auto r = k.run(dev, [n](const Meta& m) { return Grid(tritium::cdiv(n, std::get<int64_t>(m.at("BLOCK")))); },
                 {Arg::tensor(bx, "i32"), Arg::tensor(bacc, "i32"), Arg::tensor(bio, "i32"), n});
  EXPECT_TRUE(r.tuned);
  int64_t sum = 0;
  for (int v : x) sum += v;
  EXPECT_EQ(bacc.download<int32_t>()[0], sum) << "exactly one launch after the zeroing";
  std::vector<int32_t> got = bio.download<int32_t>();
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[static_cast<size_t>(i)], io[static_cast<size_t>(i)] + x[static_cast<size_t>(i)]) << i;
}

TEST_P(KernelRun, HeuristicsSetMetaParametersFromArguments) {
  Kernel k = mod.kernel("row_sum");
  EXPECT_EQ(k.decorators().heuristics, (std::vector<std::string>{"BLOCK", "EVEN"}));
  for (int n : {64, 50}) {
    std::vector<int32_t> x = random_ints(static_cast<size_t>(n), 4);
    Buffer bx = dev.upload(x);
    Buffer bo = dev.upload(std::vector<int32_t>{-777});
    auto r = k.run(dev, Grid(1), {Arg::tensor(bx, "i32"), Arg::tensor(bo, "i32"), n});
    int64_t s = 0;
    for (int v : x) s += v;
    const bool even = n == 64;
    EXPECT_EQ(bo.download<int32_t>()[0], s * 2 + (even ? 1 : 0)) << n;
    EXPECT_EQ(std::get<int64_t>(r.meta.at("BLOCK")), 64);
    EXPECT_EQ(std::get<bool>(r.meta.at("EVEN")), even);
  }
  // A value the heuristics compute may also be passed: as upstream, the heuristic's wins.
  std::vector<int32_t> x = random_ints(64, 4);
  Buffer bx = dev.upload(x);
  Buffer bo = dev.upload(std::vector<int32_t>{-777});
  auto r = k.run(dev, Grid(1), {Arg::tensor(bx, "i32"), Arg::tensor(bo, "i32"), 64}, {{"BLOCK", int64_t{4}}});
  EXPECT_EQ(std::get<int64_t>(r.meta.at("BLOCK")), 64);
  int64_t s = 0;
  for (int v : x) s += v;
  EXPECT_EQ(bo.download<int32_t>()[0], s * 2 + 1);
}

TEST_P(KernelRun, SpecializesLikeTritonsJitExceptDoNotSpecialize) {
  Kernel k = mod.kernel("spec");
  EXPECT_EQ(k.decorators().do_not_specialize, std::vector<std::string>{"n"});
  EXPECT_EQ(k.decorators().do_not_specialize_on_alignment, std::vector<std::string>{"x_ptr"});
  Buffer bx = dev.alloc(64), by = dev.alloc(64);
  auto r = k.run(dev, Grid(1), {Arg::tensor(bx, "i64"), Arg::tensor(by, "i32"), 1, int64_t{1} << 40, 32});
  // x_ptr: no :16 (do_not_specialize_on_alignment); y_ptr aligned: :16; n == 1 but
  // do_not_specialize: plain i32; m = 2^40 does not fit int32: i64, a multiple of 16; k too.
  EXPECT_EQ(r.kernel.signature(), "*i64, *i32:16, i32, i64:16, i32:16") << r.kernel.signature();
  EXPECT_EQ(bx.download<int64_t>()[0], 1 + (int64_t{1} << 40) + 32);
  EXPECT_EQ(by.download<int32_t>()[0], 1);
}

TEST_P(KernelRun, NoneArgumentsAreSpecializedAway) {
  // Triton specializes a None argument as the constexpr None: `is None` tests are static,
  // heuristics see None, and the compiled kernel has no such parameter.
  Kernel k = mod.kernel("optional_ptr");
  const int n = 50;
  std::vector<int32_t> x = random_ints(n, 5), h = random_ints(n, 6);
  Buffer bx = dev.upload(x), bh = dev.upload(h);
  for (bool with_h0 : {true, false}) {
    Buffer bo = dev.upload(std::vector<int32_t>(n, -424242));
    Arg h0 = with_h0 ? Arg::tensor(bh, "i32") : Arg::none();
    auto r = k.run(dev, Grid(1), {Arg::tensor(bx, "i32"), h0, Arg::tensor(bo, "i32"), n});
    std::vector<int32_t> out = bo.download<int32_t>();
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], x[i] + (with_h0 ? h[i] : 0)) << with_h0 << " " << i;
    EXPECT_EQ(std::get<bool>(r.meta.at("USE_H0")), with_h0);
    EXPECT_EQ(r.kernel.arguments().size(), with_h0 ? 4u : 3u);
    if (!with_h0) EXPECT_NE(r.kernel.signature().find("None"), std::string::npos) << r.kernel.signature();
  }
}

TEST_P(KernelRun, RefusesWhatItCannotHonour) {
  Buffer b = dev.alloc(1024);
  auto expect_error = [&](const std::function<void()>& f, ErrorKind kind, const std::string& text) {
    try {
      f();
      FAIL() << "expected an error containing: " << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), kind) << e.what();
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  Kernel spec = mod.kernel("spec");
  expect_error([&] { spec.run(dev, Grid(1), {Arg(b), Arg::tensor(b, "i32"), 1, 2, 3}); }, ErrorKind::Argument,
               "without a dtype");
  expect_error([&] { spec.run(dev, Grid(1), {Arg::tensor(b, "i64")}); }, ErrorKind::Argument, "expects 5 arguments");
  Kernel scale = mod.kernel("scale");
  expect_error(
      [&] {
        scale.run(dev, Grid(1), {Arg::tensor(b, "fp32"), Arg::tensor(b, "fp32"), 4, 1.f}, {{"BLOCK", int64_t{16}}});
      },
      ErrorKind::Usage, "Conflicting meta-parameters: BLOCK");
  expect_error([] { (void)Arg::tensor(Device::get("interp").alloc(4), "fp33"); }, ErrorKind::Usage, "unknown dtype");
}

INSTANTIATE_TEST_SUITE_P(Backends, KernelRun, ::testing::Values("interp", "cpu"));

}  // namespace
