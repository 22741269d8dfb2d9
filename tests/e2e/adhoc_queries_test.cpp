// Ad-hoc queries on SSB SF 0.01 and on small hand-made CSV tables, each compared with
// SQLite on the same data (see support/sqlite_oracle.h for the comparison rules).
// ORDER BY items name output columns (alias, column, ordinal), so ties can be checked.
#include <gtest/gtest.h>

#include "support/adhoc_cases.h"
#include "support/fixtures.h"

namespace raydb::test {
namespace {

class SsbAdhoc : public ::testing::TestWithParam<Case> {};

TEST_P(SsbAdhoc, MatchesSqlite) {
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const Case& c = GetParam();
  EXPECT_TRUE(matches_sqlite(*f.db, *f.oracle, c.sql, QueryOptions{Backend::kCpu}, c.sqlite_sql));
}

INSTANTIATE_TEST_SUITE_P(Ssb, SsbAdhoc, ::testing::ValuesIn(kSsbCases),
                         [](const auto& info) { return std::string(info.param.name); });

// ---------------------------------------------------------------------------------
// Hand-made CSV tables: emp, dept, proj, empty, one (support/fixtures.cpp)

class CsvAdhoc : public ::testing::TestWithParam<Case> {};

TEST_P(CsvAdhoc, MatchesSqlite) {
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  const Case& c = GetParam();
  EXPECT_TRUE(matches_sqlite(*f.db, *f.oracle, c.sql, QueryOptions{Backend::kCpu}, c.sqlite_sql));
}

TEST(CsvTables, LoadedAsWritten) {
  // Guards against vacuous passes: every table holds what its CSV says.
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  for (const CsvTable& t : csv_tables()) {
    TablePtr table = f.db->directory().table(t.name);
    ASSERT_TRUE(table) << t.name;
    size_t lines = split_lines(t.csv).size() - 1;
    EXPECT_EQ(table->row_count(), lines) << t.name;
  }
  Rows r = f.oracle->query_raw("select name, salary, hired, pts from emp where id = 4");
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0][0].s, "Quote \"Q\" Person");
  EXPECT_DOUBLE_EQ(r.rows[0][1].d, 70000.25);
  EXPECT_EQ(r.rows[0][2].s, "2021-12-31");
}

INSTANTIATE_TEST_SUITE_P(Csv, CsvAdhoc, ::testing::ValuesIn(kCsvCases),
                         [](const auto& info) { return std::string(info.param.name); });

// gpuexpr: run-time errors (SQLite has none of these: division by zero is NULL there),
// so the CPU must fail with one line of kind kExecution; tests/gpu compares the GPU's.
class CsvErrors : public ::testing::TestWithParam<Case> {};

TEST_P(CsvErrors, FailWithOneLine) {
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  try {
    f.db->query(GetParam().sql, QueryOptions{Backend::kCpu});
    ADD_FAILURE() << "expected an error: " << GetParam().sql;
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::kExecution) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

INSTANTIATE_TEST_SUITE_P(Csv, CsvErrors, ::testing::ValuesIn(kCsvExprErrorCases),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace raydb::test
