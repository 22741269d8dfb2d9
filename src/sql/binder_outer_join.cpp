// LEFT / RIGHT / FULL [OUTER] JOIN, as temporary tables: `L JOIN_TYPE R ON cond` (L
// being every FROM item before R, inner-joined as written) becomes one FROM item
// holding the joined rows, computed from blocks the executors already run:
//   matched rows     SELECT l.*, r.* FROM L, R WHERE <L's ON> AND cond
//   unmatched of L   SELECT l.*, NULL... FROM L WHERE NOT matched_l  (LEFT, FULL)
//   unmatched of R   SELECT NULL..., r.* FROM R WHERE NOT matched_r  (RIGHT, FULL)
// When cond is one equality lkey = rkey between the sides plus conditions on one side
// each, matched_l is (L-only conditions AND lkey IN (SELECT rkey FROM R WHERE R-only
// conditions)), a semi join, and NOT of it is taken two-valued (CASE), so a NULL key or
// an unknown condition counts as no match, as ON does. Any other cond (no equality, a
// non-equi or OR condition across the sides) numbers each side's rows first and takes
// the unmatched rows as those whose number is not among the matched pairs' (see
// outer_join_by_rows). Later items join the result;
// WHERE applies after the join, as SQL says. Columns keep their items' names
// (TempTable::qualifiers), so l.x, r.x and unambiguous x resolve as before. Only the
// columns the statement names anywhere are kept.
#include <set>

#include "common/error.h"
#include "sql/ast_nodes.h"
#include "sql/binder.h"
#include "sql/join_parts.h"

namespace raydb::sql {

namespace {

AstPtr make(AstKind kind, const std::string& op, std::vector<AstPtr> children) {
  auto e = std::make_shared<AstExpr>();
  e->kind = kind;
  e->op = op;
  e->children = std::move(children);
  return e;
}

AstPtr conjunction(const std::vector<AstPtr>& terms) {
  AstPtr out;
  for (auto& t : terms) out = out ? make(AstKind::kBinary, "and", {out, t}) : t;
  return out;
}

AstPtr literal(Value v, const std::string& text) {
  auto e = std::make_shared<AstExpr>();
  e->kind = AstKind::kLiteral;
  e->value = std::move(v);
  e->text = text;
  return e;
}

// NULL of a side column's type (the other side's columns of an unmatched row).
AstPtr null_of(const Type& type) {
  auto e = std::make_shared<AstExpr>();
  e->kind = AstKind::kCast;
  e->cast_type = type;
  e->children = {literal(Value::null(), "NULL")};
  return e;
}

using Sources = std::vector<std::pair<std::string, TempTable>>;

// Whether e, over the columns of two sides, may be NULL (conservative: what is not
// known may be).
bool may_be_null(const AstExpr& e, const Sources& l, const Sources& r) {
  switch (e.kind) {
    case AstKind::kLiteral: return e.value.is_null();
    case AstKind::kColumn:
      for (const Sources* src : {&l, &r})
        for (auto& [alias, t] : *src) {
          int c = -1;
          if (e.qualifier.empty() || iequals(alias, e.qualifier)) c = t.find_column(e.name);
          else if (t.has_qualifier(e.qualifier)) c = t.find_qualified(e.qualifier, e.name);
          if (c >= 0) return t.nullable(size_t(c));
        }
      return true;
    case AstKind::kCase:
      if (!e.has_else) return true;
      break;
    case AstKind::kIsNull: return false;
    case AstKind::kSubquery:
    case AstKind::kFunction: return true;
    default: break;
  }
  for (auto& c : e.children)
    if (may_be_null(*c, l, r)) return true;
  return false;
}

}  // namespace

SelectStatement Binder::fold_outer_joins(const SelectStatement& s) {
  bool any = false;
  for (auto& t : s.from) any = any || t.join != TableItem::Join::kInner;
  if (!any) return s;
  SelectStatement out = s;
  for (size_t i = 1; i < out.from.size(); i++) {
    if (out.from[i].join == TableItem::Join::kInner) continue;
    // The joined rows keep the columns named anywhere but in this join's own ON (the
    // join consumes those: Q13's o_comment, 1.5 M strings, need not be copied).
    std::set<std::string> names;
    bool star = false;
    {
      SelectStatement rest = out;
      rest.from[i].on = nullptr;
      statement_names(rest, names, star);
    }
    std::vector<TableItem> left(out.from.begin(), out.from.begin() + long(i));
    TempTable joined = outer_join(left, out.from[i], names, star);
    const std::string hidden = "\x01join" + std::to_string(ctes_.size());
    ctes_.emplace_back(hidden, std::move(joined));
    TableItem item;
    item.name = hidden;
    item.alias = "unnamed_join";
    item.line = out.from[i].line, item.column = out.from[i].column;
    std::vector<TableItem> rest(out.from.begin() + long(i) + 1, out.from.end());
    out.from = {item};
    out.from.insert(out.from.end(), rest.begin(), rest.end());
    i = 0;
  }
  return out;
}

// The columns of FROM items as they are named, with their types (derived tables are
// run first and read as hidden WITH queries, so each side runs once).
std::vector<std::pair<std::string, TempTable>> Binder::join_sources(std::vector<TableItem>& items) {
  std::vector<std::pair<std::string, TempTable>> out;
  for (TableItem& item : items) {
    const std::string alias = item.alias.empty() ? item.name : item.alias;
    TempTable shape;
    if (item.subquery) {
      shape = materialize(*item.subquery, alias, item.column_aliases, "derived table " + alias);
      item.name = "\x01" "derived" + std::to_string(ctes_.size());
      item.subquery = nullptr;
      item.column_aliases.clear();
      ctes_.emplace_back(item.name, shape);
    } else if (item.function) {  // read once, as a hidden WITH query
      shape = table_function(item);
      item.name = "\x01" "function" + std::to_string(ctes_.size());
      item.function = false;
      item.function_args.clear();
      item.column_aliases.clear();
      ctes_.emplace_back(item.name, shape);
    } else if (const TempTable* cte = find_cte(item.name)) {
      shape = item.column_aliases.empty() ? *cte : cte->renamed(cte->table->name(), item.column_aliases);
    } else if (std::optional<TempTable> view = view_rows(item)) {  // run once, read as a hidden WITH query
      shape = std::move(*view);
      item.name = "\x01view" + std::to_string(ctes_.size());
      item.column_aliases.clear();
      ctes_.emplace_back(item.name, shape);
    } else {
      TablePtr t = resolve_(item.name);
      if (!t) fail(ErrorKind::kBinder, "unknown table '{}'", item.name);
      shape = TempTable::stored(std::move(t));
    }
    out.emplace_back(alias, std::move(shape));
  }
  return out;
}

TempTable Binder::outer_join(std::vector<TableItem> left, TableItem right, const std::set<std::string>& names,
                             bool star) {
  const TableItem::Join kind = right.join;
  const char* what = kind == TableItem::Join::kLeft ? "LEFT JOIN" : kind == TableItem::Join::kRight ? "RIGHT JOIN"
                                                                                                     : "FULL JOIN";
  right.join = TableItem::Join::kInner;
  const AstPtr cond = right.on;
  right.on = nullptr;
  std::vector<TableItem> right_items = {right};
  auto lsrc = join_sources(left);
  auto rsrc = join_sources(right_items);
  right = right_items[0];

  // The kept columns of each side, and which side a column reference reads.
  auto columns_of = [&](const std::vector<std::pair<std::string, TempTable>>& src) {
    std::vector<Binder::OuterJoinColumn> cols;
    for (auto& [alias, t] : src)
      for (size_t c = 0; c < t.columns(); c++)
        if (star || names.count(to_lower(t.name(c))))
          cols.push_back({t.qualifiers.empty() ? alias : t.qualifiers[c], t.name(c), t.type(c)});
    return cols;
  };
  const std::vector<Binder::OuterJoinColumn> lcols = columns_of(lsrc), rcols = columns_of(rsrc);
  auto reads = [](const std::vector<std::pair<std::string, TempTable>>& src, const AstExpr& c) {
    for (auto& [alias, t] : src) {
      if (c.qualifier.empty() ? t.find_column(c.name) != -1
                              : iequals(alias, c.qualifier) || t.has_qualifier(c.qualifier))
        return true;
    }
    return false;
  };
  struct Sides {
    bool left = false, right = false;
  };
  std::function<void(const AstExpr&, Sides&)> sides = [&](const AstExpr& e, Sides& s) {
    if (e.kind == AstKind::kColumn) {
      const bool r = reads(rsrc, e), l = reads(lsrc, e);
      if (r && l && e.qualifier.empty())
        fail(ErrorKind::kBinder, "column reference '{}' is ambiguous in {} ... ON", e.to_string(), what);
      s.right = s.right || r;
      s.left = s.left || (l && !r);
    }
    if (e.subquery) fail(ErrorKind::kNotImplemented, "a subquery in {} ... ON is not supported", what);
    for (auto& c : e.children) sides(*c, s);
  };

  // cond = lkey = rkey AND L-only AND R-only takes the semi-join form below; any other
  // cond (no equality between the sides, or more terms reading both) the general one.
  std::vector<AstPtr> terms, lonly, ronly;
  split_and(cond, terms);
  AstPtr lkey, rkey;
  bool general = false;
  for (const AstPtr& t : terms) {
    Sides s;
    sides(*t, s);
    if (!s.right) {
      lonly.push_back(t);
    } else if (!s.left) {
      ronly.push_back(t);
    } else if (!lkey && t->kind == AstKind::kBinary && t->op == "=") {
      Sides a, b;
      sides(*t->children[0], a);
      sides(*t->children[1], b);
      if (a.left && !a.right && b.right && !b.left) lkey = t->children[0], rkey = t->children[1];
      else if (b.left && !b.right && a.right && !a.left) lkey = t->children[1], rkey = t->children[0];
    }
    if (s.left && s.right && !(lkey && (t->children.size() == 2 && (t->children[0] == lkey || t->children[1] == lkey))))
      general = true;
  }
  general = general || !lkey;

  auto column_ast = [](const Binder::OuterJoinColumn& c) { return col(c.qualifier, c.name); };
  auto select_list = [&](SelectStatement& q, bool left_nulls, bool right_nulls) {
    size_t n = 0;
    for (auto& c : lcols) q.select.push_back({left_nulls ? null_of(c.type) : column_ast(c), "c" + std::to_string(++n)});
    for (auto& c : rcols)
      q.select.push_back({right_nulls ? null_of(c.type) : column_ast(c), "c" + std::to_string(++n)});
    if (q.select.empty()) q.select.push_back({literal(Value::integer(0), "0"), "c1"});
  };
  auto nullable = [&](const AstExpr& e) { return may_be_null(e, lsrc, rsrc); };
  // NOT (conditions AND key IN (SELECT DISTINCT other key ... WHERE other key IS NOT
  // NULL)), two-valued: plainly when nothing in it can be NULL (then it compiles to a
  // column predicate), else as CASE WHEN ... THEN 0 ELSE 1 END = 1.
  auto unmatched = [&](const AstPtr& key, std::vector<AstPtr> own, const AstPtr& other_key,
                       std::vector<TableItem> other_from, std::vector<AstPtr> other_conds) {
    bool two_valued = !nullable(*key);
    for (auto& t : own) two_valued = two_valued && !nullable(*t);
    auto keys = std::make_shared<SelectStatement>();
    keys->from = std::move(other_from);
    keys->distinct = true;
    keys->select.push_back({other_key, ""});
    other_conds.push_back(make(AstKind::kIsNull, "", {other_key}));
    other_conds.back()->negated = true;
    keys->where = conjunction(other_conds);
    auto in = std::make_shared<AstExpr>();
    in->kind = AstKind::kInList;
    in->children = {key};
    in->subquery = keys;
    in->text = "(keys)";
    if (two_valued) {
      own.push_back(in);
      return make(AstKind::kUnary, "not", {conjunction(own)});
    }
    own.push_back(make(AstKind::kIsNull, "", {key}));
    own.back()->negated = true;
    own.push_back(in);
    auto c = std::make_shared<AstExpr>();
    c->kind = AstKind::kCase;
    c->has_else = true;
    c->children = {conjunction(own), literal(Value::integer(0), "0"), literal(Value::integer(1), "1")};
    return make(AstKind::kBinary, "=", {c, literal(Value::integer(1), "1")});
  };

  std::vector<TempTable> parts;
  if (general) {
    std::set<std::string> on;
    bool on_star = false;
    SelectStatement reads;
    reads.where = cond;
    statement_names(reads, on, on_star);
    parts = outer_join_by_rows(left, right, kind, cond, lcols, rcols, on, what);
  }
  if (!general) {
    SelectStatement matched;
    matched.from = left;
    TableItem r = right;
    r.on = cond;
    matched.from.push_back(r);
    select_list(matched, false, false);
    parts.push_back(materialize(matched, "joined", {}, what));
  }
  if (!general && kind != TableItem::Join::kRight) {
    SelectStatement l;
    l.from = left;
    l.where = unmatched(lkey, lonly, rkey, {right}, ronly);
    select_list(l, false, true);
    parts.push_back(materialize(l, "joined", {}, what));
  }
  if (!general && kind != TableItem::Join::kLeft) {
    SelectStatement r;
    r.from = {right};
    r.where = unmatched(rkey, ronly, lkey, left, lonly);
    select_list(r, true, false);
    parts.push_back(materialize(r, "joined", {}, what));
  }

  std::vector<std::string> internal;
  std::vector<Type> types;
  TempTable shape;
  for (const auto* cols : {&lcols, &rcols})
    for (auto& c : *cols) {
      internal.push_back(c.qualifier + "." + c.name);
      types.push_back(c.type);
      shape.qualifiers.push_back(c.qualifier);
      shape.plain.push_back(c.name);
    }
  if (internal.empty()) {  // only the rows count (count(*)): each part's constant first column
    internal.push_back("\x01rows");
    types.push_back(Type::integer());
    shape.qualifiers.push_back("\x01rows");
    shape.plain.push_back("\x01rows");
  }
  TempTableBuilder b("joined", internal, types, what);
  for (const TempTable& p : parts)
    for (size_t c = 0; c < internal.size(); c++) append_part_column(b, p, c);
  TempTable t = b.finish();
  t.qualifiers = std::move(shape.qualifiers);
  t.plain = std::move(shape.plain);
  return t;
}

std::vector<TempTable> Binder::outer_join_by_rows(const std::vector<TableItem>& left, const TableItem& right,
                                                  TableItem::Join kind, const AstPtr& cond,
                                                  const std::vector<OuterJoinColumn>& lcols,
                                                  const std::vector<OuterJoinColumn>& rcols,
                                                  const std::set<std::string>& on, const char* what) {
  // A result read by later statements as a hidden WITH query named `alias`.
  auto hidden = [&](const TempTable& t, const std::string& alias) {
    TableItem item;
    item.name = "\x01outer" + std::to_string(ctes_.size());
    item.alias = alias;
    ctes_.emplace_back(item.name, t);
    return item;
  };
  // One side's rows numbered 1..n (row_number() OVER (), "__row"), its kept columns and
  // those cond reads (`on`), keeping the names of the items they come from, so that
  // cond reads them as written.
  auto numbered = [&](std::vector<TableItem> from, const std::vector<OuterJoinColumn>& kept, const std::string& alias) {
    SelectStatement q;
    q.from = std::move(from);
    std::vector<OuterJoinColumn> cols = kept;
    for (auto& [item, t] : join_sources(q.from))
      for (size_t c = 0; c < t.columns(); c++) {
        if (!on.count(to_lower(t.name(c)))) continue;
        OuterJoinColumn oc{t.qualifiers.empty() ? item : t.qualifiers[c], t.name(c), t.type(c)};
        bool have = false;
        for (auto& k : cols) have = have || (iequals(k.qualifier, oc.qualifier) && iequals(k.name, oc.name));
        if (!have) cols.push_back(oc);
      }
    std::vector<std::string> names;
    for (auto& c : cols) {
      q.select.push_back({col(c.qualifier, c.name), ""});
      names.push_back("c" + std::to_string(names.size() + 1));
    }
    auto rn = std::make_shared<AstExpr>();
    rn->kind = AstKind::kFunction;
    rn->name = "row_number";
    rn->over = std::make_shared<WindowSpecAst>();
    q.select.push_back({rn, "__row"});
    names.push_back("__row");
    TempTable t = materialize(q, "joined", names, what);
    for (auto& c : cols) t.qualifiers.push_back(c.qualifier), t.plain.push_back(c.name);
    t.qualifiers.push_back(alias);
    t.plain.push_back("__row");
    return hidden(t, alias);
  };
  const TableItem l = numbered(left, lcols, "\x01l"), r = numbered({right}, rcols, "\x01r");
  auto side_columns = [&](SelectStatement& q, const std::vector<OuterJoinColumn>& cols, bool nulls) {
    for (auto& c : cols) q.select.push_back({nulls ? null_of(c.type) : col(c.qualifier, c.name), ""});
  };
  // Nothing kept (count(*) only): a constant first column carries the rows.
  auto constant_first = [&](SelectStatement& q) {
    if (!lcols.empty() || !rcols.empty()) return;
    q.select.insert(q.select.begin(), {literal(Value::integer(0), "0"), ""});
  };
  auto named = [](const SelectStatement& q) {
    std::vector<std::string> names;
    for (size_t i = 0; i < q.select.size(); i++) names.push_back("c" + std::to_string(i + 1));
    return names;
  };
  // The matched pairs, with both row numbers after the columns (which parts past the
  // joined columns are not read: outer_join appends the first columns only).
  SelectStatement m;
  m.from = {l, r};
  m.where = cond;
  side_columns(m, lcols, false);
  side_columns(m, rcols, false);
  constant_first(m);
  m.select.push_back({col(l.alias, "__row"), ""});
  m.select.push_back({col(r.alias, "__row"), ""});
  std::vector<std::string> mnames = named(m);
  mnames[mnames.size() - 2] = "__lrow";
  mnames.back() = "__rrow";
  std::vector<TempTable> parts = {materialize(m, "joined", mnames, what)};
  const TableItem matched = hidden(parts[0], "\x01m");
  // A side's unmatched rows: its row number (never NULL, so NOT IN is two-valued) is
  // not among the matched pairs'.
  auto unmatched = [&](const TableItem& side, const char* row, bool left_side) {
    auto rows = std::make_shared<SelectStatement>();
    rows->from = {matched};
    rows->select.push_back({col("", row), ""});
    auto in = std::make_shared<AstExpr>();
    in->kind = AstKind::kInList;
    in->negated = true;
    in->children = {col(side.alias, "__row")};
    in->subquery = rows;
    in->text = "(matched rows)";
    SelectStatement q;
    q.from = {side};
    q.where = in;
    side_columns(q, lcols, !left_side);
    side_columns(q, rcols, left_side);
    constant_first(q);
    return materialize(q, "joined", named(q), what);
  };
  if (kind != TableItem::Join::kRight) parts.push_back(unmatched(l, "__lrow", true));
  if (kind != TableItem::Join::kLeft) parts.push_back(unmatched(r, "__rrow", false));
  return parts;
}

}  // namespace raydb::sql
