#pragma once
// Turns a parsed SELECT into a plan::LogicalQuery: resolves tables through the
// TableResolver, binds every clause with an ExpressionBinder, splits WHERE and ON
// into conjuncts, collects group keys and aggregates, and rewrites SELECT, HAVING
// and ORDER BY of an aggregate query into the post-aggregation domain.
#include <functional>
#include <optional>
#include <set>
#include <string>

#include "plan/logical/logical_query.h"
#include "sql/ast.h"
#include "sql/expression_binder.h"
#include "sql/query_runner.h"
#include "sql/sql.h"
#include "sql/temp_table.h"

namespace raydb::sql {

class Binder {
 public:
  // The WITH queries in scope of a block: name and rows, later entries shadow earlier ones.
  using CteScope = std::vector<std::pair<std::string, TempTable>>;
  // `views`: plain views to inline where they are simple (view_inliner.h); empty: none.
  // `runner`: runs WITH queries, derived tables, subqueries and set operations'
  // operands (query_runner.h); null: those are errors.
  explicit Binder(const TableResolver& resolve, const ViewLookup& views = {}, QueryRunner* runner = nullptr,
                  CteScope ctes = {}, int view_depth = 0)
      : resolve_(resolve), views_(views), runner_(runner), ctes_(std::move(ctes)), view_depth_(view_depth) {}
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
  void distinct_as_grouping();  // SELECT DISTINCT without aggregates as GROUP BY
  int64_t bind_limit(const AstExpr& e, const char* what);
  // Index of the select entry that an ORDER BY / GROUP BY ordinal or name refers to, or -1.
  int ordinal(const AstExpr& e, const char* clause) const;

  plan::LogicalQuery bind_inlined(const SelectStatement& s);

  // Query structure (binder_structure.cpp).
  void bind_with(const std::vector<CommonTableExpr>& with);
  plan::LogicalQuery bind_set_operation(const SelectStatement& s);
  // Binds `s` in this block's scope of WITH queries (not its tables: uncorrelated).
  plan::LogicalQuery bind_nested(const SelectStatement& s) const;
  // FROM read_parquet(...) / read_csv_auto(...): the function's rows, through runner_.
  TempTable table_function(const TableItem& item) const;
  // Binds and runs `s`; `names` rename its first columns; `what` names it in errors.
  TempTable materialize(const SelectStatement& s, const std::string& name, const std::vector<std::string>& names,
                        const std::string& what) const;
  TempTable run_subquery(const SelectStatement& s, bool exists) const;
  const TempTable* find_cte(const std::string& name) const;
  std::optional<TempTable> cte_column(const SelectStatement& s) const;
  // Whether `s` reads derived tables, WITH queries or subqueries (then views are not inlined).
  bool uses_query_structure(const SelectStatement& s) const;
  // An expression binder over this block's tables, with their shapes and subqueries.
  ExpressionBinder expression_binder(size_t visible, std::vector<plan::AggregateExpr>* aggregates,
                                     const std::string& clause);

  // Correlated subqueries in WHERE (binder_correlated.cpp).
  struct Correlation;
  Correlation correlation_of(const SelectStatement& sub) const;
  bool is_correlated(const SelectStatement& sub, const Correlation& c) const;
  bool reads_outer_columns(const SelectStatement& sub) const;  // correlated with this block
  void split_correlation(const AstExpr& at, const SelectStatement& sub, const Correlation& c,
                         std::vector<AstPtr>& inner_keys, std::vector<AstPtr>& outer_keys,
                         std::vector<AstPtr>& rest, std::vector<AstPtr>* ne_inner = nullptr,
                         std::vector<AstPtr>* ne_outer = nullptr) const;
  AstPtr decorrelate(const AstPtr& e, bool top);
  AstPtr decorrelate_exists(const AstPtr& e, const Correlation& c, bool top);
  // A semi join as a conjunct of WHERE: the distinct non-NULL tuples of `inner` keys
  // (under the subquery's other conditions) joined on outer_i = k_i.
  AstPtr semi_join(const AstExpr& at, const SelectStatement& sub, const std::vector<AstPtr>& inner,
                   const std::vector<AstPtr>& outer, std::vector<AstPtr> rest);
  AstPtr decorrelate_scalar(const AstPtr& conjunct, size_t side, const Correlation& c);
  void add_table(TempTable shape, const std::string& alias);  // a table the rewrite joins
  // Correlations over the outer key's whole domain (binder_correlated_domain.cpp).
  AstPtr exists_with_inequality(const AstPtr& e, std::vector<AstPtr> rest, const AstPtr& inner_key,
                                const AstPtr& outer_key, const AstPtr& inner_ne, const AstPtr& outer_ne);
  // The same EXISTS as a conjunct of WHERE (not negated): an inner join with the per-key
  // table suffices (a key without inner rows makes EXISTS false, which drops the row).
  AstPtr exists_with_inequality_join(const AstPtr& e, std::vector<AstPtr> rest, const AstPtr& inner_key,
                                     const AstPtr& outer_key, const AstPtr& inner_ne, const AstPtr& outer_ne);
  // The same EXISTS over the outer row's own table, its inner conditions among WHERE's:
  // a key set of the keys with two or more distinct values (binder_self_exists.cpp);
  // null when the shape does not hold.
  AstPtr exists_on_own_rows(const AstPtr& e, const std::vector<AstPtr>& rest, const AstPtr& inner_key,
                            const AstPtr& outer_key, const AstPtr& inner_ne, const AstPtr& outer_ne);
  std::shared_ptr<SelectStatement> min_max_per_key(const SelectStatement& sub, std::vector<AstPtr> rest,
                                                   const AstPtr& inner_key, const AstPtr& inner_ne) const;
  // The domain table built on the host from the domain's keys and per_key's rows.
  std::optional<TempTable> domain_by_lookup(const std::shared_ptr<SelectStatement>& domain, const std::string& reduced,
                                            const SelectStatement& per_key, const std::string& alias,
                                            const std::string& what);
  // Binds `per_key` (a SELECT whose first column is the inner key, named k) over every
  // value of `outer_key` (a column of a stored outer table): a table with one row per
  // distinct value, joined to this block on outer_key = alias.k (domain_joins_), its
  // other columns NULL where `per_key` has no row. Returns the table's alias.
  std::string join_over_domain(const AstPtr& outer_key, std::shared_ptr<SelectStatement> per_key,
                               const std::string& what);
  // A correlated scalar aggregate subquery (one inner = outer key) as an expression over
  // the domain table: its value per key, or its value over no rows where a key has none.
  AstPtr scalar_over_domain(const AstExpr& e, std::vector<AstPtr> rest, const AstPtr& inner_key,
                            const AstPtr& outer_key);
  // The select list with its correlated scalar subqueries decorrelated (non-aggregate blocks).
  std::vector<SelectItem> decorrelate_select(const SelectStatement& s);
  AstPtr decorrelate_select_expr(const AstPtr& e);
  AstPtr scalar_over_key(const AstPtr& e, const Correlation& c);
  std::vector<AstPtr> domain_joins_;  // outer_key = alias.k conjuncts added to WHERE
  // Key reduction (binder_key_reduction.cpp): `inner_key IN (SELECT k FROM <the
  // distinct outer keys of the rows this block's other conjuncts keep>)`, or null where
  // there are none (the outer key is not a column of a stored FROM table, or no
  // conjunct over stored tables reaches its table).
  AstPtr key_reduction(const AstPtr& inner_key, const AstPtr& outer_key);
  // The hidden WITH query holding those keys (column k), made once per outer key
  // column; "" where there is none.
  std::string reduced_keys(const AstExpr& outer_key);
  void set_where_terms(const AstPtr& where);
  int from_table_of(const AstExpr& column) const;
  bool reads_stored_tables(const AstExpr& e, uint64_t& tables) const;
  std::vector<std::pair<std::string, std::string>> reduced_keys_;  // table.column -> hidden WITH name
  std::vector<AstPtr> where_terms_;  // this block's WHERE conjuncts, before decorrelation
  // Any other correlation of a scalar aggregate subquery or EXISTS: per distinct tuple of
  // the outer columns it reads, as a grouped join (binder_correlated_general.cpp).
  struct OuterTuple;
  AstPtr decorrelate_general(const AstPtr& e, const Correlation& c);
  AstPtr replace_outer(const AstPtr& e, const Correlation& c, OuterTuple& tuple,
                       const std::function<AstPtr(size_t, const AstExpr&)>& replace) const;
  // Binds the per-tuple table, joins it (domain_joins_) and returns its alias; "-" when
  // it has no rows (the subquery's FROM is empty).
  std::string join_general_domain(const AstExpr& at, const SelectStatement& sub, const OuterTuple& tuple,
                                  const AstPtr& value);
  std::vector<std::pair<std::string, std::string>> general_domains_;  // subquery text -> alias
  std::vector<std::string> stored_from_;  // per FROM item: the stored table's name, "" if not one
  // Window functions (binder_window.cpp): the block split into its rows and the windows over them.
  plan::LogicalQuery bind_windowed(const SelectStatement& s);
  plan::ExprPtr bind_window_call(const AstExpr& call);
  void bind_frame(const WindowSpecAst& spec, plan::WindowExpr& w);
  bool windowed_ = false;  // this block reads the rows of bind_windowed: SELECT and ORDER BY bind windows
  // Outer joins (binder_outer_join.cpp): s with each LEFT/RIGHT/FULL JOIN and the items
  // before it replaced by one item holding the joined rows.
  SelectStatement fold_outer_joins(const SelectStatement& s);
  // A grouped LEFT JOIN whose only aggregates count the right side's rows, with the
  // count grouped per join key below the join (binder_group_join.cpp); s where not.
  SelectStatement pre_aggregate_outer_join(const SelectStatement& s);
  TableItem group_join_rows(const SelectStatement& s, std::shared_ptr<SelectStatement> per_key, const AstPtr& lkey,
                            size_t counts, const SelectStatement& out, bool& one_row_per_key);
  void ungroup(SelectStatement& out);
  bool reads_groups_only(const SelectStatement& out) const;
  TempTable outer_join(std::vector<TableItem> left, TableItem right, const std::set<std::string>& names, bool star);
  // One kept column of a joined side: the item it comes from, its name and type.
  struct OuterJoinColumn {
    std::string qualifier, name;
    Type type;
  };
  // The parts (matched rows, then the unmatched rows of each preserved side) of an
  // outer join whose ON is any condition, found by row numbers (binder_outer_join.cpp).
  std::vector<TempTable> outer_join_by_rows(const std::vector<TableItem>& left, const TableItem& right,
                                            TableItem::Join kind, const AstPtr& cond,
                                            const std::vector<OuterJoinColumn>& lcols,
                                            const std::vector<OuterJoinColumn>& rcols, const std::set<std::string>& on,
                                            const char* what);
  std::vector<std::pair<std::string, TempTable>> join_sources(std::vector<TableItem>& items);

  const TableResolver& resolve_;
  ViewLookup views_;
  QueryRunner* runner_;
  size_t from_tables_ = 0;  // tables of the FROM clause (those after it come from decorrelation)
  CteScope ctes_;
  int view_depth_ = 0;             // plain views being run around this block
  std::vector<TempTable> shapes_;  // parallel to q_.tables
  // A plain view that was not inlined, run as a derived table (its rows may hold NULLs).
  std::optional<TempTable> view_rows(const TableItem& item);
  SelectStatement inlined_;  // the statement with its views inlined (entries_ point into it)
  plan::LogicalQuery q_;
  std::vector<SelectEntry> entries_;
  std::vector<AstPtr> expanded_items_;  // select items made by expanding quantile lists
};

}  // namespace raydb::sql
