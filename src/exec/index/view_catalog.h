#pragma once
// The in-memory side of the RT view catalog: the database's views (catalog_view.h:
// definition, rows loaded on first use, RtView built on first use per tracer, like
// IndexCatalog's indexes) and the CPU backend's Embree tracer. api/ keeps it in step
// with DatabaseDirectory::rt_views() (sync) before planning.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/index/catalog_view.h"

namespace raydb::exec {

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
  rt::Tracer& tracer();  // Embree (the CPU backend's views), made on first use

 private:
  mutable std::mutex mutex_;
  std::unique_ptr<rt::Tracer> tracer_;
  std::map<std::string, std::shared_ptr<const CatalogView>> views_;  // by lower-case name
};

}  // namespace raydb::exec
