#pragma once
// What the catalog knows about a secondary index: CREATE INDEX name ON table (column,
// ...) USING kind [WITH (option = value, ...)]. Only the definition is persisted; the index
// itself is rebuilt in memory from the column (access/ builds it, exec/ owns the
// built structures). Options stay text here: storage/ does not know what they mean,
// the access layer validates them before a definition is committed.
#include <string>
#include <utility>
#include <vector>

#include "common/index_kind.h"

namespace raydb {

struct IndexDefinition {
  std::string name;
  std::string table;   // catalog table name
  std::string column;  // column name as stored (the first one of a multi-column index)
  std::string kind;    // "rt", "sorted", "hash" or "rtscan" (lower case)
  std::vector<std::pair<std::string, std::string>> options;  // in the order written
  // Every indexed column in order, for kinds over several columns (rtscan); empty
  // means just `column`, so single-column definitions stay as they were written.
  std::vector<std::string> columns;

  std::vector<std::string> column_list() const { return columns.empty() ? std::vector<std::string>{column} : columns; }
  // Only the RT scan indexes several columns.
  static bool multi_column_kind(const std::string& kind) { return kind == "rtscan"; }

  // The index kinds the catalog accepts.
  static bool known_kind(const std::string& kind) { return parse_index_kind(kind).has_value(); }
};

}  // namespace raydb
