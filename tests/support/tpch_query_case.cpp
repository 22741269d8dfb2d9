#include "support/tpch_query_case.h"

#include "common/error.h"
#include "support/tpch_fixture.h"

namespace raydb::test {

std::vector<std::string> tpch_query_names() {
  std::vector<std::string> v;
  for (int i = 1; i <= 22; i++) v.push_back("q" + std::to_string(i));
  return v;
}

void run_tpch_query_case(const std::string& sf, const std::string& name) {
  OracleFixture& f = tpch_fixture(sf, /*with_oracle=*/false);
  ASSERT_TRUE(f.db) << f.error;
  const std::string sql = read_file(source_dir() + "/tpch/queries/" + name + ".sql");
  ASSERT_FALSE(sql.empty()) << "missing query file " << name;
  // raydb first: it runs all 22 queries, so a refusal is a failure too.
  try {
    f.db->query(sql, QueryOptions{Backend::kCpu});
  } catch (const Error& e) {
    FAIL() << name << " failed in raydb: " << error_kind_name(e.kind()) << ": " << e.what();
  }
  tpch_fixture(sf);  // the SQLite copy, only for queries raydb runs
  ASSERT_TRUE(f.oracle) << f.error;
  const std::string sqlite_sql = tpch_sqlite_text(name, sql);
  EXPECT_TRUE(matches_sqlite(*f.db, *f.oracle, sql, QueryOptions{Backend::kCpu}, sqlite_sql));
}

}  // namespace raydb::test
