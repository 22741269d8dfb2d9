// Issue 14: a differential SQL fuzzer. The grammar (support/sql_fuzz_grammar.h)
// generates SELECTs within raydb's SQL over the hand-made CSV tables (every type,
// unicode, quotes, an empty table, one row) and over SSB at SF 0.001 (lineorder, 6,000
// rows, joined with up to three dimensions); each runs on raydb's CPU backend and on
// SQLite (support/sqlite_oracle.h) and the results are compared. Seeds are fixed, so a
// run is reproducible: 1,500 CSV and 150 SSB queries (400 and 40 under ASan).
// RAYDB_FUZZ_QUERIES, RAYDB_FUZZ_SSB_QUERIES and RAYDB_FUZZ_SEED change the counts and
// the seed (the `fuzz` CTest label runs longer ones).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "support/fixtures.h"
#include "support/sql_fuzz_grammar.h"

namespace raydb::test {
namespace {

using fuzz::Gen;

uint64_t env_or(const char* name, uint64_t dflt) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : dflt;
}

// Runs `queries` generated queries of `schema` on `f` and on SQLite; stops after 5
// mismatches. Returns how many had rows.
uint64_t fuzz_against_sqlite(OracleFixture& f, const fuzz::Schema& schema, uint64_t queries, uint64_t seed,
                             const char* what) {
  Gen gen(schema, seed);
  int mismatches = 0;
  uint64_t nonempty = 0, run = 0;
  for (; run < queries && mismatches < 5; run++) {
    const std::string sql = gen.query();
    if (run < 3) std::printf("example: %s\n", sql.c_str());
    size_t rows = 0;
    ::testing::AssertionResult r = matches_sqlite(*f.db, *f.oracle, sql, QueryOptions{Backend::kCpu}, "", &rows);
    if (!r) {
      mismatches++;
      ADD_FAILURE() << what << " query " << run << " (seed " << seed << "): " << r.message();
    } else if (rows > 0) {
      nonempty++;
    }
  }
  std::printf("%s: %llu queries fuzzed (seed %llu), %llu with rows, %d mismatches\n", what, (unsigned long long)run,
              (unsigned long long)seed, (unsigned long long)nonempty, mismatches);
  // Guards against a grammar that only makes empty results.
  EXPECT_GT(nonempty, queries / 2) << what;
  return nonempty;
}

#ifdef __SANITIZE_ADDRESS__
constexpr bool kSanitized = true;  // the sanitizer pass: a Debug build, several times slower
#else
constexpr bool kSanitized = false;
#endif

TEST(SqlFuzz, RandomQueriesMatchSqlite) {
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  fuzz_against_sqlite(f, fuzz::csv_schema(), env_or("RAYDB_FUZZ_QUERIES", kSanitized ? 400 : 1500),
                      env_or("RAYDB_FUZZ_SEED", 20261126), "csv tables");
}

TEST(SqlFuzz, SsbQueriesMatchSqlite) {
  OracleFixture& f = ssb_fixture("0.001");
  ASSERT_TRUE(f.db) << f.error;
  fuzz_against_sqlite(f, fuzz::ssb_schema(), env_or("RAYDB_FUZZ_SSB_QUERIES", kSanitized ? 40 : 150),
                      env_or("RAYDB_FUZZ_SEED", 20261126), "ssb sf 0.001");
}

}  // namespace
}  // namespace raydb::test
