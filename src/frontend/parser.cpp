// Parser entry points, token helpers and top-level (module) parsing with recovery.
#include "frontend/parser.h"

#include "frontend/functional_decorators.h"

#include "frontend/parser_impl.h"

namespace tritium::frontend {
namespace detail {

Parser::Parser(SourceRef src) : src_(std::move(src)), toks_(tokenize(src_)) {}

Parser::DepthGuard::DepthGuard(Parser& parser) : p(parser) {
  if (++p.depth_ > kMaxDepth) {
    --p.depth_;
    p.error(p.cur(), "expression too deeply nested");
  }
}

void Parser::ChainGuard::link() {
  ++links;
  if (++p.depth_ > kMaxDepth) p.error(p.cur(), "expression too deeply nested");
}

bool Parser::accept(Tok k) {
  if (!at(k)) return false;
  advance();
  return true;
}

const Token& Parser::advance() {
  const Token& t = toks_[pos_];
  if (pos_ + 1 < toks_.size()) ++pos_;
  return t;
}

const Token& Parser::expect(Tok k) {
  if (at(k)) return advance();
  if (at(Tok::Error)) error(cur(), cur().str);
  switch (k) {
    case Tok::Name: error(cur(), "expected a name, found " + std::string(at(Tok::Newline) ? "end of line" : "'" + std::string(cur().text) + "'"));
    case Tok::Newline: unexpected();
    case Tok::Indent: error(cur(), "expected an indented block");
    default: break;
  }
  error(cur(), std::string("expected '") + to_string(k) + "'");
}

uint32_t Parser::prev_end() const {
  for (size_t i = pos_; i-- > 0;) {
    Tok k = toks_[i].kind;
    if (k != Tok::Newline && k != Tok::Indent && k != Tok::Dedent && k != Tok::EndMarker) return toks_[i].end_offset;
  }
  return 0;
}

void Parser::error(const Token& t, const std::string& msg) const { throw CompileError(src_, t.loc, msg); }

void Parser::error_at(SrcLoc loc, const std::string& msg) const { throw CompileError(src_, loc, msg); }

void Parser::unexpected() const {
  const Token& t = cur();
  switch (t.kind) {
    case Tok::Error: error(t, t.str);
    case Tok::Indent: error(t, "unexpected indent");
    case Tok::Dedent: error(t, "unexpected unindent");
    case Tok::Newline: error(t, "invalid syntax (unexpected end of line)");
    case Tok::EndMarker: error(t, "unexpected end of file");
    default: error(t, "invalid syntax: unexpected '" + std::string(t.text) + "'");
  }
}

size_t Parser::skip_block(size_t i) const {
  int depth = 0;
  for (; i < toks_.size(); ++i) {
    if (toks_[i].kind == Tok::Indent) ++depth;
    else if (toks_[i].kind == Tok::Dedent && --depth == 0) return i + 1;
    else if (toks_[i].kind == Tok::EndMarker) return i;
  }
  return toks_.size() - 1;
}

size_t Parser::skip_statement(size_t i) const {
  while (true) {
    bool decorator_line = toks_[i].kind == Tok::At;
    while (toks_[i].kind != Tok::Newline && toks_[i].kind != Tok::EndMarker) ++i;
    if (toks_[i].kind == Tok::EndMarker) return i;
    ++i;  // NEWLINE
    if (toks_[i].kind == Tok::Indent) i = skip_block(i);
    if (decorator_line) continue;
    Tok k = toks_[i].kind;
    if (k == Tok::KwElif || k == Tok::KwElse || k == Tok::KwExcept || k == Tok::KwFinally) continue;
    return i;
  }
}

namespace {

// Why a top-level compound statement starting with token kind `k` is skipped (or null).
const char* compound_reason(const Parser& p) {
  switch (p.cur().kind) {
    case Tok::KwClass: return "class definition";
    case Tok::KwIf: return "if statement";
    case Tok::KwFor: return "for statement";
    case Tok::KwWhile: return "while statement";
    case Tok::KwTry: return "try statement";
    case Tok::KwWith: return "with statement";
    case Tok::KwAsync: return "async statement";
    case Tok::KwElif: case Tok::KwElse: case Tok::KwExcept: case Tok::KwFinally:
      return "clause without its statement";
    default: break;
  }
  if (p.at_name("match")) {
    size_t i = p.pos_;
    while (p.toks_[i].kind != Tok::Newline && p.toks_[i].kind != Tok::EndMarker) ++i;
    if (p.toks_[i].kind == Tok::Newline && i > p.pos_ + 1 && p.toks_[i - 1].kind == Tok::Colon &&
        p.toks_[i + 1].kind == Tok::Indent)
      return "match statement";
  }
  return nullptr;
}

bool kept_at_top_level(StmtKind k) {
  return k == StmtKind::Import || k == StmtKind::ImportFrom || k == StmtKind::Assign ||
         k == StmtKind::AnnAssign || k == StmtKind::AugAssign;
}

// The imports a top-level `try` / `if` performs on the path tritium assumes (Python runs
// host code; tritium cannot): the `try` body (its imports succeed when the module is one
// tritium knows), the first branch of an `if` (`if triton version >= ...:`), recursively.
// This is how public kernels import libdevice functions:
//     try:
//         from triton.language.extra.libdevice import rsqrt
//     except ModuleNotFoundError:
//         from triton.language.extra.cuda.libdevice import rsqrt
void collect_guarded_imports(StmtList& body, StmtList& out) {
  for (auto& s : body) {
    if (s->kind == StmtKind::Import || s->kind == StmtKind::ImportFrom) out.push_back(std::move(s));
    else if (auto* t = s->dyn<TryStmt>()) collect_guarded_imports(t->body, out);
    else if (auto* i = s->dyn<IfStmt>()) collect_guarded_imports(i->body, out);
  }
}

}  // namespace

Module Parser::parse_module() {
  Module m;
  m.source = src_;
  auto push_skipped = [&](SrcLoc loc, size_t end, std::string reason, std::optional<ParseError> err) {
    pos_ = end;
    auto s = make<SkippedStmt>(loc);
    s->reason = std::move(reason);
    s->error = std::move(err);
    s->end_offset = prev_end();
    m.body.push_back(std::move(s));
  };
  while (!at(Tok::EndMarker)) {
    if (at(Tok::Dedent) || at(Tok::Newline)) {  // cannot happen with a balanced token stream
      advance();
      continue;
    }
    size_t start = pos_;
    SrcLoc loc = cur().loc;
    if (at(Tok::Indent)) {
      push_skipped(loc, skip_block(start), "unexpected indent", ParseError{"unexpected indent", loc});
      continue;
    }
    bool is_def = at(Tok::KwDef) || at(Tok::At) || (at(Tok::KwAsync) && peek().kind == Tok::KwDef);
    if (is_def) {
      try {
        ExprList decos = decorators();
        if (at(Tok::KwClass)) {
          push_skipped(loc, skip_statement(start), "class definition", std::nullopt);
          continue;
        }
        auto f = function_def(std::move(decos), loc, /*recover=*/true);
        m.functions.push_back(f.get());
        m.body.push_back(std::move(f));
      } catch (const CompileError& e) {
        // The decorators or the header failed: keep the def (by name) with its error.
        size_t end = skip_statement(start);
        size_t d = start;
        while (d < end && !(toks_[d].kind == Tok::KwDef && toks_[d + 1].kind == Tok::Name)) ++d;
        if (d == end) {
          push_skipped(loc, end, "statement with a syntax error", ParseError{e.message(), e.loc()});
          continue;
        }
        pos_ = end;
        auto f = make<FunctionDef>(loc);
        f->name = std::string(toks_[d + 1].text);
        f->name_loc = toks_[d + 1].loc;
        f->is_async = d > start && toks_[d - 1].kind == Tok::KwAsync;
        f->def_loc = toks_[f->is_async ? d - 1 : d].loc;
        f->parse_error = ParseError{e.message(), e.loc()};
        f->src_begin = loc.offset;
        f->src_end = f->end_offset = prev_end();
        m.functions.push_back(f.get());
        m.body.push_back(std::move(f));
      }
      continue;
    }
    if (at(Tok::KwIf)) {
      // A module-level `if` is kept whole: the code generator evaluates its condition when
      // it can (module constants, os.environ) and runs the branch taken; otherwise only the
      // imports of its first branch count (codegen_globals.cpp). Host code that does not
      // parse is skipped as before.
      try {
        StmtList whole;
        statement(whole);
        for (auto& st : whole) m.body.push_back(std::move(st));
        continue;
      } catch (const CompileError&) {
        pos_ = start;
      }
    }
    if (const char* reason = compound_reason(*this)) {
      StmtList imports;
      if (at(Tok::KwTry) || at(Tok::KwIf)) {
        try {
          StmtList whole;
          statement(whole);
          collect_guarded_imports(whole, imports);
        } catch (const CompileError&) {
          imports.clear();  // host code tritium cannot parse: skipped as a whole
        }
        pos_ = start;
      }
      push_skipped(loc, skip_statement(start), reason, std::nullopt);
      for (auto& s : imports) m.body.push_back(std::move(s));
      continue;
    }
    StmtList line;
    try {
      simple_statements(line);
    } catch (const CompileError& e) {
      push_skipped(loc, skip_statement(start), "statement with a syntax error", ParseError{e.message(), e.loc()});
      continue;
    }
    for (auto& s : line) {
      if (kept_at_top_level(s->kind)) {
        m.body.push_back(std::move(s));
        continue;
      }
      auto k = make<SkippedStmt>(s->loc);
      k->reason = s->kind == StmtKind::Expr ? std::string("expression statement")
                                            : std::string(to_string(s->kind)) + " statement";
      k->end_offset = s->end_offset;
      m.body.push_back(std::move(k));
    }
  }
  resolve_decorator_aliases(m);
  attach_functional_decorators(m);
  return m;
}

StmtList Parser::parse_all_statements() {
  StmtList out;
  while (!at(Tok::EndMarker)) statement(out);
  return out;
}

ExprPtr Parser::parse_whole_expression() {
  accept(Tok::Indent);
  ExprPtr e = at(Tok::KwYield) ? yield_expression() : star_expressions();
  accept(Tok::Newline);
  accept(Tok::Dedent);
  if (!at(Tok::EndMarker)) unexpected();
  return e;
}

}  // namespace detail

Module parse_module(SourceRef src) { return detail::Parser(std::move(src)).parse_module(); }

StmtList parse_statements(SourceRef src) { return detail::Parser(std::move(src)).parse_all_statements(); }

ExprPtr parse_expression(SourceRef src) { return detail::Parser(std::move(src)).parse_whole_expression(); }

}  // namespace tritium::frontend
