#pragma once
// Turns a parsed SELECT into a plan::LogicalQuery: resolves tables through the
// TableResolver, binds every clause with an ExpressionBinder, splits WHERE and ON
// into conjuncts, collects group keys and aggregates, and rewrites SELECT, HAVING
// and ORDER BY of an aggregate query into the post-aggregation domain.
#include "plan/logical/logical_query.h"
#include "sql/ast.h"
#include "sql/sql.h"

namespace raydb::sql {

class Binder {
 public:
  // `views`: plain views to inline where they are simple (view_inliner.h); empty: none.
  explicit Binder(const TableResolver& resolve, const ViewLookup& views = {}) : resolve_(resolve), views_(views) {}
  plan::LogicalQuery bind(const SelectStatement& s);

 private:
  // One SELECT list entry after * expansion.
  struct SelectEntry {
    const AstExpr* ast = nullptr;  // null for a column that * expanded to
    plan::ExprPtr star_column;     // the column for * entries
    std::string name;              // output name
    bool aliased = false;          // name is an AS alias
  };

  void bind_from(const SelectStatement& s);
  void expand_select_list(const SelectStatement& s);
  void bind_group_by(const SelectStatement& s);
  // A SELECT/HAVING/ORDER BY expression in the domain of the select list.
  plan::ExprPtr bind_output_expr(const AstExpr& e, const std::string& clause);
  plan::ExprPtr bind_select_entry(const SelectEntry& entry);
  // Replaces group keys by kGroupRef; any other column reference is an error.
  plan::ExprPtr to_post_aggregation(const plan::ExprPtr& e);
  void bind_order_by(const SelectStatement& s);
  int64_t bind_limit(const AstExpr& e, const char* what);
  // Index of the select entry that an ORDER BY / GROUP BY ordinal or name refers to, or -1.
  int ordinal(const AstExpr& e, const char* clause) const;

  plan::LogicalQuery bind_inlined(const SelectStatement& s);

  const TableResolver& resolve_;
  ViewLookup views_;
  SelectStatement inlined_;  // the statement with its views inlined (entries_ point into it)
  plan::LogicalQuery q_;
  std::vector<SelectEntry> entries_;
};

}  // namespace raydb::sql
