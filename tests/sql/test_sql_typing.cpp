// Typing rules (plan/logical/expression.h), coercions and constant folding.
#include <gtest/gtest.h>

#include "sql_test_catalog.h"

namespace raydb::test {
namespace {

using plan::ArithOp;
using plan::ExprKind;
using plan::ExprPtr;

class SqlTyping : public ::testing::Test {
 protected:
  // The bound single select item of "select <e> from t".
  ExprPtr item(const std::string& e) { return cat.bind("select " + e + " from t").select.at(0); }
  Type type(const std::string& e) { return item(e)->type; }
  // The only WHERE conjunct of "select 1 from t where <p>".
  ExprPtr pred(const std::string& p) {
    auto q = cat.bind("select 1 from t where " + p);
    EXPECT_EQ(q.conjuncts.size(), 1u);
    return q.conjuncts.at(0);
  }
  void expect_constant(const std::string& e, const Value& v) {
    auto x = item(e);
    EXPECT_EQ(x->kind, ExprKind::kConstant) << e << " -> " << x->to_string();
    EXPECT_EQ(x->value, v) << e << " -> " << x->value.to_string() << " " << x->type.to_string();
    EXPECT_EQ(x->type, v.type()) << e;
  }
  TestCatalog cat;
};

TEST_F(SqlTyping, IntegralArithmetic) {
  EXPECT_EQ(type("i + i"), Type::bigint());
  EXPECT_EQ(type("i - i"), Type::bigint());
  EXPECT_EQ(type("i * i"), Type::bigint());
  EXPECT_EQ(type("i / i"), Type::bigint());  // as *, so -2^31 / -1 is exact (issue 14)
  EXPECT_EQ(type("i % i"), Type::integer());
  EXPECT_EQ(type("b + i"), Type::bigint());
  EXPECT_EQ(type("i - b"), Type::bigint());
  EXPECT_EQ(type("b * i"), Type::hugeint());
  EXPECT_EQ(type("b / i"), Type::bigint());
  EXPECT_EQ(type("b % b"), Type::bigint());
  EXPECT_EQ(type("b * b + i"), Type::hugeint());
  EXPECT_EQ(type("b * b / i"), Type::hugeint());
  EXPECT_EQ(type("(i + i) * i"), Type::hugeint());
  auto e = item("i * b");
  EXPECT_EQ(e->kind, ExprKind::kArith);
  EXPECT_EQ(e->arith_op, ArithOp::kMul);
  EXPECT_EQ(e->children[0]->kind, ExprKind::kColumnRef);
}

TEST_F(SqlTyping, DecimalDoubleAndDateArithmetic) {
  EXPECT_EQ(type("d + d"), Type::decimal(18, 2));
  EXPECT_EQ(type("d - i"), Type::decimal(18, 2));
  EXPECT_EQ(type("d * d"), Type::decimal(18, 4));
  EXPECT_EQ(type("d * i"), Type::decimal(18, 2));
  EXPECT_EQ(type("d * 1.5"), Type::decimal(18, 3));
  EXPECT_EQ(type("d / d"), Type::float64());
  EXPECT_EQ(type("d % d"), Type::decimal(18, 2));
  EXPECT_EQ(type("f + i"), Type::float64());
  EXPECT_EQ(type("f * d"), Type::float64());
  EXPECT_EQ(type("b / 1e0"), Type::float64());
  EXPECT_EQ(type("dt + 1"), Type::date());
  EXPECT_EQ(type("1 + dt"), Type::date());
  EXPECT_EQ(type("dt - 7"), Type::date());
  EXPECT_EQ(type("dt - dt"), Type::integer());
  EXPECT_EQ(type("-i"), Type::bigint());  // -(-2^31) needs 64 bits
  EXPECT_EQ(type("-b"), Type::bigint());
  EXPECT_EQ(type("-d"), Type::decimal(10, 2));
  EXPECT_EQ(type("-f"), Type::float64());
}

TEST_F(SqlTyping, ArithmeticErrors) {
  EXPECT_SQL_ERROR(cat, "select s + 1 from t", ErrorKind::kBinder, "cannot apply '+' to VARCHAR and INTEGER in 's + 1'");
  EXPECT_SQL_ERROR(cat, "select 'a' | 'b'", ErrorKind::kParse, "unexpected character '|'");
  EXPECT_SQL_ERROR(cat, "select s * s from t", ErrorKind::kBinder, "cannot apply '*' to VARCHAR and VARCHAR");
  EXPECT_SQL_ERROR(cat, "select dt * 2 from t", ErrorKind::kBinder, "cannot apply '*' to DATE and INTEGER in 'dt * 2'");
  EXPECT_SQL_ERROR(cat, "select dt + dt from t", ErrorKind::kBinder, "cannot apply '+' to DATE and DATE");
  EXPECT_SQL_ERROR(cat, "select dt + b from t", ErrorKind::kBinder, "cannot apply '+' to DATE and BIGINT");
  EXPECT_SQL_ERROR(cat, "select -s from t", ErrorKind::kBinder, "cannot negate VARCHAR in '-s'");
  EXPECT_SQL_ERROR(cat, "select (i = 1) + 1 from t", ErrorKind::kBinder, "cannot apply '+' to BOOLEAN and INTEGER");
  EXPECT_SQL_ERROR(cat, "select 1.0000000001 * 1.0000000001", ErrorKind::kBinder,
                   "DECIMAL multiplication needs scale 20 > 18 in '1.0000000001 * 1.0000000001'");
}

TEST_F(SqlTyping, ConstantFolding) {
  expect_constant("1 + 2", Value::bigint(3));
  expect_constant("2 * (3 + 4)", Value::hugeint(14));  // INTEGER * BIGINT -> HUGEINT
  expect_constant("7 / 2", Value::bigint(3));
  expect_constant("-7 / 2", Value::bigint(-3));  // truncates toward zero
  expect_constant("7 % -3", Value::integer(1));
  expect_constant("-7 % 3", Value::integer(-1));
  expect_constant("2147483647 + 1", Value::bigint(2147483648LL));
  expect_constant("3000000000 * 3000000000", Value::hugeint(__int128(9000000000000000000LL)));
  expect_constant("1.5 + 1", Value::decimal(25, 18, 1));
  expect_constant("1.5 * 1.25", Value::decimal(1875, 18, 3));
  expect_constant("0.1 - 0.25", Value::decimal(-15, 18, 2));
  expect_constant("1e3 * 2", Value::float64(2000));
  expect_constant("1 / 4.0", Value::float64(0.25));
  expect_constant("-(5)", Value::bigint(-5));
  expect_constant("- -5", Value::bigint(5));
  expect_constant("-2.50", Value::decimal(-250, 3, 2));
  expect_constant("DATE '1970-01-01' + 31", Value::date(31));
  expect_constant("DATE '1970-03-01' - 1", Value::date(days_from_civil(1970, 2, 28)));
  expect_constant("DATE '1970-02-01' - DATE '1970-01-01'", Value::integer(31));
  expect_constant("NULL + 1", Value::null(Type::bigint()));
  expect_constant("(1 + 2) * 3 - 4", Value::hugeint(5));
  // Folding stops where the result would be an execution error; the executor raises it.
  auto div0 = item("1 / 0");
  EXPECT_EQ(div0->kind, ExprKind::kArith);
  EXPECT_EQ(div0->type, Type::bigint());
  auto mod0 = item("i % (1 - 1)");
  EXPECT_EQ(mod0->children[1]->value, Value::bigint(0));
  auto overflow = item("9223372036854775807 + 1");
  EXPECT_EQ(overflow->kind, ExprKind::kArith);
  EXPECT_EQ(overflow->type, Type::bigint());
  // Column expressions are not folded, constant parts are.
  auto mixed = item("i + (2 * 3)");
  EXPECT_EQ(mixed->kind, ExprKind::kArith);
  EXPECT_EQ(mixed->children[1]->value, Value::bigint(6));
  EXPECT_EQ(mixed->type, Type::bigint());
}

TEST_F(SqlTyping, Literals) {
  expect_constant("2147483647", Value::integer(INT32_MAX));
  expect_constant("2147483648", Value::bigint(2147483648LL));
  expect_constant("12.50", Value::decimal(1250, 4, 2));
  expect_constant("1e3", Value::float64(1000));
  expect_constant("'x''y'", Value::varchar("x'y"));
  expect_constant("DATE '1995-03-01'", Value::date(days_from_civil(1995, 3, 1)));
  expect_constant("true", Value::boolean(true));
  EXPECT_EQ(type("NULL"), Type::null());
}

TEST_F(SqlTyping, ComparisonsAndStringDates) {
  auto c = pred("s = 'abc'");
  EXPECT_EQ(c->kind, ExprKind::kCompare);
  EXPECT_EQ(c->children[1]->kind, ExprKind::kConstant);
  EXPECT_EQ(c->children[1]->value, Value::varchar("abc"));  // the executor maps it through the dictionary
  c = pred("dt = '1995-03-01'");
  EXPECT_EQ(c->children[1]->value, Value::date(days_from_civil(1995, 3, 1)));
  c = pred("'1995-03-01' < dt");
  EXPECT_EQ(c->children[0]->type, Type::date());
  EXPECT_EQ(c->compare_op, plan::CompareOp::kLt);
  c = pred("dt between '1995-01-01' and DATE '1995-12-31'");
  EXPECT_EQ(c->kind, ExprKind::kBetween);
  EXPECT_EQ(c->children[1]->type, Type::date());
  EXPECT_EQ(c->children[2]->type, Type::date());
  c = pred("dt in ('1995-01-01', '1996-01-01')");
  EXPECT_EQ(c->kind, ExprKind::kInList);
  EXPECT_EQ(c->children.size(), 3u);
  EXPECT_EQ(c->children[2]->value, Value::date(days_from_civil(1996, 1, 1)));
  // Numeric types compare across types without casts; the executor aligns them.
  c = pred("i = d");
  EXPECT_EQ(c->children[0]->type, Type::integer());
  EXPECT_EQ(c->children[1]->type, Type::decimal(10, 2));
  pred("b < f");
  pred("d >= 1.5");
  c = pred("i <> NULL");
  EXPECT_EQ(c->children[1]->type, Type::integer());
  EXPECT_EQ(c->compare_op, plan::CompareOp::kNe);
  EXPECT_EQ(pred("i != 2")->compare_op, plan::CompareOp::kNe);

  EXPECT_SQL_ERROR(cat, "select 1 from t where s = 1", ErrorKind::kBinder, "cannot compare VARCHAR and INTEGER in 's = 1'");
  EXPECT_SQL_ERROR(cat, "select 1 from t where i = 'x'", ErrorKind::kBinder, "cannot compare INTEGER and VARCHAR");
  EXPECT_SQL_ERROR(cat, "select 1 from t where dt = i", ErrorKind::kBinder, "cannot compare DATE and INTEGER in 'dt = i'");
  EXPECT_SQL_ERROR(cat, "select 1 from t where dt = s", ErrorKind::kBinder, "cannot compare DATE and VARCHAR");
  EXPECT_SQL_ERROR(cat, "select 1 from t where dt = '1995-02-30'", ErrorKind::kBinder,
                   "invalid DATE '1995-02-30' in 'dt = '1995-02-30'' (expected 'YYYY-MM-DD')");
  EXPECT_SQL_ERROR(cat, "select 1 from t where dt between 'x' and '1995-01-01'", ErrorKind::kBinder, "invalid DATE 'x'");
  EXPECT_SQL_ERROR(cat, "select 1 from t where s between 'a' and 3", ErrorKind::kBinder, "cannot compare VARCHAR and INTEGER");
  EXPECT_SQL_ERROR(cat, "select 1 from t where i in (1, 'a')", ErrorKind::kBinder, "cannot compare INTEGER and VARCHAR");
}

TEST_F(SqlTyping, BooleanLogic) {
  auto e = item("(i = 1 and i = 2) and i = 3");
  EXPECT_EQ(e->kind, ExprKind::kAnd);
  EXPECT_EQ(e->children.size(), 3u);  // flattened
  e = item("i = 1 or i = 2 or (i = 3 and b = 4)");
  EXPECT_EQ(e->kind, ExprKind::kOr);
  ASSERT_EQ(e->children.size(), 3u);
  EXPECT_EQ(e->children[2]->kind, ExprKind::kAnd);
  e = item("not i = 1");
  EXPECT_EQ(e->kind, ExprKind::kNot);
  e = item("s is null");
  EXPECT_EQ(e->kind, ExprKind::kIsNull);
  EXPECT_FALSE(e->negated);
  EXPECT_TRUE(item("s is not null")->negated);
  EXPECT_EQ(type("i = 1 and true"), Type::boolean());
  EXPECT_SQL_ERROR(cat, "select 1 from t where i", ErrorKind::kBinder, "argument of WHERE must be type BOOLEAN, not INTEGER");
  EXPECT_SQL_ERROR(cat, "select 1 from t where i = 1 and s", ErrorKind::kBinder,
                   "argument of AND must be type BOOLEAN, not VARCHAR");
  EXPECT_SQL_ERROR(cat, "select 1 from t where i = 1 or 2", ErrorKind::kBinder, "argument of OR must be type BOOLEAN");
  EXPECT_SQL_ERROR(cat, "select not i from t", ErrorKind::kBinder, "argument of NOT must be type BOOLEAN, not INTEGER");
}

TEST_F(SqlTyping, InListBetweenLike) {
  auto e = pred("i in (1, 2, 3)");
  EXPECT_EQ(e->kind, ExprKind::kInList);
  EXPECT_FALSE(e->negated);
  EXPECT_EQ(e->children.size(), 4u);
  e = pred("i not in (1, 2 + 3)");
  EXPECT_TRUE(e->negated);
  EXPECT_EQ(e->children[2]->value, Value::bigint(5));
  // Non-constant items: x IN (a, y) is x = a OR x = y; NOT IN becomes ANDed <>.
  e = pred("i in (1, b)");
  EXPECT_EQ(e->kind, ExprKind::kOr);
  EXPECT_EQ(e->children[1]->kind, ExprKind::kCompare);
  e = item("i not in (1, b)");
  EXPECT_EQ(e->kind, ExprKind::kAnd);
  EXPECT_EQ(e->children[0]->compare_op, plan::CompareOp::kNe);
  // ... so in WHERE it splits into conjuncts like any AND.
  EXPECT_EQ(cat.bind("select 1 from t where i not in (1, b)").conjuncts.size(), 2u);
  e = pred("i not between 1 and 5");
  EXPECT_EQ(e->kind, ExprKind::kBetween);
  EXPECT_TRUE(e->negated);
  e = pred("s like 'a%b_'");
  EXPECT_EQ(e->kind, ExprKind::kLike);
  EXPECT_EQ(e->value, Value::varchar("a%b_"));
  EXPECT_FALSE(e->negated);
  EXPECT_TRUE(pred("s not like '%x'")->negated);
  EXPECT_SQL_ERROR(cat, "select 1 from t where i like '1%'", ErrorKind::kBinder,
                   "LIKE needs a VARCHAR operand, not INTEGER, in 'i LIKE '1%''");
  EXPECT_SQL_ERROR(cat, "select 1 from t where s like s", ErrorKind::kBinder,
                   "LIKE pattern must be a string constant in 's LIKE s'");
}

TEST_F(SqlTyping, Case) {
  auto e = item("case when i > 1 then 1 else 2 end");
  EXPECT_EQ(e->kind, ExprKind::kCase);
  EXPECT_EQ(e->type, Type::integer());
  EXPECT_TRUE(e->has_else);
  EXPECT_EQ(e->children.size(), 3u);
  e = item("case when i > 1 then i else d end");
  EXPECT_EQ(e->type, Type::decimal(18, 2));
  EXPECT_EQ(e->children[1]->kind, ExprKind::kCast);  // every branch has the result type
  EXPECT_EQ(e->children[1]->type, Type::decimal(18, 2));
  EXPECT_EQ(e->children[2]->type, Type::decimal(18, 2));
  e = item("case when i > 1 then 1 else 2.5 end");
  EXPECT_EQ(e->type, Type::decimal(18, 1));
  EXPECT_EQ(e->children[1]->value, Value::decimal(10, 18, 1));  // constants converted at bind time
  e = item("case when i > 1 then 'big' end");
  EXPECT_EQ(e->type, Type::varchar());
  EXPECT_FALSE(e->has_else);
  EXPECT_EQ(e->children.size(), 2u);
  e = item("case i when 1 then 'a' when 2 then 'b' else 'c' end");
  EXPECT_EQ(e->children.size(), 5u);
  EXPECT_EQ(e->children[0]->kind, ExprKind::kCompare);
  EXPECT_EQ(e->children[2]->children[1]->value, Value::integer(2));
  EXPECT_EQ(type("case when i > 1 then NULL else dt end"), Type::date());
  EXPECT_EQ(type("case when i > 1 then b else i end"), Type::bigint());
  EXPECT_EQ(type("case when i > 1 then f else 1 end"), Type::float64());
  EXPECT_SQL_ERROR(cat, "select case when i > 1 then 's' else 1 end from t", ErrorKind::kBinder,
                   "CASE types VARCHAR and INTEGER cannot be matched");
  EXPECT_SQL_ERROR(cat, "select case when i then 1 end from t", ErrorKind::kBinder,
                   "argument of CASE/WHEN must be type BOOLEAN, not INTEGER");
  EXPECT_SQL_ERROR(cat, "select case s when 1 then 2 end from t", ErrorKind::kBinder, "cannot compare VARCHAR and INTEGER");
}

TEST_F(SqlTyping, Cast) {
  auto e = item("cast(i as bigint)");
  EXPECT_EQ(e->kind, ExprKind::kCast);
  EXPECT_EQ(e->type, Type::bigint());
  EXPECT_EQ(item("cast(i as integer)")->kind, ExprKind::kColumnRef);  // no-op cast dropped
  EXPECT_EQ(item("d::double")->type, Type::float64());
  EXPECT_EQ(item("cast(f as decimal(12, 3))")->type, Type::decimal(12, 3));
  expect_constant("cast('12' as integer)", Value::integer(12));
  expect_constant("cast(' -12 ' as bigint)", Value::bigint(-12));
  expect_constant("cast('1995-01-01' as date)", Value::date(days_from_civil(1995, 1, 1)));
  expect_constant("cast('2.5' as decimal(4,2))", Value::decimal(250, 4, 2));
  expect_constant("cast('2.5' as double)", Value::float64(2.5));
  expect_constant("cast(12.345 as decimal(10,2))", Value::decimal(1235, 10, 2));  // half away from zero
  expect_constant("cast(-12.345 as decimal(10,2))", Value::decimal(-1235, 10, 2));
  expect_constant("cast(2.5 as integer)", Value::integer(3));
  expect_constant("cast(-2.4 as integer)", Value::integer(-2));
  expect_constant("cast(1e3 as integer)", Value::integer(1000));
  expect_constant("cast(7 as decimal(5,2))", Value::decimal(700, 5, 2));
  expect_constant("cast(date '1995-01-01' as varchar)", Value::varchar("1995-01-01"));
  expect_constant("cast(12.50 as text)", Value::varchar("12.50"));
  expect_constant("cast(NULL as date)", Value::null(Type::date()));
  EXPECT_SQL_ERROR(cat, "select cast('x' as integer)", ErrorKind::kBinder, "cannot cast 'x' to INTEGER in 'CAST('x' AS INTEGER)'");
  EXPECT_SQL_ERROR(cat, "select cast(3000000000 as integer)", ErrorKind::kBinder, "cannot cast 3000000000 to INTEGER");
  EXPECT_SQL_ERROR(cat, "select cast(1000 as decimal(4,2))", ErrorKind::kBinder, "cannot cast 1000 to DECIMAL(4,2)");
  EXPECT_SQL_ERROR(cat, "select cast('1995-13-01' as date)", ErrorKind::kBinder, "cannot cast '1995-13-01' to DATE");
  // Text converts to and from other types at run time (bad text is an execution error).
  EXPECT_EQ(cat.bind("select cast(s as integer) from t").select[0]->kind, ExprKind::kCast);
  EXPECT_EQ(cat.bind("select cast(dt as varchar) from t").select[0]->kind, ExprKind::kCast);
  EXPECT_SQL_ERROR(cat, "select cast(dt as integer) from t", ErrorKind::kBinder, "cannot cast DATE to INTEGER");
  EXPECT_EQ(cat.bind("select cast(i = 1 as integer) from t").select[0]->kind, ExprKind::kCast);  // PostgreSQL's cast
  EXPECT_SQL_ERROR(cat, "select cast(i = 1 as date) from t", ErrorKind::kBinder, "cannot cast BOOLEAN to DATE");
  EXPECT_SQL_ERROR(cat, "select cast(dt as boolean) from t", ErrorKind::kBinder, "cannot cast DATE to BOOLEAN");
}

TEST_F(SqlTyping, AggregateResultTypes) {
  auto agg = [&](const std::string& e) {
    auto q = cat.bind("select " + e + " from t");
    EXPECT_TRUE(q.is_aggregate);
    EXPECT_EQ(q.aggregates.size(), 1u);
    EXPECT_EQ(q.select[0]->kind, ExprKind::kAggregateRef);
    EXPECT_EQ(q.select[0]->type, q.aggregates.at(0).type);
    return q.aggregates.at(0);
  };
  EXPECT_EQ(agg("count(*)").func, plan::AggFunc::kCountStar);
  EXPECT_EQ(agg("count(*)").arg, nullptr);
  EXPECT_EQ(agg("count(*)").type, Type::bigint());
  EXPECT_EQ(agg("count(s)").func, plan::AggFunc::kCount);
  EXPECT_EQ(agg("count(s)").type, Type::bigint());
  EXPECT_EQ(agg("sum(i)").type, Type::bigint());
  EXPECT_EQ(agg("sum(b)").type, Type::hugeint());
  EXPECT_EQ(agg("sum(i * i)").type, Type::hugeint());  // INTEGER*INTEGER is BIGINT
  EXPECT_EQ(agg("sum(b * b)").type, Type::hugeint());
  EXPECT_EQ(agg("sum(d)").type, Type::decimal(38, 2));
  EXPECT_EQ(agg("sum(f)").type, Type::float64());
  EXPECT_EQ(agg("min(s)").type, Type::varchar());
  EXPECT_EQ(agg("max(dt)").type, Type::date());
  EXPECT_EQ(agg("max(d)").type, Type::decimal(10, 2));
  EXPECT_EQ(agg("avg(i)").type, Type::float64());
  EXPECT_EQ(agg("avg(d)").type, Type::float64());
  EXPECT_EQ(agg("avg(d)").func, plan::AggFunc::kAvg);
  auto cd = agg("count(distinct s)");
  EXPECT_TRUE(cd.distinct);
  EXPECT_EQ(cd.name, "count(DISTINCT s)");
  EXPECT_TRUE(agg("sum(distinct i)").distinct);
  EXPECT_EQ(agg("SUM(I)").name, "sum(i)");
  EXPECT_SQL_ERROR(cat, "select sum(s) from t", ErrorKind::kBinder, "cannot apply sum to VARCHAR in 'sum(s)'");
  EXPECT_SQL_ERROR(cat, "select avg(dt) from t", ErrorKind::kBinder, "cannot apply avg to DATE");
  EXPECT_EQ(agg("min(i = 1)").type, Type::boolean());  // false < true, as PostgreSQL's bool_and
  EXPECT_SQL_ERROR(cat, "select sum(i = 1) from t", ErrorKind::kBinder, "cannot apply sum to BOOLEAN");
  EXPECT_SQL_ERROR(cat, "select bool_or(i) from t", ErrorKind::kBinder, "bool_or needs a BOOLEAN argument");
  EXPECT_SQL_ERROR(cat, "select sum(*) from t", ErrorKind::kBinder, "sum(*) is not allowed; only count takes *");
  EXPECT_SQL_ERROR(cat, "select sum(i, b) from t", ErrorKind::kBinder, "sum takes exactly one argument, got 2");
  EXPECT_SQL_ERROR(cat, "select count() from t", ErrorKind::kBinder, "count takes exactly one argument, got 0");
  EXPECT_SQL_ERROR(cat, "select absolute(i) from t", ErrorKind::kBinder, "unknown function 'absolute' in 'absolute(i)'");
  EXPECT_SQL_ERROR(cat, "select count(t.*) from t", ErrorKind::kBinder, "'t.*' is only allowed");
}

}  // namespace
}  // namespace raydb::test
