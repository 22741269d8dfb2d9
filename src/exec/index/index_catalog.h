#pragma once
// The in-memory side of the index catalog: built indexes of one database, made on
// first use from their definitions (DatabaseDirectory::indexes()) and kept while the
// table object they were built from is current. A replaced table, or a definition
// that changed (dropped and re-created with other options), builds anew.
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "exec/index/built_index.h"
#include "exec/index/built_scan_index.h"
#include "storage/index_definition.h"

namespace raydb::exec {

class IndexCatalog {
 public:
  IndexCatalog();
  ~IndexCatalog();

  // The built index for `def` over `table` (the table object the query reads).
  // Builds it when needed and reports "index NAME: built N keys in X ms" on stderr.
  std::shared_ptr<const BuiltIndex> get(const IndexDefinition& def, const TablePtr& table);
  // The same for an RT scan index (kind rtscan): "index NAME: built N rows x C
  // columns (rtscan ...) in X ms, M MiB host" on stderr.
  std::shared_ptr<const BuiltScanIndex> get_scan(const IndexDefinition& def, const TablePtr& table);

 private:
  struct Entry {
    IndexDefinition def;
    TablePtr table;
    std::shared_ptr<const BuiltIndex> index;
    std::shared_ptr<const BuiltScanIndex> scan;  // kind rtscan
  };
  bool current(const Entry& e, const IndexDefinition& def, const TablePtr& table) const;
  std::mutex mutex_;
  std::unique_ptr<rt::Tracer> tracer_;  // Embree; made with the first RT index
  std::map<std::string, Entry> built_;  // by lower-case index name
};

}  // namespace raydb::exec
