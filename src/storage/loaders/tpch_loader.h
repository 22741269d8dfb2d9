#pragma once
// Loads the eight TPC-H tables from dbgen .tbl files ('|' separated, trailing '|').
#include <string>
#include <vector>

#include "storage/table.h"

namespace raydb {

// Parses the eight tables (tpch::schema()) from "<table>.tbl" (or "<table>.tbl.1" ..
// "<table>.tbl.N", dbgen's split output) in `tbl_dir`; touches no database.
std::vector<TablePtr> read_tpch_tables(const std::string& tbl_dir);

// Reads all eight tables, then writes them into the database at `db_path` (created
// when missing or empty) in one atomic commit that replaces existing TPC-H tables.
// A failure at any point leaves the database as it was.
// `sort_by`: the tables having those columns are sorted by them (storage/table_sort.h).
void load_tpch(const std::string& db_path, const std::string& tbl_dir, const std::vector<std::string>& sort_by = {});

}  // namespace raydb
