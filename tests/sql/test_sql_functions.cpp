// Parsing and binding of scalar functions, || and DATE +- INTERVAL: the call forms
// the parser rewrites, result types, folding of constant dates, precedence, and the
// errors for bad arguments. Values are checked end to end against SQLite and DuckDB
// (tests/sqllogictest/sql/scalar_functions.test, tests/e2e/scalar_functions_sql_test.cpp).
#include <gtest/gtest.h>

#include "sql/sql_test_catalog.h"

namespace raydb::test {
namespace {

using plan::ExprKind;
using plan::ExprPtr;
using plan::ScalarFunc;

class SqlFunctions : public ::testing::Test {
 protected:
  ExprPtr item(const std::string& e) { return cat.bind("select " + e + " from t").select.at(0); }
  Type type_of(const std::string& e) { return item(e)->type; }
  TestCatalog cat;
};

TEST_F(SqlFunctions, ResultTypes) {
  EXPECT_EQ(type_of("abs(i)"), Type::integer());
  EXPECT_EQ(type_of("abs(d)"), Type::decimal(10, 2));
  EXPECT_EQ(type_of("round(d)"), Type::decimal(10, 0));
  EXPECT_EQ(type_of("round(d, 1)"), Type::decimal(10, 1));
  EXPECT_EQ(type_of("round(d, 7)"), Type::decimal(10, 2));
  EXPECT_EQ(type_of("round(d, -2)"), Type::decimal(10, 0));
  EXPECT_EQ(type_of("round(f, 2)"), Type::float64());
  EXPECT_EQ(type_of("round(b, -2)"), Type::bigint());
  EXPECT_EQ(type_of("floor(d)"), Type::decimal(10, 0));
  EXPECT_EQ(type_of("ceil(i)"), Type::float64());
  EXPECT_EQ(type_of("extract(year from dt)"), Type::bigint());
  EXPECT_EQ(type_of("date_trunc('month', dt)"), Type::date());
  EXPECT_EQ(type_of("length(s)"), Type::integer());
  EXPECT_EQ(type_of("position('a' in s)"), Type::integer());
  EXPECT_EQ(type_of("s || i"), Type::varchar());
  EXPECT_EQ(type_of("coalesce(i, b)"), Type::bigint());
  EXPECT_EQ(type_of("coalesce(i, d)"), Type::decimal(18, 2));
  EXPECT_EQ(type_of("nullif(s, 'x')"), Type::varchar());
  EXPECT_EQ(type_of("dt + interval '1' month"), Type::date());
  EXPECT_EQ(type_of("cast(s as decimal(6,2))"), Type::decimal(6, 2));
}

TEST_F(SqlFunctions, StandardCallFormsBecomeFunctions) {
  auto f = item("substring(s from 2 for 3)");
  ASSERT_EQ(f->kind, ExprKind::kFunction);
  EXPECT_EQ(f->func, ScalarFunc::kSubstr);
  EXPECT_EQ(f->children.size(), 3u);
  EXPECT_EQ(item("substring(s for 3)")->children[1]->value.as_int(), 1);
  EXPECT_EQ(item("substring(s, 2)")->children.size(), 2u);
  auto p = item("position('ab' in s || 'x')");
  EXPECT_EQ(p->func, ScalarFunc::kStrpos);
  EXPECT_EQ(p->children[1]->value.as_string(), "ab");  // strpos(s || 'x', 'ab')
  EXPECT_EQ(item("trim(leading 'x' from s)")->func, ScalarFunc::kLtrim);
  EXPECT_EQ(item("trim(trailing from s)")->func, ScalarFunc::kRtrim);
  EXPECT_EQ(item("trim(both 'ab' from s)")->children[1]->value.as_string(), "ab");
  EXPECT_EQ(item("trim(s)")->func, ScalarFunc::kBtrim);
  EXPECT_EQ(item("extract(doy from dt)")->func, ScalarFunc::kDayOfYear);
  EXPECT_EQ(item("date_part('dow', dt)")->func, ScalarFunc::kDayOfWeek);
  EXPECT_EQ(item("year(dt)")->func, ScalarFunc::kYear);
  // Column names keep the call as written.
  auto q = cat.bind("select extract(year from dt), substr(s, 1, 2), s || 'x' from t");
  EXPECT_EQ(q.output_names.at(0), "extract(year FROM dt)");
  EXPECT_EQ(q.output_names.at(1), "substr(s, 1, 2)");
  EXPECT_EQ(q.output_names.at(2), "s || 'x'");
}

TEST_F(SqlFunctions, ConcatPrecedenceAndFlattening) {
  // || binds looser than + and tighter than =.
  auto c = item("s || 1 + 2 = 'x3'");
  ASSERT_EQ(c->kind, ExprKind::kCompare);
  auto cat_expr = c->children[0];
  ASSERT_EQ(cat_expr->func, ScalarFunc::kConcat);
  ASSERT_EQ(cat_expr->children.size(), 2u);
  EXPECT_EQ(cat_expr->children[1]->value, Value::varchar("3"));  // (1 + 2) folded, then converted to text
  EXPECT_EQ(item("s || i")->children[1]->kind, ExprKind::kCast);
  EXPECT_EQ(item("s || 'a' || s || 'b'")->children.size(), 4u);
}

TEST_F(SqlFunctions, IntervalsFoldOnConstantDates) {
  auto q = cat.bind("select 1 from t where dt <= date '1998-12-01' - interval '90' day (3)");
  ASSERT_EQ(q.conjuncts.size(), 1u);
  ASSERT_EQ(q.conjuncts[0]->children[1]->kind, ExprKind::kConstant);
  EXPECT_EQ(q.conjuncts[0]->children[1]->value, Value::date(days_from_civil(1998, 9, 2)));
  auto m = cat.bind("select 1 from t where dt < date '2024-01-31' + interval '1' month");
  EXPECT_EQ(m.conjuncts[0]->children[1]->value, Value::date(days_from_civil(2024, 2, 29)));
  auto y = cat.bind("select 1 from t where dt < interval '1' year + date '2024-02-29'");
  EXPECT_EQ(y.conjuncts[0]->children[1]->value, Value::date(days_from_civil(2025, 2, 28)));
  EXPECT_EQ(item("dt + interval '3' month")->func, ScalarFunc::kAddMonths);
  EXPECT_EQ(item("dt - interval '1 week'")->kind, ExprKind::kArith);
}

TEST_F(SqlFunctions, IlikeLowersBothSides) {
  auto q = cat.bind("select 1 from t where s ilike 'AbÉ%'");
  auto like = q.conjuncts.at(0);
  ASSERT_EQ(like->kind, ExprKind::kLike);
  EXPECT_EQ(like->value.as_string(), "abé%");
  EXPECT_EQ(like->children[0]->func, ScalarFunc::kLower);
}

TEST_F(SqlFunctions, BadArgumentsAreBinderErrors) {
  EXPECT_SQL_ERROR(cat, "select round(d, i) from t", ErrorKind::kBinder, "the digits of round must be an integer constant");
  EXPECT_SQL_ERROR(cat, "select abs(dt) from t", ErrorKind::kBinder, "abs needs a numeric argument, not DATE");
  EXPECT_SQL_ERROR(cat, "select extract(hour from dt) from t", ErrorKind::kBinder, "unsupported field 'hour'");
  EXPECT_SQL_ERROR(cat, "select date_trunc(s, dt) from t", ErrorKind::kBinder, "must be a string constant");
  EXPECT_SQL_ERROR(cat, "select substr(s, 1, 2, 3) from t", ErrorKind::kBinder, "substr takes 2 or 3 arguments, got 4");
  EXPECT_SQL_ERROR(cat, "select concat() from t", ErrorKind::kBinder, "concat takes at least 1 argument");
  EXPECT_SQL_ERROR(cat, "select i || i from t", ErrorKind::kBinder, "one operand must be VARCHAR");
  EXPECT_SQL_ERROR(cat, "select upper(count(*)) from t where upper(s) = 'X'", ErrorKind::kBinder, "argument 1 of upper must be VARCHAR, not BIGINT");
  EXPECT_SQL_ERROR(cat, "select interval '1' day - dt from t", ErrorKind::kBinder, "cannot subtract a DATE from an INTERVAL");
  EXPECT_SQL_ERROR(cat, "select s + interval '1' day from t", ErrorKind::kBinder, "cannot apply '+' to VARCHAR and INTERVAL");
  EXPECT_SQL_ERROR(cat, "select upper(distinct s) from t", ErrorKind::kBinder, "upper is not an aggregate");
  EXPECT_SQL_ERROR(cat, "select 1 from t where length(s)", ErrorKind::kBinder, "must be type BOOLEAN, not INTEGER");
}

TEST_F(SqlFunctions, ParseErrorsCarryPositions) {
  EXPECT_SQL_ERROR(cat, "select dt + interval '1' fortnight from t", ErrorKind::kParse, "unit 'fortnight'");
  EXPECT_SQL_ERROR(cat, "select dt + interval '1.5' day from t", ErrorKind::kParse, "line 1, column 22");
  EXPECT_SQL_ERROR(cat, "select extract(year dt) from t", ErrorKind::kParse, "FROM");
  EXPECT_SQL_ERROR(cat, "select position('a' in) from t", ErrorKind::kParse, "an expression");
}

}  // namespace
}  // namespace raydb::test
