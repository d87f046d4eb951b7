// Tests of the parser: precedence, every statement kind, decorators, parameters, top-level
// skipping and error messages.
#include <gtest/gtest.h>

#include <string>

#include "frontend/parser.h"

namespace tritium::frontend {
namespace {

std::string E(const std::string& text) { return dump(*parse_expression(Source::from_string(text, "e.py"))); }

// Dumps every statement of `text` parsed strictly.
std::string S(const std::string& text) {
  auto src = Source::from_string(text, "s.py");
  std::string out;
  for (const auto& s : parse_statements(src)) {
    if (!out.empty()) out += '\n';
    out += dump(*s);
  }
  return out;
}

std::string expr_error(const std::string& text) {
  try {
    parse_expression(Source::from_string(text, "e.py"));
  } catch (const CompileError& e) {
    return e.what();
  }
  return "<no error>";
}

std::string stmt_error(const std::string& text) {
  try {
    parse_statements(Source::from_string(text, "t.py"));
  } catch (const CompileError& e) {
    return e.what();
  }
  return "<no error>";
}

// ---- expressions -------------------------------------------------------------------------

TEST(ParserTest, Atoms) {
  EXPECT_EQ(E("x"), "x");
  EXPECT_EQ(E("42"), "42");
  EXPECT_EQ(E("0xFF"), "255");
  EXPECT_EQ(E("123456789012345678901234567890"), "123456789012345678901234567890");
  EXPECT_EQ(E("1.5"), "1.5");
  EXPECT_EQ(E("1."), "1.0");
  EXPECT_EQ(E("True"), "True");
  EXPECT_EQ(E("False"), "False");
  EXPECT_EQ(E("None"), "None");
  EXPECT_EQ(E("..."), "...");
  EXPECT_EQ(E("'a' \"b\"\n"), "'ab'");
  EXPECT_EQ(E("('a'\n 'b')"), "'ab'");
  EXPECT_EQ(E("b'a' b'\\x00'"), "b'a\\x00'");
  EXPECT_EQ(E("f'{x}' 'y'"), "f'{x}y'");
}

TEST(ParserTest, LiteralValues) {
  auto src = Source::from_string("(18446744073709551616, 0o777, 2.5e-3, 'h\\u00e9')");
  auto e = parse_expression(src);
  const auto& t = e->as<TupleExpr>();
  ASSERT_EQ(t.elts.size(), 4u);
  const auto& big = t.elts[0]->as<IntExpr>();
  EXPECT_TRUE(big.overflow);
  EXPECT_EQ(big.text, "18446744073709551616");
  const auto& oct = t.elts[1]->as<IntExpr>();
  EXPECT_FALSE(oct.overflow);
  EXPECT_EQ(oct.value, 511u);
  EXPECT_EQ(oct.text, "0o777");
  EXPECT_DOUBLE_EQ(t.elts[2]->as<FloatExpr>().value, 2.5e-3);
  EXPECT_EQ(t.elts[3]->as<StrExpr>().value, "h\xC3\xA9");
  EXPECT_EQ(t.loc.col, 1u);
  EXPECT_EQ(t.elts[1]->loc.col, 24u);
}

TEST(ParserTest, ArithmeticPrecedence) {
  EXPECT_EQ(E("a + b * c"), "(+ a (* b c))");
  EXPECT_EQ(E("a * b + c"), "(+ (* a b) c)");
  EXPECT_EQ(E("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(E("a / b // c % d @ e"), "(@ (% (// (/ a b) c) d) e)");
  EXPECT_EQ(E("(a + b) * c"), "(* (+ a b) c)");
  EXPECT_EQ(E("a << b + c"), "(<< a (+ b c))");
  EXPECT_EQ(E("a & b << c"), "(& a (<< b c))");
  EXPECT_EQ(E("a ^ b & c"), "(^ a (& b c))");
  EXPECT_EQ(E("a | b ^ c"), "(| a (^ b c))");
  EXPECT_EQ(E("a | b ^ c & d << e + f * g ** -h"), "(| a (^ b (& c (<< d (+ e (* f (** g (- h))))))))");
}

TEST(ParserTest, PowerAndUnary) {
  EXPECT_EQ(E("-2**2"), "(- (** 2 2))");
  EXPECT_EQ(E("2**-1"), "(** 2 (- 1))");
  EXPECT_EQ(E("a**b**c"), "(** a (** b c))");
  EXPECT_EQ(E("-a*b"), "(* (- a) b)");
  EXPECT_EQ(E("~-+a"), "(~ (- (+ a)))");
  EXPECT_EQ(E("-x.y[0]**2"), "(- (** (sub x.y 0) 2))");
  EXPECT_EQ(E("await f(x) ** 2"), "(** (await (call f x)) 2)");
}

TEST(ParserTest, ComparisonsAndBooleans) {
  EXPECT_EQ(E("a < b"), "(< a b)");
  EXPECT_EQ(E("a < b < c"), "(cmp a < b < c)");
  EXPECT_EQ(E("a <= b == c != d >= e > f"), "(cmp a <= b == c != d >= e > f)");
  EXPECT_EQ(E("a is not b"), "(is not a b)");
  EXPECT_EQ(E("a not in b"), "(not in a b)");
  EXPECT_EQ(E("a in b is c"), "(cmp a in b is c)");
  EXPECT_EQ(E("a + 1 < b * 2"), "(< (+ a 1) (* b 2))");
  EXPECT_EQ(E("not a == b"), "(not (== a b))");
  EXPECT_EQ(E("a and b or c and d"), "(or (and a b) (and c d))");
  EXPECT_EQ(E("a or b or c"), "(or a b c)");
  EXPECT_EQ(E("not a and not b"), "(and (not a) (not b))");
  EXPECT_EQ(E("a | b < c & d"), "(< (| a b) (& c d))");
}

TEST(ParserTest, CompareNodeStructure) {
  auto e = parse_expression(Source::from_string("x < y <= z"));
  const auto& c = e->as<CompareExpr>();
  ASSERT_EQ(c.ops.size(), 2u);
  EXPECT_EQ(c.ops[0], CmpOp::Lt);
  EXPECT_EQ(c.ops[1], CmpOp::LtE);
  EXPECT_EQ(c.left->as<NameExpr>().id, "x");
  EXPECT_EQ(c.comparators[1]->as<NameExpr>().id, "z");
  EXPECT_EQ(c.op_locs[1].col, 7u);
}

TEST(ParserTest, TernaryLambdaWalrus) {
  EXPECT_EQ(E("a if c else b"), "(ifexp c a b)");
  EXPECT_EQ(E("a if c else b if d else e"), "(ifexp c a (ifexp d b e))");
  EXPECT_EQ(E("a or b if c and d else e"), "(ifexp (and c d) (or a b) e)");
  EXPECT_EQ(E("lambda: 0"), "(lambda () 0)");
  EXPECT_EQ(E("lambda x, y=1, *a, k, **kw: x + y"), "(lambda (x, y=1, *a, k, **kw) (+ x y))");
  EXPECT_EQ(E("lambda args: args['n'] % 64 == 0"), "(lambda (args) (== (% (sub args 'n') 64) 0))");
  EXPECT_EQ(E("lambda x: a if x else b"), "(lambda (x) (ifexp x a b))");
  EXPECT_EQ(E("(y := f(x))"), "(:= y (call f x))");
  EXPECT_EQ(E("f(y := 1)"), "(call f (:= y 1))");
}

TEST(ParserTest, AttributesCallsSubscripts) {
  EXPECT_EQ(E("tl.program_id(axis=0)"), "(call tl.program_id axis=0)");
  EXPECT_EQ(E("f()"), "(call f)");
  EXPECT_EQ(E("f(a, b, *c, d=1, **e)"), "(call f a b *c d=1 **e)");
  EXPECT_EQ(E("f(a,)"), "(call f a)");
  EXPECT_EQ(E("f(x for x in y)"), "(call f (genexp x for x in y))");
  EXPECT_EQ(E("a.b.c(d)[e].f"), "(sub (call a.b.c d) e).f");
  EXPECT_EQ(E("x[:, None]"), "(sub x (tuple (slice _ _ _) None))");
  EXPECT_EQ(E("x[None, :]"), "(sub x (tuple None (slice _ _ _)))");
  EXPECT_EQ(E("x[1:3]"), "(sub x (slice 1 3 _))");
  EXPECT_EQ(E("x[::2]"), "(sub x (slice _ _ 2))");
  EXPECT_EQ(E("x[a:b:c]"), "(sub x (slice a b c))");
  EXPECT_EQ(E("x[..., None]"), "(sub x (tuple ... None))");
  EXPECT_EQ(E("x[i]"), "(sub x i)");
  EXPECT_EQ(E("x[i,]"), "(sub x (tuple i))");
  EXPECT_EQ(E("x[:n - 1, 2:]"), "(sub x (tuple (slice _ (- n 1) _) (slice 2 _ _)))");
  EXPECT_EQ(E("x[*idx]"), "(sub x *idx)");
}

TEST(ParserTest, Displays) {
  EXPECT_EQ(E("()"), "(tuple)");
  EXPECT_EQ(E("(a,)"), "(tuple a)");
  EXPECT_EQ(E("a, b"), "(tuple a b)");
  EXPECT_EQ(E("a, *b"), "(tuple a *b)");
  EXPECT_EQ(E("(a, b,)"), "(tuple a b)");
  EXPECT_EQ(E("[]"), "(list)");
  EXPECT_EQ(E("[a, *b, c]"), "(list a *b c)");
  EXPECT_EQ(E("{}"), "(dict)");
  EXPECT_EQ(E("{'a': 1, **d, b: 2,}"), "(dict 'a':1 **d b:2)");
  EXPECT_EQ(E("{a, b}"), "(set a b)");
  EXPECT_EQ(E("{*a, b}"), "(set *a b)");
  EXPECT_EQ(E("[x * 2 for x in range(10) if x % 2 if x for y in z]"),
            "(listcomp (* x 2) for x in (call range 10) if (% x 2) if x for y in z)");
  EXPECT_EQ(E("{k: v for k, v in d.items()}"), "(dictcomp k:v for (tuple k v) in (call d.items))");
  EXPECT_EQ(E("{x for x in y}"), "(setcomp x for x in y)");
  EXPECT_EQ(E("(x async for x in y)"), "(genexp x async for x in y)");
  EXPECT_EQ(E("[(yield)]"), "(list (yield))");
}

TEST(ParserTest, NodeLocationsAndEnds) {
  auto src = Source::from_string("foo + bar.baz(1)");
  auto e = parse_expression(src);
  const auto& b = e->as<BinaryExpr>();
  EXPECT_EQ(b.op, BinOp::Add);
  EXPECT_EQ(b.loc.col, 1u);
  EXPECT_EQ(b.op_loc.col, 5u);
  EXPECT_EQ(b.end_offset, 16u);
  const auto& call = b.rhs->as<CallExpr>();
  EXPECT_EQ(call.loc.col, 7u);
  const auto& attr = call.func->as<AttributeExpr>();
  EXPECT_EQ(attr.attr, "baz");
  EXPECT_EQ(attr.attr_loc.col, 11u);
  EXPECT_EQ(src->slice(call.loc.offset, call.end_offset), "bar.baz(1)");
  EXPECT_TRUE(b.rhs->is<CallExpr>());
  EXPECT_EQ(b.rhs->dyn<NameExpr>(), nullptr);
}

TEST(ParserTest, ExpressionErrors) {
  EXPECT_EQ(expr_error("a + "),
            "e.py:1:5: error: invalid syntax (unexpected end of line)\n"
            "    a + \n"
            "        ^");
  EXPECT_EQ(expr_error("3j + 1"),
            "e.py:1:1: error: complex (imaginary) literals are not supported\n"
            "    3j + 1\n"
            "    ^");
  EXPECT_EQ(expr_error("f(a=1, b)"),
            "e.py:1:8: error: positional argument follows keyword argument\n"
            "    f(a=1, b)\n"
            "           ^");
  EXPECT_NE(expr_error("f(a, x for x in y)").find("generator expression must be parenthesized"), std::string::npos);
  EXPECT_NE(expr_error("012").find("leading zeros"), std::string::npos);
  EXPECT_NE(expr_error("a b").find("1:3: error: invalid syntax: unexpected 'b'"), std::string::npos);
  EXPECT_NE(expr_error("b'a' 'b'").find("cannot mix bytes and nonbytes literals"), std::string::npos);
}

TEST(ParserTest, DeepNestingIsAnErrorNotACrash) {
  EXPECT_EQ(E(std::string(150, '(') + "x" + std::string(150, ')')), "x");
  EXPECT_EQ(E(std::string(300, '-') + "1").size(), 300u * 4 + 1);
  EXPECT_NE(expr_error(std::string(2000, '-') + "1").find("expression too deeply nested"), std::string::npos);
  std::string nots;
  for (int i = 0; i < 2000; ++i) nots += "not ";
  EXPECT_NE(expr_error(nots + "x").find("expression too deeply nested"), std::string::npos);
  std::string lambdas;
  for (int i = 0; i < 2000; ++i) lambdas += "lambda: ";
  EXPECT_NE(expr_error(lambdas + "x").find("expression too deeply nested"), std::string::npos);
  // Chains built in a loop nest the tree as deeply, and the code generator recurses along
  // them (2000 attributes overflowed the stack of the ASan build replaying the fuzz corpus).
  std::string attrs = "x", calls = "f", items = "x", sum = "1";
  for (int i = 0; i < 2000; ++i) attrs += ".a", calls += "()", items += "[0]", sum += " + 1";
  for (const std::string& chain : {attrs, calls, items, sum})
    EXPECT_NE(expr_error(chain).find("expression too deeply nested"), std::string::npos) << chain.substr(0, 40);
  std::string ok = "x";  // 300 links parse (E throws on an error)
  for (int i = 0; i < 300; ++i) ok += i % 2 ? ".a" : "[0]";
  const std::string dumped = E(ok);  // "(sub ... (sub (sub x 0).a 0).a ...).a"
  auto count = [&](const std::string& part) {
    size_t n = 0;
    for (size_t at = dumped.find(part); at != std::string::npos; at = dumped.find(part, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("(sub "), 150u);
  EXPECT_EQ(count(".a"), 150u);
}

// ---- statements --------------------------------------------------------------------------

TEST(ParserTest, Assignments) {
  EXPECT_EQ(S("x = 1"), "x = 1");
  EXPECT_EQ(S("a = b = 1"), "a = b = 1");
  EXPECT_EQ(S("a, b = b, a"), "(tuple a b) = (tuple b a)");
  EXPECT_EQ(S("(a, b), [c, *d] = x"), "(tuple (tuple a b) (list c *d)) = x");
  EXPECT_EQ(S("x.y[i] = z.w = 0"), "(sub x.y i) = z.w = 0");
  EXPECT_EQ(S("x: tl.constexpr = 3"), "x: tl.constexpr = 3");
  EXPECT_EQ(S("acc: tl.float32 = tl.zeros((M, N), dtype=tl.float32)"),
            "acc: tl.float32 = (call tl.zeros (tuple M N) dtype=tl.float32)");
  EXPECT_EQ(S("y: int"), "y: int");
  EXPECT_EQ(S("x += 1\nx -= 1\nx *= 2\nx /= 2\nx //= 2\nx %= 2\nx **= 2\nx @= m\nx &= 1\nx |= 1\nx ^= 1\nx <<= 1\nx >>= 1"),
            "x += 1\nx -= 1\nx *= 2\nx /= 2\nx //= 2\nx %= 2\nx **= 2\nx @= m\nx &= 1\nx |= 1\nx ^= 1\nx <<= 1\nx >>= 1");
  EXPECT_EQ(S("a[i] += 1; b.c //= 2"), "(sub a i) += 1\nb.c //= 2");
  EXPECT_EQ(S("x = yield y"), "x = (yield y)");
}

TEST(ParserTest, AssignmentNodeStructure) {
  auto stmts = parse_statements(Source::from_string("a = b = f(1)\nx: tl.constexpr = 3\n(y): int = 2\ni >>= 2\n"));
  ASSERT_EQ(stmts.size(), 4u);
  const auto& a = stmts[0]->as<AssignStmt>();
  ASSERT_EQ(a.targets.size(), 2u);
  EXPECT_EQ(a.targets[1]->as<NameExpr>().id, "b");
  EXPECT_TRUE(a.value->is<CallExpr>());
  const auto& ann = stmts[1]->as<AnnAssignStmt>();
  EXPECT_TRUE(ann.simple);
  EXPECT_EQ(dump(*ann.annotation), "tl.constexpr");
  EXPECT_FALSE(stmts[2]->as<AnnAssignStmt>().simple);
  const auto& aug = stmts[3]->as<AugAssignStmt>();
  EXPECT_EQ(aug.op, BinOp::RShift);
  EXPECT_EQ(aug.loc.line, 4u);
}

TEST(ParserTest, ControlFlow) {
  EXPECT_EQ(S("if a:\n    x = 1\nelif b:\n    x = 2\nelif c: x = 3\nelse:\n    pass\n"),
            "if a:\n  x = 1\nelif b:\n  x = 2\nelif c:\n  x = 3\nelse:\n  pass");
  EXPECT_EQ(S("for i in range(0, n, BLOCK):\n    acc += i\nelse:\n    done = True\n"),
            "for i in (call range 0 n BLOCK):\n  acc += i\nelse:\n  done = True");
  EXPECT_EQ(S("for i, (a, b) in enumerate(z): pass"), "for (tuple i (tuple a b)) in (call enumerate z):\n  pass");
  EXPECT_EQ(S("for x in a, b: pass"), "for x in (tuple a b):\n  pass");
  EXPECT_EQ(S("while i < n:\n    i += 1\n    if i == 3:\n        break\n    continue\nelse:\n    pass\n"),
            "while (< i n):\n  i += 1\n  if (== i 3):\n    break\n  continue\nelse:\n  pass");
  EXPECT_EQ(S("while (n := n - 1) > 0: pass"), "while (> (:= n (- n 1)) 0):\n  pass");
}

TEST(ParserTest, IfElifStructure) {
  auto stmts = parse_statements(Source::from_string("if a:\n  pass\nelif b:\n  pass\nelse:\n  x = 1\n"));
  const auto& s = stmts[0]->as<IfStmt>();
  EXPECT_FALSE(s.is_elif);
  ASSERT_EQ(s.orelse.size(), 1u);
  const auto& elif = s.orelse[0]->as<IfStmt>();
  EXPECT_TRUE(elif.is_elif);
  EXPECT_EQ(elif.loc.line, 3u);
  ASSERT_EQ(elif.orelse.size(), 1u);
  EXPECT_TRUE(elif.orelse[0]->is<AssignStmt>());
}

TEST(ParserTest, SimpleStatements) {
  EXPECT_EQ(S("return"), "return");
  EXPECT_EQ(S("return x"), "return x");
  EXPECT_EQ(S("return a, b"), "return (tuple a b)");
  EXPECT_EQ(S("assert x > 0, 'x must be positive'"), "assert (> x 0), 'x must be positive'");
  EXPECT_EQ(S("assert x"), "assert x");
  EXPECT_EQ(S("pass; break; continue"), "pass\nbreak\ncontinue");
  EXPECT_EQ(S("global a, b"), "global a, b");
  EXPECT_EQ(S("nonlocal c"), "nonlocal c");
  EXPECT_EQ(S("del a, b[0], c.d"), "del a, (sub b 0), c.d");
  EXPECT_EQ(S("raise"), "raise");
  EXPECT_EQ(S("raise ValueError('x') from e"), "raise (call ValueError 'x') from e");
  EXPECT_EQ(S("'''docstring'''"), "'docstring'");
  EXPECT_EQ(S("f(x); g(y);"), "(call f x)\n(call g y)");
  EXPECT_EQ(S("import a.b as c, d"), "import a.b as c, d");
  EXPECT_EQ(S("from ..a.b import (c, d as e,)"), "from ..a.b import c, d as e");
  EXPECT_EQ(S("from . import x"), "from . import x");
  EXPECT_EQ(S("from m import *"), "from m import *");
  EXPECT_EQ(S("yield x"), "(yield x)");
  EXPECT_EQ(S("yield from g()"), "(yield-from (call g))");
}

TEST(ParserTest, WithTryClassNestedDef) {
  EXPECT_EQ(S("with open(p) as f, lock:\n    pass\n"), "with (call open p) as f, lock:\n  pass");
  EXPECT_EQ(S("with (a as b, c as d,):\n    pass\n"), "with a as b, c as d:\n  pass");
  EXPECT_EQ(S("with (a, b) as (c, d): pass"), "with (tuple a b) as (tuple c d):\n  pass");
  EXPECT_EQ(S("async with a: pass"), "async with a:\n  pass");
  EXPECT_EQ(S("try:\n  x()\nexcept (A, B) as e:\n  raise\nexcept C:\n  pass\nexcept:\n  pass\nelse:\n  y = 1\nfinally:\n  z = 2\n"),
            "try:\n  (call x)\nexcept (tuple A B) as e:\n  raise\nexcept C:\n  pass\nexcept:\n  pass\nelse:\n  y = 1\n"
            "finally:\n  z = 2");
  EXPECT_EQ(S("class K(Base, metaclass=M):\n  x = 1\n  def f(self): return self.x\n"),
            "class K(Base metaclass=M):\n  x = 1\n  def f(self):\n    return self.x");
  EXPECT_EQ(S("def outer(x):\n  def inner(y):\n    return y\n  return inner(x)\n"),
            "def outer(x):\n  def inner(y):\n    return y\n  return (call inner x)");
  EXPECT_EQ(S("async def f():\n  await g()\n  async for x in y: pass\n"),
            "async def f():\n  (await (call g))\n  async for x in y:\n    pass");
}

TEST(ParserTest, FunctionParameters) {
  auto stmts = parse_statements(Source::from_string(
      "def k(a, b: int, /, c, d: 'tl.tensor' = None, *args: int, e, f: tl.constexpr = 128, **kw) -> tl.tensor:\n"
      "    pass\n"));
  const auto& f = stmts[0]->as<FunctionDef>();
  EXPECT_EQ(f.name, "k");
  ASSERT_EQ(f.params.size(), 8u);
  EXPECT_EQ(f.params[0].kind, ParamKind::PositionalOnly);
  EXPECT_EQ(f.params[1].kind, ParamKind::PositionalOnly);
  EXPECT_EQ(dump(*f.params[1].annotation), "int");
  EXPECT_EQ(f.params[2].kind, ParamKind::Normal);
  EXPECT_EQ(f.params[3].annotation->as<StrExpr>().value, "tl.tensor");
  EXPECT_TRUE(f.params[3].default_value->is<NoneExpr>());
  EXPECT_EQ(f.params[4].kind, ParamKind::VarArgs);
  EXPECT_EQ(f.params[4].name, "args");
  EXPECT_EQ(f.params[5].kind, ParamKind::KeywordOnly);
  EXPECT_EQ(f.params[6].kind, ParamKind::KeywordOnly);
  EXPECT_EQ(f.params[6].default_value->as<IntExpr>().value, 128u);
  EXPECT_EQ(f.params[7].kind, ParamKind::VarKwargs);
  EXPECT_EQ(f.params[7].loc.col, 87u);
  EXPECT_EQ(dump(*f.returns), "tl.tensor");
  EXPECT_EQ(dump(f), "def k(a, b: int, /, c, d: 'tl.tensor' = None, *args: int, e, f: tl.constexpr = 128, **kw) -> tl.tensor:\n  pass");
  EXPECT_EQ(S("def g(a, *, b): pass"), "def g(a, *, b):\n  pass");
}

TEST(ParserTest, ParameterErrors) {
  EXPECT_EQ(stmt_error("def f(a=1, b): pass"),
            "t.py:1:12: error: non-default argument follows default argument\n"
            "    def f(a=1, b): pass\n"
            "               ^");
  EXPECT_NE(stmt_error("def f(a, a): pass").find("duplicate argument 'a'"), std::string::npos);
  EXPECT_NE(stmt_error("def f(*): pass").find("named arguments must follow bare *"), std::string::npos);
  EXPECT_NE(stmt_error("def f(**k, a): pass").find("arguments cannot follow var-keyword argument"), std::string::npos);
}

TEST(ParserTest, StatementErrors) {
  EXPECT_EQ(stmt_error("x = 1\nif x\n    y = 2\n"),
            "t.py:2:5: error: expected ':'\n"
            "    if x\n"
            "        ^");
  EXPECT_EQ(stmt_error("def f():\nreturn 1\n"),
            "t.py:2:1: error: expected an indented block\n"
            "    return 1\n"
            "    ^");
  EXPECT_EQ(stmt_error("x = 1\n    y = 2\n"),
            "t.py:2:5: error: unexpected indent\n"
            "        y = 2\n"
            "        ^");
  EXPECT_EQ(stmt_error("f() = 1\n"),
            "t.py:1:1: error: cannot assign to function call in assignment\n"
            "    f() = 1\n"
            "    ^");
  EXPECT_NE(stmt_error("a, b += 1").find("only a single target (not tuple) is allowed in augmented assignment"),
            std::string::npos);
  EXPECT_NE(stmt_error("for f() in x: pass").find("cannot assign to function call in for loop target"), std::string::npos);
  EXPECT_NE(stmt_error("del f()").find("cannot delete function call"), std::string::npos);
  EXPECT_NE(stmt_error("else:\n  pass\n").find("'else' without a matching statement"), std::string::npos);
  EXPECT_NE(stmt_error("match x:\n  case 1: pass\n").find("match statements are not supported"), std::string::npos);
  EXPECT_NE(stmt_error("try:\n  pass\nx = 1\n").find("expected 'except' or 'finally' block"), std::string::npos);
}

TEST(ParserTest, MatchAsAnIdentifierStillWorks) {
  EXPECT_EQ(S("match = re.match(p, s)\nmatch.group(1)\n"), "match = (call re.match p s)\n(call match.group 1)");
}

// ---- module level ------------------------------------------------------------------------

TEST(ParserTest, ImportsAndTopLevelAssignments) {
  auto m = parse_module(Source::from_string(
      "import triton\n"
      "import triton.language as tl\n"
      "from triton import language as tl2\n"
      "import triton.language as language\n"
      "from triton.language.extra import libdevice\n"
      "from x import (a, b as c)\n"
      "X = 4\n"
      "Y: tl.constexpr = 4\n"
      "Z = tl.constexpr(4)\n"
      "P, Q = 1, 2\n",
      "m.py"));
  ASSERT_EQ(m.body.size(), 10u);
  const auto& i1 = m.body[1]->as<ImportStmt>();
  EXPECT_EQ(i1.names[0].name, "triton.language");
  EXPECT_EQ(i1.names[0].asname, "tl");
  const auto& f = m.body[2]->as<ImportFromStmt>();
  EXPECT_EQ(f.module, "triton");
  EXPECT_EQ(f.level, 0);
  EXPECT_EQ(f.names[0].name, "language");
  EXPECT_EQ(f.names[0].asname, "tl2");
  const auto& f2 = m.body[5]->as<ImportFromStmt>();
  ASSERT_EQ(f2.names.size(), 2u);
  EXPECT_EQ(f2.names[1].asname, "c");
  EXPECT_EQ(dump(*m.body[6]), "X = 4");
  EXPECT_EQ(dump(*m.body[7]), "Y: tl.constexpr = 4");
  EXPECT_EQ(dump(*m.body[8]), "Z = (call tl.constexpr 4)");
  EXPECT_EQ(dump(*m.body[9]), "(tuple P Q) = (tuple 1 2)");
  EXPECT_TRUE(m.functions.empty());
  EXPECT_EQ(m.source->name(), "m.py");
}

// Imports inside a top-level `try` (how Liger-style kernels import libdevice): the statement
// is still skipped, and the imports of the `try` body follow it in `body`; the except
// branches bind nothing. A top-level `if` that parses is kept whole (the code generator
// evaluates its condition, codegen_globals.cpp); one that does not parse is skipped.
TEST(ParserTest, ImportsGuardedByTopLevelTryAndIf) {
  auto m = parse_module(Source::from_string(
      "import triton\n"
      "if tuple(int(v) for v in triton.__version__.split('.')[:2]) >= (3, 0):\n"
      "    try:\n"
      "        from triton.language.extra.libdevice import rsqrt\n"
      "    except ModuleNotFoundError:\n"
      "        from triton.language.extra.cuda.libdevice import rsqrt\n"
      "else:\n"
      "    from triton.language.math import rsqrt\n"
      "try:\n"
      "    import numpy as np\n"
      "    HAS_NP = True\n"
      "except ImportError:\n"
      "    np = None\n"
      "if X:\n"
      "    with open('f') as f:\n"
      "        from a import b\n"
      "    match = 1 +\n",
      "m.py"));
  std::vector<std::string> got;
  for (const auto& s : m.body) got.push_back(s->dyn<SkippedStmt>() ? "skipped " + s->as<SkippedStmt>().reason : dump(*s));
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[0], "import triton");
  EXPECT_TRUE(m.body[1]->is<IfStmt>()) << got[1];
  EXPECT_EQ(got[2], "skipped try statement");
  EXPECT_EQ(got[3], "import numpy as np");
  EXPECT_EQ(got[4], "skipped if statement");
}

TEST(ParserTest, Decorators) {
  auto m = parse_module(Source::from_string(
      "@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=4)], key=['n'])\n"
      "@triton.heuristics({'EVEN': lambda args: args['n'] % 64 == 0})\n"
      "@triton.jit\n"
      "def k1(x, n, BLOCK: tl.constexpr):\n"
      "    pass\n"
      "@jit\n"
      "def k2(): pass\n"
      "@triton.jit(do_not_specialize=[\"n\"])\n"
      "def k3(n): pass\n"
      "@ (lambda f: f)\n"
      "def k4(): pass\n"));
  ASSERT_EQ(m.functions.size(), 4u);
  const FunctionDef& k1 = *m.functions[0];
  ASSERT_EQ(k1.decorators.size(), 3u);
  EXPECT_EQ(dump(*k1.decorators[0]),
            "(call triton.autotune configs=(list (call triton.Config (dict 'BLOCK':128) num_warps=4)) key=(list 'n'))");
  EXPECT_EQ(dump(*k1.decorators[1]), "(call triton.heuristics (dict 'EVEN':(lambda (args) (== (% (sub args 'n') 64) 0))))");
  EXPECT_EQ(dump(*k1.decorators[2]), "triton.jit");
  EXPECT_EQ(k1.loc.line, 1u);
  EXPECT_EQ(k1.def_loc.line, 4u);
  EXPECT_EQ(k1.name_loc.col, 5u);
  EXPECT_EQ(dump(*m.functions[1]->decorators[0]), "jit");
  EXPECT_EQ(dump(*m.functions[2]->decorators[0]), "(call triton.jit do_not_specialize=(list 'n'))");
  EXPECT_EQ(dump(*m.functions[3]->decorators[0]), "(lambda (f) f)");
  EXPECT_EQ(m.find_function("k3"), m.functions[2]);
  EXPECT_EQ(m.find_function("nope"), nullptr);
}

const char* kMixedFile = R"PY(#!/usr/bin/env python
"""Module docstring."""
import torch
import triton
import triton.language as tl
from dataclasses import dataclass

DEVICE = torch.device("cuda")
BLOCK: tl.constexpr = 128


@dataclass
class Config:
    m: int
    n: int = 4

    def total(self) -> int:
        return sum(x for x in [self.m, self.n])


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


def host(x: torch.Tensor, *args, **kwargs):
    out = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(x.numel(), meta["BLOCK"]),)
    with torch.no_grad():
        try:
            add_kernel[grid](x, x, out, x.numel(), BLOCK=1024)
        except RuntimeError as e:
            print(f"failed: {e!r} {x.shape[0]:>{10}}")
    values = {k: v for k, v in kwargs.items() if (n := len(k)) > 2}
    async def helper():
        await something()
    global COUNT
    del values
    assert out is not None, "no output"
    return out


def host_with_match(cmd):
    match cmd:
        case "a":
            return 1
        case _:
            return 2


@triton.jit
def broken_kernel(x):
    y = x +
    return y


@triton.jit
def mul_kernel(x_ptr, n):
    tl.store(x_ptr, tl.load(x_ptr) * 2)

if __name__ == "__main__":
    x = torch.randn(98432, device=DEVICE)
    print(host(x))
else:
    pass
for i in range(3):
    print(i)
print([i ** 2 for i in range(10)])
try:
    import numpy
except ImportError:
    numpy = None
finally:
    pass
while False: pass
with open("x") as f:
    data = f.read()
type Alias = int
async def coro(): pass
    )PY";

TEST(ParserTest, TopLevelSkippingFindsKernels) {
  auto m = parse_module(Source::from_string(kMixedFile, "mixed.py"));
  std::vector<std::string> names;
  for (const FunctionDef* f : m.functions) names.push_back(f->name);
  EXPECT_EQ(names, (std::vector<std::string>{"add_kernel", "host", "host_with_match", "broken_kernel", "mul_kernel",
                                             "coro"}));

  const FunctionDef* add = m.find_function("add_kernel");
  ASSERT_NE(add, nullptr);
  EXPECT_FALSE(add->parse_error);
  ASSERT_EQ(add->body.size(), 6u);
  EXPECT_EQ(dump(*add->body[1]), "offs = (+ (* pid BLOCK) (call tl.arange 0 BLOCK))");
  EXPECT_EQ(add->params[4].name, "BLOCK");
  EXPECT_EQ(dump(*add->params[4].annotation), "tl.constexpr");

  const FunctionDef* host = m.find_function("host");
  ASSERT_NE(host, nullptr);
  EXPECT_FALSE(host->parse_error) << host->parse_error->message;
  EXPECT_EQ(host->body.size(), 9u);

  const FunctionDef* hm = m.find_function("host_with_match");
  ASSERT_TRUE(hm->parse_error);
  EXPECT_EQ(hm->parse_error->message, "match statements are not supported");

  const FunctionDef* broken = m.find_function("broken_kernel");
  ASSERT_NE(broken, nullptr);
  ASSERT_TRUE(broken->parse_error);
  EXPECT_EQ(broken->parse_error->loc.line, 58u);
  EXPECT_EQ(broken->parse_error->loc.col, 12u);
  EXPECT_EQ(broken->decorators.size(), 1u);
  // The error is reported with the source line when the function is used.
  CompileError err(broken->parse_error->loc, broken->parse_error->message);
  EXPECT_EQ(std::string(err.what()),
            "mixed.py:58:12: error: invalid syntax (unexpected end of line)\n"
            "        y = x +\n"
            "               ^");

  const FunctionDef* mul = m.find_function("mul_kernel");
  ASSERT_NE(mul, nullptr);
  EXPECT_FALSE(mul->parse_error);
  EXPECT_EQ(dump(*mul), "@triton.jit\ndef mul_kernel(x_ptr, n):\n  (call tl.store x_ptr (* (call tl.load x_ptr) 2))");

  // Skipped statements and their reasons, in order.
  std::vector<std::string> skipped;
  for (const auto& s : m.body)
    if (const auto* k = s->dyn<SkippedStmt>()) skipped.push_back(std::to_string(k->loc.line) + " " + k->reason);
  EXPECT_EQ(skipped, (std::vector<std::string>{
                         "2 expression statement", "12 class definition", "71 for statement",
                         "73 expression statement", "74 try statement", "80 while statement", "81 with statement",
                         "83 statement with a syntax error"}));
  // Kept top-level statements.
  EXPECT_EQ(dump(*m.body[1]), "import torch");
  EXPECT_EQ(dump(*m.body[5]), "DEVICE = (call torch.device 'cuda')");
  EXPECT_EQ(dump(*m.body[6]), "BLOCK: tl.constexpr = 128");
}

TEST(ParserTest, FunctionSourceSpan) {
  auto src = Source::from_string(
      "x = 1\n"
      "@triton.jit\n"
      "def k(a):\n"
      "    return a + 1  # trailing comment\n"
      "\n"
      "y = 2\n");
  auto m = parse_module(src);
  ASSERT_EQ(m.functions.size(), 1u);
  const FunctionDef& f = *m.functions[0];
  EXPECT_EQ(f.source_text(), "@triton.jit\ndef k(a):\n    return a + 1");
  EXPECT_EQ(f.src_begin, 6u);
  EXPECT_EQ(f.end_offset, f.src_end);
  const StrExpr* doc = f.docstring();
  EXPECT_EQ(doc, nullptr);
  auto m2 = parse_module(Source::from_string("def g():\n    '''Doc.'''\n    pass\n"));
  ASSERT_NE(m2.functions[0]->docstring(), nullptr);
  EXPECT_EQ(m2.functions[0]->docstring()->value, "Doc.");
}

TEST(ParserTest, BrokenHeadersAndDecoratorsKeepTheFunction) {
  auto m = parse_module(Source::from_string(
      "@triton.jit(\n"
      "    x=)\n"
      "def bad_deco(a):\n"
      "    return a\n"
      "def bad_params(a, a):\n"
      "    return a\n"
      "async def ok(): pass\n"
      "@decorator\n"
      "class C:\n"
      "    pass\n"
      "def last(): return 1 +\n"
      "z = 3\n"));
  ASSERT_EQ(m.functions.size(), 4u);
  EXPECT_EQ(m.functions[0]->name, "bad_deco");
  ASSERT_TRUE(m.functions[0]->parse_error);
  EXPECT_EQ(m.functions[0]->parse_error->loc.line, 2u);
  EXPECT_EQ(m.functions[1]->name, "bad_params");
  ASSERT_TRUE(m.functions[1]->parse_error);
  EXPECT_NE(m.functions[1]->parse_error->message.find("duplicate argument"), std::string::npos);
  EXPECT_EQ(m.functions[2]->name, "ok");
  EXPECT_TRUE(m.functions[2]->is_async);
  EXPECT_FALSE(m.functions[2]->parse_error);
  EXPECT_EQ(m.functions[3]->name, "last");
  EXPECT_TRUE(m.functions[3]->parse_error);
  // The decorated class is one skipped statement; `z = 3` after the broken one-liner is kept.
  EXPECT_EQ(dump(*m.body[3]), "# skipped 8:1: class definition");
  EXPECT_EQ(dump(*m.body.back()), "z = 3");
}

TEST(ParserTest, UnexpectedIndentAndGarbageAtTopLevelAreSkipped) {
  auto m = parse_module(Source::from_string(
      "x = 1\n"
      "    y = 2\n"
      "    z = 3\n"
      "a = ) 4\n"
      "def f(): pass\n"
      "print(1); X = 2; assert X\n"));
  EXPECT_EQ(dump(m),
            "x = 1\n"
            "# skipped 2:5: unexpected indent (unexpected indent)\n"
            "# skipped 4:1: statement with a syntax error (invalid syntax: unexpected ')')\n"
            "def f():\n"
            "  pass\n"
            "# skipped 6:1: expression statement\n"
            "X = 2\n"
            "# skipped 6:18: Assert statement");
}

TEST(ParserTest, TokenizationErrorsAreFatalForTheModule) {
  try {
    parse_module(Source::from_string("def f():\n    return 'abc\n", "u.py"));
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    EXPECT_EQ(std::string(e.what()),
              "u.py:2:12: error: unterminated string literal\n"
              "        return 'abc\n"
              "               ^");
    EXPECT_EQ(e.loc().line, 2u);
    EXPECT_EQ(e.loc().col, 12u);
  }
}

TEST(ParserTest, CompileErrorKeepsItsSourceAlive) {
  try {
    parse_statements(Source::from_string("x = 1\ny = = 2\n", "gone.py"));  // the only reference
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    ASSERT_NE(e.source(), nullptr);
    EXPECT_EQ(e.loc().filename(), "gone.py");
    EXPECT_EQ(e.loc().file->line_text(e.loc().line), "y = = 2");
    EXPECT_EQ(e.loc().col, 5u);
    EXPECT_EQ(e.message(), "invalid syntax: unexpected '='");
  }
}

TEST(ParserTest, ModuleFromFile) {
  std::string path = ::testing::TempDir() + "tritium_parser_test.py";
  {
    FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fputs("import triton\n@triton.jit\ndef k(x):\n    return x\n", f);
    std::fclose(f);
  }
  auto m = parse_module(Source::from_file(path));
  ASSERT_EQ(m.functions.size(), 1u);
  EXPECT_EQ(m.functions[0]->loc.filename(), path);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace tritium::frontend
