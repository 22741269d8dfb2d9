#pragma once
// ORDER BY keys as rows of signed 64-bit words whose lexicographic order is
// compare_order_rows' order (order_compare.h), so the final sort is a radix sort over
// integers instead of a comparison sort through Vectors: per key a NULL word (when the
// key holds a NULL: placed first or last as the item says), then its value word(s) -
// integers and codes as they are, HUGEINT as two words, DOUBLE by its bits (-0.0 as
// 0.0, every NaN one value above +inf), strings by their rank among the key's distinct
// strings (byte order), each negated bitwise when descending. TPC-H Q16's 27,840 groups
// ordered by a count and two string keys took 8 ms through the comparator on the GPU
// host.
#include <cstdint>
#include <vector>

#include "exec/core/vector.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec {

// Words per row order_words writes for these keys.
size_t order_width(const std::vector<Vector>& keys);

// Row i's words at out[i * width ..], width = order_width(keys); keys[k] is ordered
// by items[k].
std::vector<int64_t> order_words(const std::vector<Vector>& keys, const std::vector<plan::OrderItem>& items,
                                 size_t n);

// The rows in ORDER BY order, ties by row index; only the first `limit` when limit >= 0.
std::vector<uint32_t> ordered_rows(const std::vector<Vector>& keys, const std::vector<plan::OrderItem>& items,
                                   size_t n, int64_t limit);

}  // namespace raydb::exec
