#include "storage/loaders/csv_loader.h"

#include "common/error.h"
#include "storage/loaders/delimited_reader.h"
#include "storage/persist/database_directory.h"

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
  if (!is_valid_table_name(table))
    fail(ErrorKind::kInvalidInput, "invalid table name '{}' (letters, digits and _, not starting with a digit)", table);
  if (files.empty()) fail(ErrorKind::kInvalidInput, "no input files for table {}", table);
  std::vector<ColumnDef> schema = parse_schema(schema_text);
  std::shared_ptr<DatabaseDirectory> db;
  if (DatabaseDirectory::exists(db_path)) {
    db = DatabaseDirectory::open(db_path);
    // Checked again under the lock by commit; this only saves a useless parse.
    if (!options.replace && db->table(table))
      fail(ErrorKind::kCatalog, "table {} already exists in {} (replace it explicitly)", db->table(table)->name(),
           db_path);
  } else {
    DatabaseDirectory::check_creatable(db_path);
  }
  TablePtr t = read_csv_table(table, schema, files, options);
  if (!db) db = DatabaseDirectory::open_or_create(db_path);
  db->commit({t}, options.replace);
  return t->row_count();
}

}  // namespace raydb
