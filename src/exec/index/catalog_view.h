#pragma once
// One RT view of the catalog as the planner sees it (exec/index/view_catalog.h holds
// them): its catalog entry and definition, its rows loaded on first use, and the
// RtView built on first use per tracer.
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "access/rt_view/rt_view.h"
#include "access/rt_view/view_definition.h"
#include "access/rt_view/view_layout.h"
#include "storage/rt_view_entry.h"

namespace raydb::exec {

// One view as the planner sees it. Rows and the built view are made lazily (they are
// large); the definition is enough to reject most queries.
class CatalogView {
 public:
  CatalogView(RtViewEntry entry, std::string abs_dir, std::shared_ptr<const rtview::ViewRows> rows = nullptr);
  ~CatalogView();
  const RtViewEntry& entry() const { return entry_; }
  const rtview::ViewDefinition& definition() const { return def_; }
  // The encoded rows, loaded from the view's directory on first call.
  std::shared_ptr<const rtview::ViewRows> rows() const;
  // The default layout of the view's rows (rtview::plan_layout), computed once: it
  // scans every aggregate input (min/max), which per query cost 155 ms at SSB SF 10.
  const rtview::ViewLayout& layout() const;
  // The view on `tracer` (Embree for the CPU backend, OptiX for the CUDA backend);
  // builds it on first call per tracer and reports "rt view NAME: built ..." (rows,
  // build time, host and device bytes) on stderr.
  const rtview::RtView& built(rt::Tracer& tracer) const;
  // Build statistics once built (nullptr before).
  const rtview::ViewBuildStats* build_stats() const;

 private:
  RtViewEntry entry_;
  std::string abs_dir_;
  rtview::ViewDefinition def_;
  mutable std::mutex mutex_;
  mutable std::shared_ptr<const rtview::ViewRows> rows_;
  mutable std::unique_ptr<rtview::ViewLayout> layout_;
  mutable std::map<const rt::Tracer*, std::unique_ptr<rtview::RtView>> views_;  // per tracer
};

}  // namespace raydb::exec
