#pragma once
// The Star Schema Benchmark's five tables in specification column order (also the
// column order of dbgen's .tbl files). Keys and prices are INTEGER, dates yyyymmdd
// INTEGER keys, text VARCHAR, as the standard SSB query texts expect.
#include <string>
#include <vector>

#include "storage/table.h"

namespace raydb::ssb {

struct TableSchema {
  std::string name;
  std::vector<ColumnDef> columns;
};

// lineorder, customer, supplier, part, date (in this order).
const std::vector<TableSchema>& schema();
const TableSchema& table_schema(std::string_view name);  // kInvalidInput when unknown

}  // namespace raydb::ssb
