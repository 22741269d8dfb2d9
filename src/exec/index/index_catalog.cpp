#include "exec/index/index_catalog.h"

#include <cstdio>

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
  if (it != built_.end() && it->second.table == table && it->second.def.column == def.column &&
      it->second.def.kind == def.kind && it->second.def.options == def.options)
    return it->second.index;
  int column = -1;
  for (size_t c = 0; c < table->column_count(); c++)
    if (iequals(table->column(c).name(), def.column)) column = int(c);
  if (column < 0) fail(ErrorKind::kCatalog, "index {}: table {} has no column {}", def.name, table->name(), def.column);
  access::IndexConfig config = access::parse_index_config(def.kind, def.options);
  if (!tracer_) tracer_ = rt::make_embree_tracer();
  auto index = std::make_shared<const BuiltIndex>(def.name, config, table, column, *tracer_);
  std::fprintf(stderr, "index %s: built %llu keys in %.1f ms\n", def.name.c_str(), (unsigned long long)index->rows,
               index->build_ms());
  built_[key] = Entry{def, table, index};
  return index;
}

}  // namespace raydb::exec
