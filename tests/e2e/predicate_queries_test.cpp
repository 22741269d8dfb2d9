// The 2004 paper's predicate shapes (support/predicate_cases.h) on the CPU backend,
// each compared with SQLite on the same data; and the CPU's filter compilation: each
// runs as a range predicate or a boolean program, never the generic evaluator.
#include <gtest/gtest.h>

#include "exec/cpu/table_filter.h"
#include "plan/physical/physical_planner.h"
#include "sql/sql.h"
#include "storage/persist/database_directory.h"
#include "support/fixtures.h"
#include "support/predicate_cases.h"

namespace raydb::test {
namespace {

class SsbPredicates : public ::testing::TestWithParam<Case> {};

TEST_P(SsbPredicates, MatchesSqlite) {
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  EXPECT_TRUE(matches_sqlite(*f.db, *f.oracle, GetParam().sql, QueryOptions{Backend::kCpu}, GetParam().sqlite_sql));
}

INSTANTIATE_TEST_SUITE_P(Ssb, SsbPredicates, ::testing::ValuesIn(kSsbPredicateCases),
                         [](const auto& info) { return std::string(info.param.name); });

class CsvPredicates : public ::testing::TestWithParam<Case> {};

TEST_P(CsvPredicates, MatchesSqlite) {
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  EXPECT_TRUE(matches_sqlite(*f.db, *f.oracle, GetParam().sql, QueryOptions{Backend::kCpu}, GetParam().sqlite_sql));
}

INSTANTIATE_TEST_SUITE_P(Csv, CsvPredicates, ::testing::ValuesIn(kCsvPredicateCases),
                         [](const auto& info) { return std::string(info.param.name); });

// Every table filter of every case compiles to a range predicate or a program.
template <size_t N>
size_t expect_compiled(OracleFixture& f, const Case (&cases)[N]) {
  size_t wide = 0;
  for (const Case& c : cases) {
    auto dir = DatabaseDirectory::open(f.path);
    auto stmt = sql::parse_and_bind(c.sql, [&](std::string_view n) { return dir->table(n); });
    auto q = std::make_shared<plan::LogicalQuery>(std::move(stmt.query));
    plan::PhysicalPlan p = plan::plan_query(q, {});
    size_t programs = 0;
    for (size_t t = 0; t < q->tables.size(); t++) {
      exec::cpu::TableFilter tf = exec::cpu::compile_filter(p.table_filters[t], *q);
      EXPECT_TRUE(tf.generic.empty()) << c.name << ": " << tf.generic[0]->to_string();
      programs += tf.programs.size();
      for (auto& prog : tf.programs)
        for (auto& l : prog.linears()) wide += l.wide();
    }
    std::printf("[ filters  ] %s: %zu boolean program(s)\n", c.name, programs);
  }
  return wide;
}

TEST(PredicateCompilation, NoGenericFilters) {
  OracleFixture& s = ssb_fixture("0.01");
  ASSERT_TRUE(s.db) << s.error;
  expect_compiled(s, kSsbPredicateCases);
  OracleFixture& c = csv_fixture();
  ASSERT_TRUE(c.db) << c.error;
  EXPECT_GE(expect_compiled(c, kCsvPredicateCases), 1u) << "no 128-bit semi-linear case";
}

}  // namespace
}  // namespace raydb::test
