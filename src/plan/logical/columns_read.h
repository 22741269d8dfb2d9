#pragma once
// The stored columns a query reads, checked before anything reads them: each column's
// one-time verifier (Column::verify: e.g. dictionary codes within the dictionary) runs
// here, on the calling thread, so corruption is a one-line error before executors,
// index builds or worker threads touch the data, where an exception could not travel.
#include <cstdint>
#include <functional>

#include "plan/logical/logical_query.h"

namespace raydb::plan {

// Runs Column::verify() on every base column `q` refers to (WHERE/ON, GROUP BY,
// aggregate arguments, HAVING, SELECT, ORDER BY) for which `skip` is false (the
// backend verifies it as it loads it). Throws the first column's error.
void verify_columns_read(const LogicalQuery& q, const std::function<bool(const Column&)>& skip = {});
// The stored bytes of those columns (rows x physical width), each counted once.
uint64_t stored_bytes_read(const LogicalQuery& q);
// Whether `q` reads a stored column of type `column_type`, or any of its expressions
// (aggregates included) has type `expr_type` (kNull: no expression check). For
// backends that decline types they do not run (the CUDA backend: BOOLEAN columns and
// TIMESTAMP values).
bool query_touches_type(const LogicalQuery& q, TypeId column_type, TypeId expr_type);

}  // namespace raydb::plan
