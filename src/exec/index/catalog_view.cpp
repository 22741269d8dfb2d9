#include "exec/index/catalog_view.h"

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

const rtview::ViewLayout& CatalogView::layout() const {
  std::shared_ptr<const rtview::ViewRows> r = rows();
  std::lock_guard<std::mutex> g(mutex_);
  if (!layout_) layout_ = std::make_unique<rtview::ViewLayout>(rtview::plan_layout(*r, {}));
  return *layout_;
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

}  // namespace raydb::exec
