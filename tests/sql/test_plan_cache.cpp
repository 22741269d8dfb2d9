// api::PlanCache against a plain model of what it must hold: the latest plan of each
// text, only for the newest catalog version, at most `capacity` of them, the least
// recently used going first. (The engine's use of it, against SQLite, is in
// python/tests/test_plan_cache.py.)
#include <gtest/gtest.h>

#include <list>
#include <map>
#include <random>

#include "api/plan_cache.h"

namespace raydb {
namespace {

using api::CachedPlan;
using api::CatalogVersion;
using api::PlanCache;

std::shared_ptr<const CachedPlan> plan_tagged(int tag) {
  auto p = std::make_shared<CachedPlan>();
  p->plan.root_table = tag;  // tells plans apart
  return p;
}

TEST(PlanCache, HitsOnlyForTheSameTextAndVersion) {
  PlanCache cache(4);
  const CatalogVersion v1{1, 0}, v2{2, 0}, v3{2, 1};
  EXPECT_EQ(cache.find("select 1", v1), nullptr);
  cache.put("select 1", v1, plan_tagged(1));
  ASSERT_NE(cache.find("select 1", v1), nullptr);
  EXPECT_EQ(cache.find("select 1", v1)->plan.root_table, 1);
  EXPECT_EQ(cache.find("select 1 ", v1), nullptr);
  EXPECT_EQ(cache.find("select 1", v2), nullptr);  // a commit since: stale, and dropped
  EXPECT_EQ(cache.find("select 1", v1), nullptr);
  cache.put("select 1", v2, plan_tagged(2));
  EXPECT_EQ(cache.find("select 1", v3), nullptr);  // a table registered again
  EXPECT_EQ(cache.size(), 0u);
}

TEST(PlanCache, AnOlderVersionNeitherEvictsNorEnters) {
  PlanCache cache(4);
  const CatalogVersion old{3, 1}, now{4, 1};
  cache.put("q", now, plan_tagged(7));
  EXPECT_EQ(cache.find("q", old), nullptr);  // a reader that read the version before the commit
  ASSERT_NE(cache.find("q", now), nullptr);
  cache.put("r", old, plan_tagged(8));  // planned against the replaced catalog
  EXPECT_EQ(cache.find("r", old), nullptr);
  EXPECT_EQ(cache.size(), 1u);
}

TEST(PlanCache, ANewerVersionDropsEveryOlderEntry) {
  PlanCache cache(8);
  for (int i = 0; i < 5; i++) cache.put("q" + std::to_string(i), {1, 0}, plan_tagged(i));
  EXPECT_EQ(cache.size(), 5u);
  EXPECT_EQ(cache.find("nothing", {1, 1}), nullptr);
  EXPECT_EQ(cache.size(), 0u);  // their tables are released at once
}

// Random puts and finds over a few texts and rising versions, against the model.
TEST(PlanCache, MatchesAReferenceModel) {
  for (size_t capacity : {1, 2, 3, 8}) {
    PlanCache cache(capacity);
    std::list<std::pair<std::string, int>> model;  // newest version only, most recent first
    CatalogVersion version{0, 0};
    std::mt19937 rng{uint32_t(capacity)};
    for (int step = 0; step < 4000; step++) {
      const std::string sql = "q" + std::to_string(rng() % 6);
      const unsigned op = rng() % 10;
      if (op == 0) {  // a commit or a register
        version = rng() % 2 ? CatalogVersion{version.generation + 1, version.registered}
                            : CatalogVersion{version.generation, version.registered + 1};
        model.clear();
        continue;
      }
      auto it = model.begin();
      while (it != model.end() && it->first != sql) ++it;
      if (op < 5) {
        auto got = cache.find(sql, version);
        if (it == model.end()) {
          ASSERT_EQ(got, nullptr) << "step " << step;
        } else {
          ASSERT_NE(got, nullptr) << "step " << step;
          ASSERT_EQ(got->plan.root_table, it->second);
          model.splice(model.begin(), model, it);
        }
      } else {
        if (it != model.end()) model.erase(it);
        model.emplace_front(sql, step);
        if (model.size() > capacity) model.pop_back();
        cache.put(sql, version, plan_tagged(step));
      }
      ASSERT_EQ(cache.size(), model.size()) << "step " << step;
    }
  }
}

}  // namespace
}  // namespace raydb
