// A statement's block that is the same as one it already ran (plan::same_query) takes
// the earlier rows instead of running again (api/SubqueryRunner): the same block bound
// twice runs once and gives the same rows under its own name; any difference in table,
// filter, grouping, output, order or limit runs it again.
#include <gtest/gtest.h>

#include "api/subquery_runner.h"
#include "sql_test_catalog.h"

namespace raydb::test {
namespace {

// A one-column INTEGER result with rows 1..n.
QueryResult ints(size_t n) {
  QueryResult r;
  QueryResult::ColumnData d;
  d.name = "i";
  d.type = Type::integer();
  for (size_t i = 0; i < n; i++) d.ints.push_back(int64_t(i + 1));
  r.columns().push_back(std::move(d));
  r.set_row_count(n);
  return r;
}

TEST(SameQuery, EqualBlocksAndEveryKindOfDifference) {
  TestCatalog cat;
  const std::string base = "select i from t where i > 1 and s like 'a%' order by i limit 5";
  EXPECT_TRUE(plan::same_query(cat.bind(base), cat.bind(base)));
  EXPECT_TRUE(plan::same_query(cat.bind("select count(*), sum(d) from t group by s"),
                               cat.bind("select count(*), sum(d) from t group by s")));
  const char* different[] = {
      "select i from t where i > 2 and s like 'a%' order by i limit 5",   // constant
      "select i from t where i >= 1 and s like 'a%' order by i limit 5",  // operator
      "select i from t where i > 1 and s like 'b%' order by i limit 5",   // pattern
      "select i from t where i > 1 order by i limit 5",                   // a conjunct fewer
      "select i from t where i > 1 and s like 'a%' order by i desc limit 5",
      "select i from t where i > 1 and s like 'a%' order by i limit 6",
      "select i from t where i > 1 and s like 'a%' order by i limit 5 offset 1",
      "select i as j from t where i > 1 and s like 'a%' order by j limit 5",  // output name
      "select i from u where i > 1 and s like 'a%' order by i limit 5",       // table
      "select distinct i from t where i > 1 and s like 'a%' order by i limit 5",
  };
  for (const char* sql : different) EXPECT_FALSE(plan::same_query(cat.bind(base), cat.bind(sql))) << sql;
  EXPECT_FALSE(plan::same_query(cat.bind("select count(*) from t group by s"),
                                cat.bind("select count(*) from t group by i")));
  EXPECT_FALSE(plan::same_query(cat.bind("select sum(d) from t"), cat.bind("select sum(distinct d) from t")));
  EXPECT_FALSE(plan::same_query(cat.bind("select min(d) from t"), cat.bind("select max(d) from t")));
  EXPECT_FALSE(plan::same_query(cat.bind("select count(*) from t group by s having count(*) > 1"),
                                cat.bind("select count(*) from t group by s having count(*) > 2")));
}

TEST(SubqueryReuse, TheSameBlockRunsOnceAndKeepsItsOwnName) {
  TestCatalog cat;
  size_t runs = 0;
  api::SubqueryRunner runner([&](plan::LogicalQuery) {
    runs++;
    return ints(4 + runs);  // a second run would give other rows
  });
  const std::string sql = "select i from t where i > 1";
  const sql::TempTable a = runner.materialize(cat.bind(sql), "__subquery_1", "subquery");
  const sql::TempTable b = runner.materialize(cat.bind(sql), "__subquery_2", "subquery");
  EXPECT_EQ(runs, 1u);
  EXPECT_EQ(a.table->name(), "__subquery_1");
  EXPECT_EQ(b.table->name(), "__subquery_2");
  ASSERT_EQ(a.rows(), 5u);
  ASSERT_EQ(b.rows(), 5u);
  ASSERT_EQ(b.columns(), a.columns());
  for (size_t row = 0; row < 5; row++) EXPECT_EQ(b.table->column(0).get_int(row), a.table->column(0).get_int(row));
  runner.materialize(cat.bind("select i from t where i > 2"), "__subquery_3", "subquery");
  EXPECT_EQ(runs, 2u);
}

}  // namespace
}  // namespace raydb::test
