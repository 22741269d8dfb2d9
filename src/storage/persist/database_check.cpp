#include "storage/persist/database_check.h"

#include <sys/stat.h>

#include "common/error.h"
#include "storage/persist/column_files.h"
#include "storage/persist/narrowed_reader.h"
#include "storage/persist/file_io.h"
#include "storage/persist/manifest.h"

namespace raydb::persist {

namespace {

// Checks one column's files; each failure becomes a problem line.
void check_column(const std::string& dir, const ManifestTable& t, const ManifestColumn& c, bool sealed,
                  CheckReport& report) {
  const std::string what = t.name + "." + c.name;
  try {
    ColumnPtr col = open_column(dir, t, c, sealed);  // presence and size of its files
    col->dictionary();                                // the dictionary's order and checksum
    col->verify();                                    // codes, checksum, statistics
    report.files += (c.dictionary ? 2 : 1) + (c.validity ? 1 : 0);  // open_column verified the validity file
    report.bytes += c.bytes + (c.dictionary ? c.dictionary->bytes : 0) + (c.validity ? c.validity->bytes : 0);
    if (col->narrowed()) {  // its checksum, and every value equal to the column's
      verify_narrowed_file(*col->narrowed(), *col);
      report.files++;
      report.bytes += col->narrowed()->bytes();
    }
    if (col->zone_map()) {  // its checksum held at open; its blocks must be the data's
      const uint8_t* bits = col->has_nulls() ? static_cast<const uint8_t*>(col->validity()->data()) : nullptr;
      const ZoneMap& z = *col->zone_map();
      const void* data = col->buffer()->data();
      if (z.block_rows() != ZoneMap::kBlockRows ||
          ZoneMap::build(c.type, data, col->size(), bits).bytes() != z.bytes())
        report.problems.push_back(fmt::format("zone map file {}/{} ({}) does not describe the column's blocks", dir,
                                              c.zone_map->file, what));
      report.files++;
      report.bytes += c.zone_map->bytes;
    }
  } catch (const Error& e) {
    report.problems.push_back(e.what());
  }
  if (sealed && (!c.checksum || (c.dictionary && !c.dictionary->checksum)))
    report.notes.push_back(fmt::format("{} has no checksum (written by an older raydb): its contents were checked "
                                       "against its statistics only",
                                       what));
}

}  // namespace

CheckReport check_database_files(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    fail(ErrorKind::kCatalog, "database directory {} does not exist", path);
  const std::string mpath = path + "/" + Manifest::kFileName;
  if (::stat(mpath.c_str(), &st) != 0) fail(ErrorKind::kCatalog, "{} is not a raydb database (no manifest.json)", path);
  DirectoryLock lock(path, DirectoryLock::Mode::kShared);
  CheckReport report;
  Manifest m;
  try {
    m = Manifest::read(mpath);
  } catch (const Error& e) {
    report.problems.push_back(e.what());  // nothing else can be trusted
    return report;
  }
  if (!m.checksummed)
    report.notes.push_back(fmt::format("{} has no checksums (written by an older raydb): statistics and dictionary "
                                       "codes were checked, file contents not",
                                       mpath));
  for (const ManifestTable& t : m.tables) {
    report.tables++;
    for (const ManifestColumn& c : t.columns) check_column(path, t, c, m.checksummed, report);
  }
  for (const RtViewEntry& v : m.rt_views) {
    const std::string vdir = path + "/" + v.dir;
    if (::stat(vdir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      report.problems.push_back(fmt::format("missing rt view directory {} (view {})", vdir, v.name));
  }
  return report;
}

}  // namespace raydb::persist
