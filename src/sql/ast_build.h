#pragma once
// Small builders of AST nodes for the binder's rewrites (decorrelation), each carrying
// the source position of the node it stands in for, so errors still point at the SQL.
#include <string>
#include <utility>

#include "sql/ast.h"

namespace raydb::sql::ast_build {

inline AstPtr node(AstKind kind, const AstExpr& at) {
  auto e = std::make_shared<AstExpr>();
  e->kind = kind;
  e->line = at.line, e->column = at.column;
  return e;
}

inline AstPtr binary(const std::string& op, AstPtr l, AstPtr r) {
  auto e = node(AstKind::kBinary, *l);
  e->op = op;
  e->children = {std::move(l), std::move(r)};
  return e;
}

// A column reference by its exact (quoted) name.
inline AstPtr col(const std::string& qualifier, const std::string& name, const AstExpr& at) {
  auto e = node(AstKind::kColumn, at);
  e->qualifier = qualifier;
  e->name = name;
  e->quoted = true;
  return e;
}

}  // namespace raydb::sql::ast_build
