// Join builds kept between statements (exec/cuda/general/join_build_cache.h): a general-
// path statement whose hash join builds a whole table on plain integer keys keeps the
// build, a repeated statement reuses it, and every answer equals the CPU backend's; a
// filtered build is not kept; UPDATE and DELETE write new columns, so the next statement
// builds again and answers from the new data; with the setting off nothing is reused.
// Without a CUDA device every test reports SKIPPED.
#include <gtest/gtest.h>

#include "exec/cuda/cuda_backend.h"
#include "support/fixtures.h"
#include "support/result_rows.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

#define REQUIRE_GPU()                     \
  if (exec::cuda::device_count() == 0) \
  GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()


void expect_as_cpu(Database& db, const std::string& sql, const QueryOptions& o) {
  const QueryResult cpu = db.query(sql, QueryOptions{Backend::kCpu});
  const QueryResult gpu = db.query(sql, o);
  EXPECT_EQ(gpu.backend, "cuda") << sql;
  EXPECT_TRUE(same(cpu, gpu, sql));
}

// A self-join the star kernels leave to the general path: b, the build side, is all of
// lineorder on two plain integer keys.
const char* kWhole =
    "select count(*), sum(a.lo_revenue - b.lo_revenue), min(b.lo_linenumber) from lineorder a join lineorder b "
    "on a.lo_orderkey = b.lo_orderkey and a.lo_linenumber = b.lo_linenumber";
// Both sides filtered: no whole-table build to keep.
const char* kFiltered =
    "select count(*), sum(a.lo_revenue - b.lo_revenue) from lineorder a join lineorder b on a.lo_orderkey = "
    "b.lo_orderkey and a.lo_linenumber = b.lo_linenumber where a.lo_discount = 3 and b.lo_quantity < 30";

// Runs `sql` on the CUDA backend against the CPU's answer; true when the general path
// built or reused a hash join (the star kernels did not take it).
void expect_general_as_cpu(Database& db, const std::string& sql, const QueryOptions& o) {
  const uint64_t builds = exec::cuda::hash_join_builds(), hits = exec::cuda::kept_join_build_hits();
  expect_as_cpu(db, sql, o);
  EXPECT_TRUE(exec::cuda::hash_join_builds() > builds || exec::cuda::kept_join_build_hits() > hits)
      << "no general-path hash join: " << sql;
}

TEST(GpuJoinCache, WholeTableBuildsAreKeptReusedAndAnswerAsTheCpu) {
  REQUIRE_GPU();
  static TempDir dir;
  const std::string p = dir.file("ssb");
  ASSERT_EQ(run_raydb(cli::gen_ssb(p, "0.01")).exit_code, 0);
  auto db = Database::open(p);
  QueryOptions cuda;
  cuda.backend = Backend::kCuda;
  exec::cuda::clear_column_cache();  // drops kept builds too
  EXPECT_EQ(exec::cuda::kept_join_builds(), 0u);

  expect_general_as_cpu(*db, kWhole, cuda);
  EXPECT_EQ(exec::cuda::kept_join_builds(), 1u);
  uint64_t hits = exec::cuda::kept_join_build_hits(), builds = exec::cuda::hash_join_builds();
  expect_general_as_cpu(*db, kWhole, cuda);
  EXPECT_EQ(exec::cuda::kept_join_build_hits(), hits + 1);
  EXPECT_EQ(exec::cuda::hash_join_builds(), builds);  // nothing built again

  // Filtered builds are neither kept nor taken from the whole table's.
  hits = exec::cuda::kept_join_build_hits();
  expect_general_as_cpu(*db, kFiltered, cuda);
  expect_general_as_cpu(*db, kFiltered, cuda);
  EXPECT_EQ(exec::cuda::kept_join_builds(), 1u);
  EXPECT_EQ(exec::cuda::kept_join_build_hits(), hits);

  // An UPDATE writes a new generation of every column: built again from the new data,
  // then kept and reused.
  db->query("update lineorder set lo_revenue = lo_revenue + 1 where lo_orderkey % 3 = 0", QueryOptions{Backend::kCpu});
  hits = exec::cuda::kept_join_build_hits();
  expect_general_as_cpu(*db, kWhole, cuda);
  EXPECT_EQ(exec::cuda::kept_join_build_hits(), hits);
  expect_general_as_cpu(*db, kWhole, cuda);
  EXPECT_EQ(exec::cuda::kept_join_build_hits(), hits + 1);
  // Rows deleted: fewer build rows, built again.
  db->query("delete from lineorder where lo_orderkey % 5 = 0", QueryOptions{Backend::kCpu});
  hits = exec::cuda::kept_join_build_hits();
  expect_general_as_cpu(*db, kWhole, cuda);
  EXPECT_EQ(exec::cuda::kept_join_build_hits(), hits);

  // Off: nothing reused, the same answers.
  QueryOptions off = cuda;
  off.settings.set("cuda_join_cache", "off");
  hits = exec::cuda::kept_join_build_hits();
  expect_general_as_cpu(*db, kWhole, off);
  expect_general_as_cpu(*db, kWhole, off);
  EXPECT_EQ(exec::cuda::kept_join_build_hits(), hits);
}

}  // namespace
}  // namespace raydb::test
