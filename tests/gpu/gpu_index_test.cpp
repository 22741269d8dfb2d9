// SQL indexes on the CUDA backend: index scans and index joins through the
// GPU-resident indexes (rt-gpu on OptiX, sa-gpu, hash-gpu) against the CPU backend on
// a database without indexes (the oracle), for every key type (INTEGER, BIGINT with
// negatives and extremes, DATE, DECIMAL, VARCHAR), points, IN lists, ranges, empty
// ranges, misses, heavy duplicates, joins with duplicate build keys and build
// filters; that the plan really ran the GPU index (EXPLAIN and the executor's
// counters agree), forced --backend rt, EXPLAIN's text, the cost-model choice, and
// the build report and memory accounting. Without a CUDA device every test reports
// SKIPPED; the rt-gpu cases also need OptiX.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <random>
#include <regex>

#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/gpu_index_catalog.h"
#include "raydb/raydb.h"
#include "rt/tracer.h"
#include "storage/column.h"
#include "storage/persist/database_directory.h"
#include "storage/table.h"
#include "support/result_rows.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

bool have_gpu() { return exec::cuda::device_count() > 0; }

#define REQUIRE_GPU() \
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()
#define REQUIRE_GPU_FOR(kind)                                                                   \
  REQUIRE_GPU();                                                                                \
  {                                                                                             \
    std::string why_;                                                                           \
    if (!exec::cuda::gpu_index_supported(kind, &why_)) GTEST_SKIP() << why_; /* RT: OptiX */ \
  }

// The index_paths setting's default for the queries of one scope.
class ScopedIndexPaths {
 public:
  explicit ScopedIndexPaths(const char* v) { Settings::set_default("index_paths", v); }
  ~ScopedIndexPaths() { Settings::reset_default("index_paths"); }
};

// t (60000 rows, the probe root), u (300 rows, unique keys), w (400 rows, each key 4
// times), e (no rows).
std::vector<TablePtr> make_tables() {
  std::mt19937_64 rng(11);
  auto big = [](int j) -> int64_t {
    if (j == 0) return std::numeric_limits<int64_t>::min() + 1;
    if (j == 1) return std::numeric_limits<int64_t>::max();
    if (j == 2) return std::numeric_limits<int64_t>::min() + 2;
    return int64_t(j - 150) * 30000000007LL;  // negatives; crosses 2^32 and 2^46
  };
  ColumnBuilder id("id", Type::integer()), k("k", Type::integer()), h("h", Type::integer()), b("b", Type::bigint()),
      d("d", Type::date()), m("m", Type::decimal(10, 2)), s("s", Type::varchar()), f("f", Type::float64());
  const int32_t day0 = days_from_civil(1992, 1, 1);
  for (int i = 0; i < 60000; i++) {
    id.append_int(i);
    k.append_int(int64_t(rng() % 200) - 50);
    h.append_int(i % 100 == 0 ? i % 7 : 7);  // 99% one key: heavy duplicates
    b.append_int(big(int(rng() % 300)));
    d.append_int(day0 + int32_t(rng() % 400));
    m.append_int(int64_t(rng() % 1000) * 25 - 5000);
    const int sv = int(rng() % 150);
    s.append_string((sv % 7 == 0 ? "é" : "s") + std::to_string(sv));
    f.append_double(i * 0.5);
  }
  ColumnBuilder uk("uk", Type::integer()), name("name", Type::varchar()), ub("ub", Type::bigint()),
      ud("ud", Type::date());
  for (int j = 0; j < 300; j++) {
    uk.append_int(j - 60);
    name.append_string("s" + std::to_string(j % 180));
    ub.append_int(big(j));
    ud.append_int(day0 + j);
  }
  ColumnBuilder wk("wk", Type::integer()), tag("tag", Type::varchar());
  for (int j = 0; j < 400; j++) {
    wk.append_int(j % 100);
    tag.append_string("tag" + std::to_string(j % 13));
  }
  ColumnBuilder ek("ek", Type::integer());
  return {std::make_shared<const Table>("t", std::vector<ColumnPtr>{id.finish(), k.finish(), h.finish(), b.finish(),
                                                                      d.finish(), m.finish(), s.finish(), f.finish()}),
          std::make_shared<const Table>("u", std::vector<ColumnPtr>{uk.finish(), name.finish(), ub.finish(), ud.finish()}),
          std::make_shared<const Table>("w", std::vector<ColumnPtr>{wk.finish(), tag.finish()}),
          std::make_shared<const Table>("e", std::vector<ColumnPtr>{ek.finish()})};
}

const char* const kIndexed[][2] = {{"t", "id"}, {"t", "k"},   {"t", "h"},  {"t", "b"},  {"t", "d"},  {"t", "m"}, {"t", "s"},
                                   {"u", "uk"}, {"u", "name"}, {"u", "ub"}, {"u", "ud"}, {"w", "wk"}, {"e", "ek"}};
const char* const kKinds[] = {"rt", "sorted", "hash"};

// One database without indexes (the oracle) and one per index kind, with an index of
// that kind on every column of kIndexed (named x_<table>_<column>).
struct Databases {
  TempDir dir;
  std::unique_ptr<Database> plain;
  std::map<std::string, std::unique_ptr<Database>> by_kind;
};

Databases& databases() {
  static Databases* f = [] {
    auto* x = new Databases;
    auto tables = make_tables();
    auto open = [&](const std::string& name) {
      auto d = DatabaseDirectory::open_or_create(x->dir.file(name));
      d->commit(tables, false);
      return std::make_unique<Database>(d);
    };
    x->plain = open("plain");
    for (const char* kind : kKinds) {
      auto db = open(kind);
      for (auto& [t, c] : kIndexed)
        db->query(std::string("create index x_") + t + "_" + c + " on " + t + " (" + c + ") using " + kind);
      x->by_kind[kind] = std::move(db);
    }
    return x;
  }();
  return *f;
}

plan::IndexKind plan_kind(const std::string& k) {
  return k == "rt" ? plan::IndexKind::kRt : k == "sorted" ? plan::IndexKind::kSorted : plan::IndexKind::kHash;
}
std::string gpu_method(const std::string& k) { return k == "rt" ? "rt-gpu" : k == "sorted" ? "sa-gpu" : "hash-gpu"; }

const char* const kQueries[] = {
    // points
    "select count(*), sum(id) from t where k = 5",
    "select id, k, s from t where k = -50",
    "select id from t where k = 1000",  // a miss
    "select count(*) from t where id = 59999",
    "select count(*), sum(id) from t where h = 7",  // heavy duplicates: 99% of the rows
    "select id from t where h = 3",
    "select id, b from t where b = 30000000007",
    "select id from t where b = 9223372036854775807",
    "select id from t where b = -9223372036854775807",
    "select id from t where b = -9223372036854775806",
    "select id from t where b = 12345",  // a miss between keys
    "select id, d from t where d = DATE '1992-03-01'",
    "select id, s from t where s = 's8'",
    "select id, s from t where s = 'é14'",
    "select id from t where s = 'nope'",  // not in the dictionary
    "select id, m from t where m = 12.50",
    "select id, m from t where m = -50.00",
    "select id from t where m = 12.501",  // never equal at scale 2
    // IN
    "select id, k from t where k in (1, 3, 5, 149, 7000)",
    "select id from t where k in (-1000, 7000, 151)",  // all misses
    "select id from t where s in ('s1', 's2', 'zz', 'é7')",
    "select id, d from t where d in (DATE '1992-01-01', DATE '1993-02-03', DATE '2000-01-01')",
    "select id from t where b in (0, 30000000007, -30000000007, 5, 9223372036854775807)",
    "select id from t where h in (0, 1, 2)",
    // ranges
    "select count(*), sum(id) from t where k between 10 and 12",
    "select id, k from t where k < -45",
    "select count(*) from t where k > 140",
    "select id, b from t where b > 4000000000000",
    "select count(*) from t where b between -60000000014 and 60000000014",
    "select id from t where b < -4000000000000",
    "select id, d from t where d >= DATE '1992-06-01' and d < DATE '1992-06-04'",
    "select count(*) from t where d > DATE '2001-01-01'",  // empty range
    "select id, s from t where s < 's11'",
    "select count(*) from t where s like 's1%'",
    "select id, m from t where m between 1 and 2.5",
    "select id, m from t where m < -49.5",
    "select count(*) from t where k <> 5",  // nearly everything
    "select id from t where id between 100 and 120 and k > 0",
    "select id from t where id between 30000 and 30003 and f > 15000.5",  // a DOUBLE filter on the candidates
    "select id from t where id < 10 or k = 3",                            // OR: no index predicate
    // several indexed predicates, ordering, aggregates
    "select k, count(*), sum(m) from t where k in (1, 2, 3) and d < DATE '1992-08-01' group by k order by k",
    "select id, s from t where s >= 's140' order by id limit 7",
    "select id, b from t where k = 9 order by b desc, id",
    "select distinct k from t where k between 20 and 25 order by k",
    // index joins (the build side's key column is indexed)
    "select u.name, count(*) from t join u on t.k = u.uk where t.id < 200 group by u.name",
    "select t.id, u.uk, u.name from t join u on t.k = u.uk where t.k = 7",
    "select t.id, u.uk from t join u on t.k = u.uk where t.d = DATE '1992-02-02' and u.name < 's5'",  // build filter
    "select t.id, u.name from t join u on t.s = u.name where t.id < 300",  // VARCHAR, other dictionaries
    "select count(*) from t join u on t.b = u.ub",                            // BIGINT with extremes
    "select count(*) from t join u on t.b = u.uk",                            // BIGINT probe, INTEGER build
    "select count(*) from t join u on t.k = u.ub",                            // INTEGER probe, BIGINT build
    "select count(*), sum(t.id) from t join u on t.d = u.ud where t.k = 3",  // DATE
    "select t.id, w.tag from t join w on t.k = w.wk where t.id between 10 and 60",  // duplicate build keys
    "select w.tag, count(*) from t join w on t.k = w.wk where w.tag in ('tag1', 'tag5') group by w.tag",
    "select w.tag, count(*) from t join w on t.k = w.wk join u on t.k = u.uk where t.k in (4, 5, 6) group by w.tag",
    "select count(*) from t join u on t.k = u.uk where u.uk = 1000",  // empty
    "select count(*) from t join e on t.k = e.ek",                    // empty index
    "select count(*) from t join u on t.h = u.uk",                    // heavy duplicate probes
};

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) n++;
  return n;
}

uint64_t steps(const exec::cuda::GpuIndexUse& u) { return u.scans + u.joins; }

// Runs every query on the CUDA backend of `db` with `options` and compares it with
// the CPU on the database without indexes; checks that the index steps EXPLAIN shows
// are the ones the executor ran, on GPU indexes of `method`. Returns how many queries
// took an index path.
int run_all(Database& db, const QueryOptions& options, const std::string& method) {
  Database& plain = *databases().plain;
  int with_index = 0;
  for (const char* sql : kQueries) {
    SCOPED_TRACE(sql);
    const QueryResult cpu = plain.query(sql, QueryOptions{Backend::kCpu});
    const std::string e = db.query(std::string("explain ") + sql, options).explain;
    EXPECT_NE(e.find("backend: cuda"), std::string::npos) << e;
    const size_t paths = count_of(e, "index scan") + count_of(e, "index join");
    EXPECT_EQ(count_of(e, "(" + method), paths) << e;  // every index path names the GPU method
    const exec::cuda::GpuIndexUse before = exec::cuda::gpu_index_use();
    const QueryResult gpu = db.query(sql, options);
    const exec::cuda::GpuIndexUse after = exec::cuda::gpu_index_use();
    EXPECT_EQ(gpu.backend, "cuda");
    EXPECT_TRUE(same(cpu, gpu, sql));
    EXPECT_EQ(steps(after) - steps(before), paths) << e;
    with_index += paths > 0;
  }
  return with_index;
}

class GpuIndexKinds : public ::testing::TestWithParam<const char*> {};

// Every index path that applies is taken (RAYDB_INDEX_PATHS=force): the GPU index
// paths of this kind must give the CPU's results without indexes.
TEST_P(GpuIndexKinds, ForcedIndexPathsEqualCpuWithoutIndexes) {
  const std::string kind = GetParam();
  REQUIRE_GPU_FOR(plan_kind(kind));
  ScopedIndexPaths force("force");
  const int n = run_all(*databases().by_kind.at(kind), QueryOptions{Backend::kCuda}, gpu_method(kind));
  // Hash indexes answer points and small ranges only; the others every range.
  const int total = int(std::size(kQueries));
  EXPECT_GE(n, kind == "hash" ? total * 2 / 3 : total - 8) << n << " of " << total << " queries used an index";
}

// The cost model decides (as `auto` and `cuda` do): results still equal, and every
// index path it took is cheaper than the path it replaced by its own estimates.
TEST_P(GpuIndexKinds, CostModelChoiceEqualsCpuAndIsConsistent) {
  const std::string kind = GetParam();
  REQUIRE_GPU_FOR(plan_kind(kind));
  ScopedIndexPaths cost("cost");
  Database& db = *databases().by_kind.at(kind);
  run_all(db, QueryOptions{Backend::kCuda}, gpu_method(kind));
  const std::regex cost_re(R"(cost ([0-9.]+) ms vs (scan|hash join) ([0-9.]+) ms)");
  for (const char* sql : kQueries) {
    const std::string e = db.query(std::string("explain ") + sql, QueryOptions{Backend::kAuto}).explain;
    for (std::sregex_iterator it(e.begin(), e.end(), cost_re), end; it != end; ++it)
      EXPECT_LE(std::stod((*it)[1]), std::stod((*it)[3])) << sql << "\n" << e;
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, GpuIndexKinds, ::testing::ValuesIn(kKinds),
                         [](const auto& info) { return std::string(info.param); });

// --backend rt on a machine with CUDA and OptiX: the CUDA backend with rt-gpu on every
// path an RT index serves, whatever the cost model says.
TEST(GpuIndexRt, ForcedRtRunsRtGpuOnTheCudaBackend) {
  REQUIRE_GPU_FOR(plan::IndexKind::kRt);
  ScopedIndexPaths cost("cost");
  Database& db = *databases().by_kind.at("rt");
  const int n = run_all(db, QueryOptions{Backend::kRt}, "rt-gpu");
  EXPECT_GE(n, int(std::size(kQueries)) - 8);
  const std::string e = db.query("explain select count(*) from t where k = 5", QueryOptions{Backend::kRt}).explain;
  EXPECT_NE(e.find("backend: cuda"), std::string::npos) << e;
  EXPECT_NE(e.find("index scan t via x_t_k (rt-gpu:cg16384, point; "), std::string::npos) << e;
}

TEST(GpuIndexExplain, NamesDeviceKindAndBothCosts) {
  REQUIRE_GPU();
  ScopedIndexPaths force("force");
  struct Case {
    const char* kind;
    const char* sql;
    const char* line;
  };
  const Case cases[] = {
      {"hash", "select count(*) from t where k = 5", "index scan t via x_t_k (hash-gpu, point; "},
      {"hash", "select count(*) from t where k in (1, 2)", "index scan t via x_t_k (hash-gpu, in; "},
      {"sorted", "select count(*) from t where id between 5 and 9", "index scan t via x_t_id (sa-gpu, range; 5 of 60000 rows; cost "},
      {"sorted", "select count(*) from t join u on t.k = u.uk where t.id = 5", "index join u via x_u_uk (sa-gpu; "},
      {"rt", "select count(*) from t where d = DATE '1992-01-05'", "index scan t via x_t_d (rt-gpu:cg16384, point; "},
      {"rt", "select count(*) from t join w on t.k = w.wk where t.id = 5", "index join w via x_w_wk (rt-gpu:cg16384; "},
  };
  for (const Case& c : cases) {
    std::string why;
    if (!exec::cuda::gpu_index_supported(plan_kind(c.kind), &why)) {
      std::printf("[ skipped ] %s: %s\n", c.sql, why.c_str());
      continue;
    }
    const std::string e = databases().by_kind.at(c.kind)->query(std::string("explain ") + c.sql, QueryOptions{Backend::kCuda}).explain;
    EXPECT_NE(e.find("backend: cuda"), std::string::npos) << e;
    EXPECT_NE(e.find(c.line), std::string::npos) << c.sql << "\n" << e;
    EXPECT_TRUE(std::regex_search(e, std::regex(R"(cost [0-9.]+ ms vs (scan|hash join) [0-9.]+ ms)"))) << e;
  }
  // Without indexes taken (RAYDB_INDEX_PATHS=off) the plan is the plain one.
  ScopedIndexPaths off("off");
  const std::string e = databases().by_kind.at("sorted")->query("explain select count(*) from t where id = 5",
                                                                 QueryOptions{Backend::kCuda}).explain;
  EXPECT_EQ(e.find("index "), std::string::npos) << e;
}

// The executor's counters: one step per index scan or join, one lookup per point, IN
// item, range or probe row.
TEST(GpuIndexUse, CountsStepsAndLookups) {
  REQUIRE_GPU_FOR(plan::IndexKind::kSorted);
  ScopedIndexPaths force("force");
  Database& db = *databases().by_kind.at("sorted");
  auto delta = [&](const char* sql) {
    const exec::cuda::GpuIndexUse a = exec::cuda::gpu_index_use();
    db.query(sql, QueryOptions{Backend::kCuda});
    const exec::cuda::GpuIndexUse b = exec::cuda::gpu_index_use();
    return exec::cuda::GpuIndexUse{b.scans - a.scans, b.joins - a.joins, b.lookups - a.lookups};
  };
  exec::cuda::GpuIndexUse d = delta("select count(*) from t where k in (1, 5, 9, 9)");
  EXPECT_EQ(d.scans, 1u);
  EXPECT_EQ(d.joins, 0u);
  EXPECT_EQ(d.lookups, 3u);
  // A range on t.id (10 rows, 1 lookup), then one probe per row into u.
  d = delta("select count(*) from t join u on t.k = u.uk where t.id between 0 and 9");
  EXPECT_EQ(d.scans, 1u);
  EXPECT_EQ(d.joins, 1u);
  EXPECT_EQ(d.lookups, 11u);
  ScopedIndexPaths off("off");
  d = delta("select count(*) from t where k in (1, 2, 3)");
  EXPECT_EQ(d.scans + d.joins + d.lookups, 0u);
}

// A GPU index is built once per process (the report on stderr), lives in the
// accounted memory pool, and is built again after clear_gpu_indexes().
TEST(GpuIndexCatalog, BuiltOnceReportedAndAccounted) {
  REQUIRE_GPU();
  ScopedIndexPaths force("force");
  Database& db = *databases().by_kind.at("sorted");
  const std::string sql = "explain select count(*) from t where b = 30000000007";
  db.query(sql, QueryOptions{Backend::kCuda});  // built (if not yet)
  exec::cuda::clear_gpu_indexes();
  const uint64_t before = exec::cuda::memory_stats().in_use;
  ::testing::internal::CaptureStderr();
  db.query(sql, QueryOptions{Backend::kCuda});
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("index x_t_b: built 60000 keys on the GPU (sa-gpu) in "), std::string::npos) << err;
  EXPECT_NE(err.find("MiB resident"), std::string::npos) << err;
  // Sorted keys (8 bytes), row ids (4) and the unit tables of the duplicates.
  EXPECT_GE(exec::cuda::memory_stats().in_use, before + 60000 * 12) << err;
  ::testing::internal::CaptureStderr();
  db.query(sql, QueryOptions{Backend::kCuda});
  err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.find("built"), std::string::npos) << err;  // kept
  exec::cuda::clear_gpu_indexes();
  EXPECT_LT(exec::cuda::memory_stats().in_use, before + 60000 * 12);
}

}  // namespace
}  // namespace raydb::test
