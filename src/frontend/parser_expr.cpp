// Expression parsing: Python 3 precedence, from lambda / ternary down to atoms.
#include <optional>

#include "frontend/parser_impl.h"

namespace tritium::frontend::detail {

namespace {

std::optional<BinOp> binop_of(Tok k) {
  switch (k) {
    case Tok::Plus: return BinOp::Add;
    case Tok::Minus: return BinOp::Sub;
    case Tok::Star: return BinOp::Mul;
    case Tok::Slash: return BinOp::Div;
    case Tok::DoubleSlash: return BinOp::FloorDiv;
    case Tok::Percent: return BinOp::Mod;
    case Tok::At: return BinOp::MatMul;
    case Tok::LShift: return BinOp::LShift;
    case Tok::RShift: return BinOp::RShift;
    case Tok::Amp: return BinOp::BitAnd;
    case Tok::Pipe: return BinOp::BitOr;
    case Tok::Caret: return BinOp::BitXor;
    default: return std::nullopt;
  }
}

}  // namespace

bool Parser::starts_expression(Tok k) const {
  switch (k) {
    case Tok::Name: case Tok::Int: case Tok::Float: case Tok::Imag: case Tok::String:
    case Tok::KwTrue: case Tok::KwFalse: case Tok::KwNone: case Tok::Ellipsis:
    case Tok::LParen: case Tok::LBracket: case Tok::LBrace:
    case Tok::Minus: case Tok::Plus: case Tok::Tilde: case Tok::KwNot: case Tok::KwLambda:
    case Tok::KwAwait: case Tok::Star: case Tok::Error:
      return true;
    default:
      return false;
  }
}

ExprPtr Parser::expression() {
  DepthGuard guard(*this);
  if (at(Tok::KwLambda)) return lambda_expr();
  ExprPtr body = disjunction();
  if (!at(Tok::KwIf)) return body;
  advance();
  auto e = make<IfExpExpr>(body->loc);
  e->body = std::move(body);
  e->test = disjunction();
  expect(Tok::KwElse);
  e->orelse = expression();
  return finish(std::move(e));
}

ExprPtr Parser::named_expression() {
  if (at(Tok::Name) && peek().kind == Tok::Walrus) {
    const Token& name = advance();
    auto target = make<NameExpr>(name.loc);
    target->id = std::string(name.text);
    target = finish(std::move(target));
    advance();  // ':='
    auto e = make<NamedExpr>(name.loc);
    e->target = std::move(target);
    e->value = expression();
    return finish(std::move(e));
  }
  ExprPtr e = expression();
  if (at(Tok::Walrus)) error(cur(), std::string("cannot use assignment expressions with ") + to_string(e->kind));
  return e;
}

ExprPtr Parser::star_named_expression() {
  if (!at(Tok::Star)) return named_expression();
  SrcLoc loc = advance().loc;
  auto s = make<StarredExpr>(loc);
  s->value = bitor_expr();
  return finish(std::move(s));
}

ExprPtr Parser::star_expression() {
  if (!at(Tok::Star)) return expression();
  SrcLoc loc = advance().loc;
  auto s = make<StarredExpr>(loc);
  s->value = bitor_expr();
  return finish(std::move(s));
}

ExprPtr Parser::star_expressions() {
  ExprPtr first = star_expression();
  if (!at(Tok::Comma)) return first;
  auto t = make<TupleExpr>(first->loc);
  t->elts.push_back(std::move(first));
  while (accept(Tok::Comma)) {
    if (!starts_expression(cur().kind)) break;
    t->elts.push_back(star_expression());
  }
  return finish(std::move(t));
}

ExprPtr Parser::yield_expression() {
  SrcLoc loc = expect(Tok::KwYield).loc;
  if (accept(Tok::KwFrom)) {
    auto y = make<YieldFromExpr>(loc);
    y->value = expression();
    return finish(std::move(y));
  }
  auto y = make<YieldExpr>(loc);
  if (starts_expression(cur().kind)) y->value = star_expressions();
  return finish(std::move(y));
}

ExprPtr Parser::disjunction() {
  ExprPtr first = conjunction();
  if (!at(Tok::KwOr)) return first;
  auto b = make<BoolOpExpr>(first->loc);
  b->op = BoolOp::Or;
  b->values.push_back(std::move(first));
  while (accept(Tok::KwOr)) b->values.push_back(conjunction());
  return finish(std::move(b));
}

ExprPtr Parser::conjunction() {
  ExprPtr first = inversion();
  if (!at(Tok::KwAnd)) return first;
  auto b = make<BoolOpExpr>(first->loc);
  b->op = BoolOp::And;
  b->values.push_back(std::move(first));
  while (accept(Tok::KwAnd)) b->values.push_back(inversion());
  return finish(std::move(b));
}

ExprPtr Parser::inversion() {
  if (!at(Tok::KwNot)) return comparison();
  DepthGuard guard(*this);
  SrcLoc loc = advance().loc;
  auto u = make<UnaryExpr>(loc);
  u->op = UnaryOp::Not;
  u->operand = inversion();
  return finish(std::move(u));
}

ExprPtr Parser::comparison() {
  ExprPtr left = bitor_expr();
  std::unique_ptr<CompareExpr> cmp;
  while (true) {
    std::optional<CmpOp> op;
    SrcLoc oploc = cur().loc;
    switch (cur().kind) {
      case Tok::EqEq: op = CmpOp::Eq; advance(); break;
      case Tok::NotEq: op = CmpOp::NotEq; advance(); break;
      case Tok::Lt: op = CmpOp::Lt; advance(); break;
      case Tok::LtE: op = CmpOp::LtE; advance(); break;
      case Tok::Gt: op = CmpOp::Gt; advance(); break;
      case Tok::GtE: op = CmpOp::GtE; advance(); break;
      case Tok::KwIn: op = CmpOp::In; advance(); break;
      case Tok::KwIs:
        advance();
        op = accept(Tok::KwNot) ? CmpOp::IsNot : CmpOp::Is;
        break;
      case Tok::KwNot:
        if (peek().kind != Tok::KwIn) break;
        advance();
        advance();
        op = CmpOp::NotIn;
        break;
      default: break;
    }
    if (!op) break;
    if (!cmp) {
      cmp = make<CompareExpr>(left->loc);
      cmp->left = std::move(left);
    }
    cmp->ops.push_back(*op);
    cmp->op_locs.push_back(oploc);
    cmp->comparators.push_back(bitor_expr());
  }
  if (!cmp) return left;
  return finish(std::move(cmp));
}

namespace {
// Builds a left-associative binary chain: next() parses operands, `ok` selects operators.
template <class Next, class Ok>
ExprPtr binary_chain(Parser& p, Next next, Ok ok) {
  ExprPtr lhs = next();
  Parser::ChainGuard chain(p);
  while (true) {
    std::optional<BinOp> op = binop_of(p.cur().kind);
    if (!op || !ok(*op)) return lhs;
    chain.link();
    SrcLoc oploc = p.advance().loc;
    auto b = p.make<BinaryExpr>(lhs->loc);
    b->op = *op;
    b->op_loc = oploc;
    b->lhs = std::move(lhs);
    b->rhs = next();
    lhs = p.finish(std::move(b));
  }
}
}  // namespace

ExprPtr Parser::bitor_expr() {
  return binary_chain(*this, [this] { return bitxor_expr(); }, [](BinOp o) { return o == BinOp::BitOr; });
}
ExprPtr Parser::bitxor_expr() {
  return binary_chain(*this, [this] { return bitand_expr(); }, [](BinOp o) { return o == BinOp::BitXor; });
}
ExprPtr Parser::bitand_expr() {
  return binary_chain(*this, [this] { return shift_expr(); }, [](BinOp o) { return o == BinOp::BitAnd; });
}
ExprPtr Parser::shift_expr() {
  return binary_chain(*this, [this] { return sum_expr(); },
                      [](BinOp o) { return o == BinOp::LShift || o == BinOp::RShift; });
}
ExprPtr Parser::sum_expr() {
  return binary_chain(*this, [this] { return term(); }, [](BinOp o) { return o == BinOp::Add || o == BinOp::Sub; });
}
ExprPtr Parser::term() {
  return binary_chain(*this, [this] { return factor(); }, [](BinOp o) {
    return o == BinOp::Mul || o == BinOp::Div || o == BinOp::FloorDiv || o == BinOp::Mod || o == BinOp::MatMul;
  });
}

ExprPtr Parser::factor() {
  DepthGuard guard(*this);
  std::optional<UnaryOp> op;
  if (at(Tok::Minus)) op = UnaryOp::USub;
  else if (at(Tok::Plus)) op = UnaryOp::UAdd;
  else if (at(Tok::Tilde)) op = UnaryOp::Invert;
  if (!op) return power();
  SrcLoc loc = advance().loc;
  auto u = make<UnaryExpr>(loc);
  u->op = *op;
  u->operand = factor();
  return finish(std::move(u));
}

ExprPtr Parser::power() {
  ExprPtr base = await_primary();
  if (!at(Tok::DoubleStar)) return base;
  SrcLoc oploc = advance().loc;
  auto b = make<BinaryExpr>(base->loc);
  b->op = BinOp::Pow;
  b->op_loc = oploc;
  b->lhs = std::move(base);
  b->rhs = factor();  // right-associative, and `2 ** -1` is allowed
  return finish(std::move(b));
}

ExprPtr Parser::await_primary() {
  if (!at(Tok::KwAwait)) return primary();
  SrcLoc loc = advance().loc;
  auto a = make<AwaitExpr>(loc);
  a->value = primary();
  return finish(std::move(a));
}

ExprPtr Parser::primary() {
  ExprPtr e = atom();
  ChainGuard chain(*this);
  while (true) {
    if (at(Tok::Dot) || at(Tok::LParen) || at(Tok::LBracket)) chain.link();
    if (at(Tok::Dot)) {
      advance();
      const Token& name = expect(Tok::Name);
      auto a = make<AttributeExpr>(e->loc);
      a->value = std::move(e);
      a->attr = std::string(name.text);
      a->attr_loc = name.loc;
      e = finish(std::move(a));
    } else if (at(Tok::LParen)) {
      advance();
      auto c = make<CallExpr>(e->loc);
      c->func = std::move(e);
      call_arguments(c->args, c->keywords, true);
      e = finish(std::move(c));
    } else if (at(Tok::LBracket)) {
      advance();
      auto s = make<SubscriptExpr>(e->loc);
      s->value = std::move(e);
      s->index = slices();
      expect(Tok::RBracket);
      e = finish(std::move(s));
    } else {
      return e;
    }
  }
}

ExprPtr Parser::slices() {
  SrcLoc loc = cur().loc;
  ExprPtr first = slice_item();
  if (!at(Tok::Comma)) return first;
  auto t = make<TupleExpr>(loc);
  t->elts.push_back(std::move(first));
  while (accept(Tok::Comma)) {
    if (at(Tok::RBracket)) break;
    t->elts.push_back(slice_item());
  }
  return finish(std::move(t));
}

ExprPtr Parser::slice_item() {
  SrcLoc loc = cur().loc;
  ExprPtr lower;
  if (!at(Tok::Colon)) {
    if (at(Tok::Star)) return star_named_expression();
    lower = named_expression();
    if (!at(Tok::Colon)) return lower;
  }
  advance();  // ':'
  auto s = make<SliceExpr>(loc);
  s->lower = std::move(lower);
  auto ends = [this] { return at(Tok::Colon) || at(Tok::RBracket) || at(Tok::Comma); };
  if (!ends()) s->upper = expression();
  if (accept(Tok::Colon)) {
    if (!at(Tok::RBracket) && !at(Tok::Comma)) s->step = expression();
  }
  return finish(std::move(s));
}

void Parser::call_arguments(ExprList& args, std::vector<Keyword>& keywords, bool allow_genexp) {
  while (!at(Tok::RParen)) {
    if (at(Tok::Star)) {
      SrcLoc loc = advance().loc;
      auto s = make<StarredExpr>(loc);
      s->value = expression();
      args.push_back(finish(std::move(s)));
    } else if (at(Tok::DoubleStar)) {
      SrcLoc loc = advance().loc;
      keywords.push_back(Keyword{"", expression(), loc});
    } else if (at(Tok::Name) && peek().kind == Tok::Assign) {
      const Token& name = advance();
      advance();  // '='
      for (const Keyword& k : keywords)
        if (k.name == name.text) error(name, "keyword argument repeated: " + std::string(name.text));
      keywords.push_back(Keyword{std::string(name.text), expression(), name.loc});
    } else {
      ExprPtr e = named_expression();
      if (at(Tok::Assign)) error(cur(), "expression cannot contain assignment, perhaps you meant \"==\"?");
      if (at(Tok::KwFor) || (at(Tok::KwAsync) && peek().kind == Tok::KwFor)) {
        if (!allow_genexp || !args.empty() || !keywords.empty())
          error(cur(), "generator expression must be parenthesized");
        auto g = make<GeneratorExpr>(e->loc);
        g->elt = std::move(e);
        g->generators = comprehension_clauses();
        args.push_back(finish(std::move(g)));
        if (!at(Tok::RParen)) error(cur(), "generator expression must be parenthesized");
        break;
      }
      if (!keywords.empty() && !e->is<StarredExpr>())
        error_at(e->loc, "positional argument follows keyword argument");
      args.push_back(std::move(e));
    }
    if (!accept(Tok::Comma)) break;
  }
  expect(Tok::RParen);
}

std::vector<Comprehension> Parser::comprehension_clauses() {
  std::vector<Comprehension> gens;
  while (at(Tok::KwFor) || (at(Tok::KwAsync) && peek().kind == Tok::KwFor)) {
    Comprehension c;
    c.loc = cur().loc;
    c.is_async = accept(Tok::KwAsync);
    expect(Tok::KwFor);
    c.target = target_list();
    check_assign_target(*c.target, "comprehension target");
    expect(Tok::KwIn);
    c.iter = disjunction();
    while (accept(Tok::KwIf)) c.ifs.push_back(disjunction());
    gens.push_back(std::move(c));
  }
  return gens;
}

ExprPtr Parser::target_list() {
  auto one = [this]() -> ExprPtr {
    if (!at(Tok::Star)) return bitor_expr();
    SrcLoc loc = advance().loc;
    auto s = make<StarredExpr>(loc);
    s->value = bitor_expr();
    return finish(std::move(s));
  };
  ExprPtr first = one();
  if (!at(Tok::Comma)) return first;
  auto t = make<TupleExpr>(first->loc);
  t->elts.push_back(std::move(first));
  while (accept(Tok::Comma)) {
    if (at(Tok::KwIn) || at(Tok::Assign) || at(Tok::Colon)) break;
    t->elts.push_back(one());
  }
  return finish(std::move(t));
}

ExprPtr Parser::atom() {
  const Token& t = cur();
  switch (t.kind) {
    case Tok::Name: {
      auto n = make<NameExpr>(t.loc);
      n->id = std::string(t.text);
      advance();
      return finish(std::move(n));
    }
    case Tok::Int: {
      auto n = make<IntExpr>(t.loc);
      n->value = t.int_value;
      n->overflow = t.int_overflow;
      n->text = std::string(t.text);
      advance();
      return finish(std::move(n));
    }
    case Tok::Float: {
      auto n = make<FloatExpr>(t.loc);
      n->value = t.float_value;
      n->text = std::string(t.text);
      advance();
      return finish(std::move(n));
    }
    case Tok::Imag: error(t, "complex (imaginary) literals are not supported");
    case Tok::String: return strings();
    case Tok::KwTrue:
    case Tok::KwFalse: {
      auto n = make<BoolExpr>(t.loc);
      n->value = t.kind == Tok::KwTrue;
      advance();
      return finish(std::move(n));
    }
    case Tok::KwNone: advance(); return finish(make<NoneExpr>(t.loc));
    case Tok::Ellipsis: advance(); return finish(make<EllipsisExpr>(t.loc));
    case Tok::LParen: return paren_atom();
    case Tok::LBracket: return bracket_atom();
    case Tok::LBrace: return brace_atom();
    case Tok::Error: error(t, t.str);
    default: unexpected();
  }
}

ExprPtr Parser::strings() {
  const Token& first = cur();
  bool bytes = first.is_bytes, fstr = false;
  std::string value;
  while (at(Tok::String)) {
    const Token& t = advance();
    if (t.is_bytes != bytes) error(t, "cannot mix bytes and nonbytes literals");
    fstr = fstr || t.is_fstring;
    value += t.str;
  }
  if (bytes) {
    auto b = make<BytesExpr>(first.loc);
    b->value = std::move(value);
    return finish(std::move(b));
  }
  auto s = make<StrExpr>(first.loc);
  s->value = std::move(value);
  s->is_fstring = fstr;
  return finish(std::move(s));
}

ExprPtr Parser::paren_atom() {
  SrcLoc loc = expect(Tok::LParen).loc;
  if (accept(Tok::RParen)) return finish(make<TupleExpr>(loc));
  if (at(Tok::KwYield)) {
    ExprPtr y = yield_expression();
    expect(Tok::RParen);
    return y;
  }
  ExprPtr first = star_named_expression();
  if (at(Tok::KwFor) || (at(Tok::KwAsync) && peek().kind == Tok::KwFor)) {
    if (first->is<StarredExpr>()) error_at(first->loc, "iterable unpacking cannot be used in comprehension");
    auto g = make<GeneratorExpr>(loc);
    g->elt = std::move(first);
    g->generators = comprehension_clauses();
    expect(Tok::RParen);
    return finish(std::move(g));
  }
  if (accept(Tok::RParen)) {
    if (first->is<StarredExpr>()) error_at(first->loc, "cannot use starred expression here");
    return first;  // parenthesized expression
  }
  auto t = make<TupleExpr>(loc);
  t->elts.push_back(std::move(first));
  while (accept(Tok::Comma)) {
    if (at(Tok::RParen)) break;
    t->elts.push_back(star_named_expression());
  }
  expect(Tok::RParen);
  return finish(std::move(t));
}

ExprPtr Parser::bracket_atom() {
  SrcLoc loc = expect(Tok::LBracket).loc;
  auto l = make<ListExpr>(loc);
  if (accept(Tok::RBracket)) return finish(std::move(l));
  ExprPtr first = star_named_expression();
  if (at(Tok::KwFor) || (at(Tok::KwAsync) && peek().kind == Tok::KwFor)) {
    if (first->is<StarredExpr>()) error_at(first->loc, "iterable unpacking cannot be used in comprehension");
    auto c = make<ListCompExpr>(loc);
    c->elt = std::move(first);
    c->generators = comprehension_clauses();
    expect(Tok::RBracket);
    return finish(std::move(c));
  }
  l->elts.push_back(std::move(first));
  while (accept(Tok::Comma)) {
    if (at(Tok::RBracket)) break;
    l->elts.push_back(star_named_expression());
  }
  expect(Tok::RBracket);
  return finish(std::move(l));
}

ExprPtr Parser::brace_atom() {
  SrcLoc loc = expect(Tok::LBrace).loc;
  if (accept(Tok::RBrace)) return finish(make<DictExpr>(loc));
  bool is_dict = at(Tok::DoubleStar);
  ExprPtr first_key, first_value;
  if (is_dict) {
    advance();
    first_value = bitor_expr();
  } else {
    first_key = star_named_expression();
    if (at(Tok::Colon)) {
      if (first_key->is<StarredExpr>()) error_at(first_key->loc, "cannot use a starred expression in a dictionary key");
      is_dict = true;
      advance();
      first_value = expression();
    }
  }
  bool comp = at(Tok::KwFor) || (at(Tok::KwAsync) && peek().kind == Tok::KwFor);
  if (is_dict) {
    if (comp) {
      if (!first_key) error(cur(), "dict unpacking cannot be used in dict comprehension");
      auto c = make<DictCompExpr>(loc);
      c->key = std::move(first_key);
      c->value = std::move(first_value);
      c->generators = comprehension_clauses();
      expect(Tok::RBrace);
      return finish(std::move(c));
    }
    auto d = make<DictExpr>(loc);
    d->keys.push_back(std::move(first_key));
    d->values.push_back(std::move(first_value));
    while (accept(Tok::Comma)) {
      if (at(Tok::RBrace)) break;
      if (accept(Tok::DoubleStar)) {
        d->keys.push_back(nullptr);
        d->values.push_back(bitor_expr());
      } else {
        d->keys.push_back(expression());
        expect(Tok::Colon);
        d->values.push_back(expression());
      }
    }
    expect(Tok::RBrace);
    return finish(std::move(d));
  }
  if (comp) {
    if (first_key->is<StarredExpr>()) error_at(first_key->loc, "iterable unpacking cannot be used in comprehension");
    auto c = make<SetCompExpr>(loc);
    c->elt = std::move(first_key);
    c->generators = comprehension_clauses();
    expect(Tok::RBrace);
    return finish(std::move(c));
  }
  auto s = make<SetExpr>(loc);
  s->elts.push_back(std::move(first_key));
  while (accept(Tok::Comma)) {
    if (at(Tok::RBrace)) break;
    s->elts.push_back(star_named_expression());
  }
  expect(Tok::RBrace);
  return finish(std::move(s));
}

ExprPtr Parser::lambda_expr() {
  SrcLoc loc = expect(Tok::KwLambda).loc;
  auto l = make<LambdaExpr>(loc);
  l->params = parameters(true);
  expect(Tok::Colon);
  l->body = expression();
  return finish(std::move(l));
}

std::vector<Param> Parser::parameters(bool is_lambda) {
  std::vector<Param> ps;
  Tok closer = is_lambda ? Tok::Colon : Tok::RParen;
  bool kw_only = false, seen_default = false, seen_slash = false, seen_kwargs = false;
  auto check_dup = [&](const Token& name) {
    for (const Param& p : ps)
      if (p.name == name.text) error(name, "duplicate argument '" + std::string(name.text) + "' in function definition");
  };
  while (!at(closer)) {
    if (seen_kwargs) error(cur(), "arguments cannot follow var-keyword argument");
    const Token& t = cur();
    if (t.kind == Tok::Slash) {
      if (seen_slash) error(t, "/ may appear only once");
      if (kw_only) error(t, "/ must be ahead of *");
      if (ps.empty()) error(t, "at least one argument must precede /");
      advance();
      seen_slash = true;
      for (Param& p : ps) p.kind = ParamKind::PositionalOnly;
    } else if (t.kind == Tok::Star || t.kind == Tok::DoubleStar) {
      bool dbl = t.kind == Tok::DoubleStar;
      if (!dbl && kw_only) error(t, "* argument may appear only once");
      advance();
      if (!dbl && (at(Tok::Comma) || at(closer))) {  // bare '*'
        if (at(closer)) error(t, "named arguments must follow bare *");
        kw_only = true;
      } else {
        const Token& name = expect(Tok::Name);
        check_dup(name);
        Param p;
        p.name = std::string(name.text);
        p.loc = name.loc;
        p.kind = dbl ? ParamKind::VarKwargs : ParamKind::VarArgs;
        if (!is_lambda && accept(Tok::Colon)) p.annotation = at(Tok::Star) ? star_expression() : expression();
        if (at(Tok::Assign)) error(cur(), dbl ? "var-keyword argument cannot have default value"
                                               : "var-positional argument cannot have default value");
        ps.push_back(std::move(p));
        if (dbl) seen_kwargs = true; else kw_only = true;
      }
    } else {
      const Token& name = expect(Tok::Name);
      check_dup(name);
      Param p;
      p.name = std::string(name.text);
      p.loc = name.loc;
      p.kind = kw_only ? ParamKind::KeywordOnly : ParamKind::Normal;
      if (!is_lambda && accept(Tok::Colon)) p.annotation = expression();
      if (accept(Tok::Assign)) {
        p.default_value = expression();
        if (!kw_only) seen_default = true;
      } else if (seen_default && !kw_only) {
        error(name, "non-default argument follows default argument");
      }
      ps.push_back(std::move(p));
    }
    if (!accept(Tok::Comma)) break;
  }
  if (!is_lambda) expect(Tok::RParen);
  return ps;
}

}  // namespace tritium::frontend::detail
