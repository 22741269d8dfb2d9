// The star fact kernel's few-groups mode (mode 5, setting cuda_few_groups: GROUP BY
// results of at most 8 group ids reduced per warp instead of a shared atomic per row)
// against the CPU backend and against the same kernel's mode 1 (cuda_few_groups=0), on
// a table built for it: 128-bit sums of BIGINTs near +-2^62 whose totals carry across
// 2^64 (negative in some groups), MIN/MAX, COUNT, AVG, Q1's decimal products, filters
// that empty a group, COUNT-only groupings, group ids from dimension probes and from
// two fact keys with an unused combination, 1 to 9 and 15 group ids around the limits,
// the tile layouts, the interpreter, boolean filters inside the kernel, packed
// columns, NULLable inputs and empty inputs. Each query that should run in mode 5 must
// have (the counter few_group_fact_passes grew). The queries' star plans are checked
// without a device (CudaAnalysis); without one the rest reports SKIPPED.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/star_plan.h"
#include "plan/physical/physical_planner.h"
#include "raydb/raydb.h"
#include "sql/sql.h"
#include "storage/column.h"
#include "storage/persist/database_directory.h"
#include "storage/table.h"
#include "support/result_rows.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

#define REQUIRE_GPU() \
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()

constexpr int kRows = 100003;  // not a multiple of the kernel's 4096-row tile: a partial last tile

// f: the fact table; dm: 50 dimension rows (3 categories); e: no rows.
std::vector<TablePtr> make_tables() {
  std::mt19937_64 rng(5);
  std::vector<ColumnBuilder> g;
  for (int n = 1; n <= 9; n++) g.emplace_back("g" + std::to_string(n), Type::integer());
  ColumnBuilder a3("a3", Type::integer()), b2("b2", Type::integer()), k("k", Type::integer()),
      big("big", Type::bigint()), x("x", Type::integer()), d("d", Type::decimal(12, 2)),
      disc("disc", Type::decimal(4, 2)), nv("nv", Type::integer(), true), nn("nn", Type::integer(), true);
  for (int i = 0; i < kRows; i++) {
    int64_t g9 = 0;
    for (int n = 1; n <= 9; n++) {
      const int64_t v = int64_t(rng() % uint64_t(n));
      g[size_t(n - 1)].append_int(v);
      if (n == 9) g9 = v;
    }
    const int64_t a = int64_t(rng() % 3);
    a3.append_int(a);
    b2.append_int(a == 2 ? 0 : int64_t(rng() % 2));  // (2, 1) never occurs: 6 group ids, 5 used
    k.append_int(int64_t(rng() % 50));
    // |big| just under 2^62: every few rows carry a group's low word across 2^64.
    // Mostly negative in odd g9 groups, mostly positive in even ones.
    const bool negative = (rng() % 4 == 0) != (g9 % 2 == 1);
    const int64_t m = (int64_t(1) << 62) - int64_t(rng() % 1000);
    big.append_int(negative ? -m : m);
    x.append_int(int64_t(rng() % 1001) * 2 - 1000);  // even, -1000..1000
    d.append_int(int64_t(rng() % 10000000));
    disc.append_int(int64_t(rng() % 11));
    if (i % 7 == 3) nv.append_null();
    else nv.append_int(int64_t(rng() % 2001) - 1000);
    nn.append_int(int64_t(rng() % 2001) - 1000);
  }
  std::vector<ColumnPtr> fcols;
  for (auto& c : g) fcols.push_back(c.finish());
  for (auto* c : {&a3, &b2, &k, &big, &x, &d, &disc, &nv, &nn}) fcols.push_back(c->finish());
  ColumnBuilder dk("k", Type::integer()), cat("cat", Type::varchar()), w("w", Type::integer());
  for (int j = 0; j < 50; j++) {
    dk.append_int(j);
    cat.append_string("c" + std::to_string(j % 3));
    w.append_int(j);
  }
  ColumnBuilder eg("g", Type::integer()), ev("v", Type::bigint());
  return {std::make_shared<const Table>("f", std::move(fcols)),
          std::make_shared<const Table>("dm", std::vector<ColumnPtr>{dk.finish(), cat.finish(), w.finish()}),
          std::make_shared<const Table>("e", std::vector<ColumnPtr>{eg.finish(), ev.finish()})};
}

struct Fixture {
  TempDir dir;
  std::shared_ptr<DatabaseDirectory> files;
  std::unique_ptr<Database> db;
};

Fixture& fixture() {
  static Fixture* f = [] {
    auto* x = new Fixture;
    x->files = DatabaseDirectory::open_or_create(x->dir.file("few"));
    x->files->commit(make_tables(), false);
    x->db = std::make_unique<Database>(x->files);
    return x;
  }();
  return *f;
}

// At most 8 device aggregates (an AVG is a SUM beside the count).
const std::string kAggs = "count(*), sum(big), sum(x), min(x), max(big), avg(d), sum(d * (1 - disc))";

// Grouped by gN: N group ids.
std::string by_groups(int n) {
  const std::string g = "g" + std::to_string(n);
  return "select " + g + ", " + kAggs + " from f group by " + g + " order by 1";
}

// Queries of at most 8 group ids that run on the star kernels (mode 5 by default).
std::vector<std::string> few_group_queries() {
  std::vector<std::string> q;
  for (int n = 1; n <= 8; n++) q.push_back(by_groups(n));
  q.push_back("select g4, count(*), sum(big), max(x) from f where g4 <> 2 and x > -500 group by g4 order by 1");
  q.push_back("select a3, b2, sum(d), sum(d * (1 - disc) * (1 + disc)), avg(d), avg(disc), count(*), min(big) "
              "from f where x <= 600 group by a3, b2 order by 1, 2");
  q.push_back("select dm.cat, count(*), sum(f.big), min(f.x), max(f.big) from f, dm where f.k = dm.k and dm.w < 40 "
              "group by dm.cat order by 1");
  q.push_back("select g4, sum(nn), max(nn), min(nn) from f group by g4 order by 1");  // NULLable, no NULLs
  q.push_back("select g6, count(*), sum(big), min(big) from f where x > 500 or big < 0 group by g6 order by 1");
  q.push_back("select g3, sum(big), count(*) from f where big > 0 and x < 0 group by g3 order by 1");  // one sign
  q.push_back("select g7, count(*) from f where x < 100 group by g7 order by 1");  // counts only: no row lists
  q.push_back("select a3, b2, count(*), count(x) from f group by a3, b2 order by 1, 2");
  return q;
}

// The plan of `sql` is a star plan (what the counter checks below rely on).
TEST(CudaAnalysis, FewGroupQueriesAreStarPlans) {
  Fixture& f = fixture();
  std::vector<std::string> sqls = few_group_queries();
  sqls.push_back(by_groups(9));
  sqls.push_back("select g5, a3, " + kAggs + " from f group by g5, a3 order by 1, 2");
  for (const std::string& sql : sqls) {
    auto stmt = sql::parse_and_bind(sql, [&](std::string_view n) { return f.files->table(n); }, {}, nullptr);
    plan::PhysicalPlan p = plan::plan_query(std::make_shared<plan::LogicalQuery>(stmt.query), {});
    auto analysed = exec::cuda::analyze(p);
    EXPECT_TRUE(std::holds_alternative<exec::cuda::StarPlan>(analysed))
        << sql << ": " << std::get<std::string>(analysed);
  }
}

// `sql` on the CUDA backend with `settings`: equal to the CPU's rows, and whether its
// fact pass ran in mode 5.
using SettingList = std::vector<std::pair<std::string, std::string>>;
bool few_groups_ran(Database& db, const std::string& sql, const SettingList& settings, const QueryResult& cpu) {
  QueryOptions o{Backend::kCuda};
  std::string what = sql;
  for (const auto& [key, value] : settings) {
    o.settings.set(key, value);
    what += " [" + key + "=" + value + "]";
  }
  const uint64_t before = exec::cuda::few_group_fact_passes();
  QueryResult gpu = db.query(sql, o);
  EXPECT_EQ(gpu.backend, "cuda") << what;
  EXPECT_TRUE(same(cpu, gpu, what));
  return exec::cuda::few_group_fact_passes() > before;
}

TEST(GpuFewGroups, ModeFiveEqualsCpuAndModeOne) {
  REQUIRE_GPU();
  Database& db = *fixture().db;
  const std::vector<SettingList> variants = {
      {},
      {{"cuda_layout", "striped"}},
      {{"cuda_rowshape", "off"}},           // every aggregate through the interpreter
      {{"cuda_filter_passes", "off"}},      // boolean filters inside the kernel (its EXT instantiation)
      {{"cuda_compression", "on"}},         // packed columns
      {{"cuda_few_groups", "8"}, {"cuda_smem_lookup", "off"}},
  };
  int nonempty = 0;
  for (const std::string& sql : few_group_queries()) {
    const QueryResult cpu = db.query(sql, QueryOptions{Backend::kCpu});
    nonempty += cpu.row_count() > 0 ? 1 : 0;
    for (const auto& v : variants) EXPECT_TRUE(few_groups_ran(db, sql, v, cpu)) << "not in mode 5: " << sql;
    EXPECT_FALSE(few_groups_ran(db, sql, {{"cuda_few_groups", "0"}}, cpu)) << "mode 5 with the setting off: " << sql;
  }
  EXPECT_EQ(nonempty, int(few_group_queries().size())) << "every query selects rows";
}

// 1..8 group ids take mode 5, 9 mode 1 unless the setting raises the limit (up to
// 15); the setting lowers it too.
TEST(GpuFewGroups, ThresholdSwitchesModes) {
  REQUIRE_GPU();
  Database& db = *fixture().db;
  for (int n = 1; n <= 9; n++) {
    const std::string sql = by_groups(n);
    const QueryResult cpu = db.query(sql, QueryOptions{Backend::kCpu});
    EXPECT_EQ(cpu.row_count(), size_t(n)) << sql;
    EXPECT_EQ(few_groups_ran(db, sql, {}, cpu), n <= 8) << sql;
    EXPECT_TRUE(few_groups_ran(db, sql, {{"cuda_few_groups", "9"}}, cpu)) << sql;
    EXPECT_EQ(few_groups_ran(db, sql, {{"cuda_few_groups", "4"}}, cpu), n <= 4) << sql;
  }
  // 15 group ids (g5 x a3), the most the mode keeps (nibbles, 15 marking no group).
  const std::string sql = "select g5, a3, " + kAggs + " from f group by g5, a3 order by 1, 2";
  const QueryResult cpu = db.query(sql, QueryOptions{Backend::kCpu});
  EXPECT_EQ(cpu.row_count(), size_t(15)) << sql;
  EXPECT_FALSE(few_groups_ran(db, sql, {}, cpu)) << sql;
  EXPECT_TRUE(few_groups_ran(db, sql, {{"cuda_few_groups", "15"}}, cpu)) << sql;
  EXPECT_FALSE(few_groups_ran(db, sql, {{"cuda_few_groups", "14"}}, cpu)) << sql;
}

// The data make the 128-bit path carry: some group's sum(big) exceeds 2^64 and some
// other's is below -2^64 (checked on the CPU, no device needed).
TEST(CudaAnalysis, FewGroupSumsCrossTwoTo64) {
  Database& db = *fixture().db;
  const QueryResult cpu = db.query("select g9, sum(big) from f group by g9 order by 1", QueryOptions{Backend::kCpu});
  const __int128 two64 = __int128(1) << 64;
  int pos = 0, neg = 0;
  for (size_t r = 0; r < cpu.row_count(); r++) {
    const __int128 s = cpu.get(r, 1).as_hugeint();
    pos += s > two64 ? 1 : 0;
    neg += s < -two64 ? 1 : 0;
  }
  EXPECT_GT(pos, 0);
  EXPECT_GT(neg, 0);
}

TEST(GpuFewGroups, SumsCarryAcross64Bits) {
  REQUIRE_GPU();
  Database& db = *fixture().db;
  const std::string sql = "select g9, sum(big), min(big), max(big), count(*) from f group by g9 order by 1";
  const QueryResult cpu = db.query(sql, QueryOptions{Backend::kCpu});
  EXPECT_TRUE(few_groups_ran(db, sql, {{"cuda_few_groups", "9"}}, cpu));
}

// NULLable inputs with NULLs (the star plan refuses them, as for mode 1), an empty
// table and a filter no row passes: the CPU's rows either way.
TEST(GpuFewGroups, NullsAndEmptyInputsEqualCpu) {
  REQUIRE_GPU();
  Database& db = *fixture().db;
  for (const char* sql : {"select g4, count(*), sum(nv), min(nv), max(nv), count(nv) from f group by g4 order by 1",
                          "select g, count(*), sum(v) from e group by g",
                          "select g8, count(*), sum(big), min(x) from f where x = 3 group by g8"}) {
    const QueryResult cpu = db.query(sql, QueryOptions{Backend::kCpu});
    QueryResult gpu = db.query(sql, QueryOptions{Backend::kCuda});
    EXPECT_TRUE(same(cpu, gpu, sql));
  }
}

// EXPLAIN ANALYZE names the fact kernel's mode.
TEST(GpuFewGroups, ExplainAnalyzeNamesTheMode) {
  REQUIRE_GPU();
  Database& db = *fixture().db;
  const std::string sql = "explain analyze select a3, b2, sum(d), count(*) from f group by a3, b2";
  EXPECT_NE(db.query(sql, QueryOptions{Backend::kCuda}).explain.find("(mode 5, 6 groups)"), std::string::npos);
  QueryOptions off{Backend::kCuda};
  off.settings.set("cuda_few_groups", "0");
  EXPECT_NE(db.query(sql, off).explain.find("(mode 1, 6 groups)"), std::string::npos);
}

}  // namespace
}  // namespace raydb::test
