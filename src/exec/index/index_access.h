#pragma once
// Executing the index access paths of a physical plan (plan/physical/access_path.h):
// the lookups of an index scan, its candidate rows, and the probe keys of an index
// join turned into normalized lookups.
#include <optional>
#include <vector>

#include "exec/core/column_predicate.h"
#include "exec/index/built_index.h"

namespace raydb::exec {

// Lookups that answer `pred` (compiled over the index's column) through `index`;
// nullopt when the index cannot (a hash index and a range wider than a few thousand
// values). Point ranges become point lookups.
std::optional<std::vector<access::KeyRange>> scan_lookups(const BuiltIndex& index, const ColumnPredicate& pred);

// The candidate rows of an index scan, ascending (the order a scan produces them).
// The caller still applies all of the table's filters to them.
std::vector<uint32_t> index_scan_rows(const plan::IndexScan& scan, const plan::LogicalQuery& q);

}  // namespace raydb::exec
