#pragma once
// LIMIT (and OFFSET) on rows that are neither aggregated, ordered, made DISTINCT nor
// windowed keep the first rows the scan produces: the executors need read only a
// prefix of the scan (`select * from big limit 3` reads a few thousand rows, not the
// table).
#include <cstdint>
#include <optional>

#include "plan/logical/logical_query.h"

namespace raydb::plan {

// The rows (LIMIT + OFFSET) a scan must produce before it can stop; nothing when the
// query needs all of them.
std::optional<uint64_t> scan_prefix_rows(const LogicalQuery& q);

}  // namespace raydb::plan
