// The administration API (include/raydb/admin.h) over storage/ and gen/.
#include "raydb/admin.h"

#include "access/rt_view/view_rows.h"
#include "api/parquet/parquet_reader.h"
#include "api/parquet/parquet_writer.h"
#include "api/result_export.h"
#include "common/error.h"
#include "common/progress.h"
#include "gen/ssb/generator.h"
#include "gen/tpch/generator.h"
#include "raydb/raydb.h"
#include "storage/loaders/csv_exporter.h"
#include "storage/loaders/csv_loader.h"
#include "storage/loaders/csv_sniffer.h"
#include "storage/loaders/jsonl_loader.h"
#include "storage/loaders/ssb_loader.h"
#include "storage/loaders/tpch_loader.h"
#include "storage/persist/database_check.h"
#include "storage/persist/database_directory.h"
#include "storage/table_slice.h"
#include "storage/table_sort.h"
#include "storage/value_assign.h"

namespace raydb::admin {

SsbGenSummary generate_ssb(const std::string& db_path, const SsbGenOptions& options) {
  ssb::GenOptions g;
  g.scale_factor = options.scale_factor;
  g.seed = options.seed;
  g.threads = options.threads;
  ssb::row_counts(g.scale_factor);  // rejects scale factors too large, before any work
  // A bad path fails before generating; a new database is created only once the
  // data is ready, so a failed run into a new path leaves nothing behind.
  std::shared_ptr<DatabaseDirectory> db;
  if (DatabaseDirectory::exists(db_path))
    db = DatabaseDirectory::open(db_path);
  else
    DatabaseDirectory::check_creatable(db_path);
  const std::vector<std::string> sort_by =
      options.sort_by.empty() ? std::vector<std::string>{} : parse_sort_key(options.sort_by);
  auto tables = ssb::generate(g);
  if (!options.tbl_dir.empty()) ssb::write_tbl(tables, options.tbl_dir, g.threads);
  tables = sort_tables(tables, sort_by);
  if (!db) db = DatabaseDirectory::open_or_create(db_path);
  db->commit(tables, /*replace=*/true);
  SsbGenSummary s;
  for (auto& t : tables) s.rows += t->row_count();
  s.tables = tables.size();
  return s;
}

TpchGenSummary generate_tpch(const std::string& db_path, const TpchGenOptions& options) {
  tpch::GenOptions g;
  g.scale_factor = options.scale_factor;
  g.seed = options.seed;
  g.threads = options.threads;
  tpch::row_counts(g.scale_factor);  // rejects scale factors too large, before any work
  std::shared_ptr<DatabaseDirectory> db;
  if (DatabaseDirectory::exists(db_path))
    db = DatabaseDirectory::open(db_path);
  else
    DatabaseDirectory::check_creatable(db_path);
  const std::vector<std::string> sort_by =
      options.sort_by.empty() ? std::vector<std::string>{} : parse_sort_key(options.sort_by);
  auto tables = tpch::generate(g);
  if (!options.tbl_dir.empty()) ssb::write_tbl(tables, options.tbl_dir, g.threads);  // any tables, not only SSB's
  tables = sort_tables(tables, sort_by);
  TpchGenSummary s;
  for (auto& t : tables) s.rows += t->row_count();
  Progress progress("write database", s.rows);
  if (!db) db = DatabaseDirectory::open_or_create(db_path);
  db->commit(tables, /*replace=*/true);
  progress.add(s.rows);
  progress.finish();
  s.tables = tables.size();
  return s;
}

std::vector<TableRows> load_tpch_tbl(const std::string& db_path, const std::string& tbl_dir,
                                     const std::string& sort_by) {
  load_tpch(db_path, tbl_dir, sort_by.empty() ? std::vector<std::string>{} : parse_sort_key(sort_by));
  auto db = DatabaseDirectory::open(db_path);
  std::vector<TableRows> out;
  for (auto& name : db->table_names()) out.push_back({name, db->table(name)->row_count()});
  return out;
}

std::vector<uint64_t> split_by_rows(const std::string& source, const std::string& fact,
                                    const std::vector<std::string>& shard_paths) {
  auto src = DatabaseDirectory::open(source);
  TablePtr whole = src->table(fact);
  if (!whole) fail(ErrorKind::kCatalog, "fact table {} not found in {}", fact, source);
  if (shard_paths.empty()) fail(ErrorKind::kInvalidInput, "no shard paths given");
  for (const auto& p : shard_paths) {
    if (DatabaseDirectory::exists(p)) fail(ErrorKind::kCatalog, "{} is a database already (shards are new)", p);
    DatabaseDirectory::check_creatable(p);
  }
  std::vector<TablePtr> others;
  for (const auto& name : src->table_names())
    if (!iequals(name, whole->name())) others.push_back(src->table(name));
  const uint64_t rows = whole->row_count(), n = shard_paths.size();
  std::vector<uint64_t> out;
  for (uint64_t i = 0; i < n; i++) {
    // The first row r with r * n / rows == i, so shard i holds rows [begin(i), begin(i+1)).
    const uint64_t begin = (i * rows + n - 1) / n, end = ((i + 1) * rows + n - 1) / n;
    std::vector<TablePtr> tables = others;
    tables.push_back(slice_table(*whole, begin, end));
    DatabaseDirectory::open_or_create(shard_paths[i])->commit(tables, /*replace=*/false);
    out.push_back(end - begin);
  }
  return out;
}

std::vector<TableRows> load_ssb_tbl(const std::string& db_path, const std::string& tbl_dir,
                                    const std::string& sort_by) {
  load_ssb(db_path, tbl_dir, sort_by.empty() ? std::vector<std::string>{} : parse_sort_key(sort_by));
  auto db = DatabaseDirectory::open(db_path);
  std::vector<TableRows> out;
  for (auto& name : db->table_names()) out.push_back({name, db->table(name)->row_count()});
  return out;
}

uint64_t load_csv(const std::string& db_path, const std::string& table, const std::string& schema,
                  const std::vector<std::string>& files, const CsvLoadOptions& options) {
  raydb::CsvLoadOptions o;
  o.header = options.header;
  o.delimiter = options.delimiter;
  o.replace = options.replace;
  o.null_string = options.null_string;
  o.null_string_given = options.null_string_given;
  return raydb::load_csv(db_path, table, schema, files, o);
}

CsvLoadReport load_csv_report(const std::string& db_path, const std::string& table, const std::string& schema,
                              const std::vector<std::string>& files, const CsvLoadOptions& options) {
  raydb::CsvLoadOptions o;
  o.header = options.header;
  o.delimiter = options.delimiter;
  o.replace = options.replace;
  o.null_string = options.null_string;
  o.null_string_given = options.null_string_given;
  o.delimiter_given = options.delimiter_given;
  o.header_given = options.header_given;
  o.append = options.append;
  if (!options.sort_by.empty()) o.sort_by = parse_sort_key(options.sort_by);
  raydb::CsvLoadReport r = raydb::load_csv_report(db_path, table, schema, files, o);
  CsvLoadReport out;
  out.table = table;
  if (auto name = find_table(db_path, table)) out.table = *name;
  out.rows = r.rows;
  out.schema = schema_text(r.schema);
  out.delimiter = r.delimiter;
  out.header = r.header;
  out.sniffed = r.sniffed;
  out.appended = r.appended;
  out.notes = std::move(r.notes);
  return out;
}

namespace {

// The database and, when appending, the table a file load goes into (null when the
// load creates or replaces it); fails before anything is read or written.
struct LoadTarget {
  std::shared_ptr<DatabaseDirectory> db;  // null: the directory does not exist yet
  TablePtr existing;
};

LoadTarget open_load_target(const std::string& db_path, const std::string& table, bool replace, bool append) {
  if (replace && append) fail(ErrorKind::kInvalidInput, "replace and append exclude each other");
  if (!is_valid_table_name(table))
    fail(ErrorKind::kInvalidInput, "invalid table name '{}' (letters, digits and _, not starting with a digit)", table);
  LoadTarget t;
  if (DatabaseDirectory::exists(db_path)) {
    t.db = DatabaseDirectory::open(db_path);
    t.existing = t.db->table(table);
    if (t.existing && !replace && !append)
      fail(ErrorKind::kCatalog, "table {} already exists in {} (replace it or append to it explicitly)",
           t.existing->name(), db_path);
    if (!append) t.existing = nullptr;
  } else {
    DatabaseDirectory::check_creatable(db_path);
  }
  return t;
}

// Appends `t` to the target's table, or commits it as a new (or replacing) table.
FileLoadReport finish_load(LoadTarget& target, const std::string& db_path, const TablePtr& t, bool replace,
                           FileLoadReport r) {
  if (target.existing) {
    if (t->row_count() > 0) target.db->append_rows(t);
    r.appended = true;
  } else {
    if (!target.db) target.db = DatabaseDirectory::open_or_create(db_path);
    target.db->commit({t}, replace);
  }
  r.table = t->name();
  r.rows = t->row_count();
  r.schema = schema_text(t->schema());
  return r;
}

}  // namespace

bool parquet_available() { return api::parquet_available(); }

FileLoadReport load_parquet(const std::string& db_path, const std::string& table,
                               const std::vector<std::string>& files, bool replace, bool append) {
  if (!api::parquet_available()) (void)api::read_parquet_table(table, files);  // its "not built" error
  LoadTarget target = open_load_target(db_path, table, replace, append);
  FileLoadReport r;
  const TablePtr& existing = target.existing;
  TablePtr t = api::read_parquet_table(existing ? existing->name() : table, files, &r.notes);
  if (existing) t = assign_rows(*existing, *t);
  return finish_load(target, db_path, t, replace, std::move(r));
}

FileLoadReport load_jsonl(const std::string& db_path, const std::string& table, const std::string& schema,
                          const std::vector<std::string>& files, bool replace, bool append) {
  if (files.empty()) fail(ErrorKind::kInvalidInput, "no input files for table {}", table);
  LoadTarget target = open_load_target(db_path, table, replace, append);
  const TablePtr& existing = target.existing;
  if (existing && !schema.empty())
    fail(ErrorKind::kInvalidInput, "table {} exists: appending uses its columns, give no schema", existing->name());
  FileLoadReport r;
  std::vector<ColumnDef> columns;
  if (existing) {
    columns = existing->schema();
  } else if (!schema.empty()) {
    columns = parse_schema(schema);
  } else {
    JsonlSniff sniff = sniff_jsonl(files[0]);
    columns = std::move(sniff.schema);
    r.notes = std::move(sniff.notes);
  }
  // A table's own columns or a given schema select keys; a guessed one must cover them.
  TablePtr t = read_jsonl_table(existing ? existing->name() : table, columns, files, existing || !schema.empty());
  return finish_load(target, db_path, t, replace, std::move(r));
}

ExportSummary export_query(const std::string& db_path, const std::string& sql, const std::string& path, bool parquet,
                           char delimiter) {
  // Only queries: an export must not change the database.
  size_t b = sql.find_first_not_of(" \t\r\n(");
  std::string first;
  while (b < sql.size() && std::isalpha(static_cast<unsigned char>(sql[b]))) first += char(std::tolower(sql[b++]));
  if (first != "select" && first != "with" && first != "values")
    fail(ErrorKind::kInvalidInput, "--query takes a query (SELECT, WITH or VALUES), got '{}'", first);
  auto db = Database::open(db_path);
  const QueryResult result = db->query(sql);
  const uint64_t rows = parquet ? api::write_parquet(result, path) : api::write_result_csv(result, path, delimiter, true, "");
  return {"", rows};
}

std::optional<std::string> find_table(const std::string& db_path, const std::string& table) {
  if (!DatabaseDirectory::exists(db_path)) return std::nullopt;
  auto db = DatabaseDirectory::open(db_path);
  if (TablePtr t = db->table(table)) return t->name();
  return std::nullopt;
}

ExportSummary export_csv(const std::string& db_path, const std::string& table, const std::string& csv_path,
                         char delimiter) {
  auto db = DatabaseDirectory::open(db_path);
  TablePtr t = db->table(table);
  if (!t) fail(ErrorKind::kCatalog, "table {} does not exist in {}", table, db_path);
  const uint64_t rows = raydb::export_csv(*t, csv_path, delimiter);
  return {t->name(), rows};
}

namespace {

// The smallest or largest stored value of a column as it prints.
std::string bound(const Column& col, bool max) {
  const ColumnStats& s = col.recorded_stats();  // a listing: no full read of every column
  switch (col.type().id) {
    case TypeId::kDouble: return Value::float64(max ? s.max_d : s.min_d).to_string();
    case TypeId::kVarchar: return std::string(col.dictionary()->at(uint32_t(max ? s.max : s.min)));
    case TypeId::kInteger: return Value::integer(int32_t(max ? s.max : s.min)).to_string();
    case TypeId::kBigint: return Value::bigint(max ? s.max : s.min).to_string();
    case TypeId::kDecimal:
      return Value::decimal(max ? s.max : s.min, col.type().precision, col.type().scale).to_string();
    case TypeId::kDate: return Value::date(int32_t(max ? s.max : s.min)).to_string();
    case TypeId::kBoolean: return Value::boolean((max ? s.max : s.min) != 0).to_string();
    case TypeId::kTimestamp: return Value::timestamp(max ? s.max : s.min).to_string();
    default: return "?";
  }
}

ColumnInfo describe_column(const Column& c) {
  ColumnInfo info;
  info.name = c.name();
  info.type = c.type().to_string();
  if (c.size() > 0) {
    info.min = bound(c, false);
    info.max = bound(c, true);
  }
  info.bytes = c.size() * uint64_t(c.type().physical_width());
  info.nullable = c.nullable();
  info.nulls = c.null_count();
  if (c.size() > 0 && c.null_count() == c.size()) info.min = info.max = std::nullopt;  // only NULLs
  if (const Dictionary* d = c.dictionary()) {
    info.dictionary_entries = d->size();
    info.dictionary_bytes = d->offsets().size() * 8 + d->chars().size();
  }
  return info;
}

TableInfo describe(const Table& t) {
  TableInfo info;
  info.name = t.name();
  info.rows = t.row_count();
  for (auto& c : t.columns()) {
    info.columns.push_back(describe_column(*c));
    info.bytes += info.columns.back().bytes + info.columns.back().dictionary_bytes.value_or(0);
  }
  return info;
}

// The table's indexes from the catalog, one line each.
TableInfo with_indexes(TableInfo info, const DatabaseDirectory& dir) {
  for (const IndexDefinition& d : dir.indexes()) {
    if (d.table != info.name) continue;
    std::string cols, opts;
    for (auto& c : d.column_list()) cols += (cols.empty() ? "" : ", ") + c;
    for (auto& [k, v] : d.options) opts += (opts.empty() ? "" : ", ") + k + " = " + v;
    info.indexes.push_back(d.name + ": " + d.kind + " (" + cols + ")" + (opts.empty() ? "" : " with (" + opts + ")"));
  }
  return info;
}

}  // namespace

CheckResult check_database(const std::string& db_path) {
  persist::CheckReport r = persist::check_database_files(db_path);
  CheckResult out{std::move(r.problems), std::move(r.notes), r.tables, r.files, r.bytes};
  if (!out.problems.empty()) return out;  // the views' tables are not to be trusted
  // RT views' rows (access/ reads them): every array present with the length its
  // view.json gives, and as many rows as the manifest says.
  for (const RtViewEntry& e : DatabaseDirectory::open(db_path)->rt_views()) {
    try {
      auto rows = rtview::load_view_rows(db_path + "/" + e.dir);
      if (rows->rows != e.rows)
        out.problems.push_back(fmt::format("rt view {}: {}/{} holds {} rows, the manifest says {}", e.name, db_path,
                                           e.dir, rows->rows, e.rows));
    } catch (const std::exception& ex) {
      out.problems.push_back(fmt::format("rt view {}: {}", e.name, ex.what()));
    }
  }
  return out;
}

std::vector<TableInfo> describe_database(const std::string& db_path) {
  auto db = DatabaseDirectory::open(db_path);
  std::vector<TableInfo> out;
  for (auto& n : db->table_names()) out.push_back(with_indexes(describe(*db->table(n)), *db));
  return out;
}

std::vector<ViewInfo> describe_views(const std::string& db_path) {
  std::vector<ViewInfo> out;
  for (const ViewEntry& v : DatabaseDirectory::open(db_path)->views()) out.push_back({v.name, v.sql});
  return out;
}

std::optional<TableInfo> describe_table(const std::string& db_path, const std::string& table) {
  auto db = DatabaseDirectory::open(db_path);
  if (TablePtr t = db->table(table)) return with_indexes(describe(*t), *db);
  return std::nullopt;
}

std::vector<std::string> table_names(Database& db) { return db.directory().table_names(); }

std::optional<TableInfo> describe_table(Database& db, const std::string& table) {
  if (TablePtr t = db.directory().table(table)) return describe(*t);
  return std::nullopt;
}

}  // namespace raydb::admin
