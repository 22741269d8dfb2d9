// Malformed input never crashes and always fails with a user-facing error kind.
#include <gtest/gtest.h>

#include "sql/lexer.h"
#include "sql_test_catalog.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

// Binds `sql`; true on success. Any error must be parse/binder/not-implemented.
bool try_bind(const TestCatalog& cat, const std::string& sql) {
  try {
    cat.parse(sql);
    return true;
  } catch (const Error& e) {
    EXPECT_TRUE(e.kind() == ErrorKind::kParse || e.kind() == ErrorKind::kBinder ||
                e.kind() == ErrorKind::kNotImplemented)
        << sql << " -> " << error_kind_name(e.kind()) << ": " << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << sql << " -> foreign exception: " << e.what();
  }
  return false;
}

std::vector<std::string> corpus() {
  std::vector<std::string> out;
  for (auto q : {"q1.1", "q2.2", "q3.3", "q4.2"})
    out.push_back(read_file(std::string(RAYDB_SOURCE_DIR) + "/ssb/queries/" + q + ".sql"));
  out.push_back(
      "select distinct case when t.i > 1 then cast(d as double) else -f end as x, count(distinct t.s) "
      "from t join u on t.i = u.k where dt between '1995-01-01' and date '1996-01-01' and t.s not like 'a%' "
      "and u.s in ('a', 'b') group by 1 having sum(b) > 1e3 order by x desc limit 5 offset 1;");
  return out;
}

TEST(SqlRobustness, EveryPrefixFailsCleanly) {
  TestCatalog cat;
  for (const auto& sql : corpus()) {
    ASSERT_TRUE(try_bind(cat, sql)) << sql;
    for (size_t n = 0; n < sql.size(); n++) try_bind(cat, sql.substr(0, n));
  }
}

TEST(SqlRobustness, DroppingOrDoublingAnyTokenFailsCleanly) {
  TestCatalog cat;
  for (const auto& sql : corpus()) {
    auto tokens = sql::Lexer(sql).tokenize();
    for (size_t k = 0; k + 1 < tokens.size(); k++) {
      size_t begin = tokens[k].offset, end = begin + tokens[k].raw.size();
      try_bind(cat, sql.substr(0, begin) + sql.substr(end));                           // dropped
      try_bind(cat, sql.substr(0, end) + " " + sql.substr(begin));                      // doubled
      try_bind(cat, sql.substr(0, begin) + "(" + sql.substr(begin, end - begin) + ")" + sql.substr(end));  // wrapped
    }
  }
}

}  // namespace
}  // namespace raydb::test
