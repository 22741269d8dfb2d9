#pragma once
// Plans of recently run SELECT texts, so that a statement run again (a dashboard's
// query, a shard worker's share of a distributed query) skips parsing, binding and
// planning. Keyed by the exact SQL text; an entry holds for the catalog state it was
// planned against (CatalogVersion: the manifest's commit generation and the count of
// register/unregister calls), so any DDL, INSERT, COPY, index or view change, or a
// table registered again, makes the old plans unreachable. Each run copies the plan,
// since backends annotate it (backend choice, analysis, access paths); the bound
// query itself is immutable and shared. Thread-safe.
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/backend.h"
#include "plan/physical/physical_plan.h"

namespace raydb::api {

struct CatalogVersion {
  uint64_t generation = 0;  // DatabaseDirectory::generation()
  uint64_t registered = 0;  // Database::Impl's count of register_table / unregister_table
  bool operator==(const CatalogVersion& o) const { return generation == o.generation && registered == o.registered; }
  // Both counts only grow: a version at or past `o` in both was read after it.
  bool at_or_after(const CatalogVersion& o) const { return generation >= o.generation && registered >= o.registered; }
};

struct CachedPlan {
  plan::PhysicalPlan plan;  // as the planner made it, before any backend saw it
  std::vector<exec::IndexOnTable> indexes;
};

class PlanCache {
 public:
  explicit PlanCache(size_t capacity = 256) : capacity_(capacity) {}

  // The plan of `sql` made under `version`, or null (a stale entry is dropped).
  std::shared_ptr<const CachedPlan> find(const std::string& sql, const CatalogVersion& version);
  // Keeps `plan` for `sql`; the least recently used entry goes when full.
  void put(const std::string& sql, const CatalogVersion& version, std::shared_ptr<const CachedPlan> plan);
  size_t size() const;

 private:
  struct Entry {
    std::string sql;
    CatalogVersion version;
    std::shared_ptr<const CachedPlan> plan;
  };
  // Once a newer version shows up, entries of older ones go at once: they hold tables
  // (and so mapped files a commit has replaced) that no statement can use any more.
  void drop_older_locked(const CatalogVersion& version);
  size_t capacity_;
  CatalogVersion newest_;
  std::list<Entry> lru_;  // most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> by_sql_;
  mutable std::mutex mutex_;
};

// The most cells (rows x columns) that binding may have materialized (subqueries, WITH
// queries, views' rows) for a statement's plan to be kept: 256 entries of at most 2^20
// cells each bound what the cache can hold.
inline constexpr uint64_t kPlanCacheMaxCells = uint64_t(1) << 20;

// Whether `settings` let statements use the plan cache (setting plan_cache, default on).
bool plan_cache_enabled(const Settings& settings);

}  // namespace raydb::api
