#pragma once
// Inlines plain views into the query that names them, before binding: a FROM item
// that names a simple view (a SELECT without DISTINCT, GROUP BY, HAVING, aggregates,
// ORDER BY, LIMIT or OFFSET, over tables or other such views) is replaced by the
// view's tables (aliased "<view alias>.<table alias>"), its WHERE and ON conditions
// join the outer WHERE, and every reference to a view column becomes the view's
// expression for it. The planner then sees base tables only: predicates reach the
// scans, indexes and RT views apply, nothing is materialized.
//
// Derived tables of the same shape (FROM (SELECT ...) alias, inner-joined, without a
// column list) are inlined the same way: TPC-H Q7, Q8 and Q9 aggregate one.
//
// The rewrite happens only when it is provably the same query: every outer column
// reference must name exactly one FROM item's column (or a select-list alias), every
// inner one exactly one of the view's tables. Otherwise the statement is returned
// unchanged and the view stays a FROM item, which api/ materializes (any view works
// that way, with the binder's own error messages).
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "sql/ast.h"
#include "sql/sql.h"

namespace raydb::sql {

class ViewInliner {
 public:
  ViewInliner(const TableResolver& tables, const ViewLookup& views) : tables_(tables), views_(views) {}
  // `s` with its simple views inlined (a copy; `s` is not changed).
  SelectStatement inline_views(const SelectStatement& s, int depth = 0);

  struct Source;    // one FROM item as the rewrite sees it (view_inliner.cpp)
  struct Expanded;  // a view ready to splice in

 private:
  std::optional<Expanded> expand(const TableItem& item, int depth);
  bool is_view(const std::string& name) const;

  const TableResolver& tables_;
  const ViewLookup& views_;
};

}  // namespace raydb::sql
