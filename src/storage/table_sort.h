#pragma once
// Sorting a table by a sort key (load's --sort-by): every column reordered by one
// permutation, so rows stay whole, and the key recorded on the table for the catalog.
// Sorted rows give the zone maps (storage/zone_map.h) narrow per-block ranges on the
// key, which is what lets range predicates on it skip blocks.
#include <string>
#include <vector>

#include "storage/table.h"

namespace raydb {

// `table`'s rows ordered by `key` (column names, case-insensitive; ascending; NULLs
// first; DOUBLE NaN after every number, as ORDER BY puts it; ties keep their order).
// Throws kInvalidInput "unknown sort key column ..." or "... named twice" before
// sorting. An empty key returns the table unchanged.
TablePtr sort_table(const TablePtr& table, const std::vector<std::string>& key);

// Sorts each table of `tables` that has every column of `key` (load --sort-by over
// several tables, such as SSB's lineorder by lo_orderdate); the others stay as they
// are. Throws kInvalidInput when no table has them all.
std::vector<TablePtr> sort_tables(const std::vector<TablePtr>& tables, const std::vector<std::string>& key);

// Splits "a,b" into column names (trimmed); throws kInvalidInput on an empty name.
std::vector<std::string> parse_sort_key(const std::string& text);

}  // namespace raydb
