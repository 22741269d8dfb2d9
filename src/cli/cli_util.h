#pragma once
// Small helpers shared by the CLI commands.
#include <sstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "raydb/raydb.h"

namespace raydb::cli {

// The SQL text of a command: the positional argument, or the file given with -f
// ("-" reads standard input). Exactly one of the two must be given.
std::string read_sql(const std::string& positional, const std::string& file);
// Opens an existing database, with the CLI's error wording.
// `create`: a missing or empty directory becomes an empty database (--create).
std::unique_ptr<Database> open_database(const std::string& dir, bool create = false);
// Applies --set name=value options to the connection's settings (kInvalidInput for a
// malformed pair, an unknown name or a bad value).
void apply_settings(const std::vector<std::string>& pairs, QueryOptions& options);
// Starts the GPU warm-up (raydb/system.h) when the backend may use the GPU and the
// setting device_warmup is on: as soon as the command knows, before the open.
// `one_shot` (raydb query): only for a GPU backend the user named. Under `auto` the
// plan picks the backend a few milliseconds later, before the warm-up could have
// hidden anything, and a query that goes to the CPU must not pay for a device (a
// thread taking a core, an exit that cannot wait for it).
void start_gpu_warmup_for(const QueryOptions& options, bool one_shot);
// Prints a result in the chosen format to stdout.
void print_result(const QueryResult& r, OutputFormat f);

// "a,b,c" as numbers of type T (kInvalidInput naming `flag` for one that is not).
template <typename T>
std::vector<T> comma_numbers(const std::string& s, const char* flag) {
  std::vector<T> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) {
    if (item.empty()) continue;
    std::stringstream one(item);
    T v{};
    if (!(one >> v) || !one.eof()) fail(ErrorKind::kInvalidInput, "{}: '{}' is not a number", flag, item);
    out.push_back(v);
  }
  return out;
}
// "a,b,c" as words (empty items dropped).
std::vector<std::string> comma_words(const std::string& s);

}  // namespace raydb::cli
