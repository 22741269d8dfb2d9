#pragma once
// A query result as a Parquet file (Arrow/Parquet C++, RAYDB_HAVE_PARQUET): written to
// a temporary file beside `path`, then renamed over it, so a failure leaves `path` as
// it was.
//
// Types: INTEGER int32, BIGINT int64, HUGEINT decimal(38,0), DOUBLE double,
// DECIMAL(p,s) decimal(p,s), DATE date32, VARCHAR string, BOOLEAN bool; NULLs as nulls.
#include <cstdint>
#include <string>

#include "raydb/raydb.h"

namespace raydb::api {

// Returns the rows written. Error(kIO) when the file cannot be written; kInvalidInput
// without Parquet support in this build.
uint64_t write_parquet(const QueryResult& result, const std::string& path);

}  // namespace raydb::api
