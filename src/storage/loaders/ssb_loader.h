#pragma once
// Loads the Star Schema Benchmark's five tables from dbgen .tbl files.
#include <string>
#include <vector>

#include "storage/table.h"

namespace raydb {

// The files holding `table` in `tbl_dir`: "<table>.tbl", or else all of
// "<table>.tbl.1" .. "<table>.tbl.N" in numeric order (dbgen's split output; the
// numbers must run from 1 without gaps). Throws kIO when there are none.
std::vector<std::string> find_tbl_files(const std::string& tbl_dir, const std::string& table);

// Parses the five tables (ssb::schema()) into memory; touches no database.
std::vector<TablePtr> read_ssb_tables(const std::string& tbl_dir);

// Reads all five tables, then writes them into the database at `db_path` (created
// when missing or empty) in one atomic commit that replaces existing SSB tables. A
// failure at any point leaves the database as it was.
// `sort_by`: the tables having those columns are sorted by them (storage/table_sort.h).
void load_ssb(const std::string& db_path, const std::string& tbl_dir, const std::vector<std::string>& sort_by = {});

}  // namespace raydb
