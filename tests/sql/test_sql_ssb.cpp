// The 13 Star Schema Benchmark queries bind verbatim with the expected shape.
#include <gtest/gtest.h>

#include "sql_test_catalog.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

using plan::ExprKind;

struct SsbExpect {
  std::string query;
  std::vector<std::string> tables;
  size_t conjuncts;
  std::vector<std::string> group_keys;
  std::string aggregate;  // the only aggregate's name
  Type aggregate_type;
  std::vector<std::string> output_names;
  std::vector<std::pair<int, bool>> order_by;  // output column, descending
};

std::vector<SsbExpect> expectations() {
  const Type H = Type::hugeint(), B = Type::bigint();
  const std::vector<std::string> q2_tables = {"lineorder", "date", "part", "supplier"};
  const std::vector<std::string> q3_tables = {"customer", "lineorder", "supplier", "date"};
  const std::vector<std::string> q4_tables = {"date", "customer", "supplier", "part", "lineorder"};
  const std::string q1_agg = "sum(lo_extendedprice * lo_discount)", profit = "sum(lo_revenue - lo_supplycost)";
  // SUM(INTEGER * INTEGER): the product is BIGINT, its SUM is HUGEINT; SUM(INTEGER) is BIGINT.
  return {
      {"q1.1", {"lineorder", "date"}, 4, {}, q1_agg, H, {"revenue"}, {}},
      {"q1.2", {"lineorder", "date"}, 4, {}, q1_agg, H, {"revenue"}, {}},
      {"q1.3", {"lineorder", "date"}, 5, {}, q1_agg, H, {"revenue"}, {}},
      {"q2.1", q2_tables, 5, {"d_year", "p_brand1"}, "sum(lo_revenue)", B, {"sum(lo_revenue)", "d_year", "p_brand1"},
       {{1, false}, {2, false}}},
      {"q2.2", q2_tables, 5, {"d_year", "p_brand1"}, "sum(lo_revenue)", B, {"sum(lo_revenue)", "d_year", "p_brand1"},
       {{1, false}, {2, false}}},
      {"q2.3", q2_tables, 5, {"d_year", "p_brand1"}, "sum(lo_revenue)", B, {"sum(lo_revenue)", "d_year", "p_brand1"},
       {{1, false}, {2, false}}},
      {"q3.1", q3_tables, 7, {"c_nation", "s_nation", "d_year"}, "sum(lo_revenue)", B,
       {"c_nation", "s_nation", "d_year", "revenue"}, {{2, false}, {3, true}}},
      {"q3.2", q3_tables, 7, {"c_city", "s_city", "d_year"}, "sum(lo_revenue)", B,
       {"c_city", "s_city", "d_year", "revenue"}, {{2, false}, {3, true}}},
      {"q3.3", q3_tables, 7, {"c_city", "s_city", "d_year"}, "sum(lo_revenue)", B,
       {"c_city", "s_city", "d_year", "revenue"}, {{2, false}, {3, true}}},
      {"q3.4", q3_tables, 6, {"c_city", "s_city", "d_year"}, "sum(lo_revenue)", B,
       {"c_city", "s_city", "d_year", "revenue"}, {{2, false}, {3, true}}},
      {"q4.1", q4_tables, 7, {"d_year", "c_nation"}, profit, H, {"d_year", "c_nation", "profit"},
       {{0, false}, {1, false}}},
      {"q4.2", q4_tables, 8, {"d_year", "s_nation", "p_category"}, profit, H,
       {"d_year", "s_nation", "p_category", "profit"}, {{0, false}, {1, false}, {2, false}}},
      {"q4.3", q4_tables, 8, {"d_year", "s_city", "p_brand1"}, profit, H, {"d_year", "s_city", "p_brand1", "profit"},
       {{0, false}, {1, false}, {2, false}}},
  };
}

// Every conjunct is a comparison, BETWEEN or OR of comparisons over one table, or a
// join equality between two INTEGER key columns.
void check_conjuncts(const plan::LogicalQuery& q, const std::string& name) {
  size_t joins = 0;
  for (auto& c : q.conjuncts) {
    uint64_t used = plan::tables_used(*c);
    if (__builtin_popcountll(used) == 2) {
      joins++;
      EXPECT_EQ(c->kind, ExprKind::kCompare) << name << ": " << c->to_string();
      EXPECT_EQ(c->children[0]->kind, ExprKind::kColumnRef);
      EXPECT_EQ(c->children[1]->kind, ExprKind::kColumnRef);
      EXPECT_EQ(c->children[0]->type, Type::integer());
    } else {
      EXPECT_EQ(__builtin_popcountll(used), 1) << name << ": " << c->to_string();
    }
  }
  EXPECT_EQ(joins, q.tables.size() - 1) << name;  // a star: one join per dimension
}

TEST(SqlSsb, AllThirteenQueriesBind) {
  TestCatalog cat;
  for (const auto& x : expectations()) {
    SCOPED_TRACE(x.query);
    std::string sql = read_file(std::string(RAYDB_SOURCE_DIR) + "/ssb/queries/" + x.query + ".sql");
    ASSERT_FALSE(sql.empty());
    auto st = cat.parse(sql);
    const auto& q = st.query;
    EXPECT_EQ(st.kind, sql::StatementKind::kSelect);
    std::vector<std::string> tables;
    for (auto& t : q.tables) tables.push_back(t.name);
    EXPECT_EQ(tables, x.tables);
    EXPECT_EQ(q.conjuncts.size(), x.conjuncts);
    check_conjuncts(q, x.query);
    EXPECT_TRUE(q.is_aggregate);
    std::vector<std::string> keys;
    for (auto& k : q.group_keys) {
      EXPECT_EQ(k->kind, ExprKind::kColumnRef);
      keys.push_back(k->to_string());
    }
    EXPECT_EQ(keys, x.group_keys);
    ASSERT_EQ(q.aggregates.size(), 1u);
    EXPECT_EQ(q.aggregates[0].func, plan::AggFunc::kSum);
    EXPECT_EQ(q.aggregates[0].name, x.aggregate);
    EXPECT_EQ(q.aggregates[0].type, x.aggregate_type);
    EXPECT_EQ(q.output_names, x.output_names);
    for (auto& s : q.select) EXPECT_TRUE(s->kind == ExprKind::kGroupRef || s->kind == ExprKind::kAggregateRef);
    ASSERT_EQ(q.order_by.size(), x.order_by.size());
    for (size_t i = 0; i < x.order_by.size(); i++) {
      EXPECT_EQ(q.order_by[i].expr->kind, ExprKind::kOutputRef);
      EXPECT_EQ(q.order_by[i].expr->ref_index, x.order_by[i].first);
      EXPECT_EQ(q.order_by[i].descending, x.order_by[i].second);
    }
    EXPECT_EQ(q.having, nullptr);
    EXPECT_FALSE(q.distinct);
    EXPECT_EQ(q.limit, -1);
    // EXPLAIN of the same text binds to the same plan.
    EXPECT_EQ(cat.parse("explain " + sql).query.to_string(), q.to_string());
  }
}

TEST(SqlSsb, Q11Details) {
  TestCatalog cat;
  auto q = cat.bind(read_file(std::string(RAYDB_SOURCE_DIR) + "/ssb/queries/q1.1.sql"));
  const auto& agg = q.aggregates[0];
  ASSERT_NE(agg.arg, nullptr);
  EXPECT_EQ(agg.arg->kind, ExprKind::kArith);
  EXPECT_EQ(agg.arg->type, Type::bigint());  // INTEGER * INTEGER
  EXPECT_EQ(agg.type, Type::hugeint());      // SUM(BIGINT)
  EXPECT_EQ(q.select[0]->kind, ExprKind::kAggregateRef);
  EXPECT_EQ(q.select[0]->type, Type::hugeint());
  // where lo_orderdate = d_datekey and d_year = 1993 and lo_discount between 1 and 3 and lo_quantity < 25
  EXPECT_EQ(q.conjuncts[0]->to_string(), "(lo_orderdate = d_datekey)");
  EXPECT_EQ(q.conjuncts[1]->to_string(), "(d_year = 1993)");
  EXPECT_EQ(q.conjuncts[2]->kind, ExprKind::kBetween);
  EXPECT_EQ(q.conjuncts[2]->children[1]->value, Value::integer(1));
  EXPECT_EQ(q.conjuncts[3]->compare_op, plan::CompareOp::kLt);
}

TEST(SqlSsb, StringConstantsStayVarchar) {
  TestCatalog cat;
  auto q = cat.bind(read_file(std::string(RAYDB_SOURCE_DIR) + "/ssb/queries/q2.2.sql"));
  bool found = false;
  for (auto& c : q.conjuncts)
    if (c->kind == ExprKind::kBetween) {
      found = true;
      EXPECT_EQ(c->children[0]->type, Type::varchar());
      EXPECT_EQ(c->children[1]->value, Value::varchar("MFGR#2221"));
      EXPECT_EQ(c->children[2]->value, Value::varchar("MFGR#2228"));
    }
  EXPECT_TRUE(found);
  q = cat.bind(read_file(std::string(RAYDB_SOURCE_DIR) + "/ssb/queries/q3.3.sql"));
  auto& ors = q.conjuncts[3];
  ASSERT_EQ(ors->kind, ExprKind::kOr);
  EXPECT_EQ(ors->children[0]->children[1]->value, Value::varchar("UNITED KI1"));
}

}  // namespace
}  // namespace raydb::test
