// Tests of the Python tokenizer and of Source / diagnostics formatting.
#include <gtest/gtest.h>

#include <cstring>

#include <string>
#include <vector>

#include "frontend/lexer.h"
#include "frontend/source.h"

namespace tritium::frontend {
namespace {

std::vector<Token> lex(const std::string& text, const std::string& name = "t.py") {
  // The Source must outlive the tokens' string_views: keep every test source alive.
  static std::vector<SourceRef> keep;
  keep.push_back(Source::from_string(text, name));
  return tokenize(keep.back());
}

std::vector<Tok> kinds(const std::string& text) {
  std::vector<Tok> out;
  for (const Token& t : lex(text)) out.push_back(t.kind);
  return out;
}

// Token spellings, with NEWLINE/INDENT/DEDENT/EOF rendered as markers.
std::string spell(const std::string& text) {
  std::string out;
  for (const Token& t : lex(text)) {
    if (!out.empty()) out += ' ';
    switch (t.kind) {
      case Tok::Newline: out += "NL"; break;
      case Tok::Indent: out += "IN"; break;
      case Tok::Dedent: out += "DE"; break;
      case Tok::EndMarker: out += "EOF"; break;
      default: out += std::string(t.text);
    }
  }
  return out;
}

std::string fatal(const std::string& text) {
  try {
    lex(text);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(LexerTest, SimpleLine) {
  EXPECT_EQ(spell("x = a + 1\n"), "x = a + 1 NL EOF");
  using T = Tok;
  EXPECT_EQ(kinds("x = a + 1"), (std::vector<Tok>{T::Name, T::Assign, T::Name, T::Plus, T::Int, T::Newline, T::EndMarker}));
}

TEST(LexerTest, EmptyAndCommentOnlySources) {
  EXPECT_EQ(spell(""), "EOF");
  EXPECT_EQ(spell("\n\n# only a comment\n   \n"), "EOF");
}

TEST(LexerTest, OperatorsLongestMatch) {
  EXPECT_EQ(spell("a**=b//=c>>=d<<=e@=f->g:=h...i"), "a **= b //= c >>= d <<= e @= f -> g := h ... i NL EOF");
  EXPECT_EQ(spell("a**-b//c<=d!=e==f>=g<<h>>i"), "a ** - b // c <= d != e == f >= g << h >> i NL EOF");
  using T = Tok;
  EXPECT_EQ(kinds("+= -= *= /= %= &= |= ^= ~ @ . ;"),
            (std::vector<Tok>{T::PlusEq, T::MinusEq, T::StarEq, T::SlashEq, T::PercentEq, T::AmpEq, T::PipeEq,
                              T::CaretEq, T::Tilde, T::At, T::Dot, T::Semi, T::Newline, T::EndMarker}));
  EXPECT_EQ(kinds("x[...]")[2], Tok::Ellipsis);
}

TEST(LexerTest, KeywordsAndSoftKeywords) {
  auto t = lex("def match case True print None and not in is lambda");
  EXPECT_EQ(t[0].kind, Tok::KwDef);
  EXPECT_EQ(t[1].kind, Tok::Name);  // soft keyword
  EXPECT_EQ(t[2].kind, Tok::Name);
  EXPECT_EQ(t[3].kind, Tok::KwTrue);
  EXPECT_EQ(t[4].kind, Tok::Name);
  EXPECT_EQ(t[5].kind, Tok::KwNone);
  EXPECT_EQ(t[6].kind, Tok::KwAnd);
  EXPECT_EQ(t[7].kind, Tok::KwNot);
  EXPECT_EQ(t[8].kind, Tok::KwIn);
  EXPECT_EQ(t[9].kind, Tok::KwIs);
  EXPECT_EQ(t[10].kind, Tok::KwLambda);
  EXPECT_TRUE(is_keyword("nonlocal"));
  EXPECT_FALSE(is_keyword("match"));
}

TEST(LexerTest, IndentDedent) {
  const char* src =
      "def f(x):\n"
      "    if x:\n"
      "        return 1\n"
      "\n"
      "    # comment at another indentation\n"
      "          # and another\n"
      "    return 2\n"
      "y = 3\n";
  EXPECT_EQ(spell(src), "def f ( x ) : NL IN if x : NL IN return 1 NL DE return 2 NL DE y = 3 NL EOF");
}

TEST(LexerTest, MultipleDedentsAtOnceAndAtEof) {
  EXPECT_EQ(spell("if a:\n  if b:\n    c\nd\n"), "if a : NL IN if b : NL IN c NL DE DE d NL EOF");
  // No trailing newline: NEWLINE and DEDENTs are still produced.
  EXPECT_EQ(spell("if a:\n  if b:\n    c"), "if a : NL IN if b : NL IN c NL DE DE EOF");
}

TEST(LexerTest, TabsAdvanceToMultipleOfEight) {
  // A tab and eight spaces are the same indentation; "  \t" is column 8 as well.
  EXPECT_EQ(spell("if x:\n\ty = 1\n        z = 2\n  \tw = 3\n"),
            "if x : NL IN y = 1 NL z = 2 NL w = 3 NL DE EOF");
  // Tab after 8 spaces goes to 16: a deeper block.
  EXPECT_EQ(spell("if x:\n        if y:\n        \tz\n"), "if x : NL IN if y : NL IN z NL DE DE EOF");
}

TEST(LexerTest, ImplicitAndExplicitLineJoining) {
  EXPECT_EQ(spell("x = f(a,\n      b,  # comment\n\n   c)\ny"), "x = f ( a , b , c ) NL y NL EOF");
  EXPECT_EQ(spell("x = [1,\n2]\n"), "x = [ 1 , 2 ] NL EOF");
  EXPECT_EQ(spell("x = 1 + \\\n    2\n"), "x = 1 + 2 NL EOF");
  EXPECT_EQ(spell("if a and \\\n  b:\n  pass\n"), "if a and b : NL IN pass NL DE EOF");
}

TEST(LexerTest, CrLfLineEndings) {
  EXPECT_EQ(spell("if a:\r\n    b = 1\r\nc\r\n"), "if a : NL IN b = 1 NL DE c NL EOF");
  auto t = lex("s = '''x\r\ny'''\r\n");
  EXPECT_EQ(t[2].str, "x\ny");
}

TEST(LexerTest, TokenLocations) {
  auto t = lex("x = 1\nif y:\n    zz += 2\n");
  EXPECT_EQ(t[0].loc.line, 1u);
  EXPECT_EQ(t[0].loc.col, 1u);
  EXPECT_EQ(t[2].loc.col, 5u);
  // if y : NL IN zz
  EXPECT_EQ(t[4].kind, Tok::KwIf);
  EXPECT_EQ(t[4].loc.line, 2u);
  EXPECT_EQ(t[9].kind, Tok::Name);
  EXPECT_EQ(t[9].text, "zz");
  EXPECT_EQ(t[9].loc.line, 3u);
  EXPECT_EQ(t[9].loc.col, 5u);
  EXPECT_EQ(t[9].loc.offset, 16u);
  EXPECT_EQ(t[9].end_offset, 18u);
  EXPECT_EQ(t[10].kind, Tok::PlusEq);
}

TEST(LexerTest, IntegerLiterals) {
  auto t = lex("0 7 0x_FF 0XdeadBEEF 0o17 0b1010 1_000_000 00 18446744073709551615 18446744073709551616 0xFFFFFFFFFFFFFFFFF");
  EXPECT_EQ(t[0].int_value, 0u);
  EXPECT_EQ(t[1].int_value, 7u);
  EXPECT_EQ(t[2].int_value, 255u);
  EXPECT_EQ(t[3].int_value, 0xdeadbeefu);
  EXPECT_EQ(t[4].int_value, 15u);
  EXPECT_EQ(t[5].int_value, 10u);
  EXPECT_EQ(t[6].int_value, 1000000u);
  EXPECT_EQ(t[6].text, "1_000_000");
  EXPECT_EQ(t[7].kind, Tok::Int);
  EXPECT_EQ(t[8].int_value, 18446744073709551615ull);
  EXPECT_FALSE(t[8].int_overflow);
  EXPECT_TRUE(t[9].int_overflow);
  EXPECT_EQ(t[9].text, "18446744073709551616");
  EXPECT_TRUE(t[10].int_overflow);
  for (int i = 0; i <= 10; ++i) EXPECT_EQ(t[i].kind, Tok::Int) << i;
}

TEST(LexerTest, FloatAndImaginaryLiterals) {
  auto t = lex("1. .5 1e-6 1_000.0 3.25E+2 0e0 007.5 1.e3 2j 1.5J 1e3j");
  EXPECT_EQ(t[0].kind, Tok::Float);
  EXPECT_DOUBLE_EQ(t[0].float_value, 1.0);
  EXPECT_DOUBLE_EQ(t[1].float_value, 0.5);
  EXPECT_DOUBLE_EQ(t[2].float_value, 1e-6);
  EXPECT_DOUBLE_EQ(t[3].float_value, 1000.0);
  EXPECT_DOUBLE_EQ(t[4].float_value, 325.0);
  EXPECT_DOUBLE_EQ(t[5].float_value, 0.0);
  EXPECT_DOUBLE_EQ(t[6].float_value, 7.5);
  EXPECT_DOUBLE_EQ(t[7].float_value, 1000.0);
  for (int i = 0; i <= 7; ++i) EXPECT_EQ(t[i].kind, Tok::Float) << i;
  EXPECT_EQ(t[8].kind, Tok::Imag);
  EXPECT_DOUBLE_EQ(t[8].float_value, 2.0);
  EXPECT_EQ(t[9].kind, Tok::Imag);
  EXPECT_EQ(t[10].kind, Tok::Imag);
  EXPECT_DOUBLE_EQ(t[10].float_value, 1000.0);
}

TEST(LexerTest, AttributeOnIntegerAndDots) {
  EXPECT_EQ(spell("x.y.z"), "x . y . z NL EOF");
  EXPECT_EQ(spell("a[1:2]"), "a [ 1 : 2 ] NL EOF");
  EXPECT_EQ(spell("1if x else 2"), "1 if x else 2 NL EOF");  // still valid Python
}

TEST(LexerTest, InvalidNumbersAndCharactersAreErrorTokens) {
  auto t = lex("012 1_ 0x 0b12 1__0 $ ?");
  for (int i = 0; i < 7; ++i) EXPECT_EQ(t[i].kind, Tok::Error) << i;
  EXPECT_EQ(t[0].text, "012");
  EXPECT_NE(t[0].str.find("leading zeros"), std::string::npos);
  EXPECT_EQ(t[1].str, "invalid decimal literal");
  EXPECT_EQ(t[2].str, "invalid hexadecimal literal");
  EXPECT_EQ(t[3].str, "invalid binary literal");
  EXPECT_EQ(t[5].str, "invalid character '$' in source");
}

TEST(LexerTest, StringPrefixesAndQuotes) {
  auto t = lex(R"(a 'x' "y" '''z''' """w""" r'\n' R"\d" b'b' Br'\x' rb"\q" u'u' f'{x}' F"" fr'{a}\n' Rf'' bR'')");
  ASSERT_EQ(t[1].kind, Tok::String);
  EXPECT_EQ(t[1].str, "x");
  EXPECT_EQ(t[2].str, "y");
  EXPECT_EQ(t[3].str, "z");
  EXPECT_EQ(t[4].str, "w");
  EXPECT_EQ(t[5].str, "\\n");
  EXPECT_TRUE(t[5].is_raw);
  EXPECT_EQ(t[6].str, "\\d");
  EXPECT_TRUE(t[7].is_bytes);
  EXPECT_EQ(t[7].str, "b");
  EXPECT_TRUE(t[8].is_bytes && t[8].is_raw);
  EXPECT_EQ(t[8].str, "\\x");
  EXPECT_TRUE(t[9].is_bytes && t[9].is_raw);
  EXPECT_EQ(t[10].str, "u");
  EXPECT_FALSE(t[10].is_bytes);
  EXPECT_TRUE(t[11].is_fstring);
  EXPECT_EQ(t[11].str, "{x}");
  EXPECT_TRUE(t[12].is_fstring);
  EXPECT_TRUE(t[13].is_fstring && t[13].is_raw);
  EXPECT_EQ(t[13].str, "{a}\\n");
  EXPECT_TRUE(t[14].is_fstring && t[14].is_raw);
  EXPECT_TRUE(t[15].is_bytes && t[15].is_raw);
  for (int i = 1; i <= 15; ++i) EXPECT_EQ(t[i].kind, Tok::String) << i;
  EXPECT_EQ(t[16].kind, Tok::Newline);
  // Not prefixes: an identifier followed by a string.
  auto u = lex("ub'x' bf'y'");
  EXPECT_EQ(u[0].kind, Tok::Name);
  EXPECT_EQ(u[1].kind, Tok::String);
}

TEST(LexerTest, StringEscapes) {
  auto t = lex(R"('a\tb\n\\\'\"' '\x41\101\0' '\u00e9\U0001F600' b'\xff\u00e9' 'q\zq' "it's")");
  EXPECT_EQ(t[0].str, "a\tb\n\\'\"");
  EXPECT_EQ(t[1].str, std::string("AA\0", 3));
  EXPECT_EQ(t[2].str, "\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_EQ(t[3].str, "\xff\\u00e9");  // \u is not an escape in bytes
  EXPECT_EQ(t[4].str, "q\\zq");       // unknown escapes are kept
  EXPECT_EQ(t[5].str, "it's");
  auto bad = lex(R"('\x4')");
  EXPECT_EQ(bad[0].kind, Tok::Error);
  EXPECT_EQ(bad[0].str, "(unicode error) truncated \\x escape");
}

TEST(LexerTest, TripleQuotedStringsSpanLines) {
  auto t = lex("s = '''line1\n'quoted' \"\"\n  line3'''\nx = 1\n");
  EXPECT_EQ(t[2].str, "line1\n'quoted' \"\"\n  line3");
  EXPECT_EQ(t[3].kind, Tok::Newline);
  EXPECT_EQ(t[4].text, "x");
  EXPECT_EQ(t[4].loc.line, 4u);
  // Backslash-newline inside a string is a continuation.
  EXPECT_EQ(lex("'ab\\\ncd'")[0].str, "abcd");
}

TEST(LexerTest, FStringsAreOpaqueButNestedQuotesWork) {
  auto t = lex(R"(f"{x["a"]} {y!r:>{width}} {{lit}} {'}'}" + f'''{a
+ b}''' + f"{d['k']:{'>'}10}")");
  ASSERT_EQ(t[0].kind, Tok::String);
  EXPECT_EQ(t[0].str, R"({x["a"]} {y!r:>{width}} {{lit}} {'}'})");
  EXPECT_EQ(t[1].kind, Tok::Plus);
  EXPECT_EQ(t[2].kind, Tok::String);
  EXPECT_EQ(t[2].str, "{a\n+ b}");
  EXPECT_EQ(t[4].kind, Tok::String);
  EXPECT_EQ(t[5].kind, Tok::Newline);
}

TEST(LexerTest, UnterminatedStringIsFatalWithLocation) {
  EXPECT_EQ(fatal("x = 1\ny = 'abc\nz = 2\n"),
            "t.py:2:5: error: unterminated string literal\n"
            "    y = 'abc\n"
            "        ^");
  EXPECT_EQ(fatal("a = 1\ns = \"\"\"never\nclosed\n"),
            "t.py:2:5: error: unterminated triple-quoted string literal\n"
            "    s = \"\"\"never\n"
            "        ^");
  EXPECT_EQ(fatal("s = f'{x'\n"),
            "t.py:1:5: error: unterminated string literal\n"
            "    s = f'{x'\n"
            "        ^");
}

TEST(LexerTest, BadDedentIsFatal) {
  EXPECT_EQ(fatal("if x:\n    a = 1\n  b = 2\n"),
            "t.py:3:3: error: unindent does not match any outer indentation level\n"
            "      b = 2\n"
            "      ^");
}

TEST(LexerTest, UnclosedBracketIsFatal) {
  EXPECT_EQ(fatal("x = 1\ny = foo(1,\n  [2, 3]\n"),
            "t.py:2:8: error: '(' was never closed\n"
            "    y = foo(1,\n"
            "           ^");
  EXPECT_NE(fatal("x = 1 + \\"), "<no error>");
}

TEST(LexerTest, NestingLimits) {
  EXPECT_NO_THROW(lex("x = " + std::string(200, '(') + "1" + std::string(200, ')')));
  EXPECT_NE(fatal("x = " + std::string(201, '[') + "1" + std::string(201, ']')).find("t.py:1:205: error: too many nested parentheses"),
            std::string::npos);
  std::string deep;
  for (int i = 0; i < 101; ++i) deep += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  deep += std::string(101, ' ') + "pass\n";
  EXPECT_NE(fatal(deep).find("too many levels of indentation"), std::string::npos);
}

TEST(LexerTest, StrayCharacterAfterContinuationIsErrorToken) {
  auto t = lex("x = 1 \\ y\n");
  EXPECT_EQ(t[3].kind, Tok::Error);
}

TEST(LexerTest, BomIsSkipped) {
  EXPECT_EQ(spell("\xEF\xBB\xBFx = 1\n"), "x = 1 NL EOF");
}

TEST(LexerTest, NonAsciiIdentifiers) {
  auto t = lex("\xCE\xB1 = 1\n");  // α = 1
  EXPECT_EQ(t[0].kind, Tok::Name);
  EXPECT_EQ(t[0].text, "\xCE\xB1");
  EXPECT_EQ(t[1].loc.col, 4u);  // columns are byte columns
}

// Source that is not UTF-8 is refused at its first bad byte, as CPython refuses the file
// (identifiers with surrogates or overlong forms were accepted before).
TEST(LexerTest, InvalidUtf8IsRefusedAtItsFirstByte) {
  struct Case {
    const char* text;
    const char* where;
  } cases[] = {
      {"x = 1\nab\xED\xA0\x80" "c = 2\n", ":2:3: error: invalid UTF-8 in source: byte 0xed"},  // a surrogate
      {"x\xC0\xAF = 1\n", ":1:2: error: invalid UTF-8 in source: byte 0xc0"},                  // overlong '/'
      {"s = '\xff'\n", ":1:6: error: invalid UTF-8 in source: byte 0xff"},                     // in a string too
      {"y = 1 # \xE2\x82\n", ":1:9: error: invalid UTF-8 in source: byte 0xe2"},              // truncated
      {"z = \xF4\x90\x80\x80\n", ":1:5: error: invalid UTF-8 in source: byte 0xf4"},          // past U+10FFFF
  };
  for (const Case& c : cases) EXPECT_NE(fatal(c.text).find(c.where), std::string::npos) << fatal(c.text);
  EXPECT_EQ(lex("\xF0\x9F\x98\x80s = '\xE2\x82\xAC'\n")[0].kind, Tok::Name);  // valid 4- and 3-byte forms
}

TEST(LexerTest, NonPrintableCharactersAreNamedByCodePoint) {
  auto t = lex("x = 1 \v 2\n");
  bool found = false;
  for (const Token& k : t) {
    if (k.kind != Tok::Error) continue;
    found = true;
    EXPECT_EQ(k.str, "invalid non-printable character U+000B in source");
  }
  EXPECT_TRUE(found);
}

// ---- Source and diagnostics ---------------------------------------------------------------

TEST(LexerTest, SourceLinesAndLocations) {
  auto src = Source::from_string("ab\r\ncd\n\nef", "m.py");
  EXPECT_EQ(src->num_lines(), 4u);
  EXPECT_EQ(src->line_text(1), "ab");
  EXPECT_EQ(src->line_text(2), "cd");
  EXPECT_EQ(src->line_text(3), "");
  EXPECT_EQ(src->line_text(4), "ef");
  EXPECT_EQ(src->line_text(5), "");
  SrcLoc l = src->loc_at(5);  // 'd'
  EXPECT_EQ(l.line, 2u);
  EXPECT_EQ(l.col, 2u);
  EXPECT_EQ(l.file, src.get());
  EXPECT_EQ(l.filename(), "m.py");
  EXPECT_EQ(src->slice(4, 6), "cd");
  EXPECT_EQ(Source::from_string("a\n")->num_lines(), 1u);
  // A lone "\r" ends a line too (old Mac line ends; Python and the lexer read them so): an
  // error on line 3 was reported at 1:<offset> with the whole file as its source line.
  auto cr = Source::from_string("ab\rcd\r\ref\r", "cr.py");
  EXPECT_EQ(cr->num_lines(), 4u);
  EXPECT_EQ(cr->line_text(2), "cd");
  EXPECT_EQ(cr->line_text(3), "");
  EXPECT_EQ(cr->line_text(4), "ef");
  SrcLoc f = cr->loc_at(8);  // 'f'
  EXPECT_EQ(f.line, 4u);
  EXPECT_EQ(f.col, 2u);
}

TEST(LexerTest, DiagnosticFormatAlignsCaretWithTabsAndUtf8) {
  auto src = Source::from_string("x = 1\n\tz = \xCE\xB1 + q\n", "k.py");
  SrcLoc q = src->loc_at(src->line_start(2) + 10);  // 'q' (α is 2 bytes)
  EXPECT_EQ(q.col, 11u);
  EXPECT_EQ(format_diagnostic(*src, q, "undefined name 'q'"),
            "k.py:2:11: error: undefined name 'q'\n"
            "    \tz = \xCE\xB1 + q\n"
            "    \t        ^");
  CompileError e(src, q, "boom");
  EXPECT_EQ(e.message(), "boom");
  EXPECT_EQ(e.loc().line, 2u);
  EXPECT_EQ(std::string(e.what()), format_diagnostic(q, "boom"));
  // Without a location only the header is printed.
  EXPECT_EQ(format_diagnostic(*src, SrcLoc{}, "no loc"), "k.py: error: no loc");
  // A NUL in the echoed line is shown as '?': what() is read as a C string, which a raw NUL
  // cut short (the rest of the line and the caret were lost).
  auto nul = Source::from_string(std::string("x = len(\"a\0b\") + nope\n", 22), "n.py");
  const std::string d = format_diagnostic(nul->loc_at(17), "name 'nope' is not defined");
  EXPECT_EQ(std::strlen(d.c_str()), d.size());
  EXPECT_NE(d.find("x = len(\"a?b\") + nope\n                     ^"), std::string::npos) << d;
}

TEST(LexerTest, SourceFromMissingFileThrows) {
  EXPECT_THROW(Source::from_file("/nonexistent/dir/file.py"), std::runtime_error);
}

}  // namespace
}  // namespace tritium::frontend
