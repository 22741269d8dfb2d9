#pragma once
// Binds one AST expression to a typed plan::Expr over base columns: resolves
// names, applies the typing rules (type_rules.h), casts string constants compared
// with DATEs, folds constants (constant_folder.h) and, where the clause allows it,
// collects aggregate calls into the query and replaces them with kAggregateRef.
#include <optional>
#include <functional>
#include <string>
#include <vector>

#include "plan/logical/logical_query.h"
#include "sql/ast.h"
#include "sql/temp_table.h"

namespace raydb::sql {

class ExpressionBinder {
 public:
  // tables[0, visible) may be referenced. `aggregates`: where aggregate calls are
  // collected; null when the clause (named by `clause`, e.g. "WHERE") forbids them.
  ExpressionBinder(const std::vector<plan::TableRef>& tables, size_t visible,
                   std::vector<plan::AggregateExpr>* aggregates, std::string clause);

  plan::ExprPtr bind(const AstExpr& e);

  // The tables' shapes, parallel to `tables` (temporary tables hide their NULL
  // indicator columns and read nullable columns NULL-aware); null: all stored.
  void set_shapes(const std::vector<TempTable>* shapes) { shapes_ = shapes; }
  // Runs an uncorrelated subquery (exists: only whether it has a row matters); unset:
  // subqueries are an error in this clause.
  using SubqueryRunner = std::function<TempTable(const SelectStatement& s, bool exists)>;
  void set_subqueries(SubqueryRunner run) { subqueries_ = std::move(run); }
  // Binds f(...) OVER (...) (sql/binder_window.cpp); unset: window calls are errors here.
  using WindowBinder = std::function<plan::ExprPtr(const AstExpr& call)>;
  void set_windows(WindowBinder bind) { windows_ = std::move(bind); }
  // A visible column of table `ti` by name, or -1.
  int find_column(size_t ti, const std::string& name) const;
  // The expression that reads column `ci` of table `ti` (NULL-aware for temporary tables).
  plan::ExprPtr column_expr(size_t ti, int ci, std::string display) const;

  // Resolves [qualifier.]name to a column reference; throws kBinder when unknown or ambiguous.
  plan::ExprPtr bind_column(const std::string& qualifier, const std::string& name, const std::string& text);
  // Whether an unqualified name is a column of a visible table (for GROUP BY alias lookup).
  bool has_column(const std::string& name) const;

  // Throws kBinder unless e is BOOLEAN (or NULL): "argument of WHERE must be type BOOLEAN, not INTEGER".
  static void require_boolean(const plan::ExprPtr& e, const std::string& what);
  // require_boolean, and an untyped NULL becomes a BOOLEAN NULL (WHERE, ON, HAVING).
  static plan::ExprPtr as_predicate(const plan::ExprPtr& e, const std::string& what);

 private:
  plan::ExprPtr bind_unary(const AstExpr& e);
  plan::ExprPtr bind_binary(const AstExpr& e);
  plan::ExprPtr make_arith(plan::ArithOp op, plan::ExprPtr l, plan::ExprPtr r, const AstExpr& whole);
  plan::ExprPtr make_compare(plan::CompareOp op, plan::ExprPtr l, plan::ExprPtr r, const AstExpr& whole);
  plan::ExprPtr bind_logical(const AstExpr& e);
  plan::ExprPtr bind_between(const AstExpr& e);
  plan::ExprPtr bind_in_list(const AstExpr& e);
  plan::ExprPtr bind_like(const AstExpr& e);
  plan::ExprPtr bind_function(const AstExpr& e);
  plan::ExprPtr bind_aggregate(const AstExpr& e, plan::AggFunc f);
  plan::ExprPtr bind_order_stat(const AstExpr& e);
  plan::ExprPtr bind_case(const AstExpr& e);
  // Scalar functions, || and DATE +- INTERVAL (function_binder.cpp).
  std::optional<plan::ExprPtr> bind_scalar_function(const AstExpr& e);  // nullopt: no such function
  std::vector<plan::ExprPtr> bind_arguments(const AstExpr& e, size_t min_args, size_t max_args);
  plan::ExprPtr argument_as(const AstExpr& e, plan::ExprPtr a, size_t i, TypeId want);
  plan::ExprPtr bind_conditional(const AstExpr& e);
  plan::ExprPtr bind_numeric(const AstExpr& e);
  plan::ExprPtr bind_date(const AstExpr& e);
  plan::ExprPtr bind_string(const AstExpr& e, plan::ScalarFunc f);
  plan::ExprPtr as_text(plan::ExprPtr a, const AstExpr& whole);
  plan::ExprPtr bind_concat(const AstExpr& e);
  plan::ExprPtr bind_interval_arith(const AstExpr& e);
  static std::string lower_pattern(const std::string& pattern);
  static plan::ExprPtr lower_of(plan::ExprPtr x);
  plan::ExprPtr bind_cast(const AstExpr& e);
  plan::ExprPtr bind_subquery(const AstExpr& e);     // (SELECT ...) and EXISTS (SELECT ...)
  plan::ExprPtr bind_in_subquery(const AstExpr& e);  // x [NOT] IN (SELECT ...)
  plan::ExprPtr bind_key_set(const plan::ExprPtr& x, const TempTable& t, const AstExpr& e);
  TempTable run_subquery(const AstExpr& e, bool exists);
  // Makes a and b comparable: NULL constants take the other type, string constants
  // compared with DATEs become DATE constants; throws "cannot compare X and Y in ...".
  void coerce_for_compare(plan::ExprPtr& a, plan::ExprPtr& b, const AstExpr& whole);
  // e converted to `to` (constants converted now, others by a kCast node).
  plan::ExprPtr convert(plan::ExprPtr e, const Type& to, const AstExpr& whole);

  const std::vector<plan::TableRef>& tables_;
  size_t visible_;
  std::vector<plan::AggregateExpr>* aggregates_;
  std::string clause_;
  bool inside_aggregate_ = false;
  const std::vector<TempTable>* shapes_ = nullptr;
  SubqueryRunner subqueries_;
  WindowBinder windows_;
};

// Whether the AST calls an aggregate function (count, sum, min, max, avg) anywhere.
bool contains_aggregate(const AstExpr& e);
// Whether a SELECT has WITH, a set operation, a derived table, an outer join or a
// subquery expression (binder_structure.cpp): then no view is inlined into it, nor it
// into another query.
bool statement_has_subquery(const SelectStatement& s);
// Whether a SELECT block calls window functions (OVER) in its select list or ORDER BY (binder_window.cpp).
bool statement_has_window(const SelectStatement& s);

}  // namespace raydb::sql
