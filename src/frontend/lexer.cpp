// Python 3 tokenizer (see lexer.h for the contract).
#include "frontend/lexer.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace tritium::frontend {

namespace {

struct KeywordEntry {
  std::string_view name;
  Tok kind;
};

constexpr std::array<KeywordEntry, 35> kKeywords = {{
    {"False", Tok::KwFalse},       {"None", Tok::KwNone},       {"True", Tok::KwTrue},
    {"and", Tok::KwAnd},           {"as", Tok::KwAs},           {"assert", Tok::KwAssert},
    {"async", Tok::KwAsync},       {"await", Tok::KwAwait},     {"break", Tok::KwBreak},
    {"class", Tok::KwClass},       {"continue", Tok::KwContinue}, {"def", Tok::KwDef},
    {"del", Tok::KwDel},           {"elif", Tok::KwElif},       {"else", Tok::KwElse},
    {"except", Tok::KwExcept},     {"finally", Tok::KwFinally}, {"for", Tok::KwFor},
    {"from", Tok::KwFrom},         {"global", Tok::KwGlobal},   {"if", Tok::KwIf},
    {"import", Tok::KwImport},     {"in", Tok::KwIn},           {"is", Tok::KwIs},
    {"lambda", Tok::KwLambda},     {"nonlocal", Tok::KwNonlocal}, {"not", Tok::KwNot},
    {"or", Tok::KwOr},             {"pass", Tok::KwPass},       {"raise", Tok::KwRaise},
    {"return", Tok::KwReturn},     {"try", Tok::KwTry},         {"while", Tok::KwWhile},
    {"with", Tok::KwWith},         {"yield", Tok::KwYield},
}};

struct OpEntry {
  std::string_view text;
  Tok kind;
};

// Longest spellings first, so the first match is the longest match.
constexpr std::array<OpEntry, 47> kOps = {{
    {"**=", Tok::DoubleStarEq}, {"//=", Tok::DoubleSlashEq}, {">>=", Tok::RShiftEq},
    {"<<=", Tok::LShiftEq},     {"...", Tok::Ellipsis},      {"**", Tok::DoubleStar},
    {"//", Tok::DoubleSlash},   {"<<", Tok::LShift},         {">>", Tok::RShift},
    {"<=", Tok::LtE},           {">=", Tok::GtE},            {"==", Tok::EqEq},
    {"!=", Tok::NotEq},         {"->", Tok::Arrow},          {":=", Tok::Walrus},
    {"+=", Tok::PlusEq},        {"-=", Tok::MinusEq},        {"*=", Tok::StarEq},
    {"/=", Tok::SlashEq},       {"%=", Tok::PercentEq},      {"@=", Tok::AtEq},
    {"&=", Tok::AmpEq},         {"|=", Tok::PipeEq},         {"^=", Tok::CaretEq},
    {"+", Tok::Plus},           {"-", Tok::Minus},           {"*", Tok::Star},
    {"/", Tok::Slash},          {"%", Tok::Percent},         {"@", Tok::At},
    {"&", Tok::Amp},            {"|", Tok::Pipe},            {"^", Tok::Caret},
    {"~", Tok::Tilde},          {"<", Tok::Lt},              {">", Tok::Gt},
    {"(", Tok::LParen},         {")", Tok::RParen},          {"[", Tok::LBracket},
    {"]", Tok::RBracket},       {"{", Tok::LBrace},          {"}", Tok::RBrace},
    {",", Tok::Comma},          {":", Tok::Colon},           {".", Tok::Dot},
    {";", Tok::Semi},           {"=", Tok::Assign},
}};

bool is_ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
bool is_ident_char(unsigned char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int hex_val(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// String prefix flags parsed from an identifier such as "rb" or "F"; ok=false if not a prefix.
struct Prefix {
  bool ok = false, raw = false, bytes = false, fstr = false;
};

Prefix parse_prefix(std::string_view id) {
  Prefix p;
  if (id.empty() || id.size() > 2) return p;
  bool u = false;
  for (char c : id) {
    switch (c) {
      case 'r': case 'R': if (p.raw) return {}; p.raw = true; break;
      case 'b': case 'B': if (p.bytes) return {}; p.bytes = true; break;
      case 'f': case 'F': if (p.fstr) return {}; p.fstr = true; break;
      case 'u': case 'U': if (u) return {}; u = true; break;
      default: return {};
    }
  }
  if (u && id.size() != 1) return {};           // "u" only alone
  if (p.bytes && p.fstr) return {};             // no bf-strings
  p.ok = true;
  return p;
}

// Decodes the escapes of a non-raw string body. Returns an error message or "".
std::string decode_escapes(std::string_view body, bool bytes, std::string& out) {
  out.clear();
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '\r' && i + 1 < body.size() && body[i + 1] == '\n') continue;  // CRLF → LF
    if (c != '\\' || i + 1 >= body.size()) { out += c; continue; }
    char e = body[++i];
    switch (e) {
      case '\n': break;  // backslash-newline: line continuation inside the string
      case '\r': if (i + 1 < body.size() && body[i + 1] == '\n') ++i; break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        uint32_t v = 0;
        size_t k = 0;
        for (; k < 3 && i + k < body.size() && body[i + k] >= '0' && body[i + k] <= '7'; ++k)
          v = v * 8 + static_cast<uint32_t>(body[i + k] - '0');
        i += k - 1;
        if (bytes) out += static_cast<char>(v & 0xFF); else append_utf8(out, v);
        break;
      }
      case 'x': case 'u': case 'U': {
        if (bytes && e != 'x') { out += '\\'; out += e; break; }
        size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        uint32_t v = 0;
        for (size_t k = 1; k <= n; ++k) {
          if (i + k >= body.size() || !is_hex(body[i + k]))
            return std::string("truncated \\") + e + " escape";
          v = v * 16 + static_cast<uint32_t>(hex_val(body[i + k]));
        }
        i += n;
        if (v > 0x10FFFF) return "invalid \\U escape (code point out of range)";
        if (bytes) out += static_cast<char>(v); else append_utf8(out, v);
        break;
      }
      default:  // unknown escapes (and \N{...}) are kept verbatim
        out += '\\';
        out += e;
    }
  }
  return {};
}

// Nesting limits (as CPython's tokenizer has): they also bound the parser's recursion.
constexpr size_t kMaxIndent = 100;
constexpr size_t kMaxBrackets = 200;

class Lexer {
 public:
  explicit Lexer(const SourceRef& src) : src_(*src), s_(src->text()) {}

  std::vector<Token> run() {
    check_utf8();
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // UTF-8 BOM
    while (true) {
      if (at_line_start_ && brackets_.empty()) {
        if (!handle_indentation()) break;
        continue;
      }
      skip_spaces();
      if (pos_ >= s_.size()) break;
      char c = s_[pos_];
      if (c == '#') { skip_comment(); continue; }
      if (c == '\n' || c == '\r') { newline(); continue; }
      if (c == '\\') { continuation(); continue; }
      lex_token();
    }
    finish();
    return std::move(out_);
  }

 private:
  // Python source is UTF-8 (PEP 3120): a byte sequence that is not — a stray continuation
  // byte, a truncated sequence, an overlong form, a surrogate, past U+10FFFF — is refused
  // at its first byte, as CPython refuses the file ("'utf-8' codec can't decode byte ...").
  void check_utf8() {
    const auto* b = reinterpret_cast<const unsigned char*>(s_.data());
    const size_t n = s_.size();
    for (size_t i = 0; i < n;) {
      const unsigned c = b[i];
      if (c < 0x80) { ++i; continue; }
      size_t len = 0;
      uint32_t cp = 0, min = 0;
      if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F, min = 0x80;
      else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F, min = 0x800;
      else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07, min = 0x10000;
      bool ok = len != 0 && i + len <= n;
      for (size_t k = 1; ok && k < len; ++k) {
        ok = (b[i + k] & 0xC0) == 0x80;
        cp = (cp << 6) | (b[i + k] & 0x3F);
      }
      ok = ok && cp >= min && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
      if (!ok) fatal(static_cast<uint32_t>(i), fmt::format("invalid UTF-8 in source: byte 0x{:02x} (Python source files are UTF-8)", c));
      i += len;
    }
  }

  [[noreturn]] void fatal(uint32_t offset, const std::string& msg) {
    throw CompileError(src_, src_.loc_at(offset), msg);
  }

  Token& emit(Tok kind, size_t begin, size_t end) {
    Token t;
    t.kind = kind;
    t.loc = src_.loc_at(static_cast<uint32_t>(begin));
    t.end_offset = static_cast<uint32_t>(end);
    t.text = s_.substr(begin, end - begin);
    out_.push_back(std::move(t));
    if (kind != Tok::Indent && kind != Tok::Dedent && kind != Tok::Newline) line_has_tokens_ = true;
    return out_.back();
  }

  void skip_spaces() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\f')) ++pos_;
  }
  void skip_comment() {
    while (pos_ < s_.size() && s_[pos_] != '\n' && s_[pos_] != '\r') ++pos_;
  }
  // Length of the line break at p (0 if none).
  size_t eol_len(size_t p) const {
    if (p >= s_.size()) return 0;
    if (s_[p] == '\n') return 1;
    if (s_[p] == '\r') return (p + 1 < s_.size() && s_[p + 1] == '\n') ? 2 : 1;
    return 0;
  }

  // Measures the indentation of a new logical line and emits INDENT/DEDENT. Blank and
  // comment-only lines are consumed. Returns false at end of input.
  bool handle_indentation() {
    uint32_t col = 0;
    size_t p = pos_;
    for (; p < s_.size(); ++p) {
      char c = s_[p];
      if (c == ' ') ++col;
      else if (c == '\t') col = (col / 8 + 1) * 8;
      else if (c == '\f') col = 0;
      else break;
    }
    pos_ = p;
    if (p >= s_.size()) return false;
    char c = s_[p];
    if (c == '#' || c == '\n' || c == '\r') {  // blank or comment-only line
      skip_comment();
      pos_ += eol_len(pos_);
      return true;
    }
    at_line_start_ = false;
    if (col > indents_.back()) {
      if (indents_.size() > kMaxIndent) fatal(static_cast<uint32_t>(p), "too many levels of indentation");
      indents_.push_back(col);
      emit(Tok::Indent, p, p);
    } else {
      while (col < indents_.back()) {
        indents_.pop_back();
        emit(Tok::Dedent, p, p);
      }
      if (col != indents_.back()) fatal(static_cast<uint32_t>(p), "unindent does not match any outer indentation level");
    }
    return true;
  }

  void newline() {
    size_t len = eol_len(pos_);
    if (brackets_.empty()) {
      if (line_has_tokens_) emit(Tok::Newline, pos_, pos_ + len);
      line_has_tokens_ = false;
      at_line_start_ = true;
    }
    pos_ += len;
  }

  void continuation() {
    if (pos_ + 1 >= s_.size()) fatal(static_cast<uint32_t>(pos_), "unexpected end of file after line continuation character");
    size_t len = eol_len(pos_ + 1);
    if (len == 0) {
      emit(Tok::Error, pos_, pos_ + 1).str = "unexpected character after line continuation character";
      ++pos_;
      return;
    }
    if (pos_ + 1 + len >= s_.size()) fatal(static_cast<uint32_t>(pos_), "unexpected end of file after line continuation character");
    pos_ += 1 + len;
  }

  void lex_token() {
    size_t start = pos_;
    unsigned char c = static_cast<unsigned char>(s_[pos_]);
    if (is_ident_start(c)) {
      size_t p = pos_;
      while (p < s_.size() && is_ident_char(static_cast<unsigned char>(s_[p]))) ++p;
      std::string_view id = s_.substr(start, p - start);
      if (p < s_.size() && (s_[p] == '"' || s_[p] == '\'')) {
        Prefix pre = parse_prefix(id);
        if (pre.ok) { lex_string(start, p, pre); return; }
      }
      pos_ = p;
      auto it = std::find_if(kKeywords.begin(), kKeywords.end(), [&](const KeywordEntry& k) { return k.name == id; });
      emit(it != kKeywords.end() ? it->kind : Tok::Name, start, p);
      return;
    }
    if (is_digit(static_cast<char>(c)) || (c == '.' && pos_ + 1 < s_.size() && is_digit(s_[pos_ + 1]))) {
      lex_number();
      return;
    }
    if (c == '"' || c == '\'') { lex_string(start, start, Prefix{true, false, false, false}); return; }
    std::string_view rest = s_.substr(pos_);
    for (const OpEntry& op : kOps) {
      if (rest.substr(0, op.text.size()) == op.text) {
        pos_ += op.text.size();
        emit(op.kind, start, pos_);
        if (op.kind == Tok::LParen || op.kind == Tok::LBracket || op.kind == Tok::LBrace) {
          if (brackets_.size() >= kMaxBrackets) fatal(static_cast<uint32_t>(start), "too many nested parentheses");
          brackets_.push_back(static_cast<uint32_t>(start));
        } else if (op.kind == Tok::RParen || op.kind == Tok::RBracket || op.kind == Tok::RBrace) {
          if (!brackets_.empty()) brackets_.pop_back();
        }
        return;
      }
    }
    // Unknown character (a whole UTF-8 sequence is impossible here: bytes ≥ 0x80 are names).
    ++pos_;
    emit(Tok::Error, start, pos_).str =
        c < 0x20 || c == 0x7F ? fmt::format("invalid non-printable character U+{:04X} in source", c)
                              : std::string("invalid character '") + static_cast<char>(c) + "' in source";
  }

  // Reads digits of `pred` with single underscores between them. `lead` allows one leading
  // underscore (after a base prefix). Appends the digits to `clean`.
  template <class Pred>
  size_t read_digits(size_t p, Pred pred, bool lead, std::string& clean) {
    bool prev_digit = lead;
    while (p < s_.size()) {
      if (pred(s_[p])) { clean += s_[p++]; prev_digit = true; continue; }
      if (s_[p] == '_' && prev_digit && p + 1 < s_.size() && pred(s_[p + 1])) { ++p; prev_digit = false; continue; }
      break;
    }
    return p;
  }

  void lex_number() {
    size_t start = pos_, p = pos_;
    std::string clean;
    auto bad = [&](size_t end, const char* msg) {
      while (end < s_.size() && is_ident_char(static_cast<unsigned char>(s_[end]))) ++end;
      pos_ = end;
      emit(Tok::Error, start, end).str = msg;
    };
    if (s_[p] == '0' && p + 1 < s_.size() && std::string_view("xXoObB").find(s_[p + 1]) != std::string_view::npos) {
      char b = static_cast<char>(s_[p + 1] | 0x20);
      int base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
      auto pred = [base](char ch) {
        return base == 16 ? is_hex(ch) : base == 8 ? (ch >= '0' && ch <= '7') : (ch == '0' || ch == '1');
      };
      p = read_digits(p + 2, pred, true, clean);
      if (clean.empty() || (p < s_.size() && is_ident_char(static_cast<unsigned char>(s_[p]))))
        return bad(p, base == 16 ? "invalid hexadecimal literal" : base == 8 ? "invalid octal literal" : "invalid binary literal");
      pos_ = p;
      Token& t = emit(Tok::Int, start, p);
      for (char ch : clean) {
        uint64_t v = t.int_value;
        if (__builtin_mul_overflow(v, static_cast<uint64_t>(base), &v) ||
            __builtin_add_overflow(v, static_cast<uint64_t>(hex_val(ch)), &v)) {
          t.int_overflow = true;
          break;
        }
        t.int_value = v;
      }
      if (t.int_overflow) t.int_value = 0;
      return;
    }
    p = read_digits(p, is_digit, false, clean);
    size_t int_digits = clean.size();
    bool is_float = false;
    if (p < s_.size() && s_[p] == '.') {
      is_float = true;
      clean += '.';
      p = read_digits(p + 1, is_digit, false, clean);
    }
    if (p < s_.size() && (s_[p] == 'e' || s_[p] == 'E')) {
      size_t q = p + 1;
      if (q < s_.size() && (s_[q] == '+' || s_[q] == '-')) ++q;
      if (q < s_.size() && is_digit(s_[q])) {
        is_float = true;
        clean += 'e';
        if (s_[p + 1] == '-') clean += '-';
        p = read_digits(q, is_digit, false, clean);
      }
    }
    bool imag = false;
    if (p < s_.size() && (s_[p] == 'j' || s_[p] == 'J')) { imag = true; ++p; }
    if (p < s_.size() && is_ident_char(static_cast<unsigned char>(s_[p]))) {
      // `1if x else y` is still accepted by Python (with a warning): allow a keyword here.
      size_t q = p;
      while (q < s_.size() && is_ident_char(static_cast<unsigned char>(s_[q]))) ++q;
      std::string_view word = s_.substr(p, q - p);
      bool kw = is_keyword(word);
      if (!kw) return bad(p, imag ? "invalid imaginary literal" : "invalid decimal literal");
    }
    pos_ = p;
    if (is_float || imag) {
      Token& t = emit(imag ? Tok::Imag : Tok::Float, start, p);
      double v = 0;
      std::string_view cs = clean;
      if (!cs.empty() && cs.front() == '.') { clean.insert(clean.begin(), '0'); cs = clean; }
      std::from_chars(cs.data(), cs.data() + cs.size(), v);
      t.float_value = v;
      return;
    }
    if (int_digits > 1 && clean.find_first_not_of('0') != std::string::npos && clean[0] == '0') {
      return bad(p, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
    }
    Token& t = emit(Tok::Int, start, p);
    for (char ch : clean) {
      uint64_t v = t.int_value;
      if (__builtin_mul_overflow(v, uint64_t{10}, &v) || __builtin_add_overflow(v, static_cast<uint64_t>(ch - '0'), &v)) {
        t.int_overflow = true;
        break;
      }
      t.int_value = v;
    }
    if (t.int_overflow) t.int_value = 0;
  }

  // ---- strings -------------------------------------------------------------------------

  [[noreturn]] void unterminated(bool triple) {
    fatal(string_start_, triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
  }

  // Position of the closing quote of a string whose body starts at p. Handles f-string
  // replacement fields (nested strings, brackets, format specs).
  size_t scan_body(size_t p, char q, bool triple, bool fstr) {
    while (true) {
      if (p >= s_.size()) unterminated(triple);
      char c = s_[p];
      if (c == '\\') {
        if (p + 1 >= s_.size()) unterminated(triple);
        p += (fstr && (s_[p + 1] == '{' || s_[p + 1] == '}')) ? 1 : 1 + std::max<size_t>(1, eol_len(p + 1));
        continue;
      }
      if (!triple && (c == '\n' || c == '\r')) unterminated(triple);
      if (c == q && (!triple || (p + 2 < s_.size() && s_[p + 1] == q && s_[p + 2] == q))) return p;
      if (fstr && c == '{') {
        if (p + 1 < s_.size() && s_[p + 1] == '{') { p += 2; continue; }
        p = scan_field(p + 1, q, triple);
        continue;
      }
      ++p;
    }
  }

  // Scans a string literal (prefix + quotes) starting at p; returns the position past it.
  size_t scan_string(size_t quote, const Prefix& pre) {
    char q = s_[quote];
    bool triple = quote + 2 < s_.size() && s_[quote + 1] == q && s_[quote + 2] == q;
    size_t body = quote + (triple ? 3 : 1);
    size_t close = scan_body(body, q, triple, pre.fstr);
    return close + (triple ? 3 : 1);
  }

  // Scans an f-string replacement field starting after '{'; returns the position after its '}'.
  size_t scan_field(size_t p, char q, bool triple) {
    int depth = 0;
    while (true) {
      if (p >= s_.size()) unterminated(triple);
      char c = s_[p];
      unsigned char uc = static_cast<unsigned char>(c);
      if (c == '"' || c == '\'') { p = scan_string(p, Prefix{true, false, false, false}); continue; }
      if (is_ident_start(uc)) {
        size_t e = p;
        while (e < s_.size() && is_ident_char(static_cast<unsigned char>(s_[e]))) ++e;
        if (e < s_.size() && (s_[e] == '"' || s_[e] == '\'')) {
          Prefix pre = parse_prefix(s_.substr(p, e - p));
          if (pre.ok) { p = scan_string(e, pre); continue; }
        }
        p = e;
        continue;
      }
      if (c == '#') { skip_to_eol(p); continue; }
      if (c == '(' || c == '[' || c == '{') { ++depth; ++p; continue; }
      if (c == ')' || c == ']') { --depth; ++p; continue; }
      if (c == '}') {
        if (depth <= 0) return p + 1;
        --depth; ++p; continue;
      }
      if (c == ':' && depth <= 0) return scan_format_spec(p + 1, q, triple);
      if (!triple && c == q) unterminated(triple);
      ++p;
    }
  }

  void skip_to_eol(size_t& p) {
    while (p < s_.size() && s_[p] != '\n' && s_[p] != '\r') ++p;
  }

  // Scans a format spec after ':'; returns the position after the field's closing '}'.
  size_t scan_format_spec(size_t p, char q, bool triple) {
    while (true) {
      if (p >= s_.size()) unterminated(triple);
      char c = s_[p];
      if (!triple && (c == '\n' || c == '\r' || c == q)) unterminated(triple);
      if (c == '{') { p = scan_field(p + 1, q, triple); continue; }
      if (c == '}') return p + 1;
      ++p;
    }
  }

  void lex_string(size_t start, size_t quote, const Prefix& pre) {
    string_start_ = static_cast<uint32_t>(start);
    char q = s_[quote];
    bool triple = quote + 2 < s_.size() && s_[quote + 1] == q && s_[quote + 2] == q;
    size_t body = quote + (triple ? 3 : 1);
    size_t end = scan_string(quote, pre);
    size_t body_end = end - (triple ? 3 : 1);
    pos_ = end;
    Token& t = emit(Tok::String, start, end);
    t.is_bytes = pre.bytes;
    t.is_raw = pre.raw;
    t.is_fstring = pre.fstr;
    std::string_view b = s_.substr(body, body_end - body);
    if (pre.raw || pre.fstr) {
      for (size_t i = 0; i < b.size(); ++i)
        if (!(b[i] == '\r' && i + 1 < b.size() && b[i + 1] == '\n')) t.str += b[i];
    } else {
      std::string err = decode_escapes(b, pre.bytes, t.str);
      if (!err.empty()) { t.kind = Tok::Error; t.str = "(unicode error) " + err; }
    }
  }

  void finish() {
    if (!brackets_.empty()) {
      uint32_t off = brackets_.back();
      fatal(off, std::string("'") + s_[off] + "' was never closed");
    }
    size_t end = s_.size();
    if (line_has_tokens_) emit(Tok::Newline, end, end);
    while (indents_.size() > 1) {
      indents_.pop_back();
      emit(Tok::Dedent, end, end);
    }
    emit(Tok::EndMarker, end, end);
  }

  const Source& src_;
  std::string_view s_;
  size_t pos_ = 0;
  bool at_line_start_ = true;
  bool line_has_tokens_ = false;
  uint32_t string_start_ = 0;
  std::vector<uint32_t> indents_{0};
  std::vector<uint32_t> brackets_;
  std::vector<Token> out_;
};

}  // namespace

bool is_keyword(std::string_view name) {
  return std::any_of(kKeywords.begin(), kKeywords.end(), [&](const KeywordEntry& k) { return k.name == name; });
}

const char* to_string(Tok k) {
  switch (k) {
    case Tok::EndMarker: return "end of file";
    case Tok::Newline: return "NEWLINE";
    case Tok::Indent: return "INDENT";
    case Tok::Dedent: return "DEDENT";
    case Tok::Error: return "invalid token";
    case Tok::Name: return "name";
    case Tok::Int: return "integer literal";
    case Tok::Float: return "float literal";
    case Tok::Imag: return "imaginary literal";
    case Tok::String: return "string literal";
    default: break;
  }
  for (const KeywordEntry& e : kKeywords)
    if (e.kind == k) return e.name.data();  // the table's literals are NUL-terminated
  for (const OpEntry& e : kOps)
    if (e.kind == k) return e.text.data();
  return "?";
}

std::vector<Token> tokenize(const SourceRef& src) { return Lexer(src).run(); }

}  // namespace tritium::frontend
