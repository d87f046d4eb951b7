// Python 3 tokenizer.
//
// tokenize() turns a whole Source into a token vector the way CPython's tokenizer does:
// NEWLINE ends each logical line, INDENT/DEDENT bracket indented blocks (tabs advance to the
// next multiple of 8), newlines inside (), [], {} and after a backslash are joined, comments
// and blank lines vanish, and the vector ends with NEWLINE (if needed), DEDENTs and EndMarker.
//
// Fatal errors (thrown as CompileError): unterminated strings, a dedent to a column that
// matches no enclosing block, an unclosed bracket at end of file, a backslash continuation at
// end of file. Other oddities (a stray `$`, `012`) become an Error token whose `str` is the
// message, so the parser can fail just the statement that contains them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/source.h"

namespace tritium::frontend {

/// Token kinds. Keywords and every operator / delimiter have their own kind.
enum class Tok : uint8_t {
  EndMarker, Newline, Indent, Dedent, Error,
  Name, Int, Float, Imag, String,
  // keywords
  KwFalse, KwNone, KwTrue, KwAnd, KwAs, KwAssert, KwAsync, KwAwait, KwBreak, KwClass,
  KwContinue, KwDef, KwDel, KwElif, KwElse, KwExcept, KwFinally, KwFor, KwFrom, KwGlobal,
  KwIf, KwImport, KwIn, KwIs, KwLambda, KwNonlocal, KwNot, KwOr, KwPass, KwRaise, KwReturn,
  KwTry, KwWhile, KwWith, KwYield,
  // delimiters
  LParen, RParen, LBracket, RBracket, LBrace, RBrace,
  Comma, Colon, Dot, Semi, Arrow, Ellipsis, At, Assign, Walrus,
  // operators
  Plus, Minus, Star, DoubleStar, Slash, DoubleSlash, Percent, LShift, RShift,
  Amp, Pipe, Caret, Tilde, Lt, Gt, LtE, GtE, EqEq, NotEq,
  // augmented assignment
  PlusEq, MinusEq, StarEq, SlashEq, DoubleSlashEq, PercentEq, AtEq, AmpEq, PipeEq, CaretEq,
  LShiftEq, RShiftEq, DoubleStarEq,
};

/// Human-readable spelling of a token kind for diagnostics ("'('", "NEWLINE", "name", ...).
const char* to_string(Tok k);

/// One token. `text` views the Source (keep the Source alive while tokens are used).
struct Token {
  Tok kind = Tok::EndMarker;
  SrcLoc loc;               ///< start of the token
  uint32_t end_offset = 0;  ///< byte offset just past the token
  std::string_view text;    ///< exact source spelling (empty for NEWLINE at EOF, INDENT, DEDENT)

  // Literal payloads.
  uint64_t int_value = 0;     ///< Int: value (when !int_overflow)
  bool int_overflow = false;  ///< Int: does not fit in uint64
  double float_value = 0.0;   ///< Float / Imag: value (Imag: the imaginary part)
  std::string str;            ///< String: decoded value (f-string: raw body); Error: message
  bool is_bytes = false;      ///< String: b"..."
  bool is_raw = false;        ///< String: r"..."
  bool is_fstring = false;    ///< String: f"..." (kept opaque)
};

/// Tokenizes all of `src`. Throws CompileError on the fatal errors listed above.
std::vector<Token> tokenize(const SourceRef& src);

/// True when `name` is a (hard) Python keyword.
bool is_keyword(std::string_view name);

}  // namespace tritium::frontend
