#pragma once
// One open database and a session on it (raydb::Connection): the object behind the
// Python package's raydb.Connection. Queries run without the GIL, one at a time per
// connection (a mutex), so other Python threads keep running. cursor() opens another
// session on the same database (shared caches, its own options), so that several
// threads can run statements at once, as raydb::Database allows.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>

#include "native_result.h"
#include "raydb/raydb.h"

namespace raydb::python {

class NativeConnection {
 public:
  // Opens the database at `path`; with `create`, an empty one is made when `path` is
  // missing or an empty directory.
  NativeConnection(const std::string& path, bool create);
  // Another session on this connection's database, starting with its options (owned by
  // the caller: Python).
  NativeConnection* cursor();

  // backend: auto|cpu|cuda|rt; threads: 0 = all; settings: name -> value as SET takes it.
  void configure(const std::string& backend, int threads, const std::vector<std::pair<std::string, std::string>>& settings);
  // keep_on_device: QueryOptions::keep_result_on_device for this statement only.
  NativeResult query(const std::string& sql, bool keep_on_device = false);
  // `batch` is a pair of PyCapsules (the `__arrow_c_array__` protocol) of a record batch.
  void register_arrow(const std::string& name, nanobind::tuple batch);
  bool unregister(const std::string& name);
  uint64_t create_table_arrow(const std::string& name, nanobind::tuple batch, bool replace);
  uint64_t load_csv(const std::string& name, const std::string& schema, const std::vector<std::string>& files,
                    bool header, const std::string& delimiter, bool replace);
  std::vector<std::string> stored_tables();
  const std::string& path() const { return path_; }
  void close();

 private:
  NativeConnection(std::string path, std::shared_ptr<Database> db, const QueryOptions& options);
  Database& db();  // kInvalidInput (raised as ConnectionException) once closed
  std::string path_;
  std::shared_ptr<Database> db_;  // shared with cursors; closed with the last of them
  std::unique_ptr<Connection> con_;
  std::mutex mutex_;
};

}  // namespace raydb::python
