#pragma once
// A database is a directory: manifest.json (format version, tables, their schemas,
// row counts, column files, dictionaries, statistics) plus one little-endian file per
// column, read through mmap. Every change is atomic: new files are written and
// fsynced, then manifest.json is replaced by rename (and the directory fsynced);
// files the new manifest no longer names are removed afterwards. A failed or killed
// write leaves the previous manifest, and so the previous database, in force.
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "storage/index_definition.h"
#include "storage/table.h"

namespace raydb {

namespace persist {
struct Manifest;
}

class DatabaseDirectory {
 public:
  // Opens an existing database. Errors (kCatalog, one line, naming the path): the
  // directory is missing, is not a raydb database (no manifest.json), or its manifest
  // is corrupted or of an unknown format version, or a column file is missing/truncated.
  static std::shared_ptr<DatabaseDirectory> open(const std::string& path);
  // Opens `path` if it is a database; creates an empty database if `path` is missing
  // or an empty directory; otherwise (a non-empty directory that is not a database)
  // fails with kCatalog and touches nothing.
  static std::shared_ptr<DatabaseDirectory> open_or_create(const std::string& path);
  // Whether `path` is a directory with a manifest.json (its content is not checked).
  static bool exists(const std::string& path);
  // Throws what open_or_create would throw for a path that is not a database (not a
  // directory; a non-empty directory without manifest.json) without creating
  // anything. Loaders call it before a long parse and create the database only once
  // the data is ready, so a failed load into a new path leaves nothing behind.
  static void check_creatable(const std::string& path);

  const std::string& path() const { return path_; }
  std::vector<std::string> table_names() const;   // sorted
  TablePtr table(std::string_view name) const;    // case-insensitive; nullptr when absent

  // Writes `tables` in one atomic step. A table whose name exists is replaced when
  // `replace`, else the call fails (kCatalog) before writing anything.
  void commit(const std::vector<TablePtr>& tables, bool replace);
  void drop_table(std::string_view name);  // atomic; kCatalog when absent; drops its indexes

  // Secondary indexes (definitions only: nothing but the manifest changes). A table
  // that is replaced or dropped loses its indexes.
  std::vector<IndexDefinition> indexes() const;  // in creation order
  // Adds `def` atomically. Its table and column are resolved case-insensitively and
  // stored under their catalog names. Fails (kCatalog or kBinder, one line) before
  // writing anything when the name is taken, the table or column does not exist,
  // the column is DOUBLE or the kind is unknown. Options must be validated by the
  // caller (storage/ does not know what they mean).
  void create_index(IndexDefinition def);
  // Removes index `name`; false (and nothing written) when it does not exist and
  // `if_exists`, else kCatalog.
  bool drop_index(std::string_view name, bool if_exists);

 private:
  DatabaseDirectory() = default;
  // Maps the tables `manifest` names and makes them current.
  void install_state(persist::Manifest manifest);
  struct State;  // manifest + mapped tables; defined in database_directory.cpp
  std::string path_;
  std::shared_ptr<State> state_;
  mutable std::mutex mutex_;
};

}  // namespace raydb
