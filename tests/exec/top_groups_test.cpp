// ORDER BY ... LIMIT pruned to its candidate groups (exec/core/top_groups.h): finishing
// on the candidates must give exactly the rows finishing on every group gives, for
// random aggregates full of ties, NULLs and NaNs, both directions, both NULL
// placements, OFFSET, HAVING and ORDER BY expressions over aggregates; and queries
// whose first ORDER BY item reads a group key must not be pruned.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "exec/core/result_finisher.h"
#include "exec/core/top_groups.h"
#include "sql/sql_test_catalog.h"

namespace raydb::test {
namespace {

// One random vector of `t`'s kind: few distinct values (ties), some NULLs, NaNs in DOUBLEs.
exec::Vector random_vector(const Type& t, size_t n, std::mt19937_64& rng) {
  exec::Vector v(t, n);
  for (size_t i = 0; i < n; i++) {
    const int64_t x = int64_t(rng() % 9) - 2;
    switch (v.kind) {
      case exec::VectorKind::kInt: v.ints[i] = x; break;
      case exec::VectorKind::kHuge: v.huge[i] = __int128(x) * 1000; break;
      case exec::VectorKind::kDouble: v.doubles[i] = rng() % 13 == 0 ? std::nan("") : double(x) / 4; break;
      default: ADD_FAILURE() << "unexpected aggregate kind";
    }
    if (rng() % 11 == 0) v.set_null(i);
  }
  return v;
}

exec::ResultTable finish(const plan::LogicalQuery& q, const std::vector<exec::Vector>& keys,
                   const std::vector<exec::Vector>& aggs, const std::vector<uint32_t>& groups) {
  std::vector<exec::Vector> k, a;
  for (auto& v : keys) k.push_back(v.select(groups.data(), groups.size()));
  for (auto& v : aggs) a.push_back(v.select(groups.data(), groups.size()));
  size_t n = groups.size();
  exec::ResultTable r;
  r.interner = std::make_shared<exec::StringInterner>();
  std::vector<exec::Vector> out = exec::finish_aggregation(q, std::move(k), std::move(a), n);
  exec::finish_rows(q, std::move(out), n, r);
  return r;
}

std::vector<std::string> cells(const exec::ResultTable& r) {
  std::vector<std::string> out;
  for (size_t row = 0; row < r.rows; row++)
    for (auto& c : r.columns) out.push_back(c.is_null(row) ? "NULL" : c.value_at(row).to_string());
  return out;
}

TEST(TopGroups, CandidatesFinishLikeAllGroups) {
  TestCatalog cat;
  const char* queries[] = {
      "select i, sum(b) as v from t group by i order by v desc limit 5",
      "select i, sum(b) as v from t group by i order by v limit 5",
      "select i, count(b) c from t group by i order by c limit 7 offset 3",
      "select i, sum(f) s from t group by i order by s desc nulls last limit 4",
      "select i, sum(f) s from t group by i order by s nulls first limit 4",
      "select i, avg(f) a, count(*) c from t group by i having count(*) > 0 order by a limit 5",
      "select i, b, sum(b) from t group by i, b order by sum(b) + count(*) desc, i limit 6",
      "select i, max(d) m from t group by i order by m asc nulls first, i desc limit 5",
      "select i, sum(d) m from t group by i having sum(d) > 0 and count(*) < 3 order by 2 desc limit 1",
      "select i, sum(b) from t group by i order by sum(b) desc limit 0",
  };
  std::mt19937_64 rng(42);
  size_t pruned = 0;
  for (const char* sql : queries) {
    const plan::LogicalQuery q = cat.bind(sql);
    ASSERT_TRUE(exec::prunable_top_groups(q)) << sql;
    for (size_t n : {size_t(1), size_t(2), size_t(10), size_t(50), size_t(1000), size_t(20000)}) {
      std::vector<exec::Vector> keys;
      for (auto& k : q.group_keys) {
        exec::Vector v(k->type, n);  // distinct keys, as groups have
        std::iota(v.ints.begin(), v.ints.end(), int64_t(0));
        std::shuffle(v.ints.begin(), v.ints.end(), rng);
        keys.push_back(std::move(v));
      }
      std::vector<exec::Vector> aggs;
      for (auto& a : q.aggregates) aggs.push_back(random_vector(a.type, n, rng));
      std::vector<uint32_t> all(n);
      std::iota(all.begin(), all.end(), 0);
      const std::optional<std::vector<uint32_t>> cand = exec::top_group_candidates(q, aggs, n);
      if (!cand) continue;
      pruned++;
      EXPECT_TRUE(std::is_sorted(cand->begin(), cand->end())) << sql;
      EXPECT_LT(cand->size(), n / 2 + 1) << sql;
      EXPECT_EQ(cells(finish(q, keys, aggs, all)), cells(finish(q, keys, aggs, *cand))) << sql << ", " << n << " groups";
    }
  }
  EXPECT_GT(pruned, 30u);  // most large cases prune
}

TEST(TopGroups, OrderByAGroupKeyIsNotPruned) {
  TestCatalog cat;
  for (const char* sql : {"select i, sum(b) v from t group by i order by i limit 5",
                          "select i, sum(b) v from t group by i order by sum(b) + i desc limit 5",
                          "select i, sum(b) v from t group by i having i > 2 order by v limit 5",
                          "select i, sum(b) v from t group by i order by v",
                          "select distinct sum(b) v from t group by i order by v limit 5",
                          "select sum(b) v from t order by v limit 5"})
    EXPECT_FALSE(exec::prunable_top_groups(cat.bind(sql))) << sql;
}

}  // namespace
}  // namespace raydb::test
