#pragma once
// raydb check: verifies everything a database directory's manifest promises, file by
// file, and reports each problem as one line instead of stopping at the first.
#include <cstdint>
#include <string>
#include <vector>

namespace raydb::persist {

struct CheckReport {
  std::vector<std::string> problems;  // one line each; empty: the database is intact
  std::vector<std::string> notes;     // not errors (e.g. files without checksums)
  uint64_t files = 0;                 // column and dictionary files verified
  uint64_t bytes = 0;                 // their bytes
  uint64_t tables = 0;
};

// Reads the manifest (its checksum and structure) and every column and dictionary
// file it names: present, of the manifest's size, checksum, dictionary codes in range,
// statistics equal to the data. Holds the directory's shared lock meanwhile, so no
// writer removes files under it. Throws only when `path` is no database at all.
CheckReport check_database_files(const std::string& path);

}  // namespace raydb::persist
