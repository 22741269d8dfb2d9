#pragma once
// The eight TPC-H tables in specification column order (also the column order of
// dbgen's .tbl files), with the types of the specification's clause 1.4: keys and
// counts INTEGER, money and quantities DECIMAL(15,2), dates DATE, text VARCHAR.
// (Keys are INTEGER, so order keys limit the scale factor; see tpch::row_counts.)
#include <string>
#include <string_view>
#include <vector>

#include "storage/loaders/ssb_schema.h"
#include "storage/table.h"

namespace raydb::tpch {

using ssb::TableSchema;

// lineitem, orders, customer, part, partsupp, supplier, nation, region (in this order).
const std::vector<TableSchema>& schema();
const TableSchema& table_schema(std::string_view name);  // kInvalidInput when unknown

}  // namespace raydb::tpch
