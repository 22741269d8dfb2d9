#pragma once
// SQLite as the SQL oracle: load raydb tables into an in-memory SQLite database, run
// the same SQL text there, and compare the results with raydb's.
//
// Type mapping (raydb -> SQLite):
//   INTEGER, BIGINT -> INTEGER          exact
//   DOUBLE          -> REAL             exact
//   DECIMAL(p,s)    -> REAL             scaled / 10^s, correctly rounded; sums and products
//                                       in SQLite are then binary floating point, so
//                                       decimals compare numerically with a relative
//                                       tolerance (kRelTolerance), not digit for digit
//   DATE            -> TEXT 'YYYY-MM-DD' ordering, equality, MIN/MAX and comparisons with
//                                       date literals behave as for DATE; date arithmetic
//                                       does not (give such tests their own SQLite text)
//   VARCHAR         -> TEXT             BINARY collation = raydb's bytewise order
//   BOOLEAN         -> INTEGER 0/1      results only (SQLite's TRUE/FALSE are 1/0)
//   TIMESTAMP       -> TEXT             results only, as 'YYYY-MM-DD HH:MM:SS[.ffffff]';
//                                       whole seconds order as the timestamps do
//
// Where SQLite's semantics differ from PostgreSQL's (which raydb follows), the oracle
// adjusts SQLite, not the test:
//   - LIKE: `PRAGMA case_sensitive_like = ON` (SQLite's LIKE is ASCII case-insensitive
//     by default; PostgreSQL's and raydb's are case-sensitive).
//   - NULL ordering: PostgreSQL sorts NULLs last in ASC and first in DESC; SQLite does
//     the opposite. The oracle appends NULLS LAST / NULLS FIRST to each ORDER BY item of
//     the SQLite text.
//   - Date literals: `DATE '1995-03-15'` is rewritten to '1995-03-15' for SQLite.
//   - Division by zero gives NULL in SQLite and an error in raydb; error behaviour is
//     tested through the CLI, not through the oracle.
//   - SQLite's SUM over INTEGER fails beyond int64, raydb widens to HUGEINT; avoid such
//     sums in oracle tests.
//
// Comparison: same column count, same row count, cells equal after canonicalization
// (integers exactly; any REAL/DOUBLE/DECIMAL operand numerically within kRelTolerance;
// DATE as its 'YYYY-MM-DD' text; strings exactly; NULL only equals NULL).
// Ordering: without ORDER BY the rows compare as multisets. With ORDER BY, the items
// must name output columns (alias, column name, expression text as in the SELECT list,
// or ordinal); both results are cut into runs of equal sort keys, the runs must appear
// in the same order with the same keys, and each run compares as a multiset (ties may
// come in any order). With LIMIT/OFFSET, the first run (OFFSET) and the last run
// (LIMIT) may be cut anywhere inside a tie, so only their keys and sizes must match.
// Without ORDER BY, LIMIT makes any subset correct: only the row count is compared.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "raydb/raydb.h"
#include "storage/persist/database_directory.h"

struct sqlite3;

namespace raydb::test {

inline constexpr double kRelTolerance = 1e-9;

// One canonical result cell.
struct Cell {
  enum class Kind { kNull, kInt, kReal, kText };
  Kind kind = Kind::kNull;
  __int128 i = 0;
  double d = 0;
  std::string s;

  static Cell null() { return {}; }
  static Cell integer(__int128 v) { Cell c; c.kind = Kind::kInt; c.i = v; return c; }
  static Cell real(double v) { Cell c; c.kind = Kind::kReal; c.d = v; return c; }
  static Cell text(std::string v) { Cell c; c.kind = Kind::kText; c.s = std::move(v); return c; }
  std::string to_string() const;  // NULL, 42, 2.5, 'text'
};
using Row = std::vector<Cell>;

struct Rows {
  std::vector<std::string> names;
  std::vector<Row> rows;
};

bool cells_equal(const Cell& a, const Cell& b);
// Total order for sorting (NULL < numbers < text); numbers within tolerance compare equal.
int compare_cells(const Cell& a, const Cell& b);

Cell canonical_cell(const Value& v);
Rows canonical_rows(const QueryResult& r);

// The parts of a SELECT's text that the comparison needs (outermost query block).
struct SqlShape {
  struct OrderItem {
    std::string text;  // as written, without ASC/DESC/NULLS ...
    bool descending = false;
    bool explicit_nulls = false;  // NULLS FIRST/LAST written
    size_t begin = 0, end = 0;    // byte range of the whole item in the SQL text
  };
  std::vector<OrderItem> order_by;
  bool has_limit = false;
  bool has_offset = false;
};
SqlShape analyze_sql(const std::string& sql);
// The SQL text SQLite runs for `sql` (date literals, NULL ordering; see above).
std::string sqlite_dialect(const std::string& sql);

// Output column of each ORDER BY item, or an error text naming the item that is not one.
std::optional<std::vector<size_t>> resolve_order_columns(const SqlShape& shape,
                                                         const std::vector<std::string>& names,
                                                         std::string& error);

// Compares `actual` (raydb) with `expected` (SQLite) under `shape`. Empty when they
// match; otherwise a readable report of the first differences.
std::string diff_results(const Rows& expected, const Rows& actual, const SqlShape& shape);

class SqliteOracle {
 public:
  SqliteOracle();
  ~SqliteOracle();
  SqliteOracle(const SqliteOracle&) = delete;
  SqliteOracle& operator=(const SqliteOracle&) = delete;

  // Copies a raydb table into SQLite (CREATE TABLE + INSERT in one transaction).
  void load_table(const Table& table);
  // Copies every table of a database directory.
  void load_database(const DatabaseDirectory& dir);
  // CREATE INDEX on one column (helps SQLite's joins at larger scale factors).
  void create_index(const std::string& table, const std::string& column);
  void analyze();  // ANALYZE, so SQLite's planner picks sensible join orders

  // Runs `sql` as written (no dialect rewriting). Throws std::runtime_error with
  // SQLite's message on failure.
  Rows query_raw(const std::string& sql);
  void exec(const std::string& sql);

 private:
  sqlite3* db_ = nullptr;
};

// Runs `sql` on raydb (through `db`) and on SQLite (`sqlite_sql` when not empty, else
// sqlite_dialect(sql)) and compares. The failure message holds the SQL and the diff.
// `expected_rows`, when given, receives SQLite's row count.
::testing::AssertionResult matches_sqlite(Database& db, SqliteOracle& oracle, const std::string& sql,
                                          const QueryOptions& options = {Backend::kCpu},
                                          const std::string& sqlite_sql = "", size_t* expected_rows = nullptr);

}  // namespace raydb::test
