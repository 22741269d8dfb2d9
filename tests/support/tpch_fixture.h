#pragma once
// TPC-H data made by `raydb gen tpch`, opened through the API and copied into a
// SQLite oracle (with indexes on the join keys the correlated subqueries probe), and
// the translation of the 22 query texts into SQLite's dialect.
#include <string>

#include "common/error.h"
#include "support/fixtures.h"

namespace raydb::test {

// TPC-H at scale factor `sf` ("0.01", "1"), built once per process. With
// RAYDB_TPCH_SF1_DB set, sf "1" uses that existing database instead of generating one.
// The SQLite copy is made on the first call with `with_oracle` (until then `oracle`
// is null), so a test that only needs raydb does not pay for it.
OracleFixture& tpch_fixture(const std::string& sf, bool with_oracle = true);

// The text SQLite runs for TPC-H query `name` ("q1".."q22") written as `sql`:
//   - `date 'D' +/- interval 'N' day|month|year [(p)]` becomes the computed date
//     'YYYY-MM-DD' (SQLite has no interval arithmetic; dates are ISO text there);
//   - `extract(year from x)` becomes cast(strftime('%Y', x) as integer);
//   - `substring(x from a for b)` becomes substr(x, a, b);
//   - q13: the derived table's column list `c_orders (c_custkey, c_count)` becomes
//     an alias inside it (SQLite has no column lists on derived tables);
//   - q6: `between 0.06 - 0.01 and 0.06 + 0.01` becomes `between 0.05 and 0.07`
//     (in SQLite's binary doubles 0.06 + 0.01 < 0.07, which would drop the rows with
//     discount 0.07 that the exact DECIMAL comparison keeps);
// then sqlite_dialect (date literals, NULL ordering).
std::string tpch_sqlite_text(const std::string& name, const std::string& sql);

// Is `kind` one of "raydb does not accept this SQL yet" (parse, binder, not
// implemented)? Such queries are skipped with the error, not failed.
bool tpch_not_supported(ErrorKind kind);

}  // namespace raydb::test
