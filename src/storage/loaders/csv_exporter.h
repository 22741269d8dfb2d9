#pragma once
// Writes a table as CSV: a header line with the column names, then one line per row
// with values as Column::get(row).to_string() prints them, quoted per RFC 4180 where
// needed (a delimiter, quote, CR or LF inside; an empty string in a one-column table,
// so that its line is not blank). Lines end with "\n".
#include <string>
#include <string_view>

#include "storage/table.h"

namespace raydb {

// True when `s` must be quoted as a CSV field.
bool csv_needs_quotes(std::string_view s, char delimiter);
// Appends `s` as one CSV field (quoted and with doubled quotes when needed).
void append_csv_field(std::string& out, std::string_view s, char delimiter);

// Writes into a temporary file beside `path`, fsyncs it and renames it over `path`,
// so a failed export leaves no partial file. Throws Error(kIO) naming the path.
// Returns the number of rows written.
// `header`: write the header line (COPY ... TO without HEADER leaves it out).
// NULLs are written as `null_string` (default: an empty field); a string value equal
// to it in a nullable column is quoted, so the file reads back the same.
uint64_t export_csv(const Table& table, const std::string& path, char delimiter = ',', bool header = true,
                    std::string_view null_string = {});

}  // namespace raydb
