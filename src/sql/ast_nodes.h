#pragma once
// Small builders of AST nodes shared by the parser's and the binder's files (the
// binder's rewrites pass the node they stand in for, so errors still point at the SQL),
// and the split of an AND chain into its conjuncts.
#include <string>
#include <utility>
#include <vector>

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

// x IS NOT NULL, at x's position.
inline AstPtr not_null(AstPtr x) {
  auto e = node(AstKind::kIsNull, *x);
  e->negated = true;
  e->children = {std::move(x)};
  return e;
}

// f(arg), at arg's position.
inline AstPtr call(const std::string& f, AstPtr arg) {
  auto e = node(AstKind::kFunction, *arg);
  e->name = f;
  e->children = {std::move(arg)};
  return e;
}

// A column reference by its exact (quoted) name; without `at`, of no position (a
// rewrite's own column, which no error message points at).
inline AstPtr col(const std::string& qualifier, const std::string& name) {
  auto e = std::make_shared<AstExpr>();
  e->kind = AstKind::kColumn;
  e->qualifier = qualifier;
  e->name = name;
  e->quoted = true;
  return e;
}
inline AstPtr col(const std::string& qualifier, const std::string& name, const AstExpr& at) {
  AstPtr e = col(qualifier, name);
  e->line = at.line;
  e->column = at.column;
  return e;
}

// The conjuncts of an AND chain, left to right (one term when e is no AND; none for null).
inline void split_and(const AstPtr& e, std::vector<AstPtr>& out) {
  if (e && e->kind == AstKind::kBinary && e->op == "and") {
    split_and(e->children[0], out);
    split_and(e->children[1], out);
  } else if (e) {
    out.push_back(e);
  }
}

}  // namespace raydb::sql
