#pragma once
// One record of a sqllogictest file (the test-file format of SQLite and DuckDB):
//
//   statement ok | statement error            then the SQL, up to a blank line; after
//                                             `statement error` an optional `----` line
//                                             and the expected message (a substring)
//   query <types> [nosort|rowsort|valuesort] [label]
//                                             then the SQL, `----`, and the results:
//                                             one value per line (SQLite) or one row per
//                                             line with tab-separated values (DuckDB), or
//                                             "N values hashing to <md5>"
//   hash-threshold N | halt                   control records
//   skipif <db> | onlyif <db>                 conditions, lines before a record
//
// Lines starting with '#' are comments. The runner replaces __TEST_DIR__ in SQL by a
// scratch directory of the file's run.
#include <string>
#include <vector>

namespace raydb::slt {

struct Record {
  enum class Kind { kStatement, kQuery, kHashThreshold, kHalt };
  Kind kind = Kind::kStatement;
  int line = 0;                      // 1-based line of the record's first line
  std::vector<std::string> skipif, onlyif;
  bool expect_error = false;         // statement error
  std::string error_text;            // statement error: expected substring (empty: any error)
  std::string sql;
  std::string types;                 // query: one of I, R, T per column
  std::string sort = "nosort";       // query: nosort | rowsort | valuesort
  std::string label;                 // query: results equal to every other query of this label
  bool has_results = false;          // query: a `----` line was given
  std::vector<std::string> results;  // query: the lines after `----`
  int threshold = 0;                 // hash-threshold
  // Line range [results_begin, results_end) of the result lines (0-based), or the line
  // where `----` and results would go (results_begin == results_end).
  size_t results_begin = 0, results_end = 0;
  // Whether this record runs on a database named `db`.
  bool applies_to(const std::string& db) const;
  // Whether it runs on a database that answers to every name in `dbs` (the public
  // corpus's results are SQLite's, so there raydb answers to "raydb" and "sqlite").
  bool applies_to_all(const std::vector<std::string>& dbs) const;
};

// Splits a file's text into records; throws std::runtime_error "file:line: what" on a
// malformed record.
std::vector<Record> parse_records(const std::string& text, const std::string& file);

}  // namespace raydb::slt
