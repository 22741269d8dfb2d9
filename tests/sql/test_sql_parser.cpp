#include <gtest/gtest.h>

#include "common/error.h"
#include "sql/parser.h"

namespace raydb::sql {
namespace {

Statement parse(const std::string& s) { return Parser(s).parse_statement(); }

// Canonical text of the single select item of "select <expr> from t".
std::string expr_text(const std::string& e) { return parse("select " + e + " from t").select.select[0].expr->to_string(); }

std::pair<ErrorKind, std::string> parse_error(const std::string& s) {
  try {
    parse(s);
  } catch (const Error& e) {
    return {e.kind(), e.what()};
  }
  ADD_FAILURE() << "no error for " << s;
  return {ErrorKind::kInternal, ""};
}

TEST(SqlParser, ClausesOfASelect) {
  auto st = parse(
      "SELECT DISTINCT a AS x, b y, t.* FROM t AS p, u JOIN v ON u.k = v.k INNER JOIN w ON w.a = 1 AND w.b = 2 "
      "CROSS JOIN z WHERE a > 1 GROUP BY a, 2 HAVING count(*) > 1 ORDER BY x DESC, 2 ASC, c LIMIT 10 OFFSET 5;");
  EXPECT_FALSE(st.explain);
  const SelectStatement& s = st.select;
  EXPECT_TRUE(s.distinct);
  ASSERT_EQ(s.select.size(), 3u);
  EXPECT_EQ(s.select[0].alias, "x");
  EXPECT_EQ(s.select[1].alias, "y");
  EXPECT_EQ(s.select[2].expr->kind, AstKind::kStar);
  EXPECT_EQ(s.select[2].expr->qualifier, "t");
  ASSERT_EQ(s.from.size(), 5u);
  EXPECT_EQ(s.from[0].alias, "p");
  EXPECT_EQ(s.from[1].name, "u");
  EXPECT_EQ(s.from[1].on, nullptr);
  ASSERT_NE(s.from[2].on, nullptr);
  EXPECT_EQ(s.from[2].on->to_string(), "u.k = v.k");
  EXPECT_EQ(s.from[3].on->to_string(), "w.a = 1 AND w.b = 2");
  EXPECT_EQ(s.from[4].name, "z");
  EXPECT_EQ(s.from[4].on, nullptr);
}

TEST(SqlParser, ClausesOfASelectRest) {
  auto s = parse(
               "SELECT a FROM t WHERE a > 1 GROUP BY a, 2 HAVING count(*) > 1 ORDER BY x DESC, 2 ASC, c "
               "LIMIT 10 OFFSET 5")
               .select;
  EXPECT_EQ(s.where->to_string(), "a > 1");
  ASSERT_EQ(s.group_by.size(), 2u);
  EXPECT_EQ(s.having->to_string(), "count(*) > 1");
  ASSERT_EQ(s.order_by.size(), 3u);
  EXPECT_TRUE(s.order_by[0].descending);
  EXPECT_FALSE(s.order_by[1].descending);
  EXPECT_FALSE(s.order_by[2].descending);
  EXPECT_EQ(s.limit->to_string(), "10");
  EXPECT_EQ(s.offset->to_string(), "5");
  auto s2 = parse("select a from t offset 3 limit 4").select;
  EXPECT_EQ(s2.limit->to_string(), "4");
  EXPECT_EQ(s2.offset->to_string(), "3");
}

TEST(SqlParser, PrecedenceAndCanonicalText) {
  EXPECT_EQ(expr_text("a+b*c"), "a + b * c");
  EXPECT_EQ(expr_text("(a+b)*c"), "(a + b) * c");
  EXPECT_EQ(expr_text("a-(b-c)"), "a - (b - c)");
  EXPECT_EQ(expr_text("a-b-c"), "a - b - c");
  EXPECT_EQ(expr_text("a or b and c"), "a OR b AND c");
  EXPECT_EQ(expr_text("(a or b) and c"), "(a OR b) AND c");
  EXPECT_EQ(expr_text("not a = 1 and b"), "NOT a = 1 AND b");
  EXPECT_EQ(expr_text("-a * 2"), "-a * 2");
  EXPECT_EQ(expr_text("- (a + 1)"), "-(a + 1)");
  EXPECT_EQ(expr_text("SUM(LO_REVENUE)"), "sum(lo_revenue)");
  EXPECT_EQ(expr_text("sum(lo_extendedprice*lo_discount)"), "sum(lo_extendedprice * lo_discount)");
  EXPECT_EQ(expr_text("count(*)"), "count(*)");
  EXPECT_EQ(expr_text("count(distinct x)"), "count(DISTINCT x)");
  EXPECT_EQ(expr_text("x between 1 and 2+3"), "x BETWEEN 1 AND 2 + 3");
  EXPECT_EQ(expr_text("x not between 1 and 3"), "x NOT BETWEEN 1 AND 3");
  EXPECT_EQ(expr_text("x not in (1, 2)"), "x NOT IN (1, 2)");
  EXPECT_EQ(expr_text("x not like 'a%'"), "x NOT LIKE 'a%'");
  EXPECT_EQ(expr_text("x is not null"), "x IS NOT NULL");
  EXPECT_EQ(expr_text("x != 1"), "x <> 1");
  EXPECT_EQ(expr_text("case when a then 1 else 2 end"), "CASE WHEN a THEN 1 ELSE 2 END");
  EXPECT_EQ(expr_text("case x when 1 then 'a' end"), "CASE x WHEN 1 THEN 'a' END");
  EXPECT_EQ(expr_text("cast(x as decimal(10, 2))"), "CAST(x AS DECIMAL(10,2))");
  EXPECT_EQ(expr_text("x::bigint"), "CAST(x AS BIGINT)");
  EXPECT_EQ(expr_text("cast(x as double precision)"), "CAST(x AS DOUBLE)");
  EXPECT_EQ(expr_text("date '1995-01-31'"), "DATE '1995-01-31'");
  EXPECT_EQ(expr_text("'it''s'"), "'it''s'");
  EXPECT_EQ(expr_text("\"Mixed\""), "\"Mixed\"");
  EXPECT_EQ(expr_text("t.\"a b\""), "t.\"a b\"");
}

TEST(SqlParser, Literals) {
  auto lit = [](const std::string& e) { return parse("select " + e).select.select[0].expr->value; };
  EXPECT_EQ(lit("2147483647"), Value::integer(2147483647));
  EXPECT_EQ(lit("-2147483648"), Value::integer(INT32_MIN));
  EXPECT_EQ(lit("2147483648"), Value::bigint(2147483648LL));
  EXPECT_EQ(lit("9223372036854775807"), Value::bigint(INT64_MAX));
  EXPECT_EQ(lit("-9223372036854775808"), Value::bigint(INT64_MIN));
  EXPECT_EQ(lit("12.50"), Value::decimal(1250, 4, 2));
  EXPECT_EQ(lit("-0.5"), Value::decimal(-5, 1, 1));
  EXPECT_EQ(lit(".25"), Value::decimal(25, 2, 2));
  EXPECT_EQ(lit("5."), Value::decimal(5, 1, 0));
  EXPECT_EQ(lit("1e3"), Value::float64(1000));
  EXPECT_EQ(lit("-2.5e-1"), Value::float64(-0.25));
  EXPECT_EQ(lit("1234567890.123456789"), Value::float64(1234567890.123456789));  // 19 digits: DOUBLE
  EXPECT_EQ(lit("'a''b'"), Value::varchar("a'b"));
  EXPECT_EQ(lit("DATE '1970-01-02'"), Value::date(1));
  EXPECT_EQ(lit("TRUE"), Value::boolean(true));
  EXPECT_EQ(lit("false"), Value::boolean(false));
  EXPECT_TRUE(lit("NULL").is_null());
}

TEST(SqlParser, KeywordsAsNamesWhereUnambiguous) {
  auto s = parse("select date.d_year, date from date, lineorder as \"order\" where date = 1").select;
  EXPECT_EQ(s.select[0].expr->qualifier, "date");
  EXPECT_EQ(s.select[1].expr->name, "date");
  EXPECT_EQ(s.from[0].name, "date");
  EXPECT_EQ(s.from[1].alias, "order");
  // After AS even a reserved word is an alias.
  EXPECT_EQ(parse("select 1 as from").select.select[0].alias, "from");
}

TEST(SqlParser, ExplainSemicolonAndComments) {
  EXPECT_TRUE(parse("EXPLAIN select 1").explain);
  EXPECT_FALSE(parse("select 1;").explain);
  EXPECT_EQ(parse("/* c */ select -- x\n 1 ; -- done").select.select.size(), 1u);
  EXPECT_EQ(parse("select 1;;").select.select.size(), 1u);
}

TEST(SqlParser, SyntaxErrorsCarryPosition) {
  auto e = parse_error("select lo_tax FORM lineorder");
  EXPECT_EQ(e.first, ErrorKind::kParse);
  EXPECT_EQ(e.second, "syntax error at line 1, column 15: expected FROM, found 'FORM'");
  EXPECT_EQ(parse_error("select a from t whre a = 1").second,
            "syntax error at line 1, column 17: expected WHERE, GROUP BY, HAVING, ORDER BY, LIMIT or end of "
            "statement, found 'whre'");
  EXPECT_EQ(parse_error("select a from t\nwhere a = = 1").second,
            "syntax error at line 2, column 11: expected an expression, found '='");
  EXPECT_EQ(parse_error("select a from t where").second,
            "syntax error at line 1, column 22: expected an expression, found end of input");
  EXPECT_EQ(parse_error("").second, "syntax error at line 1, column 1: expected SELECT, found end of input");
  EXPECT_EQ(parse_error("update t set a = 1 returning a").second,
            "RETURNING is not supported (line 1, column 20)");
  EXPECT_EQ(parse_error("merge into t").second, "syntax error at line 1, column 1: expected SELECT, found 'merge'");
  EXPECT_EQ(parse_error("select 1; select 2").second,
            "syntax error at line 1, column 11: only one statement is allowed, found 'select'");
  EXPECT_EQ(parse_error("select (1 + 2 from t").second,
            "syntax error at line 1, column 15: expected ')', found 'from'");
  EXPECT_EQ(parse_error("select a from t order by a limit 1 where").second,
            "syntax error at line 1, column 36: expected end of statement, found 'where'");
  EXPECT_EQ(parse_error("select a from t group a").second, "syntax error at line 1, column 23: expected BY, found 'a'");
  EXPECT_EQ(parse_error("select a from t where a = b = c").second,
            "syntax error at line 1, column 29: expected AND, OR or the end of the expression, found '='");
  EXPECT_EQ(parse_error("select case when a then 1 from t").second,
            "syntax error at line 1, column 27: expected END, found 'from'");
  EXPECT_EQ(parse_error("select case end").second, "syntax error at line 1, column 13: expected WHEN, found 'end'");
  EXPECT_EQ(parse_error("select cast(a as blob) from t").first, ErrorKind::kParse);
  EXPECT_NE(parse_error("select cast(a as blob) from t").second.find("line 1, column 18: unknown type 'blob'"),
            std::string::npos);
  EXPECT_EQ(parse_error("select count(distinct *) from t").second,
            "syntax error at line 1, column 23: expected an expression, found '*'");
  EXPECT_EQ(parse_error("select 99999999999999999999").second,
            "integer literal out of range at line 1, column 8: 99999999999999999999 does not fit in a BIGINT "
            "(64-bit signed integer)");
  EXPECT_EQ(parse_error("select 1e999").second,
            "numeric literal out of range at line 1, column 8: 1e999 does not fit in a DOUBLE");
  EXPECT_EQ(parse_error("select date '1993-02-30'").second,
            "invalid DATE literal at line 1, column 13: '1993-02-30' is not a date in the form YYYY-MM-DD");
  EXPECT_EQ(parse_error("select a from select").second,
            "syntax error at line 1, column 15: expected a table name, found 'select'");
  EXPECT_EQ(parse_error("select a from t cross join u on a = b").second,
            "syntax error at line 1, column 30: CROSS JOIN does not take an ON or USING clause (write JOIN ... ON)");
  EXPECT_EQ(parse_error("select a from t join u").second,
            "syntax error at line 1, column 23: expected ON, found end of input");
}

TEST(SqlParser, QueryStructure) {
  Statement w = Parser("with x (k) as (select 1), y as (select k from x) select * from y").parse_statement();
  ASSERT_EQ(w.select.with.size(), 2u);
  EXPECT_EQ(w.select.with[0].name, "x");
  EXPECT_EQ(w.select.with[0].column_aliases, std::vector<std::string>{"k"});
  EXPECT_EQ(w.select.with[1].select->from[0].name, "x");
  Statement d = Parser("select * from (select a from t) as d (z), u").parse_statement();
  ASSERT_EQ(d.select.from.size(), 2u);
  ASSERT_TRUE(d.select.from[0].subquery);
  EXPECT_EQ(d.select.from[0].alias, "d");
  EXPECT_EQ(d.select.from[0].column_aliases, std::vector<std::string>{"z"});
  // INTERSECT binds tighter than UNION and EXCEPT, which go left to right.
  Statement u = Parser("select 1 union all select 2 intersect select 3 except select 4 order by 1 limit 2").parse_statement();
  EXPECT_EQ(u.select.set_op, SetOp::kExcept);
  EXPECT_FALSE(u.select.set_all);
  EXPECT_TRUE(u.select.limit);
  ASSERT_EQ(u.select.order_by.size(), 1u);
  EXPECT_EQ(u.select.left->set_op, SetOp::kUnion);
  EXPECT_TRUE(u.select.left->set_all);
  EXPECT_EQ(u.select.left->right->set_op, SetOp::kIntersect);
  Statement e = Parser("select a from t where a in (select b from u) and not exists (select 1) and a > (select 2)")
                    .parse_statement();
  EXPECT_EQ(e.select.where->to_string(), "a IN (select b from u) AND NOT EXISTS (select 1) AND a > (select 2)");
  Statement j = Parser("select 1 from t left outer join u on t.a = u.a right join v on v.a = t.a full join w on w.a = 1")
                    .parse_statement();
  ASSERT_EQ(j.select.from.size(), 4u);
  EXPECT_EQ(j.select.from[1].join, TableItem::Join::kLeft);
  EXPECT_EQ(j.select.from[2].join, TableItem::Join::kRight);
  EXPECT_EQ(j.select.from[3].join, TableItem::Join::kFull);
  EXPECT_EQ(j.select.from[3].on->to_string(), "w.a = 1");
}

TEST(SqlParser, UnsupportedFeaturesSaySo) {
  auto ns = [](const std::string& sql, const std::string& what) {
    auto e = parse_error(sql);
    EXPECT_EQ(e.first, ErrorKind::kNotImplemented) << sql;
    EXPECT_NE(e.second.find(what), std::string::npos) << e.second;
    EXPECT_NE(e.second.find("is not supported"), std::string::npos) << e.second;
  };
  ns("select a from t natural join u", "NATURAL JOIN");
  ns("select a from t join u using (a)", "JOIN ... USING");
  ns("with recursive x as (select 1) select 1", "WITH RECURSIVE");
  ns("select a from x, (t left join u on t.a = u.a)", "parenthesized outer join after other FROM items");
  ns("select a from x cross join (t right join u on t.a = u.a)", "parenthesized outer join after other FROM items");
  ns("select a from (t join u on t.a = u.a) x", "an alias for a parenthesized join");
  ns("(select a from t order by a) order by a", "ORDER BY or LIMIT after a parenthesized query");
  ns("select a from t where a similar to 'x'", "SIMILAR TO");
  ns("select distinct on (a) a from t", "DISTINCT ON");
  ns("select sum(a) over (order by a rows between 1 preceding and current row exclude ties) from t",
     "EXCLUDE in window frames");
  ns("select a from t where a like 'x' escape '!'", "ESCAPE");
}

}  // namespace
}  // namespace raydb::sql

namespace raydb::sql {
namespace {

// NULLS FIRST|LAST per ORDER BY key (0: not written), in a query, a set operation and
// a parenthesized subquery; NULLS needs FIRST or LAST.
TEST(SqlParser, OrderByNullsFirstLast) {
  auto st = parse("select a, b, c from t order by a nulls first, b desc nulls last, c desc, 1 asc nulls last");
  const auto& o = st.select.order_by;
  ASSERT_EQ(o.size(), 4u);
  EXPECT_FALSE(o[0].descending);
  EXPECT_EQ(o[0].nulls, 1);
  EXPECT_TRUE(o[1].descending);
  EXPECT_EQ(o[1].nulls, 2);
  EXPECT_TRUE(o[2].descending);
  EXPECT_EQ(o[2].nulls, 0);
  EXPECT_EQ(o[3].nulls, 2);
  st = parse("select a from t union select b from u order by 1 desc nulls first limit 2");
  ASSERT_EQ(st.select.order_by.size(), 1u);
  EXPECT_EQ(st.select.order_by[0].nulls, 1);
  st = parse("select * from (select a from t order by a nulls first limit 3) x");
  ASSERT_TRUE(st.select.from[0].subquery);
  EXPECT_EQ(st.select.from[0].subquery->order_by[0].nulls, 1);
  EXPECT_EQ(parse_error("select a from t order by a nulls").second,
            "syntax error at line 1, column 33: expected FIRST or LAST, found end of input");
  EXPECT_EQ(parse_error("select a from t order by a nulls middle").second,
            "syntax error at line 1, column 34: expected FIRST or LAST, found 'middle'");
  EXPECT_EQ(parse_error("select a from t order by a first").first, ErrorKind::kParse);
}

TEST(SqlParser, WindowFunctions) {
  auto st = parse(
      "select rank() over (partition by g, h order by x desc nulls last, y), count(*) over w, "
      "sum(x) over (w rows between 2 preceding and unbounded following), lag(x, 1) over (order by x range current row) "
      "from t window w as (partition by g), v as (w order by x)");
  const SelectStatement& s = st.select;
  ASSERT_EQ(s.select.size(), 4u);
  EXPECT_EQ(s.select[0].expr->to_string(), "rank() OVER (PARTITION BY g, h ORDER BY x DESC NULLS LAST, y)");
  EXPECT_EQ(s.select[1].expr->to_string(), "count(*) OVER w");
  EXPECT_EQ(s.select[2].expr->to_string(), "sum(x) OVER (w ROWS BETWEEN 2 PRECEDING AND UNBOUNDED FOLLOWING)");
  EXPECT_EQ(s.select[3].expr->to_string(), "lag(x, 1) OVER (ORDER BY x RANGE BETWEEN CURRENT ROW AND CURRENT ROW)");
  ASSERT_EQ(s.windows.size(), 2u);
  EXPECT_EQ(s.windows[1].first, "v");
  EXPECT_EQ(s.windows[1].second.base, "w");
  EXPECT_EQ(parse_error("select rank() over (order by x rows between 1 preceding) from t").first, ErrorKind::kParse);
  EXPECT_EQ(parse_error("select rank() over (order by x rows unbounded) from t").first, ErrorKind::kParse);
  EXPECT_EQ(parse_error("select rank() over from t").first, ErrorKind::kParse);
}

TEST(SqlParser, CreateAndDropRtView) {
  auto st = parse(
      "CREATE RT VIEW v AS SELECT * FROM lineorder l JOIN date ON l.lo_orderdate = d_datekey "
      "JOIN part ON lo_partkey = p_partkey WITH (group = (d_year), filter = (p_category, part.p_brand1), "
      "aggregate = (lo_revenue, lo_extendedprice * lo_discount, lo_revenue - lo_supplycost));");
  ASSERT_EQ(st.type, StatementType::kCreateRtView);
  const CreateRtViewStatement& c = st.create_rt_view;
  EXPECT_EQ(c.name, "v");
  ASSERT_EQ(c.from.size(), 3u);
  EXPECT_EQ(c.from[0].alias, "l");
  EXPECT_EQ(c.from[0].on, nullptr);
  EXPECT_EQ(c.from[1].on->to_string(), "l.lo_orderdate = d_datekey");
  ASSERT_EQ(c.filters.size(), 2u);
  EXPECT_EQ(c.filters[1]->qualifier, "part");
  ASSERT_EQ(c.groups.size(), 1u);
  ASSERT_EQ(c.aggregates.size(), 3u);
  EXPECT_EQ(c.aggregates[1]->to_string(), "lo_extendedprice * lo_discount");
  EXPECT_TRUE(parse("create rt view v as select * from f join d on a = b with (filter = (x), group = ())")
                  .create_rt_view.groups.empty());
  for (const char* drop : {"DROP VIEW v", "drop rt view v", "DROP VIEW IF EXISTS v;"}) {
    auto d = parse(drop);
    EXPECT_EQ(d.type, StatementType::kDropRtView) << drop;
    EXPECT_EQ(d.drop_rt_view.name, "v");
  }
  EXPECT_TRUE(parse("DROP VIEW IF EXISTS v").drop_rt_view.if_exists);
  // DROP INDEX and CREATE INDEX are untouched.
  EXPECT_EQ(parse("DROP INDEX view").type, StatementType::kDropIndex);
  EXPECT_EQ(parse_error("CREATE RT VIEW v AS SELECT * FROM f JOIN d ON a = b WITH (filter = (x)) extra").first,
            ErrorKind::kParse);
  EXPECT_EQ(parse_error("CREATE RT VIEW v AS SELECT * FROM f JOIN d ON a = b WITH (filter = (x),)").first,
            ErrorKind::kParse);
  EXPECT_EQ(parse("CREATE VIEW v AS SELECT 1").type, StatementType::kCreateView);
  EXPECT_FALSE(parse("DROP VIEW v").drop_rt_view.rt);
  EXPECT_TRUE(parse("DROP RT VIEW v").drop_rt_view.rt);
}

// CREATE INDEX over a column list: only USING RTSCAN takes several columns; one
// column keeps every kind as before.
TEST(SqlParser, CreateIndexColumnLists) {
  auto st = Parser("create index i on t (a, B, c) using rtscan with (bins = 8, groups = 'a, b; c')").parse_statement();
  ASSERT_EQ(st.type, StatementType::kCreateIndex);
  EXPECT_EQ(st.create_index.column, "a");
  EXPECT_EQ(st.create_index.columns, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(st.create_index.kind, "rtscan");
  ASSERT_EQ(st.create_index.options.size(), 2u);
  EXPECT_EQ(st.create_index.options[1].second, "a, b; c");
  auto one = Parser("create index i on t (a) using rtscan").parse_statement();
  EXPECT_EQ(one.create_index.columns, (std::vector<std::string>{"a"}));
  auto rt = Parser("create index i on t (a)").parse_statement();
  EXPECT_EQ(rt.create_index.kind, "rt");
  for (const char* bad : {"create index i on t (a, b)", "create index i on t (a, b) using hash"}) {
    try {
      Parser(bad).parse_statement();
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("an index on several columns is not supported; only USING RTSCAN"),
                std::string::npos)
          << e.what();
    }
  }
  try {
    Parser("create index i on t (a) using btree").parse_statement();
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("expected RT, SORTED, HASH or RTSCAN"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace raydb::sql

namespace raydb::sql {
namespace {

// Tables in SQL: what the parser keeps of each statement.
TEST(SqlParser, TableStatements) {
  Statement c = Parser("create table if not exists T (a int not null, b decimal(10,2), \"C d\" varchar);").parse_statement();
  ASSERT_EQ(c.type, StatementType::kCreateTable);
  EXPECT_EQ(c.create_table.name, "t");
  EXPECT_TRUE(c.create_table.if_not_exists);
  ASSERT_EQ(c.create_table.columns.size(), 3u);
  EXPECT_TRUE(c.create_table.columns[0].not_null);
  EXPECT_EQ(c.create_table.columns[1].type.to_string(), "DECIMAL(10,2)");
  EXPECT_EQ(c.create_table.columns[2].name, "C d");
  Statement ctas = Parser("create table t as select a from u").parse_statement();
  EXPECT_TRUE(ctas.create_table.as_select);
  EXPECT_EQ(ctas.create_table.select.from.at(0).name, "u");
  Statement ins = Parser("insert into t (b, a) values (1, 'x'), (2, 'y')").parse_statement();
  ASSERT_EQ(ins.type, StatementType::kInsert);
  EXPECT_EQ(ins.insert.columns, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(ins.insert.rows.size(), 2u);
  EXPECT_TRUE(Parser("insert into t select * from u").parse_statement().insert.from_select);
  Statement from = Parser("copy t from 'a.csv' with (header, delimiter ';', format csv)").parse_statement();
  ASSERT_EQ(from.type, StatementType::kCopy);
  EXPECT_FALSE(from.copy.to);
  EXPECT_TRUE(from.copy.header);
  EXPECT_EQ(from.copy.delimiter, ';');
  EXPECT_EQ(from.copy.file, "a.csv");
  Statement to = Parser("copy (select a from t where a > 1) to 'o.csv' (header false)").parse_statement();
  EXPECT_TRUE(to.copy.to);
  EXPECT_FALSE(to.copy.header);
  EXPECT_TRUE(to.copy.table.empty());
  Statement view = Parser("create view v as select a from t where a > 1 ;").parse_statement();
  ASSERT_EQ(view.type, StatementType::kCreateView);
  EXPECT_EQ(view.create_view.sql, "select a from t where a > 1");
  EXPECT_TRUE(Parser("drop table if exists t").parse_statement().drop_table.if_exists);
  Statement nullable = Parser("create table t (a int null, b int not null, c int)").parse_statement();
  EXPECT_FALSE(nullable.create_table.columns[0].not_null);
  EXPECT_TRUE(nullable.create_table.columns[1].not_null);
  EXPECT_FALSE(nullable.create_table.columns[2].not_null);
  Statement null_text = Parser("copy t from 'x' (null 'NA', header)").parse_statement();
  EXPECT_EQ(null_text.copy.null_string, "NA");
  EXPECT_TRUE(null_text.copy.null_string_given);
  EXPECT_TRUE(null_text.copy.header);
  // UPDATE and DELETE: one SELECT over the table (*, the SET values, the WHERE flag).
  Statement del = Parser("delete from t where a > 1").parse_statement();
  ASSERT_EQ(del.type, StatementType::kModify);
  EXPECT_FALSE(del.modify.update);
  EXPECT_EQ(del.modify.table, "t");
  ASSERT_EQ(del.modify.select.select.size(), 2u);
  EXPECT_EQ(del.modify.select.select[1].expr->to_string(), "CASE WHEN a > 1 THEN 1 ELSE 0 END");
  Statement upd = Parser("update t as x set a = x.b + 1, s = 'q'").parse_statement();
  EXPECT_TRUE(upd.modify.update);
  EXPECT_EQ(upd.modify.set_columns, (std::vector<std::string>{"a", "s"}));
  EXPECT_EQ(upd.modify.set_literal, (std::vector<bool>{false, true}));
  EXPECT_EQ(upd.modify.select.from.at(0).alias, "x");
  ASSERT_EQ(upd.modify.select.select.size(), 4u);
  EXPECT_EQ(upd.modify.select.select[3].expr->to_string(), "1");
  for (const char* bad : {"create table t (a int default 1)", "insert into t default values", "copy t to stdout",
                          "copy t (a) from 'x'", "create view v (x) as select 1", "update t set a = 1 from u",
                          "delete from t using u", "update t set a = default", "explain delete from t"}) {
    try {
      Parser(bad).parse_statement();
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kNotImplemented) << bad << ": " << e.what();
    }
  }
  for (const char* bad : {"create table t (a int", "insert into t values", "copy t from a.csv", "copy t from 'x' (header,)",
                          "create table t ()"}) {
    try {
      Parser(bad).parse_statement();
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kParse) << bad << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace raydb::sql
