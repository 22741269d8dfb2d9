#pragma once
// Loads one table from CSV files.
#include <string>
#include <vector>

#include "storage/table.h"

namespace raydb {

struct CsvLoadOptions {
  bool header = false;     // skip the first line of every file
  char delimiter = ',';
  // An existing table of that name is an error unless `replace`: a load never
  // destroys data silently.
  bool replace = false;
  // Unquoted text read as NULL in nullable columns (default: the empty field).
  std::string null_string;
  bool null_string_given = false;
  // Without a schema (load_csv_report with an empty schema text) these are guessed
  // from the first file unless given.
  bool delimiter_given = true;
  bool header_given = true;
  // Append the rows to the table when it exists (its schema; --schema must then be
  // empty); excludes `replace`.
  bool append = false;
  // Sort the rows by these columns before writing (storage/table_sort.h); not with append.
  std::vector<std::string> sort_by;
};

// What a load did, for the CLI to print.
struct CsvLoadReport {
  uint64_t rows = 0;
  std::vector<ColumnDef> schema;   // the table's columns
  char delimiter = ',';
  bool header = false;
  bool sniffed = false;            // the schema was guessed (sniff_csv)
  bool appended = false;           // the table existed and got the rows
  std::vector<std::string> notes;  // the sniffer's remarks
};

// Whether `name` is usable as a table name: letters, digits and '_', not starting
// with a digit.
bool is_valid_table_name(std::string_view name);

// Parses `files` (rows concatenated in order) into a table; touches no database.
TablePtr read_csv_table(const std::string& table, const std::vector<ColumnDef>& schema,
                        const std::vector<std::string>& files, const CsvLoadOptions& options);

// Parses the schema ("name TYPE, ..."), reads the files, then creates (or, with
// `replace`, replaces) `table` in the database at `db_path` (created when missing or
// empty) in one atomic commit. A failure at any point leaves the database as it was.
// Returns the row count.
uint64_t load_csv(const std::string& db_path, const std::string& table, const std::string& schema_text,
                  const std::vector<std::string>& files, const CsvLoadOptions& options);

// load_csv, and more: an empty `schema_text` means the columns are guessed from the
// first file (csv_sniffer.h), as are the delimiter and the header where not given;
// with `append`, an existing table gets the rows (its schema; delimiter and header
// guessed against it when not given). The guess only ever reads a sample, so a later
// record that does not fit fails the whole load with its file and line.
CsvLoadReport load_csv_report(const std::string& db_path, const std::string& table, const std::string& schema_text,
                              const std::vector<std::string>& files, const CsvLoadOptions& options);

}  // namespace raydb
