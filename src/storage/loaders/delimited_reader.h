#pragma once
// Fast reader for delimited text: dbgen .tbl files (pipe-separated, every line ends
// with a trailing '|') and CSV (any one-byte delimiter, optional header line, RFC 4180
// double-quote quoting, CRLF tolerated). Files are mapped, split into chunks at record
// boundaries and parsed in parallel straight into typed column arrays; VARCHAR
// columns get one order-preserving dictionary for the whole input.
//
// Field rules:
// - NULL: in a nullable column (ColumnDef::nullable), an unquoted field whose text is
//   the format's null string (default: the empty field, as PostgreSQL's and DuckDB's
//   CSV readers) is NULL; a quoted one ("") never is. In a NOT NULL column the null
//   string given explicitly is an error; the default empty field reads as below.
// - INTEGER (range-checked 32-bit), BIGINT, DOUBLE, DECIMAL(p,s) (exact), DATE
//   (YYYY-MM-DD): spaces and tabs around the text are ignored; an empty field of a
//   NOT NULL column is an error.
// - VARCHAR: the text as is; an empty field of a NOT NULL column is the empty string.
// - Lines that are completely empty are skipped.
// - With quoting, a field that starts with '"' runs to the matching '"' ("" is one
//   quote, delimiters and newlines inside are data); a '"' inside an unquoted field is
//   an error. This keeps record boundaries decidable by quote parity, which is what
//   lets a file be split for parallel parsing.
// Errors are Error(kLoad) "<file>:<line>: <what was expected>", for the first bad
// record in file order; Error(kIO) for files that cannot be read.
#include <cstddef>
#include <string>
#include <vector>

#include "storage/table.h"

namespace raydb {

struct DelimitedFormat {
  char delimiter = ',';
  bool quoting = true;              // RFC 4180 double quotes
  bool header = false;              // skip the first record of every file
  bool trailing_delimiter = false;  // dbgen: the delimiter also ends each line
  size_t chunk_bytes = size_t(8) << 20;  // unit of parallel work (tests make it tiny)
  std::string null_string;                // unquoted text read as NULL in nullable columns
  bool null_string_given = false;         // set explicitly (COPY ... (NULL 'x'), --null)

  static DelimitedFormat tbl() {
    DelimitedFormat f;
    f.delimiter = '|';
    f.quoting = false;
    f.trailing_delimiter = true;
    return f;
  }
  static DelimitedFormat csv(char delimiter = ',', bool header = false) {
    DelimitedFormat f;
    f.delimiter = delimiter;
    f.header = header;
    return f;
  }
};

// Reads `files` in order (their rows concatenated) into a table of `schema`.
// `label` names the input in progress lines (printed for inputs over 64 MiB).
TablePtr read_delimited_table(const std::string& table_name, const std::vector<ColumnDef>& schema,
                              const std::vector<std::string>& files, const DelimitedFormat& format,
                              const std::string& label = "");

}  // namespace raydb
