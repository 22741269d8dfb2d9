#include "sqllogictest/slt_runner.h"

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

#include "sqllogictest/slt_format.h"
#include "support/test_support.h"

namespace raydb::slt {

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n') c = ' ';
  return s;
}

// Result lines as --complete writes them: one row per line, values separated by tabs,
// or the hash line past the threshold.
std::vector<std::string> result_lines(const std::vector<std::string>& values, size_t columns, int threshold) {
  if (threshold > 0 && int(values.size()) > threshold)
    return {std::to_string(values.size()) + " values hashing to " + md5_of_values(values)};
  std::vector<std::string> lines;
  for (size_t i = 0; i < values.size(); i += columns) {
    std::string l;
    for (size_t c = 0; c < columns && i + c < values.size(); c++) l += (c ? "\t" : "") + values[i + c];
    lines.push_back(l);
  }
  return lines;
}

}  // namespace

void Runner::failure(const Record& r, const std::string& what, const std::string& reason) {
  summary_.failures.push_back(file_ + ":" + std::to_string(r.line) + ": " + what + "\n    " + one_line(r.sql));
  summary_.reasons.push_back(reason);
  if (r.line == last_failed_line_) return;  // one record may fail two checks; count it once
  last_failed_line_ = r.line;
  (r.kind == Record::Kind::kStatement ? summary_.statements_failed : summary_.queries_failed)++;
}

bool Runner::applies(const Record& r) const {
  return options_.corpus ? r.applies_to_all({"raydb", "sqlite"}) : r.applies_to("raydb");
}

FileSummary Runner::run_file(const std::string& path) {
  file_ = path;
  summary_ = FileSummary();
  last_failed_line_ = -1;
  threshold_ = 0;
  labels_.clear();
  const std::string text = read_all(path);
  std::vector<Record> records = parse_records(text, path);
  test::TempDir dir;
  // __TEST_DIR__ in SQL names the file's scratch directory (as in DuckDB's runner).
  for (Record& r : records)
    for (size_t at; (at = r.sql.find("__TEST_DIR__")) != std::string::npos;) r.sql.replace(at, 12, dir.path());
  db_ = Database::open_or_create(dir.file("db"));
  QueryOptions qo;
  qo.backend = options_.backend;
  conn_ = std::make_unique<Connection>(*db_, qo);
  oracle_ = options_.oracle_sqlite && !options_.corpus ? std::make_unique<test::SqliteOracle>() : nullptr;
  // --complete: the file's lines with each query's result block replaced.
  std::vector<std::string> lines = test::split_lines(text);
  std::vector<std::pair<const Record*, std::vector<std::string>>> completions;
  for (const Record& r : records) {
    if (r.kind == Record::Kind::kHalt && applies(r)) break;
    if (r.kind == Record::Kind::kQuery && applies(r)) {
      const bool over_budget = options_.deadline && std::chrono::steady_clock::now() >= *options_.deadline;
      if ((options_.max_queries > 0 && summary_.queries >= options_.max_queries) || over_budget) {
        summary_.truncated = true;
        break;
      }
      if (options_.progress_every > 0 && summary_.queries > 0 && summary_.queries % options_.progress_every == 0)
        std::fprintf(stderr, "  %s: %d queries\n", path.c_str(), summary_.queries);
    }
    std::vector<std::string> completed;
    run_record(r, completed);
    if (r.kind == Record::Kind::kQuery && applies(r)) completions.emplace_back(&r, std::move(completed));
  }
  if (options_.complete) {
    for (auto it = completions.rbegin(); it != completions.rend(); ++it) {
      const Record& r = *it->first;
      std::vector<std::string> block = it->second;
      if (!r.has_results) block.insert(block.begin(), "----");
      lines.erase(lines.begin() + long(r.results_begin), lines.begin() + long(r.results_end));
      lines.insert(lines.begin() + long(r.results_begin), block.begin(), block.end());
    }
    std::string out;
    for (auto& l : lines) out += l + "\n";
    test::write_file(path, out);
  }
  conn_.reset();
  db_.reset();
  return summary_;
}

void Runner::run_record(const Record& r, std::vector<std::string>& completed) {
  if (r.kind == Record::Kind::kHashThreshold) {
    threshold_ = r.threshold;
    return;
  }
  if (!applies(r)) {
    // `onlyif sqlite` statements set the oracle up where raydb's syntax differs
    // (e.g. INSERTs mirroring a COPY FROM).
    if (oracle_ && r.kind == Record::Kind::kStatement && !r.expect_error && r.applies_to("sqlite")) {
      try {
        oracle_->exec(test::sqlite_dialect(r.sql));
      } catch (const std::exception& e) {
        failure(r, std::string("sqlite rejects it: ") + e.what(), "sqlite rejects it");
      }
      return;
    }
    summary_.skipped++;
    return;
  }
  if (r.kind == Record::Kind::kStatement) run_statement(r);
  if (r.kind == Record::Kind::kQuery) run_query(r, completed);
}

void Runner::run_statement(const Record& r) {
  summary_.statements++;
  std::string error;
  try {
    conn_->query(r.sql);
  } catch (const std::exception& e) {
    error = e.what();
    if (error.empty()) error = "(an error without a message)";
  }
  if (!r.expect_error && !error.empty()) return failure(r, "statement failed: " + error, error);
  if (r.expect_error && error.empty())
    return failure(r, "statement succeeded, an error was expected", "statement succeeded, an error was expected");
  if (r.expect_error && !r.error_text.empty() && error.find(r.error_text) == std::string::npos)
    return failure(r, "error '" + error + "' does not contain '" + r.error_text + "'", "another error message");
  if (error.find('\n') != std::string::npos)
    return failure(r, "error message spans several lines: " + error, "error message spans several lines");
  if (oracle_ && !r.expect_error && r.applies_to("sqlite")) {
    try {
      oracle_->exec(test::sqlite_dialect(r.sql));
    } catch (const std::exception& e) {
      failure(r, std::string("sqlite rejects it (mark the record skipif sqlite): ") + e.what(), "sqlite rejects it");
    }
  }
}

void Runner::run_query(const Record& r, std::vector<std::string>& completed) {
  summary_.queries++;
  std::vector<std::string> actual;
  try {
    actual = format_values(test::canonical_rows(conn_->query(r.sql)), r.types, r.sort);
  } catch (const std::exception& e) {
    return failure(r, std::string("query failed: ") + e.what(), e.what());
  }
  completed = result_lines(actual, r.types.size(), threshold_);
  const size_t failures_before = summary_.failures.size();
  if (!options_.complete) check_expected(r, actual);
  const bool failed_here = summary_.failures.size() != failures_before;
  if (!r.label.empty()) {
    const std::string md5 = md5_of_values(actual);
    bool seen = false;
    for (auto& [label, hash] : labels_)
      if (label == r.label) {
        seen = true;
        if (hash != md5 && !failed_here)
          failure(r, "results differ from earlier queries labelled " + r.label, "wrong result (label)");
      }
    if (!seen) labels_.emplace_back(r.label, md5);
  }
  if (!oracle_ || !r.applies_to("sqlite")) return;
  try {
    const std::vector<std::string> lite =
        format_values(oracle_->query_raw(test::sqlite_dialect(r.sql)), r.types, r.sort);
    summary_.oracle_checked++;
    if (lite != actual) {
      std::string a, b;
      for (size_t i = 0; i < std::min<size_t>(lite.size(), 20); i++) a += lite[i] + " ";
      for (size_t i = 0; i < std::min<size_t>(actual.size(), 20); i++) b += actual[i] + " ";
      failure(r, "raydb and sqlite differ: sqlite [" + a + "], raydb [" + b + "]", "raydb and sqlite differ");
    }
  } catch (const std::exception& e) {
    failure(r, std::string("sqlite rejects it (mark the record skipif sqlite): ") + e.what(), "sqlite rejects it");
  }
}

void Runner::check_expected(const Record& r, const std::vector<std::string>& actual) {
  if (!r.has_results) return;  // SQLite's format: a query without results only has to run
  static const std::regex hash_line(R"(^(\d+) values hashing to ([0-9a-f]{32})$)");
  std::smatch m;
  if (r.results.size() == 1 && std::regex_match(r.results[0], m, hash_line)) {
    if (std::to_string(actual.size()) != m[1].str() || md5_of_values(actual) != m[2].str())
      failure(r,
              "expected " + r.results[0] + ", got " + std::to_string(actual.size()) + " values hashing to " +
                  md5_of_values(actual),
              "wrong result");
    return;
  }
  const std::vector<std::string> expected = expected_values(r.results, r.types.size(), r.sort);
  if (expected == actual) return;
  std::string e, a;
  for (auto& x : expected) e += x + " ";
  for (auto& x : actual) a += x + " ";
  failure(r, "expected [" + e + "], got [" + a + "]", "wrong result");
}

}  // namespace raydb::slt
