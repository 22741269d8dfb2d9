#pragma once
// Guesses how a CSV file is written, from a sample of its first records, the way
// DuckDB's read_csv_auto does: the delimiter (',', '|', ';' or tab: the one that splits
// every sampled record into the same number of fields, the most fields winning), whether
// the first record is a header, and each column's type.
//
// Types: the narrowest of INTEGER, BIGINT, DECIMAL(p,s) (plain decimals of at most 18
// digits; exact, where DuckDB says DOUBLE), DOUBLE, DATE (YYYY-MM-DD), TIMESTAMP
// (YYYY-MM-DD[ T]HH:MM:SS[.ffffff], dates mixed in), BOOLEAN (true/false) that holds
// every sampled value, else VARCHAR. An empty unquoted field (or the null string) is
// NULL and says nothing about the type; a column of NULLs is VARCHAR.
//
// Header: as DuckDB decides it. When the records after the first give some column a
// type other than VARCHAR that the first record's value does not fit, the first record
// is a header; when every column is VARCHAR, it is a header unless one of its fields is
// empty. Header names that are not identifiers are made into ones; without a header
// the columns are column0, column1, ... (DuckDB's names).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "storage/table.h"

namespace raydb {

struct CsvSniffOptions {
  std::optional<char> delimiter;  // given: not guessed
  std::optional<bool> header;     // given: not guessed
  std::string null_string;        // unquoted text read as NULL (default: the empty field)
  // Given (appending to a table): only the delimiter and the header are guessed, and the
  // header test uses these types.
  std::optional<std::vector<ColumnDef>> schema;
  size_t sample_records = 20480;              // DuckDB's sample size
  size_t sample_bytes = size_t(16) << 20;     // read at most this much of the file
};

struct CsvSniff {
  char delimiter = ',';
  bool header = false;
  std::vector<ColumnDef> schema;   // all nullable
  std::vector<std::string> notes;  // one line each: remarks on the guess (none today)
  size_t sampled_records = 0;
};

// Reads the start of `path`. Error(kIO) when it cannot be read, Error(kLoad) when it
// holds no record or its sampled records cannot be split consistently.
CsvSniff sniff_csv(const std::string& path, const CsvSniffOptions& options);

// "name TYPE, ..." as parse_schema reads it back (and `raydb load csv --schema` takes).
std::string schema_text(const std::vector<ColumnDef>& schema);

}  // namespace raydb
