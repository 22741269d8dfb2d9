#include "api/plan_cache.h"

namespace raydb::api {

void PlanCache::drop_older_locked(const CatalogVersion& version) {
  if (version == newest_ || !version.at_or_after(newest_)) return;
  newest_ = version;
  for (auto it = lru_.begin(); it != lru_.end();) {
    if (it->version == version) {
      ++it;
      continue;
    }
    by_sql_.erase(it->sql);
    it = lru_.erase(it);
  }
}

std::shared_ptr<const CachedPlan> PlanCache::find(const std::string& sql, const CatalogVersion& version) {
  std::lock_guard lock(mutex_);
  drop_older_locked(version);
  auto it = by_sql_.find(sql);
  if (it == by_sql_.end()) return nullptr;
  if (!(it->second->version == version)) {
    if (version.at_or_after(it->second->version)) {  // planned against an older catalog: never valid again
      lru_.erase(it->second);
      by_sql_.erase(it);
    }
    return nullptr;
  }
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->plan;
}

void PlanCache::put(const std::string& sql, const CatalogVersion& version, std::shared_ptr<const CachedPlan> plan) {
  if (capacity_ == 0) return;
  std::lock_guard lock(mutex_);
  drop_older_locked(version);
  if (!(version == newest_)) return;  // planned against a catalog already replaced
  if (auto it = by_sql_.find(sql); it != by_sql_.end()) {
    lru_.erase(it->second);
    by_sql_.erase(it);
  }
  lru_.push_front(Entry{sql, version, std::move(plan)});
  by_sql_[sql] = lru_.begin();
  while (lru_.size() > capacity_) {
    by_sql_.erase(lru_.back().sql);
    lru_.pop_back();
  }
}

size_t PlanCache::size() const {
  std::lock_guard lock(mutex_);
  return lru_.size();
}

bool plan_cache_enabled(const Settings& settings) {
  const std::string v = settings.get("plan_cache");
  return !(v == "off" || v == "false" || v == "0");
}

}  // namespace raydb::api
