#pragma once
// What the catalog knows about an RT view (CREATE RT VIEW): its name, the base tables
// it joins and the version of each it was materialized from, the directory holding
// its encoded rows, and its definition as JSON text. storage/ does not know what the
// definition means (access/rt_view parses it); it only keeps it, and the rows
// directory, under the same atomic manifest commits as tables and indexes.
#include <cstdint>
#include <string>
#include <vector>

namespace raydb {

struct RtViewEntry {
  std::string name;
  std::vector<std::string> tables;    // catalog names: the fact table first
  std::vector<std::string> versions;  // per table: DatabaseDirectory::table_version when materialized
  std::string dir;                    // rows directory, relative to the database directory
  std::string definition;             // JSON text (access/rt_view/view_definition.h)
  uint64_t rows = 0;                  // view rows
  uint64_t bytes = 0;                 // bytes of the rows directory's arrays
};

}  // namespace raydb
