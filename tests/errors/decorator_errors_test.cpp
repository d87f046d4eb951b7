// Refusals of decorators above a jit kernel (docs/refusals.md, "Decorators"): each must be
// a tritium::CompileError from Kernel::decorators() with exactly the expected message, at
// the expected line and column, with the source line and a caret in the diagnostic. The
// location is given as the text the caret points at ("^^" marks the caret inside it).
#include <gtest/gtest.h>

#include <string>

#include "tritium/tritium.h"

namespace {

struct Case {
  std::string pre;         // module text between the imports and the decorators
  std::string decorators;  // decorator lines (each ending in \n)
  std::string message;
  std::string at;
  std::string params = "x_ptr, n, BLOCK: tl.constexpr";
};

void check(const Case& c) {
  const std::string text = "import triton\nimport triton.language as tl\n" + c.pre + c.decorators + "def k(" + c.params +
                           "):\n    tl.store(x_ptr, n)\n";
  SCOPED_TRACE(c.decorators);
  std::string at = c.at;
  size_t caret = at.find("^^");
  if (caret == std::string::npos) caret = 0;
  else at.erase(caret, 2);
  const size_t pos = text.find(at);
  ASSERT_NE(pos, std::string::npos) << "test bug: '" << at << "' not in the source";
  const size_t off = pos + caret;
  int line = 1, col = 1;
  for (size_t i = 0; i < off; ++i) {
    if (text[i] == '\n') ++line, col = 1;
    else ++col;
  }
  try {
    tritium::Module::from_string(text, "dec.py").kernel("k").decorators();
    FAIL() << "expected: " << c.message;
  } catch (const tritium::CompileError& e) {
    EXPECT_EQ(e.message(), c.message);
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.col(), col) << e.what();
    EXPECT_NE(std::string(e.what()).find("^"), std::string::npos) << e.what();
  }
}

TEST(DecoratorErrors, UnsupportedDecoratorsAndArguments) {
  const Case cases[] = {
      {"", "@functools.cache\n@triton.jit\n",
       "decorator '@cache' above a jit kernel is not supported (only @triton.autotune, @triton.heuristics and "
       "@triton.jit)",
       "@^^functools.cache"},
      {"", "@triton.jit\n@triton.heuristics({'BLOCK': lambda a: 4})\n",
       "decorator '@heuristics' is below @triton.jit: it would wrap the plain Python function, which tritium does not "
       "run",
       "@^^triton.heuristics"},
      {"", "@triton.autotune(configs=[triton.Config({'BLOCK': 4})], key=['n'], prune_configs_by={'top_k': 2})\n@triton.jit\n",
       "triton.autotune(prune_configs_by=...) is not supported: it runs host Python code, which tritium does not "
       "execute",
       "{'top_k'"},
      {"def f(nargs):\n    pass\n", "@triton.autotune(configs=[triton.Config({'BLOCK': 4}, pre_hook=f)], key=['n'])\n@triton.jit\n",
       "triton.Config(pre_hook=...) is not supported: tritium cannot run host code", "triton.Config({'BLOCK': 4}, pre"},
      {"", "@triton.autotune(configs=[triton.Config({'BLOK': 4})], key=['n'])\n@triton.jit\n",
       "autotune config triton.Config({BLOK: 4}, num_warps=4, num_stages=3) sets 'BLOK', which is not a parameter of "
       "'k' (x_ptr, n, BLOCK)",
       "[triton.Config({'BLOK'"},
      {"", "@triton.autotune(configs=[triton.Config({'BLOCK': 4})], key=['m'])\n@triton.jit\n",
       "autotune key names 'm', which is not a parameter of 'k' (x_ptr, n, BLOCK)", "['m']"},
      {"", "@triton.autotune(configs=[triton.Config({'BLOCK': 4})])\n@triton.jit\n",
       "triton.autotune() needs key=[...] (the argument names that select a tuning result)", "triton.autotune("},
      {"", "@triton.heuristics({'EVEN': 3})\n@triton.jit\n", "heuristic for 'EVEN' must be a function of args, got 3",
       "{'EVEN'", "x_ptr, n, EVEN: tl.constexpr"},
      {"", "@triton.jit(do_not_specialize=[7])\n",
       "do_not_specialize: parameter index 7 out of range (the kernel has 3 parameters)", "[7]"},
      {"", "@triton.autotune(configs=get(), key=['n'])\n@triton.jit\n",
       "name 'get' is not defined above the kernel at module level", "get()"},
      {"import os\n", "@triton.autotune(configs=[triton.Config({'BLOCK': int(os.environ['TRITIUM_TEST_UNSET_VARIABLE'])})], "
       "key=['n'])\n@triton.jit\n",
       "os.environ['TRITIUM_TEST_UNSET_VARIABLE']: the environment variable is not set", "'TRITIUM_TEST_UNSET_VARIABLE']"},
      {"import sys\n", "@triton.autotune(configs=[triton.Config({'BLOCK': sys.maxsize})], key=['n'])\n@triton.jit\n",
       "module 'sys' cannot be used in a decorator argument (only the triton package and modules of Python files "
       "tritium can find)",
       "sys.maxsize"},
      {"def get():\n    try:\n        pass\n    except Exception:\n        pass\n",
       "@triton.autotune(configs=get(), key=['n'])\n@triton.jit\n",
       "a Try statement cannot be evaluated in a function called by a decorator (only assignments, if, for, while, "
       "list.append and return)",
       "try:"},
      {"", "@triton.autotune(configs=[triton.Config({'BLOCK': 4})], key=['n'])\n"
           "@triton.autotune(configs=[triton.Config({'BLOCK': 8})], key=['n'])\n@triton.jit\n",
       "only one @triton.autotune per kernel is supported", "@^^triton.autotune(configs=[triton.Config({'BLOCK': 8})]"},
      {"def init_to_zero(name):\n    return lambda nargs: nargs[name].zero_()\n",
       "@triton.autotune(configs=[triton.Config({'BLOCK': 4}, pre_hook=init_to_zero('x_ptr'))], key=['n'])\n"
       "@triton.jit\n",
       "triton.Config(pre_hook=...) is not supported: tritium cannot run host code", "triton.Config({'BLOCK': 4}, pre"},
      {"", "@triton.autotune(configs=[triton.Config({'BLOCK': getattr(triton, 'B', 4)})], key=['n'])\n@triton.jit\n",
       "the Python builtin 'getattr' cannot be evaluated in a decorator argument", "getattr(triton"},
      {"def is_cuda():\n    return triton.runtime.driver.active.get_current_target().backend == 'cuda'\n"
       "def configs():\n    return [triton.Config({'BLOCK': 4})] if is_cuda() else []\n",
       "@triton.autotune(configs=configs(), key=['n'])\n@triton.jit\n",
       "triton.runtime cannot be evaluated in a decorator argument: it is host code (device queries, benchmarking), "
       "which tritium does not run",
       "runtime.driver"},
      {"", "@triton.jit(debug=True)\n",
       "triton.jit(debug=...) is not supported per kernel; compile with debug mode instead (CompileOptions::debug, "
       "tritium compile --debug)",
       "True"},
      {"", "@triton.autotune(configs=[triton.Config({'BLOCK': 2 ** 70})], key=['n'])\n@triton.jit\n",
       "integer overflow: decorator arithmetic is limited to 64-bit integers here", "2 ^^** 70"},
  };
  for (const Case& c : cases) check(c);
}

}  // namespace
