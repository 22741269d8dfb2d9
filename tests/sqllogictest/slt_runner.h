#pragma once
// Runs sqllogictest files against raydb (a fresh database directory per file, one
// Connection), optionally checking every query against SQLite as well: records that
// apply to "sqlite" (no `skipif sqlite`, no `onlyif raydb`) run on an in-memory SQLite
// database too, `statement ok` must succeed there, and each query's formatted values
// must equal SQLite's, on top of the results written in the file. `onlyif sqlite`
// statements run on SQLite only (to mirror raydb-only statements such as COPY).
#include <chrono>
#include <memory>
#include <optional>
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
  // Corpus mode (SQLite's public corpus, whose results are SQLite's): records apply as
  // to a database named both "raydb" and "sqlite"; no oracle runs.
  bool corpus = false;
  // Stop a file after this many queries (0: no limit) or at this moment; the summary
  // then says `truncated`.
  int max_queries = 0;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  // Prints "file: N queries" to stderr every `progress_every` queries (0: never).
  int progress_every = 0;
};

struct FileSummary {
  int statements = 0, queries = 0, skipped = 0, oracle_checked = 0;
  int statements_failed = 0, queries_failed = 0;
  bool truncated = false;
  std::vector<std::string> failures;  // "file:line: what", one per failed record
  std::vector<std::string> reasons;   // the same failures' short reasons (for grouping)
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
  // `reason` groups failures in corpus summaries: an error message or "wrong result".
  void failure(const Record& r, const std::string& what, const std::string& reason);
  bool applies(const Record& r) const;

  RunOptions options_;
  std::string file_;
  FileSummary summary_;
  int threshold_ = 0;
  int last_failed_line_ = -1;
  std::vector<std::pair<std::string, std::string>> labels_;  // label -> md5 of its values
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> conn_;
  std::unique_ptr<test::SqliteOracle> oracle_;
};

}  // namespace raydb::slt
