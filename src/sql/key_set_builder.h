#pragma once
// The KeySet of a subquery's column 0 (x [NOT] IN (SELECT ...), decorrelated [NOT]
// EXISTS), read straight from the column's stored words: no per-row Value, no row
// indices. A key reduction's key table is read by two or more subqueries of one
// statement (TPC-H Q21's EXISTS and NOT EXISTS), so the last sets built are kept by the
// identity of the buffer they were read from and handed out again while it lives, until
// the statement ends (KeySetScope).
#include "plan/logical/key_set.h"
#include "sql/temp_table.h"

namespace raydb::sql {

// nullptr when column 0 is not stored as integer words of its SQL type (KeySet::holds)
// or holds NULLs in its own validity; the set's has_null() tells of NULL rows flagged by
// the table's indicator column.
plan::KeySetPtr key_set_of_column(const TempTable& t);

// Forgets this thread's kept sets when it goes out of scope: one per statement, so a
// statement's sets (tens of MB at SF 20) are not held after it.
class KeySetScope {
 public:
  KeySetScope() = default;
  KeySetScope(const KeySetScope&) = delete;
  KeySetScope& operator=(const KeySetScope&) = delete;
  ~KeySetScope();
};

// Wall time this thread spent in key_set_of_column (RAYDB_TRACE_BLOCKS splits binding
// with it).
double key_set_build_ms();

}  // namespace raydb::sql
