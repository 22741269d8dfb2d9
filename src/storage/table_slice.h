#pragma once
// Contiguous row ranges of a table as tables of their own: the fact table split into
// shards by rows (raydb.distributed's shard_database) without a round trip through
// SQL or Arrow. Columns keep their type, dictionary and NOT NULL flag; statistics are
// computed over the slice (min/max are exact per shard, as a load would record them).
#include <cstdint>

#include "storage/table.h"

namespace raydb {

// Rows [begin, end) of `table`, copied. Throws kInvalidInput when the range is not
// within the table.
TablePtr slice_table(const Table& table, uint64_t begin, uint64_t end);

}  // namespace raydb
