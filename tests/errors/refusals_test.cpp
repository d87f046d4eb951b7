// Refusal catalogue tests (docs/refusals.md): every construct tritium refuses, compiled
// through the public API (Module::from_string → Kernel::compile), must throw
// tritium::CompileError with exactly the expected message, at the expected line:col, with a
// diagnostic that shows the source line and a caret under that column. The location is not
// written as numbers: each case names the text the caret must point at (`at`, with "^^"
// marking the caret inside it when it is not at the start), and the test finds that text in
// the source. Refusals that depend on no backend are checked on interp and cpu (the
// frontend is shared, so both must refuse identically).
//
// Refusals already pinned elsewhere (tests/errors/codegen_errors_test.cpp, the
// expect_compile_error cases of tests/conformance/) are not repeated here; docs/refusals.md
// names the test of every row.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tritium/tritium.h"

namespace {

const char* const kFile = "refusals.py";

// Kernel `k(p, n, N: tl.constexpr)` (p: *fp32, n: i32, N = 16); `pre` goes between the
// imports and the kernel; the body starts with a fixed preamble defining
// offs (i32[4]), x (fp32[4]), x2 (fp32[4, 4]) and xi (i32[4]).
const char* const kPreamble =
    "    offs = tl.arange(0, 4)\n"
    "    x = tl.load(p + offs)\n"
    "    x2 = tl.load(p + offs[:, None] * 4 + offs[None, :])\n"
    "    xi = offs * 3\n";

struct Refusal {
  std::string body;     // kernel body after the preamble (4-space indented lines)
  std::string message;  // the exact message
  std::string at;       // text at the caret ("^^" marks the caret inside it)
  std::string pre = "";
  std::string params = "p, n, N: tl.constexpr";
  std::string sig = "*fp32, i32, 16";
  std::vector<std::string> backends = {"interp", "cpu"};
  bool debug = false;  // compile with CompileOptions::debug (tl.device_assert checks its arguments only then)
};

std::string source_of(const Refusal& r, size_t* body_start) {
  std::string s = "import triton\nimport triton.language as tl\nfrom triton.language.extra import libdevice\n\n" +
                  r.pre + "\n@triton.jit\ndef k(" + r.params + "):\n" + kPreamble;
  *body_start = s.size();
  return s + r.body;
}

void expect_refusal(const Refusal& r) {
  size_t body_start = 0;
  const std::string src = source_of(r, &body_start);
  std::string marker = r.at;
  size_t caret = marker.find("^^");
  if (caret != std::string::npos) marker.erase(caret, 2);
  else caret = 0;
  size_t pos = src.find(marker, body_start);
  if (pos == std::string::npos) pos = src.find(marker);
  ASSERT_NE(pos, std::string::npos) << "marker '" << r.at << "' not in the source:\n" << src;
  pos += caret;
  const size_t line_start = src.rfind('\n', pos) + 1;  // npos + 1 == 0 on the first line
  const int want_line = 1 + static_cast<int>(std::count(src.begin(), src.begin() + static_cast<long>(pos), '\n'));
  const int want_col = 1 + static_cast<int>(pos - line_start);
  const std::string src_line = src.substr(line_start, src.find('\n', pos) - line_start);
  for (const auto& backend : r.backends) {
    try {
      auto mod = tritium::Module::from_string(src, kFile);
      tritium::CompileOptions opts;
      opts.debug = r.debug;
      mod.kernel("k").compile(tritium::Device::get(backend), r.sig, opts);
      ADD_FAILURE() << backend << ": no error; expected: " << r.message << "\n" << src;
    } catch (const tritium::CompileError& e) {
      if (e.message() != r.message || e.line() != want_line || e.col() != want_col || e.file() != kFile) {
        ADD_FAILURE() << backend << " [" << r.at << "]\n  got  " << e.file() << ":" << e.line() << ":" << e.col()
                      << " " << e.message() << "\n  want " << kFile << ":" << want_line << ":" << want_col << " "
                      << r.message;
        continue;
      }
      // The diagnostic: "file:line:col: error: message", the source line, a caret line.
      const std::string what = e.what();
      const std::string head = std::string(kFile) + ":" + std::to_string(want_line) + ":" +
                               std::to_string(want_col) + ": error: " + r.message + "\n";
      EXPECT_EQ(what.rfind(head, 0), 0u) << what;
      // The source line (indented by the diagnostic) and, under it, the caret at the column.
      const size_t l = what.find(src_line + '\n', head.size());
      EXPECT_NE(l, std::string::npos) << "diagnostic lacks the source line:\n" << what;
      if (l != std::string::npos) {
        const size_t indent = l - (what.rfind('\n', l) + 1);
        const size_t caret_line = l + src_line.size() + 1;
        EXPECT_EQ(what.find('^', caret_line), caret_line + indent + static_cast<size_t>(want_col - 1)) << what;
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << backend << " [" << r.at << "]: not a CompileError: " << e.what();
    }
  }
}

void expect_all(const std::vector<Refusal>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.at);
    expect_refusal(c);
  }
}

std::string fmt_grid(const tritium::Grid& g) {
  return "kernel 'k': grid (" + std::to_string(g.x) + ", " + std::to_string(g.y) + ", " + std::to_string(g.z) +
         ") has an extent outside [0, 2^31 - 1]";
}

const std::string kHelper = "@triton.jit\ndef h(v, K: tl.constexpr = 1):\n    return v * K\n";

// ---- statements -------------------------------------------------------------------------------

TEST(Refusals, Statements) {
  const std::string brk = "`break` is not supported in Triton (restructure the loop, e.g. as a while loop with a condition)";
  const std::string cont = "`continue` is not supported in Triton (guard the rest of the loop body with an if)";
  expect_all({
      {"    class C:\n        pass\n", "class definitions are not supported inside jit functions", "class C"},
      {"    nonlocal q\n", "`nonlocal` statements are not supported inside jit functions", "nonlocal"},
      {"    for i in tl.static_range(4):\n        if i == 2:\n            break\n", brk, "break"},
      {"    i = 0\n    while i < n:\n        i += 1\n        break\n", brk, "break"},
      {"    for i in tl.static_range(4):\n        continue\n", cont, "continue"},
      {"    i = 0\n    while i < n:\n        i += 1\n        continue\n", cont, "continue"},
      {"    for i in tl.range(0, n):\n        if i == 2:\n            continue\n", cont, "continue"},
      {"    async for i in range(4):\n        pass\n", "async for is not supported inside jit functions", "async for"},
      {"    y = x\n    y.T = x\n", "attribute assignment is not supported in triton", "y.T = x"},
      {"    t = (1, 2)\n    t[0]: int = 3\n", "annotated assignment is only supported to a plain name", "t[0]: int"},
      {"    f = tl.load\n",
       "cannot assign builtin load to a variable (annotate the variable with tl.constexpr to bind a compile-time value)",
       "^^tl.load\n"},
      {"    a, b = n\n", "cannot unpack i32 (not a tuple)", "a, b = n"},
      {"    C = N\n    tl.static_assert(C == 16)\n",
       "Assertion condition could not be determined at compile-time. Make sure that it depends only on `constexpr` "
       "values",
       "tl.static_assert(C == 16)"},
  });
}

// ---- expressions ------------------------------------------------------------------------------

TEST(Refusals, Expressions) {
  expect_all({
      {"    s = {a for a in (1, 2)}\n", "set comprehensions are not supported inside jit functions", "{a for"},
      {"    d = {a: a for a in (1, 2)}\n", "dict comprehensions are not supported inside jit functions", "{a: a for"},
      {"    g = (a for a in (1, 2))\n", "generator expressions are not supported inside jit functions", "(a for"},
      {"    y = (z := 1)\n", "assignment expressions (:=) are not supported inside jit functions", "z := 1"},
      {"    y = await n\n", "await is not supported inside jit functions", "await n"},
      {"    yield n\n", "yield is not supported inside jit functions", "yield n"},
      {"    y = b'ab'\n", "bytes literals are not supported inside jit functions", "b'ab'"},
      {"    y = 123456789012345678901234567890\n", "integer literal 123456789012345678901234567890 does not fit in 64 bits",
       "123456789012345678901234567890"},
      {"    tl.static_print(f'{N:4d}')\n", "format specifications in f-strings are not supported inside jit functions",
       "f'{N:4d}'"},
      {"    tl.static_print(f'{n}')\n",
       "Cannot evaluate f-string containing non-constexpr conversion values (field {n} is i32)", "f'{n}'"},
      {"    t = [a + b for a in (1, 2) for b in (3, 4)]\n", "nested comprehensions are not supported",
       "[a + b for"},
      {"    t = [a for a in n]\n", "only comprehensions over tuples are supported (got i32)", "^^n]"},
      {"    t = [a for (a, b) in ((1, 2),)]\n", "the target of a comprehension must be a plain name", "(a, b) in"},
      {"    y = x ** 2\n", "operator ** is not supported on tensors in Triton", "x ^^** 2"},
      {"    y = x2 @ x2\n", "operator @ is not supported on tensors in Triton", "x2 ^^@ x2"},
      {"    y = 1.0 in x\n", "`in` is not supported on tensors", "1.0 ^^in x"},
      {"    y = x[0]\n", "unsupported tensor index: constexpr int 0 (only None and `:` are allowed)", "x[0]"},
      {"    t = (1, 2)\n    y = t[2]\n", "tuple index out of range", "t[2]"},
      {"    t = (1, 2)\n    y = t[::0]\n", "slice step cannot be zero", "t[::0]"},
      {"    t = (1, 2)\n    y = t[1.5]\n", "tuple indices must be constexpr integers or slices, not constexpr float 1.5",
       "t[1.5]"},
      {"    y = N[0]\n", "constexpr int 16 is not subscriptable", "N[0]"},
      {"    if x > 0:\n        pass\n", "Boolean value of Tensor with more than one value is ambiguous", "x > 0:"},
      {"    y = ~1.5\n", "bad operand type for unary ~: 'float'", "~1.5"},
      {"    y = -'a'\n", "bad operand type for unary -: 'str'", "-'a'"},
      {"    q = -p\n", "wrong type argument to unary minus (pointer<fp32>)", "-p\n"},
      {"    y = ~x\n", "wrong type argument to unary invert (fp32)", "~x"},
      {"    y = N(1)\n", "'constexpr int 16' is not callable", "N(1)"},
      {"    y = tl.nonexistent\n", "module 'triton.language' has no attribute 'nonexistent'", "^^nonexistent"},
      {"    y = tl.math.nonexistent\n", "module 'triton.language.math' has no attribute 'nonexistent'", "^^nonexistent"},
      {"    y = triton.nonexistent\n", "module 'triton' has no attribute 'nonexistent'", "^^nonexistent"},
      {"    y = h.fn\n", "attribute 'fn' of jit function 'h' is not supported", "^^fn\n", kHelper},
      {"    y = x.nonexistent\n", "'tensor' object has no attribute 'nonexistent'", "x.^^nonexistent"},
      {"    y = tl.float32.nonexistent\n", "'fp32' has no attribute 'nonexistent'", "tl.float32.^^nonexistent"},
      {"    y = x.T\n", ".T needs a 2-D tensor, got <[4], fp32>", "x.^^T"},
      {"    y = tl.float32.is_floating(1)\n", "is_floating() takes no arguments", "tl.float32.is_floating(1)"},
  });
}

// Operations on compile-time values fold with Python's semantics; where Python raises,
// tritium refuses with Python's message (upstream raises the same Python exception).
TEST(Refusals, ConstexprFolding) {
  expect_all({
      {"    y = N // 0\n", "integer division by zero", "N ^^// 0"},
      {"    y = N % 0\n", "integer modulo by zero", "N ^^% 0"},
      {"    y = N / 0\n", "division by zero", "N ^^/ 0"},
      {"    y = 1.5 / 0.0\n", "float division by zero", "1.5 ^^/ 0.0"},
      {"    y = 1.5 // 0.0\n", "float floor division by zero", "1.5 ^^// 0.0"},
      {"    y = 1.5 % 0.0\n", "float modulo by zero", "1.5 ^^% 0.0"},
      {"    y = 0 ** -1\n", "0 cannot be raised to a negative power", "0 ^^** -1"},
      {"    y = 0.0 ** -1\n", "0.0 cannot be raised to a negative power", "0.0 ^^** -1"},
      {"    y = (-8.0) ** 0.5\n", "a negative number raised to a fractional power is complex", "(-8.0) ^^** 0.5"},
      {"    y = N << -1\n", "negative shift count", "N ^^<< -1"},
      {"    y = N >> -1\n", "negative shift count", "N ^^>> -1"},
      {"    y = 1 << 70\n", "integer constant out of the supported range [-2**63, 2**64)", "1 ^^<< 70"},
      {"    y = 'a' + 1\n", "unsupported operand types for +: 'str' and 'int'", "'a' ^^+ 1"},
      {"    y = 'a' < 1\n", "'<' not supported between instances of 'str' and 'int'", "'a' ^^< 1"},
      {"    y = 1 in 2\n", "argument of type 'int' is not iterable", "1 ^^in 2"},
      {"    y = 'a' * 2000000\n", "constexpr sequence too long", "'a' ^^* 2000000"},
  });
}

// Python builtins inside kernels (upstream code_generator.py's builtin_namespace).
TEST(Refusals, PythonBuiltins) {
  expect_all({
      {"    y = list((1, 2))\n", "list() is not supported yet in tritium kernels", "list((1, 2))"},
      {"    y = isinstance(N, 2)\n", "isinstance() arg 2 must be a type or a tuple of types, got constexpr int 2",
       "isinstance("},
      {"    y = isinstance(x, tl.block_type)\n",
       "isinstance() with tl.block_type as the type is not supported yet in tritium kernels", "isinstance("},
      {"    y = isinstance(x)\n", "isinstance expected 2 arguments, got 1", "isinstance("},
      {"    y = isinstance(x, (int, tl.tensor))\n",
       "isinstance() with a tuple of types is not supported (upstream passes a tl.tuple, which Python's isinstance "
       "rejects); test each type",
       "isinstance("},
      {"    y = getattr(tl, 'load')\n", "getattr() is not supported yet in tritium kernels", "getattr("},
      {"    y = hasattr(tl, 'load')\n", "hasattr() is not supported yet in tritium kernels", "hasattr("},
      {"    y = min()\n", "min() arg is an empty sequence", "min()"},
      {"    y = min(1.5, float('nan'))\n", "min() of a NaN constexpr", "min(1.5"},
      {"    y = max(-0.0, 0.0)\n", "max() of -0.0", "max(-0.0"},
      {"    y = min(N, 2, propagate_nan=tl.PropagateNan.ALL)\n", "propagate_nan is not supported on builtin min",
       "min(N, 2"},
      {"    y = max(x)\n", "max requires at least 2 values", "max(x)"},
      {"    y = len(n)\n", "len() of a run-time value is not supported in a kernel", "len(n)"},
      {"    y = len(N)\n", "object of type constexpr int 16 has no len()", "len(N)"},
      {"    y = int('x')\n", "invalid literal for int(): 'x'", "int('x')"},
      {"    y = int(float('inf'))\n", "cannot convert float inf to integer", "int(float("},
      {"    y = int((1,))\n", "int() argument must be a number or a string, not tuple of 1", "int((1,))"},
      {"    y = float('x')\n", "could not convert string to float: 'x'", "float('x')"},
      {"    y = float((1,))\n", "float() argument must be a number or a string, not tuple of 1", "float((1,))"},
      {"    y = abs('a')\n", "bad operand type for abs(): constexpr str 'a'", "abs('a')"},
      {"    y = tl.constexpr()\n", "tl.constexpr() takes exactly one argument", "tl.constexpr()"},
      {"    y = tl.constexpr(n)\n", "tl.constexpr() needs a compile-time value (got i32)", "tl.constexpr(n)"},
      {"    y = range(4)\n", "range can only be used as the iterator of a for loop", "range(4)"},
      {"    y = tl.static_range(4)\n", "tl.static_range can only be used as the iterator of a for loop",
       "tl.static_range(4)"},
      {"    y = tl.tensor(1)\n", "tl.tensor cannot be called in a kernel", "tl.tensor(1)"},
      {"    y = tl.dtype('fp32')\n", "tl.dtype cannot be called in a kernel", "tl.dtype("},
      {"    y = triton.jit(h)\n", "triton.jit cannot be called in a kernel", "triton.jit(h)", kHelper},
  });
}

// ---- control flow -----------------------------------------------------------------------------

TEST(Refusals, ControlFlow) {
  expect_all({
      {"    for i in tl.static_range(0, 4, 0):\n        pass\n", "static_range() arg 3 must not be zero",
       "tl.static_range(0, 4, 0)"},
      {"    for i in tl.static_range(100000):\n        pass\n",
       "tl.static_range with more than 65536 iterations is too large to unroll", "tl.static_range(100000)"},
      {"    for i in range(4, step=1):\n        pass\n", "range() takes no keyword arguments", "range(4, step=1)"},
      {"    for i in range(1, 2, 3, 4):\n        pass\n", "range expected at least 1 argument and at most 3, got 4",
       "range(1, 2, 3, 4)"},
      {"    for i in range():\n        pass\n", "range expected at least 1 argument and at most 3, got 0", "range()"},
      {"    for i in n:\n        pass\n",
       "for loops can only iterate over range(), tl.range(), tl.static_range() or a tuple (got i32)", "^^n:"},
      {"    for a, b in range(4):\n        pass\n", "the variable of a range loop must be a plain name", "a, b in"},
      {"    for i in tl.range(0, n, num_stages=n):\n        pass\n",
       "tl.range argument 'num_stages' must be a compile-time constant", "tl.range(0, n, num_stages=n)"},
      {"    for i in tl.range(0, n, num_stages=1.5):\n        pass\n", "tl.range argument 'num_stages' must be an int",
       "tl.range(0, n, num_stages=1.5)"},
      {"    for i in range(0, 1.5):\n        pass\n", "For loop bounds and step must all be ints, are (i32, fp32, i32)",
       "range(0, 1.5)"},
      {"    c: tl.constexpr = 1\n    if n > 0:\n        c = 2\n    tl.store(p, c)\n",
       "`c` is the compile-time value constexpr[1] before this dynamic if and is reassigned in only its then "
       "block; Triton cannot merge it (make it a tensor before the if)",
       "if n > 0:"},
      {"    if (1, 2):\n        pass\n",
       "`if` conditionals can only accept values of type {bool, int, NoneType}, not objects of type tuple",
       "^^(1, 2):"},
  });
}

// ---- calls ------------------------------------------------------------------------------------

TEST(Refusals, Calls) {
  const std::string var = "@triton.jit\ndef hv(*a):\n    pass\n";
  expect_all({
      {"    tl.store(*p)\n", "only tuples can be unpacked with * in a call (got ptr<fp32>)", "*p)"},
      {"    h(**n)\n", "**kwargs in calls are not supported inside jit functions", "**n", kHelper},
      {"    tl.static_print('a', sep='')\n", "tl.static_print does not take keyword arguments", "tl.static_print('a'"},
      {"    tl.static_assert()\n", "`static_assert` requires one or two positional arguments only", "tl.static_assert()"},
      {"    tl.static_assert(True, msg='x')\n", "`static_assert` requires one or two positional arguments only",
       "tl.static_assert(True"},
      {"    tl.static_assert(N)\n", "static_assert condition must be a bool (got constexpr int 16)", "tl.static_assert(N)"},
      {"    hv(1)\n", "variadic parameters (*args / **kwargs) are not supported in jit functions", "*^^a", var},
      {"    y = h(tl.load)\n", "cannot pass builtin load as argument 'v' of jit function h()", "h(tl.load)", kHelper},
      {"    y = X\n",
       "global 'X' (line 8) cannot be evaluated at compile time: jit function 'h' cannot be called at module "
       "level",
       "^^X\n", kHelper + "X = h(2)\n"},
      {"    y = tl.load(p, None, None, (), '', '', '', False, 1)\n",
       "load() takes 8 positional arguments but 9 were given", "tl.load(p, None"},
      {"    y = tl.load(p, foo=1)\n", "load() got an unexpected keyword argument 'foo'", "tl.load(p, foo=1)"},
      {"    y = tl.load(p, None, mask=None)\n", "load() got multiple values for argument 'mask'", "tl.load(p, None, mask"},
      {"    y = tl.arange(0)\n", "arange() missing required argument 'end'", "tl.arange(0)"},
      {"    y = tl.load(p, **n)\n", "**kwargs in calls are not supported inside jit functions", "**n)"},
  });
}

// Parts of triton.language that upstream 3.6 has and tritium does not implement yet.
// (The random-number builtins tl.rand / randn / randint / philox ... are refused too, but are
// being implemented as this is written, so they are not pinned here; docs/refusals.md.)
TEST(Refusals, NotImplementedYet) {
  std::vector<Refusal> cases;
  for (const char* f : {"inline_asm_elementwise", "dot_scaled"}) {
    std::string name = f;
    cases.push_back({"    y = tl." + name + "(p)\n", "tl." + name + " is not supported yet", "tl." + name + "(p)"});
  }
  cases.push_back({"    y = tl.dot(x2, x2, input_precision=\"bf16x3\")\n", "input_precision=\"bf16x3\" is not supported yet",
                   "tl.dot(x2"});
  cases.push_back({"    y = libdevice.pow(x, xi)\n", "libdevice.pow with an int32 exponent (__nv_powi) is not supported yet",
                   "libdevice.pow(x, xi)"});
  cases.push_back({"    y = libdevice.mulhi(xi, xi)\n", "libdevice.mulhi on signed integers is not supported yet",
                   "libdevice.mulhi(xi, xi)"});
  cases.push_back({"    y = libdevice.asinh(x)\n", "libdevice.asinh is not supported by tritium", "libdevice.asinh(x)"});
  cases.push_back({"    y = tl.abs(x.to(tl.float8e4b15))\n", "tl.abs of fp8e4b15 is not supported yet", "tl.abs(x.to"});
  cases.push_back({"    y = x.to(tl.float8e4b8)\n", "cast dtype must be a dtype, got builtin float8e4b8", "x.to(tl.float8e4b8)"});
  cases.push_back({"    y = x.to(tl.float8e4nv, fp_downcast_rounding='rtz')\n",
                   "fp_downcast_rounding='rtz' to fp8e4nv is not supported (upstream Triton cannot compile it either); "
                   "source type fp32",
                   "x.to(tl.float8e4nv"});
  cases.push_back({"    y = tl.extern_elementwise('', '', [x], {}, False)\n",
                   "module 'triton.language' has no attribute 'extern_elementwise'", "^^extern_elementwise"});
  expect_all(cases);
}

// ---- typing rules (upstream semantic.py) ------------------------------------------------------

TEST(Refusals, TypingRules) {
  expect_all({
      {"    y = tl.broadcast_to(x, (4, 4, 4))\n", "cannot broadcast, rank mismatch: [4], [4, 4, 4]",
       "tl.broadcast_to(x, (4, 4, 4))"},
      {"    y = tl.broadcast_to(x, (8,))\n",
       "cannot broadcast, the expanded size of the tensor (8) must match the existing size (4) at non-singleton "
       "dimension 0: [4], [8]",
       "tl.broadcast_to(x, (8,))"},
      {"    y = x + tl.load(p + tl.arange(0, 8))\n",
       "cannot make shapes compatible: incompatible dimensions at index 0: 4 and 8", "x ^^+ tl.load(p + tl.arange(0, 8))"},
      {"    y = tl.expand_dims(x, 3)\n", "invalid axis 3. Expected -2 <= axis < 2", "tl.expand_dims(x, 3)"},
      {"    y = tl.reshape(x, (8,))\n", "reshape() cannot change the total number of elements of a tensor",
       "tl.reshape(x, (8,))"},
      {"    y = x.to(tl.float16, fp_downcast_rounding='rtp')\n",
       "invalid rounding mode: rtp. Supported rounding modes are 'rtne' and 'rtz'.", "x.to(tl.float16"},
      {"    y = x.to(tl.float64, fp_downcast_rounding='rtz')\n",
       "fp_downcast_rounding should be set only for truncating fp conversions. Source scalar type is fp32 and "
       "destination type is fp64",
       "x.to(tl.float64"},
      {"    y = p.to(tl.float32)\n", "cannot cast pointer<fp32> to fp32", "p.to(tl.float32)"},
      {"    y = x.to(tl.int16, bitcast=True)\n", "cannot bitcast data-type of size 32 to data-type of size 16",
       "x.to(tl.int16, bitcast=True)"},
      {"    y = xi.to(tl.uint32) + (-1)\n",
       "cannot perform a binary operation between an unsigned tensor and a negative scalar. Perform an explicit "
       "cast on one of them.",
       "xi.to(tl.uint32) ^^+ (-1)"},
      {"    y = xi.to(tl.int8) + 300\n", "scalar 300 is out of range for type int8", "xi.to(tl.int8) ^^+ 300"},
      {"    y = p * 2\n", "invalid operands of type pointer<fp32> and int32 for *", "p ^^* 2"},
      {"    y = p + p\n", "cannot add pointers together", "p ^^+ p"},
      {"    y = x // 2.0\n", "unexpected type fp32: `//` is only defined on integers in Triton", "x ^^// 2.0"},
      {"    y = tl.fdiv(xi, xi)\n", "both operands of fdiv must have floating scalar type", "tl.fdiv(xi, xi)"},
      {"    y = tl.fdiv(x, x.to(tl.float64))\n", "fdiv operands have different types fp32 and fp64 (fdiv does not promote)",
       "tl.fdiv(x, x.to"},
      {"    y = x & 1\n", "invalid operands of type fp32 and fp32 for &", "x ^^& 1"},
      {"    y = x << 1\n", "invalid operands of type fp32 and fp32 for <<", "x ^^<< 1"},
      {"    y = xi / xi.to(tl.uint32)\n",
       "cannot use /, // or % with int32 and uint32 because they have different signedness; this is unlikely to "
       "give a useful answer. Cast them to the same signedness.",
       "xi ^^/ xi.to(tl.uint32)"},
      {"    tl.store(p, 'a')\n", "cannot convert constexpr str 'a' to a tensor (tl.store value)", "tl.store(p, 'a')"},
      {"    y = x + 'a'\n", "unsupported operand for +: constexpr str 'a'", "x ^^+ 'a'"},
  });
}

// ---- builtin arguments (upstream core.py / semantic.py checks) --------------------------------

TEST(Refusals, CreationBuiltins) {
  expect_all({
      {"    y = tl.program_id(3)\n", "program_id axis must be 0, 1, or 2 but got 3", "tl.program_id(3)"},
      {"    y = tl.arange(0, n)\n", "arange's arguments must be of type tl.constexpr (got constexpr int 0, i32)",
       "tl.arange(0, n)"},
      {"    y = tl.arange(4, 2)\n", "arange's end argument must be greater than the start argument", "tl.arange(4, 2)"},
      {"    y = tl.arange(0, 12)\n", "arange's range must be a power of 2 (got 12)", "tl.arange(0, 12)"},
      {"    y = tl.arange(0, 2097152)\n", "numel (2097152) exceeds triton maximum tensor numel (1048576)",
       "tl.arange(0, 2097152)"},
      {"    y = tl.arange(0, 8589934592)\n", "arange must fit in int32", "tl.arange(0, 8589934592)"},
      {"    y = tl.full((4,), 0, tl.pointer_type(tl.float32))\n", "tl.full of a pointer type is not supported",
       "tl.full((4,), 0"},
      {"    y = tl.full((4,), x, tl.float32)\n", "tl.full needs a scalar value, got a tensor of shape <[4], fp32>",
       "tl.full((4,), x"},
      {"    y = tl.full((4,), 1.5, tl.int32)\n", "cannot fill a int32 tensor with the float 1.5", "tl.full((4,), 1.5"},
      {"    y = tl.full((4,), 300, tl.int8)\n", "value 300 is out of range for type int8", "tl.full((4,), 300"},
      {"    y = tl.full((4,), 'a', tl.int32)\n", "tl.full value must be a scalar, got constexpr str 'a'",
       "tl.full((4,), 'a'"},
      {"    y = tl.zeros((3,), tl.float32)\n", "shape element 0 must be a power of 2 (got 3)", "tl.zeros((3,)"},
      {"    y = tl.zeros((n,), tl.float32)\n", "shape element 0 must have type `constexpr[int]`, got i32", "tl.zeros((n,)"},
      {"    y = tl.zeros((1024, 2048), tl.float32)\n", "numel (2097152) exceeds triton maximum tensor numel (1048576)",
       "tl.zeros((1024, 2048)"},
      {"    y = tl.zeros((4,), 5)\n", "tl.zeros dtype must be a dtype, got constexpr int 5", "tl.zeros((4,), 5)"},
      {"    t = tl.pointer_type(tl.pointer_type(tl.float32))\n", "pointers to pointers are not supported",
       "tl.pointer_type(tl.pointer_type"},
      {"    t = tl.pointer_type(tl.float32, 3)\n", "only address space 1 is supported", "tl.pointer_type(tl.float32, 3)"},
  });
}

// Upstream checks TRITON_MAX_TENSOR_NUMEL whenever it makes a block type, so a tensor past
// 2**20 elements is refused at whatever construct makes it, not only at arange / full:
// broadcasting, join, dot results, interleave, a tensor times a tensor of another shape.
TEST(Refusals, TensorsPastTheMaximumNumel) {
  const std::string msg = "numel (2097152) exceeds triton maximum tensor numel (1048576)";
  expect_all({
      {"    a = tl.arange(0, 2048)[:, None] * tl.arange(0, 1024)[None, :]\n", msg, "tl.arange(0, 2048)[:, None] ^^*"},
      {"    a = tl.arange(0, 1048576)\n    b = tl.join(a, a)\n", msg, "tl.join(a, a)"},
      {"    a = tl.arange(0, 1048576)\n    b = tl.interleave(a, a)\n", msg, "tl.interleave(a, a)"},
      {"    a = tl.zeros((2048, 16), tl.float32)\n    b = tl.zeros((16, 1024), tl.float32)\n    c = tl.dot(a, b)\n",
       msg, "tl.dot(a, b)"},
      {"    a = tl.where(tl.arange(0, 2048)[:, None] > 0, tl.zeros((1, 1024), tl.int32), 1)\n", msg,
       "tl.where(tl.arange"},
      // Far past it: the first broadcast (2**40 elements) is refused.
      {"    a = tl.arange(0, 1048576)\n    b = a[:, None, None, None] + a[None, :, None, None] + "
       "a[None, None, :, None] + a[None, None, None, :]\n",
       "numel (1099511627776) exceeds triton maximum tensor numel (1048576)", "a[:, None, None, None] ^^+"},
  });
}

TEST(Refusals, MemoryBuiltins) {
  expect_all({
      {"    y = tl.load(p, cache_modifier='.xx')\n", "cache modifier .xx not supported (tl.load accepts '', '.ca', "
                                                  "'.cg', '.cv')",
       "tl.load(p, cache_modifier"},
      {"    tl.store(p, 1.0, cache_modifier='.ca')\n",
       "cache modifier .ca not supported (tl.store accepts '', '.wb', '.cg', '.cs', '.wt')", "tl.store(p, 1.0"},
      {"    y = tl.load(p, eviction_policy='evict_normal')\n",
       "eviction policy evict_normal not supported (accepted: '', 'evict_last', 'evict_first')", "tl.load(p, eviction"},
      {"    y = tl.load(n)\n", "unsupported ptr type i32 in `tl.load`", "tl.load(n)"},
      {"    tl.store(n, 1)\n", "unsupported ptr type i32 in `tl.store`", "tl.store(n, 1)"},
      {"    y = tl.load(p + offs, padding_option='zero')\n",
       "`padding_option` or `boundary_check` argument is not supported for loading a tensor of pointers or loading "
       "a scalar, because the compiler does not know the boundary; use block pointers (defined by "
       "`make_block_ptr`) instead",
       "tl.load(p + offs, padding"},
      {"    y = tl.load(p + offs, mask=offs < 2, other=1.0, padding_option='inf')\n", "padding option inf not supported",
       "tl.load(p + offs, mask"},
      {"    y = tl.load(p + offs, other=1.0)\n", "`other` cannot be provided without `mask`", "tl.load(p + offs, other"},
      {"    y = tl.load(p, mask=offs < 2)\n", "mask argument cannot be block type if pointer argument is not a block",
       "tl.load(p, mask"},
      {"    y = tl.load(p, mask=n > 0, other=x)\n",
       "other argument cannot be block type if pointer argument is not a block", "tl.load(p, mask=n > 0"},
      {"    y = tl.load(p + offs, mask=offs)\n", "mask must have boolean scalar type, got int32", "tl.load(p + offs, mask"},
      {"    tl.store(p + offs, x, boundary_check=(0,))\n",
       "`boundary_check` argument is not supported for storing a tensor of pointers or storing a scalar, because the "
       "compiler does not know the boundary; use block pointers (defined by `make_block_ptr`) instead",
       "tl.store(p + offs, x, boundary"},
      {"    tl.store(p, x)\n", "value argument cannot be block type if pointer argument is not a block", "tl.store(p, x)"},
      {"    tl.store(p, 1.0, mask=offs < 2)\n", "mask argument cannot be block type if pointer argument is not a block",
       "tl.store(p, 1.0, mask"},
      {"    tl.store(p + offs, x, mask=offs)\n", "mask must have boolean scalar type, got int32",
       "tl.store(p + offs, x, mask"},
      {"    y = tl.load(p, volatile=n)\n", "volatile must be a constexpr bool, got i32", "tl.load(p, volatile"},
      {"    y = tl.load(p, cache_modifier=1)\n", "cache_modifier must be a constexpr string, got constexpr int 1",
       "tl.load(p, cache_modifier=1)"},
  });
}

// Atomics (upstream semantic.py atom_red_typechecking_impl / atomic_*). `q` is a pointer
// to the type named in each case's signature.
TEST(Refusals, AtomicBuiltins) {
  auto with_q = [](const std::string& body, const std::string& message, const std::string& at, const std::string& ty) {
    Refusal r{body, message, at};
    r.params = "p, n, q, N: tl.constexpr";
    r.sig = "*fp32, i32, *" + ty + ", 16";
    return r;
  };
  expect_all({
      with_q("    y = tl.atomic_max(q + offs, 1.0)\n", "atomic_max does not support fp16", "tl.atomic_max(q", "fp16"),
      with_q("    y = tl.atomic_xchg(q, 1.0)\n", "atomic_xchg does not support bf16", "tl.atomic_xchg(q", "bf16"),
      with_q("    y = tl.atomic_add(q, 1)\n", "atomic_add does not support int8", "tl.atomic_add(q", "i8"),
      with_q("    y = tl.atomic_add(q, 1)\n", "atomic_add does not support int16", "tl.atomic_add(q", "i16"),
      with_q("    y = tl.atomic_or(q, 1)\n", "atomic_or does not support uint16", "tl.atomic_or(q", "u16"),
      with_q("    y = tl.atomic_cas(q, 0, 1)\n", "atomic_cas only supports elements with width {16, 32, 64}",
             "tl.atomic_cas(q", "i8"),
      with_q("    y = tl.atomic_cas(q, 0, 1)\n",
             "tl.atomic_cas: cmp has type int32 but the pointer needs int64 (atomic_cas converts nothing; cast cmp "
             "first)",
             "tl.atomic_cas(q", "i64"),
      with_q("    y = tl.atomic_cas(q + offs, 0, 1)\n",
             "tl.atomic_cas: cmp has type int32 but the pointer needs <[4], int32> (atomic_cas converts nothing; "
             "broadcast cmp first)",
             "tl.atomic_cas(q + offs", "i32"),
      {"    y = tl.atomic_and(p, 1.0)\n", "atomic_and does not support fp32", "tl.atomic_and(p"},
      {"    y = tl.atomic_add(p, 1.0, sem='seq_cst')\n",
       "memory semantic 'seq_cst' not supported by tl.atomic_add (accepted: 'acquire', 'release', 'acq_rel', "
       "'relaxed')",
       "tl.atomic_add(p, 1.0, sem"},
      {"    y = tl.atomic_add(p, 1.0, scope='device')\n",
       "memory scope 'device' not supported by tl.atomic_add (accepted: 'gpu', 'cta', 'sys')",
       "tl.atomic_add(p, 1.0, scope"},
      {"    y = tl.atomic_add(p, x)\n", "tl.atomic_add: val cannot be a block when the pointer is a scalar",
       "tl.atomic_add(p, x)"},
      {"    y = tl.atomic_add(p, 1.0, mask=offs < 2)\n",
       "tl.atomic_add: mask cannot be a block when the pointer is a scalar", "tl.atomic_add(p, 1.0, mask"},
      {"    y = tl.atomic_add(p + offs, x, mask=offs)\n",
       "tl.atomic_add: mask must have boolean scalar type, got int32", "tl.atomic_add(p + offs, x, mask"},
      {"    y = tl.atomic_add(n, 1)\n",
       "tl.atomic_add: the pointer argument must be a pointer or a tensor of pointers, got i32", "tl.atomic_add(n"},
      {"    y = tl.atomic_min(p + offs, x2)\n", "cannot broadcast, rank mismatch: [4, 4], [4]", "tl.atomic_min(p + offs, x2"},
  });
}

// Block pointers (upstream semantic.py make_block_ptr / advance / _load_block_pointer /
// _store_block_pointer). `bp` is a 4 x 4 block pointer over p viewed as an n x n matrix.
TEST(Refusals, BlockPointers) {
  const std::string bp = "    bp = tl.make_block_ptr(p, (n, n), (n, 1), (0, 0), (4, 4), (1, 0))\n";
  Refusal int_ptr{bp + "    y = tl.load(tl.make_block_ptr(q, (n,), (1,), (0,), (4,), (0,)), boundary_check=(0,), "
                       "padding_option='nan')\n",
                  "Padding option `nan` is not supported for integer block pointers", "tl.load(tl.make_block_ptr(q"};
  int_ptr.params = "p, n, q, N: tl.constexpr";
  int_ptr.sig = "*fp32, i32, *i32, 16";
  expect_all({
      {bp + "    y = tl.load(bp, mask=x2 > 0)\n",
       "`mask` and `other` arguments cannot be specified for loading block pointers", "tl.load(bp, mask"},
      int_ptr,
      {bp + "    y = tl.load(bp, boundary_check=(0, 0))\n", "Duplicate dimension in `boundary_check`",
       "tl.load(bp, boundary_check=(0, 0))"},
      {bp + "    y = tl.load(bp, boundary_check=(2,))\n",
       "boundary_check dimensions must be constexpr ints in [0, 2), got constexpr int 2", "tl.load(bp, boundary_check=(2,))"},
      {bp + "    y = tl.load(bp, padding_option='inf')\n", "padding option inf not supported", "tl.load(bp, padding"},
      {"    bp = tl.make_block_ptr(p + offs, (n,), (1,), (0,), (4,), (0,))\n",
       "Expected `base` to be a pointer type (but not a block pointer type or others)", "tl.make_block_ptr(p + offs"},
      {"    bp = tl.make_block_ptr(p, (n, n), (n, 1), (0, 0), (4, 4), (1, 1))\n",
       "Expected a permutation of (0, 1, ..., len(order)-1) in order", "tl.make_block_ptr(p, (n, n), (n, 1), (0, 0), (4, 4), (1, 1"},
      {"    bp = tl.make_block_ptr(p, (n, n), (n,), (0, 0), (4, 4), (1, 0))\n",
       "Expected shape/strides/offsets/block_shape to have the same length", "tl.make_block_ptr(p, (n, n), (n,)"},
      {"    bp = tl.make_block_ptr(p, (n,), (1,), (n.to(tl.int64),), (4,), (0,))\n",
       "Block pointers only support 32 bit `offsets/block_shape`, add a `.to(tl.int32)` or use regular indexing for 64 "
       "bit support",
       "tl.make_block_ptr(p, (n,), (1,), (n.to"},
      {"    bp = tl.make_block_ptr(p, (n,), (1,), (x,), (4,), (0,))\n", "Expected a scalar in shape/strides/offsets",
       "tl.make_block_ptr(p, (n,), (1,), (x,)"},
      {"    bp = tl.make_block_ptr(p, (n,), (1,), (0,), (3,), (0,))\n", "shape element 0 must be a power of 2 (got 3)",
       "tl.make_block_ptr(p, (n,), (1,), (0,), (3,)"},
      {bp + "    tl.store(bp, x)\n", "Block shape([4, 4]) and value shape([4]) mismatch", "tl.store(bp, x)"},
      {bp + "    tl.store(bp, x2.to(tl.float16))\n", "Block element type(fp32) and value element type(fp16) mismatch",
       "tl.store(bp, x2.to"},
      {bp + "    tl.store(bp, x2, mask=x2 > 0)\n",
       "`mask` and `other` arguments cannot be specified for loading block pointers", "tl.store(bp, x2, mask"},
      {bp + "    y = bp[0]\n", "a block pointer cannot be indexed (load through it, or use its attributes)", "bp[0]"},
      {bp + "    y = len(bp)\n", "object of type block pointer has no len()", "len(bp)"},
      {"    y = tl.advance(p + offs, (1,))\n",
       "tl.advance: expected a block pointer (tl.make_block_ptr), got tensor<4xptr<fp32>>", "tl.advance(p + offs"},
      {bp + "    bp = tl.advance(bp, (1,))\n", "tl.advance: 1 offsets for a block pointer of rank 2", "tl.advance(bp, (1,))"},
      // tensor descriptors
      {"    d = tl.make_tensor_descriptor(p, [n, n], [n, 1], [4, 2])\n",
       "Descriptor block shape must have at least 16 bytes in the last dimension, but got 2 * 4 = 8 bytes",
       "tl.make_tensor_descriptor(p, [n, n], [n, 1], [4, 2])"},
      {"    d = tl.make_tensor_descriptor(p, [n, n], [1, n], [4, 4])\n",
       "Tensor descriptor last dim must be 1 but got i32 (it must be the constexpr 1)",
       "tl.make_tensor_descriptor(p, [n, n], [1, n]"},
      {"    d = tl.make_tensor_descriptor(p, [n, n], [n], [4, 4])\n", "Expected 2 strides but got 1",
       "tl.make_tensor_descriptor(p, [n, n], [n]"},
      {"    d = tl.make_tensor_descriptor(p, [n, n], [n, 1], [4])\n",
       "Expected block_shape to have 2 dimensions but got 1", "tl.make_tensor_descriptor(p, [n, n], [n, 1], [4])"},
      {"    d = tl.make_tensor_descriptor(p, [n], [1], [4], padding_option='inf')\n", "Padding option inf not supported",
       "tl.make_tensor_descriptor(p, [n], [1], [4], padding"},
      {"    d = tl.make_tensor_descriptor(p, [n], [1], [4])\n    y = d.load([0, 0])\n",
       "tl.load_tensor_descriptor: expected 1 offsets, but got 2", "d.load([0, 0])"},
      {"    d = tl.make_tensor_descriptor(p, [n], [1], [4])\n    d.store([0], x2)\n",
       "tensor descriptor store: the value has shape <[4, 4], fp32> but the descriptor's block is <[4], fp32>",
       "d.store([0], x2)"},
      {"    d = tl.make_tensor_descriptor(p, [n], [1], [4])\n    y = d.foo\n",
       "tensor descriptor has no attribute 'foo' (tritium supports load, store, block_shape, dtype, shape, strides)",
       "d.^^foo"},
  });
}

TEST(Refusals, MathBuiltins) {
  expect_all({
      {"    y = tl.exp(xi)\n", "tl.exp expected dtype [fp32, fp64] but got int32", "tl.exp(xi)"},
      {"    y = tl.exp(x.to(tl.float16))\n", "tl.exp expected dtype [fp32, fp64] but got fp16", "tl.exp(x.to"},
      {"    y = tl.sqrt_rn(x.to(tl.float64))\n", "tl.sqrt_rn expected dtype [fp32] but got fp64", "tl.sqrt_rn("},
      {"    y = tl.abs(p)\n", "tl.abs of a pointer", "tl.abs(p)"},
      {"    y = tl.clamp(xi, 0, 1)\n", "unexpected dtype int32. Only floating point clamp is supported", "tl.clamp(xi"},
      {"    y = tl.maximum(x, x, propagate_nan=3)\n",
       "unexpected propagate_nan constexpr int 3 (use tl.PropagateNan.ALL or tl.PropagateNan.NONE)", "tl.maximum(x, x"},
      {"    y = tl.div_rn(xi, xi)\n", "tl.div_rn expected dtype [fp32] but got int32", "tl.div_rn(xi, xi)"},
      {"    y = tl.fma(xi, xi, xi)\n", "tl.fma needs floating-point operands, got int32", "tl.fma(xi"},
      {"    y = tl.umulhi(xi.to(tl.int16), xi.to(tl.int16))\n", "tl.umulhi expected dtype [int32, int64, uint32, uint64] but got int16",
       "tl.umulhi("},
      {"    y = xi.exp()\n", "x.exp() needs a floating-point tensor, got int32", "xi.exp()"},
      {"    y = libdevice.exp(x, x)\n", "libdevice.exp() takes 1 argument but 2 were given", "libdevice.exp(x, x)"},
      {"    y = libdevice.exp(x=x)\n", "libdevice.exp() takes no keyword arguments", "libdevice.exp(x=x)"},
      {"    y = libdevice.exp(xi)\n",
       "libdevice.exp: input arg types (int32) do not match; every argument must be one of [fp32, fp64]",
       "libdevice.exp(xi)"},
  });
}

TEST(Refusals, DotBuiltin) {
  const std::string a16 = "    a = tl.load(p + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])\n";
  expect_all({
      {a16 + "    y = tl.dot(a, a, input_precision='ieee', allow_tf32=False)\n",
       "only one of input_precision and allow_tf32 can be specified", "tl.dot(a, a, input"},
      {a16 + "    y = tl.dot(a, a, input_precision='fast')\n",
       "input_precision must be one of ('tf32', 'tf32x3', 'ieee', 'bf16x3', 'bf16x6'). Got fast", "tl.dot(a, a, input"},
      {"    y = tl.dot(x, x)\n", "input and other must have equal ranks >= 2", "tl.dot(x, x)"},
      {a16 + "    y = tl.dot(a, tl.load(p + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :]).T)\n",
       "first input shape [16, 16] and second input shape [32, 16] are not compatible for matmul", "tl.dot(a, tl.load"},
      {a16 + "    y = tl.dot(a, a, x2)\n", "accumulator shape is incompatible", "tl.dot(a, a, x2)"},
      {a16 + "    y = tl.dot(a, a.to(tl.float16))\n", "both operands of tl.dot must have the same dtype. Got fp32 and fp16",
       "tl.dot(a, a.to"},
      {"    y = tl.dot(x2, x2)\n", "input shapes should have M >= 1, N >= 1 and K >= 16 (got K = 4)", "tl.dot(x2, x2)"},
      {a16 + "    b = a.to(tl.int16)\n    y = tl.dot(b, b)\n", "unsupported lhs dtype int16 for tl.dot", "tl.dot(b, b)"},
      {"    b = tl.load(p + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]).to(tl.uint8)\n"
       "    y = tl.dot(b, b)\n",
       "only int8 is supported for integer tl.dot (got uint8)",
       "tl.dot(b, b)"},
      {a16 + "    b = a.to(tl.float16)\n    y = tl.dot(b, b, out_dtype=tl.bfloat16)\n",
       "out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 and cast with `.to(tl.bfloat16)`",
       "tl.dot(b, b, out"},
      {a16 + "    b = a.to(tl.float16)\n    y = tl.dot(b, b, out_dtype=tl.int32)\n",
       "out_dtype must be float16 or float32 for fp16 operands", "tl.dot(b, b, out"},
      {a16 + "    b = a.to(tl.float16)\n    y = tl.dot(b, b, a, out_dtype=tl.float16)\n",
       "tl.dot accumulator of type <[16, 16], fp32> does not match out_dtype fp16", "tl.dot(b, b, a"},
      {"    a = tl.load(p + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]).to(tl.float8e5)\n"
       "    y = tl.dot(a, a, max_num_imprecise_acc=64)\n",
       "max_num_imprecise_acc (64) must be <= K (32)", "tl.dot(a, a, max"},
  });
}

TEST(Refusals, ReduceAndShapeBuiltins) {
  const std::string combine = "@triton.jit\ndef comb(a, b):\n    return a + b, a\n";
  expect_all({
      {"    y = tl.reduce((x, xi.to(tl.float32).reshape(2, 2)), 0, comb)\n",
       "all reduction inputs must have the same shape", "tl.reduce((x", combine},
      {"    y = tl.reduce(x, 0, comb)\n", "reduction combine function returned 2 values, expected 1", "tl.reduce(x, 0",
       combine},
      {"    y = tl.reduce((), 0, comb)\n", "tl.reduce needs at least one input", "tl.reduce((), 0", combine},
      {"    y = tl.reduce(x, 0, comb1)\n", "reduction combine function returned i32 for value 0, expected fp32",
       "tl.reduce(x, 0, comb1)", "@triton.jit\ndef comb1(a, b):\n    return (a + b).to(tl.int32)\n"},
      {"    y = tl.reduce(x, 0, tl.maximum)\n", "tl.reduce combine_fn must be a @triton.jit function, got builtin maximum",
       "tl.reduce(x, 0, tl"},
      {"    y = tl.argmax(x, None)\n", "reductions returning indices need an axis (got None)", "tl.argmax(x, None)"},
      {"    y = tl.sum(p + offs, 0)\n", "cannot add pointers together", "tl.sum(p + offs"},
      {"    y = tl.max(p + offs, 0)\n", "tl.max of pointers", "tl.max(p + offs"},
      {"    y = tl.argmin(p + offs, 0)\n", "tl.argmin of pointers", "tl.argmin(p + offs"},
      {"    y = tl.xor_sum(x, 0)\n", "xor_sum only supported for integers", "tl.xor_sum(x, 0)"},
      {"    y = tl.sum(x, axis=1)\n", "invalid axis 1. Expected -1 <= axis < 1", "tl.sum(x, axis=1)"},
      {"    y = tl.sum(x, axis=n)\n", "reduction axis must be a constexpr int, got i32", "tl.sum(x, axis=n)"},
      {"    y = tl.permute(x2, (0,))\n", "permute dims must have the same length as input shape", "tl.permute(x2"},
      {"    y = tl.permute(x2, (0, 0))\n", "permute dims must be a permutation of 0, 1, ..., n-1, but were (0, 0)",
       "tl.permute(x2"},
      {"    y = tl.trans(x)\n", "tl.trans invoked with a 0- or 1-dimensional tensor", "tl.trans(x)"},
      {"    y = tl.expand_dims(x, (0, 0))\n", "expand_dims received duplicate axes, normalized axes = [0, 0]",
       "tl.expand_dims(x, (0, 0))"},
      {"    y = tl.join(x, xi)\n", "tl.join operands have different types fp32 and int32", "tl.join(x, xi)"},
      {"    y = tl.split(x2)\n", "tl.split needs a tensor whose last dimension is 2", "tl.split(x2)"},
      {"    y = x.item()\n", "can only unsplat single-element tensors", "x.item()"},
      {"    y = tl.flip(x)\n",
       "tl.flip needs dim (upstream Triton 3.6 fails on dim=None: its static_assert compares None with an int)",
       "tl.flip(x)"},
      {"    y = tl.flip(x2, 2)\n", "tl.flip: dim 2 out of range for a tensor of rank 2", "tl.flip(x2, 2)"},
      {"    y = tl.sort(x2, dim=0)\n", "only minor dimension is currently supported", "tl.sort(x2, dim=0)"},
      {"    y = tl.sort(p + offs)\n", "tl.sort of pointers", "tl.sort(p + offs)"},
      {"    y = tl.topk(x, 3)\n", "tl.topk: k must be a power of two in [1, 4], got 3", "tl.topk(x, 3)"},
      {"    y = tl.topk(x2, 2, dim=0)\n", "only minor dimension is currently supported", "tl.topk(x2"},
      {"    y = tl.cat(x, x)\n", "current implementation of `cat` always may reorder elements (pass can_reorder=True)",
       "tl.cat(x, x)"},
      {"    y = tl.cat(x2, x2, True)\n", "tl.cat needs 1-D tensors, got <[4, 4], fp32>", "tl.cat(x2"},
      {"    y = tl.cat(x, xi, can_reorder=True)\n",
       "tl.cat operands must be 1-D tensors of one type, got <[4], fp32> and <[4], int32>", "tl.cat(x, xi"},
      {"    y = tl.associative_scan((x, x2), 0, comb)\n", "all scan inputs must have the same shape",
       "tl.associative_scan((x, x2)", combine},
      {"    y = tl.associative_scan(x, 0, comb)\n", "scan combine function returned 2 values, expected 1",
       "tl.associative_scan(x, 0, comb)", combine},
      {"    y = tl.associative_scan(x, 0, tl.maximum)\n",
       "tl.associative_scan combine_fn must be a @triton.jit function, got builtin maximum", "tl.associative_scan(x, 0, tl"},
      {"    y = tl.cumsum(x, axis=None)\n", "tl.associative_scan needs an axis (got None)", "tl.cumsum(x, axis=None)"},
      {"    y = tl.cumprod(x, 1)\n", "invalid axis 1. Expected -1 <= axis < 1", "tl.cumprod(x, 1)"},
      {"    y = tl.cumsum(n)\n", "tl.associative_scan needs a tensor input, got a scalar", "tl.cumsum(n)"},
  });
}

// tl.gather / tl.histogram misuse (upstream's semantic.py asserts, our words). xi2 is an
// int32 [4, 2] index.
TEST(Refusals, GatherAndHistogram) {
  const std::string xi2 = "    xi2 = offs[:, None] + tl.arange(0, 2)[None, :]\n";
  expect_all({
      {"    y = tl.gather(x, x, 0)\n", "tl.gather: index must be an integer tensor, got <[4], fp32>", "tl.gather(x, x"},
      {"    y = x2.gather(p + offs, 0)\n", "tl.gather: index must be an integer tensor, got <[4], pointer<fp32>>",
       "x2.gather("},
      {"    y = tl.gather(x2, xi, 0)\n",
       "tl.gather: source and index tensors must have the same rank, got <[4, 4], fp32> and <[4], int32>",
       "tl.gather(x2, xi"},
      {"    y = tl.gather(x, xi, 1)\n", "tl.gather: axis 1 out of range for a source of rank 1", "tl.gather(x, xi, 1)"},
      {"    y = tl.gather(x, xi, -2)\n", "tl.gather: axis -2 out of range for a source of rank 1", "tl.gather(x, xi, -2)"},
      {xi2 + "    y = tl.gather(x2, xi2, 0)\n",
       "tl.gather: index dim 1 has size 2, but it must match the source's (4) off the axis", "tl.gather(x2, xi2, 0)"},
      {"    y = tl.gather(x, xi, n)\n", "tl.gather axis must be a constexpr int, got i32", "tl.gather(x, xi, n)"},
      {"    y = tl.gather(x, 1, 0)\n", "tl.gather index must be a tensor, got constexpr int 1", "tl.gather(x, 1, 0)"},
      {xi2 + "    y = tl.histogram(xi2, 4)\n", "tl.histogram only supports 1D input, got <[4, 2], int32>", "tl.histogram(xi2"},
      {"    y = tl.histogram(x2, 4)\n", "tl.histogram only supports 1D input, got <[4, 4], fp32>", "tl.histogram(x2"},
      {"    y = x.histogram(4)\n", "tl.histogram only supports integer input, got <[4], fp32>", "x.histogram(4)"},
      {"    y = tl.histogram(xi, 6)\n",
       "tl.histogram: num_bins must be a power of 2 (it is the result's block shape), got 6", "tl.histogram(xi, 6)"},
      {"    y = tl.histogram(xi, n)\n", "tl.histogram num_bins must be a constexpr int, got i32", "tl.histogram(xi, n)"},
      {"    y = tl.histogram(xi, 4, mask=xi)\n", "tl.histogram: Mask must have boolean scalar type, got int32",
       "tl.histogram(xi, 4, mask=xi)"},
      {"    y = tl.histogram(xi, 4, offs[:, None] < 2)\n", "cannot broadcast, rank mismatch: [4, 1], [4]", "tl.histogram(xi, 4, offs"},
  });
}

TEST(Refusals, DebugAndHintBuiltins) {
  std::vector<Refusal> cases = {
      {"    tl.device_print(1, x)\n", "constexpr int 1 is not a string (device_print prefix)", "tl.device_print(1"},
      {"    tl.device_print('\\u00e9', x)\n", "device_print prefix is not an ascii string", "tl.device_print("},
      {"    tl.device_assert(x > 0, n)\n", "device_assert msg must be a string literal", "tl.device_assert(x > 0, n)"},
      {"    y = tl.multiple_of(x2, (16,))\n", "shape of input to multiple_of does not match the length of values",
       "tl.multiple_of(x2"},
      {"    y = tl.max_contiguous(x, (n,))\n", "values element 0 must have type `constexpr[int]`, got i32",
       "tl.max_contiguous(x"},
  };
  // Upstream checks nothing about a device_assert outside debug mode (it is dropped); in
  // debug mode the condition must be boolean.
  Refusal cond{"    tl.device_assert(x, 'm')\n", "device_assert condition must be int1, got fp32", "tl.device_assert(x, 'm')"};
  cond.debug = true;
  cases.push_back(cond);
  expect_all(cases);
}

// ---- source text the parser refuses (reported when the kernel is used) -----------------------

TEST(Refusals, ParserRefusals) {
  expect_all({
      {"    match n:\n        case 1:\n            pass\n", "match statements are not supported", "match n:"},
      {"    y = 1j\n", "complex (imaginary) literals are not supported", "1j"},
  });
}

}  // namespace

namespace {

// ---- refused at run time ------------------------------------------------------------------------

// A dynamic `for` whose step is a run-time value must step forward: scf.for (upstream) has
// no meaning for a step <= 0, so the launch fails instead of looping forever or skipping.
TEST(Refusals, RunTimeLoopStepMustBePositive) {
  const std::string src =
      "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(p, s):\n"
      "    acc = 0\n    for i in range(0, 8, s):\n        acc += i\n    tl.store(p, acc)\n";
  for (const char* backend : {"interp", "cpu"}) {
    auto dev = tritium::Device::get(backend);
    auto kern = tritium::Module::from_string(src, kFile).kernel("k").compile(dev, "*i32, i32");
    auto out = dev.upload(std::vector<int32_t>{-1});
    kern.launch({1}, {out, 3});
    EXPECT_EQ(out.download<int32_t>()[0], 0 + 3 + 6) << backend;
    for (int step : {0, -2}) {
      try {
        kern.launch({1}, {out, step});
        ADD_FAILURE() << backend << ": step " << step << " was accepted";
      } catch (const tritium::Error& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("loop step must be positive at run time"), std::string::npos) << backend << ": " << what;
        EXPECT_NE(what.find(std::string(kFile) + ":7"), std::string::npos) << backend << ": " << what;
      }
    }
  }
}

// Grid extents must fit the int32 program ids; an empty grid launches nothing.
TEST(Refusals, GridExtentsOutOfRange) {
  const std::string src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(p):\n"
                          "    tl.store(p + tl.program_id(0), 1)\n";
  for (const char* backend : {"interp", "cpu"}) {
    auto dev = tritium::Device::get(backend);
    auto kern = tritium::Module::from_string(src, kFile).kernel("k").compile(dev, "*i32");
    auto out = dev.upload(std::vector<int32_t>{-1});
    for (tritium::Grid g : {tritium::Grid(-1), tritium::Grid(1, int64_t{1} << 31), tritium::Grid(1, 1, -5)}) {
      try {
        kern.launch(g, {out});
        ADD_FAILURE() << backend << ": grid accepted";
      } catch (const tritium::Error& e) {
        EXPECT_EQ(e.kind(), tritium::ErrorKind::Usage) << e.what();
        EXPECT_EQ(std::string(e.what()), fmt_grid(g)) << backend;
      }
    }
    kern.launch({0}, {out});
    EXPECT_EQ(out.download<int32_t>()[0], -1) << backend << ": an empty grid ran a program";
  }
}

}  // namespace
