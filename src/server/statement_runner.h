#pragma once
// Runs one SQL statement for a session on its raydb Connection and turns the result
// into what the protocol reports (rows, or a command tag). Handles what PostgreSQL
// clients send that raydb's SQL does not know: transaction control and session
// settings of PostgreSQL itself.
//
// Transactions: raydb commits every statement on its own (DDL, INSERT and COPY are
// atomic, each). BEGIN / COMMIT / ROLLBACK are accepted so that clients that wrap
// statements in a block (psycopg does by default) work, and the block's states
// (ReadyForQuery 'T', 'E' after an error until ROLLBACK) follow PostgreSQL; a ROLLBACK
// after a write warns that the write was already committed.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "raydb/raydb.h"

namespace raydb::server {

struct Outcome {
  bool has_rows = false;  // a row set (RowDescription, DataRows) rather than a command
  QueryResult result;     // the rows, when has_rows
  std::string tag;        // CommandComplete's tag ("SELECT 3", "INSERT 0 2", "BEGIN")
  std::vector<std::string> notices;
  std::vector<std::pair<std::string, std::string>> reported;  // ParameterStatus changes
};

class StatementRunner {
 public:
  StatementRunner(Database& db, QueryOptions options) : connection_(db, std::move(options)) {}

  // Throws raydb::Error or SqlError; an error inside a block fails the block.
  Outcome run(const std::string& sql);
  // The columns of a row-returning statement, found by running it outside the
  // session's transaction state; nullopt when it fails or returns no rows.
  std::optional<QueryResult> probe(const std::string& sql);
  // 'I' idle, 'T' in a transaction block, 'E' in a failed block.
  char transaction_status() const { return status_; }

  // True when `sql` is a statement that returns rows (SELECT, WITH, VALUES, EXPLAIN,
  // SHOW), by its first word: such statements may run ahead for a Describe.
  static bool returns_rows(const std::string& sql);

 private:
  Outcome run_inner(const std::string& sql);
  bool session_setting(const std::string& sql, Outcome& out);
  Outcome from_result(QueryResult r);

  Connection connection_;
  char status_ = 'I';
  int writes_in_block_ = 0;
};

// Lower-case words of `sql` (letters, digits, _), the first `n` of them.
std::vector<std::string> leading_words(const std::string& sql, size_t n);

}  // namespace raydb::server
