// Tests of the test harness itself: the SQLite oracle must load data faithfully,
// apply PostgreSQL semantics where SQLite differs, and detect every kind of mismatch
// (a comparison that cannot fail would make the e2e suite worthless).
#include <gtest/gtest.h>

#include "storage/column.h"
#include "storage/table.h"
#include "support/sqlite_oracle.h"

namespace raydb::test {
namespace {

Rows rows(std::vector<std::string> names, std::vector<Row> r) { return Rows{std::move(names), std::move(r)}; }
Cell I(int64_t v) { return Cell::integer(v); }
Cell D(double v) { return Cell::real(v); }
Cell S(std::string v) { return Cell::text(std::move(v)); }
Cell N() { return Cell::null(); }

TEST(OracleCells, NumericToleranceAndKinds) {
  EXPECT_TRUE(cells_equal(I(5), I(5)));
  EXPECT_FALSE(cells_equal(I(5), I(6)));
  EXPECT_TRUE(cells_equal(I(5), D(5.0)));
  EXPECT_TRUE(cells_equal(D(1e12), D(1e12 * (1 + 1e-12))));
  EXPECT_FALSE(cells_equal(D(1e12), D(1e12 * (1 + 1e-7))));
  EXPECT_FALSE(cells_equal(D(0.5), D(0.25)));
  EXPECT_FALSE(cells_equal(S("5"), I(5)));
  EXPECT_FALSE(cells_equal(N(), I(0)));
  EXPECT_FALSE(cells_equal(N(), S("")));
  EXPECT_TRUE(cells_equal(N(), N()));
  EXPECT_FALSE(cells_equal(S("abc"), S("ABC")));
  // int64 extremes compare exactly, not through doubles.
  EXPECT_FALSE(cells_equal(I(INT64_MAX), I(INT64_MAX - 1)));
}

TEST(OracleCells, CanonicalValues) {
  EXPECT_EQ(canonical_cell(Value::date(0)).s, "1970-01-01");
  EXPECT_EQ(canonical_cell(Value::decimal(1250, 10, 2)).kind, Cell::Kind::kReal);
  EXPECT_DOUBLE_EQ(canonical_cell(Value::decimal(1250, 10, 2)).d, 12.5);
  EXPECT_EQ(canonical_cell(Value::null(Type::integer())).kind, Cell::Kind::kNull);
  EXPECT_EQ(canonical_cell(Value::hugeint(__int128(1) << 80)).i, __int128(1) << 80);
}

TEST(OracleSql, AnalyzeOrderBy) {
  SqlShape s = analyze_sql(
      "select a, (select 1 order by x) from t where s = 'order by z' order by a desc, sum( b ) asc nulls first, 3 "
      "limit 5 offset 2;");
  ASSERT_EQ(s.order_by.size(), 3u);
  EXPECT_EQ(s.order_by[0].text, "a");
  EXPECT_TRUE(s.order_by[0].descending);
  EXPECT_EQ(s.order_by[1].text, "sum( b )");
  EXPECT_FALSE(s.order_by[1].descending);
  EXPECT_TRUE(s.order_by[1].explicit_nulls);
  EXPECT_EQ(s.order_by[2].text, "3");
  EXPECT_TRUE(s.has_limit);
  EXPECT_TRUE(s.has_offset);
  EXPECT_TRUE(analyze_sql("select 1 from t").order_by.empty());
  EXPECT_FALSE(analyze_sql("select (select 1 limit 1) from t").has_limit);
}

TEST(OracleSql, DialectRewrite) {
  EXPECT_EQ(sqlite_dialect("select * from date where d < DATE '1995-01-01' order by a, b desc limit 3"),
            "select * from date where d < '1995-01-01' order by a NULLS LAST, b desc NULLS FIRST limit 3");
  EXPECT_EQ(sqlite_dialect("select 'date ''x''' from t"), "select 'date ''x''' from t");
}

TEST(OracleCompare, MultisetIgnoresOrderButNotMultiplicity) {
  SqlShape none;
  Rows a = rows({"x"}, {{I(1)}, {I(2)}, {I(2)}});
  EXPECT_EQ(diff_results(a, rows({"x"}, {{I(2)}, {I(1)}, {I(2)}}), none), "");
  EXPECT_NE(diff_results(a, rows({"x"}, {{I(1)}, {I(1)}, {I(2)}}), none), "");
  EXPECT_NE(diff_results(a, rows({"x"}, {{I(1)}, {I(2)}}), none), "");
  EXPECT_NE(diff_results(a, rows({"x", "y"}, {{I(1), I(1)}, {I(2), I(1)}, {I(2), I(1)}}), none), "");
  std::string d = diff_results(a, rows({"x"}, {{I(1)}, {I(2)}, {I(3)}}), none);
  EXPECT_NE(d.find("only in raydb (1)"), std::string::npos) << d;
  EXPECT_NE(d.find("(3)"), std::string::npos) << d;
}

TEST(OracleCompare, OrderByWithTies) {
  SqlShape s = analyze_sql("select k, v from t order by k desc");
  Rows sqlite = rows({"k", "v"}, {{I(3), S("a")}, {I(2), S("b")}, {I(2), S("c")}, {I(1), S("d")}});
  // Ties may come in any order.
  EXPECT_EQ(diff_results(sqlite, rows({"k", "v"}, {{I(3), S("a")}, {I(2), S("c")}, {I(2), S("b")}, {I(1), S("d")}}), s), "");
  // Keys out of order.
  EXPECT_NE(diff_results(sqlite, rows({"k", "v"}, {{I(2), S("b")}, {I(3), S("a")}, {I(2), S("c")}, {I(1), S("d")}}), s), "");
  // Same keys, rows swapped across a tie group.
  EXPECT_NE(diff_results(sqlite, rows({"k", "v"}, {{I(3), S("a")}, {I(2), S("b")}, {I(2), S("d")}, {I(1), S("c")}}), s), "");
}

TEST(OracleCompare, OrderByResolvesAliasesOrdinalsAndQualifiedNames) {
  Rows sqlite = rows({"name", "total"}, {{S("a"), I(2)}, {S("b"), I(1)}});
  Rows wrong = rows({"name", "total"}, {{S("b"), I(1)}, {S("a"), I(2)}});
  EXPECT_NE(diff_results(sqlite, wrong, analyze_sql("select name, sum(x) as total from t group by 1 order by 2 desc")), "");
  EXPECT_NE(diff_results(sqlite, wrong, analyze_sql("select name, sum(x) as total from t group by 1 order by total desc")), "");
  EXPECT_NE(diff_results(sqlite, wrong, analyze_sql("select t.name, sum(x) as total from t group by 1 order by t.name")), "");
  EXPECT_EQ(diff_results(sqlite, sqlite, analyze_sql("select t.name, sum(x) as total from t group by 1 order by t.name")), "");
  // An ORDER BY item that is not an output column cannot be checked: report, never pass.
  EXPECT_NE(diff_results(sqlite, sqlite, analyze_sql("select name, total from t order by other")), "");
}

TEST(OracleCompare, LimitCutsTiesAnywhere) {
  SqlShape s = analyze_sql("select k, v from t order by k limit 3");
  Rows sqlite = rows({"k", "v"}, {{I(1), S("a")}, {I(2), S("b")}, {I(2), S("c")}});
  EXPECT_EQ(diff_results(sqlite, rows({"k", "v"}, {{I(1), S("a")}, {I(2), S("x")}, {I(2), S("b")}}), s), "");
  EXPECT_NE(diff_results(sqlite, rows({"k", "v"}, {{I(1), S("z")}, {I(2), S("b")}, {I(2), S("c")}}), s), "");
  EXPECT_NE(diff_results(sqlite, rows({"k", "v"}, {{I(1), S("a")}, {I(2), S("b")}}), s), "");
  // Without ORDER BY only the count matters.
  SqlShape l = analyze_sql("select k from t limit 2");
  EXPECT_EQ(diff_results(rows({"k"}, {{I(1)}, {I(2)}}), rows({"k"}, {{I(7)}, {I(8)}}), l), "");
  EXPECT_NE(diff_results(rows({"k"}, {{I(1)}, {I(2)}}), rows({"k"}, {{I(7)}}), l), "");
}

TEST(OracleCompare, NullsAreValues) {
  SqlShape none;
  EXPECT_NE(diff_results(rows({"x"}, {{N()}}), rows({"x"}, {{I(0)}}), none), "");
  EXPECT_EQ(diff_results(rows({"x"}, {{N()}}), rows({"x"}, {{N()}}), none), "");
}


TablePtr small_table() {
  ColumnBuilder id("id", Type::integer()), name("name", Type::varchar()), price("price", Type::decimal(10, 2)),
      day("day", Type::date()), score("score", Type::float64()), big("big", Type::bigint());
  const char* names[] = {"apple", "Apple", "b,\"q\"", "émile"};
  for (int i = 0; i < 4; ++i) {
    id.append_int(i);
    name.append_string(names[i]);
    price.append_int(1999 + i);  // 19.99, 20.00, ...
    int32_t d;
    parse_date("1995-03-1" + std::to_string(i), d);
    day.append_int(d);
    score.append_double(0.5 * i);
    big.append_int(int64_t(1) << (40 + i));
  }
  return std::make_shared<Table>("date", std::vector<ColumnPtr>{id.finish(), name.finish(), price.finish(),
                                                                   day.finish(), score.finish(), big.finish()});
}

TEST(OracleSqlite, LoadsEveryTypeFaithfully) {
  SqliteOracle o;
  o.load_table(*small_table());
  Rows r = o.query_raw("select id, name, price, day, score, big from date order by id");
  ASSERT_EQ(r.rows.size(), 4u);
  EXPECT_EQ(r.rows[2][1].s, "b,\"q\"");
  EXPECT_EQ(r.rows[3][1].s, "émile");
  EXPECT_DOUBLE_EQ(r.rows[1][2].d, 20.00);
  EXPECT_EQ(r.rows[0][3].s, "1995-03-10");
  EXPECT_DOUBLE_EQ(r.rows[3][4].d, 1.5);
  EXPECT_EQ(r.rows[3][5].i, __int128(1) << 43);
  // The table named `date` works unquoted; date literals compare as dates after rewriting.
  Rows c = o.query_raw(sqlite_dialect("select count(*) from date where day >= DATE '1995-03-12'"));
  EXPECT_EQ(c.rows[0][0].i, 2);
}

TEST(OracleSqlite, PostgresSemantics) {
  SqliteOracle o;
  o.load_table(*small_table());
  // LIKE is case-sensitive, as in PostgreSQL and raydb.
  EXPECT_EQ(o.query_raw("select count(*) from date where name like 'a%'").rows[0][0].i, 1);
  // NULLs last in ascending order after the dialect rewrite.
  Rows n = o.query_raw(sqlite_dialect(
      "select case when id > 1 then id end as k from date order by k"));
  ASSERT_EQ(n.rows.size(), 4u);
  EXPECT_EQ(n.rows[0][0].i, 2);
  EXPECT_EQ(n.rows[3][0].kind, Cell::Kind::kNull);
  // Integer division truncates; aggregates over no rows are NULL, COUNT is 0.
  EXPECT_EQ(o.query_raw("select -7 / 2").rows[0][0].i, -3);
  Rows e = o.query_raw("select sum(id), count(*), min(name) from date where id > 100");
  EXPECT_EQ(e.rows[0][0].kind, Cell::Kind::kNull);
  EXPECT_EQ(e.rows[0][1].i, 0);
}

}  // namespace
}  // namespace raydb::test
