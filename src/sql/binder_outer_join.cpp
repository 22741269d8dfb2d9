// LEFT / RIGHT / FULL [OUTER] JOIN, as temporary tables: `L JOIN_TYPE R ON cond` (L
// being every FROM item before R, inner-joined as written) becomes one FROM item
// holding the joined rows, computed from blocks the executors already run:
//   matched rows     SELECT l.*, r.* FROM L, R WHERE <L's ON> AND cond
//   unmatched of L   SELECT l.*, NULL... FROM L WHERE NOT matched_l  (LEFT, FULL)
//   unmatched of R   SELECT NULL..., r.* FROM R WHERE NOT matched_r  (RIGHT, FULL)
// cond must be one equality lkey = rkey between the sides plus conditions on one side
// each; matched_l is (L-only conditions AND lkey IN (SELECT rkey FROM R WHERE R-only
// conditions)), a semi join, and NOT of it is taken two-valued (CASE), so a NULL key or
// an unknown condition counts as no match, as ON does. Later items join the result;
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

// One column of a joined side: the item it comes from and its name.
struct SideColumn {
  std::string qualifier, name;
  Type type;
};

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
    std::vector<SideColumn> cols;
    for (auto& [alias, t] : src)
      for (size_t c = 0; c < t.columns(); c++)
        if (star || names.count(to_lower(t.name(c))))
          cols.push_back({t.qualifiers.empty() ? alias : t.qualifiers[c], t.name(c), t.type(c)});
    return cols;
  };
  const std::vector<SideColumn> lcols = columns_of(lsrc), rcols = columns_of(rsrc);
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

  // cond = lkey = rkey AND L-only AND R-only.
  std::vector<AstPtr> terms, lonly, ronly;
  split_and(cond, terms);
  AstPtr lkey, rkey;
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
      fail(ErrorKind::kNotImplemented,
           "{} ... ON is supported with one equality between the two sides and conditions on one side each, "
           "not '{}'", what, t->to_string());
  }
  if (!lkey)
    fail(ErrorKind::kNotImplemented, "{} ... ON needs an equality between the two sides (line {}, column {})", what,
         right.line, right.column);

  auto column_ast = [](const SideColumn& c) {
    auto e = std::make_shared<AstExpr>();
    e->kind = AstKind::kColumn;
    e->qualifier = c.qualifier;
    e->name = c.name;
    e->quoted = true;
    return e;
  };
  auto null_of = [](const SideColumn& c) {
    auto e = std::make_shared<AstExpr>();
    e->kind = AstKind::kCast;
    e->cast_type = c.type;
    e->children = {literal(Value::null(), "NULL")};
    return e;
  };
  auto select_list = [&](SelectStatement& q, bool left_nulls, bool right_nulls) {
    size_t n = 0;
    for (auto& c : lcols) q.select.push_back({left_nulls ? null_of(c) : column_ast(c), "c" + std::to_string(++n)});
    for (auto& c : rcols) q.select.push_back({right_nulls ? null_of(c) : column_ast(c), "c" + std::to_string(++n)});
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
  {
    SelectStatement matched;
    matched.from = left;
    TableItem r = right;
    r.on = cond;
    matched.from.push_back(r);
    select_list(matched, false, false);
    parts.push_back(materialize(matched, "joined", {}, what));
  }
  if (kind != TableItem::Join::kRight) {
    SelectStatement l;
    l.from = left;
    l.where = unmatched(lkey, lonly, rkey, {right}, ronly);
    select_list(l, false, true);
    parts.push_back(materialize(l, "joined", {}, what));
  }
  if (kind != TableItem::Join::kLeft) {
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
  TempTableBuilder b("joined", internal, types, what);
  for (const TempTable& p : parts)
    for (size_t c = 0; c < internal.size(); c++) append_part_column(b, p, c);
  TempTable t = b.finish();
  t.qualifiers = std::move(shape.qualifiers);
  t.plain = std::move(shape.plain);
  return t;
}

}  // namespace raydb::sql
