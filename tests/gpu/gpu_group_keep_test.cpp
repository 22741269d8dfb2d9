// HAVING decided per group where the star kernels' accumulators are
// (exec/cuda/group_keep.h), checked on the host without a device: the terms compiled
// from HAVING, evaluated by group_kept over accumulator fields made from the CPU
// backend's per-order count, sum, min and max of l_quantity (TPC-H SF 0.01), must keep
// exactly the orders the CPU backend's HAVING query returns, or a superset where a
// conjunct is left to the finisher. On a device (GpuStarHaving, skipped without one)
// the same queries at SF 0.1 (600,000 order keys: the groups are compacted on the
// device, where HAVING's terms now apply) must give the CPU backend's rows.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/group_keep.h"
#include "exec/cuda/star_plan.h"
#include "plan/physical/physical_planner.h"
#include "sql/sql.h"
#include "storage/persist/database_directory.h"
#include "support/result_rows.h"
#include "support/tpch_fixture.h"

namespace raydb::test {
namespace {

using plan::AggFunc;

struct OrderAccumulators {
  std::vector<int64_t> keys;
  std::vector<unsigned long long> count, sum, min, max;  // l_quantity as stored (scale 2)
};

// Per order key, the accumulators' values as the CPU backend computes them.
const OrderAccumulators& accumulators(OracleFixture& f) {
  static OrderAccumulators acc = [&] {
    OrderAccumulators a;
    QueryResult r = f.db->query(
        "select l_orderkey, count(*), sum(l_quantity), min(l_quantity), max(l_quantity) from lineitem group by "
        "l_orderkey");
    for (size_t i = 0; i < r.row_count(); i++) {
      a.keys.push_back(r.get(i, 0).as_int());
      a.count.push_back((unsigned long long)r.get(i, 1).as_int());
      a.sum.push_back((unsigned long long)int64_t(r.get(i, 2).as_hugeint()));
      a.min.push_back((unsigned long long)int64_t(r.get(i, 3).as_hugeint()));
      a.max.push_back((unsigned long long)int64_t(r.get(i, 4).as_hugeint()));
    }
    return a;
  }();
  return acc;
}

struct KeepRun {
  std::set<int64_t> kept;
  int terms = 0;
};

// Binds `select l_orderkey, ... group by l_orderkey having <having>`, compiles its
// keep terms against its star plan and evaluates them over every order's fields.
KeepRun device_keep(OracleFixture& f, const std::string& sql) {
  auto dir = DatabaseDirectory::open(f.path);
  auto stmt = sql::parse_and_bind(sql, [&](std::string_view n) { return dir->table(n); }, {}, nullptr);
  const plan::LogicalQuery& q = stmt.query;
  plan::PhysicalPlan p = plan::plan_query(std::make_shared<plan::LogicalQuery>(q), {});
  auto analysed = exec::cuda::analyze(p);
  const auto* sp = std::get_if<exec::cuda::StarPlan>(&analysed);
  EXPECT_TRUE(sp) << sql << ": " << (sp ? "" : std::get<std::string>(analysed));
  KeepRun out;
  if (!sp) return out;
  std::vector<int> lo, hi;
  const int nfields = exec::cuda::number_accumulators(*sp, lo, hi);
  const exec::cuda::DevGroupKeep keep = exec::cuda::compile_group_keep(*p.query, *sp, lo, hi);
  out.terms = keep.nterms;
  const OrderAccumulators& a = accumulators(f);
  const size_t n = a.keys.size();
  std::vector<std::vector<unsigned long long>> fields(size_t(nfields), std::vector<unsigned long long>(n, 0));
  fields[0] = a.count;
  for (size_t i = 0; i < q.aggregates.size(); i++) {
    if (lo[i] < 0) continue;
    const AggFunc fn = q.aggregates[i].func;
    const auto& src = fn == AggFunc::kSum ? a.sum : fn == AggFunc::kMin ? a.min : a.max;
    fields[size_t(lo[i])] = src;
    if (hi[i] >= 0)
      for (size_t g = 0; g < n; g++) fields[size_t(hi[i])][g] = int64_t(src[g]) < 0 ? ~0ull : 0ull;
  }
  std::vector<const unsigned long long*> ptrs;
  for (auto& v : fields) ptrs.push_back(v.data());
  for (size_t g = 0; g < n; g++)
    if (exec::cuda::group_kept(keep, ptrs.data(), g)) out.kept.insert(a.keys[g]);
  return out;
}

std::set<int64_t> cpu_keys(OracleFixture& f, const std::string& sql) {
  std::set<int64_t> keys;
  QueryResult r = f.db->query(sql);
  for (size_t i = 0; i < r.row_count(); i++) keys.insert(r.get(i, 0).as_int());
  return keys;
}

std::string grouped(const std::string& having) {
  return "select l_orderkey, sum(l_quantity), count(*), min(l_quantity), max(l_quantity), avg(l_quantity) from "
         "lineitem group by l_orderkey having " +
         having;
}

class GroupKeep : public ::testing::TestWithParam<std::pair<std::string, int>> {};

// Every conjunct is decided on the device: the kept orders are exactly HAVING's.
TEST_P(GroupKeep, KeepsExactlyWhatHavingKeeps) {
  OracleFixture& f = tpch_fixture("0.01", /*with_oracle=*/false);
  ASSERT_TRUE(f.db) << f.error;
  const auto& [having, terms] = GetParam();
  const std::string sql = grouped(having);
  const KeepRun run = device_keep(f, sql);
  EXPECT_EQ(run.terms, terms) << having;
  const std::set<int64_t> expected = cpu_keys(f, sql);
  EXPECT_FALSE(expected.empty()) << having << " keeps no order: a weak case";
  EXPECT_LT(expected.size(), accumulators(f).keys.size()) << having << " keeps every order: a weak case";
  EXPECT_EQ(run.kept, expected) << having;
}

INSTANTIATE_TEST_SUITE_P(
    CudaAnalysis, GroupKeep,
    ::testing::Values(std::make_pair("sum(l_quantity) > 270", 1),     // TPC-H Q18 (300: no order at SF 0.01)
                      std::make_pair("sum(l_quantity) > 250.5", 1),   // constant at scale 1
                      std::make_pair("sum(l_quantity) >= 250.005", 1),  // scale 3: rounded up
                      std::make_pair("sum(l_quantity) <= 100.999", 1),  // scale 3: rounded down
                      std::make_pair("sum(l_quantity) < 50.001", 1),
                      std::make_pair("sum(l_quantity) = 150", 1), std::make_pair("sum(l_quantity) <> 150", 1),
                      std::make_pair("200 < sum(l_quantity)", 1),       // constant first
                      std::make_pair("count(*) >= 6 and max(l_quantity) = 50 and min(l_quantity) < 3", 3),
                      // Two aggregates of one scale (TPC-H Q21's min(c) <> max(c)), a wide sum too.
                      std::make_pair("min(l_quantity) <> max(l_quantity)", 1),
                      std::make_pair("min(l_quantity) = max(l_quantity)", 1),
                      std::make_pair("sum(l_quantity) > max(l_quantity) and count(*) < 4", 2),
                      std::make_pair("max(l_quantity) <= sum(l_quantity) and min(l_quantity) >= 40", 2)),
    [](const auto& info) { return "case" + std::to_string(info.index); });

// A conjunct the device cannot decide (AVG) is left to the finisher: the kept groups
// are a superset, exactly those the decidable conjunct keeps.
TEST(CudaAnalysis, GroupKeepLeavesUndecidableConjunctsToTheHost) {
  OracleFixture& f = tpch_fixture("0.01", /*with_oracle=*/false);
  ASSERT_TRUE(f.db) << f.error;
  const KeepRun run = device_keep(f, grouped("sum(l_quantity) > 200 and avg(l_quantity) > 30"));
  EXPECT_EQ(run.terms, 1);
  EXPECT_EQ(run.kept, cpu_keys(f, grouped("sum(l_quantity) > 200")));
  const std::set<int64_t> both = cpu_keys(f, grouped("sum(l_quantity) > 200 and avg(l_quantity) > 30"));
  EXPECT_LT(both.size(), run.kept.size());
  for (int64_t k : both) EXPECT_TRUE(run.kept.count(k)) << k;
}

// Conjuncts that are not `aggregate op constant`, or an equality no stored sum can
// meet (scale 3 against sums at scale 2), are all left to the finisher: every order
// with rows stays.
TEST(CudaAnalysis, GroupKeepWithoutDecidableTermsKeepsEveryGroup) {
  OracleFixture& f = tpch_fixture("0.01", /*with_oracle=*/false);
  ASSERT_TRUE(f.db) << f.error;
  for (const char* having : {"sum(l_quantity) between 100 and 120", "sum(l_quantity) = 1.001",
                             "sum(l_quantity) + 1 > 300", "avg(l_quantity) > 30",
                             "count(*) > max(l_quantity)"}) {  // scale 0 against scale 2
    const KeepRun run = device_keep(f, grouped(having));
    EXPECT_EQ(run.terms, 0) << having;
    EXPECT_EQ(run.kept.size(), accumulators(f).keys.size()) << having;
  }
}

// 128-bit sums (low word + high word) and negative values and constants: group_kept
// compares the two's-complement values exactly, for every operator.
TEST(CudaAnalysis, GroupKeptComparesWideAndNegativeValues) {
  const __int128 big = __int128(1) << 100;
  const std::vector<__int128> values = {-big, -(__int128(1) << 64), -5, 0, 7, (__int128(1) << 70) + 3, big};
  std::vector<unsigned long long> count(values.size(), 1), lo, hi;
  for (__int128 v : values) {
    lo.push_back((unsigned long long)(unsigned __int128)v);
    hi.push_back((unsigned long long)((unsigned __int128)v >> 64));
  }
  const unsigned long long* fields[] = {count.data(), lo.data(), hi.data()};
  for (__int128 k : values)
    for (int op = exec::cuda::kCmpEq; op <= exec::cuda::kCmpGe; op++) {
      exec::cuda::DevGroupKeep keep;
      keep.nterms = 1;
      keep.terms[0].lo = 1;
      keep.terms[0].hi = 2;
      keep.terms[0].op = op;
      keep.terms[0].k_lo = int64_t((unsigned long long)(unsigned __int128)k);
      keep.terms[0].k_hi = int64_t((unsigned long long)((unsigned __int128)k >> 64));
      for (size_t g = 0; g < values.size(); g++) {
        const __int128 v = values[g];
        const bool want = op == exec::cuda::kCmpEq ? v == k : op == exec::cuda::kCmpNe ? v != k
                        : op == exec::cuda::kCmpLt ? v < k : op == exec::cuda::kCmpLe ? v <= k
                        : op == exec::cuda::kCmpGt ? v > k : v >= k;
        EXPECT_EQ(exec::cuda::group_kept(keep, fields, g), want) << "value " << g << " op " << op;
      }
    }
}

// Two fields compared (rlo, rhi): narrow and 128-bit values, negative ones, every
// operator, both ways round.
TEST(CudaAnalysis, GroupKeptComparesTwoFields) {
  const __int128 big = __int128(1) << 100;
  const std::vector<__int128> values = {-big, -(__int128(1) << 64), -5, 0, 7, (__int128(1) << 70) + 3, big};
  const size_t n = values.size() * values.size();
  std::vector<unsigned long long> count(n, 1), alo, ahi, blo, bhi;
  for (__int128 a : values)
    for (__int128 b : values) {
      alo.push_back((unsigned long long)(unsigned __int128)a), ahi.push_back((unsigned long long)((unsigned __int128)a >> 64));
      blo.push_back((unsigned long long)(unsigned __int128)b), bhi.push_back((unsigned long long)((unsigned __int128)b >> 64));
    }
  const unsigned long long* fields[] = {count.data(), alo.data(), ahi.data(), blo.data(), bhi.data()};
  for (int op = exec::cuda::kCmpEq; op <= exec::cuda::kCmpGe; op++) {
    exec::cuda::DevGroupKeep keep;
    keep.nterms = 1;
    keep.terms[0].lo = 1, keep.terms[0].hi = 2, keep.terms[0].rlo = 3, keep.terms[0].rhi = 4;
    keep.terms[0].op = op;
    for (size_t g = 0; g < n; g++) {
      const __int128 v = values[g / values.size()], k = values[g % values.size()];
      const bool want = op == exec::cuda::kCmpEq ? v == k : op == exec::cuda::kCmpNe ? v != k
                      : op == exec::cuda::kCmpLt ? v < k : op == exec::cuda::kCmpLe ? v <= k
                      : op == exec::cuda::kCmpGt ? v > k : v >= k;
      EXPECT_EQ(exec::cuda::group_kept(keep, fields, g), want) << "pair " << g << " op " << op;
    }
  }
}

// On the device: grouped by l_orderkey the star kernels compact the groups, and the
// HAVING terms drop groups there; the rows must be the CPU's.
TEST(GpuStarHaving, HavingOnTheDeviceEqualsCpu) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  OracleFixture& f = tpch_fixture("0.1", /*with_oracle=*/false);
  ASSERT_TRUE(f.db) << f.error;
  for (const char* having :
       {"sum(l_quantity) > 300", "sum(l_quantity) >= 250.005", "sum(l_quantity) <= 100.999", "300 < sum(l_quantity)",
        "count(*) >= 6 and max(l_quantity) = 50 and min(l_quantity) < 3", "sum(l_quantity) = 1.001",
        "sum(l_quantity) > 200 and avg(l_quantity) > 30", "sum(l_quantity) between 100 and 120",
        "sum(l_quantity * l_extendedprice) > 30000000", "min(l_quantity) <> max(l_quantity)",
        "sum(l_quantity) > max(l_quantity) and count(*) < 4"}) {
    const std::string sql = grouped(having);
    const QueryResult cpu = f.db->query(sql, QueryOptions{Backend::kCpu});
    const QueryResult gpu = f.db->query(sql, QueryOptions{Backend::kCuda});
    EXPECT_EQ(gpu.backend, "cuda") << sql;
    EXPECT_TRUE(same_rows(rows_of(cpu), rows_of(gpu), false, sql));
  }
}

// Column-free conjuncts (`2 < 1`; an IN subquery with no rows binds to FALSE too)
// are decided on the host and the star kernels run the rest: nothing for a grouped
// query, one row of zero / NULL aggregates without GROUP BY.
TEST(CudaAnalysis, ConstantConjunctsStayOnTheStarKernels) {
  OracleFixture& f = tpch_fixture("0.01", /*with_oracle=*/false);
  ASSERT_TRUE(f.db) << f.error;
  auto dir = DatabaseDirectory::open(f.path);
  for (const auto& [condition, never] : {std::make_pair("2 < 1", true), std::make_pair("1 = 1", false)}) {
    const std::string sql = std::string("select l_returnflag, count(*) from lineitem where l_quantity > 10 and ") +
                            condition + " group by l_returnflag";
    auto stmt = sql::parse_and_bind(sql, [&](std::string_view n) { return dir->table(n); }, {}, nullptr);
    plan::PhysicalPlan p = plan::plan_query(std::make_shared<plan::LogicalQuery>(stmt.query), {});
    ASSERT_EQ(p.root_residuals.size(), 1u) << sql;
    auto analysed = exec::cuda::analyze(p);
    const auto* sp = std::get_if<exec::cuda::StarPlan>(&analysed);
    ASSERT_TRUE(sp) << sql << ": " << std::get<std::string>(analysed);
    EXPECT_EQ(sp->always_false, never) << sql;
  }
}

TEST(GpuStarHaving, ConstantConjunctsEqualCpu) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  OracleFixture& f = tpch_fixture("0.01", /*with_oracle=*/false);
  ASSERT_TRUE(f.db) << f.error;
  const std::string empty_in = "l_orderkey in (select o_orderkey from orders where o_totalprice < 0)";
  for (const std::string& sql :
       {"select l_returnflag, count(*) from lineitem where " + empty_in + " group by l_returnflag",
        std::string("select l_returnflag, sum(l_quantity) from lineitem where 2 < 1 group by l_returnflag"),
        std::string("select count(*), sum(l_quantity) from lineitem where l_discount > 0.05 and 2 < 1"),
        std::string("select l_linestatus, count(*) from lineitem where 1 = 1 and l_discount > 0.05 group by 1"),
        "select count(*), sum(l_quantity), min(l_discount) from lineitem where " + empty_in,
        "select l_returnflag, sum(l_quantity) from lineitem where not (" + empty_in + ") group by l_returnflag"}) {
    const QueryResult cpu = f.db->query(sql, QueryOptions{Backend::kCpu});
    const QueryResult gpu = f.db->query(sql, QueryOptions{Backend::kCuda});
    EXPECT_EQ(gpu.backend, "cuda") << sql;
    EXPECT_TRUE(same_rows(rows_of(cpu), rows_of(gpu), false, sql));
  }
}

}  // namespace
}  // namespace raydb::test
