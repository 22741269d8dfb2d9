#pragma once
// JSON lines (one JSON object per line, as DuckDB's read_json_auto reads
// newline-delimited JSON) into a table, parsed with nlohmann_json.
//
// Without a schema the columns are the keys in the order first seen over a sample of
// the first file's lines (20480, DuckDB's sample), each typed by its values: integers
// INTEGER or BIGINT (by range), numbers with a fraction DOUBLE, strings that are all
// dates DATE, other strings VARCHAR; booleans, timestamps, objects and arrays, which
// raydb does not store as such, are VARCHAR (their text) with a note; a column of only
// nulls is VARCHAR. A key outside the sample is an error (give a schema). With a schema,
// keys that are not columns are ignored. Missing keys and JSON null are NULL.
// Errors: Error(kLoad) "<file>:<line>: <what>", one line; Error(kIO) for unreadable files.
#include <string>
#include <vector>

#include "storage/table.h"

namespace raydb {

struct JsonlSniff {
  std::vector<ColumnDef> schema;   // all nullable
  std::vector<std::string> notes;  // columns kept as text, and why
};

// Guesses the columns from the first lines of `path`.
JsonlSniff sniff_jsonl(const std::string& path, size_t sample_lines = 20480);

// Reads `files` in order into a table of `schema`.
TablePtr read_jsonl_table(const std::string& table, const std::vector<ColumnDef>& schema,
                          const std::vector<std::string>& files, bool ignore_unknown_keys);

}  // namespace raydb
