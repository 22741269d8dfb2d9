#pragma once
// Small helpers shared by the CLI commands.
#include <string>

#include "raydb/raydb.h"

namespace raydb::cli {

// The SQL text of a command: the positional argument, or the file given with -f
// ("-" reads standard input). Exactly one of the two must be given.
std::string read_sql(const std::string& positional, const std::string& file);
// Opens an existing database, with the CLI's error wording.
std::unique_ptr<Database> open_database(const std::string& dir);
// Prints a result in the chosen format to stdout.
void print_result(const QueryResult& r, OutputFormat f);

}  // namespace raydb::cli
