#pragma once
// Small builders of AST nodes shared by the parser's files.
#include <string>

#include "sql/ast.h"
#include "sql/token.h"

namespace raydb::sql {

inline AstPtr node(AstKind kind, const Token& at) {
  auto e = std::make_shared<AstExpr>();
  e->kind = kind;
  e->line = at.line;
  e->column = at.column;
  return e;
}

inline AstPtr node(AstKind kind, const AstExpr& at) {
  auto e = std::make_shared<AstExpr>();
  e->kind = kind;
  e->line = at.line;
  e->column = at.column;
  return e;
}

inline AstPtr binary(const std::string& op, AstPtr l, AstPtr r) {
  auto e = node(AstKind::kBinary, *l);
  e->op = op;
  e->children = {std::move(l), std::move(r)};
  return e;
}

inline AstPtr literal(const Token& at, Value v, std::string text) {
  auto e = node(AstKind::kLiteral, at);
  e->value = std::move(v);
  e->text = std::move(text);
  return e;
}

}  // namespace raydb::sql
