#include "storage/persist/database_directory.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>

#include "common/error.h"
#include "storage/persist/checksum.h"
#include "storage/narrow_encoder.h"
#include "storage/persist/column_files.h"
#include "storage/persist/file_io.h"
#include "storage/persist/manifest.h"
#include "storage/table_append.h"

// Column files hold the in-memory arrays byte for byte; the format is little-endian.
static_assert(std::endian::native == std::endian::little, "raydb's file format assumes a little-endian host");

namespace raydb {

using persist::DirectoryLock;
using persist::Manifest;
using persist::ManifestColumn;
using persist::ManifestDictionary;
using persist::ManifestTable;

struct DatabaseDirectory::State {
  Manifest manifest;
  std::vector<TablePtr> tables;  // parallel to manifest.tables
};

namespace {

namespace fs = std::filesystem;

std::string join(const std::string& dir, const std::string& name) { return dir + "/" + name; }

enum class PathKind { kMissing, kDirectory, kOther };
PathKind path_kind(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return PathKind::kMissing;
  return S_ISDIR(st.st_mode) ? PathKind::kDirectory : PathKind::kOther;
}

bool file_exists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

using persist::open_column;

std::vector<TablePtr> open_tables(const std::string& dir, const Manifest& manifest) {
  std::vector<TablePtr> tables;
  for (auto& t : manifest.tables) {
    std::vector<ColumnPtr> cols;
    for (auto& c : t.columns) cols.push_back(open_column(dir, t, c, manifest.checksummed));
    auto table = std::make_shared<Table>(t.name, std::move(cols));
    table->set_sort_key(t.sort_key);
    tables.push_back(std::move(table));
  }
  return tables;
}

// Deletes raydb's own files that `keep` does not name: leftovers of an interrupted
// write, or files an older manifest named. Callers hold the exclusive lock, so no
// writer is producing such files right now. Failures are ignored (a read-only
// directory stays as it is; the files are harmless).
void remove_unreferenced(const std::string& dir, const std::set<std::string>& keep) {
  std::error_code ec;
  bool removed = false;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!persist::is_database_data_file(name) || keep.count(name)) continue;
    if (::unlink(join(dir, name).c_str()) == 0) removed = true;
  }
  if (removed) {
    try {
      persist::fsync_directory(dir);
    } catch (const Error&) {
    }
  }
}

// Deletes rows directories under rt_views/ that `m` does not name (a view that was
// dropped or rebuilt, or the leftover of an interrupted CREATE RT VIEW). Callers hold
// the exclusive lock. Failures are ignored, as above.
void remove_unreferenced_views(const std::string& dir, const Manifest& m) {
  std::set<std::string> keep;
  for (auto& v : m.rt_views) keep.insert(fs::path(v.dir).filename().string());
  std::error_code ec;
  const std::string folder = join(dir, persist::kRtViewFolder);
  for (auto it = fs::directory_iterator(folder, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!keep.count(name)) fs::remove_all(it->path(), ec);
  }
}

// Replaces manifest.json atomically: temp file, fsync, rename, fsync of the directory.
// Once the rename happened the new manifest is live, even if the final fsync fails;
// `renamed` tells the caller so that it never deletes files the manifest names.
void install_manifest(const std::string& dir, const Manifest& m, bool* renamed = nullptr) {
  std::string text = m.to_json();
  std::string tmp = join(dir, Manifest::kTempFileName);
  std::string final_path = join(dir, Manifest::kFileName);
  persist::write_file_durably(tmp, text.data(), text.size());
  if (::rename(tmp.c_str(), final_path.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    fail(ErrorKind::kIO, "cannot rename {} to {}: {}", tmp, final_path, std::strerror(e));
  }
  if (renamed) *renamed = true;
  persist::fsync_directory(dir);
}

Manifest read_manifest_of(const std::string& dir) {
  std::string mpath = join(dir, Manifest::kFileName);
  if (!file_exists(mpath)) fail(ErrorKind::kCatalog, "{} is not a raydb database (no manifest.json)", dir);
  return Manifest::read(mpath);
}

void check_is_directory(const std::string& path) {
  switch (path_kind(path)) {
    case PathKind::kMissing: fail(ErrorKind::kCatalog, "database directory {} does not exist", path);
    case PathKind::kOther: fail(ErrorKind::kCatalog, "{} is not a directory", path);
    case PathKind::kDirectory: break;
  }
}

// True when `path` holds nothing but files raydb itself writes (none at all, or the
// leftovers of a creation that was killed before its manifest was in place). Such a
// directory may become a database; anything else in it is somebody else's.
bool directory_is_free(const std::string& path) {
  std::error_code ec;
  fs::directory_iterator it(path, ec);
  if (ec) fail(ErrorKind::kIO, "cannot list directory {}: {}", path, ec.message());
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) fail(ErrorKind::kIO, "cannot list directory {}: {}", path, ec.message());
    if (!persist::is_database_data_file(it->path().filename().string())) return false;
  }
  return true;
}

// One file to write: its name in the directory and its bytes (which live in the
// tables being committed).
struct FileJob {
  std::string name;
  std::vector<persist::FilePiece> pieces;
  std::shared_ptr<const void> owned;  // bytes made for the file (a narrowed form), else null
};

// The narrowed form of an integer column with rows (narrow_encoder.h), as the GPU
// loader reads it: stored values, then the decode values; planned into `jobs`.
persist::ManifestNarrowed plan_narrowed(const Column& col, const void* bytes, const ColumnStats& stats,
                                        const std::string& stem, std::vector<FileJob>& jobs) {
  const NarrowEncoder enc(col.type(), bytes, col.size(), stats);
  persist::ManifestNarrowed n;
  n.file = stem + ".nar";
  n.width = enc.width();
  n.base = enc.base();
  n.distinct = enc.decode().size();
  n.bytes = enc.encoded_bytes() + n.distinct * 8;
  auto image = std::make_shared<std::vector<char>>(n.bytes);
  enc.encode(0, col.size(), image->data());
  if (n.distinct) std::memcpy(image->data() + enc.encoded_bytes(), enc.decode().data(), n.distinct * 8);
  n.checksum = persist::file_checksum(image->data(), image->size());
  jobs.push_back({n.file, {{image->data(), image->size()}}, image});
  return n;
}

// The zone map of a column with rows (storage/zone_map.h), computed from the bytes
// being written, so every writer (load, CREATE TABLE AS, INSERT, UPDATE, DELETE)
// leaves zone maps that describe its rows; planned into `jobs`.
persist::ManifestZoneMap plan_zone_map(const Column& col, const void* bytes, const std::string& stem,
                                       std::vector<FileJob>& jobs) {
  const uint8_t* bits = col.has_nulls() ? static_cast<const uint8_t*>(col.validity()->data()) : nullptr;
  auto image = std::make_shared<std::string>(ZoneMap::build(col.type(), bytes, col.size(), bits).bytes());
  persist::ManifestZoneMap z;
  z.file = stem + ".zmp";
  z.bytes = image->size();
  z.block_rows = ZoneMap::kBlockRows;
  z.checksum = persist::file_checksum(image->data(), image->size());
  jobs.push_back({z.file, {{image->data(), image->size()}}, image});
  return z;
}

// Plans one table's column and dictionary files for generation `gen` and returns its
// manifest entry.
ManifestTable plan_table(const Table& table, uint64_t gen, size_t table_number, std::vector<FileJob>& jobs) {
  ManifestTable mt;
  mt.name = table.name();
  mt.rows = table.row_count();
  std::string prefix =
      fmt::format("g{}.t{}.{}", gen, table_number, persist::sanitize_file_component(table.name()));
  for (size_t i = 0; i < table.column_count(); i++) {
    const Column& col = table.column(i);
    if (!col.type().storable())
      fail(ErrorKind::kInvalidInput, "column {}.{} has type {}, which cannot be stored", table.name(), col.name(),
           col.type().to_string());
    ManifestColumn mc;
    mc.name = col.name();
    mc.type = col.type();
    std::string stem = fmt::format("{}.c{}.{}", prefix, i, persist::sanitize_file_component(col.name()));
    mc.file = stem + ".col";
    mc.bytes = col.size() * uint64_t(col.type().physical_width());
    const void* bytes = col.buffer() ? col.buffer()->data() : nullptr;
    // Statistics and checksum from the bytes written, so the manifest describes the
    // file exactly (open_column verifies both against it).
    persist::ColumnScan scan = persist::scan_column(col.type(), bytes, col.size());
    mc.stats = scan.stats;
    mc.checksum = scan.checksum;
    jobs.push_back({mc.file, {{bytes, mc.bytes}}, nullptr});
    if (col.type().id == TypeId::kVarchar) {
      const Dictionary* dict = col.dictionary();
      if (!dict) fail(ErrorKind::kInternal, "VARCHAR column {}.{} has no dictionary", table.name(), col.name());
      ManifestDictionary md;
      md.file = stem + ".dict";
      md.entries = dict->size();
      md.bytes = dict->offsets().size() * 8 + dict->chars().size();
      std::string image(reinterpret_cast<const char*>(dict->offsets().data()), dict->offsets().size() * 8);
      image += dict->chars();
      md.checksum = persist::file_checksum(image.data(), image.size());
      jobs.push_back({md.file,
                      {{dict->offsets().data(), dict->offsets().size() * 8}, {dict->chars().data(), dict->chars().size()}},
                      nullptr});
      mc.dictionary = md;
    }
    mc.nullable = col.nullable();
    if (col.has_nulls()) {  // a bitmap only where a NULL is held (manifest.h)
      persist::ManifestValidity mv;
      mv.file = stem + ".valid";
      mv.bytes = validity_bytes(col.size());
      mv.nulls = col.null_count();
      const void* bits = col.validity()->data();
      mv.checksum = persist::file_checksum(bits, mv.bytes);
      jobs.push_back({mv.file, {{bits, mv.bytes}}, nullptr});
      mc.validity = mv;
    }
    if (col.type().id != TypeId::kDouble && col.size() > 0) mc.narrowed = plan_narrowed(col, bytes, mc.stats, stem, jobs);
    if (col.size() > 0) mc.zone_map = plan_zone_map(col, bytes, stem, jobs);
    mt.columns.push_back(std::move(mc));
  }
  mt.sort_key = table.sort_key();
  mt.computed = true;
  return mt;
}

// Writes and fsyncs all files, several at a time (fsync latency overlaps). Throws the
// first failure after all writers stopped.
void write_files(const std::string& dir, const std::vector<FileJob>& jobs) {
  std::exception_ptr error;
  std::mutex error_mutex;
  const int64_t n = int64_t(jobs.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t k = 0; k < n; k++) {
    {
      std::lock_guard<std::mutex> g(error_mutex);
      if (error) continue;
    }
    try {
      const FileJob& job = jobs[size_t(k)];
      persist::write_file_durably(join(dir, job.name), job.pieces.data(), job.pieces.size());
    } catch (...) {
      std::lock_guard<std::mutex> g(error_mutex);
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace

std::shared_ptr<DatabaseDirectory> DatabaseDirectory::open(const std::string& path) {
  check_is_directory(path);
  if (!file_exists(join(path, Manifest::kFileName)))
    fail(ErrorKind::kCatalog, "{} is not a raydb database (no manifest.json)", path);
  std::shared_ptr<DatabaseDirectory> db(new DatabaseDirectory());
  db->path_ = path;
  // With no writer active (the exclusive lock is free), leftovers of a killed write
  // are removed here, so an interrupted load leaves no trace once the database is
  // opened again. Otherwise wait for the writer and just read.
  DirectoryLock lock = DirectoryLock::try_exclusive(path);
  std::optional<DirectoryLock> shared;
  if (!lock.locked()) shared.emplace(path, DirectoryLock::Mode::kShared);
  Manifest manifest = read_manifest_of(path);
  if (lock.locked()) {
    remove_unreferenced(path, manifest.referenced_files());
    remove_unreferenced_views(path, manifest);
  }
  auto state = std::make_shared<State>();
  state->tables = open_tables(path, manifest);
  state->manifest = std::move(manifest);
  db->state_ = std::move(state);
  return db;
}

std::shared_ptr<DatabaseDirectory> DatabaseDirectory::open_or_create(const std::string& path) {
  PathKind kind = path_kind(path);
  if (kind == PathKind::kOther) fail(ErrorKind::kCatalog, "{} is not a directory", path);
  if (kind == PathKind::kDirectory && file_exists(join(path, Manifest::kFileName))) return open(path);
  if (kind == PathKind::kMissing) {
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec) fail(ErrorKind::kIO, "cannot create database directory {}: {}", path, ec.message());
  }
  {
    DirectoryLock lock(path, DirectoryLock::Mode::kExclusive);
    // Another process may have created the database while we waited for the lock.
    if (!file_exists(join(path, Manifest::kFileName))) {
      if (!directory_is_free(path))
        fail(ErrorKind::kCatalog, "{} is not empty and is not a raydb database (no manifest.json); not touching it",
             path);
      remove_unreferenced(path, {});
      install_manifest(path, Manifest{});
    }
  }
  return open(path);
}

void DatabaseDirectory::install_state(persist::Manifest manifest) {
  auto state = std::make_shared<State>();
  // Tables whose files did not change keep their mapped objects, so what was built
  // from them (in-memory indexes, keyed by the table object) stays valid across
  // commits that touch other tables or only the index catalog.
  std::shared_ptr<State> old;
  {
    std::lock_guard<std::mutex> g(mutex_);
    old = state_;
  }
  auto same_files = [](const ManifestTable& a, const ManifestTable& b) {
    if (a.name != b.name || a.rows != b.rows || a.columns.size() != b.columns.size()) return false;
    for (size_t c = 0; c < a.columns.size(); c++)
      if (a.columns[c].file != b.columns[c].file) return false;
    return true;
  };
  for (auto& t : manifest.tables) {
    int i = old ? old->manifest.find_table(t.name) : -1;
    if (i >= 0 && same_files(old->manifest.tables[size_t(i)], t)) {
      state->tables.push_back(old->tables[size_t(i)]);
      continue;
    }
    std::vector<ColumnPtr> cols;
    for (auto& c : t.columns) cols.push_back(open_column(path_, t, c, manifest.checksummed || t.computed));
    auto table = std::make_shared<Table>(t.name, std::move(cols));
    table->set_sort_key(t.sort_key);
    state->tables.push_back(std::move(table));
  }
  state->manifest = std::move(manifest);
  std::lock_guard<std::mutex> g(mutex_);
  // Two threads may commit through one object; keep the newer generation.
  if (state->manifest.generation > state_->manifest.generation) state_ = std::move(state);
}

bool DatabaseDirectory::exists(const std::string& path) {
  return path_kind(path) == PathKind::kDirectory && file_exists(join(path, Manifest::kFileName));
}

void DatabaseDirectory::check_creatable(const std::string& path) {
  PathKind kind = path_kind(path);
  if (kind == PathKind::kOther) fail(ErrorKind::kCatalog, "{} is not a directory", path);
  if (kind != PathKind::kDirectory || file_exists(join(path, Manifest::kFileName))) return;
  // Another process may be creating the database right now (it holds the exclusive
  // lock while it writes manifest.json.tmp and renames it): wait for it, then look.
  DirectoryLock lock(path, DirectoryLock::Mode::kShared);
  if (!file_exists(join(path, Manifest::kFileName)) && !directory_is_free(path))
    fail(ErrorKind::kCatalog, "{} is not empty and is not a raydb database (no manifest.json); not touching it", path);
}

std::vector<std::string> DatabaseDirectory::table_names() const {
  std::shared_ptr<State> s;
  {
    std::lock_guard<std::mutex> g(mutex_);
    s = state_;
  }
  std::vector<std::string> names;
  for (auto& t : s->manifest.tables) names.push_back(t.name);
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    std::string la = to_lower(a), lb = to_lower(b);
    return la != lb ? la < lb : a < b;
  });
  return names;
}

uint64_t DatabaseDirectory::generation() const {
  std::lock_guard<std::mutex> g(mutex_);
  return state_->manifest.generation;
}

TablePtr DatabaseDirectory::table(std::string_view name) const {
  std::lock_guard<std::mutex> g(mutex_);
  int i = state_->manifest.find_table(name);
  return i < 0 ? nullptr : state_->tables[size_t(i)];
}

void DatabaseDirectory::commit(const std::vector<TablePtr>& tables, bool replace) {
  for (size_t i = 0; i < tables.size(); i++) {
    if (!tables[i]) fail(ErrorKind::kInternal, "commit of a null table");
    if (tables[i]->name().empty()) fail(ErrorKind::kInvalidInput, "a table name cannot be empty");
    for (size_t j = 0; j < i; j++)
      if (iequals(tables[i]->name(), tables[j]->name()))
        fail(ErrorKind::kInvalidInput, "table {} is given twice in one commit", tables[i]->name());
  }
  check_is_directory(path_);
  DirectoryLock lock(path_, DirectoryLock::Mode::kExclusive);
  // Re-read under the lock: another process may have committed since we opened.
  Manifest current = read_manifest_of(path_);
  for (auto& t : tables)
    if (!replace && current.find_table(t->name()) >= 0)
      fail(ErrorKind::kCatalog, "table {} already exists in {}", current.tables[size_t(current.find_table(t->name()))].name,
           path_);
  for (auto& t : tables)
    if (current.find_view(t->name()) >= 0)
      fail(ErrorKind::kCatalog, "{} is a view in {}; a table cannot take its name", t->name(), path_);
  write_tables(current, tables, false);
}

void DatabaseDirectory::write_tables(const Manifest& current, const std::vector<TablePtr>& tables, bool keep_catalog) {
  remove_unreferenced(path_, current.referenced_files());
  Manifest next = current;
  next.generation = current.generation + 1;
  std::vector<FileJob> jobs;
  for (size_t k = 0; k < tables.size(); k++) {
    ManifestTable mt = plan_table(*tables[k], next.generation, k, jobs);
    int existing = next.find_table(mt.name);
    if (existing >= 0) {
      if (keep_catalog) {
        mt.name = next.tables[size_t(existing)].name;  // the catalog's spelling
        next.tables[size_t(existing)] = std::move(mt);
        continue;
      }
      next.tables.erase(next.tables.begin() + existing);
      next.drop_indexes_of(mt.name);  // the index described the old rows
    }
    next.tables.push_back(std::move(mt));
  }
  bool renamed = false;
  try {
    write_files(path_, jobs);
    persist::fsync_directory(path_);  // the new files' entries, before a manifest names them
    install_manifest(path_, next, &renamed);
  } catch (...) {
    if (!renamed)
      for (auto& job : jobs) ::unlink(join(path_, job.name).c_str());
    throw;
  }
  remove_unreferenced(path_, next.referenced_files());
  install_state(std::move(next));
}

uint64_t DatabaseDirectory::append_rows(const TablePtr& rows) {
  if (!rows) fail(ErrorKind::kInternal, "append of a null table");
  check_is_directory(path_);
  DirectoryLock lock(path_, DirectoryLock::Mode::kExclusive);
  Manifest current = read_manifest_of(path_);
  const int i = current.find_table(rows->name());
  if (i < 0) fail(ErrorKind::kCatalog, "table {} no longer exists in {}; nothing was written", rows->name(), path_);
  const ManifestTable& mt = current.tables[size_t(i)];
  bool same = mt.columns.size() == rows->column_count();
  for (size_t c = 0; same && c < mt.columns.size(); c++)
    same = iequals(mt.columns[c].name, rows->column(c).name()) && mt.columns[c].type == rows->column(c).type();
  if (!same)
    fail(ErrorKind::kCatalog, "table {} was dropped and created again while the statement ran; nothing was written",
         mt.name);
  // The table as the manifest on disk names it (another process may have appended).
  std::vector<ColumnPtr> cols;
  for (auto& c : mt.columns) cols.push_back(open_column(path_, mt, c, current.checksummed));
  const Table base(mt.name, std::move(cols));
  TablePtr merged = raydb::append_rows(base, *rows);
  write_tables(current, {merged}, true);
  return merged->row_count();
}

void DatabaseDirectory::replace_rows(const TablePtr& rows, const std::string& version) {
  if (!rows) fail(ErrorKind::kInternal, "replace with a null table");
  check_is_directory(path_);
  DirectoryLock lock(path_, DirectoryLock::Mode::kExclusive);
  Manifest current = read_manifest_of(path_);
  const int i = current.find_table(rows->name());
  if (i < 0) fail(ErrorKind::kCatalog, "table {} no longer exists in {}; nothing was written", rows->name(), path_);
  const ManifestTable& mt = current.tables[size_t(i)];
  bool same = mt.columns.size() == rows->column_count() && mt.columns[0].file == version;
  for (size_t c = 0; same && c < mt.columns.size(); c++)
    same = iequals(mt.columns[c].name, rows->column(c).name()) && mt.columns[c].type == rows->column(c).type();
  if (!same)
    fail(ErrorKind::kCatalog, "table {} was changed by another statement while this one ran; nothing was written",
         mt.name);
  write_tables(current, {rows}, true);
}

std::vector<ViewEntry> DatabaseDirectory::views() const {
  std::lock_guard<std::mutex> g(mutex_);
  return state_->manifest.views;
}

void DatabaseDirectory::create_view(ViewEntry view) {
  if (view.name.empty()) fail(ErrorKind::kInvalidInput, "a view name cannot be empty");
  check_is_directory(path_);
  DirectoryLock lock(path_, DirectoryLock::Mode::kExclusive);
  Manifest current = read_manifest_of(path_);
  if (int t = current.find_table(view.name); t >= 0)
    fail(ErrorKind::kCatalog, "{} is a table; a view cannot take its name", current.tables[size_t(t)].name);
  if (int v = current.find_view(view.name); v >= 0)
    fail(ErrorKind::kCatalog, "view {} already exists", current.views[size_t(v)].name);
  Manifest next = current;
  next.generation = current.generation + 1;
  next.views.push_back(std::move(view));
  install_manifest(path_, next);
  install_state(std::move(next));
}

bool DatabaseDirectory::drop_view(std::string_view name, bool if_exists) {
  check_is_directory(path_);
  DirectoryLock lock(path_, DirectoryLock::Mode::kExclusive);
  Manifest current = read_manifest_of(path_);
  const int i = current.find_view(name);
  if (i < 0) {
    if (if_exists) return false;
    fail(ErrorKind::kCatalog, "view {} does not exist", name);
  }
  Manifest next = current;
  next.generation = current.generation + 1;
  next.views.erase(next.views.begin() + i);
  install_manifest(path_, next);
  install_state(std::move(next));
  return true;
}

void DatabaseDirectory::drop_table(std::string_view name) {
  check_is_directory(path_);
  DirectoryLock lock(path_, DirectoryLock::Mode::kExclusive);
  Manifest current = read_manifest_of(path_);
  int i = current.find_table(name);
  if (i < 0) fail(ErrorKind::kCatalog, "table {} does not exist in {}", name, path_);
  remove_unreferenced(path_, current.referenced_files());
  Manifest next = current;
  next.generation = current.generation + 1;
  next.drop_indexes_of(next.tables[size_t(i)].name);
  next.drop_rt_views_of(next.tables[size_t(i)].name);
  next.tables.erase(next.tables.begin() + i);
  install_manifest(path_, next);
  remove_unreferenced(path_, next.referenced_files());
  remove_unreferenced_views(path_, next);
  install_state(std::move(next));
}

std::vector<IndexDefinition> DatabaseDirectory::indexes() const {
  std::lock_guard<std::mutex> g(mutex_);
  return state_->manifest.indexes;
}

void DatabaseDirectory::create_index(IndexDefinition def) {
  if (def.name.empty()) fail(ErrorKind::kInvalidInput, "an index name cannot be empty");
  if (!IndexDefinition::known_kind(def.kind))
    fail(ErrorKind::kInvalidInput, "unknown index kind '{}' (expected RT, SORTED, HASH or RTSCAN)", def.kind);
  std::vector<std::string> names = def.column_list();
  if (names.size() > 1 && !IndexDefinition::multi_column_kind(def.kind))
    fail(ErrorKind::kInvalidInput, "a {} index takes one column (only RTSCAN indexes several)", def.kind);
  check_is_directory(path_);
  DirectoryLock lock(path_, DirectoryLock::Mode::kExclusive);
  // Validate against the manifest on disk (another process may have changed it).
  Manifest current = read_manifest_of(path_);
  if (int i = current.find_index(def.name); i >= 0)
    fail(ErrorKind::kCatalog, "index {} already exists (on {}.{})", current.indexes[size_t(i)].name,
         current.indexes[size_t(i)].table, current.indexes[size_t(i)].column);
  int t = current.find_table(def.table);
  if (t < 0) fail(ErrorKind::kBinder, "unknown table '{}'", def.table);
  const ManifestTable& mt = current.tables[size_t(t)];
  for (std::string& name : names) {
    const ManifestColumn* col = nullptr;
    for (auto& c : mt.columns)
      if (iequals(c.name, name)) col = &c;
    if (!col) fail(ErrorKind::kBinder, "table '{}' has no column '{}'", mt.name, name);
    if (col->type.id == TypeId::kDouble)
      fail(ErrorKind::kInvalidInput, "cannot index column {}.{} of type DOUBLE (indexes take INTEGER, BIGINT, DECIMAL, "
           "DATE and VARCHAR keys)", mt.name, col->name);
    name = col->name;
  }
  for (size_t i = 0; i < names.size(); i++)
    for (size_t j = 0; j < i; j++)
      if (names[i] == names[j]) fail(ErrorKind::kInvalidInput, "index {} names column {} twice", def.name, names[i]);
  def.table = mt.name;
  def.column = names[0];
  if (names.size() > 1) def.columns = names;
  else def.columns.clear();
  Manifest next = current;
  next.generation = current.generation + 1;
  next.indexes.push_back(std::move(def));
  install_manifest(path_, next);
  install_state(std::move(next));
}

bool DatabaseDirectory::drop_index(std::string_view name, bool if_exists) {
  check_is_directory(path_);
  DirectoryLock lock(path_, DirectoryLock::Mode::kExclusive);
  Manifest current = read_manifest_of(path_);
  int i = current.find_index(name);
  if (i < 0) {
    if (if_exists) return false;
    fail(ErrorKind::kCatalog, "index {} does not exist", name);
  }
  Manifest next = current;
  next.generation = current.generation + 1;
  next.indexes.erase(next.indexes.begin() + i);
  install_manifest(path_, next);
  install_state(std::move(next));
  return true;
}

std::vector<RtViewEntry> DatabaseDirectory::rt_views() const {
  std::lock_guard<std::mutex> g(mutex_);
  return state_->manifest.rt_views;
}

std::string DatabaseDirectory::table_version(std::string_view name) const {
  std::lock_guard<std::mutex> g(mutex_);
  int i = state_->manifest.find_table(name);
  if (i < 0) return "";
  const ManifestTable& t = state_->manifest.tables[size_t(i)];
  return t.columns.empty() ? "rows:" + std::to_string(t.rows) : t.columns[0].file;
}

void DatabaseDirectory::put_rt_view(RtViewEntry entry, const std::function<void(const std::string& dir)>& write_rows,
                                    bool replace) {
  if (entry.name.empty()) fail(ErrorKind::kInvalidInput, "a view name cannot be empty");
  check_is_directory(path_);
  DirectoryLock lock(path_, DirectoryLock::Mode::kExclusive);
  Manifest current = read_manifest_of(path_);
  const int existing = current.find_rt_view(entry.name);
  if (existing >= 0 && !replace) fail(ErrorKind::kCatalog, "view {} already exists", current.rt_views[size_t(existing)].name);
  if (existing < 0 && replace) fail(ErrorKind::kCatalog, "view {} no longer exists", entry.name);
  for (auto& t : entry.tables) {
    int ti = current.find_table(t);
    if (ti < 0) fail(ErrorKind::kCatalog, "view {}: table {} no longer exists", entry.name, t);
    t = current.tables[size_t(ti)].name;
  }
  Manifest next = current;
  next.generation = current.generation + 1;
  // Names are unique case-insensitively, so the lower-case name plus the generation
  // is a fresh directory.
  entry.dir = std::string(persist::kRtViewFolder) + "/" + to_lower(entry.name) + ".g" + std::to_string(next.generation);
  const std::string abs = join(path_, entry.dir);
  std::error_code ec;
  const bool created_folder = fs::create_directories(join(path_, persist::kRtViewFolder), ec);
  if (ec) fail(ErrorKind::kIO, "cannot create {}: {}", join(path_, persist::kRtViewFolder), ec.message());
  bool renamed = false;
  try {
    write_rows(abs);
    persist::fsync_directory(join(path_, persist::kRtViewFolder));
    if (existing >= 0) next.rt_views[size_t(existing)] = std::move(entry);
    else next.rt_views.push_back(std::move(entry));
    install_manifest(path_, next, &renamed);
  } catch (...) {
    if (!renamed) {
      fs::remove_all(abs, ec);
      fs::remove_all(abs + ".new", ec);
      if (created_folder) fs::remove(join(path_, persist::kRtViewFolder), ec);  // the directory as it was
    }
    throw;
  }
  remove_unreferenced_views(path_, next);
  install_state(std::move(next));
}

bool DatabaseDirectory::drop_rt_view(std::string_view name, bool if_exists) {
  check_is_directory(path_);
  DirectoryLock lock(path_, DirectoryLock::Mode::kExclusive);
  Manifest current = read_manifest_of(path_);
  int i = current.find_rt_view(name);
  if (i < 0) {
    if (if_exists) return false;
    fail(ErrorKind::kCatalog, "view {} does not exist", name);
  }
  Manifest next = current;
  next.generation = current.generation + 1;
  next.rt_views.erase(next.rt_views.begin() + i);
  install_manifest(path_, next);
  remove_unreferenced_views(path_, next);
  install_state(std::move(next));
  return true;
}

}  // namespace raydb
