#include "exec/index/index_catalog.h"

#include <cstdio>

#include "access/rt_scan/scan_index_config.h"
#include "common/error.h"

namespace raydb::exec {

IndexCatalog::IndexCatalog() = default;
IndexCatalog::~IndexCatalog() {
  built_.clear();  // indexes before the tracer that built them
}

std::shared_ptr<const BuiltIndex> IndexCatalog::get(const IndexDefinition& def, const TablePtr& table) {
  std::lock_guard<std::mutex> g(mutex_);
  const std::string key = to_lower(def.name);
  auto it = built_.find(key);
  if (it != built_.end() && current(it->second, def, table) && it->second.index) return it->second.index;
  int column = -1;
  for (size_t c = 0; c < table->column_count(); c++)
    if (iequals(table->column(c).name(), def.column)) column = int(c);
  if (column < 0) fail(ErrorKind::kCatalog, "index {}: table {} has no column {}", def.name, table->name(), def.column);
  access::IndexConfig config = access::parse_index_config(def.kind, def.options);
  if (!tracer_) tracer_ = rt::make_embree_tracer();
  auto index = std::make_shared<const BuiltIndex>(def.name, config, table, column, *tracer_);
  std::fprintf(stderr, "index %s: built %llu keys in %.1f ms\n", def.name.c_str(), (unsigned long long)index->rows,
               index->build_ms());
  built_[key] = Entry{def, table, index, nullptr};
  return index;
}

bool IndexCatalog::current(const Entry& e, const IndexDefinition& def, const TablePtr& table) const {
  return e.table == table && e.def.column_list() == def.column_list() && e.def.kind == def.kind &&
         e.def.options == def.options;
}

std::shared_ptr<const BuiltScanIndex> IndexCatalog::get_scan(const IndexDefinition& def, const TablePtr& table) {
  std::lock_guard<std::mutex> g(mutex_);
  const std::string key = to_lower(def.name);
  auto it = built_.find(key);
  if (it != built_.end() && current(it->second, def, table) && it->second.scan) return it->second.scan;
  const std::vector<std::string> names = def.column_list();
  std::vector<int> columns;
  for (const std::string& name : names) {
    int column = -1;
    for (size_t c = 0; c < table->column_count(); c++)
      if (iequals(table->column(c).name(), name)) column = int(c);
    if (column < 0) fail(ErrorKind::kCatalog, "index {}: table {} has no column {}", def.name, table->name(), name);
    columns.push_back(column);
  }
  const access::rt_scan::RtScanOptions options = access::rt_scan::parse_scan_index_options(def.options, names);
  if (options.build_rt && !tracer_) tracer_ = rt::make_embree_tracer();
  auto index = std::make_shared<const BuiltScanIndex>(def.name, options, table, columns, tracer_.get());
  std::string methods;
  for (auto m : index->index().methods()) methods += std::string(methods.empty() ? "" : ", ") + access::rt_scan::scan_method_name(m);
  std::fprintf(stderr, "index %s: built %llu rows x %zu columns (rtscan: %s) in %.1f ms, %.1f MiB host\n",
               def.name.c_str(), (unsigned long long)index->rows, columns.size(), methods.c_str(), index->build_ms(),
               double(index->host_bytes()) / (1 << 20));
  built_[key] = Entry{def, table, nullptr, index};
  return index;
}

}  // namespace raydb::exec
