#pragma once
// Results as sqllogictest prints and compares them: each value formatted by its
// column's type letter (I: integer, R: "%.3f", T: text with "(empty)" for '' and '@'
// for control characters; NULL as "NULL"), rows or values sorted as the sort mode
// says, and "N values hashing to <md5>" (the md5 of every value followed by '\n')
// when a result has more values than the hash threshold.
#include <string>
#include <vector>

#include "support/sqlite_oracle.h"

namespace raydb::slt {

// The result's values in order (after sorting), one string each. Throws
// std::runtime_error when the column count differs from types.size().
std::vector<std::string> format_values(const test::Rows& rows, const std::string& types, const std::string& sort);

// Lowercase hex md5 of the values, each followed by "\n".
std::string md5_of_values(const std::vector<std::string>& values);

// The expected lines of a record, flattened into values (a DuckDB-style line with tabs
// holds one row; `sort` applies to them as to results).
std::vector<std::string> expected_values(const std::vector<std::string>& lines, size_t columns, const std::string& sort);

}  // namespace raydb::slt
