#include "sql/view_inliner.h"

#include <set>

#include "common/error.h"
#include "common/expression_depth.h"
#include "sql/expression_binder.h"
#include "sql/parser.h"

namespace raydb::sql {

namespace {

constexpr int kMaxInlineDepth = 32;  // deeper nests are left to the materializing path

AstPtr clone(const AstPtr& e) {
  if (!e) return nullptr;
  ExpressionDepthGuard guard;
  auto c = std::make_shared<AstExpr>(*e);
  for (auto& child : c->children) child = clone(child);
  return c;
}

AstPtr and_of(AstPtr a, AstPtr b) {
  if (!a) return b;
  if (!b) return a;
  auto e = std::make_shared<AstExpr>();
  e->kind = AstKind::kBinary;
  e->op = "and";
  e->line = a->line;
  e->column = a->column;
  e->children = {std::move(a), std::move(b)};
  return e;
}

AstPtr column_ref(const std::string& qualifier, const std::string& name) {
  auto e = std::make_shared<AstExpr>();
  e->kind = AstKind::kColumn;
  e->qualifier = qualifier;
  e->name = name;
  return e;
}

bool is_inner_derived(const TableItem& t) { return t.subquery && !t.function && t.join == TableItem::Join::kInner; }

// A subquery anywhere but as an inner-joined derived table of the FROM list.
bool has_subquery_besides_derived(const SelectStatement& s) {
  SelectStatement rest = s;  // shallow: the items' ASTs are shared
  for (TableItem& t : rest.from)
    if (is_inner_derived(t)) t.subquery = nullptr;  // its ON is still looked at
  return statement_has_subquery(rest);
}

bool is_simple(const SelectStatement& s) {
  if (statement_has_subquery(s) || statement_has_window(s)) return false;  // WITH, set operations, subqueries, windows: materialized
  if (s.distinct || !s.group_by.empty() || s.having || !s.order_by.empty() || s.limit || s.offset || s.from.empty())
    return false;
  for (auto& item : s.select)
    if (contains_aggregate(*item.expr)) return false;
  return true;
}

}  // namespace

// A FROM item: a base table (its references get qualified with `qualifier`) or an
// inlined view (its references become the view's expressions).
struct ViewInliner::Source {
  std::string alias;
  std::string qualifier;  // base: the alias the rewritten query uses
  TablePtr table;         // base only
  std::vector<std::string> names;  // view only: output names
  std::vector<AstPtr> exprs;       // view only: their expressions
  int find(const std::string& name) const {
    if (table) return table->find_column(name);
    for (size_t i = 0; i < names.size(); i++)
      if (iequals(names[i], name)) return int(i);
    return -1;
  }
};

// A view ready to splice in: its tables, conditions and output columns.
struct ViewInliner::Expanded {
  std::vector<TableItem> from;
  AstPtr condition;
  Source source;
};

namespace {

// Rewrites the column references of `e` against `sources` (copying the tree).
// `aliases`: select-list names an unqualified name may stand for. Sets ok = false when
// a reference does not resolve to exactly one source.
struct RefRewriter {
  const std::vector<ViewInliner::Source>* sources;
  std::set<std::string> aliases;  // lower case
  // Lower-case column names of the inlined views' tables: the binder would find them
  // where the query meant a select-list alias, so such a name stops the rewrite.
  std::set<std::string> hidden;
  bool ok = true;
  bool changed = false;

  AstPtr rewrite(const AstPtr& e);
};

}  // namespace

AstPtr RefRewriter::rewrite(const AstPtr& e) {
  if (!e || !ok) return e;
  ExpressionDepthGuard guard;
  if (e->kind == AstKind::kStar && !e->qualifier.empty()) {
    ok = false;  // t.* outside the select list (count(t.*)): not rewritten
    return e;
  }
  if (e->kind != AstKind::kColumn) {
    auto c = std::make_shared<AstExpr>(*e);
    for (auto& child : c->children) child = rewrite(child);
    return c;
  }
  const ViewInliner::Source* hit = nullptr;
  int column = -1, hits = 0;
  for (const auto& s : *sources) {
    if (!e->qualifier.empty() && !iequals(s.alias, e->qualifier)) continue;
    const int c = s.find(e->name);
    if (c >= 0) hit = &s, column = c, hits++;
  }
  if (hits != 1) {
    if (hits == 0 && e->qualifier.empty() && aliases.count(to_lower(e->name)) && !hidden.count(to_lower(e->name)))
      return e;
    ok = false;
    return e;
  }
  if (hit->table) {
    AstPtr c = std::make_shared<AstExpr>(*e);
    c->qualifier = hit->qualifier;
    return c;
  }
  changed = true;
  return clone(hit->exprs[size_t(column)]);
}

bool ViewInliner::is_view(const std::string& name) const { return views_ && !name.empty() && views_(name); }

std::optional<ViewInliner::Expanded> ViewInliner::expand(const TableItem& item, int depth) {
  if (depth >= kMaxInlineDepth) return std::nullopt;
  SelectStatement inner;
  if (item.subquery) {
    // A derived table is a view written in place (FROM (SELECT ...) alias); renamed
    // columns and outer joins keep the materializing path.
    if (!is_inner_derived(item) || item.alias.empty() || !item.column_aliases.empty()) return std::nullopt;
    inner = inline_views(*item.subquery, depth + 1);
  } else {
    const std::optional<std::string> sql = views_ && !item.name.empty() ? views_(item.name) : std::nullopt;
    if (!sql) return std::nullopt;
    Statement st;
    try {
      st = Parser(*sql).parse_statement();
    } catch (const Error&) {
      return std::nullopt;  // the materializing path reports it
    }
    if (st.type != StatementType::kSelect || st.explain) return std::nullopt;
    inner = inline_views(st.select, depth + 1);
  }
  if (!is_simple(inner)) return std::nullopt;
  Expanded out;
  out.source.alias = item.alias.empty() ? item.name : item.alias;
  std::vector<Source> tables;
  for (const TableItem& t : inner.from) {
    if (t.subquery || is_view(t.name)) return std::nullopt;  // one that could not be inlined
    Source s;
    s.alias = t.alias.empty() ? t.name : t.alias;
    s.table = tables_(t.name);
    if (!s.table) return std::nullopt;
    s.qualifier = out.source.alias + "." + s.alias;
    TableItem renamed = t;
    renamed.alias = s.qualifier;
    renamed.on = nullptr;
    out.from.push_back(renamed);
    tables.push_back(std::move(s));
  }
  RefRewriter rw{&tables, {}};
  out.condition = rw.rewrite(inner.where);
  for (const TableItem& t : inner.from) out.condition = and_of(out.condition, rw.rewrite(t.on));
  for (const SelectItem& si : inner.select) {
    if (si.expr->kind == AstKind::kStar) {
      for (const Source& s : tables) {
        if (!si.expr->qualifier.empty() && !iequals(si.expr->qualifier, s.alias)) continue;
        for (auto& c : s.table->columns()) {
          out.source.names.push_back(c->name());
          out.source.exprs.push_back(column_ref(s.qualifier, c->name()));
        }
      }
      continue;
    }
    std::string name = si.alias;
    if (name.empty() && si.expr->kind == AstKind::kColumn) {
      for (const Source& s : tables)
        if ((si.expr->qualifier.empty() || iequals(si.expr->qualifier, s.alias)) && s.table->find_column(si.expr->name) >= 0)
          name = s.table->column(size_t(s.table->find_column(si.expr->name))).name();
    }
    if (name.empty()) name = si.expr->to_string();
    out.source.names.push_back(name);
    // A constant column stays materialized: spliced into the outer GROUP BY or ORDER
    // BY, an integer literal would read as an output's ordinal.
    if (si.expr->kind == AstKind::kLiteral) return std::nullopt;
    out.source.exprs.push_back(rw.rewrite(si.expr));
  }
  if (!rw.ok) return std::nullopt;
  for (size_t i = 0; i < out.source.names.size(); i++)
    for (size_t j = 0; j < i; j++)
      if (iequals(out.source.names[i], out.source.names[j])) return std::nullopt;
  return out;
}

SelectStatement ViewInliner::inline_views(const SelectStatement& s, int depth) {
  // Names inside subqueries would not be rewritten (derived tables are spliced in).
  if (has_subquery_besides_derived(s) || statement_has_window(s)) return s;
  std::vector<std::optional<Expanded>> expanded;
  bool any = false, other_view = false;
  for (const TableItem& item : s.from) {
    expanded.push_back(expand(item, depth));
    any = any || expanded.back().has_value();
    other_view = other_view || (!expanded.back() && (item.subquery || is_view(item.name)));
  }
  // A view left as a FROM item would be materialized; its columns are not known
  // here, so unqualified names could not be resolved safely: inline nothing.
  if (!any || other_view) return s;
  std::vector<Source> sources;
  for (size_t i = 0; i < s.from.size(); i++) {
    if (expanded[i]) {
      sources.push_back(expanded[i]->source);
      continue;
    }
    Source b;
    b.alias = s.from[i].alias.empty() ? s.from[i].name : s.from[i].alias;
    b.qualifier = b.alias;
    b.table = tables_(s.from[i].name);
    if (!b.table) return s;  // the binder reports the unknown table
    sources.push_back(std::move(b));
  }
  SelectStatement out = s;
  RefRewriter rw{&sources, {}};
  for (auto& e : expanded)
    if (e)
      for (const TableItem& t : e->from)
        if (TablePtr table = tables_(t.name))
          for (auto& c : table->columns()) rw.hidden.insert(to_lower(c->name()));
  // Select list: * and v.* expand to the view's columns under their names; a select
  // item that used a view column keeps the name it had.
  out.select.clear();
  for (const SelectItem& item : s.select) {
    if (item.expr->kind == AstKind::kStar) {
      for (const Source& src : sources) {
        if (!item.expr->qualifier.empty() && !iequals(item.expr->qualifier, src.alias)) continue;
        if (src.table) {
          auto star = std::make_shared<AstExpr>(*item.expr);
          star->qualifier = src.qualifier;
          out.select.push_back({star, ""});
        } else {
          for (size_t c = 0; c < src.names.size(); c++) out.select.push_back({clone(src.exprs[c]), src.names[c]});
        }
      }
      continue;
    }
    rw.changed = false;
    SelectItem n{rw.rewrite(item.expr), item.alias};
    if (rw.changed && n.alias.empty())
      n.alias = item.expr->kind == AstKind::kColumn ? item.expr->name : item.expr->to_string();
    if (item.expr->kind == AstKind::kColumn && rw.changed && item.alias.empty())
      for (const Source& src : sources)
        if (!src.table && src.find(item.expr->name) >= 0 &&
            (item.expr->qualifier.empty() || iequals(item.expr->qualifier, src.alias)))
          n.alias = src.names[size_t(src.find(item.expr->name))];
    out.select.push_back(std::move(n));
  }
  for (const SelectItem& item : out.select)
    if (!item.alias.empty()) rw.aliases.insert(to_lower(item.alias));
    else if (item.expr->kind == AstKind::kColumn) rw.aliases.insert(to_lower(item.expr->name));
  out.where = rw.rewrite(s.where);
  for (auto& g : out.group_by) g = rw.rewrite(g);
  out.having = rw.rewrite(s.having);
  for (auto& o : out.order_by) {
    // A bare name that is an output name means that output (the binder's rule).
    if (o.expr->kind == AstKind::kColumn && o.expr->qualifier.empty() && rw.aliases.count(to_lower(o.expr->name)))
      continue;
    o.expr = rw.rewrite(o.expr);
  }
  out.from.clear();
  AstPtr conditions;
  for (size_t i = 0; i < s.from.size(); i++) {
    if (!expanded[i]) {
      TableItem t = s.from[i];
      t.on = rw.rewrite(t.on);
      out.from.push_back(std::move(t));
      continue;
    }
    for (const TableItem& t : expanded[i]->from) out.from.push_back(t);
    conditions = and_of(conditions, and_of(rw.rewrite(s.from[i].on), clone(expanded[i]->condition)));
  }
  out.where = and_of(out.where, conditions);
  if (!rw.ok) return s;
  return out;
}

}  // namespace raydb::sql
