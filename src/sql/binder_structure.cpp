// Query structure in the binder: WITH queries, derived tables, uncorrelated
// subqueries and set operations. Each runs once through the QueryRunner and becomes a
// TempTable that the outer block reads like a stored table (temp_table.h), so every
// backend runs the blocks it supports and nothing runs row by row.
#include <unordered_map>
#include <unordered_set>

#include "common/error.h"
#include "sql/binder.h"
#include "sql/parser.h"
#include "sql/type_rules.h"

namespace raydb::sql {

using plan::Expr;
using plan::ExprPtr;

namespace {

bool expression_has_subquery(const AstPtr& e) {
  if (!e) return false;
  if (e->subquery) return true;
  for (auto& c : e->children)
    if (expression_has_subquery(c)) return true;
  return false;
}

const char* set_op_name(SetOp op) {
  switch (op) {
    case SetOp::kUnion: return "UNION";
    case SetOp::kIntersect: return "INTERSECT";
    case SetOp::kExcept: return "EXCEPT";
    default: return "?";
  }
}

std::string row_key(const TempTable& t, uint64_t row) {
  std::string key;
  for (size_t c = 0; c < t.columns(); c++) append_value_key(key, t.value(row, c));
  return key;
}

}  // namespace

bool statement_has_subquery(const SelectStatement& s) {
  if (!s.with.empty() || s.set_op != SetOp::kNone) return true;
  for (auto& item : s.select)
    if (expression_has_subquery(item.expr)) return true;
  for (auto& t : s.from)
    if (t.subquery || t.function || t.join != TableItem::Join::kInner || expression_has_subquery(t.on)) return true;
  if (expression_has_subquery(s.where) || expression_has_subquery(s.having)) return true;
  for (auto& g : s.group_by)
    if (expression_has_subquery(g)) return true;
  for (auto& o : s.order_by)
    if (expression_has_subquery(o.expr)) return true;
  return false;
}

bool Binder::uses_query_structure(const SelectStatement& s) const {
  if (statement_has_subquery(s)) return true;
  for (auto& t : s.from)
    if (find_cte(t.name)) return true;
  return false;
}

const TempTable* Binder::find_cte(const std::string& name) const {
  for (auto it = ctes_.rbegin(); it != ctes_.rend(); ++it)
    if (iequals(it->first, name)) return &it->second;
  return nullptr;
}

ExpressionBinder Binder::expression_binder(size_t visible, std::vector<plan::AggregateExpr>* aggregates,
                                           const std::string& clause) {
  ExpressionBinder eb(q_.tables, visible, aggregates, clause);
  eb.set_shapes(&shapes_);
  if (windowed_ && (clause == "SELECT" || clause == "ORDER BY"))
    eb.set_windows([this](const AstExpr& call) { return bind_window_call(call); });
  if (runner_) eb.set_subqueries([this](const SelectStatement& s, bool exists) { return run_subquery(s, exists); });
  return eb;
}

void Binder::bind_with(const std::vector<CommonTableExpr>& with) {
  std::unordered_set<std::string> seen;
  for (const CommonTableExpr& cte : with) {
    if (!seen.insert(to_lower(cte.name)).second)
      fail(ErrorKind::kBinder, "WITH query name '{}' specified more than once (line {}, column {})", cte.name,
           cte.line, cte.column);
    // Later WITH queries see the earlier ones; a query does not see itself (not RECURSIVE).
    TempTable t = materialize(*cte.select, cte.name, cte.column_aliases, "WITH query " + cte.name);
    ctes_.emplace_back(cte.name, std::move(t));
  }
}

plan::LogicalQuery Binder::bind_nested(const SelectStatement& s) const {
  return Binder(resolve_, views_, runner_, ctes_, view_depth_).bind(s);
}

std::optional<TempTable> Binder::view_rows(const TableItem& item) {
  if (!views_ || !runner_) return std::nullopt;
  const std::optional<std::string> sql = views_(item.name);
  if (!sql) return std::nullopt;
  constexpr int kMaxViewDepth = 32;  // as api/ counts them
  if (view_depth_ >= kMaxViewDepth)
    fail(ErrorKind::kBinder, "view {} nests views more than {} deep (does it refer to itself?)", item.name,
         kMaxViewDepth);
  try {
    Statement st = Parser(*sql).parse_statement();
    if (st.type != StatementType::kSelect || st.explain) fail(ErrorKind::kCatalog, "is not a SELECT");
    plan::LogicalQuery q = Binder(resolve_, views_, runner_, {}, view_depth_ + 1).bind(st.select);
    const std::string alias = item.alias.empty() ? item.name : item.alias;
    for (size_t i = 0; i < item.column_aliases.size() && i < q.output_names.size(); i++)
      q.output_names[i] = item.column_aliases[i];
    return runner_->materialize(std::move(q), item.name, "view " + item.name);
  } catch (const Error& e) {
    if (std::string_view(e.what()).starts_with("view ")) throw;
    throw Error(e.kind(), fmt::format("view {}: {}", item.name, e.what()));
  }
}

TempTable Binder::table_function(const TableItem& item) const {
  if (!runner_) fail(ErrorKind::kNotImplemented, "table function {} cannot run here (no connection)", item.name);
  TablePtr t = runner_->table_function(item.name, item.function_args);
  TempTable shape = TempTable::stored(std::move(t));
  if (item.column_aliases.size() > shape.columns())
    fail(ErrorKind::kBinder, "{} has {} columns available but {} columns specified", item.name, shape.columns(),
         item.column_aliases.size());
  return item.column_aliases.empty() ? shape : shape.renamed(shape.table->name(), item.column_aliases);
}

TempTable Binder::materialize(const SelectStatement& s, const std::string& name, const std::vector<std::string>& names,
                              const std::string& what) const {
  if (!runner_) fail(ErrorKind::kNotImplemented, "{} cannot run here (no connection runs subqueries)", what);
  plan::LogicalQuery q = bind_nested(s);
  if (names.size() > q.output_names.size())
    fail(ErrorKind::kBinder, "{} has {} columns available but {} columns specified", what, q.output_names.size(),
         names.size());
  for (size_t i = 0; i < names.size(); i++) q.output_names[i] = names[i];
  return runner_->materialize(std::move(q), name, what);
}

// `SELECT column FROM <WITH query>` and nothing else (the IN list of a key reduction,
// binder_key_reduction.cpp, or a user's CTE read as a key list): the column as the WITH
// query holds it, without running a block that would only copy every row through a
// backend and back. nullopt for any other statement.
std::optional<TempTable> Binder::cte_column(const SelectStatement& s) const {
  if (s.set_op != SetOp::kNone || s.distinct || !s.with.empty() || s.from.size() != 1 || s.where ||
      !s.group_by.empty() || s.having || !s.windows.empty() || !s.order_by.empty() || s.limit || s.offset ||
      s.select.size() != 1)
    return std::nullopt;
  const TableItem& item = s.from[0];
  if (item.subquery || item.function || item.on || !item.column_aliases.empty()) return std::nullopt;
  const AstExpr& e = *s.select[0].expr;
  if (e.kind != AstKind::kColumn || !e.children.empty()) return std::nullopt;
  if (!e.qualifier.empty() && !iequals(e.qualifier, item.alias.empty() ? item.name : item.alias)) return std::nullopt;
  const TempTable* cte = find_cte(item.name);
  if (!cte || cte->columns() != 1 || cte->table->column_count() < 1) return std::nullopt;
  if (cte->find_column(e.name) != 0) return std::nullopt;
  return cte->renamed("subquery", {"c1"});
}

TempTable Binder::run_subquery(const SelectStatement& s, bool exists) const {
  if (!exists)
    if (std::optional<TempTable> t = cte_column(s)) return std::move(*t);
  if (reads_outer_columns(s))
    fail(ErrorKind::kNotImplemented,
         "a correlated subquery is supported in WHERE (EXISTS, or a scalar aggregate compared in a condition) and "
         "as a scalar aggregate in the select list of a block without GROUP BY; not in HAVING, ON, under IN or "
         "nested in another subquery");
  plan::LogicalQuery q = bind_nested(s);
  if (exists) {  // only whether a row exists: one row of a constant
    q.select = {Expr::constant(Value::integer(1))};
    q.output_names = {"exists"};
    q.order_by.clear();
    q.distinct = false;
    if (q.limit < 0 || q.limit > 1) q.limit = 1;
  } else {
    for (size_t i = 0; i < q.output_names.size(); i++) q.output_names[i] = "c" + std::to_string(i + 1);
  }
  return runner_->materialize(std::move(q), "subquery", "subquery");
}

// left op right: both operands run, their columns are brought to common types, and
// the rows combine by hashing whole rows (NULLs equal, as set operations compare).
// ORDER BY, LIMIT and OFFSET then apply to the combined rows as an outer block.
plan::LogicalQuery Binder::bind_set_operation(const SelectStatement& s) {
  const char* op = set_op_name(s.set_op);
  if (!runner_) fail(ErrorKind::kNotImplemented, "{} cannot run here (no connection runs subqueries)", op);
  plan::LogicalQuery l = bind_nested(*s.left), r = bind_nested(*s.right);
  if (l.select.size() != r.select.size())
    fail(ErrorKind::kBinder, "each {} query must have the same number of columns ({} and {}; line {}, column {})", op,
         l.select.size(), r.select.size(), s.set_line, s.set_column);
  std::vector<std::string> names = l.output_names;
  std::vector<Type> types;
  for (size_t c = 0; c < l.select.size(); c++) {
    const Type a = l.select[c]->type, b = r.select[c]->type;
    std::optional<Type> t = a == b ? std::optional<Type>(a) : common_type(a, b);
    if (!t)
      fail(ErrorKind::kBinder, "{} types {} and {} cannot be matched (column {}; line {}, column {})", op,
           a.to_string(), b.to_string(), c + 1, s.set_line, s.set_column);
    types.push_back(*t);
    for (plan::LogicalQuery* q : {&l, &r}) {
      if (!(q->select[c]->type == *t) && q->select[c]->type.id != TypeId::kNull) {
        if (!castable(q->select[c]->type, *t))
          fail(ErrorKind::kBinder, "{} types {} and {} cannot be matched (column {})", op, a.to_string(),
               b.to_string(), c + 1);
        q->select[c] = Expr::cast(q->select[c], *t);
      }
      q->output_names[c] = "c" + std::to_string(c + 1);  // operands' own names may repeat
    }
  }
  const TempTable lt = runner_->materialize(std::move(l), "left", std::string(op) + " operand");
  const TempTable rt = runner_->materialize(std::move(r), "right", std::string(op) + " operand");

  TempTableBuilder out("unnamed_set", names, types, std::string(op) + " result");
  auto emit = [&](const TempTable& t, uint64_t row) {
    for (size_t c = 0; c < t.columns(); c++) out.append(c, t.value(row, c));
  };
  if (s.set_op == SetOp::kUnion && s.set_all) {
    for (uint64_t i = 0; i < lt.rows(); i++) emit(lt, i);
    for (uint64_t i = 0; i < rt.rows(); i++) emit(rt, i);
  } else if (s.set_op == SetOp::kUnion) {
    std::unordered_set<std::string> seen;
    for (const TempTable* t : {&lt, &rt})
      for (uint64_t i = 0; i < t->rows(); i++)
        if (seen.insert(row_key(*t, i)).second) emit(*t, i);
  } else {
    // Rows of the right operand with their counts; INTERSECT keeps left rows found
    // there, EXCEPT those not found (ALL: as many times as the counts allow).
    std::unordered_map<std::string, uint64_t> right;
    for (uint64_t i = 0; i < rt.rows(); i++) right[row_key(rt, i)]++;
    std::unordered_set<std::string> done;
    const bool intersect = s.set_op == SetOp::kIntersect;
    for (uint64_t i = 0; i < lt.rows(); i++) {
      std::string key = row_key(lt, i);
      auto it = right.find(key);
      const bool found = it != right.end() && it->second > 0;
      if (s.set_all) {
        if (found) it->second--;
        if (found == intersect) emit(lt, i);
      } else if (found == intersect && done.insert(std::move(key)).second) {
        emit(lt, i);
      }
    }
  }
  ctes_.emplace_back("\x01set", out.finish());
  // SELECT * FROM the combined rows, with the query's ORDER BY / LIMIT / OFFSET.
  SelectStatement outer;
  auto star = std::make_shared<AstExpr>();
  star->kind = AstKind::kStar;
  outer.select.push_back({star, ""});
  TableItem from;
  from.name = "\x01set";
  from.alias = "unnamed_set";
  outer.from.push_back(from);
  outer.order_by = s.order_by;
  outer.limit = s.limit;
  outer.offset = s.offset;
  return bind_inlined(outer);
}

}  // namespace raydb::sql
