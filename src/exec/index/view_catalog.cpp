#include "exec/index/view_catalog.h"

#include <cstdio>

#include "common/error.h"

namespace raydb::exec {

ViewCatalog::ViewCatalog() = default;
ViewCatalog::~ViewCatalog() {
  views_.clear();  // views before the tracer that built them
}

void ViewCatalog::sync(const std::vector<RtViewEntry>& entries, const std::string& db_path) {
  std::lock_guard<std::mutex> g(mutex_);
  std::map<std::string, std::shared_ptr<const CatalogView>> next;
  for (const RtViewEntry& e : entries) {
    const std::string key = to_lower(e.name);
    auto it = views_.find(key);
    if (it != views_.end() && it->second->entry().dir == e.dir && it->second->entry().definition == e.definition)
      next[key] = it->second;
    else
      next[key] = std::make_shared<const CatalogView>(e, db_path + "/" + e.dir);
  }
  views_ = std::move(next);
}

void ViewCatalog::adopt(const RtViewEntry& entry, const std::string& db_path,
                        std::shared_ptr<const rtview::ViewRows> rows) {
  std::lock_guard<std::mutex> g(mutex_);
  views_[to_lower(entry.name)] = std::make_shared<const CatalogView>(entry, db_path + "/" + entry.dir, std::move(rows));
}

std::vector<std::shared_ptr<const CatalogView>> ViewCatalog::views() const {
  std::lock_guard<std::mutex> g(mutex_);
  std::vector<std::shared_ptr<const CatalogView>> out;
  for (auto& [k, v] : views_) out.push_back(v);
  return out;
}

rt::Tracer& ViewCatalog::tracer() {
  std::lock_guard<std::mutex> g(mutex_);
  if (!tracer_) tracer_ = rt::make_embree_tracer();
  return *tracer_;
}

}  // namespace raydb::exec
