#include "storage/persist/column_files.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "common/error.h"
#include "common/stage_times.h"
#include "storage/persist/checksum.h"
#include "storage/persist/file_io.h"

namespace raydb::persist {

namespace {
std::string join(const std::string& dir, const std::string& name) { return dir + "/" + name; }
bool file_exists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

// A small file read whole (a dictionary, a zone map): missing or of another size than
// the manifest's is a one-line error naming its `kind`.
std::string read_sized_file(const std::string& path, const char* kind, uint64_t bytes, const std::string& what) {
  if (!file_exists(path)) fail(ErrorKind::kCatalog, "missing {} file {} ({})", kind, path, what);
  std::string data = read_small_file(path);
  StageTimes::instance().add_bytes(ByteCount::kReadAtOpen, data.size());
  if (data.size() != bytes)
    fail(ErrorKind::kCatalog, "{} file {} ({}) has {} bytes, the manifest says {}", kind, path, what, data.size(),
         bytes);
  return data;
}

// The same checks on the file's size without reading it (open time).
void check_file_size(const std::string& path, const char* kind, uint64_t bytes, const std::string& what) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) fail(ErrorKind::kCatalog, "missing {} file {} ({})", kind, path, what);
  if (uint64_t(st.st_size) != bytes)
    fail(ErrorKind::kCatalog, "{} file {} ({}) has {} bytes, the manifest says {}", kind, path, what,
         uint64_t(st.st_size), bytes);
}

void check_checksum(const void* data, uint64_t bytes, const std::optional<uint64_t>& want, const char* kind,
                    const std::string& path, const std::string& what) {
  if (want && file_checksum(data, bytes) != *want)
    fail(ErrorKind::kCatalog, "{} file {} ({}) is corrupted: its checksum does not match the manifest's", kind, path,
         what);
}
}  // namespace

// Dictionary file layout (little-endian): uint64 offsets[entries + 1] with offsets[0]
// == 0, then the concatenated string bytes; string i is chars[offsets[i],
// offsets[i+1]). Strings are strictly increasing (bytewise), as Dictionary requires.
// The file is mapped, not copied: the Dictionary views the mapping (a heap copy of a
// large dictionary cost more than the query that first used it).
std::shared_ptr<const Dictionary> read_dictionary(const std::string& path, const ManifestDictionary& d,
                                                  const std::string& what) {
  check_file_size(path, "dictionary", d.bytes, what);
  const uint64_t header = 8 * (d.entries + 1);
  if (d.entries >= (uint64_t(1) << 32) || header > d.bytes)
    fail(ErrorKind::kCatalog, "dictionary file {} ({}) has {} bytes, too few for the manifest's {} entries", path, what,
         d.bytes, d.entries);
  std::shared_ptr<const Buffer> image = Buffer::map_file(path, d.bytes);
  StageTimes::instance().add_bytes(ByteCount::kReadAtOpen, d.bytes);
  const char* bytes = static_cast<const char*>(image->data());
  const uint64_t* offsets = reinterpret_cast<const uint64_t*>(bytes);  // mmap: page-aligned
  const uint64_t chars = d.bytes - header;
  if (offsets[0] != 0 || offsets[d.entries] != chars)
    fail(ErrorKind::kCatalog, "dictionary file {} ({}) is corrupted: its offsets do not match its size", path, what);
  for (uint64_t i = 0; i < d.entries; i++)
    if (offsets[i] > offsets[i + 1])
      fail(ErrorKind::kCatalog, "dictionary file {} ({}) is corrupted: offsets decrease at entry {}", path, what, i);
  auto dict = std::make_shared<const Dictionary>(image, offsets, uint32_t(d.entries),
                                                 std::string_view(bytes + header, chars));
  // In parallel: a large dictionary (TPC-H l_comment at SF 20: 90M entries) is read
  // right after every write of its table.
  const int64_t entries = int64_t(dict->size());
  int64_t first_bad = entries;
#pragma omp parallel for schedule(static) reduction(min : first_bad) if (entries > (1 << 16))
  for (int64_t i = 1; i < entries; i++)
    if (!(dict->at(uint32_t(i - 1)) < dict->at(uint32_t(i)))) first_bad = std::min(first_bad, i);
  if (first_bad < entries)
    fail(ErrorKind::kCatalog, "dictionary file {} ({}) is corrupted: entries {} and {} are not in order", path, what,
         first_bad - 1, first_bad);
  // Last, so the structural checks above name what is wrong when they can.
  check_checksum(bytes, d.bytes, d.checksum, "dictionary", path, what);
  return dict;
}

std::shared_ptr<Buffer> read_validity(const std::string& path, const ManifestValidity& v, uint64_t rows,
                                      const std::string& what) {
  if (!file_exists(path)) fail(ErrorKind::kCatalog, "missing validity file {} ({})", path, what);
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || uint64_t(st.st_size) != v.bytes)
    fail(ErrorKind::kCatalog, "validity file {} ({}) has {} bytes, the manifest says {}", path, what,
         uint64_t(st.st_size), v.bytes);
  auto bits = Buffer::map_file(path, v.bytes);
  StageTimes::instance().add_bytes(ByteCount::kReadAtOpen, v.bytes);
  const auto* b = static_cast<const uint8_t*>(bits->data());
  check_checksum(b, v.bytes, v.checksum, "validity", path, what);
  uint64_t valid = 0;
  for (uint64_t i = 0; i < rows; i++) valid += (b[i >> 3] >> (i & 7)) & 1;
  if (rows - valid != v.nulls)
    fail(ErrorKind::kCatalog, "validity file {} ({}) is corrupted: it marks {} NULLs, the manifest says {}", path,
         what, rows - valid, v.nulls);
  return bits;
}

ZoneMapPtr read_zone_map(const std::string& path, const ManifestZoneMap& z, const Type& type, uint64_t rows,
                         const std::string& what) {
  const std::string bytes = read_sized_file(path, "zone map", z.bytes, what);
  check_checksum(bytes.data(), bytes.size(), z.checksum, "zone map", path, what);
  return std::make_shared<const ZoneMap>(ZoneMap::parse(type, bytes, rows, z.block_rows, path + " (" + what + ")"));
}

// A column's stored values are checked once, the first time a query reads the column
// (Column::set_verifier), in one parallel pass: every dictionary code of a VARCHAR
// column names an entry (else MIN or GROUP BY would index outside the dictionary), the
// file's checksum is the manifest's (when it has one), and the manifest's min/max
// statistics are the data's (the planner and executors trust them: a wrong max made
// filtered counts 0). Corruption is a one-line error naming the file; opening a
// database reads no column.
void verify_column(const void* data, uint64_t rows, const ManifestColumn& c, const Dictionary* dict,
                   const std::string& path, const std::string& what) {
  ColumnScan scan = scan_column(c.type, data, rows);
  if (dict && rows > 0 && (scan.stats.min < 0 || scan.stats.max >= int64_t(dict->size())))
    fail(ErrorKind::kCatalog, "column file {} ({}) is corrupted: dictionary code {} outside 0..{}", path, what,
         scan.stats.min < 0 ? scan.stats.min : scan.stats.max, int64_t(dict->size()) - 1);
  if (c.checksum && scan.checksum != *c.checksum)
    fail(ErrorKind::kCatalog, "column file {} ({}) is corrupted: its checksum does not match the manifest's", path,
         what);
  if (rows > 0 && !same_stats(c.type, scan.stats, c.stats))
    fail(ErrorKind::kCatalog,
         "column file {} ({}) does not match the manifest's statistics ({}; the data has {})",
         path, what, stats_text(c.type, c.stats), stats_text(c.type, scan.stats));
}

ColumnPtr open_column(const std::string& dir, const ManifestTable& t, const ManifestColumn& c, bool trusted) {
  std::string what = t.name + "." + c.name;
  std::string path = join(dir, c.file);
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    fail(ErrorKind::kCatalog, "missing column file {} ({})", path, what);
  if (uint64_t(st.st_size) != c.bytes)
    fail(ErrorKind::kCatalog, "column file {} ({}) has {} bytes, the manifest says {} (truncated or foreign file)",
         path, what, uint64_t(st.st_size), c.bytes);
  auto buffer = Buffer::map_file(path, c.bytes);
  auto column = std::make_shared<Column>(c.name, c.type, std::move(buffer), t.rows, nullptr, c.stats);
  // The dictionary: a missing or resized file fails the open as before (a stat), its
  // content is read and checked when a query first uses it (lazy_dictionary.h).
  std::shared_ptr<const LazyDictionary> dict;
  if (c.dictionary) {
    const std::string dict_path = join(dir, c.dictionary->file);
    check_file_size(dict_path, "dictionary", c.dictionary->bytes, what);
    dict = std::make_shared<const LazyDictionary>(
        [dict_path, d = *c.dictionary, what] { return read_dictionary(dict_path, d, what); });
    column->set_lazy_dictionary(dict);
  }
  column->set_nullable(c.nullable);
  if (c.validity) {
    auto bits = read_validity(join(dir, c.validity->file), *c.validity, t.rows, what);
    column->set_validity(std::move(bits), c.validity->nulls);
  }
  column->set_verifier([c, dict, path, what](const void* data, uint64_t rows) {
    verify_column(data, rows, c, dict ? dict->get().get() : nullptr, path, what);
  });
  column->set_stats_trusted(trusted);
  if (trusted && c.narrowed && c.narrowed->checksum) {
    auto n = std::make_shared<NarrowedFile>();
    n->path = join(dir, c.narrowed->file);
    n->what = what;
    n->rows = t.rows;
    n->width = c.narrowed->width;
    n->base = c.narrowed->base;
    n->distinct = c.narrowed->distinct;
    n->checksum = *c.narrowed->checksum;
    if (::stat(n->path.c_str(), &st) != 0)
      fail(ErrorKind::kCatalog, "missing narrowed column file {} ({})", n->path, what);
    if (uint64_t(st.st_size) != n->bytes())
      fail(ErrorKind::kCatalog, "narrowed column file {} ({}) has {} bytes, the manifest says {}", n->path, what,
           uint64_t(st.st_size), n->bytes());
    column->set_narrowed(std::move(n));
  }
  if (trusted && c.zone_map && c.zone_map->checksum)
    column->set_zone_map(read_zone_map(join(dir, c.zone_map->file), *c.zone_map, c.type, t.rows, what));
  return column;
}

}  // namespace raydb::persist
