// Parser of tritium's Python subset: tokens (lexer.h) → AST (ast.h).
//
// parse_module() is lenient at the top level: imports, assignments and function definitions
// are kept; every other top-level statement (classes, `if __name__ == "__main__":`, host code
// of any kind) and every top-level statement that fails to parse becomes a SkippedStmt. A
// top-level def whose header or body fails to parse is still recorded (FunctionDef with
// parse_error set), so the error surfaces only if the function is used. Only tokenization
// errors (unterminated string, bad dedent, unclosed bracket) make parse_module throw.
#pragma once

#include "frontend/ast.h"
#include "frontend/source.h"

namespace tritium::frontend {

/// Parses a whole source file leniently (see above). Throws CompileError only for
/// tokenization errors.
Module parse_module(SourceRef src);

/// Parses `src` as a sequence of statements, strictly: the first syntax error throws a
/// CompileError. Used by tests and tools; no top-level skipping.
StmtList parse_statements(SourceRef src);

/// Parses `src` as one expression (surrounding whitespace / newlines allowed); throws
/// CompileError on any syntax error or trailing tokens.
ExprPtr parse_expression(SourceRef src);

}  // namespace tritium::frontend
