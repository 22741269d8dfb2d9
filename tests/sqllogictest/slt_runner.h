#pragma once
// Runs sqllogictest files against raydb (a fresh database directory per file, one
// Connection), optionally checking every query against SQLite as well: records that
// apply to "sqlite" (no `skipif sqlite`, no `onlyif raydb`) run on an in-memory SQLite
// database too, `statement ok` must succeed there, and each query's formatted values
// must equal SQLite's, on top of the results written in the file. `onlyif sqlite`
// statements run on SQLite only (to mirror raydb-only statements such as COPY).
#include <memory>
#include <string>
#include <vector>

#include "raydb/raydb.h"
#include "sqllogictest/slt_record.h"
#include "support/sqlite_oracle.h"

namespace raydb::slt {

struct RunOptions {
  Backend backend = Backend::kCpu;
  bool oracle_sqlite = false;
  // Writes each query's actual results into the file (for writing new tests; the
  // results must then be read and checked by a person, or by the oracle).
  bool complete = false;
};

struct FileSummary {
  int statements = 0, queries = 0, skipped = 0, oracle_checked = 0;
  std::vector<std::string> failures;  // "file:line: what", one per failed record
};

class Runner {
 public:
  explicit Runner(RunOptions options) : options_(options) {}
  FileSummary run_file(const std::string& path);

 private:
  // One record; appends to summary.failures on failure. `completed` receives the
  // result lines for --complete.
  void run_record(const Record& r, std::vector<std::string>& completed);
  void run_statement(const Record& r);
  void run_query(const Record& r, std::vector<std::string>& completed);
  // The record's expected values, or the hash line's count and digest.
  void check_expected(const Record& r, const std::vector<std::string>& actual);
  void failure(const Record& r, const std::string& what);

  RunOptions options_;
  std::string file_;
  FileSummary summary_;
  int threshold_ = 0;
  std::vector<std::pair<std::string, std::string>> labels_;  // label -> md5 of its values
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> conn_;
  std::unique_ptr<test::SqliteOracle> oracle_;
};

}  // namespace raydb::slt
