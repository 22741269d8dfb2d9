#pragma once
// Administration of a database directory beside queries (raydb.h): generating SSB
// data, loading dbgen .tbl and CSV files, exporting a table as CSV and describing the
// tables. Plain values in and out, so callers need none of the engine's internal
// types. Every operation is atomic: a failure leaves the database as it was. Errors
// are raydb::Error with one line (common/error.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace raydb {

class Database;

namespace admin {

struct SsbGenOptions {
  double scale_factor = 1.0;  // > 0; fractions such as 0.01 work
  uint64_t seed = 19920101;   // same seed, same data
  int threads = 0;            // 0: all cores; the data does not depend on it
  std::string tbl_dir;        // also write dbgen-style .tbl files here ("" for none)
  std::string sort_by;        // "col[,col]": sort the tables that have these columns ("" for none)
};

struct SsbGenSummary {
  uint64_t rows = 0;  // of all tables
  size_t tables = 0;
};

// Generates the five SSB tables into the database at `db_path` (created when missing
// or empty; SSB tables there are replaced). A scale factor too large or a path that
// cannot become a database fails before any generation, and a new database is
// created only once the data is ready (kInvalidInput, kCatalog, kIO).
SsbGenSummary generate_ssb(const std::string& db_path, const SsbGenOptions& options);

// TPC-H: the same options and summary (tpch::generate: the rows of the TPC-H kit's
// dbgen), except the seed: 0, the default, gives dbgen's data; any other value
// changes every random stream.
struct TpchGenOptions : SsbGenOptions {
  TpchGenOptions() { seed = 0; }
};
using TpchGenSummary = SsbGenSummary;

// Generates the eight TPC-H tables into the database at `db_path`, as generate_ssb
// does for SSB (TPC-H tables there are replaced).
TpchGenSummary generate_tpch(const std::string& db_path, const TpchGenOptions& options);

struct TableRows {
  std::string name;
  uint64_t rows = 0;
};

// Splits table `fact` of the database at `source` into shard_paths.size() contiguous
// row ranges (row r of R goes to shard r * n / R, the source's order kept) and writes
// each into a new database at shard_paths[i] together with every other table of
// `source` whole. Returns the fact rows per shard. Fails before writing anything
// (kCatalog, kInvalidInput) when `fact` is missing, no shard is named or a shard path
// cannot become a new database; the caller stages the shards if it needs them to
// appear all at once.
std::vector<uint64_t> split_by_rows(const std::string& source, const std::string& fact,
                                    const std::vector<std::string>& shard_paths);

// Loads customer, supplier, part, date and lineorder from dbgen .tbl files in
// `tbl_dir` (lineorder.tbl or lineorder.tbl.1 .. N), replacing those tables; returns
// every table of the database afterwards, by name.
// `sort_by` ("col[,col]", "" for none): the tables with those columns are sorted by
// them before writing, and the catalog records the key (data skipping).
std::vector<TableRows> load_ssb_tbl(const std::string& db_path, const std::string& tbl_dir,
                                    const std::string& sort_by = "");

// Loads the eight TPC-H tables from dbgen .tbl files in `tbl_dir` (<table>.tbl or
// <table>.tbl.1 .. N), replacing those tables; returns every table afterwards.
std::vector<TableRows> load_tpch_tbl(const std::string& db_path, const std::string& tbl_dir,
                                     const std::string& sort_by = "");

struct CsvLoadOptions {
  bool header = false;  // skip the first line of every file
  char delimiter = ',';
  bool replace = false;  // replace an existing table (otherwise that is an error)
  // Unquoted text read as NULL in nullable columns (default: the empty field).
  std::string null_string;
  bool null_string_given = false;
  // Without a schema these are guessed from the first file unless given.
  bool delimiter_given = true;
  bool header_given = true;
  bool append = false;  // add the rows to the table if it exists (its schema)
  std::string sort_by;  // "col[,col]": sort the rows by these columns (not with append)
};

// Loads one table from CSV files (rows of all files, in order) with the schema
// "name TYPE, ..." into the database at `db_path` (created when missing or empty).
// Returns the row count.
uint64_t load_csv(const std::string& db_path, const std::string& table, const std::string& schema,
                  const std::vector<std::string>& files, const CsvLoadOptions& options);

struct CsvLoadReport {
  std::string table;   // the catalog's name
  uint64_t rows = 0;   // loaded by this call
  std::string schema;  // the table's columns, as --schema takes them
  char delimiter = ',';
  bool header = false;
  bool sniffed = false;   // the schema was guessed from a sample
  bool appended = false;  // the table existed and got the rows
  std::vector<std::string> notes;  // the guesser's remarks (columns kept as VARCHAR)
};

// load_csv where `schema` may be empty: the columns are then guessed from a sample of
// the first file as DuckDB's read_csv_auto does (delimiter, header, INTEGER, BIGINT,
// DECIMAL, DOUBLE, DATE, else VARCHAR), and with `append` an existing table gets the
// rows (delimiter and header guessed against its columns when not given).
CsvLoadReport load_csv_report(const std::string& db_path, const std::string& table, const std::string& schema,
                              const std::vector<std::string>& files, const CsvLoadOptions& options);

struct ExportSummary {
  std::string table;  // the catalog's name
  uint64_t rows = 0;
};

struct FileLoadReport {
  std::string table;  // the catalog's name
  uint64_t rows = 0;  // loaded by this call
  std::string schema; // the table's columns, as --schema takes them
  bool appended = false;
  std::vector<std::string> notes;  // columns stored as text (timestamps, booleans)
};

// Whether this build reads and writes Parquet (an optional feature: Arrow/Parquet C++).
bool parquet_available();

// Loads one table from Parquet files (rows of all files, in order; the same columns in
// each) into the database at `db_path` (created when missing or empty), in one atomic
// commit. An existing table is an error unless `replace` (replaced) or `append` (the
// rows are added, columns by position, values assigned to its types as INSERT does).
// Types: see api/parquet/parquet_reader.h. Without Parquet support, kInvalidInput.
FileLoadReport load_parquet(const std::string& db_path, const std::string& table,
                               const std::vector<std::string>& files, bool replace, bool append);

// Loads one table from JSON lines files (one object per line; rows of all files in
// order), as load_parquet commits it. An empty `schema` means the columns are guessed
// from a sample of the first file (storage/loaders/jsonl_loader.h); with a schema
// ("name TYPE, ...") keys that are not columns are ignored. With `append` an existing
// table gets the rows (its columns, by name).
FileLoadReport load_jsonl(const std::string& db_path, const std::string& table, const std::string& schema,
                          const std::vector<std::string>& files, bool replace, bool append);

// Runs `sql` (a query: SELECT, WITH, VALUES) on the database at `db_path` and writes its
// result to `path` (replaced atomically) as CSV with a header line, or as Parquet.
ExportSummary export_query(const std::string& db_path, const std::string& sql, const std::string& path,
                           bool parquet, char delimiter = ',');

// The catalog's name of `table` (names are case-insensitive) when the database at
// `db_path` exists and holds it; nothing otherwise.
std::optional<std::string> find_table(const std::string& db_path, const std::string& table);


// Writes `table` as CSV with a header line to `csv_path` (replaced atomically);
// kCatalog when the table does not exist.
ExportSummary export_csv(const std::string& db_path, const std::string& table, const std::string& csv_path,
                         char delimiter = ',');

struct CheckResult {
  std::vector<std::string> problems;  // one line each; empty when the database is intact
  std::vector<std::string> notes;     // not errors (files written without checksums)
  uint64_t tables = 0, files = 0, bytes = 0;  // what was verified
};

// Verifies every file the manifest of `db_path` names (raydb check): the manifest's
// checksum and structure, each column and dictionary file present, of its size, its
// checksum, dictionary codes in range, min/max statistics equal to the data, RT view
// directories present. Throws (kCatalog) only when `db_path` is not a database.
CheckResult check_database(const std::string& db_path);

struct ColumnInfo {
  std::string name;
  std::string type;                 // as SQL writes it: INTEGER, DECIMAL(15,2), VARCHAR, ...
  std::optional<std::string> min, max;  // as values print; nothing for an empty table
  std::optional<uint64_t> dictionary_entries;  // VARCHAR columns
  std::optional<uint64_t> dictionary_bytes;
  uint64_t bytes = 0;               // the column's values as stored
  bool nullable = false;            // declared (false: NOT NULL)
  uint64_t nulls = 0;               // NULLs held (min/max describe the other values)
};

struct TableInfo {
  std::string name;
  uint64_t rows = 0;
  uint64_t bytes = 0;  // values and dictionaries of all columns
  std::vector<ColumnInfo> columns;
  // Its indexes as defined (built in memory on first use, so no sizes here):
  // "name: kind (columns) [with (option = value, ...)]".
  std::vector<std::string> indexes;
};

// A plain view (CREATE VIEW): its name and SQL.
struct ViewInfo {
  std::string name;
  std::string sql;
};
std::vector<ViewInfo> describe_views(const std::string& db_path);  // in creation order

// Every table of the database at `db_path`, by name.
std::vector<TableInfo> describe_database(const std::string& db_path);
// One table; nothing when the database has no such table.
std::optional<TableInfo> describe_table(const std::string& db_path, const std::string& table);
// The same for an open database.
std::vector<std::string> table_names(Database& db);
std::optional<TableInfo> describe_table(Database& db, const std::string& table);

}  // namespace admin
// `raydb advise rt-views`: a small set of RT views covering a workload (statements
// separated by ';'). Each proposed view says which statements it serves and the memory
// it needs; statements no view can serve are listed with the reason.
struct RtViewAdvice {
  std::string name;
  std::string create_sql;            // CREATE RT VIEW ... ;
  std::vector<std::string> queries;  // statement labels ("#3", or "q1.1" given as "-- q1.1" first line)
  uint64_t rows = 0;                 // upper bound: the fact table's rows
  uint64_t row_bytes = 0;            // encoded rows, on disk and in host memory
  uint64_t bvh_bytes = 0;            // estimated BVH (host on Embree, device on OptiX)
  uint64_t group_bound = 0;          // upper bound of its group tuples (below the limit a view takes)
};
struct RtViewAdvise {
  std::vector<RtViewAdvice> views;
  std::vector<std::string> not_covered;  // "label: reason"
};
// Proposes only views that can be built: group tuples (bounded per table) below
// group_limit (0: the most a view takes, 2^21) and, when max_view_bytes is not 0,
// estimated rows + BVH bytes within it; queries no such view serves are not_covered.
RtViewAdvise advise_rt_views(Database& db, const std::string& workload_sql, const std::string& prefix = "rt_view",
                             uint64_t group_limit = 0, uint64_t max_view_bytes = 0);

// The RT views of the database at `db_path` (CREATE RT VIEW), as `raydb describe`
// lists them: base tables, rows, bytes of their encoded rows, and whether a base
// table changed since (then the next query rebuilds the view).
struct RtViewInfo {
  std::string name;
  std::vector<std::string> tables;  // fact table first
  uint64_t rows = 0;
  uint64_t bytes = 0;
  bool stale = false;
};
std::vector<RtViewInfo> describe_rt_views(const std::string& db_path);

// Splits SQL text at ';' outside string literals and -- comments (empty statements dropped).
std::vector<std::string> split_sql_statements(const std::string& text);

}  // namespace raydb
