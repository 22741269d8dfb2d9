#pragma once
// The in-memory side of the RT view catalog: each view's definition (from the
// manifest), its rows (loaded from its directory on first use) and its RtView on the
// CPU tracer (Embree; the BVH built on first use, like IndexCatalog's indexes). api/
// keeps it in step with DatabaseDirectory::rt_views() (sync) before planning.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "access/rt_view/rt_view.h"
#include "access/rt_view/view_definition.h"
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
  mutable std::map<const rt::Tracer*, std::unique_ptr<rtview::RtView>> views_;  // per tracer
};

class ViewCatalog {
 public:
  ViewCatalog();
  ~ViewCatalog();
  // Makes the catalog hold exactly `entries` (a view whose rows directory changed is
  // loaded anew; dropped views are forgotten). `db_path`: the database directory.
  void sync(const std::vector<RtViewEntry>& entries, const std::string& db_path);
  // Keeps rows just materialized for `entry` (CREATE RT VIEW, rebuilds), so the first
  // query does not read them back from disk.
  void adopt(const RtViewEntry& entry, const std::string& db_path, std::shared_ptr<const rtview::ViewRows> rows);
  std::vector<std::shared_ptr<const CatalogView>> views() const;
  rt::Tracer& tracer();  // Embree, made on first use

 private:
  mutable std::mutex mutex_;
  std::unique_ptr<rt::Tracer> tracer_;
  std::map<std::string, std::shared_ptr<const CatalogView>> views_;  // by lower-case name
};

}  // namespace raydb::exec
