#pragma once
// Appending rows to a stored table (INSERT, COPY FROM): a new Table with the old rows
// followed by the new ones, in heap memory, ready for DatabaseDirectory to write as a
// new generation. Tables are immutable, so the old one stays valid for readers.
#include "storage/table.h"

namespace raydb {

// `base`'s rows then `rows`' rows. The schemas must match column for column (names
// and types); VARCHAR columns get one merged order-preserving dictionary and both
// sides' codes are remapped into it; statistics are recomputed.
TablePtr append_rows(const Table& base, const Table& rows);

}  // namespace raydb
