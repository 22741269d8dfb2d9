#pragma once
// keys LEFT JOIN per_key ON keys.k = per_key.k built on the host, for the table over an
// outer key's domain (binder_correlated_domain.cpp) when per_key holds one row per key:
// each keys row once, with its per_key row's columns or NULLs. Run as a LEFT JOIN block
// it took five blocks (matched rows, the anti join's key list, unmatched rows, their
// concatenation) that each carried every key through a backend and back (TPC-H Q21 at
// SF 20: 1.4 M keys); here it is one hash lookup per key.
#include <optional>
#include <string>
#include <vector>

#include "sql/temp_table.h"

namespace raydb::sql {

// `keys`: its column 0 (no NULL); `per_key`: column 0 the key, the others carried.
// Output columns: names[0] = keys' key, then names[i] = per_key's column i. nullopt
// (the caller runs the LEFT JOIN as a block) unless both keys are integer-stored of
// one type and per_key's non-NULL keys are distinct.
std::optional<TempTable> left_join_unique_keys(const TempTable& keys, const TempTable& per_key,
                                               const std::vector<std::string>& names, const std::string& table_name,
                                               const std::string& what);

}  // namespace raydb::sql
