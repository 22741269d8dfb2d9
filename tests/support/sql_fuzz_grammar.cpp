#include "support/sql_fuzz_grammar.h"

namespace raydb::test::fuzz {

namespace {

bool numeric(K k) { return k == K::kInt || k == K::kBig || k == K::kDec || k == K::kDbl; }
bool any_kind(K) { return true; }

}  // namespace

const Schema& csv_schema() {
  static const Schema s{
      {{"emp",
        {{"id", K::kInt}, {"name", K::kStr}, {"dept", K::kStr}, {"salary", K::kDec}, {"hired", K::kDate},
         {"boss", K::kInt}, {"rating", K::kDbl}, {"pts", K::kBig}}},
       {"dept", {{"dept", K::kStr}, {"floor", K::kInt}, {"budget", K::kDec}, {"city", K::kStr}}},
       {"proj", {{"pid", K::kInt}, {"lead", K::kInt}, {"title", K::kStr}, {"cost", K::kDec}, {"start", K::kDate}}},
       {"one", {{"x", K::kInt}, {"s", K::kStr}, {"d", K::kDate}, {"m", K::kDec}, {"f", K::kDbl}, {"b", K::kBig}}},
       {"empty", {{"a", K::kInt}, {"s", K::kStr}, {"d", K::kDate}, {"m", K::kDec}}}},
      {{{{"emp", "e"}, {"dept", "d"}}, {"e.dept = d.dept"}},
       {{{"emp", "e"}, {"proj", "p"}}, {"p.lead = e.id"}},
       {{{"emp", "a"}, {"emp", "b"}}, {"a.boss = b.id"}},
       {{{"emp", "e"}, {"one", "o"}}, {}},  // a cross join with one row
       {{{"emp", "t"}}, {}}, {{{"dept", "t"}}, {}}, {{{"proj", "t"}}, {}}, {{{"one", "t"}}, {}}, {{{"empty", "t"}}, {}}}};
  return s;
}

const Schema& ssb_schema() {
  // Literals from the generator's domains (dbgen's), so filters select something.
  const std::vector<std::string> region = {"'ASIA'", "'AMERICA'", "'EUROPE'"};
  const std::vector<std::string> nation = {"'CHINA'", "'UNITED STATES'", "'BRAZIL'", "'UNITED KINGDOM'"};
  const std::vector<std::string> city = {"'UNITED KI1'", "'UNITED KI5'", "'CHINA    3'", "'BRAZIL   0'"};
  static const Schema s{
      {{"lineorder",
        {{"lo_orderkey", K::kInt, {"1", "100", "30000"}},
         {"lo_custkey", K::kInt, {"1", "150", "299"}},
         {"lo_orderdate", K::kInt, {"19920101", "19940615", "19971231", "19980802"}},
         {"lo_orderpriority", K::kStr, {"'1-URGENT'", "'3-MEDIUM'", "'5-LOW'"}},
         {"lo_quantity", K::kInt, {"1", "10", "25", "35", "50"}},
         {"lo_extendedprice", K::kInt, {"100000", "2000000", "5000000"}},
         {"lo_discount", K::kInt, {"0", "1", "3", "5", "8", "10"}},
         {"lo_revenue", K::kInt, {"100000", "1000000", "4000000"}},
         {"lo_supplycost", K::kInt, {"50000", "100000"}},
         {"lo_tax", K::kInt, {"0", "4", "8"}},
         {"lo_shipmode", K::kStr, {"'AIR'", "'MAIL'", "'TRUCK'", "'REG AIR'"}}}},
       {"date",
        {{"d_datekey", K::kInt, {"19920101", "19950630", "19981230"}},
         {"d_year", K::kInt, {"1992", "1993", "1995", "1997", "1998"}},
         {"d_yearmonthnum", K::kInt, {"199201", "199401", "199712"}},
         {"d_yearmonth", K::kStr, {"'Dec1997'", "'Jan1994'"}},
         {"d_month", K::kStr, {"'January'", "'December'"}},
         {"d_weeknuminyear", K::kInt, {"1", "6", "52"}},
         {"d_sellingseason", K::kStr, {"'Christmas'", "'Summer'"}}}},
       {"customer",
        {{"c_custkey", K::kInt, {"1", "100", "299"}}, {"c_city", K::kStr, city}, {"c_nation", K::kStr, nation},
         {"c_region", K::kStr, region}, {"c_mktsegment", K::kStr, {"'AUTOMOBILE'", "'MACHINERY'"}}}},
       {"supplier",
        {{"s_suppkey", K::kInt, {"1", "10", "20"}}, {"s_city", K::kStr, city}, {"s_nation", K::kStr, nation},
         {"s_region", K::kStr, region}}},
       {"part",
        {{"p_partkey", K::kInt, {"1", "1000", "2000"}}, {"p_mfgr", K::kStr, {"'MFGR#1'", "'MFGR#2'", "'MFGR#5'"}},
         {"p_category", K::kStr, {"'MFGR#12'", "'MFGR#14'", "'MFGR#22'"}},
         {"p_brand1", K::kStr, {"'MFGR#1201'", "'MFGR#2221'", "'MFGR#2239'"}},
         {"p_color", K::kStr, {"'red'", "'ivory'"}}, {"p_size", K::kInt, {"1", "25", "50"}}}}},
      {{{{"lineorder", "l"}}, {}},
       {{{"lineorder", "l"}, {"date", "d"}}, {"l.lo_orderdate = d.d_datekey"}},
       {{{"lineorder", "l"}, {"customer", "c"}}, {"l.lo_custkey = c.c_custkey"}},
       {{{"lineorder", "l"}, {"supplier", "s"}}, {"l.lo_suppkey = s.s_suppkey"}},
       {{{"lineorder", "l"}, {"part", "p"}}, {"l.lo_partkey = p.p_partkey"}},
       {{{"lineorder", "l"}, {"date", "d"}, {"customer", "c"}},
        {"l.lo_orderdate = d.d_datekey", "l.lo_custkey = c.c_custkey"}},
       {{{"lineorder", "l"}, {"date", "d"}, {"supplier", "s"}, {"part", "p"}},
        {"l.lo_orderdate = d.d_datekey", "l.lo_suppkey = s.s_suppkey", "l.lo_partkey = p.p_partkey"}},
       {{{"customer", "c"}}, {}}, {{{"part", "p"}}, {}}},
      true};
  return s;
}

std::string Gen::query() {
  from_ = pick_from();
  return chance(0.5) ? aggregate_query() : plain_query();
}

Gen::From Gen::pick_from() {
  const FromShape& shape = one_of(schema_.froms);
  From f;
  for (const auto& [name, alias] : shape.tables)
    for (const Tab& t : schema_.tables)
      if (t.name == name) f.items.push_back({&t, alias});
  f.join_conditions = shape.joins;
  for (size_t i = 0; i < f.items.size(); i++)
    f.text += (i ? ", " : "") + f.items[i].first->name + " " + f.items[i].second;
  if (f.items.size() == f.join_conditions.size() + 1 && f.items.size() > 1 && chance(0.5)) {
    // The same joins as JOIN ... ON, in the shape's order.
    f.text = f.items[0].first->name + " " + f.items[0].second;
    for (size_t i = 1; i < f.items.size(); i++)
      f.text += " JOIN " + f.items[i].first->name + " " + f.items[i].second + " ON " + f.join_conditions[i - 1];
    f.join_conditions.clear();
  }
  return f;
}

// A column of the FROM clause, of a kind `ok` accepts, and its qualified name.
const Col* Gen::column_of(bool (*ok)(K), std::string& qualified) {
  for (int tries = 0; tries < 50; tries++) {
    const auto& [tab, alias] = from_.items[size_t(pick(int(from_.items.size())))];
    const Col& c = tab->cols[size_t(pick(int(tab->cols.size())))];
    if (ok(c.kind)) {
      qualified = alias + "." + c.name;
      return &c;
    }
  }
  const Col& c = from_.items[0].first->cols[0];
  qualified = from_.items[0].second + "." + c.name;
  return &c;
}

std::pair<std::string, K> Gen::column(bool (*ok)(K)) {
  std::string q;
  const Col* c = column_of(ok, q);
  return {q, c->kind};
}

std::string Gen::literal_for(const Col& c) {
  if (!c.literals.empty() && chance(0.85)) return one_of(c.literals);
  return literal(c.kind == K::kBig ? K::kInt : c.kind);
}

std::string Gen::literal(K k) {
  switch (k) {
    case K::kInt: case K::kBig: return std::to_string(pick(12) - 2);
    case K::kDec: return one_of(std::vector<std::string>{"70000.25", "88000.1", "0.01", "1000", "5000.00", "-1.25"});
    case K::kDbl: return one_of(std::vector<std::string>{"4.5", "3.9", "0.0", "2", "1.25"});
    case K::kStr:
      return one_of(std::vector<std::string>{"'eng'", "'ops'", "'Alice'", "'bob_x'", "'Berlin'", "''", "'Zoë'",
                                             "'Orphan'", "'sales'", "'a'"});
    case K::kDate:
      return one_of(std::vector<std::string>{"DATE '2020-01-01'", "DATE '2019-03-01'", "DATE '2000-02-29'",
                                             "DATE '1999-12-31'", "DATE '2022-02-28'"});
  }
  return "0";
}

// A numeric expression: columns, small literals, + and -, products with small
// constants, CASE.
std::string Gen::num_expr(int depth) {
  switch (depth > 2 ? 0 : pick(7)) {
    case 0: case 1: case 2: return column(numeric).first;
    case 3: return "(" + num_expr(depth + 1) + (chance(0.5) ? " + " : " - ") + num_expr(depth + 1) + ")";
    case 4: return "(" + column(numeric).first + " * " + std::to_string(pick(5) + 1) + ")";
    case 5: return literal(K::kInt);
    default: return "CASE WHEN " + predicate(depth + 1) + " THEN " + num_expr(depth + 1) + " ELSE " + num_expr(depth + 1) + " END";
  }
}

std::string Gen::predicate(int depth) {
  switch (depth > 2 ? pick(4) : pick(8)) {
    case 0: {
      std::string c;
      const Col* col = column_of(any_kind, c);
      const char* ops[] = {"=", "<>", "<", "<=", ">", ">="};
      return c + " " + ops[pick(6)] + " " + literal_for(*col);
    }
    case 1: {
      auto [c, k] = column([](K k) { return k == K::kStr; });
      const char* pats[] = {"'%a%'", "'A%'", "'_o%'", "'%'", "'e_g'", "'%o'", "'MFGR#1%'", "'%IN%'"};
      return c + (chance(0.3) ? " NOT" : "") + " LIKE " + pats[pick(8)];
    }
    case 2: {
      std::string c;
      const Col* col = column_of([](K k) { return k != K::kDbl; }, c);
      std::string a = literal_for(*col), b = literal_for(*col);
      return c + (chance(0.3) ? " NOT" : "") + " BETWEEN " + a + " AND " + b;
    }
    case 3: {
      std::string c;
      const Col* col = column_of([](K k) { return k == K::kInt || k == K::kStr || k == K::kDate; }, c);
      std::string list = literal_for(*col);
      for (int i = pick(3); i >= 0; i--) list += ", " + literal_for(*col);
      return c + (chance(0.3) ? " NOT" : "") + " IN (" + list + ")";
    }
    case 4: return num_expr(depth + 1) + (chance(0.5) ? " < " : " >= ") + num_expr(depth + 1);
    case 5: return "(" + predicate(depth + 1) + " AND " + predicate(depth + 1) + ")";
    case 6: return "(" + predicate(depth + 1) + " OR " + predicate(depth + 1) + ")";
    default: return "NOT (" + predicate(depth + 1) + ")";
  }
}

std::string Gen::where() {
  std::vector<std::string> parts;
  for (const std::string& j : from_.join_conditions) parts.push_back(j);
  if (chance(0.7)) parts.push_back(predicate(0));
  std::string w;
  for (auto& p : parts) w += (w.empty() ? " WHERE " : " AND ") + p;
  return w;
}

std::string Gen::plain_query() {
  const int n = 1 + pick(3);
  std::string select;
  for (int i = 0; i < n; i++)
    select += (i ? ", " : "") + (chance(0.6) ? column(any_kind).first : num_expr(0)) + " AS c" +
              std::to_string(i);
  std::string q = "SELECT " + std::string(chance(0.2) ? "DISTINCT " : "") + select + " FROM " + from_.text + where();
  if (schema_.always_limit || chance(0.6)) {
    std::string order;
    for (int i = 0; i < n; i++)
      order += (i ? ", " : "") + std::to_string(i + 1) + (chance(0.3) ? " DESC" : "") + nulls_order();
    q += " ORDER BY " + order;
    if (schema_.always_limit || chance(0.5)) q += " LIMIT " + std::to_string(1 + pick(5));
  }
  return q;
}

std::string Gen::nulls_order() {
  const int r = std::uniform_int_distribution<int>(0, 4)(nulls_rng_);
  return r == 0 ? " NULLS FIRST" : r == 1 ? " NULLS LAST" : "";
}

std::string Gen::aggregate() {
  switch (pick(7)) {
    case 0: return "count(*)";
    case 1: return "count(" + column(any_kind).first + ")";
    case 2: return "sum(" + num_expr(1) + ")";
    case 3: return "min(" + column(any_kind).first + ")";
    case 4: return "max(" + column(any_kind).first + ")";
    case 5: return "count(DISTINCT " + column(any_kind).first + ")";
    default: return "avg(" + column(numeric).first + ")";
  }
}

std::string Gen::aggregate_query() {
  const int groups = pick(3);
  std::string select, group_by;
  for (int i = 0; i < groups; i++) {
    std::string g = column([](K k) { return k != K::kDbl; }).first;
    select += (i ? ", " : "") + g + " AS g" + std::to_string(i);
    group_by += (i ? ", " : "") + g;
  }
  const int aggs = 1 + pick(2);
  for (int i = 0; i < aggs; i++) select += (select.empty() ? "" : ", ") + aggregate() + " AS a" + std::to_string(i);
  std::string q = "SELECT " + select + " FROM " + from_.text + where();
  if (groups > 0) {
    q += " GROUP BY " + group_by;
    if (chance(0.3)) q += " HAVING count(*) " + std::string(chance(0.5) ? ">" : "<=") + " " + std::to_string(pick(3));
    if (chance(0.6)) {
      std::string order;
      for (int i = 0; i < groups; i++) order += (i ? ", " : "") + std::to_string(i + 1) + nulls_order();
      q += " ORDER BY " + order;
      if (chance(0.4)) q += " LIMIT " + std::to_string(1 + pick(4));
    }
  }
  return q;
}

}  // namespace raydb::test::fuzz
