#pragma once
// A query result written to a file (COPY (SELECT ...) TO, raydb export --query).
#include <cstdint>
#include <string>

#include "raydb/raydb.h"

namespace raydb::api {

// CSV as `raydb export` writes it (COPY FROM reads it back exactly): NULL as
// `null_string`, an empty or NULL-text string quoted; the file replaced atomically.
// Returns the rows written.
uint64_t write_result_csv(const QueryResult& r, const std::string& file, char delimiter, bool header,
                          const std::string& null_string);

}  // namespace raydb::api
