#pragma once
// raydb's embeddable C++ API: open a database directory, run SQL, read results.
//
//   auto db = raydb::Database::open("ssb1");
//   raydb::QueryResult r = db->query("select count(*) from lineorder");
//   std::cout << r.get(0, 0).to_string();
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/settings.h"
#include "raydb/column_input.h"
#include "raydb/types.h"
#include "raydb/value.h"

namespace raydb {

struct DeviceResultColumns;  // result columns left on a GPU (raydb/arrow_export.h uses them)

// Which backend runs a query. kAuto: the first that takes the plan, CUDA before the
// CPU. kCpu / kCuda force one (an error names why it cannot). kRt is an access policy
// rather than a backend: RT index paths wherever one applies, on the CUDA backend
// where OptiX builds RT indexes on the GPU, else on the CPU (Embree).
enum class Backend { kAuto, kCpu, kCuda, kRt };
Backend parse_backend(std::string_view name);  // "auto" | "cpu" | "cuda" | "rt"; kInvalidInput otherwise
const char* backend_name(Backend b);

struct QueryOptions {
  Backend backend = Backend::kAuto;
  int threads = 0;  // 0: all hardware threads
  Settings settings;  // named knobs (common/settings.h); starts from the RAYDB_* environment
  // Set it (from any thread, or a signal handler) to stop the running statement: it
  // fails with Error(kCancelled, "query cancelled") at the executors' next check
  // (between CPU morsels, between GPU kernel launches). A statement that writes is
  // committed whole or not at all. The owner clears it before the next statement.
  std::shared_ptr<std::atomic<bool>> cancel;
  // CUDA backend: where the executor holds the final result columns on the device
  // (plain projections of non-string columns on the general path), keep a copy there in
  // Arrow's layout (QueryResult::device_columns) for export_arrow_device, which then
  // hands those out instead of copying the host result to the device.
  bool keep_result_on_device = false;
};

// A materialized result, stored by column.
class QueryResult {
 public:
  struct ColumnData {
    std::string name;
    Type type;
    std::vector<int64_t> ints;      // BOOLEAN, INTEGER, BIGINT, DECIMAL(<=18 digits), DATE
    std::vector<__int128> huge;     // HUGEINT, DECIMAL(38,s)
    std::vector<double> doubles;    // DOUBLE
    std::vector<std::string> strings;  // VARCHAR
    std::vector<uint8_t> nulls;     // 1 = NULL; empty when the column has no NULLs
  };

  size_t row_count() const { return rows_; }
  size_t column_count() const { return columns_.size(); }
  const std::string& column_name(size_t c) const { return columns_[c].name; }
  const Type& column_type(size_t c) const { return columns_[c].type; }
  Value get(size_t row, size_t col) const;

  std::string backend;        // the backend that ran the query
  double elapsed_ms = 0;      // execution time (plan + run), excluding output formatting
  double device_ms = -1;      // GPU backends: device time of the query (CUDA events); -1 otherwise
  uint64_t device_bytes = 0;  // GPU backends: bytes of fact columns read, as stored on the device
  std::string explain;        // EXPLAIN text, when the statement was EXPLAIN
  bool plan_cached = false;   // the SELECT's plan came from the plan cache (setting plan_cache)
  // The columns a GPU backend left on the device (QueryOptions::keep_result_on_device);
  // null when it did not. Opaque here: raydb/arrow_export.h reads it.
  std::shared_ptr<const DeviceResultColumns> device_columns;

  // Construction (executors and api).
  std::vector<ColumnData>& columns() { return columns_; }
  const std::vector<ColumnData>& columns() const { return columns_; }
  void set_row_count(size_t n) { rows_ = n; }

 private:
  std::vector<ColumnData> columns_;
  size_t rows_ = 0;
};

enum class OutputFormat { kTable, kCsv, kJson };
OutputFormat parse_output_format(std::string_view name);
// Writes the result as an aligned text table, CSV (RFC 4180 quoting, header line) or
// JSON (one array of objects).
std::string format_result(const QueryResult& r, OutputFormat f);

// A script split into statements at ';' outside strings and comments (shell input,
// `raydb query -f`): the complete statements in order (blank or comment-only ones
// dropped) and the unterminated rest (empty when blank).
struct SqlScript {
  std::vector<std::string> statements;
  std::string rest;
};
SqlScript split_sql_script(std::string_view text);

class DatabaseDirectory;  // storage/persist/database_directory.h

// Which files SQL may read and write (COPY FROM / COPY TO). Unconfined (the default)
// allows any path the process can reach; confined, only files inside `allowed_dirs`
// (compared after resolving symlinks and `..`), and with no directory none at all.
// `raydb serve` confines its database so that clients reach only what the operator allows.
struct FileAccess {
  bool confined = false;
  std::vector<std::string> allowed_dirs;
};

class Database {
 public:
  // Opens an existing database directory (see DatabaseDirectory::open for errors).
  static std::unique_ptr<Database> open(const std::string& path);
  // Opens `path` if it is a database; creates an empty one when `path` is missing or an
  // empty directory; otherwise fails (kCatalog) and touches nothing.
  static std::unique_ptr<Database> open_or_create(const std::string& path);
  explicit Database(std::shared_ptr<DatabaseDirectory> dir);
  ~Database();

  // Thread-safe: statements may run concurrently from several threads (one Connection
  // each). Reading statements (SELECT, EXPLAIN, SHOW, SET) run in parallel; statements
  // that change the catalog or data (DDL, INSERT, COPY) run alone. GPU work is serialized.
  //
  // Runs one SQL statement: SELECT, EXPLAIN SELECT, CREATE INDEX, DROP INDEX (their
  // results have one row, column "status"), or SET / RESET / SHOW of a setting, which
  // apply to this call's options only (a Connection keeps them).
  QueryResult query(const std::string& sql, const QueryOptions& options = {});
  DatabaseDirectory& directory();
  // The file access policy of COPY (see FileAccess); set it before queries run.
  void set_file_access(FileAccess access);

  // Tables from outside the engine (raydb/column_input.h); the values are copied.
  // register_table keeps the table in memory for this Database object only (queries
  // see it by name; nothing is written to the directory; registering the name again
  // replaces it). A stored table of that name is an error (kCatalog), so a stored
  // table's indexes and views never meet other data. unregister_table: false when no
  // such table was registered.
  void register_table(const std::string& name, const std::vector<ColumnInput>& columns);
  bool unregister_table(const std::string& name);
  // Writes the table into the database directory in one atomic commit (replacing a
  // stored table of that name only when `replace`); returns its row count. A name
  // registered in memory is an error (kCatalog).
  uint64_t create_table(const std::string& name, const std::vector<ColumnInput>& columns, bool replace);
  // The CSV loader of `raydb load csv` (schema "name TYPE, ...", rows of all files in
  // order) committed through this Database, so its queries see the table at once.
  uint64_t load_csv(const std::string& name, const std::string& schema, const std::vector<std::string>& files,
                    bool header, char delimiter, bool replace);

 private:
  friend class Connection;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A session on a database: its options (backend, threads, settings) persist from one
// statement to the next, and SET name = value / RESET name change them.
class Connection {
 public:
  explicit Connection(Database& db, QueryOptions options = {}) : db_(db), options_(std::move(options)) {}
  QueryResult query(const std::string& sql);
  QueryOptions& options() { return options_; }

 private:
  Database& db_;
  QueryOptions options_;
};

}  // namespace raydb
