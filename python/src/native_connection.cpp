#include "native_connection.h"

#include "arrow_import.h"
#include "errors.h"
#include "raydb/admin.h"

namespace nb = nanobind;

namespace raydb::python {

namespace {

template <typename T>
T* capsule_pointer(nb::handle capsule, const char* name) {
  void* p = PyCapsule_GetPointer(capsule.ptr(), name);
  if (!p) throw nb::python_error();
  return static_cast<T*>(p);
}

// The batch's columns; the capsules (and so the buffers) stay owned by the caller.
ImportedBatch read_batch(nb::tuple batch) {
  if (batch.size() != 2) throw Error(ErrorKind::kInvalidInput, "expected (schema capsule, array capsule)");
  const auto* schema = capsule_pointer<ArrowSchema>(batch[0], "arrow_schema");
  const auto* array = capsule_pointer<ArrowArray>(batch[1], "arrow_array");
  if (!schema->release || !array->release) throw Error(ErrorKind::kInvalidInput, "Arrow batch already released");
  return import_batch(*schema, *array);
}

void closed() {
  PyErr_SetString(connection_exception(), "connection is closed");
  throw nb::python_error();
}

}  // namespace

NativeConnection::NativeConnection(const std::string& path, bool create)
    : path_(path), db_(create ? Database::open_or_create(path) : Database::open(path)),
      con_(std::make_unique<Connection>(*db_)) {}

NativeConnection::NativeConnection(std::string path, std::shared_ptr<Database> db, const QueryOptions& options)
    : path_(std::move(path)), db_(std::move(db)), con_(std::make_unique<Connection>(*db_, options)) {}

NativeConnection* NativeConnection::cursor() {
  db();
  std::lock_guard lock(mutex_);
  QueryOptions o = con_->options();
  o.cancel = nullptr;  // its own statements: cancelling one session leaves the other's alone
  return new NativeConnection(path_, db_, o);
}

Database& NativeConnection::db() {
  if (!db_) closed();
  return *db_;
}

void NativeConnection::configure(const std::string& backend, int threads,
                                 const std::vector<std::pair<std::string, std::string>>& settings) {
  db();
  QueryOptions o = con_->options();  // all or nothing: a bad value leaves the old options
  o.backend = parse_backend(backend);
  if (threads < 0) throw Error(ErrorKind::kInvalidInput, "threads must be >= 0 (0: all hardware threads)");
  o.threads = threads;
  for (const auto& [name, value] : settings) o.settings.set(name, value);
  con_->options() = std::move(o);
}

NativeResult NativeConnection::query(const std::string& sql, bool keep_on_device) {
  db();
  nb::gil_scoped_release release;
  std::lock_guard lock(mutex_);
  // For this statement only: a SET inside it still persists in the options.
  con_->options().keep_result_on_device = keep_on_device;
  try {
    QueryResult r = con_->query(sql);
    con_->options().keep_result_on_device = false;
    return NativeResult(std::move(r));
  } catch (...) {
    con_->options().keep_result_on_device = false;
    throw;
  }
}

void NativeConnection::register_arrow(const std::string& name, nb::tuple batch) {
  Database& d = db();
  ImportedBatch b = read_batch(batch);
  nb::gil_scoped_release release;
  std::lock_guard lock(mutex_);
  d.register_table(name, b.columns);
}

bool NativeConnection::unregister(const std::string& name) { return db().unregister_table(name); }

uint64_t NativeConnection::create_table_arrow(const std::string& name, nb::tuple batch, bool replace) {
  Database& d = db();
  ImportedBatch b = read_batch(batch);
  nb::gil_scoped_release release;
  std::lock_guard lock(mutex_);
  return d.create_table(name, b.columns, replace);
}

uint64_t NativeConnection::load_csv(const std::string& name, const std::string& schema,
                                    const std::vector<std::string>& files, bool header, const std::string& delimiter,
                                    bool replace) {
  Database& d = db();
  if (delimiter.size() != 1) throw Error(ErrorKind::kInvalidInput, "delimiter must be one character");
  nb::gil_scoped_release release;
  std::lock_guard lock(mutex_);
  return d.load_csv(name, schema, files, header, delimiter[0], replace);
}

std::vector<std::string> NativeConnection::stored_tables() { return admin::table_names(db()); }

void NativeConnection::close() {
  std::lock_guard lock(mutex_);
  con_.reset();
  db_.reset();
}

}  // namespace raydb::python
