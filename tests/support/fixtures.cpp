#include "support/fixtures.h"

#include <cstdlib>
#include <map>

namespace raydb::test {

namespace {

void open_into(OracleFixture& f) {
  try {
    f.db = Database::open(f.path);
    f.oracle = std::make_unique<SqliteOracle>();
    f.oracle->load_database(f.db->directory());
  } catch (const std::exception& e) {
    f.db.reset();
    f.error = std::string("opening ") + f.path + " or copying it into SQLite failed: " + e.what();
  }
}

}  // namespace

OracleFixture& ssb_fixture(const std::string& sf) {
  static std::map<std::string, OracleFixture> cache;
  auto it = cache.find(sf);
  if (it != cache.end()) return it->second;
  OracleFixture& f = cache[sf];
  const char* existing = std::getenv("RAYDB_SSB_SF1_DB");
  if (sf == "1" && existing && *existing) {
    f.path = existing;
  } else {
    f.path = shared_ssb_database(sf, f.error);
    if (f.path.empty()) return f;
  }
  open_into(f);
  if (f.db) {
    try {
      // SQLite joins by index lookups; without these it builds automatic indexes per
      // query, which is slower at SF 1.
      f.oracle->create_index("customer", "c_custkey");
      f.oracle->create_index("supplier", "s_suppkey");
      f.oracle->create_index("part", "p_partkey");
      f.oracle->create_index("date", "d_datekey");
      f.oracle->analyze();
    } catch (const std::exception& e) {
      f.db.reset();
      f.error = e.what();
    }
  }
  return f;
}

const std::vector<CsvTable>& csv_tables() {
  static const std::vector<CsvTable> tables = {
      {"emp",
       "id INTEGER, name VARCHAR, dept VARCHAR, salary DECIMAL(10,2), hired DATE, boss INTEGER, rating DOUBLE, "
       "pts BIGINT",
       "id,name,dept,salary,hired,boss,rating,pts\n"
       "1,Alice,eng,120000.50,2019-03-01,0,4.5,9000000000\n"
       "2,Bob,eng,95000.00,2020-07-15,1,3.75,-5\n"
       "3,\"Smith, John\",sales,70000.25,2018-01-31,1,4.5,123456789012\n"
       "4,\"Quote \"\"Q\"\" Person\",sales,70000.25,2021-12-31,3,2.0,0\n"
       "5,Zoë,ops,88000.10,2020-02-29,1,3.9,42\n"
       "6,日本,ops,88000.10,2016-06-06,5,1.25,-9000000000\n"
       "7,alice,eng,105000.00,2019-03-01,2,4.0,7\n"
       "8,Émile,eng,99999.99,2022-01-01,2,3.333,1\n"
       "9,bob_x,hr,50000.00,2015-05-05,1,5.0,100\n"
       "10,Bo%b,hr,0.01,1999-12-31,9,0.0,-2\n"},
      {"dept", "dept VARCHAR, floor INTEGER, budget DECIMAL(12,2), city VARCHAR",
       "dept,floor,budget,city\n"
       "eng,3,1000000.00,Berlin\n"
       "sales,1,250000.50,Paris\n"
       "ops,2,300000.00,Berlin\n"
       "legal,4,10.00,Rome\n"},
      {"proj", "pid INTEGER, lead INTEGER, title VARCHAR, cost DECIMAL(9,2), start DATE",
       "pid,lead,title,cost,start\n"
       "100,1,Compiler,5000.00,2020-01-01\n"
       "101,1,\"Index, RT\",12000.75,2021-06-30\n"
       "102,3,Sales tool,800.10,2019-11-11\n"
       "103,6,Ops dashboard,800.10,2022-02-28\n"
       "104,42,Orphan,1.00,2000-01-01\n"},
      {"empty", "a INTEGER, s VARCHAR, d DATE, m DECIMAL(8,2)", "a,s,d,m\n"},
      {"one", "x INTEGER, s VARCHAR, d DATE, m DECIMAL(8,3), f DOUBLE, b BIGINT",
       "x,s,d,m,f,b\n"
       "7,\"only, \"\"row\"\"\",2000-02-29,-1.250,2.5,-1\n"},
  };
  return tables;
}

std::string load_csv_tables(const std::string& db) {
  TempDir files;
  for (const CsvTable& t : csv_tables()) {
    std::string file = files.file(t.name + ".csv");
    write_file(file, t.csv);
    std::string args = cli::load_csv(db, t.name, t.schema, file);
    CommandResult r = run_raydb(args);
    if (r.exit_code != 0) return "raydb " + args + " failed (exit " + std::to_string(r.exit_code) + "): " + r.err;
  }
  return "";
}

OracleFixture& csv_fixture() {
  static OracleFixture f;
  static TempDir dir;
  static bool built = false;
  if (built) return f;
  built = true;
  f.path = dir.file("csvdb");
  f.error = load_csv_tables(f.path);
  if (f.error.empty()) open_into(f);
  return f;
}

}  // namespace raydb::test
