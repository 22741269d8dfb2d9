#pragma once
// A database is a directory: manifest.json (format version, tables, their schemas,
// row counts, column files, dictionaries, statistics) plus one little-endian file per
// column, read through mmap. Every change is atomic: new files are written and
// fsynced, then manifest.json is replaced by rename (and the directory fsynced);
// files the new manifest no longer names are removed afterwards. A failed or killed
// write leaves the previous manifest, and so the previous database, in force.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <functional>

#include "storage/index_definition.h"
#include "storage/rt_view_entry.h"
#include "storage/view_entry.h"
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
  // The manifest's commit generation: every commit, drop and catalog change raises it.
  uint64_t generation() const;
  std::vector<std::string> table_names() const;   // sorted
  TablePtr table(std::string_view name) const;    // case-insensitive; nullptr when absent

  // Writes `tables` in one atomic step. A table whose name exists is replaced when
  // `replace`, else the call fails (kCatalog) before writing anything.
  void commit(const std::vector<TablePtr>& tables, bool replace);
  void drop_table(std::string_view name);  // atomic; kCatalog when absent; drops its indexes
  // Appends `rows` (a table of the same name and schema: INSERT, COPY FROM) to the
  // table as it is on disk now, in one atomic commit under the exclusive lock, so
  // concurrent appends all land (the last one reads the rows the others wrote). Keeps
  // the table's indexes (rebuilt from the new rows when used) and RT views
  // (re-materialized before their next use). Fails (kCatalog) before writing when the
  // table no longer exists or its columns changed (dropped and created again).
  // Returns the table's rows after the append.
  uint64_t append_rows(const TablePtr& rows);
  // Replaces the rows of table `rows->name()` (UPDATE, DELETE: the whole table as the
  // statement leaves it) in one atomic commit under the exclusive lock, keeping its
  // indexes and RT views as append_rows does. Fails (kCatalog) before writing when
  // the table's rows on disk are no longer those of `version` (table_version, read
  // before the statement computed its rows: another writer changed the table).
  void replace_rows(const TablePtr& rows, const std::string& version);

  // Plain views (CREATE VIEW): name and SQL text in the manifest. A view's name is
  // unique among tables and views.
  std::vector<ViewEntry> views() const;  // in creation order
  void create_view(ViewEntry view);      // kCatalog when the name is taken
  bool drop_view(std::string_view name, bool if_exists);  // false when absent and if_exists

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

  // RT views (CREATE RT VIEW): definitions in the manifest, encoded rows in a
  // directory of their own. A replaced base table leaves the view in place with its
  // old version recorded (the caller rebuilds it on next use); a dropped one drops it.
  std::vector<RtViewEntry> rt_views() const;  // in creation order
  // The identity of table `name`'s current rows (its first column file, named by the
  // commit generation that wrote it); "" when the table does not exist.
  std::string table_version(std::string_view name) const;
  // Adds `entry` (or replaces the view of that name when `replace`) atomically: under
  // the directory lock, `write_rows(dir)` writes the rows into a new directory (an
  // absolute path), then the manifest naming it is installed and the old rows
  // directory removed. Fails (kCatalog, one line) before writing when the name is
  // taken (and !replace) or absent (and replace), or a table no longer exists; a
  // failure of write_rows removes what it wrote and leaves the catalog as it was.
  void put_rt_view(RtViewEntry entry, const std::function<void(const std::string& dir)>& write_rows, bool replace);
  // Removes view `name` and its rows; false when absent and `if_exists`, else kCatalog.
  bool drop_rt_view(std::string_view name, bool if_exists);

 private:
  DatabaseDirectory() = default;
  // Maps the tables `manifest` names and makes them current.
  void install_state(persist::Manifest manifest);
  // commit's body under the exclusive lock: writes the tables' files and the manifest.
  // `keep_catalog`: the replaced table keeps its indexes (INSERT, COPY FROM).
  void write_tables(const persist::Manifest& current, const std::vector<TablePtr>& tables, bool keep_catalog);
  struct State;  // manifest + mapped tables; defined in database_directory.cpp
  std::string path_;
  std::shared_ptr<State> state_;
  mutable std::mutex mutex_;
};

}  // namespace raydb
