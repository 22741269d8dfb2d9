#pragma once
// A column handed to raydb from outside the engine (the Python package's Arrow
// import, embedders): plain pointers to values already in stored form, so callers need
// none of the engine's internal types. Database::register_table and create_table copy
// the values; the pointers need only live for the call.
#include <cstdint>
#include <string>

#include "raydb/types.h"

namespace raydb {

struct ColumnInput {
  std::string name;
  Type type;  // INTEGER, BIGINT, DOUBLE, DECIMAL(p<=18,s), DATE, BOOLEAN, TIMESTAMP or VARCHAR
  uint64_t rows = 0;
  // INTEGER, DATE: int32 (days since 1970-01-01); BOOLEAN: int32 0/1; BIGINT, DECIMAL:
  // int64 (scaled by 10^s); TIMESTAMP: int64 microseconds since 1970-01-01 00:00:00;
  // DOUBLE: double. `rows` values.
  const void* values = nullptr;
  // VARCHAR, Arrow's large_utf8 layout: string i is chars[offsets[i], offsets[i+1]).
  const int64_t* offsets = nullptr;
  const char* chars = nullptr;
  // NULLs, Arrow's validity layout: row i holds a value when bit (validity_offset + i)
  // of `validity` (LSB first) is set. nullptr: no NULL. The column is nullable.
  const uint8_t* validity = nullptr;
  uint64_t validity_offset = 0;
};

}  // namespace raydb
