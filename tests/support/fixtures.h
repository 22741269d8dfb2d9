#pragma once
// Databases shared by the tests of one process: SSB data made by `raydb gen ssb` and
// small hand-made CSV tables loaded with `raydb load csv`, each opened through the API
// and copied into a SQLite oracle. Built on first use; kept until the process exits.
#include <memory>
#include <string>
#include <vector>

#include "raydb/raydb.h"
#include "support/sqlite_oracle.h"
#include "support/test_support.h"

namespace raydb::test {

struct OracleFixture {
  std::string path;                      // the database directory
  std::unique_ptr<Database> db;          // raydb on it
  std::unique_ptr<SqliteOracle> oracle;  // SQLite with the same data
  std::string error;                     // why it could not be built (then db is null)
};

// SSB at scale factor `sf` ("0.01", "1"). With RAYDB_SSB_SF1_DB set, sf "1" uses that
// existing database instead of generating one.
OracleFixture& ssb_fixture(const std::string& sf);

struct CsvTable {
  std::string name;
  std::string schema;  // "name TYPE, ..."
  std::string csv;     // RFC 4180, header line first
};
// emp, dept, proj (DECIMAL, DATE, DOUBLE, BIGINT, quotes, commas, unicode), empty
// (no rows), one (a single row).
const std::vector<CsvTable>& csv_tables();
// Loads csv_tables() into a new database at `db` with `raydb load csv`; error text or "".
std::string load_csv_tables(const std::string& db);
OracleFixture& csv_fixture();

}  // namespace raydb::test
