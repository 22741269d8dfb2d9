#pragma once
// The order of equal values within a column's rank interval. Any order keeps the rank
// encoding exact (all copies of a value still take one contiguous interval), but row
// order would make skewed columns' ranks move together: on Zipf data the rows where
// two columns both hold their most frequent value would get ranks in the same order in
// both, a line across the RT structure's cells rather than a spread. A per-column
// bijective hash of the row spreads them as on unique data. Host and device use the
// same function, so both encodings give identical ranks.
#include <cstdint>

#include "common/hash_mix.h"

namespace raydb::access::rt_scan {

// A bijection on 32-bit rows (xor with a per-column constant, then Murmur3's 32-bit
// finalizer), so ties order totally and deterministically.
RAYDB_HOST_DEVICE uint32_t tie_order(uint32_t row, uint32_t column) { return fmix32(row ^ (0x9E3779B9u * (column + 1))); }

}  // namespace raydb::access::rt_scan
