#pragma once
// Opening and verifying the files of one stored column (its column file and, for
// VARCHAR, its dictionary file) against the manifest's entry. Shared by
// DatabaseDirectory (open) and check_database (raydb check).
#include <memory>
#include <string>

#include "storage/column.h"
#include "storage/dictionary.h"
#include "storage/persist/manifest.h"

namespace raydb::persist {

// Reads and validates a dictionary file (size, checksum, offsets, order). Throws
// kCatalog, one line naming the file and `what` (table.column).
std::shared_ptr<const Dictionary> read_dictionary(const std::string& path, const ManifestDictionary& d,
                                                  const std::string& what);

// Maps and validates a validity bitmap file (size, checksum, NULL count). Read whole
// at open (1/32 of an INTEGER column's bytes), so a NULL count that lies never reaches
// a query. Throws kCatalog, one line naming the file.
std::shared_ptr<Buffer> read_validity(const std::string& path, const ManifestValidity& v, uint64_t rows,
                                      const std::string& what);

// Reads a zone map file (size, checksum, entries; 24 bytes per 64 Ki rows, read whole
// at open). Throws kCatalog, one line naming the file.
ZoneMapPtr read_zone_map(const std::string& path, const ManifestZoneMap& z, const Type& type, uint64_t rows,
                         const std::string& what);

// Checks a column's stored values against its manifest entry: dictionary codes in
// range, checksum, min/max statistics. Throws kCatalog, one line naming the file.
void verify_column(const void* data, uint64_t rows, const ManifestColumn& c, const Dictionary* dict,
                   const std::string& path, const std::string& what);

// Maps column `c` of table `t` in directory `dir` (checks the file and its dictionary's
// exist with the manifest's sizes; the dictionary is read when first used) and sets
// verify_column as its verifier, run the first time the column is read. `trusted`: the
// manifest's own checksum held (or this process wrote it), so its statistics serve the
// planner unread and its narrowed file (checked to exist with the manifest's size) is
// handed to the GPU loader.
ColumnPtr open_column(const std::string& dir, const ManifestTable& t, const ManifestColumn& c, bool trusted);

}  // namespace raydb::persist
