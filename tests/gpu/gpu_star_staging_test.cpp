// Star predicate bitmaps filled straight into the upload staging (exec/cuda/
// star_fact_pass.cpp, upload_filled): key sets over wide BIGINT keys whose bitmaps take
// each way there -- the small pinned area (under 256 KB), a host buffer (256 KB to 1 MB,
// more than that area holds), the large pinned area (1 MB and more), and two sets in one
// query (the second past the small area's room) -- for IN and NOT IN, with a NULL in
// the subquery, an empty set and one group; the CUDA backend against the CPU backend.
// The analysis (no device needed) checks that the blocks testing the sets are admitted
// on the star kernels, so the comparisons reach those ways.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "exec/cpu/cpu_backend.h"
#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/cuda_device.h"
#include "exec/core/key_set_window.h"
#include "exec/cuda/cuda_plan_analysis.h"
#include "exec/cuda/fact_set.h"
#include "exec/cuda/key_set_fact_set.h"
#include "exec/index/index_catalog.h"
#include "exec/query_driver.h"
#include "plan/physical/physical_planner.h"
#include "raydb/raydb.h"
#include "sql/query_runner.h"
#include "sql/sql.h"
#include "sql/temp_table.h"
#include "storage/persist/database_directory.h"
#include "support/result_rows.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

constexpr int kRows = 300000;

// f(k, j, g, v): k = 131 i + i % 7 (distinct, spanning 39 M), j a permutation of i
// times 97 (spanning 29 M), g = i % 5, v = i % 1000; s(k, j, tag) the same keys with
// tag = i % 10, so `tag < t` picks keys spread over the whole span.
struct StagingDb {
  TempDir tmp;
  std::string path;
  std::unique_ptr<Database> db;
  std::string error;
  StagingDb() : path(tmp.file("db")) {
    try {
      const std::string csv = tmp.file("f.csv");
      {
        std::ofstream out(csv);
        out << "k,j,g,v\n";
        for (int64_t i = 0; i < kRows; i++)
          out << i * 131 + i % 7 << ',' << (i * 7919) % kRows * 97 << ',' << i % 5 << ',' << i % 1000 << '\n';
      }
      db = Database::open_or_create(path);
      Connection c(*db, QueryOptions{Backend::kCpu});
      c.query("CREATE TABLE f (k BIGINT, j BIGINT, g INTEGER, v INTEGER)");
      c.query("COPY f FROM '" + csv + "' (HEADER, DELIMITER ',')");
      c.query("CREATE TABLE s AS SELECT k, j, v % 10 AS tag FROM f");
    } catch (const Error& e) {
      error = e.what();
      db.reset();
    }
  }
};

StagingDb& staging_db() {
  static StagingDb db;
  return db;
}

// Bitmap sizes from key_set_bitmap_pays / bitmap_pays: spans over 2^20 values take a
// bitmap only with at most 512 bits per run.
const std::vector<std::string>& key_set_queries() {
  static const std::vector<std::string> queries = {
      // small pinned area: ~760 keys under 1 M (125 KB)
      "SELECT g, count(*), sum(v) FROM f WHERE k IN (SELECT k FROM s WHERE tag = 1 AND k < 1000000) GROUP BY g "
      "ORDER BY g",
      // a host buffer: ~23,000 keys under 6 M (750 KB)
      "SELECT g, count(*), sum(v) FROM f WHERE k IN (SELECT k FROM s WHERE tag < 5 AND k < 6000000) GROUP BY g "
      "ORDER BY g",
      // the large pinned area: 150,000 keys over 39 M (4.9 MB), IN and NOT IN
      "SELECT g, count(*), sum(v) FROM f WHERE k IN (SELECT k FROM s WHERE tag < 5) GROUP BY g ORDER BY g",
      "SELECT g, count(*), sum(v) FROM f WHERE k NOT IN (SELECT k FROM s WHERE tag < 5) GROUP BY g ORDER BY g",
      // two sets (187 KB and 200 KB): the second no longer fits the small area
      "SELECT g, count(*), sum(v) FROM f WHERE k IN (SELECT k FROM s WHERE tag < 5 AND k < 1500000) AND j IN "
      "(SELECT j FROM s WHERE tag < 8 AND j < 1600000) GROUP BY g ORDER BY g",
      // one group
      "SELECT count(*), sum(v), min(k), max(k) FROM f WHERE k IN (SELECT k FROM s WHERE tag < 5 AND k < 6000000)",
  };
  return queries;
}

// A long range set (not a key set) as a bitmap: ten ranges of j within 2^20 values.
const char* const kRangeSetQuery =
    "SELECT g, count(*), sum(v) FROM f WHERE j BETWEEN 0 AND 48500 OR j BETWEEN 97000 AND 145500 OR "
    "j BETWEEN 194000 AND 242500 OR j BETWEEN 291000 AND 339500 OR j BETWEEN 388000 AND 436500 OR "
    "j BETWEEN 485000 AND 533500 OR j BETWEEN 582000 AND 630500 OR j BETWEEN 679000 AND 727500 OR "
    "j BETWEEN 776000 AND 824500 OR j BETWEEN 873000 AND 921500 GROUP BY g ORDER BY g";

// Runs each subquery block on the CPU (the outer block binds its rows as a key set).
class CpuBlocks : public sql::QueryRunner {
 public:
  CpuBlocks() : cpu_({std::make_shared<exec::CpuBackend>(std::make_shared<exec::IndexCatalog>())}) {}
  sql::TempTable materialize(plan::LogicalQuery q, const std::string& name, const std::string& what) override {
    std::vector<Type> types;
    for (auto& e : q.select) types.push_back(e->type);
    const std::vector<std::string> names = q.output_names;
    plan::PhysicalPlan p = plan::plan_query(std::make_shared<plan::LogicalQuery>(std::move(q)), {});
    exec::ExecutionRequest request;
    request.backend = plan::BackendKind::kCpu;
    exec::ResultTable t = cpu_.run(p, request, {}, exec::ExecOptions{});
    sql::TempTableBuilder b(name, names, types, what);
    for (size_t row = 0; row < t.rows; row++)
      for (size_t c = 0; c < t.columns.size(); c++) b.append(c, t.columns[c].value_at(row));
    return b.finish();
  }
  TablePtr table_function(const std::string& name, const std::vector<std::string>&) override {
    ADD_FAILURE() << "no table function expected: " << name;
    return nullptr;
  }

 private:
  exec::QueryDriver cpu_;
};

// The outer block of a query as the CUDA backend admits it.
struct OuterBlock {
  bool key_set = false;  // a conjunct tests a key set
  std::string path;      // star kernels, general path (and why not the star kernels), refused
  std::vector<uint64_t> bitmap_bytes;  // per root key-set filter that takes a bitmap
  size_t range_bitmaps = 0;            // root range filters whose ranges take a bitmap
};

OuterBlock outer_block(const std::string& sql) {
  auto dir = DatabaseDirectory::open(staging_db().path);
  CpuBlocks runner;
  sql::BoundStatement stmt = sql::parse_and_bind(
      sql, [&](std::string_view n) { return dir->table(n); }, {}, &runner);
  OuterBlock out;
  for (auto& e : stmt.query.conjuncts)
    out.key_set = out.key_set || e->kind == plan::ExprKind::kInKeySet ||
                  (e->kind == plan::ExprKind::kNot && e->children[0]->kind == plan::ExprKind::kInKeySet);
  plan::PhysicalPlan p = plan::plan_query(std::make_shared<plan::LogicalQuery>(std::move(stmt.query)), {});
  if (auto refusal = exec::cuda::CudaBackend().admit(p, Settings{})) {
    out.path = "refused: " + refusal->reason;
    return out;
  }
  auto a = exec::cuda::analysis_of(p);
  out.path = a->describe();
  if (!a->star) {
    out.path += " (star kernels: " + a->star_refusal + ")";
    return out;
  }
  for (const exec::cuda::StarFilter& f : a->star->fact_filters) {
    if (!f.key_set && f.ranges.size() > size_t(exec::cuda::kMaxPredRanges)) {
      exec::cuda::StoredRanges sr;  // the column's stored form is value - min (offsets)
      const int64_t base = f.column->stats().min;
      for (auto [lo, hi] : f.ranges) sr.emplace_back(uint64_t(lo - base), uint64_t(hi - base));
      out.range_bitmaps += exec::cuda::bitmap_shape(sr).has_value();
    }
    if (!f.key_set) continue;
    const ColumnStats& st = f.column->stats();
    const exec::KeySetWindow w(*f.key_set, f.negated, st.min, st.max);
    if (!w.empty() && exec::cuda::key_set_bitmap_pays(w))
      out.bitmap_bytes.push_back(exec::cuda::key_set_bitmap_shape(w, st.min).words * 4);
  }
  return out;
}

TEST(CudaAnalysis, StagingKeySetBlocksOnTheStarKernels) {
  ASSERT_TRUE(staging_db().db) << staging_db().error;
  constexpr uint64_t kSmallArea = uint64_t(256) << 10, kLarge = uint64_t(1) << 20;  // star_fact_pass.cpp
  const std::vector<std::string>& queries = key_set_queries();
  std::vector<OuterBlock> blocks;
  for (const std::string& sql : queries) {
    blocks.push_back(outer_block(sql));
    const OuterBlock& b = blocks.back();
    EXPECT_TRUE(b.key_set) << sql;
    EXPECT_EQ(b.path, "star kernels") << sql;
  }
  ASSERT_EQ(blocks.size(), 6u);
  auto one = [&](size_t q, uint64_t lo, uint64_t hi) {
    ASSERT_EQ(blocks[q].bitmap_bytes.size(), 1u) << queries[q];
    EXPECT_GE(blocks[q].bitmap_bytes[0], lo) << queries[q];
    EXPECT_LT(blocks[q].bitmap_bytes[0], hi) << queries[q];
  };
  one(0, 1, kSmallArea);                // the small pinned area
  one(1, kSmallArea, kLarge);           // a host buffer
  one(2, kLarge, uint64_t(256) << 20);  // the large pinned area
  one(3, kLarge, uint64_t(256) << 20);
  one(5, kSmallArea, kLarge);
  ASSERT_EQ(blocks[4].bitmap_bytes.size(), 2u) << queries[4];  // each fits alone, not both
  EXPECT_LT(blocks[4].bitmap_bytes[0], kSmallArea);
  EXPECT_LT(blocks[4].bitmap_bytes[1], kSmallArea);
  EXPECT_GT(blocks[4].bitmap_bytes[0] + blocks[4].bitmap_bytes[1], kSmallArea);
  const OuterBlock ranges = outer_block(kRangeSetQuery);
  EXPECT_EQ(ranges.path, "star kernels");
  EXPECT_EQ(ranges.range_bitmaps, 1u);
}

void expect_cuda_equals_cpu(const std::string& sql) {
  Database& db = *staging_db().db;
  const QueryResult cpu = db.query(sql, QueryOptions{Backend::kCpu});
  try {
    const QueryResult gpu = db.query(sql, QueryOptions{Backend::kCuda});
    EXPECT_EQ(gpu.backend, "cuda") << sql;
    EXPECT_TRUE(same(cpu, gpu, sql));
  } catch (const Error& e) {
    ADD_FAILURE() << sql << " did not run on the CUDA backend: " << e.what();
  }
}

TEST(GpuStarStaging, KeySetBitmapsThroughEveryStagingEqualCpu) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  ASSERT_TRUE(staging_db().db) << staging_db().error;
  for (const std::string& sql : key_set_queries()) expect_cuda_equals_cpu(sql);
  // Run twice: the staging areas hold the previous query's bitmaps (every word rewritten).
  for (const std::string& sql : key_set_queries()) expect_cuda_equals_cpu(sql);
}

TEST(GpuStarStaging, NullEmptyAndRangeSetsEqualCpu) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  ASSERT_TRUE(staging_db().db) << staging_db().error;
  const char* const queries[] = {
      // a NULL among the subquery's keys: IN ignores it, NOT IN passes no row
      "SELECT g, count(*) FROM f WHERE k IN (SELECT CASE WHEN tag = 0 THEN NULL ELSE k END FROM s WHERE tag < 5) "
      "GROUP BY g ORDER BY g",
      "SELECT g, count(*) FROM f WHERE k NOT IN (SELECT CASE WHEN tag = 0 THEN NULL ELSE k END FROM s WHERE tag < "
      "3 AND k < 3000000) GROUP BY g ORDER BY g",
      // an empty set, and keys none of f's rows hold
      "SELECT g, count(*) FROM f WHERE k IN (SELECT k FROM s WHERE tag = 11) GROUP BY g ORDER BY g",
      "SELECT count(*) FROM f WHERE k IN (SELECT k + 1 FROM s WHERE tag < 5 AND k < 6000000)",
      kRangeSetQuery,
  };
  for (const char* sql : queries) expect_cuda_equals_cpu(sql);
}

}  // namespace
}  // namespace raydb::test
