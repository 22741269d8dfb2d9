// Query-level binding: tables, names, joins, grouping, ORDER BY, DISTINCT, LIMIT.
#include <gtest/gtest.h>

#include "sql_test_catalog.h"

namespace raydb::test {
namespace {

using plan::ExprKind;

class SqlBinder : public ::testing::Test {
 protected:
  TestCatalog cat;
};

TEST_F(SqlBinder, StarExpansionAndOutputNames) {
  auto q = cat.bind("select * from t");
  ASSERT_EQ(q.select.size(), 6u);
  EXPECT_EQ(q.output_names, (std::vector<std::string>{"i", "b", "d", "f", "s", "dt"}));
  EXPECT_EQ(q.select[4]->kind, ExprKind::kColumnRef);
  EXPECT_EQ(q.select[4]->type, Type::varchar());
  EXPECT_FALSE(q.is_aggregate);
  q = cat.bind("select u.*, t.i from t, u");
  EXPECT_EQ(q.output_names, (std::vector<std::string>{"i", "s", "k", "i"}));
  EXPECT_EQ(q.select[0]->table_index, 1);
  EXPECT_EQ(q.select[3]->table_index, 0);
  q = cat.bind("select I, t.s, i + 1, i as \"MyName\", b total, sum(lo_revenue) from t, lineorder group by 1, 2, 3, 4, 5");
  EXPECT_EQ(q.output_names, (std::vector<std::string>{"i", "s", "i + 1", "MyName", "total", "sum(lo_revenue)"}));
  EXPECT_EQ(cat.bind("select 1 + 2").output_names[0], "1 + 2");
  EXPECT_EQ(cat.bind("select 'a'").output_names[0], "'a'");
}

TEST_F(SqlBinder, TablesAliasesAndColumnResolution) {
  auto q = cat.bind("select a.i, bb.i from t a, t as bb where a.i = bb.i");
  ASSERT_EQ(q.tables.size(), 2u);
  EXPECT_EQ(q.tables[0].name, "t");
  EXPECT_EQ(q.tables[0].alias, "a");
  EXPECT_EQ(q.tables[1].alias, "bb");
  EXPECT_EQ(q.tables[0].table, q.tables[1].table);
  EXPECT_EQ(q.select[1]->table_index, 1);
  EXPECT_EQ(plan::tables_used(*q.conjuncts[0]), 3u);
  // Case-insensitive names, quoted identifiers, keywords in any case.
  q = cat.bind("SeLeCt \"I\", T.S FROM \"T\" WhErE \"t\".i = 1");
  EXPECT_EQ(q.select[0]->column_index, 0);
  EXPECT_EQ(q.select[1]->column_index, 4);
  // `date` is a table name and a qualifier.
  q = cat.bind("select date.d_year, \"date\".d_month from date where date.d_year = 1993");
  EXPECT_EQ(q.tables[0].name, "date");
  EXPECT_EQ(q.select[0]->type, Type::integer());
}

TEST_F(SqlBinder, NameErrors) {
  EXPECT_SQL_ERROR(cat, "select 1 from nope", ErrorKind::kBinder, "unknown table 'nope'");
  EXPECT_SQL_ERROR(cat, "select nope from t", ErrorKind::kBinder, "unknown column 'nope' in table t");
  EXPECT_SQL_ERROR(cat, "select nope from t, u", ErrorKind::kBinder, "unknown column 'nope' in tables t, u");
  EXPECT_SQL_ERROR(cat, "select lo_revenu from lineorder", ErrorKind::kBinder,
                   "unknown column 'lo_revenu'; did you mean 'lo_revenue'?");
  EXPECT_SQL_ERROR(cat, "select x", ErrorKind::kBinder, "unknown column 'x' (the query has no FROM clause)");
  EXPECT_SQL_ERROR(cat, "select i from t, u", ErrorKind::kBinder,
                   "column reference 'i' is ambiguous (candidates: t.i, u.i)");
  EXPECT_SQL_ERROR(cat, "select 1 from t a, t b where i = 1", ErrorKind::kBinder,
                   "column reference 'i' is ambiguous (candidates: a.i, b.i)");
  EXPECT_SQL_ERROR(cat, "select x.i from t", ErrorKind::kBinder, "unknown table or alias 'x' in 'x.i'");
  EXPECT_SQL_ERROR(cat, "select t.i from t as a", ErrorKind::kBinder,
                   "unknown table or alias 't' in 't.i' (table 't' is aliased as 'a')");
  EXPECT_SQL_ERROR(cat, "select a.nope from t a", ErrorKind::kBinder, "unknown column 'a.nope' in table a");
  EXPECT_SQL_ERROR(cat, "select 1 from t, t", ErrorKind::kBinder, "table name 't' specified more than once");
  EXPECT_SQL_ERROR(cat, "select 1 from t x, u X", ErrorKind::kBinder, "table name 'x' specified more than once");
  EXPECT_SQL_ERROR(cat, "select *", ErrorKind::kBinder, "SELECT * with no tables specified is not valid");
  EXPECT_SQL_ERROR(cat, "select x.* from t", ErrorKind::kBinder, "unknown table or alias 'x' in 'x.*'");
}

TEST_F(SqlBinder, JoinsBecomeConjuncts) {
  auto q = cat.bind("select t.i from t join u on t.i = u.i and u.k > 1 inner join lineorder on lo_orderkey = u.k "
                    "cross join date where t.b = 2 and (t.s = 'a' or t.s = 'b')");
  ASSERT_EQ(q.tables.size(), 4u);
  ASSERT_EQ(q.conjuncts.size(), 5u);
  EXPECT_EQ(plan::tables_used(*q.conjuncts[0]), 3u);  // t.i = u.i
  EXPECT_EQ(plan::tables_used(*q.conjuncts[1]), 2u);  // u.k > 1
  EXPECT_EQ(plan::tables_used(*q.conjuncts[2]), 6u);  // lo_orderkey = u.k
  EXPECT_EQ(q.conjuncts[4]->kind, ExprKind::kOr);
  EXPECT_SQL_ERROR(cat, "select 1 from t join u on t.i = lineorder.lo_orderkey join lineorder on true", ErrorKind::kBinder,
                   "table 'lineorder' cannot be referenced in JOIN conditions before it is joined");
  EXPECT_SQL_ERROR(cat, "select 1 from t join u on t.i = lo_orderkey join lineorder on true", ErrorKind::kBinder,
                   "column 'lo_orderkey' of table 'lineorder' cannot be referenced in JOIN conditions");
  EXPECT_SQL_ERROR(cat, "select 1 from t join u on count(*) > 1", ErrorKind::kBinder,
                   "aggregate functions are not allowed in JOIN conditions: 'count(*)'");
  EXPECT_SQL_ERROR(cat, "select 1 from t join u on t.i", ErrorKind::kBinder,
                   "argument of JOIN/ON must be type BOOLEAN, not INTEGER");
}

TEST_F(SqlBinder, GroupByAndAggregates) {
  auto q = cat.bind("select s, i + 1, sum(b), count(*) from t group by s, i + 1");
  EXPECT_TRUE(q.is_aggregate);
  ASSERT_EQ(q.group_keys.size(), 2u);
  EXPECT_EQ(q.group_keys[0]->kind, ExprKind::kColumnRef);
  EXPECT_EQ(q.group_keys[1]->kind, ExprKind::kArith);
  ASSERT_EQ(q.aggregates.size(), 2u);
  EXPECT_EQ(q.select[0]->kind, ExprKind::kGroupRef);
  EXPECT_EQ(q.select[0]->ref_index, 0);
  EXPECT_EQ(q.select[0]->type, Type::varchar());
  EXPECT_EQ(q.select[1]->kind, ExprKind::kGroupRef);
  EXPECT_EQ(q.select[1]->ref_index, 1);
  EXPECT_EQ(q.select[1]->type, Type::bigint());
  EXPECT_EQ(q.select[2]->kind, ExprKind::kAggregateRef);
  EXPECT_EQ(q.select[3]->ref_index, 1);
  EXPECT_EQ(q.aggregates[0].arg->kind, ExprKind::kColumnRef);  // over base columns

  // Expressions over group keys and aggregates.
  q = cat.bind("select (i + 1) * 2, i * 3, sum(b) / count(*) from t group by i + 1, i");
  EXPECT_EQ(q.select[0]->kind, ExprKind::kArith);
  EXPECT_EQ(q.select[0]->children[0]->kind, ExprKind::kGroupRef);
  EXPECT_EQ(q.select[1]->children[0]->kind, ExprKind::kGroupRef);
  EXPECT_EQ(q.select[1]->children[0]->ref_index, 1);
  EXPECT_EQ(q.select[2]->children[0]->kind, ExprKind::kAggregateRef);
  EXPECT_EQ(q.select[2]->type, Type::hugeint());  // HUGEINT / BIGINT

  // The same aggregate text is one aggregate; DISTINCT makes another.
  q = cat.bind("select sum(i), sum(i) + 1, SUM(i), sum(distinct i) from t having sum(i) > 0 order by count(*)");
  ASSERT_EQ(q.aggregates.size(), 3u);
  EXPECT_EQ(q.select[0]->ref_index, 0);
  EXPECT_EQ(q.select[2]->ref_index, 0);
  EXPECT_EQ(q.select[3]->ref_index, 1);
  EXPECT_EQ(q.having->children[0]->ref_index, 0);
  EXPECT_EQ(q.order_by[0].expr->kind, ExprKind::kAggregateRef);
  EXPECT_EQ(q.order_by[0].expr->ref_index, 2);
  EXPECT_EQ(q.aggregates[2].func, plan::AggFunc::kCountStar);

  // Duplicate keys collapse.
  EXPECT_EQ(cat.bind("select i from t group by i, t.i, 1").group_keys.size(), 1u);
}

TEST_F(SqlBinder, GroupByOrdinalAndAlias) {
  auto q = cat.bind("select s, sum(i) from t group by 1");
  ASSERT_EQ(q.group_keys.size(), 1u);
  EXPECT_EQ(q.group_keys[0]->column_index, 4);
  EXPECT_EQ(q.select[0]->kind, ExprKind::kGroupRef);
  q = cat.bind("select i + 1 as x, count(*) from t group by x");
  EXPECT_EQ(q.group_keys[0]->kind, ExprKind::kArith);
  EXPECT_EQ(q.select[0]->kind, ExprKind::kGroupRef);
  q = cat.bind("select * from u group by 1, 2, 3");
  EXPECT_EQ(q.group_keys.size(), 3u);
  EXPECT_EQ(q.select[2]->kind, ExprKind::kGroupRef);
  // An input column wins over an output alias of the same name (PostgreSQL's rule) ...
  EXPECT_SQL_ERROR(cat, "select b as i, count(*) from t group by i", ErrorKind::kBinder,
                   "column 'b' must appear in the GROUP BY clause or be used in an aggregate function");
  EXPECT_SQL_ERROR(cat, "select s, sum(i) from t group by 3", ErrorKind::kBinder,
                   "GROUP BY position 3 is not in select list (it has 2 items)");
  EXPECT_SQL_ERROR(cat, "select s, sum(i) from t group by 0", ErrorKind::kBinder, "GROUP BY position 0 is not in select list");
  EXPECT_SQL_ERROR(cat, "select sum(i) from t group by 1", ErrorKind::kBinder,
                   "aggregate functions are not allowed in GROUP BY: 'sum(i)'");
  EXPECT_SQL_ERROR(cat, "select sum(i) as x from t group by x", ErrorKind::kBinder,
                   "aggregate functions are not allowed in GROUP BY");
}

TEST_F(SqlBinder, AggregateMisuse) {
  EXPECT_SQL_ERROR(cat, "select i, sum(b) from t", ErrorKind::kBinder,
                   "column 'i' must appear in the GROUP BY clause or be used in an aggregate function");
  EXPECT_SQL_ERROR(cat, "select s, count(*) from t group by i", ErrorKind::kBinder, "column 's' must appear in the GROUP BY");
  EXPECT_SQL_ERROR(cat, "select i + b from t group by i", ErrorKind::kBinder, "column 'b' must appear in the GROUP BY");
  EXPECT_SQL_ERROR(cat, "select * from t group by i", ErrorKind::kBinder, "column 'b' must appear in the GROUP BY");
  EXPECT_SQL_ERROR(cat, "select count(*) from t having i > 1", ErrorKind::kBinder, "column 'i' must appear in the GROUP BY");
  EXPECT_SQL_ERROR(cat, "select i from t group by i order by b", ErrorKind::kBinder, "column 'b' must appear in the GROUP BY");
  EXPECT_SQL_ERROR(cat, "select i from t where sum(i) > 1", ErrorKind::kBinder,
                   "aggregate functions are not allowed in WHERE: 'sum(i)'");
  EXPECT_SQL_ERROR(cat, "select i from t group by sum(i)", ErrorKind::kBinder, "aggregate functions are not allowed in GROUP BY");
  EXPECT_SQL_ERROR(cat, "select sum(max(i)) from t", ErrorKind::kBinder, "aggregate function calls cannot be nested: 'max(i)'");
  EXPECT_SQL_ERROR(cat, "select count(*) from t having sum(i)", ErrorKind::kBinder,
                   "argument of HAVING must be type BOOLEAN, not BIGINT");
  EXPECT_SQL_ERROR(cat, "select 1 from t limit count(*)", ErrorKind::kBinder, "LIMIT must be a non-negative integer constant");
}

TEST_F(SqlBinder, HavingWithoutGroupBy) {
  auto q = cat.bind("select count(*) from t having count(*) > 1");
  EXPECT_TRUE(q.is_aggregate);
  EXPECT_TRUE(q.group_keys.empty());
  ASSERT_NE(q.having, nullptr);
  EXPECT_EQ(q.having->kind, ExprKind::kCompare);
  EXPECT_EQ(q.having->children[0]->kind, ExprKind::kAggregateRef);
  EXPECT_EQ(q.aggregates.size(), 1u);
  // HAVING alone makes the query an aggregate over one group.
  q = cat.bind("select 1 from t having 1 = 1");
  EXPECT_TRUE(q.is_aggregate);
  EXPECT_TRUE(q.aggregates.empty());
  // An aggregate anywhere makes it one too.
  EXPECT_TRUE(cat.bind("select 1 from t order by count(*)").is_aggregate);
  EXPECT_FALSE(cat.bind("select i from t order by i").is_aggregate);
}

TEST_F(SqlBinder, OrderBy) {
  auto q = cat.bind("select i as x, s, b + 1 from t order by x desc, 2, b + 1, f, 3 desc");
  ASSERT_EQ(q.order_by.size(), 5u);
  EXPECT_EQ(q.order_by[0].expr->kind, ExprKind::kOutputRef);
  EXPECT_EQ(q.order_by[0].expr->ref_index, 0);
  EXPECT_EQ(q.order_by[0].expr->type, Type::integer());
  EXPECT_TRUE(q.order_by[0].descending);
  EXPECT_EQ(q.order_by[1].expr->kind, ExprKind::kOutputRef);
  EXPECT_EQ(q.order_by[1].expr->ref_index, 1);
  EXPECT_FALSE(q.order_by[1].descending);
  EXPECT_EQ(q.order_by[2].expr->kind, ExprKind::kArith);  // an expression, bound like a select item
  EXPECT_EQ(q.order_by[3].expr->kind, ExprKind::kColumnRef);  // not in the select list: fine without DISTINCT
  EXPECT_EQ(q.order_by[4].expr->ref_index, 2);
  // Output names win over input columns: ORDER BY i means the output column i (= t.b here).
  q = cat.bind("select b as i from t order by i");
  EXPECT_EQ(q.order_by[0].expr->kind, ExprKind::kOutputRef);
  // In an aggregate query ORDER BY lives in the post-aggregation domain.
  q = cat.bind("select s from t group by s order by count(*) desc, s");
  EXPECT_EQ(q.order_by[0].expr->kind, ExprKind::kAggregateRef);
  EXPECT_EQ(q.order_by[1].expr->kind, ExprKind::kOutputRef);
  q = cat.bind("select s from t group by s, i order by i + 1");
  EXPECT_EQ(q.order_by[0].expr->children[0]->kind, ExprKind::kGroupRef);
  EXPECT_SQL_ERROR(cat, "select i from t order by 2", ErrorKind::kBinder, "ORDER BY position 2 is not in select list");
  EXPECT_SQL_ERROR(cat, "select i from t order by 0", ErrorKind::kBinder, "ORDER BY position 0 is not in select list");
  EXPECT_SQL_ERROR(cat, "select i as x, b as x from t order by x", ErrorKind::kBinder,
                   "ORDER BY 'x' is ambiguous: it names more than one select list item");
  EXPECT_EQ(cat.bind("select i, i from t order by i").order_by[0].expr->ref_index, 0);  // same expression twice is fine
  EXPECT_SQL_ERROR(cat, "select i from t order by nope", ErrorKind::kBinder, "unknown column 'nope'");
}

// NULLS FIRST|LAST as written, else PostgreSQL's default (last ascending, first
// descending), also through DISTINCT, grouping and set operations' ORDER BY.
TEST_F(SqlBinder, OrderByNulls) {
  auto q = cat.bind("select i, s, b from t order by i, s desc, b nulls first, d desc nulls last, f asc nulls last");
  ASSERT_EQ(q.order_by.size(), 5u);
  const bool want[5] = {false, true, true, false, false};
  for (size_t k = 0; k < 5; k++) EXPECT_EQ(q.order_by[k].nulls_first, want[k]) << k;
  EXPECT_TRUE(q.order_by[0].default_nulls());
  EXPECT_TRUE(q.order_by[1].default_nulls());
  EXPECT_FALSE(q.order_by[2].default_nulls());
  EXPECT_FALSE(q.order_by[3].default_nulls());
  EXPECT_TRUE(q.order_by[4].default_nulls());
  EXPECT_NE(q.to_string().find("ORDER BY i s DESC b NULLS FIRST d DESC NULLS LAST f\n"), std::string::npos)
      << q.to_string();
  q = cat.bind("select distinct s from t order by s desc nulls last");
  EXPECT_FALSE(q.order_by[0].nulls_first);
  q = cat.bind("select s, count(*) from t group by s order by count(*) nulls first, s");
  EXPECT_TRUE(q.order_by[0].nulls_first);
  EXPECT_FALSE(q.order_by[1].nulls_first);
}

TEST_F(SqlBinder, Distinct) {
  // Without aggregates DISTINCT is a GROUP BY of the select list (the executors' hash
  // aggregation); ORDER BY keeps reading the outputs.
  auto q = cat.bind("select distinct s, i + 1, s from t order by s, i + 1 desc");
  EXPECT_FALSE(q.distinct);
  EXPECT_TRUE(q.is_aggregate);
  EXPECT_TRUE(q.aggregates.empty());
  ASSERT_EQ(q.group_keys.size(), 2u);  // s once
  ASSERT_EQ(q.select.size(), 3u);
  EXPECT_EQ(q.select[0]->kind, ExprKind::kGroupRef);
  EXPECT_EQ(q.select[1]->kind, ExprKind::kGroupRef);
  EXPECT_EQ(q.select[2]->ref_index, 0);
  // Constants only (a grouping without keys gives a row for no input) and DOUBLE (-0
  // and 0 print as the first one seen) stay DISTINCT.
  EXPECT_TRUE(cat.bind("select distinct 1 from t").distinct);
  EXPECT_TRUE(cat.bind("select distinct i, f from t").distinct);
  EXPECT_FALSE(cat.bind("select distinct 1, i from t").distinct);
  ASSERT_EQ(q.order_by.size(), 2u);
  EXPECT_EQ(q.order_by[1].expr->kind, ExprKind::kOutputRef);
  EXPECT_EQ(q.order_by[1].expr->ref_index, 1);
  EXPECT_FALSE(cat.bind("select all s from t").distinct);
  EXPECT_SQL_ERROR(cat, "select distinct s from t order by i", ErrorKind::kBinder,
                   "for SELECT DISTINCT, ORDER BY expressions must appear in select list: 'i'");
  q = cat.bind("select distinct s, count(*) from t group by s order by count(*)");
  EXPECT_EQ(q.order_by[0].expr->kind, ExprKind::kOutputRef);
  EXPECT_EQ(q.order_by[0].expr->ref_index, 1);
}

TEST_F(SqlBinder, LimitOffset) {
  auto q = cat.bind("select i from t limit 10 offset 5");
  EXPECT_EQ(q.limit, 10);
  EXPECT_EQ(q.offset, 5);
  q = cat.bind("select i from t");
  EXPECT_EQ(q.limit, -1);
  EXPECT_EQ(q.offset, 0);
  EXPECT_EQ(cat.bind("select i from t limit 0").limit, 0);
  EXPECT_EQ(cat.bind("select i from t limit 2 + 3").limit, 5);
  EXPECT_EQ(cat.bind("select i from t limit 5000000000").limit, 5000000000LL);
  EXPECT_EQ(cat.bind("select i from t limit all").limit, -1);
  q = cat.bind("select i from t offset 7");
  EXPECT_EQ(q.limit, -1);
  EXPECT_EQ(q.offset, 7);
  EXPECT_SQL_ERROR(cat, "select i from t limit -1", ErrorKind::kBinder, "LIMIT must be a non-negative integer constant, got '-1'");
  EXPECT_SQL_ERROR(cat, "select i from t limit 1.5", ErrorKind::kBinder, "LIMIT must be a non-negative integer constant");
  EXPECT_SQL_ERROR(cat, "select i from t limit 'a'", ErrorKind::kBinder, "LIMIT must be a non-negative integer constant");
  EXPECT_SQL_ERROR(cat, "select i from t limit i", ErrorKind::kBinder, "LIMIT must be a non-negative integer constant, got 'i'");
  EXPECT_SQL_ERROR(cat, "select i from t limit 1 offset -2", ErrorKind::kBinder, "OFFSET must be a non-negative integer constant");
}

TEST_F(SqlBinder, ExplainAndStatementForms) {
  auto st = cat.parse("EXPLAIN select sum(i) from t where i > 1;");
  EXPECT_EQ(st.kind, sql::StatementKind::kExplain);
  EXPECT_EQ(st.query.aggregates.size(), 1u);
  EXPECT_EQ(st.query.conjuncts.size(), 1u);
  EXPECT_EQ(cat.parse("select 1").kind, sql::StatementKind::kSelect);
  auto q = cat.bind("select 1 + 2 as three");
  EXPECT_TRUE(q.tables.empty());
  EXPECT_EQ(q.select[0]->value, Value::bigint(3));
  EXPECT_EQ(q.output_names[0], "three");
  // Comments anywhere.
  q = cat.bind("-- leading\nselect /* inline */ i -- trailing\nfrom t /* multi\nline */ where i = 1 -- end");
  EXPECT_EQ(q.conjuncts.size(), 1u);
  // EXPLAIN text comes from the plan's to_string.
  EXPECT_NE(cat.bind("select s, sum(i) from t group by s").to_string().find("sum(i)"), std::string::npos);
}

}  // namespace
}  // namespace raydb::test
