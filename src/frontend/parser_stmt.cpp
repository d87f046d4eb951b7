// Statement parsing: simple statements, blocks, compound statements, defs and classes.
#include <optional>

#include <fmt/format.h>

#include "frontend/parser_impl.h"

namespace tritium::frontend::detail {

namespace {

std::optional<BinOp> augassign_op(Tok k) {
  switch (k) {
    case Tok::PlusEq: return BinOp::Add;
    case Tok::MinusEq: return BinOp::Sub;
    case Tok::StarEq: return BinOp::Mul;
    case Tok::SlashEq: return BinOp::Div;
    case Tok::DoubleSlashEq: return BinOp::FloorDiv;
    case Tok::PercentEq: return BinOp::Mod;
    case Tok::AtEq: return BinOp::MatMul;
    case Tok::AmpEq: return BinOp::BitAnd;
    case Tok::PipeEq: return BinOp::BitOr;
    case Tok::CaretEq: return BinOp::BitXor;
    case Tok::LShiftEq: return BinOp::LShift;
    case Tok::RShiftEq: return BinOp::RShift;
    case Tok::DoubleStarEq: return BinOp::Pow;
    default: return std::nullopt;
  }
}

const char* describe(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Call: return "function call";
    case ExprKind::Int: case ExprKind::Float: case ExprKind::Str: case ExprKind::Bytes:
    case ExprKind::Bool: case ExprKind::None: case ExprKind::Ellipsis: return "literal";
    case ExprKind::BinOp: case ExprKind::UnaryOp: return "expression";
    case ExprKind::BoolOp: return "boolean operation";
    case ExprKind::Compare: return "comparison";
    case ExprKind::IfExp: return "conditional expression";
    case ExprKind::Lambda: return "lambda";
    case ExprKind::Tuple: return "tuple";
    case ExprKind::List: return "list";
    case ExprKind::Dict: return "dict literal";
    case ExprKind::Set: return "set display";
    case ExprKind::ListComp: return "list comprehension";
    case ExprKind::SetComp: return "set comprehension";
    case ExprKind::DictComp: return "dict comprehension";
    case ExprKind::GeneratorExp: return "generator expression";
    case ExprKind::NamedExpr: return "named expression";
    case ExprKind::Await: return "await expression";
    case ExprKind::Yield: case ExprKind::YieldFrom: return "yield expression";
    case ExprKind::Slice: return "slice";
    case ExprKind::Starred: return "starred";
    default: return "expression";
  }
}

}  // namespace

// ---- target validation -------------------------------------------------------------------

void Parser::check_assign_target(const Expr& e, const char* context) const {
  switch (e.kind) {
    case ExprKind::Name: case ExprKind::Attribute: case ExprKind::Subscript: return;
    case ExprKind::Starred: check_assign_target(*e.as<StarredExpr>().value, context); return;
    case ExprKind::Tuple:
    case ExprKind::List: {
      const ExprList& elts = e.is<TupleExpr>() ? e.as<TupleExpr>().elts : e.as<ListExpr>().elts;
      int stars = 0;
      for (const auto& x : elts) {
        if (x->is<StarredExpr>() && ++stars > 1) error_at(x->loc, std::string("multiple starred expressions in ") + context);
        check_assign_target(*x, context);
      }
      return;
    }
    default:
      error_at(e.loc, std::string("cannot assign to ") + describe(e) + " in " + context);
  }
}

void Parser::check_single_target(const Expr& e, const char* context) const {
  if (e.is<NameExpr>() || e.is<AttributeExpr>() || e.is<SubscriptExpr>()) return;
  if (e.is<TupleExpr>() || e.is<ListExpr>())
    error_at(e.loc, std::string("only a single target (not ") + describe(e) + ") is allowed in " + context);
  error_at(e.loc, std::string("'") + describe(e) + "' is an illegal target for " + context);
}

void Parser::check_del_target(const Expr& e) const {
  if (e.is<NameExpr>() || e.is<AttributeExpr>() || e.is<SubscriptExpr>()) return;
  if (e.is<TupleExpr>() || e.is<ListExpr>()) {
    for (const auto& x : (e.is<TupleExpr>() ? e.as<TupleExpr>().elts : e.as<ListExpr>().elts)) check_del_target(*x);
    return;
  }
  error_at(e.loc, std::string("cannot delete ") + describe(e));
}

// ---- statements ----------------------------------------------------------------------------

void Parser::statement(StmtList& out) {
  SrcLoc loc = cur().loc;
  switch (cur().kind) {
    case Tok::Indent: error(cur(), "unexpected indent");
    case Tok::KwIf: out.push_back(if_statement(false)); return;
    case Tok::KwFor: advance(); out.push_back(for_statement(loc, false)); return;
    case Tok::KwWhile: out.push_back(while_statement()); return;
    case Tok::KwWith: advance(); out.push_back(with_statement(loc, false)); return;
    case Tok::KwTry: out.push_back(try_statement()); return;
    case Tok::KwDef: out.push_back(function_def({}, loc, false)); return;
    case Tok::KwClass: out.push_back(class_def({}, loc)); return;
    case Tok::At: {
      ExprList decos = decorators();
      if (at(Tok::KwClass)) out.push_back(class_def(std::move(decos), loc));
      else out.push_back(function_def(std::move(decos), loc, false));
      return;
    }
    case Tok::KwAsync:
      if (peek().kind == Tok::KwDef) { out.push_back(function_def({}, loc, false)); return; }
      advance();
      if (accept(Tok::KwFor)) { out.push_back(for_statement(loc, true)); return; }
      if (accept(Tok::KwWith)) { out.push_back(with_statement(loc, true)); return; }
      unexpected();
    case Tok::KwElif: case Tok::KwElse: case Tok::KwExcept: case Tok::KwFinally:
      error(cur(), "invalid syntax: '" + std::string(cur().text) + "' without a matching statement");
    default: break;
  }
  if (at_name("match")) {  // soft keyword: `match subject:` NEWLINE INDENT
    size_t i = pos_;
    while (toks_[i].kind != Tok::Newline && toks_[i].kind != Tok::EndMarker) ++i;
    if (toks_[i].kind == Tok::Newline && i > pos_ + 1 && toks_[i - 1].kind == Tok::Colon &&
        toks_[i + 1].kind == Tok::Indent)
      error(cur(), "match statements are not supported");
  }
  simple_statements(out);
}

void Parser::simple_statements(StmtList& out) {
  out.push_back(simple_statement());
  while (accept(Tok::Semi)) {
    if (at(Tok::Newline)) break;
    out.push_back(simple_statement());
  }
  if (!at(Tok::Newline)) unexpected();
  advance();
}

StmtPtr Parser::simple_statement() {
  SrcLoc loc = cur().loc;
  switch (cur().kind) {
    case Tok::KwPass: advance(); return finish(make<PassStmt>(loc));
    case Tok::KwBreak: advance(); return finish(make<BreakStmt>(loc));
    case Tok::KwContinue: advance(); return finish(make<ContinueStmt>(loc));
    case Tok::KwReturn: {
      advance();
      auto r = make<ReturnStmt>(loc);
      if (starts_expression(cur().kind)) r->value = star_expressions();
      return finish(std::move(r));
    }
    case Tok::KwRaise: {
      advance();
      auto r = make<RaiseStmt>(loc);
      if (starts_expression(cur().kind)) {
        r->exc = expression();
        if (accept(Tok::KwFrom)) r->cause = expression();
      }
      return finish(std::move(r));
    }
    case Tok::KwGlobal:
    case Tok::KwNonlocal: {
      bool global = advance().kind == Tok::KwGlobal;
      std::vector<std::string> names;
      do names.emplace_back(expect(Tok::Name).text); while (accept(Tok::Comma));
      if (global) {
        auto g = make<GlobalStmt>(loc);
        g->names = std::move(names);
        return finish(std::move(g));
      }
      auto n = make<NonlocalStmt>(loc);
      n->names = std::move(names);
      return finish(std::move(n));
    }
    case Tok::KwDel: {
      advance();
      auto d = make<DeleteStmt>(loc);
      do {
        if (!starts_expression(cur().kind)) break;
        d->targets.push_back(bitor_expr());
        check_del_target(*d->targets.back());
      } while (accept(Tok::Comma));
      if (d->targets.empty()) unexpected();
      return finish(std::move(d));
    }
    case Tok::KwAssert: {
      advance();
      auto a = make<AssertStmt>(loc);
      a->test = expression();
      if (accept(Tok::Comma)) a->msg = expression();
      return finish(std::move(a));
    }
    case Tok::KwImport: return import_statement();
    case Tok::KwFrom: return from_import_statement();
    default: return expression_statement();
  }
}

StmtPtr Parser::expression_statement() {
  SrcLoc loc = cur().loc;
  bool parenthesized = at(Tok::LParen);
  auto rhs = [this] { return at(Tok::KwYield) ? yield_expression() : star_expressions(); };
  ExprPtr first = rhs();
  if (at(Tok::Colon)) {
    check_single_target(*first, "annotated assignment");
    advance();
    auto a = make<AnnAssignStmt>(loc);
    a->simple = first->is<NameExpr>() && !parenthesized;
    a->target = std::move(first);
    a->annotation = expression();
    if (accept(Tok::Assign)) a->value = rhs();
    return finish(std::move(a));
  }
  if (std::optional<BinOp> op = augassign_op(cur().kind)) {
    check_single_target(*first, "augmented assignment");
    advance();
    auto a = make<AugAssignStmt>(loc);
    a->target = std::move(first);
    a->op = *op;
    a->value = rhs();
    return finish(std::move(a));
  }
  if (at(Tok::Assign)) {
    auto a = make<AssignStmt>(loc);
    a->targets.push_back(std::move(first));
    while (accept(Tok::Assign)) a->targets.push_back(rhs());
    a->value = std::move(a->targets.back());
    a->targets.pop_back();
    for (const auto& t : a->targets) check_assign_target(*t, "assignment");
    return finish(std::move(a));
  }
  auto s = make<ExprStmt>(loc);
  s->value = std::move(first);
  return finish(std::move(s));
}

std::string Parser::dotted_name() {
  std::string name(expect(Tok::Name).text);
  while (at(Tok::Dot) && peek().kind == Tok::Name) {
    advance();
    name += '.';
    name += advance().text;
  }
  return name;
}

StmtPtr Parser::import_statement() {
  auto s = make<ImportStmt>(expect(Tok::KwImport).loc);
  do {
    Alias a;
    a.loc = cur().loc;
    a.name = dotted_name();
    if (accept(Tok::KwAs)) a.asname = std::string(expect(Tok::Name).text);
    s->names.push_back(std::move(a));
  } while (accept(Tok::Comma));
  return finish(std::move(s));
}

StmtPtr Parser::from_import_statement() {
  auto s = make<ImportFromStmt>(expect(Tok::KwFrom).loc);
  while (at(Tok::Dot) || at(Tok::Ellipsis)) s->level += advance().kind == Tok::Dot ? 1 : 3;
  if (at(Tok::Name)) s->module = dotted_name();
  else if (s->level == 0) error(cur(), "expected a module name");
  expect(Tok::KwImport);
  if (at(Tok::Star)) {
    s->names.push_back(Alias{"*", "", advance().loc});
    return finish(std::move(s));
  }
  bool paren = accept(Tok::LParen);
  do {
    if (paren && at(Tok::RParen)) break;
    Alias a;
    const Token& name = expect(Tok::Name);
    a.loc = name.loc;
    a.name = std::string(name.text);
    if (accept(Tok::KwAs)) a.asname = std::string(expect(Tok::Name).text);
    s->names.push_back(std::move(a));
  } while (accept(Tok::Comma));
  if (paren) expect(Tok::RParen);
  if (s->names.empty()) unexpected();
  return finish(std::move(s));
}

StmtList Parser::block() {
  expect(Tok::Colon);
  StmtList body;
  if (!accept(Tok::Newline)) {
    simple_statements(body);
    return body;
  }
  if (!at(Tok::Indent)) error(cur(), "expected an indented block");
  advance();
  while (!at(Tok::Dedent) && !at(Tok::EndMarker)) statement(body);
  expect(Tok::Dedent);
  return body;
}

StmtPtr Parser::if_statement(bool is_elif) {
  // Each `elif` is an `if` nested in the previous one's else: a chain nests the tree (and
  // the code generator's recursion) as deeply as its length, so it counts toward the
  // nesting bound (10000 branches overflowed the stack).
  if (if_depth_ >= kMaxIfDepth)
    error(cur(), fmt::format("if / elif chain too long or ifs nested too deeply (more than {} levels)", kMaxIfDepth));
  struct IfLevel {
    int& d;
    ~IfLevel() { --d; }
  } level{++if_depth_};
  auto s = make<IfStmt>(advance().loc);  // 'if' or 'elif'
  s->is_elif = is_elif;
  s->test = named_expression();
  s->body = block();
  if (at(Tok::KwElif)) s->orelse.push_back(if_statement(true));
  else if (accept(Tok::KwElse)) s->orelse = block();
  return finish(std::move(s));
}

StmtPtr Parser::for_statement(SrcLoc start, bool is_async) {
  auto s = make<ForStmt>(start);
  s->is_async = is_async;
  s->target = target_list();
  check_assign_target(*s->target, "for loop target");
  expect(Tok::KwIn);
  s->iter = star_expressions();
  s->body = block();
  if (accept(Tok::KwElse)) s->orelse = block();
  return finish(std::move(s));
}

StmtPtr Parser::while_statement() {
  auto s = make<WhileStmt>(expect(Tok::KwWhile).loc);
  s->test = named_expression();
  s->body = block();
  if (accept(Tok::KwElse)) s->orelse = block();
  return finish(std::move(s));
}

StmtPtr Parser::with_statement(SrcLoc start, bool is_async) {
  auto s = make<WithStmt>(start);
  s->is_async = is_async;
  auto item = [this]() {
    WithItem it;
    it.context_expr = expression();
    if (accept(Tok::KwAs)) {
      it.optional_vars = bitor_expr();  // a single target: `as a, b` separates items
      check_assign_target(*it.optional_vars, "with statement");
    }
    return it;
  };
  if (at(Tok::LParen)) {  // try the parenthesized form `with (a as b, c):` first
    size_t save = pos_;
    try {
      advance();
      std::vector<WithItem> items;
      do {
        if (at(Tok::RParen)) break;
        items.push_back(item());
      } while (accept(Tok::Comma));
      expect(Tok::RParen);
      if (!at(Tok::Colon)) unexpected();
      s->items = std::move(items);
    } catch (const CompileError&) {
      pos_ = save;
    }
  }
  if (s->items.empty()) {
    do s->items.push_back(item()); while (accept(Tok::Comma));
  }
  s->body = block();
  return finish(std::move(s));
}

StmtPtr Parser::try_statement() {
  auto s = make<TryStmt>(expect(Tok::KwTry).loc);
  s->body = block();
  while (at(Tok::KwExcept)) {
    ExceptHandler h;
    h.loc = advance().loc;
    h.is_star = accept(Tok::Star);
    if (!at(Tok::Colon)) {
      h.type = expression();
      if (at(Tok::Comma)) {  // Python 3.14: `except A, B:` means a tuple
        auto t = make<TupleExpr>(h.type->loc);
        t->elts.push_back(std::move(h.type));
        while (accept(Tok::Comma)) t->elts.push_back(expression());
        h.type = finish(std::move(t));
      }
      if (accept(Tok::KwAs)) h.name = std::string(expect(Tok::Name).text);
    }
    h.body = block();
    s->handlers.push_back(std::move(h));
  }
  if (!s->handlers.empty() && accept(Tok::KwElse)) s->orelse = block();
  if (accept(Tok::KwFinally)) s->finalbody = block();
  if (s->handlers.empty() && s->finalbody.empty()) error(cur(), "expected 'except' or 'finally' block");
  return finish(std::move(s));
}

ExprList Parser::decorators() {
  ExprList decos;
  while (accept(Tok::At)) {
    decos.push_back(named_expression());
    if (!at(Tok::Newline)) unexpected();
    advance();
  }
  return decos;
}

std::unique_ptr<FunctionDef> Parser::function_def(ExprList decos, SrcLoc start, bool recover) {
  auto f = make<FunctionDef>(start);
  f->decorators = std::move(decos);
  f->def_loc = cur().loc;
  f->is_async = accept(Tok::KwAsync);
  expect(Tok::KwDef);
  const Token& name = expect(Tok::Name);
  f->name = std::string(name.text);
  f->name_loc = name.loc;
  expect(Tok::LParen);
  f->params = parameters(false);
  if (accept(Tok::Arrow)) f->returns = expression();
  if (!recover) {
    f->body = block();
  } else {
    size_t body_start = pos_;
    try {
      f->body = block();
    } catch (const CompileError& e) {
      f->parse_error = ParseError{e.message(), e.loc()};
      f->body.clear();
      size_t i = body_start;  // skip the rest of the header line and the indented block
      while (toks_[i].kind != Tok::Newline && toks_[i].kind != Tok::EndMarker) ++i;
      if (toks_[i].kind == Tok::Newline) ++i;
      if (toks_[i].kind == Tok::Indent) i = skip_block(i);
      pos_ = i;
    }
  }
  f->src_begin = start.offset;
  f->src_end = prev_end();
  return finish(std::move(f));
}

StmtPtr Parser::class_def(ExprList decos, SrcLoc start) {
  auto c = make<ClassDef>(start);
  c->decorators = std::move(decos);
  expect(Tok::KwClass);
  c->name = std::string(expect(Tok::Name).text);
  if (accept(Tok::LParen)) call_arguments(c->bases, c->keywords, false);
  c->body = block();
  return finish(std::move(c));
}

}  // namespace tritium::frontend::detail
