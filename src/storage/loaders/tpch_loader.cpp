#include "storage/loaders/tpch_loader.h"

#include "storage/loaders/delimited_reader.h"
#include "storage/loaders/ssb_loader.h"
#include "storage/loaders/tpch_schema.h"
#include "storage/persist/database_directory.h"
#include "storage/table_sort.h"

namespace raydb {

std::vector<TablePtr> read_tpch_tables(const std::string& tbl_dir) {
  // Find every file first, so a missing one is reported before a long parse.
  std::vector<std::vector<std::string>> files;
  for (auto& t : tpch::schema()) files.push_back(find_tbl_files(tbl_dir, t.name));
  std::vector<TablePtr> tables;
  for (size_t i = 0; i < tpch::schema().size(); i++) {
    const auto& t = tpch::schema()[i];
    tables.push_back(read_delimited_table(t.name, t.columns, files[i], DelimitedFormat::tbl(), t.name + ".tbl"));
  }
  return tables;
}

void load_tpch(const std::string& db_path, const std::string& tbl_dir, const std::vector<std::string>& sort_by) {
  std::shared_ptr<DatabaseDirectory> db;
  if (DatabaseDirectory::exists(db_path))
    db = DatabaseDirectory::open(db_path);  // a corrupted database fails before the parse
  else
    DatabaseDirectory::check_creatable(db_path);
  std::vector<TablePtr> tables = read_tpch_tables(tbl_dir);
  if (!db) db = DatabaseDirectory::open_or_create(db_path);
  tables = sort_tables(tables, sort_by);
  db->commit(tables, /*replace=*/true);
}

}  // namespace raydb
