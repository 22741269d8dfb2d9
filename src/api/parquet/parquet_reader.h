#pragma once
// Parquet files as a table, through the Arrow/Parquet C++ libraries (an optional build
// feature, RAYDB_HAVE_PARQUET; without it every call fails in one line saying so).
//
// Types: int8/16/32 and uint8/16 -> INTEGER; int64 and uint32 -> BIGINT; uint64 ->
// BIGINT (a value over 2^63-1 is an error); float, double -> DOUBLE; decimal with
// precision <= 18 -> DECIMAL(p,s) (wider ones are an error: raydb stores 18 digits);
// date32/date64 -> DATE; string, large_string and dictionaries of them -> VARCHAR;
// bool -> BOOLEAN; timestamp (s, ms, us, ns) -> TIMESTAMP in microseconds, exactly (a
// value out of range, or nanoseconds that are not whole microseconds, is an error; a
// time zone is dropped with a note: the UTC instant); NULLs stay NULL. Anything else
// (lists, structs, binary, time) is an error naming the column.
#include <string>
#include <vector>

#include "storage/table.h"

namespace raydb::api {

// Whether this build reads and writes Parquet.
bool parquet_available();

// The rows of `files`, in order, as table `name` (every file must have the same
// columns). `notes` (when given) gets one line per timestamp column whose zone is dropped.
// Error(kIO) for unreadable files, kLoad for bad ones or unsupported types.
TablePtr read_parquet_table(const std::string& name, const std::vector<std::string>& files,
                            std::vector<std::string>* notes = nullptr);

}  // namespace raydb::api
