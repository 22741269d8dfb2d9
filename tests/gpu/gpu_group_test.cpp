// GROUP BY on the CUDA general path through its device hash table (the default)
// against the CPU backend, and against the per-row sort (RAYDB_CUDA_GROUP=sort): the
// two number groups alike, so their results are equal row for row even without ORDER
// BY. Shapes aimed at a hash table: keys equal in their low bits, one group holding
// every row, every row its own group, multi-column keys with NULLs, and LIMIT without
// ORDER BY (the CPU's order when it aggregates into a direct array). Without a CUDA
// device every test reports SKIPPED.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "exec/cuda/cuda_backend.h"
#include "support/fixtures.h"
#include "support/result_rows.h"

namespace raydb::test {
namespace {

#define REQUIRE_GPU() \
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()

// The cuda_group setting's default for the queries of one scope.
class GroupMode {
 public:
  explicit GroupMode(const char* mode) { Settings::set_default("cuda_group", mode); }
  ~GroupMode() { Settings::reset_default("cuda_group"); }
};

// The CPU's rows; the CUDA rows grouped through the hash table (checked by the
// counter) equal them (row for row when `ordered`); the sort path's rows equal the
// hash path's row for row.
size_t check(Database& db, const std::string& sql, bool ordered) {
  const QueryResult cpu = db.query(sql, QueryOptions{Backend::kCpu});
  const uint64_t before = exec::cuda::hash_grouped_queries();
  const QueryResult hash = db.query(sql, QueryOptions{Backend::kCuda});
  EXPECT_EQ(hash.backend, "cuda") << sql;
  EXPECT_EQ(exec::cuda::hash_grouped_queries(), before + 1) << "not grouped through the hash table: " << sql;
  CellRows sorted;
  {
    GroupMode m("sort");
    sorted = rows_of(db.query(sql, QueryOptions{Backend::kCuda}));
  }
  EXPECT_EQ(exec::cuda::hash_grouped_queries(), before + 1) << "RAYDB_CUDA_GROUP=sort used the hash table: " << sql;
  const CellRows h = rows_of(hash);
  EXPECT_TRUE(same_rows(rows_of(cpu), h, ordered, "cpu vs cuda hash: " + sql));
  EXPECT_TRUE(same_rows(h, sorted, true, "cuda hash vs cuda sort: " + sql));
  return cpu.row_count();
}

std::unique_ptr<Database> ssb02() {
  std::string error;
  const std::string path = shared_ssb_database("0.2", error);
  if (path.empty()) ADD_FAILURE() << error;
  return path.empty() ? nullptr : Database::open(path);
}

TEST(GpuHashGroup, KeysEqualInTheirLowBits) {
  REQUIRE_GPU();
  auto db = ssb02();
  ASSERT_TRUE(db);
  // Multiples of 2^20 and of 2^32: the low bits of the key alone would put all groups
  // on a few slots; 128-bit keys differing only in the high word (low word 0 or tax).
  EXPECT_GT(check(*db, "select lo_orderkey * 1048576 as k, count(*), sum(lo_revenue) from lineorder group by 1", false),
            size_t(100000));
  check(*db,
        "select (lo_orderkey % 1000) * 4294967296 as k, count(*), min(lo_revenue), max(lo_discount) from lineorder "
        "group by 1 order by 1",
        true);
  check(*db,
        "select (lo_orderkey % 500) * 4294967296 * 4294967296 as k, count(*), sum(lo_quantity) from lineorder "
        "group by 1",
        false);
  check(*db,
        "select (lo_orderkey % 300) * 4294967296 * 4294967296 + lo_tax as k, lo_shipmode, count(*), "
        "max(lo_extendedprice * lo_extendedprice * lo_quantity) from lineorder group by 1, 2",
        false);
}

TEST(GpuHashGroup, OneGroupHoldsEveryRow) {
  REQUIRE_GPU();
  auto db = ssb02();
  ASSERT_TRUE(db);
  // Every row meets the same slot; exact DOUBLE sums over one group spanning all chunks.
  EXPECT_EQ(check(*db,
                  "select lo_orderkey * 0 as z, count(*), sum(lo_revenue), min(lo_tax), "
                  "max(lo_extendedprice * lo_extendedprice * lo_quantity), sum(cast(lo_revenue as double) / 7), "
                  "avg(cast(lo_tax as double) / 3), count(distinct lo_quantity) from lineorder group by 1",
                  false),
            size_t(1));
}

TEST(GpuHashGroup, EveryRowItsOwnGroup) {
  REQUIRE_GPU();
  auto db = ssb02();
  ASSERT_TRUE(db);
  const int64_t rows = db->query("select count(*) from lineorder", QueryOptions{Backend::kCpu}).get(0, 0).as_int();
  ASSERT_GE(rows, int64_t(1) << 20);
  // lo_linenumber is 1..7, so one key per row, at least 2^20 of them.
  EXPECT_EQ(check(*db,
                  "select lo_orderkey * 8 + lo_linenumber as k, count(*), sum(lo_revenue), "
                  "sum(cast(lo_tax as double) / 3), max(lo_discount) from lineorder group by 1",
                  false),
            size_t(rows));
}

TEST(GpuHashGroup, MultiColumnKeysWithNulls) {
  REQUIRE_GPU();
  auto db = ssb02();
  ASSERT_TRUE(db);
  // NULLs in an integer key and in a string key (a merged domain), beside a plain key.
  check(*db,
        "select case when lo_quantity > 40 then null else lo_quantity % 7 end as a, "
        "case when lo_discount > 7 then null else lo_shipmode end as b, lo_tax, count(*), sum(lo_revenue), "
        "avg(cast(lo_discount as double) / 3), count(distinct lo_suppkey) from lineorder group by 1, 2, 3 "
        "order by 1, 2, 3",
        true);
  // A DOUBLE key with -0.0 and +0.0 (one group) and NULLs, beside a nullable integer.
  check(*db,
        "select case when lo_tax > 6 then null else cast(lo_discount - 5 as double) * 0.0 end as z, "
        "case when lo_quantity < 10 then null else lo_orderkey % 3 end as m, count(*), "
        "sum(cast(lo_revenue as double) / 11) from lineorder group by 1, 2",
        false);
}

TEST(GpuHashGroup, LimitWithoutOrderByIsTheCpuOrder) {
  REQUIRE_GPU();
  auto db = ssb02();
  ASSERT_TRUE(db);
  // Keys with known ranges and no NULLs: the CPU aggregates into a direct array, so its
  // order is the keys' packed order, and LIMIT keeps those rows. Nullable aggregates
  // keep the queries off the star kernels.
  check(*db,
        "select lo_custkey, count(*), sum(case when lo_quantity > 40 then null else lo_revenue end) from lineorder "
        "group by lo_custkey limit 50 offset 100",
        true);
  check(*db,
        "select lo_shipmode, lo_tax, count(*), max(case when lo_discount > 5 then null else lo_quantity end) "
        "from lineorder group by 1, 2 limit 12",
        true);
  // Packed keys of 20,000 and 39,600 groups (ranges within the CPU's direct array):
  // their words ordered on the device (group_step.cpp device_group_order).
  check(*db,
        "select lo_suppkey, lo_quantity, count(*), sum(case when lo_tax > 4 then null else lo_revenue end) "
        "from lineorder group by 1, 2 limit 40 offset 9000",
        true);
  check(*db,
        "select lo_tax, lo_suppkey, lo_discount, count(*), min(case when lo_tax > 5 then null else lo_revenue end) "
        "from lineorder group by 1, 2, 3 limit 30 offset 20000",
        true);
}

TEST(GpuHashGroup, OrderByAnAggregateLimitKeepsOnlyCandidateGroups) {
  REQUIRE_GPU();
  auto db = ssb02();
  ASSERT_TRUE(db);
  // ORDER BY an aggregate LIMIT k over many groups: the general path turns only the
  // candidate groups' keys into values (exec/core/top_groups.h). NULL aggregates (first
  // in DESC), ties at the k-th value (counts), OFFSET, HAVING, DOUBLE averages and a
  // string key from a join, each row for row against the CPU. Group keys break the
  // ties last: rows tied on every ORDER BY item come in each backend's group order
  // (the CPU's hash table's), so LIMIT may keep different ones of them.
  const char* sqls[] = {
      "select lo_custkey, c_name, sum(case when lo_quantity > 40 then null else lo_revenue end) r "
      "from lineorder, customer where lo_custkey = c_custkey group by lo_custkey, c_name order by r desc, lo_custkey limit 10",
      "select lo_custkey, c_city, count(*) c, sum(case when lo_tax > 4 then null else lo_revenue end) "
      "from lineorder, customer where lo_custkey = c_custkey group by 1, 2 order by c desc, 1, 2 limit 7 offset 2",
      "select lo_orderkey % 50000 as k, count(*), sum(case when lo_tax > 4 then null else lo_quantity end) q "
      "from lineorder group by 1 having count(*) > 3 order by q, count(*) desc, 1 limit 5",
      "select lo_custkey, avg(cast(lo_discount as double)) a, max(case when lo_tax > 6 then null else lo_tax end) "
      "from lineorder group by lo_custkey order by a desc, lo_custkey limit 9",
      "select lo_suppkey, lo_shipmode, sum(case when lo_tax > 4 then null else lo_revenue end) s from lineorder "
      "group by 1, 2 order by s nulls first, 1, 2 limit 4",
  };
  for (const char* sql : sqls) check(*db, sql, true);
}

// ORDER BY a COUNT or an exact SUM LIMIT k: the device chooses the candidates
// (general/top_group_pick.h) and only theirs come back. Row for row against the CPU:
// NULL sums (first in DESC, so a NULLS FIRST query keeps only NULL groups; NULLS LAST),
// ties at the k-th value (counts), OFFSET, negative sums, 128-bit arguments and results,
// each counted as decided on the device; and LIMIT 0. Queries outside its shape (HAVING,
// an AVG first) stay on the host pruning, and a SUM that leaves int128 raises the CPU's
// error on both backends.
TEST(GpuHashGroup, DeviceChosenTopGroupsEqualTheCpu) {
  REQUIRE_GPU();
  auto db = ssb02();
  ASSERT_TRUE(db);
  const std::string nullable_rev = "case when lo_quantity > 40 then null else lo_revenue end";
  const std::string picked[] = {
      "select lo_orderkey, sum(" + nullable_rev + ") r from lineorder group by lo_orderkey order by r desc, 1 limit 10",
      "select lo_orderkey, sum(" + nullable_rev + ") r from lineorder group by lo_orderkey "
      "order by r desc nulls last, 1 limit 10 offset 3",
      "select lo_orderkey, sum(" + nullable_rev + ") r from lineorder group by lo_orderkey "
      "order by r nulls first, 1 limit 5000",
      "select lo_orderkey, sum(" + nullable_rev + ") r from lineorder group by lo_orderkey order by r, 1 limit 8",
      "select lo_orderkey % 50000 as k, count(*) c, sum(" + nullable_rev + ") from lineorder group by 1 "
      "order by c desc, 1 limit 7",
      "select lo_custkey, c_name, count(case when lo_tax > 4 then null else lo_tax end) c, min(lo_shipmode) "
      "from lineorder, customer where lo_custkey = c_custkey group by 1, 2 order by c, 1 limit 6 offset 1",
      "select lo_orderkey, sum(case when lo_tax > 4 then null else lo_revenue - 6000000 end) r, max(lo_discount) "
      "from lineorder group by 1 order by r, 1 limit 9",
      "select lo_orderkey % 70000 as k, sum(case when lo_tax > 6 then null else cast(lo_revenue as bigint) * "
      "100000000000 end) r from lineorder group by 1 order by r desc, 1 limit 11",
      "select lo_orderkey % 70000 as k, sum(case when lo_tax > 6 then null else lo_revenue * 4294967296 * 4294967296 "
      "end) r from lineorder group by 1 order by r desc, 1 limit 4",
  };
  for (const std::string& sql : picked) {
    const uint64_t before = exec::cuda::device_top_group_picks();
    check(*db, sql, true);
    EXPECT_EQ(exec::cuda::device_top_group_picks(), before + 2) << "not chosen on the device (hash and sort): " << sql;
  }
  check(*db, "select lo_orderkey, sum(" + nullable_rev + ") r from lineorder group by 1 order by r desc, 1 limit 0",
        true);
  const std::string host_pruned[] = {
      "select lo_orderkey, sum(" + nullable_rev + ") r from lineorder group by 1 having count(*) > 2 "
      "order by r desc, 1 limit 10",
      "select lo_orderkey, avg(" + nullable_rev + ") a from lineorder group by 1 order by a desc, 1 limit 10",
  };
  for (const std::string& sql : host_pruned) {
    const uint64_t before = exec::cuda::device_top_group_picks();
    check(*db, sql, true);
    EXPECT_EQ(exec::cuda::device_top_group_picks(), before) << sql;
  }
  // Some groups' sums leave int128: the CPU raises while finalizing; so does CUDA.
  const std::string overflow =
      "select lo_orderkey % 1000 as k, sum(case when lo_tax > 6 then null else lo_revenue * 4294967296 * 4294967296 * "
      "4294967296 * 128 end) r from lineorder group by 1 order by r desc limit 1";
  std::string cpu_error, cuda_error;
  try {
    db->query(overflow, QueryOptions{Backend::kCpu});
  } catch (const Error& e) {
    cpu_error = e.what();
  }
  try {
    db->query(overflow, QueryOptions{Backend::kCuda});
  } catch (const Error& e) {
    cuda_error = e.what();
  }
  EXPECT_NE(cpu_error, "") << "the CPU did not raise: " << overflow;
  EXPECT_EQ(cuda_error, cpu_error);
}

// Up to 1024 groups each block folds its rows into shared memory before one global add
// per group (general_kernels.cu aggregate_shared_kernel): exact 128-bit sums with
// carries across blocks and signs, MIN/MAX, COUNT of NULLable values, on both sides of
// the 1024-group boundary and without GROUP BY.
TEST(GpuHashGroup, FewGroupsFoldInSharedMemory) {
  REQUIRE_GPU();
  auto db = ssb02();
  ASSERT_TRUE(db);
  const std::string aggs =
      "count(*), count(case when lo_tax > 6 then null else lo_tax end), "
      "sum(case when lo_tax > 6 then null else (lo_revenue - 3000000) * 4294967296 * 4294967296 * 4096 end), "
      "sum(case when lo_tax > 4 then null else lo_quantity - 26 end), "
      "min(case when lo_tax > 5 then null else lo_revenue - 3000000 end), "
      "max(case when lo_discount > 5 then null else lo_extendedprice end)";
  for (const char* key : {"lo_orderkey % 7", "lo_orderkey % 1024", "lo_orderkey % 1025", "lo_shipmode"})
    check(*db, "select " + std::string(key) + " as k, " + aggs + " from lineorder group by 1 order by 1", true);
  const std::string global = "select " + aggs + " from lineorder where lo_quantity > 3";
  EXPECT_TRUE(same_rows(rows_of(db->query(global, QueryOptions{Backend::kCpu})),
                        rows_of(db->query(global, QueryOptions{Backend::kCuda})), true, global));
}

TEST(GpuHashGroup, SortAndHashGiveIdenticalResults) {
  REQUIRE_GPU();
  auto db = ssb02();
  ASSERT_TRUE(db);
  // check() compares the two row for row; these add string expression keys, DISTINCT
  // of several kinds, exact DOUBLE sums over many groups and more than 2^20 groups.
  const char* sqls[] = {
      "select case when lo_quantity < 25 then lo_shipmode else 'ZZ' end as m, lo_orderkey % 17 as r, count(*), "
      "sum(cast(lo_revenue as double) / lo_quantity), count(distinct lo_discount), min(lo_shipmode) "
      "from lineorder group by 1, 2",
      "select lo_orderkey % 100000 as k, sum(cast(lo_extendedprice as double) / 7), "
      "sum(distinct cast(lo_revenue as double) / 7), max(distinct lo_extendedprice * lo_extendedprice * lo_quantity) "
      "from lineorder group by 1",
      "select lo_orderkey, lo_linenumber, count(*), sum(case when lo_tax > 4 then null else lo_revenue end) "
      "from lineorder group by lo_orderkey, lo_linenumber",
  };
  for (const char* sql : sqls) check(*db, sql, false);
  // Anything but hash or sort is one clean line (SET checks at once).
  try {
    Connection conn(*db, QueryOptions{Backend::kCuda});
    conn.query("set cuda_group = bogus");
    ADD_FAILURE() << "cuda_group = bogus accepted";
  } catch (const Error& e) {
    const std::string w = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::kInvalidInput) << w;
    EXPECT_NE(w.find("cuda_group"), std::string::npos) << w;
    EXPECT_EQ(w.find('\n'), std::string::npos) << w;
  }
}

}  // namespace
}  // namespace raydb::test
