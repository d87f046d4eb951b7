// Evaluation of the decorators above a jit kernel (src/frontend/decorators.cpp, pyeval.cpp)
// as the public API reports them: Kernel::decorators() and Kernel::resolve_meta() (the AOT
// path of `tritium compile --config/--arg`). Expected values are Python's own results for
// the same expressions, worked out by hand in the comments.
#include <gtest/gtest.h>

#include "tritium/tritium.h"

namespace {

using tritium::CompileOptions;
using tritium::ConstexprValue;
using tritium::Kernel;
using tritium::KernelDecorators;
using tritium::Meta;
using tritium::Module;

std::string kernel_text(const std::string& decorators, const std::string& params = "x_ptr, n, BLOCK: tl.constexpr",
                        const std::string& pre = "") {
  return "import triton\nimport triton.language as tl\nfrom triton import Config\n" + pre + decorators +
         "@triton.jit\ndef k(" + params + "):\n    tl.store(x_ptr, n)\n";
}

KernelDecorators decorators_of(const std::string& text) {
  return Module::from_string(text, "dec.py").kernel("k").decorators();
}

int64_t block_of(const tritium::AutotuneConfig& c) {
  EXPECT_EQ(c.kwargs.size(), 1u);
  return std::get<int64_t>(c.kwargs.at(0).second);
}

TEST(Decorators, PlainJitHasNone) {
  KernelDecorators d = decorators_of(kernel_text(""));
  EXPECT_TRUE(d.configs.empty());
  EXPECT_TRUE(d.heuristics.empty());
  EXPECT_TRUE(d.do_not_specialize.empty());
}

TEST(Decorators, AutotuneConfigSpellings) {
  // A list literal with keyword and positional kwargs dicts, Config imported by name.
  KernelDecorators d = decorators_of(kernel_text(
      "@triton.autotune(configs=[triton.Config({'BLOCK': 32}, num_warps=2), Config(kwargs={'BLOCK': 64}, "
      "num_stages=5)], key=['n'])\n"));
  ASSERT_EQ(d.configs.size(), 2u);
  EXPECT_EQ(block_of(d.configs[0]), 32);
  EXPECT_EQ(d.configs[0].num_warps, 2);
  EXPECT_EQ(d.configs[0].num_stages, 3);  // upstream's default
  EXPECT_EQ(block_of(d.configs[1]), 64);
  EXPECT_EQ(d.configs[1].num_warps, 4);
  EXPECT_EQ(d.configs[1].num_stages, 5);
  EXPECT_EQ(d.autotune_key, std::vector<std::string>{"n"});
  EXPECT_EQ(d.configs[0].str(), "BLOCK: 32, num_warps: 2, num_stages: 3");

  // A comprehension over module-level lists, two loops and a filter: 2 * 3 values, the
  // pair (128, 8) filtered out -> 5 configs in loop order.
  d = decorators_of(kernel_text(
      "@triton.autotune(configs=[triton.Config({'BLOCK': b}, num_warps=w) for b in SIZES for w in WARPS if b * w "
      "< 1024], key=['n'], reset_to_zero=['x_ptr'])\n",
      "x_ptr, n, BLOCK: tl.constexpr", "SIZES = [64, 128]\nWARPS: list = [2, 4, 8]\n"));
  ASSERT_EQ(d.configs.size(), 5u);
  const int64_t want_b[] = {64, 64, 64, 128, 128};
  const int want_w[] = {2, 4, 8, 2, 4};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(block_of(d.configs[i]), want_b[i]) << i;
    EXPECT_EQ(d.configs[i].num_warps, want_w[i]) << i;
  }
  EXPECT_EQ(d.reset_to_zero, std::vector<std::string>{"x_ptr"});

  // A host function (the tutorials' get_autotune_config()), with an if on a module flag.
  d = decorators_of(kernel_text("@triton.autotune(configs=get_configs(), key=['n'])\n", "x_ptr, n, BLOCK: tl.constexpr",
                                "USE_BIG = False\n"
                                "def get_configs():\n"
                                "    cfgs = [triton.Config({'BLOCK': 16})]\n"
                                "    if USE_BIG:\n"
                                "        cfgs.append(triton.Config({'BLOCK': 4096}))\n"
                                "    else:\n"
                                "        for s in range(5, 7):\n"
                                "            cfgs += [triton.Config({'BLOCK': 2 ** s}, num_stages=s - 3)]\n"
                                "    return cfgs\n"));
  ASSERT_EQ(d.configs.size(), 3u);
  EXPECT_EQ(block_of(d.configs[1]), 32);
  EXPECT_EQ(d.configs[1].num_stages, 2);
  EXPECT_EQ(block_of(d.configs[2]), 64);

  // Empty configs: upstream's single default config.
  d = decorators_of(kernel_text("@triton.autotune(configs=[], key=[])\n", "x_ptr, n, BLOCK: tl.constexpr = 8"));
  ASSERT_EQ(d.configs.size(), 1u);
  EXPECT_TRUE(d.configs[0].kwargs.empty());
}

TEST(Decorators, HostFunctionsFilterMapKeywordsAndSplats) {
  const std::string pre =
      "CFGS = [triton.Config({'BLOCK': b}, num_warps=w) for b in [32, 64, 128] for w in [4, 8]]\n"
      "def keep(c):\n    return c.kwargs['BLOCK'] * c.num_warps <= 512\n"
      "def upto(max_block=128, *, warps=None):\n"
      "    return [c for c in CFGS if c.kwargs['BLOCK'] <= max_block and (warps is None or c.num_warps == warps)]\n"
      "EXTRA = {'cache_results': False}\n";
  // filter(keep, CFGS): 2 * 3 configs minus (128, 8) -> 5 (Python gives the same).
  EXPECT_EQ(decorators_of(kernel_text("@triton.autotune(configs=list(filter(keep, CFGS)), key=['n'], **EXTRA)\n",
                                      "x_ptr, n, BLOCK: tl.constexpr", pre))
                .configs.size(),
            5u);
  // Keyword and keyword-only arguments to a module-level function.
  KernelDecorators d = decorators_of(
      kernel_text("@triton.autotune(configs=upto(max_block=64, warps=8), key=['n'])\n", "x_ptr, n, BLOCK: tl.constexpr", pre));
  ASSERT_EQ(d.configs.size(), 2u);
  EXPECT_EQ(block_of(d.configs[1]), 64);
  EXPECT_EQ(d.configs[1].num_warps, 8);
  // map / enumerate / zip.
  d = decorators_of(kernel_text(
      "@triton.autotune(configs=[triton.Config({'BLOCK': b}, num_stages=i) for i, b in enumerate(map(lambda c: "
      "c.kwargs['BLOCK'], CFGS[::2] if False else CFGS)) if i < 2] + [triton.Config({'BLOCK': b * w}) for b, w in "
      "zip([1, 2], [16, 32])], key=['n'])\n",
      "x_ptr, n, BLOCK: tl.constexpr", pre));
  ASSERT_EQ(d.configs.size(), 4u);
  EXPECT_EQ(d.configs[1].num_stages, 1);
  EXPECT_EQ(block_of(d.configs[3]), 64);
}

TEST(Decorators, DecoratorsAppliedAsCallsAtModuleLevel) {
  // `k = triton.heuristics({...})(triton.jit(k, ...))`: the def becomes the decorated kernel.
  tritium::Module m = Module::from_string(
      "import triton\nimport triton.language as tl\n\n"
      "def k(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):\n    tl.store(x_ptr, n)\n\n"
      "k = triton.heuristics({'EVEN': lambda a: a['n'] % 2 == 0})(triton.jit(k, do_not_specialize=['n']))\n\n"
      "def plain(x_ptr):\n    tl.store(x_ptr, 1)\n\nplain = triton.jit(plain)\n\n"
      "def host(x):\n    return x\n\nhost = other(host)\n",
      "fj.py");
  EXPECT_EQ(m.kernel_names(), (std::vector<std::string>{"k", "plain"}));
  KernelDecorators d = m.kernel("k").decorators();
  EXPECT_EQ(d.heuristics, std::vector<std::string>{"EVEN"});
  EXPECT_EQ(d.do_not_specialize, std::vector<std::string>{"n"});
  EXPECT_NE(m.kernel("plain").ir("*i32").find("kernel @plain"), std::string::npos);
}

// `G = triton.jit(F)` with G != F: F is the kernel, G names it in other kernels; aliases of
// jit / autotune (an import alias, a module-level `J = triton.jit`) are the decorators they
// name; Gluon's jit under an alias is not taken for Triton's.
TEST(Decorators, CallFormUnderAnotherNameAndAliases) {
  Module m = Module::from_string(
      "import triton\nimport triton.language as tl\nfrom triton import jit as myjit, autotune as tune\n"
      "from triton.experimental.gluon import jit as gjit\nJ = triton.jit\n\n"
      "def body(x_ptr, n):\n    tl.store(x_ptr, n)\n\nwrapped = triton.jit(body)\n\n"
      "@myjit\ndef user(x_ptr, n):\n    wrapped(x_ptr, n + 1)\n\n"
      "@tune(configs=[triton.Config({'B': 1}), triton.Config({'B': 2})], key=['n'])\n@J(do_not_specialize=['n'])\n"
      "def tuned(x_ptr, n, B: tl.constexpr):\n    tl.store(x_ptr, n * B)\n\n"
      "@gjit\ndef glu(x_ptr):\n    pass\n",
      "alias.py");
  EXPECT_EQ(m.kernel_names(), (std::vector<std::string>{"body", "user", "tuned"}));
  const std::string ir = m.kernel("user").ir("*i32,i32");
  EXPECT_NE(ir.find("kernel @user"), std::string::npos) << ir;
  EXPECT_NE(ir.find("store"), std::string::npos) << ir;
  KernelDecorators d = m.kernel("tuned").decorators();
  EXPECT_EQ(d.configs.size(), 2u);
  EXPECT_EQ(d.do_not_specialize, std::vector<std::string>{"n"});
}

TEST(Decorators, JitOptionsByNameAndIndex) {
  KernelDecorators d = Module::from_string("import triton\n@triton.jit(do_not_specialize=['n', 2], "
                                           "do_not_specialize_on_alignment=[0])\n"
                                           "def k(x_ptr, n, m):\n    pass\n",
                                           "d.py")
                           .kernel("k")
                           .decorators();
  EXPECT_EQ(d.do_not_specialize, (std::vector<std::string>{"n", "m"}));
  EXPECT_EQ(d.do_not_specialize_on_alignment, std::vector<std::string>{"x_ptr"});
}

// Heuristics evaluated in the AOT path: Python arithmetic rules (floor division and modulo
// of negatives, true division, chained comparisons, short-circuit operators).
TEST(Decorators, HeuristicsFollowPythonArithmetic) {
  const std::string text = kernel_text(
      "@triton.heuristics({'A': lambda args: args['n'] // 4, 'B': lambda args: args['n'] % 4,\n"
      "                    'C': lambda args: args['n'] / 8, 'D': lambda args: 0 < args['m'] <= 16,\n"
      "                    'E': lambda args: args['m'] and args['n'], 'F': lambda args: triton.cdiv(args['m'], 3),\n"
      "                    'G': lambda args: min(args['m'], 5) * max([1, args['A']]),\n"
      "                    'H': lambda args: 'big' if args['m'] > 10 else 'small'})\n",
      "x_ptr, n, m, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, D: tl.constexpr, E: tl.constexpr, "
      "F: tl.constexpr, G: tl.constexpr, H: tl.constexpr");
  Kernel k = Module::from_string(text, "h.py").kernel("k");
  CompileOptions o;
  Meta meta = k.resolve_meta("*i32, i32, i32", -1, {}, {{"n", int64_t{-7}}, {"m", int64_t{16}}}, &o);
  EXPECT_EQ(std::get<int64_t>(meta.at("A")), -2);  // -7 // 4 == -2 (floor)
  EXPECT_EQ(std::get<int64_t>(meta.at("B")), 1);   // -7 % 4 == 1 (sign of the divisor)
  EXPECT_EQ(std::get<double>(meta.at("C")), -0.875);
  EXPECT_EQ(std::get<bool>(meta.at("D")), true);
  EXPECT_EQ(std::get<int64_t>(meta.at("E")), -7);  // `and` returns its last operand
  EXPECT_EQ(std::get<int64_t>(meta.at("F")), 6);   // cdiv(16, 3)
  EXPECT_EQ(std::get<int64_t>(meta.at("G")), 5);   // min(16, 5) * max([1, -2]); heuristics see earlier ones
  EXPECT_EQ(std::get<std::string>(meta.at("H")), "big");
  // The signature's ":1" integers count as known values; explicit values win.
  meta = k.resolve_meta("*i32, i32:1, i32", -1, {{"A", int64_t{99}}}, {{"m", int64_t{3}}}, &o);
  EXPECT_EQ(std::get<int64_t>(meta.at("A")), 99);
  EXPECT_EQ(std::get<int64_t>(meta.at("B")), 1);  // 1 % 4
  EXPECT_EQ(std::get<std::string>(meta.at("H")), "small");
}

TEST(Decorators, HeuristicsSeePointerArgumentsOfTheSignature) {
  // A pointer entry is a tensor to the heuristics: `is not None` holds and `.dtype` is its
  // element dtype's name (tritium's; upstream's would be torch.float16, equal to no tl name).
  Kernel k = Module::from_string(kernel_text("@triton.heuristics({'HAS_X': lambda a: a['x_ptr'] is not None, "
                                             "'DT': lambda a: a['x_ptr'].dtype})\n",
                                             "x_ptr, n, HAS_X: tl.constexpr, DT: tl.constexpr"),
                                 "p.py")
                 .kernel("k");
  CompileOptions o;
  Meta meta = k.resolve_meta("*fp16, i32", -1, {}, {}, &o);
  EXPECT_EQ(std::get<bool>(meta.at("HAS_X")), true);
  EXPECT_EQ(std::get<std::string>(meta.at("DT")), "fp16");
}

TEST(Decorators, ResolveMetaAppliesTheChosenConfigThenHeuristics) {
  const std::string text = kernel_text(
      "@triton.autotune(configs=[triton.Config({'BLOCK': 32}, num_warps=2, num_stages=1), "
      "triton.Config({'BLOCK': 128}, num_warps=8)], key=['n'])\n"
      "@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] == 0})\n",
      "x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr");
  Kernel k = Module::from_string(text, "c.py").kernel("k");
  CompileOptions o;
  Meta meta = k.resolve_meta("*i32, i32", 1, {}, {{"n", int64_t{256}}}, &o);
  EXPECT_EQ(std::get<int64_t>(meta.at("BLOCK")), 128);
  EXPECT_EQ(std::get<bool>(meta.at("EVEN")), true);
  EXPECT_EQ(o.num_warps, 8);
  EXPECT_EQ(o.num_stages, 3);
  meta = k.resolve_meta("*i32, i32", 0, {}, {{"n", int64_t{48}}}, &o);
  EXPECT_EQ(std::get<bool>(meta.at("EVEN")), false);
  EXPECT_EQ(o.num_warps, 2);
  EXPECT_EQ(o.num_stages, 1);
  // Values in the signature are not returned (they are passed positionally).
  meta = k.resolve_meta("*i32, i32, 64", -1, {}, {{"n", int64_t{64}}}, &o);
  EXPECT_EQ(meta.count("BLOCK"), 0u);
  EXPECT_EQ(std::get<bool>(meta.at("EVEN")), true);
  // Errors: no choice among several configs; index out of range; a value a config sets.
  EXPECT_THROW(k.resolve_meta("*i32, i32", -1, {}, {{"n", int64_t{1}}}, &o), tritium::Error);
  EXPECT_THROW(k.resolve_meta("*i32, i32", 2, {}, {{"n", int64_t{1}}}, &o), tritium::Error);
  EXPECT_THROW(k.resolve_meta("*i32, i32, 64", 0, {}, {{"n", int64_t{1}}}, &o), tritium::Error);
  // A heuristic reading an argument whose value is not known names it.
  try {
    k.resolve_meta("*i32, i32", 0, {}, {}, &o);
    FAIL();
  } catch (const tritium::CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("heuristic for 'EVEN': key 'n' is not among the kernel's arguments"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
