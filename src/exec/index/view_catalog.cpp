#include "exec/index/view_catalog.h"

#include <cstdio>

#include "common/error.h"

namespace raydb::exec {

CatalogView::CatalogView(RtViewEntry entry, std::string abs_dir, std::shared_ptr<const rtview::ViewRows> rows)
    : entry_(std::move(entry)), abs_dir_(std::move(abs_dir)), def_(rtview::definition_from_json(entry_.definition)),
      rows_(std::move(rows)) {}

CatalogView::~CatalogView() = default;

std::shared_ptr<const rtview::ViewRows> CatalogView::rows() const {
  std::lock_guard<std::mutex> g(mutex_);
  if (!rows_) rows_ = rtview::load_view_rows(abs_dir_);
  return rows_;
}

const rtview::RtView& CatalogView::built(rt::Tracer& tracer) const {
  std::shared_ptr<const rtview::ViewRows> r = rows();
  std::lock_guard<std::mutex> g(mutex_);
  std::unique_ptr<rtview::RtView>& view = views_[&tracer];
  if (!view) {
    view = std::make_unique<rtview::RtView>(r, tracer);
    const rtview::ViewBuildStats& s = view->stats();
    std::fprintf(stderr, "rt view %s: built on %s: %llu rows, %u groups in %.1f ms (encode %.1f, BVH %.1f), %.1f MiB host, %.1f MiB device\n",
                 entry_.name.c_str(), tracer.on_gpu() ? "the GPU (OptiX)" : "the CPU (Embree)", (unsigned long long)s.rows, s.groups, s.encode_ms + s.bvh_ms, s.encode_ms, s.bvh_ms,
                 s.host_bytes / 1048576.0, s.device_bytes / 1048576.0);
  }
  return *view;
}

const rtview::ViewBuildStats* CatalogView::build_stats() const {
  std::lock_guard<std::mutex> g(mutex_);
  return views_.empty() ? nullptr : &views_.begin()->second->stats();
}

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
