#pragma once
// Small helpers shared by the CLI commands.
#include <string>
#include <vector>

#include "raydb/raydb.h"

namespace raydb::cli {

// The SQL text of a command: the positional argument, or the file given with -f
// ("-" reads standard input). Exactly one of the two must be given.
std::string read_sql(const std::string& positional, const std::string& file);
// Opens an existing database, with the CLI's error wording.
std::unique_ptr<Database> open_database(const std::string& dir);
// Applies --set name=value options to the connection's settings (kInvalidInput for a
// malformed pair, an unknown name or a bad value).
void apply_settings(const std::vector<std::string>& pairs, QueryOptions& options);
// Prints a result in the chosen format to stdout.
void print_result(const QueryResult& r, OutputFormat f);

}  // namespace raydb::cli
