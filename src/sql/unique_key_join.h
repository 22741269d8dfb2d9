#pragma once
// left LEFT JOIN right ON left.key = right.k built on the host when right holds one row
// per key (a grouped per-key table): each left row once, with its right row's columns
// or NULLs (or a given value). Used where the binder would otherwise run the outer join
// as blocks (matched rows, the anti join's key list, unmatched rows, their
// concatenation) that each carried every key through a backend and back:
//  - the table over an outer key's domain (binder_correlated_domain.cpp; TPC-H Q21 at
//    SF 20: 1.4 M keys);
//  - the group-join's rows (binder_group_join.cpp; TPC-H Q13: 3 M customers, 2 M with
//    orders).
// One lookup per left row (sql/unique_key_index.h), in parallel, reading the columns in
// place; a left column kept as it is shares its stored buffer.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sql/temp_table.h"
#include "sql/unique_key_index.h"

namespace raydb::sql {

// Per row of `left`: the row of `right` whose column 0 equals left's column `key`, or
// kNoMatch (a NULL key matches nothing, as in ON). nullopt unless both columns are
// integer-stored of one type and right's non-NULL keys are distinct.
std::optional<std::vector<uint32_t>> match_unique_keys(const TempTable& left, size_t key, const TempTable& right);

// Appends right's column c at each row's match as builder column `out`: NULL where no
// row matched, or `absent` when given (integer-stored columns only).
void append_matched(TempTableBuilder& b, size_t out, const TempTable& right, size_t c,
                    const std::vector<uint32_t>& match, std::optional<int64_t> absent = std::nullopt);

// Per row of `left`: each column cs[i] of `right` at the row whose column 0 equals
// left's column `key`, `absent` where none does (a NULL key matches none), as whole
// columns of right's stored types, built in one parallel pass each with no match array
// (TPC-H Q13's counts per customer). nullopt when match_unique_keys is, or a column is
// not integer-stored or holds NULLs: append_matched then.
std::optional<std::vector<ColumnPtr>> lookup_int_columns(const TempTable& left, size_t key, const TempTable& right,
                                                         const std::vector<size_t>& cs, int64_t absent);

// lookup_int_columns' columns with no index, when left's column `key` holds lo, lo + 1,
// ..., lo + rows - 1 in order (a stored key column as loaded: TPC-H's c_custkey) and
// right's non-NULL keys are known distinct (the keys of a GROUP BY): each right row's
// values written at its key's row, every other row `absent`. nullopt when left's keys
// are not so, or as lookup_int_columns. Right keys held twice are not detected here.
std::optional<std::vector<ColumnPtr>> scatter_int_columns(const TempTable& left, size_t key,
                                                          const TempTable& right_distinct,
                                                          const std::vector<size_t>& cs, int64_t absent);

// Whether column c of t is integer-stored, without NULLs, and holds no value twice.
bool distinct_int_column(const TempTable& t, size_t c);

// Column c of t (integer-stored) into the builder as column `out`, all rows: its
// buffer shared when it holds no NULL and is stored as the builder stores it (a stored
// table's key column), else copied.
bool append_int_column(TempTableBuilder& b, size_t out, const TempTable& t, size_t c);

// keys (its column 0, the domain's distinct keys) LEFT JOIN per_key: columns names[0]
// = the key, then names[i] = per_key's column i. nullopt when match_unique_keys is.
std::optional<TempTable> left_join_unique_keys(const TempTable& keys, const TempTable& per_key,
                                               const std::vector<std::string>& names, const std::string& table_name,
                                               const std::string& what);

}  // namespace raydb::sql
