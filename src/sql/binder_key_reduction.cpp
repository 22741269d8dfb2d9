// Key reduction of decorrelated subqueries (the "magic set" step of unnesting, as
// DuckDB's delim join and Umbra do it): a subquery decorrelated into a grouped derived
// table, a set of distinct keys or a table over the outer key's domain is otherwise
// computed over every key of its inner table, though the outer block only asks for the
// keys its own rows hold. When the outer key is a column of a stored FROM table, the
// inner rows are limited to the keys the outer rows that pass the rest of WHERE can
// hold: the distinct outer keys of
//   SELECT DISTINCT outer_col FROM <stored FROM tables joined to it> WHERE <conjuncts>
// computed once per outer key column and kept as a hidden WITH query of this block.
// The tables are those the outer key's table reaches through conjuncts over stored
// tables (the join graph), less branches that no conjunct filters on their own (a
// foreign-key join to an unfiltered table rarely drops keys but costs a pass over it).
// Exact: an outer row passing WHERE passes each of its conjuncts, so its key is in the
// set and the derived table's row (or the membership) for that key is unchanged; keys
// outside the set belong to no row that passes WHERE.
#include <atomic>
#include <bit>

#include "sql/ast_nodes.h"
#include "sql/binder.h"
#include "sql/binder_correlation.h"

namespace raydb::sql {

void Binder::set_where_terms(const AstPtr& where) {
  where_terms_.clear();
  split_and(where, where_terms_);
}

// The FROM table (index) of this block a column reference names, or -1 when it names
// none of them or several.
int Binder::from_table_of(const AstExpr& c) const {
  int table = -1;
  for (size_t i = 0; i < from_tables_; i++) {
    const bool named = c.qualifier.empty() || iequals(q_.tables[i].alias, c.qualifier);
    if (named && shapes_[i].find_column(c.name) >= 0) {
      if (table >= 0) return -1;
      table = int(i);
    }
  }
  return table;
}

// Whether e reads stored FROM tables only (`tables`: which), without aggregates and
// without subqueries that read this block's columns.
bool Binder::reads_stored_tables(const AstExpr& e, uint64_t& tables) const {
  if (e.kind == AstKind::kColumn) {
    const int t = from_table_of(e);
    if (t < 0 || size_t(t) >= stored_from_.size() || stored_from_[size_t(t)].empty()) return false;
    tables |= uint64_t(1) << t;
  }
  if (e.kind == AstKind::kStar) return false;
  if (e.kind == AstKind::kFunction && contains_aggregate(e)) return false;
  if (e.subquery && reads_outer_columns(*e.subquery)) return false;
  for (auto& c : e.children)
    if (!reads_stored_tables(*c, tables)) return false;
  return true;
}

namespace {

struct Term {
  AstPtr expr;
  uint64_t tables = 0;
};

// The tables joined to table t (bit t) through terms over two or more tables, less
// unfiltered leaves (tables that one term side joins and no term over them alone filters).
uint64_t reduction_tables(const std::vector<Term>& terms, int t) {
  uint64_t comp = uint64_t(1) << t, filtered = 0;
  for (auto& term : terms)
    if (std::popcount(term.tables) == 1) filtered |= term.tables;
  for (bool grew = true; grew;) {
    grew = false;
    for (auto& term : terms)
      if (std::popcount(term.tables) > 1 && (term.tables & comp) && (term.tables & ~comp)) {
        comp |= term.tables;
        grew = true;
      }
  }
  for (bool pruned = true; pruned;) {
    pruned = false;
    for (int u = 0; u < 64; u++) {
      const uint64_t bit = uint64_t(1) << u;
      if (u == t || !(comp & bit) || (filtered & bit)) continue;
      uint64_t neighbours = 0;
      for (auto& term : terms)
        if (std::popcount(term.tables) > 1 && (term.tables & bit) && (term.tables & ~comp) == 0)
          neighbours |= term.tables & ~bit;
      if (std::popcount(neighbours) <= 1) {
        comp &= ~bit;
        pruned = true;
      }
    }
  }
  return comp;
}

}  // namespace

std::string Binder::reduced_keys(const AstExpr& outer_key) {
  if (outer_key.kind != AstKind::kColumn) return "";
  const int t = from_table_of(outer_key);
  if (t < 0 || stored_from_.size() <= size_t(t) || stored_from_[size_t(t)].empty()) return "";
  const std::string id = std::to_string(t) + "." + to_lower(outer_key.name);
  for (auto& [key, name] : reduced_keys_)
    if (key == id) return name;
  std::vector<Term> terms;
  for (auto& w : where_terms_) {
    Term term{w, 0};
    if (reads_stored_tables(*w, term.tables) && term.tables) terms.push_back(term);
  }
  const uint64_t comp = reduction_tables(terms, t);
  auto keys = std::make_shared<SelectStatement>();
  AstPtr where;
  for (auto& term : terms)
    if ((term.tables & ~comp) == 0) where = where ? binary("and", where, term.expr) : term.expr;
  std::string name;
  if (where) {
    for (size_t i = 0; i < from_tables_; i++) {
      if (!(comp & (uint64_t(1) << i))) continue;
      TableItem item;
      item.name = stored_from_[i];
      item.alias = q_.tables[i].alias;
      keys->from.push_back(item);
    }
    auto key = std::make_shared<AstExpr>(outer_key);
    key->qualifier = q_.tables[size_t(t)].alias;
    keys->select.push_back({key, "k"});
    keys->distinct = true;
    keys->where = where;
    // A name no query can write, so no WITH query of a subquery shadows it; numbered
    // across binders, so a nested block's own key tables never hide this one.
    static std::atomic<uint64_t> next{0};
    name = "\x01keys_" + std::to_string(next++);
    ctes_.emplace_back(name, materialize(*keys, "keys", {}, "key reduction of " + outer_key.to_string()));
  }
  reduced_keys_.emplace_back(id, name);
  return name;
}

AstPtr Binder::key_reduction(const AstPtr& inner_key, const AstPtr& outer_key) {
  const std::string name = reduced_keys(*outer_key);
  if (name.empty()) return nullptr;
  const AstExpr& at = *outer_key;
  auto keys = std::make_shared<SelectStatement>();
  TableItem item;
  item.name = name;
  keys->from.push_back(item);
  keys->select.push_back({col("", "k", at), ""});
  auto in = node(AstKind::kInList, at);
  in->children = {inner_key};
  in->subquery = keys;
  in->text = "(SELECT " + outer_key->to_string() + " FROM ... WHERE ...)";
  return in;
}

}  // namespace raydb::sql
