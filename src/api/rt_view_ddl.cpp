#include "api/rt_view_ddl.h"

#include <cstdio>

#include "access/rt_view/view_rows.h"
#include "common/error.h"
#include "common/timer.h"

namespace raydb::api {
namespace {

using rtview::AggExpr;
using rtview::AttrRef;

// The view's tables in order (fact, then dimensions) with the names and aliases the
// statement uses for them.
struct ViewTables {
  std::vector<TablePtr> tables;
  std::vector<std::string> written;  // alias, else the name as written

  // The table and column a (possibly qualified) column reference means.
  AttrRef resolve(const sql::AstExpr& e, const char* role) const {
    if (e.kind != sql::AstKind::kColumn)
      fail(ErrorKind::kBinder, "rt view: {} item {} is not a column", role, e.to_string());
    AttrRef found;
    for (size_t t = 0; t < tables.size(); ++t) {
      if (!e.qualifier.empty() && !iequals(e.qualifier, written[t]) && !iequals(e.qualifier, tables[t]->name())) continue;
      const int c = tables[t]->find_column(e.name);
      if (c < 0) continue;
      if (!found.table.empty())
        fail(ErrorKind::kBinder, "rt view: column {} is ambiguous (in {} and {})", e.name, found.table, tables[t]->name());
      found = AttrRef{tables[t]->name(), tables[t]->column(size_t(c)).name()};
    }
    if (found.table.empty()) fail(ErrorKind::kBinder, "rt view: unknown column {} in {}", e.to_string(), role);
    return found;
  }

  AggExpr input(const sql::AstExpr& e) const {
    if (e.kind == sql::AstKind::kColumn) {
      const AttrRef a = resolve(e, "AGGREGATE");
      return AggExpr::col(a.column, a.table);
    }
    if (e.kind == sql::AstKind::kLiteral && (e.value.type().id == TypeId::kInteger || e.value.type().id == TypeId::kBigint))
      return AggExpr::lit(e.value.as_int());
    if (e.kind == sql::AstKind::kBinary && (e.op == "+" || e.op == "-" || e.op == "*"))
      return AggExpr::binary(e.op == "+" ? AggExpr::Op::kAdd : e.op == "-" ? AggExpr::Op::kSub : AggExpr::Op::kMul,
                             input(*e.children[0]), input(*e.children[1]));
    fail(ErrorKind::kBinder, "rt view: aggregate input {} is not an integer expression of + - * over columns",
         e.to_string());
  }
};

ViewTables view_tables(const sql::CreateRtViewStatement& s, const DatabaseDirectory& dir) {
  ViewTables v;
  for (const sql::TableItem& item : s.from) {
    TablePtr t = dir.table(item.name);
    if (!t) fail(ErrorKind::kBinder, "rt view: unknown table '{}'", item.name);
    for (const TablePtr& other : v.tables)
      if (other == t) fail(ErrorKind::kBinder, "rt view: table {} appears twice", t->name());
    v.tables.push_back(t);
    v.written.push_back(item.alias.empty() ? item.name : item.alias);
  }
  return v;
}

// JOIN dim ON a = b: one side a fact column, the other a column of dim.
rtview::ViewJoin view_join(const ViewTables& v, size_t d, const sql::TableItem& item) {
  const std::string shape = "rt view: join " + v.tables[d]->name() + " with ON fact_key = " + v.tables[d]->name() + "_key";
  if (!item.on) fail(ErrorKind::kBinder, "{} (a star join: JOIN ... ON, not a FROM list)", shape);
  const sql::AstExpr& on = *item.on;
  if (on.kind != sql::AstKind::kBinary || on.op != "=" || on.children[0]->kind != sql::AstKind::kColumn ||
      on.children[1]->kind != sql::AstKind::kColumn)
    fail(ErrorKind::kBinder, "{}, not {}", shape, on.to_string());
  const AttrRef a = v.resolve(*on.children[0], "ON"), b = v.resolve(*on.children[1], "ON");
  const std::string& fact = v.tables[0]->name();
  const std::string& dim = v.tables[d]->name();
  if (a.table == fact && b.table == dim) return {dim, a.column, b.column};
  if (b.table == fact && a.table == dim) return {dim, b.column, a.column};
  fail(ErrorKind::kBinder, "{}, not {} (a star join: each dimension joins the fact table {})", shape, on.to_string(), fact);
}

uint64_t rows_bytes(const rtview::ViewRows& r) { return r.host_bytes(); }

}  // namespace

rtview::ViewDefinition resolve_rt_view(const sql::CreateRtViewStatement& s, const DatabaseDirectory& dir) {
  const ViewTables v = view_tables(s, dir);
  if (v.tables.size() < 2)
    fail(ErrorKind::kBinder, "rt view: a view joins a fact table with at least one dimension (FROM fact JOIN dim ON ...)");
  if (s.from[0].on) fail(ErrorKind::kBinder, "rt view: the first table is the fact table and has no ON");
  if (s.filters.empty() && s.groups.empty())
    fail(ErrorKind::kBinder, "rt view: name its roles: WITH (filter = (...), group = (...), aggregate = (...))");
  rtview::ViewDefinition def;
  def.name = s.name;
  def.fact = v.tables[0]->name();
  for (size_t d = 1; d < v.tables.size(); ++d) def.joins.push_back(view_join(v, d, s.from[d]));
  auto roles = [&](const std::vector<sql::AstPtr>& items, const char* role, std::vector<AttrRef>& out) {
    for (const sql::AstPtr& e : items) {
      AttrRef a = v.resolve(*e, role);
      for (const AttrRef& o : out)
        if (o.table == a.table && o.column == a.column) fail(ErrorKind::kBinder, "rt view: {} names {} twice", role, a.column);
      out.push_back(std::move(a));
    }
  };
  roles(s.filters, "FILTER", def.filters);
  roles(s.groups, "GROUP", def.groups);
  for (const sql::AstPtr& e : s.aggregates) def.inputs.push_back({e->to_string(), v.input(*e)});
  return def;
}

RtViewSummary commit_rt_view(DatabaseDirectory& dir, exec::ViewCatalog& views, const rtview::ViewDefinition& def,
                             bool replace) {
  Timer timer;
  RtViewEntry entry;
  entry.name = def.name;
  entry.tables.push_back(def.fact);
  for (const rtview::ViewJoin& j : def.joins) entry.tables.push_back(j.dimension);
  // Versions first, then the tables: a table replaced in between makes the view look
  // stale (rebuilt again), never fresh.
  for (const std::string& t : entry.tables) entry.versions.push_back(dir.table_version(t));
  // Columns verified here, on this thread (materializing reads them in parallel).
  const auto rows = rtview::materialize_view(def, [&dir, &def](std::string_view n) {
    TablePtr t = dir.table(n);
    if (t)
      for (const ColumnPtr& c : t->columns()) {
        c->verify();
        // The view's rows hold stored values; a NULL's placeholder would join, group
        // and filter as a value, so tables holding NULLs are refused.
        if (c->has_nulls())
          fail(ErrorKind::kInvalidInput, "rt view {}: column {}.{} holds NULLs, which RT views cannot encode",
               def.name, t->name(), c->name());
      }
    return t;
  });
  entry.definition = rtview::definition_to_json(def);
  entry.rows = rows->rows;
  entry.bytes = rows_bytes(*rows);
  dir.put_rt_view(entry, [&rows](const std::string& d) { rtview::save_view_rows(*rows, d); }, replace);
  for (const RtViewEntry& e : dir.rt_views())
    if (iequals(e.name, def.name)) views.adopt(e, dir.path(), rows);
  return RtViewSummary{entry.rows, entry.bytes, timer.elapsed_ms()};
}

void refresh_rt_views(DatabaseDirectory& dir, exec::ViewCatalog& views) {
  auto stale = [&dir](const RtViewEntry& e) {
    for (size_t t = 0; t < e.tables.size(); ++t)
      if (dir.table_version(e.tables[t]) != e.versions[t]) return true;
    return false;
  };
  for (const RtViewEntry& e : dir.rt_views()) {
    if (!stale(e)) continue;
    try {
      const RtViewSummary s = commit_rt_view(dir, views, rtview::definition_from_json(e.definition), true);
      std::fprintf(stderr, "rt view %s: a base table changed; re-materialized %llu rows (%.1f MiB) in %.1f ms\n",
                   e.name.c_str(), (unsigned long long)s.rows, s.bytes / 1048576.0, s.ms);
    } catch (const std::exception& err) {  // raydb errors and filesystem ones alike
      // A view that no longer fits its tables (a column gone, a key no longer unique)
      // must not fail unrelated queries: it stays stale and unused until dropped.
      std::fprintf(stderr, "rt view %s: a base table changed and the view cannot be rebuilt (not used): %s\n",
                   e.name.c_str(), err.what());
    }
  }
  std::vector<RtViewEntry> fresh = dir.rt_views();
  std::erase_if(fresh, stale);
  views.sync(fresh, dir.path());
}

}  // namespace raydb::api
