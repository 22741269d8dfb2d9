#include "storage/loaders/ssb_loader.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "common/error.h"
#include "storage/loaders/delimited_reader.h"
#include "storage/loaders/ssb_schema.h"
#include "storage/persist/database_directory.h"
#include "storage/table_sort.h"

namespace raydb {

std::vector<std::string> find_tbl_files(const std::string& tbl_dir, const std::string& table) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(tbl_dir, ec)) fail(ErrorKind::kIO, "tbl directory {} does not exist", tbl_dir);
  std::string single = tbl_dir + "/" + table + ".tbl";
  if (fs::exists(single, ec)) return {single};
  std::string prefix = table + ".tbl.";
  std::map<uint64_t, std::string> parts;
  for (auto it = fs::directory_iterator(tbl_dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!name.starts_with(prefix) || name.size() == prefix.size() || name.size() > prefix.size() + 9) continue;
    std::string digits = name.substr(prefix.size());
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
    parts[std::stoull(digits)] = tbl_dir + "/" + name;
  }
  if (parts.empty()) fail(ErrorKind::kIO, "cannot find {}.tbl (or {}.tbl.1, ...) in {}", table, table, tbl_dir);
  std::vector<std::string> files;
  uint64_t expected = 1;
  for (auto& [n, path] : parts) {
    if (n != expected)
      fail(ErrorKind::kIO, "{}/{}.tbl.{} is missing (found parts up to {}.tbl.{})", tbl_dir, table, expected, table,
           parts.rbegin()->first);
    files.push_back(path);
    expected++;
  }
  return files;
}

std::vector<TablePtr> read_ssb_tables(const std::string& tbl_dir) {
  // Find every file first, so a missing one is reported before a long parse.
  std::vector<std::vector<std::string>> files;
  for (auto& t : ssb::schema()) files.push_back(find_tbl_files(tbl_dir, t.name));
  std::vector<TablePtr> tables;
  for (size_t i = 0; i < ssb::schema().size(); i++) {
    const auto& t = ssb::schema()[i];
    tables.push_back(read_delimited_table(t.name, t.columns, files[i], DelimitedFormat::tbl(), t.name + ".tbl"));
  }
  return tables;
}

void load_ssb(const std::string& db_path, const std::string& tbl_dir, const std::vector<std::string>& sort_by) {
  std::shared_ptr<DatabaseDirectory> db;
  if (DatabaseDirectory::exists(db_path))
    db = DatabaseDirectory::open(db_path);  // a corrupted database fails before the parse
  else
    DatabaseDirectory::check_creatable(db_path);
  std::vector<TablePtr> tables = read_ssb_tables(tbl_dir);
  if (!db) db = DatabaseDirectory::open_or_create(db_path);
  tables = sort_tables(tables, sort_by);
  db->commit(tables, /*replace=*/true);
}

}  // namespace raydb
