// The abstract syntax tree of tritium's Python-subset front end.
//
// Shape: two node families, Expr and Stmt. Each node is a struct derived from the family base,
// which holds a `kind` enum (switch on it), the start location `loc` and the byte offset
// `end_offset` just past the node's last token. Downcast with `e.as<CallExpr>()` (checked
// with assert) or `e.dyn<CallExpr>()` (nullptr on mismatch):
//
//   switch (e.kind) {
//     case ExprKind::BinOp: { const auto& b = e.as<BinaryExpr>(); visit(*b.lhs); ... }
//     case ExprKind::Call:  { const auto& c = e.as<CallExpr>(); for (auto& a : c.args) ... }
//   }
//
// Children are owned through std::unique_ptr (ExprPtr / StmtPtr); optional children are null.
// Nodes are allocated individually, so raw pointers to nodes stay valid when a Module moves.
//
// Conventions (close to Python's `ast` module):
//  - `a < b < c` is one CompareExpr {left=a, ops={Lt,Lt}, comparators={b,c}}.
//  - `a and b and c` is one BoolOpExpr with three values.
//  - elif chains: IfStmt::orelse holds a single nested IfStmt (with is_elif = true).
//  - Subscript index: `x[i]` → index = i; `x[i, j]` → index = TupleExpr; `x[a:b]` → SliceExpr.
//  - `**kw` in a call is a Keyword with an empty `name`; `*a` in a call is a StarredExpr arg.
//  - `{**d}` in a dict literal is a null key with value d.
//  - Adjacent string literals are concatenated into one StrExpr / BytesExpr.
//  - f-strings are kept opaque: StrExpr with is_fstring = true and `value` = the raw text
//    between the quotes (escapes not processed).
//  - Imaginary literals are refused by the parser (CompileError).
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/source.h"

namespace tritium::frontend {

// ------------------------------------------------------------------------------------------
// Operators
// ------------------------------------------------------------------------------------------

/// Binary arithmetic / bitwise operators (also used by augmented assignment).
enum class BinOp : uint8_t {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, LShift, RShift, BitAnd, BitOr, BitXor
};
/// Unary operators: `+x`, `-x`, `~x`, `not x`.
enum class UnaryOp : uint8_t { UAdd, USub, Invert, Not };
/// Short-circuit boolean operators.
enum class BoolOp : uint8_t { And, Or };
/// Comparison operators.
enum class CmpOp : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

/// Python spelling of a binary operator ("+", "//", "**", "@", ...).
const char* to_string(BinOp op);
/// Python spelling of a unary operator ("+", "-", "~", "not").
const char* to_string(UnaryOp op);
/// "and" / "or".
const char* to_string(BoolOp op);
/// Python spelling of a comparison ("<", "is not", "not in", ...).
const char* to_string(CmpOp op);

// ------------------------------------------------------------------------------------------
// Expressions
// ------------------------------------------------------------------------------------------

/// Every expression node kind; each maps to exactly one struct below (see the comments).
enum class ExprKind : uint8_t {
  Name,          // NameExpr
  Int,           // IntExpr
  Float,         // FloatExpr
  Str,           // StrExpr
  Bytes,         // BytesExpr
  Bool,          // BoolExpr
  None,          // NoneExpr
  Ellipsis,      // EllipsisExpr
  Attribute,     // AttributeExpr
  Subscript,     // SubscriptExpr
  Slice,         // SliceExpr (only as a subscript index or inside its tuple)
  Call,          // CallExpr
  BinOp,         // BinaryExpr
  UnaryOp,       // UnaryExpr
  BoolOp,        // BoolOpExpr
  Compare,       // CompareExpr
  IfExp,         // IfExpExpr   (a if c else b)
  Lambda,        // LambdaExpr
  Tuple,         // TupleExpr
  List,          // ListExpr
  Set,           // SetExpr
  Dict,          // DictExpr
  ListComp,      // ListCompExpr
  SetComp,       // SetCompExpr
  GeneratorExp,  // GeneratorExpr
  DictComp,      // DictCompExpr
  Starred,       // StarredExpr (*x)
  NamedExpr,     // NamedExpr   (x := v)
  Await,         // AwaitExpr
  Yield,         // YieldExpr
  YieldFrom,     // YieldFromExpr
};

/// Name of an expression kind ("Name", "Call", ...), for diagnostics.
const char* to_string(ExprKind k);

struct Expr;
struct Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using ExprList = std::vector<ExprPtr>;
using StmtList = std::vector<StmtPtr>;

/// Base of all expression nodes.
struct Expr {
  ExprKind kind;
  SrcLoc loc;               ///< Location of the first token of the expression.
  uint32_t end_offset = 0;  ///< Byte offset just past the last token.

  Expr(ExprKind k, SrcLoc l) : kind(k), loc(l) {}
  virtual ~Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;

  /// Checked downcast (asserts that the kind matches T).
  template <class T> T& as() { assert(T::classof(kind)); return static_cast<T&>(*this); }
  /// Checked downcast (asserts that the kind matches T).
  template <class T> const T& as() const { assert(T::classof(kind)); return static_cast<const T&>(*this); }
  /// Downcast returning nullptr when the kind does not match T.
  template <class T> T* dyn() { return T::classof(kind) ? static_cast<T*>(this) : nullptr; }
  /// Downcast returning nullptr when the kind does not match T.
  template <class T> const T* dyn() const { return T::classof(kind) ? static_cast<const T*>(this) : nullptr; }
  /// True when this node is a T.
  template <class T> bool is() const { return T::classof(kind); }
};

/// Helper base binding a struct to one ExprKind.
template <ExprKind K>
struct ExprOf : Expr {
  static constexpr ExprKind kKind = K;
  static constexpr bool classof(ExprKind k) { return k == K; }
  explicit ExprOf(SrcLoc l) : Expr(K, l) {}
};

/// An identifier: `x`, `tl`.
struct NameExpr : ExprOf<ExprKind::Name> {
  using ExprOf::ExprOf;
  std::string id;
};

/// An integer literal (always non-negative; `-1` is UnaryExpr(USub, 1)).
struct IntExpr : ExprOf<ExprKind::Int> {
  using ExprOf::ExprOf;
  uint64_t value = 0;    ///< The value, when !overflow.
  bool overflow = false; ///< True when the literal does not fit in uint64.
  std::string text;      ///< Original spelling, e.g. "0xFF", "1_000".
};

/// A floating-point literal, parsed as double.
struct FloatExpr : ExprOf<ExprKind::Float> {
  using ExprOf::ExprOf;
  double value = 0.0;
  std::string text;  ///< Original spelling.
};

/// A string literal (possibly several adjacent ones concatenated).
struct StrExpr : ExprOf<ExprKind::Str> {
  using ExprOf::ExprOf;
  std::string value;        ///< Decoded UTF-8 value (raw body text for f-strings).
  bool is_fstring = false;  ///< Some part was an f-string; `value` is then not decoded.
};

/// A bytes literal (b"...").
struct BytesExpr : ExprOf<ExprKind::Bytes> {
  using ExprOf::ExprOf;
  std::string value;  ///< Decoded bytes.
};

/// `True` / `False`.
struct BoolExpr : ExprOf<ExprKind::Bool> {
  using ExprOf::ExprOf;
  bool value = false;
};

/// `None`.
struct NoneExpr : ExprOf<ExprKind::None> { using ExprOf::ExprOf; };
/// `...`.
struct EllipsisExpr : ExprOf<ExprKind::Ellipsis> { using ExprOf::ExprOf; };

/// `value.attr`.
struct AttributeExpr : ExprOf<ExprKind::Attribute> {
  using ExprOf::ExprOf;
  ExprPtr value;
  std::string attr;
  SrcLoc attr_loc;  ///< Location of the attribute name.
};

/// `value[index]`; several indices form a TupleExpr, slices are SliceExpr.
struct SubscriptExpr : ExprOf<ExprKind::Subscript> {
  using ExprOf::ExprOf;
  ExprPtr value;
  ExprPtr index;
};

/// `lower:upper:step` inside a subscript; each part may be null.
struct SliceExpr : ExprOf<ExprKind::Slice> {
  using ExprOf::ExprOf;
  ExprPtr lower, upper, step;
};

/// A keyword argument `name=value`; `**value` when `name` is empty.
struct Keyword {
  std::string name;
  ExprPtr value;
  SrcLoc loc;
};

/// `func(args..., keywords...)`. Positional `*x` appears in args as StarredExpr.
struct CallExpr : ExprOf<ExprKind::Call> {
  using ExprOf::ExprOf;
  ExprPtr func;
  ExprList args;
  std::vector<Keyword> keywords;
};

/// `lhs op rhs`.
struct BinaryExpr : ExprOf<ExprKind::BinOp> {
  using ExprOf::ExprOf;
  BinOp op = BinOp::Add;
  ExprPtr lhs, rhs;
  SrcLoc op_loc;  ///< Location of the operator token.
};

/// `op operand`.
struct UnaryExpr : ExprOf<ExprKind::UnaryOp> {
  using ExprOf::ExprOf;
  UnaryOp op = UnaryOp::USub;
  ExprPtr operand;
};

/// `v0 and v1 and ...` (≥ 2 values, all with the same op).
struct BoolOpExpr : ExprOf<ExprKind::BoolOp> {
  using ExprOf::ExprOf;
  BoolOp op = BoolOp::And;
  ExprList values;
};

/// `left op0 c0 op1 c1 ...`; ops.size() == comparators.size() ≥ 1.
struct CompareExpr : ExprOf<ExprKind::Compare> {
  using ExprOf::ExprOf;
  ExprPtr left;
  std::vector<CmpOp> ops;
  ExprList comparators;
  std::vector<SrcLoc> op_locs;  ///< Location of each operator token.
};

/// `body if test else orelse`.
struct IfExpExpr : ExprOf<ExprKind::IfExp> {
  using ExprOf::ExprOf;
  ExprPtr test, body, orelse;
};

/// Kind of a function / lambda parameter.
enum class ParamKind : uint8_t {
  PositionalOnly,  ///< before `/`
  Normal,          ///< positional-or-keyword
  VarArgs,         ///< *args
  KeywordOnly,     ///< after `*` or `*args`
  VarKwargs,       ///< **kwargs
};

/// One parameter of a def or lambda.
struct Param {
  std::string name;
  ExprPtr annotation;     ///< null if none (always null for lambdas)
  ExprPtr default_value;  ///< null if none
  ParamKind kind = ParamKind::Normal;
  SrcLoc loc;
};

/// `lambda params: body`.
struct LambdaExpr : ExprOf<ExprKind::Lambda> {
  using ExprOf::ExprOf;
  std::vector<Param> params;
  ExprPtr body;
};

/// Tuple / list / set displays share one layout.
template <ExprKind K>
struct SequenceExprOf : ExprOf<K> {
  using ExprOf<K>::ExprOf;
  ExprList elts;
};
/// `(a, b)` or `a, b` (also used for multi-index subscripts and tuple targets).
using TupleExpr = SequenceExprOf<ExprKind::Tuple>;
/// `[a, b]`.
using ListExpr = SequenceExprOf<ExprKind::List>;
/// `{a, b}`.
using SetExpr = SequenceExprOf<ExprKind::Set>;

/// `{k: v, **d}`; keys[i] is null for a `**d` entry.
struct DictExpr : ExprOf<ExprKind::Dict> {
  using ExprOf::ExprOf;
  ExprList keys;
  ExprList values;
};

/// One `for target in iter if cond...` clause of a comprehension.
struct Comprehension {
  ExprPtr target;
  ExprPtr iter;
  ExprList ifs;
  bool is_async = false;
  SrcLoc loc;
};

/// List/set comprehensions and generator expressions share one layout.
template <ExprKind K>
struct CompExprOf : ExprOf<K> {
  using ExprOf<K>::ExprOf;
  ExprPtr elt;
  std::vector<Comprehension> generators;
};
/// `[elt for ...]`.
using ListCompExpr = CompExprOf<ExprKind::ListComp>;
/// `{elt for ...}`.
using SetCompExpr = CompExprOf<ExprKind::SetComp>;
/// `(elt for ...)`.
using GeneratorExpr = CompExprOf<ExprKind::GeneratorExp>;

/// `{key: value for ...}`.
struct DictCompExpr : ExprOf<ExprKind::DictComp> {
  using ExprOf::ExprOf;
  ExprPtr key, value;
  std::vector<Comprehension> generators;
};

/// `*value` (in calls, displays, targets).
struct StarredExpr : ExprOf<ExprKind::Starred> {
  using ExprOf::ExprOf;
  ExprPtr value;
};

/// `target := value`.
struct NamedExpr : ExprOf<ExprKind::NamedExpr> {
  using ExprOf::ExprOf;
  ExprPtr target;  ///< always a NameExpr
  ExprPtr value;
};

/// `await value`.
struct AwaitExpr : ExprOf<ExprKind::Await> {
  using ExprOf::ExprOf;
  ExprPtr value;
};

/// `yield` / `yield value`.
struct YieldExpr : ExprOf<ExprKind::Yield> {
  using ExprOf::ExprOf;
  ExprPtr value;  ///< may be null
};

/// `yield from value`.
struct YieldFromExpr : ExprOf<ExprKind::YieldFrom> {
  using ExprOf::ExprOf;
  ExprPtr value;
};

// ------------------------------------------------------------------------------------------
// Statements
// ------------------------------------------------------------------------------------------

/// Every statement node kind; each maps to exactly one struct below.
enum class StmtKind : uint8_t {
  Expr,         // ExprStmt
  Assign,       // AssignStmt
  AnnAssign,    // AnnAssignStmt
  AugAssign,    // AugAssignStmt
  If,           // IfStmt
  For,          // ForStmt
  While,        // WhileStmt
  Break,        // BreakStmt
  Continue,     // ContinueStmt
  Pass,         // PassStmt
  Return,       // ReturnStmt
  Assert,       // AssertStmt
  FunctionDef,  // FunctionDef
  ClassDef,     // ClassDef (only inside function bodies; top-level classes are Skipped)
  With,         // WithStmt
  Global,       // GlobalStmt
  Nonlocal,     // NonlocalStmt
  Delete,       // DeleteStmt
  Raise,        // RaiseStmt
  Try,          // TryStmt
  Import,       // ImportStmt
  ImportFrom,   // ImportFromStmt
  Skipped,      // SkippedStmt (top level only)
};

/// Name of a statement kind ("Assign", "For", ...), for diagnostics.
const char* to_string(StmtKind k);

/// Base of all statement nodes.
struct Stmt {
  StmtKind kind;
  SrcLoc loc;               ///< Location of the first token (the first decorator for defs).
  uint32_t end_offset = 0;  ///< Byte offset just past the last token of the statement.

  Stmt(StmtKind k, SrcLoc l) : kind(k), loc(l) {}
  virtual ~Stmt() = default;
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  /// Checked downcast (asserts that the kind matches T).
  template <class T> T& as() { assert(T::classof(kind)); return static_cast<T&>(*this); }
  /// Checked downcast (asserts that the kind matches T).
  template <class T> const T& as() const { assert(T::classof(kind)); return static_cast<const T&>(*this); }
  /// Downcast returning nullptr when the kind does not match T.
  template <class T> T* dyn() { return T::classof(kind) ? static_cast<T*>(this) : nullptr; }
  /// Downcast returning nullptr when the kind does not match T.
  template <class T> const T* dyn() const { return T::classof(kind) ? static_cast<const T*>(this) : nullptr; }
  /// True when this node is a T.
  template <class T> bool is() const { return T::classof(kind); }
};

/// Helper base binding a struct to one StmtKind.
template <StmtKind K>
struct StmtOf : Stmt {
  static constexpr StmtKind kKind = K;
  static constexpr bool classof(StmtKind k) { return k == K; }
  explicit StmtOf(SrcLoc l) : Stmt(K, l) {}
};

/// An expression evaluated for its effect (also docstrings).
struct ExprStmt : StmtOf<StmtKind::Expr> {
  using StmtOf::StmtOf;
  ExprPtr value;
};

/// `t0 = t1 = ... = value`. Targets are Name, Attribute, Subscript, Starred, Tuple or List.
struct AssignStmt : StmtOf<StmtKind::Assign> {
  using StmtOf::StmtOf;
  ExprList targets;  ///< ≥ 1, in source order
  ExprPtr value;
};

/// `target: annotation [= value]`.
struct AnnAssignStmt : StmtOf<StmtKind::AnnAssign> {
  using StmtOf::StmtOf;
  ExprPtr target;
  ExprPtr annotation;
  ExprPtr value;       ///< may be null
  bool simple = true;  ///< target is a bare name (not parenthesized / attribute / subscript)
};

/// `target op= value`.
struct AugAssignStmt : StmtOf<StmtKind::AugAssign> {
  using StmtOf::StmtOf;
  ExprPtr target;
  BinOp op = BinOp::Add;
  ExprPtr value;
};

/// `if test: body else: orelse`; an `elif` is a nested IfStmt (is_elif) alone in orelse.
struct IfStmt : StmtOf<StmtKind::If> {
  using StmtOf::StmtOf;
  ExprPtr test;
  StmtList body;
  StmtList orelse;
  bool is_elif = false;  ///< this IfStmt was written as `elif`
};

/// `for target in iter: body else: orelse`.
struct ForStmt : StmtOf<StmtKind::For> {
  using StmtOf::StmtOf;
  ExprPtr target;
  ExprPtr iter;
  StmtList body;
  StmtList orelse;
  bool is_async = false;
};

/// `while test: body else: orelse`.
struct WhileStmt : StmtOf<StmtKind::While> {
  using StmtOf::StmtOf;
  ExprPtr test;
  StmtList body;
  StmtList orelse;
};

/// `break`.
struct BreakStmt : StmtOf<StmtKind::Break> { using StmtOf::StmtOf; };
/// `continue`.
struct ContinueStmt : StmtOf<StmtKind::Continue> { using StmtOf::StmtOf; };
/// `pass`.
struct PassStmt : StmtOf<StmtKind::Pass> { using StmtOf::StmtOf; };

/// `return [value]`; `return a, b` has a TupleExpr value.
struct ReturnStmt : StmtOf<StmtKind::Return> {
  using StmtOf::StmtOf;
  ExprPtr value;  ///< may be null
};

/// `assert test [, msg]`.
struct AssertStmt : StmtOf<StmtKind::Assert> {
  using StmtOf::StmtOf;
  ExprPtr test;
  ExprPtr msg;  ///< may be null
};

/// A parse failure recorded instead of thrown (see FunctionDef::parse_error).
struct ParseError {
  std::string message;
  SrcLoc loc;
};

/// `[decorators] [async] def name(params) [-> returns]: body`.
///
/// At the top level every def is recorded, even when its body does not parse: then
/// `parse_error` is set (body/params may be partial or empty) and the error should be raised
/// (CompileError(parse_error->loc, parse_error->message)) only if the function is used.
struct FunctionDef : StmtOf<StmtKind::FunctionDef> {
  using StmtOf::StmtOf;
  std::string name;
  SrcLoc name_loc;        ///< location of the function name
  SrcLoc def_loc;         ///< location of the `def` (or `async`) keyword
  ExprList decorators;    ///< full decorator expressions, in source order
  std::vector<Param> params;
  ExprPtr returns;        ///< return annotation, may be null
  StmtList body;
  bool is_async = false;
  std::optional<ParseError> parse_error;
  /// Byte range [src_begin, src_end) of the whole definition, decorators included; use it to
  /// hash a function's source for caching.
  uint32_t src_begin = 0, src_end = 0;

  /// The source text of the whole definition (decorators included); empty if loc.file is null.
  std::string_view source_text() const;
  /// The docstring (first statement is a plain string literal), or nullptr.
  const StrExpr* docstring() const;
};

/// `[decorators] class name(bases, keywords): body` (inside function bodies only).
struct ClassDef : StmtOf<StmtKind::ClassDef> {
  using StmtOf::StmtOf;
  std::string name;
  ExprList decorators;
  ExprList bases;
  std::vector<Keyword> keywords;
  StmtList body;
};

/// One `expr [as target]` of a with statement.
struct WithItem {
  ExprPtr context_expr;
  ExprPtr optional_vars;  ///< may be null
};

/// `with a as b, c: body`.
struct WithStmt : StmtOf<StmtKind::With> {
  using StmtOf::StmtOf;
  std::vector<WithItem> items;
  StmtList body;
  bool is_async = false;
};

/// `global` / `nonlocal` share one layout.
template <StmtKind K>
struct NamesStmtOf : StmtOf<K> {
  using StmtOf<K>::StmtOf;
  std::vector<std::string> names;
};
/// `global a, b`.
using GlobalStmt = NamesStmtOf<StmtKind::Global>;
/// `nonlocal a, b`.
using NonlocalStmt = NamesStmtOf<StmtKind::Nonlocal>;

/// `del a, b[i]`.
struct DeleteStmt : StmtOf<StmtKind::Delete> {
  using StmtOf::StmtOf;
  ExprList targets;
};

/// `raise [exc [from cause]]`.
struct RaiseStmt : StmtOf<StmtKind::Raise> {
  using StmtOf::StmtOf;
  ExprPtr exc;    ///< may be null
  ExprPtr cause;  ///< may be null
};

/// One `except [type [as name]]: body` clause.
struct ExceptHandler {
  ExprPtr type;      ///< may be null (bare except)
  std::string name;  ///< empty if no `as`
  StmtList body;
  bool is_star = false;  ///< `except*`
  SrcLoc loc;
};

/// `try: body except...: else: finally:`.
struct TryStmt : StmtOf<StmtKind::Try> {
  using StmtOf::StmtOf;
  StmtList body;
  std::vector<ExceptHandler> handlers;
  StmtList orelse;
  StmtList finalbody;
};

/// A dotted name with an optional alias, as in `import a.b as c` (asname empty when absent).
struct Alias {
  std::string name;
  std::string asname;
  SrcLoc loc;
  /// The name `import name [as asname]` binds: asname, else the first component of name.
  std::string import_bound() const { return asname.empty() ? name.substr(0, name.find('.')) : asname; }
  /// The name `from M import name [as asname]` binds.
  const std::string& from_bound() const { return asname.empty() ? name : asname; }
};

/// `import a.b as c, d`.
struct ImportStmt : StmtOf<StmtKind::Import> {
  using StmtOf::StmtOf;
  std::vector<Alias> names;
};

/// `from .module import a as b, c` (`names` = {"*"} for a star import).
struct ImportFromStmt : StmtOf<StmtKind::ImportFrom> {
  using StmtOf::StmtOf;
  std::string module;  ///< dotted module name without the leading dots; may be empty
  int level = 0;       ///< number of leading dots
  std::vector<Alias> names;
};

/// A top-level statement tritium does not care about (class, if, host code, ...) or that did
/// not parse; it covers the whole logical statement including its indented block.
struct SkippedStmt : StmtOf<StmtKind::Skipped> {
  using StmtOf::StmtOf;
  std::string reason;                ///< e.g. "class definition", "if statement"
  std::optional<ParseError> error;   ///< set when skipped because it failed to parse
};

// ------------------------------------------------------------------------------------------
// Module
// ------------------------------------------------------------------------------------------

/// A parsed source file. `body` holds every top-level statement in source order; only these
/// kinds occur there: Import, ImportFrom, Assign, AnnAssign, AugAssign, FunctionDef, Skipped.
/// A skipped top-level `try` / `if` is followed by the imports it performs on the path
/// tritium assumes (the `try` body, the first branch of an `if`, recursively).
struct Module {
  SourceRef source;
  StmtList body;
  /// Every top-level FunctionDef in source order (pointers into body).
  std::vector<const FunctionDef*> functions;

  /// The last top-level def named `name` (Python semantics: later defs win), or nullptr.
  const FunctionDef* find_function(std::string_view name) const;
};

// ------------------------------------------------------------------------------------------
// Debug dumps (used by tests; the format is stable)
// ------------------------------------------------------------------------------------------

/// S-expression dump of an expression, e.g. `(+ a (* b c))`, `(call tl.load (+ p o) mask=m)`.
std::string dump(const Expr& e);
/// Python-like multi-line dump of a statement (2-space indentation, no trailing newline).
std::string dump(const Stmt& s);
/// Dump of every statement of a module, one after another, newline-separated.
std::string dump(const Module& m);

}  // namespace tritium::frontend
