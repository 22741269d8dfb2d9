// The general CUDA path's hash join (src/exec/cuda/general/hash_join.h) against the
// CPU backend, on shapes that stress the table: many rows per key, more than 2^20
// distinct build keys, keys equal in their low bits, NULL keys, empty build sides; and the hash join against the
// sort-based join (RAYDB_CUDA_JOIN=sort): the same rows in the same order.
// The acceptance test needs no device; the others SKIP without one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/general/general_plan.h"
#include "exec/cuda/star_plan.h"
#include "plan/physical/physical_planner.h"
#include "sql/sql.h"
#include "storage/persist/database_directory.h"
#include "support/adhoc_cases.h"
#include "support/fixtures.h"
#include "support/result_rows.h"

namespace raydb::test {
namespace {

bool have_gpu() { return exec::cuda::device_count() > 0; }

#define REQUIRE_GPU() \
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()

// The cuda_join setting's default for the queries of one scope.
class JoinSwitch {
 public:
  explicit JoinSwitch(const char* value) {
    if (value)
      Settings::set_default("cuda_join", value);
    else
      Settings::reset_default("cuda_join");
  }
  ~JoinSwitch() { Settings::reset_default("cuda_join"); }
};

// These tests count hash tables built: none is taken from the kept builds.
struct NoKeptBuilds {
  NoKeptBuilds() { Settings::set_default("cuda_join_cache", "off"); }
  ~NoKeptBuilds() { Settings::reset_default("cuda_join_cache"); }
};

// The CPU's result, then the CUDA backend's with the hash join, which must build at
// least one hash table (so the query ran on the general path's join) and equal it.
// Returns the CPU's rows.
CellRows check_hash_join(Database& db, const std::string& sql) {
  QueryResult cpu = db.query(sql, QueryOptions{Backend::kCpu});
  JoinSwitch hash(nullptr);
  NoKeptBuilds fresh;
  const uint64_t before = exec::cuda::hash_join_builds();
  try {
    QueryResult gpu = db.query(sql, QueryOptions{Backend::kCuda});
    EXPECT_EQ(gpu.backend, "cuda") << sql;
    EXPECT_GT(exec::cuda::hash_join_builds(), before) << "no hash join built: " << sql;
    EXPECT_TRUE(same_rows(rows_of(cpu), rows_of(gpu), has_order_by(sql), sql));
  } catch (const Error& e) {
    ADD_FAILURE() << sql << ": " << e.what();
  }
  return rows_of(cpu);
}

// Why the CUDA backend would not run `sql` (none: it runs it), and whether the star
// kernels take it (then it would not reach the general path's join).
// `keyed`: every join step has keys (a step without is a cross product, no hash table).
std::optional<std::string> cuda_verdict(const std::string& path, const std::string& sql, bool& star, bool& keyed) {
  auto dir = DatabaseDirectory::open(path);
  auto stmt = sql::parse_and_bind(sql, [&](std::string_view n) { return dir->table(n); });
  auto q = std::make_shared<plan::LogicalQuery>(std::move(stmt.query));
  const plan::PhysicalPlan p = plan::plan_query(q, {});
  star = std::holds_alternative<exec::cuda::StarPlan>(exec::cuda::analyze(p));
  keyed = false;
  auto g = exec::cuda::general::analyze_general(p);
  if (auto* gp = std::get_if<exec::cuda::general::GeneralPlan>(&g)) {
    keyed = !gp->joins.empty();
    for (auto& j : gp->joins) keyed &= !j.build_keys.empty();
  }
  return exec::cuda::unsupported_reason(p);
}

// SF 0.01: 60k lineorder rows.
const std::vector<std::string> kSmallJoins = {
    // Many rows per key: 50 quantities, 7 ship modes over 60k rows.
    "select a.lo_orderkey, a.lo_linenumber, b.lo_orderkey, b.lo_linenumber from lineorder a join lineorder b "
    "on a.lo_quantity = b.lo_quantity where a.lo_orderkey < 20 order by 1, 2",
    "select count(*), sum(a.lo_revenue - b.lo_revenue), min(b.lo_orderkey) from lineorder a, lineorder b "
    "where a.lo_quantity = b.lo_quantity and a.lo_discount = 3",
    "select a.lo_shipmode, count(*), sum(b.lo_quantity) from lineorder a, lineorder b "
    "where a.lo_shipmode = b.lo_shipmode and a.lo_orderkey < 100 group by 1 order by 1",
    // NULL keys from CASE on both sides (such rows never match), one and two keys.
    "select count(*), sum(a.lo_quantity + b.lo_discount) from lineorder a join lineorder b "
    "on case when a.lo_quantity > 25 then null else a.lo_orderkey end = "
    "case when b.lo_discount > 5 then null else b.lo_orderkey end",
    "select a.lo_orderkey, a.lo_linenumber, b.lo_linenumber from lineorder a join lineorder b "
    "on a.lo_orderkey = b.lo_orderkey and case when a.lo_tax > 4 then null else a.lo_shipmode end = "
    "case when b.lo_quantity < 10 then null else b.lo_shipmode end where a.lo_orderkey < 3000 order by 1, 2",
    // Every build key NULL; and builds left empty by their filters.
    "select count(*) from lineorder a join lineorder b on a.lo_orderkey = "
    "case when b.lo_quantity > 0 then null else b.lo_orderkey end",
    "select a.lo_orderkey, b.lo_linenumber from lineorder a, lineorder b where a.lo_orderkey = b.lo_orderkey "
    "and b.lo_quantity > 1000 order by 1",
    "select lo_orderkey, c_name from lineorder, customer where lo_custkey = c_custkey and c_custkey < 0 "
    "order by 1 limit 5",
};

// SF 0.2: about 1.2M lineorder rows, so each build has more than 2^20 rows.
const std::vector<std::string> kLargeJoins = {
    // All distinct (the unique-key table), two key columns.
    "select count(*), sum(a.lo_revenue - b.lo_revenue), min(b.lo_linenumber) from lineorder a join lineorder b "
    "on a.lo_orderkey = b.lo_orderkey and a.lo_linenumber = b.lo_linenumber",
    // All distinct, one expression key; non-aggregate with ORDER BY ... LIMIT.
    "select a.lo_orderkey, a.lo_linenumber, b.lo_revenue from lineorder a, lineorder b "
    "where a.lo_orderkey * 8 + a.lo_linenumber = b.lo_orderkey * 8 + b.lo_linenumber and a.lo_quantity < 3 "
    "order by b.lo_revenue desc, 1, 2 limit 100",
    // Keys equal in their low 30 bits (multiples of 2^30; INTEGER * INTEGER cannot
    // overflow, so they stay join keys), unique and with duplicates.
    "select count(*), sum(b.lo_quantity) from lineorder a join lineorder b "
    "on a.lo_orderkey * 1073741824 = b.lo_orderkey * 1073741824 "
    "and a.lo_linenumber * 1073741824 = b.lo_linenumber * 1073741824",
    "select count(*), sum(a.lo_linenumber * b.lo_linenumber) from lineorder a join lineorder b "
    "on a.lo_orderkey * 1073741824 = b.lo_orderkey * 1073741824",
};

// Without a device: the CUDA backend accepts every query above and sends it to the
// general path (so none can turn into a clean "not supported" or skip the hash join).
TEST(HashJoinAnalysis, StressQueriesRunOnTheGpu) {
  if (!exec::cuda::built()) GTEST_SKIP() << exec::cuda::no_device_reason();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  for (const auto* list : {&kSmallJoins, &kLargeJoins})
    for (const std::string& sql : *list) {
      bool star = false, keyed = false;
      auto why = cuda_verdict(f.path, sql, star, keyed);
      EXPECT_FALSE(why) << sql << ": " << *why;
      EXPECT_FALSE(star) << "taken by the star kernels: " << sql;
      EXPECT_TRUE(keyed) << "a join step without keys: " << sql;
    }
}

TEST(GpuHashJoin, DuplicatesNullKeysEmptyBuilds) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  for (const std::string& sql : kSmallJoins) check_hash_join(*f.db, sql);
  // The checks must see real work: duplicates expand, empty builds give nothing.
  EXPECT_GT(check_hash_join(*f.db, kSmallJoins[0]).size(), 10000u);
  EXPECT_EQ(check_hash_join(*f.db, kSmallJoins[6]).size(), 0u);
}

TEST(GpuHashJoin, LargeBuildsAndCollidingKeys) {
  REQUIRE_GPU();
  std::string error;
  std::string path = shared_ssb_database("0.2", error);
  ASSERT_FALSE(path.empty()) << error;
  auto db = Database::open(path);
  const int64_t rows = db->query("select count(*) from lineorder", QueryOptions{Backend::kCpu}).get(0, 0).as_int();
  ASSERT_GE(rows, int64_t(1) << 20);
  for (const std::string& sql : kLargeJoins) {
    CellRows cpu = check_hash_join(*db, sql);
    ASSERT_FALSE(cpu.empty());
  }
  // The unique joins match every row once.
  CellRows unique = check_hash_join(*db, kLargeJoins[0]);
  EXPECT_EQ(unique[0][0], "BIGINT:" + std::to_string(rows));
}

// The hash join and the sort-based join give the same rows in the same order (not
// only the same multiset) on every general-path join the tests know.
TEST(GpuHashJoin, SameAsSortBasedJoin) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  OracleFixture& csv = csv_fixture();
  ASSERT_TRUE(csv.db) << csv.error;
  std::vector<std::pair<Database*, std::string>> queries;
  for (auto& sql : kSmallJoins) queries.emplace_back(f.db.get(), sql);
  for (const Case& c : kSsbCases) queries.emplace_back(f.db.get(), c.sql);
  for (const Case& c : kCsvCases) queries.emplace_back(csv.db.get(), c.sql);
  size_t compared = 0, hashed = 0;
  for (auto& [db, sql] : queries) {
    CellRows sorted, hashed_rows;
    uint64_t builds = 0;
    try {
      JoinSwitch sort("sort");
      const uint64_t before = exec::cuda::hash_join_builds();
      sorted = rows_of(db->query(sql, QueryOptions{Backend::kCuda}));
      EXPECT_EQ(exec::cuda::hash_join_builds(), before) << "RAYDB_CUDA_JOIN=sort built a hash table: " << sql;
    } catch (const Error& e) {
      continue;  // not on the CUDA backend (gpu_backend_test checks the clean line)
    }
    {
      JoinSwitch hash(nullptr);
      const uint64_t before = exec::cuda::hash_join_builds();
      hashed_rows = rows_of(db->query(sql, QueryOptions{Backend::kCuda}));
      builds = exec::cuda::hash_join_builds() - before;
    }
    EXPECT_TRUE(same_rows(sorted, hashed_rows, true, sql));
    compared++;
    if (builds) hashed++;
  }
  EXPECT_GT(compared, 20u);
  EXPECT_GT(hashed, 10u);  // keyed joins on the general path among them
  std::printf("[ hash vs sort ] %zu queries compared, %zu with hash joins\n", compared, hashed);
}

}  // namespace
}  // namespace raydb::test

namespace raydb::test {
namespace {

// Joins to one-row-per-key builds take slots and a selection (cuda_unique_probe): the
// same rows in the same order as the count / scan / write passes, and as the CPU.
TEST(GpuHashJoin, UniqueProbeEqualsCountedPasses) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  std::vector<std::string> sqls(kSmallJoins.begin(), kSmallJoins.end());
  for (const Case& c : kSsbCases) sqls.push_back(c.sql);
  // Unique builds with probe rows that miss, NULL probe keys and two-column keys.
  sqls.push_back("select lo_orderkey, lo_linenumber, c_name from lineorder, customer where lo_custkey = c_custkey "
                 "and c_nation = 'BRAZIL' order by 1, 2");
  sqls.push_back("select a.lo_orderkey, b.lo_revenue from lineorder a join lineorder b on a.lo_orderkey = "
                 "b.lo_orderkey and a.lo_linenumber = b.lo_linenumber where b.lo_discount < 2");
  sqls.push_back("select lo_orderkey, p_name from lineorder join part on case when lo_quantity > 30 then null "
                 "else lo_partkey end = p_partkey where lo_orderkey < 2000");
  NoKeptBuilds fresh;
  size_t compared = 0;
  for (const std::string& sql : sqls) {
    CellRows on, off;
    try {
      QueryOptions o{Backend::kCuda};
      on = rows_of(f.db->query(sql, o));
      o.settings.set("cuda_unique_probe", "off");
      off = rows_of(f.db->query(sql, o));
    } catch (const Error& e) {
      continue;  // not on the CUDA backend (gpu_backend_test checks the clean line)
    }
    EXPECT_TRUE(same_rows(off, on, true, sql));
    EXPECT_TRUE(same_rows(rows_of(f.db->query(sql, QueryOptions{Backend::kCpu})), on, has_order_by(sql), sql));
    compared++;
  }
  EXPECT_GT(compared, sqls.size() / 2);
}

}  // namespace
}  // namespace raydb::test
