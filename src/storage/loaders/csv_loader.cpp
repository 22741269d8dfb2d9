#include "storage/loaders/csv_loader.h"

#include "common/error.h"
#include "storage/loaders/csv_sniffer.h"
#include "storage/loaders/delimited_reader.h"
#include "storage/persist/database_directory.h"
#include "storage/table_sort.h"

namespace raydb {

bool is_valid_table_name(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

TablePtr read_csv_table(const std::string& table, const std::vector<ColumnDef>& schema,
                        const std::vector<std::string>& files, const CsvLoadOptions& options) {
  DelimitedFormat f = DelimitedFormat::csv(options.delimiter, options.header);
  f.null_string = options.null_string;
  f.null_string_given = options.null_string_given;
  return read_delimited_table(table, schema, files, f);
}

uint64_t load_csv(const std::string& db_path, const std::string& table, const std::string& schema_text,
                  const std::vector<std::string>& files, const CsvLoadOptions& options) {
  if (schema_text.empty()) (void)parse_schema(schema_text);  // its one-line error, as before
  return load_csv_report(db_path, table, schema_text, files, options).rows;
}

namespace {

// Fills the report's schema, delimiter and header: given, guessed, or the table's.
void settle_format(CsvLoadReport& r, const std::string& schema_text, const TablePtr& existing,
                   const std::string& first_file, const CsvLoadOptions& options) {
  r.delimiter = options.delimiter;
  r.header = options.header;
  if (!schema_text.empty()) {  // a given schema: the file is read as told, nothing guessed
    r.schema = parse_schema(schema_text);
    return;
  }
  CsvSniffOptions so;
  if (options.delimiter_given) so.delimiter = options.delimiter;
  if (options.header_given) so.header = options.header;
  if (options.null_string_given) so.null_string = options.null_string;
  if (existing) so.schema = existing->schema();
  CsvSniff sniff = sniff_csv(first_file, so);
  r.delimiter = sniff.delimiter;
  r.header = sniff.header;
  r.schema = std::move(sniff.schema);
  r.notes = std::move(sniff.notes);
  r.sniffed = !existing;
}

}  // namespace

CsvLoadReport load_csv_report(const std::string& db_path, const std::string& table, const std::string& schema_text,
                              const std::vector<std::string>& files, const CsvLoadOptions& options) {
  if (!is_valid_table_name(table))
    fail(ErrorKind::kInvalidInput, "invalid table name '{}' (letters, digits and _, not starting with a digit)", table);
  if (files.empty()) fail(ErrorKind::kInvalidInput, "no input files for table {}", table);
  if (options.append && options.replace) fail(ErrorKind::kInvalidInput, "append and replace exclude each other");
  if (options.append && !options.sort_by.empty())
    fail(ErrorKind::kInvalidInput, "--sort-by cannot be used with --append (appended rows would not be sorted)");
  std::shared_ptr<DatabaseDirectory> db;
  TablePtr existing;
  if (DatabaseDirectory::exists(db_path)) {
    db = DatabaseDirectory::open(db_path);
    existing = db->table(table);
    // Checked again under the lock by commit; this only saves a useless parse.
    if (existing && !options.replace && !options.append)
      fail(ErrorKind::kCatalog, "table {} already exists in {} (replace it explicitly)", existing->name(), db_path);
    if (existing && options.append && !schema_text.empty())
      fail(ErrorKind::kInvalidInput, "table {} exists: appending uses its schema, give none", existing->name());
    if (!options.append) existing = nullptr;
  } else {
    DatabaseDirectory::check_creatable(db_path);
  }
  CsvLoadReport r;
  settle_format(r, schema_text, existing, files[0], options);
  CsvLoadOptions o = options;
  o.delimiter = r.delimiter;
  o.header = r.header;
  TablePtr t = read_csv_table(existing ? existing->name() : table, r.schema, files, o);
  r.rows = t->row_count();
  if (existing) {
    r.appended = true;
    if (t->row_count() > 0) db->append_rows(t);
    return r;
  }
  t = sort_table(t, options.sort_by);
  if (!db) db = DatabaseDirectory::open_or_create(db_path);
  db->commit({t}, options.replace);
  return r;
}

}  // namespace raydb
