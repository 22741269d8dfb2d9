// Join builds kept between statements (exec/cuda/general/join_build_cache.h): a general-
// path statement whose hash join builds a whole table on a plain integer key keeps the
// build, a repeated or other statement with the same build reuses it, and every answer
// equals the CPU backend's; a filtered build is not kept; an UPDATE writes new columns,
// so the next statement builds again and answers from the new data; with the setting off
// nothing is reused. Without a CUDA device every test reports SKIPPED.
#include <gtest/gtest.h>

#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/general/join_build_cache.h"
#include "support/fixtures.h"
#include "support/result_rows.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

#define REQUIRE_GPU()                     \
  if (exec::cuda::device_count() == 0) \
  GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()

using exec::cuda::general::JoinBuildCache;

void expect_as_cpu(Database& db, const std::string& sql, const QueryOptions& o) {
  const QueryResult cpu = db.query(sql, QueryOptions{Backend::kCpu});
  const QueryResult gpu = db.query(sql, o);
  EXPECT_EQ(gpu.backend, "cuda") << sql;
  EXPECT_TRUE(same(cpu, gpu, sql));
}

// All of orders joined on o_orderkey, the filters on lineitem (TPC-H Q12's shape).
const char* kWholeOrders =
    "select o_orderpriority, count(*), sum(l_quantity) from orders, lineitem where o_orderkey = l_orderkey "
    "and l_shipmode in ('MAIL', 'SHIP') and l_receiptdate >= date '1994-01-01' group by o_orderpriority "
    "order by o_orderpriority";
// orders filtered: its build is not kept.
const char* kFilteredOrders =
    "select o_orderpriority, count(*), sum(l_quantity) from orders, lineitem where o_orderkey = l_orderkey "
    "and o_orderdate < date '1995-01-01' and l_shipmode = 'MAIL' group by o_orderpriority order by o_orderpriority";

TEST(GpuJoinCache, WholeTableBuildsAreKeptReusedAndAnswerAsTheCpu) {
  REQUIRE_GPU();
  static TempDir dir;
  const std::string p = dir.file("tpch");
  ASSERT_EQ(run_raydb("gen tpch --sf 0.01 --db " + p).exit_code, 0);
  auto db = Database::open(p);
  QueryOptions cuda;
  cuda.backend = Backend::kCuda;
  JoinBuildCache& cache = JoinBuildCache::instance();
  exec::cuda::clear_column_cache();  // drops kept builds too
  EXPECT_EQ(cache.size(), 0u);

  expect_as_cpu(*db, kWholeOrders, cuda);
  EXPECT_GE(cache.size(), 1u);
  uint64_t hits = cache.hits();
  expect_as_cpu(*db, kWholeOrders, cuda);
  EXPECT_GT(cache.hits(), hits);
  const std::string q12 = read_file(source_dir() + "/tpch/queries/q12.sql");
  hits = cache.hits();
  expect_as_cpu(*db, q12, cuda);  // the same build of orders
  EXPECT_GT(cache.hits(), hits);

  // A filtered build of orders is neither kept nor taken from the whole table's.
  const size_t kept = cache.size();
  hits = cache.hits();
  expect_as_cpu(*db, kFilteredOrders, cuda);
  expect_as_cpu(*db, kFilteredOrders, cuda);
  EXPECT_EQ(cache.size(), kept);
  EXPECT_EQ(cache.hits(), hits);

  // An UPDATE writes a new generation of every column of orders: built again from the
  // new data, then kept and reused.
  db->query("update orders set o_orderpriority = '1-URGENT' where o_orderkey % 3 = 0", QueryOptions{Backend::kCpu});
  hits = cache.hits();
  expect_as_cpu(*db, kWholeOrders, cuda);
  EXPECT_EQ(cache.hits(), hits);
  expect_as_cpu(*db, kWholeOrders, cuda);
  EXPECT_GT(cache.hits(), hits);
  // Rows deleted: fewer build rows, built again.
  db->query("delete from orders where o_orderkey % 5 = 0", QueryOptions{Backend::kCpu});
  hits = cache.hits();
  expect_as_cpu(*db, kWholeOrders, cuda);
  EXPECT_EQ(cache.hits(), hits);

  // Off: nothing reused, the same answers.
  QueryOptions off = cuda;
  off.settings.set("cuda_join_cache", "off");
  hits = cache.hits();
  expect_as_cpu(*db, kWholeOrders, off);
  expect_as_cpu(*db, q12, off);
  EXPECT_EQ(cache.hits(), hits);
}

}  // namespace
}  // namespace raydb::test
