// Dimension arrays kept between statements (exec/cuda/dimension_cache.h): a repeated star
// query reuses its dimensions' lookup arrays (EXPLAIN ANALYZE says so) and answers as the
// CPU backend; another filter, other group keys or a changed dimension table build their
// own; a statement mixing reused and new dimensions answers as the CPU; with the setting
// off nothing is reused. Statements on several threads at once (the device lock is let go
// while a star query decodes its result on the host) answer as the CPU backend. Without a
// CUDA device every test reports SKIPPED.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "exec/cuda/cuda_backend.h"
#include "support/fixtures.h"
#include "support/result_rows.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

#define REQUIRE_GPU()                          \
  if (exec::cuda::device_count() == 0) \
  GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()

int reused(Database& db, const std::string& sql, const QueryOptions& o) {
  const std::string t = db.query("explain analyze " + sql, o).explain;
  EXPECT_NE(t.find("star kernels"), std::string::npos) << t;
  int n = 0;
  for (size_t at = t.find("(arrays reused)"); at != std::string::npos; at = t.find("(arrays reused)", at + 1)) n++;
  return n;
}

void expect_as_cpu(Database& db, const std::string& sql, const QueryOptions& o) {
  const QueryResult cpu = db.query(sql, QueryOptions{Backend::kCpu});
  const QueryResult gpu = db.query(sql, o);
  EXPECT_EQ(gpu.backend, "cuda");
  EXPECT_TRUE(same(cpu, gpu, sql));
}

std::string by_year(const char* range) {
  return std::string("select d_year, sum(lo_revenue), count(*) from lineorder, date where lo_orderdate = d_datekey "
                     "and d_year between ") +
         range + " group by d_year order by d_year";
}

TEST(GpuDimensionCache, RepeatedStatementsReuseArraysAndAnswerAsTheCpu) {
  REQUIRE_GPU();
  static TempDir dir;
  const std::string p = dir.file("ssb");
  ASSERT_EQ(run_raydb(cli::gen_ssb(p, "0.01")).exit_code, 0);
  auto db = Database::open(p);
  QueryOptions cuda;
  cuda.backend = Backend::kCuda;
  exec::cuda::clear_column_cache();  // drops kept arrays too
  const std::string q = by_year("1993 and 1996");
  EXPECT_EQ(reused(*db, q, cuda), 0);
  EXPECT_EQ(reused(*db, q, cuda), 1);
  expect_as_cpu(*db, q, cuda);
  // Another filter range on the same dimension: its own arrays.
  const std::string other = by_year("1994 and 1997");
  EXPECT_EQ(reused(*db, other, cuda), 0);
  expect_as_cpu(*db, other, cuda);
  EXPECT_EQ(reused(*db, q, cuda), 1);  // the first kept beside it

  // Two dimensions, one seen before (supplier's region, brand's group key) and one not.
  const std::string q21 = read_file(source_dir() + "/ssb/queries/q2.1.sql");
  EXPECT_EQ(reused(*db, q21, cuda), 0);
  EXPECT_EQ(reused(*db, q21, cuda), 3);
  std::string mixed = q21;
  const size_t at = mixed.find("'MFGR#12'");
  ASSERT_NE(at, std::string::npos);
  mixed.replace(at, 9, "'MFGR#13'");
  EXPECT_EQ(reused(*db, mixed, cuda), 2);  // date and supplier reused, part built
  expect_as_cpu(*db, mixed, cuda);
  expect_as_cpu(*db, q21, cuda);

  // A changed dimension table is a new generation of its columns: built again, and the
  // answer follows the new data.
  db->query("update date set d_year = 1995 where d_year = 1994", QueryOptions{Backend::kCpu});
  EXPECT_EQ(reused(*db, q, cuda), 0);
  expect_as_cpu(*db, q, cuda);

  // Off: nothing reused, the same answers.
  QueryOptions off = cuda;
  off.settings.set("cuda_dimension_cache", "off");
  EXPECT_EQ(reused(*db, q, off), 0);
  EXPECT_EQ(reused(*db, q, off), 0);
  expect_as_cpu(*db, q, off);
  exec::cuda::clear_column_cache();
}

// Four threads run the 13 SSB queries on the CUDA backend at once, three rounds each, in
// different orders: every answer equals the CPU backend's (kept arrays shared between
// them, results decoded while another statement holds the device).
TEST(GpuDimensionCache, ConcurrentStatementsAnswerAsTheCpu) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  std::vector<std::string> sqls;
  for (const char* q : {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1", "q3.2", "q3.3", "q3.4", "q4.1", "q4.2",
                        "q4.3"})
    sqls.push_back(read_file(source_dir() + "/ssb/queries/" + q + ".sql"));
  std::vector<QueryResult> want;
  for (auto& s : sqls) want.push_back(f.db->query(s, QueryOptions{Backend::kCpu}));
  std::vector<int> wrong(4, 0), errors(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++)
    threads.emplace_back([&, t] {
      QueryOptions o;
      o.backend = Backend::kCuda;
      for (int round = 0; round < 3; round++)
        for (size_t k = 0; k < sqls.size(); k++) {
          const size_t i = (k + size_t(t) * 3 + size_t(round)) % sqls.size();
          try {
            QueryResult got = f.db->query(sqls[i], o);
            if (got.backend != "cuda" || !bool(same(want[i], got, sqls[i]))) wrong[size_t(t)]++;
          } catch (const Error&) {
            errors[size_t(t)]++;
          }
        }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; t++) {
    EXPECT_EQ(wrong[size_t(t)], 0) << "thread " << t;
    EXPECT_EQ(errors[size_t(t)], 0) << "thread " << t;
  }
}

}  // namespace
}  // namespace raydb::test
