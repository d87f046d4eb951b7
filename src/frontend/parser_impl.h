// Private: the recursive-descent parser shared by parser.cpp (module level and top-level
// recovery), parser_stmt.cpp (statements) and parser_expr.cpp (expressions).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "frontend/lexer.h"
#include "frontend/source.h"

namespace tritium::frontend::detail {

/// Recursive-descent parser over a token vector. Every parse_* method throws CompileError on a
/// syntax error; recovery happens only in parse_module (parser.cpp).
class Parser {
 public:
  /// Tokenizes `src` (throws on fatal tokenization errors).
  explicit Parser(SourceRef src);

  /// Lenient module parse (see parser.h).
  Module parse_module();
  /// Strict parse of all statements up to the end of file.
  StmtList parse_all_statements();
  /// Strict parse of a single expression filling the whole input.
  ExprPtr parse_whole_expression();

  // ---- token access ------------------------------------------------------------------------
  /// The current (not yet consumed) token.
  const Token& cur() const { return toks_[pos_]; }
  /// The token `k` positions ahead (clamped to EndMarker).
  const Token& peek(size_t k = 1) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  /// True when the current token has kind `k`.
  bool at(Tok k) const { return cur().kind == k; }
  /// True when the current token is the identifier `id` (for soft keywords).
  bool at_name(std::string_view id) const { return at(Tok::Name) && cur().text == id; }
  /// Consumes the current token if it is `k`.
  bool accept(Tok k);
  /// Consumes the current token, which must be `k`, else throws "expected ...".
  const Token& expect(Tok k);
  /// Consumes and returns the current token (never moves past EndMarker).
  const Token& advance();
  /// End offset of the last consumed token that is not NEWLINE/INDENT/DEDENT.
  uint32_t prev_end() const;
  /// Throws a CompileError at token `t`.
  [[noreturn]] void error(const Token& t, const std::string& msg) const;
  /// Throws a CompileError at `loc`.
  [[noreturn]] void error_at(SrcLoc loc, const std::string& msg) const;
  /// Throws the standard "invalid syntax" style error for the current token.
  [[noreturn]] void unexpected() const;

  /// Allocates a node of type T starting at `loc`.
  template <class T>
  std::unique_ptr<T> make(SrcLoc loc) { return std::make_unique<T>(loc); }
  /// Sets the node's end_offset to the end of the last consumed token and returns it.
  template <class T>
  std::unique_ptr<T> finish(std::unique_ptr<T> n) { n->end_offset = prev_end(); return n; }

  // ---- expressions (parser_expr.cpp) -------------------------------------------------------
  bool starts_expression(Tok k) const;
  ExprPtr expression();             ///< test: lambda | disjunction ['if' disjunction 'else' expression]
  ExprPtr named_expression();       ///< expression [':=' expression] (target must be a name)
  ExprPtr star_named_expression();  ///< '*' bitor | named_expression
  ExprPtr star_expression();        ///< '*' bitor | expression
  ExprPtr star_expressions();       ///< star_expression (',' star_expression)* [','] → Tuple if comma
  ExprPtr yield_expression();       ///< 'yield' ['from' expression | star_expressions]
  // One method per precedence level, loosest first (Python's grammar names).
  ExprPtr disjunction();
  ExprPtr conjunction();
  ExprPtr inversion();
  ExprPtr comparison();
  ExprPtr bitor_expr();
  ExprPtr bitxor_expr();
  ExprPtr bitand_expr();
  ExprPtr shift_expr();
  ExprPtr sum_expr();
  ExprPtr term();
  ExprPtr factor();
  ExprPtr power();
  ExprPtr await_primary();
  ExprPtr primary();
  ExprPtr atom();
  ExprPtr strings();  ///< adjacent string literals, concatenated
  ExprPtr paren_atom();
  ExprPtr bracket_atom();
  ExprPtr brace_atom();
  ExprPtr lambda_expr();
  ExprPtr slices();
  ExprPtr slice_item();
  /// Parses call arguments after '(' up to and including ')'.
  void call_arguments(ExprList& args, std::vector<Keyword>& keywords, bool allow_genexp);
  /// Parses `for ... in ... if ...` clauses (at least one).
  std::vector<Comprehension> comprehension_clauses();
  /// Target list for `for` / comprehensions: star_target (',' star_target)* → Tuple if comma.
  ExprPtr target_list();
  /// Parameters of a def (after '(' up to and including ')') or lambda (up to ':').
  std::vector<Param> parameters(bool is_lambda);

  // ---- target validation -------------------------------------------------------------------
  /// Checks that `e` can be assigned to (Name/Attribute/Subscript/Tuple/List/Starred).
  void check_assign_target(const Expr& e, const char* context) const;
  /// Checks a single (non-tuple) target for augmented / annotated assignment.
  void check_single_target(const Expr& e, const char* context) const;
  /// Checks a `del` target.
  void check_del_target(const Expr& e) const;

  // ---- statements (parser_stmt.cpp) --------------------------------------------------------
  /// Parses one statement line (compound statement or `;`-separated simple statements).
  void statement(StmtList& out);
  /// Parses simple statements up to and including NEWLINE.
  void simple_statements(StmtList& out);
  StmtPtr simple_statement();
  /// Expression statement or (annotated / augmented / chained) assignment.
  StmtPtr expression_statement();
  StmtPtr import_statement();
  StmtPtr from_import_statement();
  /// Parses a block after ':' — an indented suite or simple statements on the same line.
  StmtList block();
  StmtPtr if_statement(bool is_elif);
  StmtPtr for_statement(SrcLoc start, bool is_async);
  StmtPtr while_statement();
  StmtPtr with_statement(SrcLoc start, bool is_async);
  StmtPtr try_statement();
  /// Parses `@expr NEWLINE` lines (possibly none).
  ExprList decorators();
  /// Parses `[async] def ...` after the decorators. With `recover`, a body that fails to
  /// parse is recorded in parse_error and skipped instead of throwing.
  std::unique_ptr<FunctionDef> function_def(ExprList decos, SrcLoc start, bool recover);
  StmtPtr class_def(ExprList decos, SrcLoc start);
  /// Parses NAME ('.' NAME)*.
  std::string dotted_name();

  // ---- recovery (parser.cpp) ---------------------------------------------------------------
  /// Index just past the logical statement starting at token index `i` (including its
  /// indented block, decorator lines and elif/else/except/finally clauses).
  size_t skip_statement(size_t i) const;
  /// Index just past the INDENT ... DEDENT block starting at token index `i` (an INDENT).
  size_t skip_block(size_t i) const;

  /// RAII recursion guard for the expression parser: unary / `not` / lambda chains are not
  /// bounded by the lexer's bracket limit, so nesting deeper than kMaxDepth is an error.
  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& parser);
    ~DepthGuard() { --p.depth_; }
  };
  /// The same bound for chains the parser builds in a loop, each link one level deeper in
  /// the tree (`a.b.c...`, `f()()`, `x[0][0]`, `a + b + c ...`): the code generator
  /// recurses along them (2000 attributes overflowed an ASan build's 8 MiB stack). link()
  /// adds a level, the destructor gives the chain's levels back.
  struct ChainGuard {
    Parser& p;
    int links = 0;
    explicit ChainGuard(Parser& parser) : p(parser) {}
    void link();
    ~ChainGuard() { p.depth_ -= links; }
  };
  static constexpr int kMaxDepth = 400;
  /// `if` statements nested in one another, each `elif` one level deeper (see if_statement).
  static constexpr int kMaxIfDepth = 200;
  int if_depth_ = 0;

  SourceRef src_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace tritium::frontend::detail
