#pragma once
// manifest.json: the one file that says what a database directory holds. Format
// version 1 (version 2 adds "indexes"; a manifest without indexes is still written
// as version 1, so older raydb builds keep opening such databases):
//
//   { "format_version": 1,
//     "generation": 7,                      // bumped by every commit / drop
//     "tables": [ { "name": "lineorder", "rows": 6001171,
//       "columns": [ { "name": "lo_orderkey", "type": "INTEGER",
//                      "file": "g7.t0.lineorder.c0.lo_orderkey.col", "bytes": 24004684,
//                      "stats": { "min": 1, "max": 6000000 },          // absent when rows == 0
//                      "checksum": "6f1c0e9b2a4d5e77",                // storage/persist/checksum.h
//                      "dictionary": { "file": "...dict", "entries": 7, "bytes": 120,
//                                      "checksum": "..." },           // VARCHAR only
//                      "nullable": true,                              // absent: NOT NULL
//                      "validity": { "file": "...valid", "bytes": 3, "nulls": 2,
//                                    "checksum": "..." }              // version 5; only with NULLs
//                      "narrowed": { "file": "...nar", "bytes": 6001171, "width": 1,
//                                    "base": 1, "distinct": 0, "checksum": "..." }
//                    } ] } ],
//     "indexes": [ { "name": "idx_lo_orderdate", "table": "lineorder",      // version 2
//                    "column": "lo_orderdate", "kind": "rt",
//                    "options": { "bucket_size": "4" } } ],
//     "rt_views": [ { "name": "v", "tables": ["lineorder", "date"],          // version 3
//                     "versions": ["g7.t0.lineorder.c0.lo_orderkey.col", ...],
//                     "dir": "rt_views/v.g8", "definition": "{...}", "rows": 60175, "bytes": 963000 } ] }
//
//     "views": [ { "name": "v", "sql": "select ..." } ] }                   // version 4
//
// A column holding NULLs has a validity bitmap file (bit i % 8 of byte i / 8 set: row
// i holds a value; its value slot holds the column's smallest value where NULL); a
// manifest naming one is written as version 5, so older builds refuse it rather than
// read the placeholders as values. Columns without NULLs have no such file, so
// databases without NULLs are written exactly as before.
//
// Plain views (CREATE VIEW) are their SQL text; a manifest with them is written as
// version 4 (older builds refuse it rather than drop the views on their next write).
// RT views hold their encoded rows in a directory of their own (rt_views/NAME.gGEN);
// a manifest with views is written as version 3, so older builds refuse it rather
// than rewriting it without them.
//
// "manifest_checksum", the last key, is the checksum of the manifest's own text with
// that value written as 16 zeros. Manifests written before checksums existed have no
// checksum fields (older builds ignore them, so the format version did not change):
// they open as before, with statistics and dictionary codes still verified.
//
// "narrowed" (integer columns with rows, written since the fast load path) names the
// column's narrowed form (storage/narrow_encoder.h, storage/narrowed_file.h): the GPU
// reads it instead of narrowing the column per process. Older builds ignore the key
// (the format version did not change); a manifest without it narrows on the fly.
//
// "zonemap" (columns with rows, written since data skipping) names the column's zone
// map file: per block of "block_rows" rows its min, max and NULL count
// (storage/zone_map.h), computed at every commit from the bytes written. Older builds
// ignore the key (the format version did not change); a column without it, or whose
// entry has no checksum, is scanned without skipping. "sort_key" on a table (an array
// of column names) records the order load's --sort-by gave its rows.
//
// Indexes hold no files: they are rebuilt in memory from their column when used.
// Integer-physical stats are JSON integers; DOUBLE stats are JSON numbers, or the
// strings "nan", "inf", "-inf" (JSON has no such numbers).
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "storage/column.h"
#include "storage/index_definition.h"
#include "storage/rt_view_entry.h"
#include "storage/view_entry.h"
#include "raydb/types.h"

namespace raydb::persist {

struct ManifestDictionary {
  std::string file;
  uint64_t entries = 0;
  uint64_t bytes = 0;
  std::optional<uint64_t> checksum;  // absent in databases written before checksums
};

struct ManifestValidity {
  std::string file;
  uint64_t bytes = 0;
  uint64_t nulls = 0;  // zero bits among the table's rows; > 0
  std::optional<uint64_t> checksum;
};

struct ManifestNarrowed {
  std::string file;
  uint64_t bytes = 0;     // rows * width + distinct * 8
  int width = 8;          // 1, 2, 4 or 8
  int64_t base = 0;       // offset mode: value = base + stored
  uint64_t distinct = 0;  // dictionary mode: decode values after the stored ones (width 2)
  std::optional<uint64_t> checksum;  // without it (checksums stripped) the file is never read
};

// Per-block min/max of the column (storage/zone_map.h), written since data skipping.
struct ManifestZoneMap {
  std::string file;
  uint64_t bytes = 0;       // blocks * ZoneMap::kEntryBytes
  uint64_t block_rows = 0;  // rows per block
  std::optional<uint64_t> checksum;  // without it the file is never read (no skipping)
};

struct ManifestColumn {
  std::string name;
  Type type;
  std::string file;
  uint64_t bytes = 0;
  ColumnStats stats;  // meaningful when the table has rows
  std::optional<uint64_t> checksum;  // of the column file; absent in older databases
  std::optional<ManifestDictionary> dictionary;
  bool nullable = false;                     // declared; absent in the manifest = NOT NULL
  std::optional<ManifestValidity> validity;  // only when the column holds a NULL
  std::optional<ManifestNarrowed> narrowed;  // absent in older databases and for DOUBLE
  std::optional<ManifestZoneMap> zone_map;   // absent in older databases and empty tables
};

struct ManifestTable {
  std::string name;
  uint64_t rows = 0;
  std::vector<ManifestColumn> columns;
  // The columns the rows are sorted by (load's --sort-by), in order; empty: no known
  // order. Writers that change rows (INSERT, UPDATE, DELETE) write a table without it.
  std::vector<std::string> sort_key;
  // Not stored: the entry was computed from the data by this process (a commit), so
  // its statistics are trusted even when the manifest it came with had no checksum.
  bool computed = false;
};

struct Manifest {
  static constexpr int kFormatVersion = 5;         // the newest version this build reads and writes
  static constexpr int kOldestFormatVersion = 1;   // version 1: no indexes
  static constexpr const char* kFileName = "manifest.json";
  static constexpr const char* kTempFileName = "manifest.json.tmp";

  static constexpr const char* kChecksumKey = "manifest_checksum";

  uint64_t generation = 0;
  bool checksummed = false;  // parsed text carried a (verified) manifest_checksum
  std::vector<ManifestTable> tables;
  std::vector<IndexDefinition> indexes;
  std::vector<RtViewEntry> rt_views;
  std::vector<ViewEntry> views;

  // Parses and validates manifest text. `path` is only used in messages. Throws
  // Error(kCatalog) "corrupted manifest <path>: <what>" on any defect.
  static Manifest parse(const std::string& text, const std::string& path);
  static Manifest read(const std::string& path);
  // The text to write, ending with its manifest_checksum.
  std::string to_json() const;
  // `text` with its manifest_checksum recomputed (tests that edit a manifest on
  // purpose use it to reach the checks behind the checksum). Unchanged without one.
  static std::string reseal(std::string text);

  // Index of the table named `name` (case-insensitive), or -1.
  int find_table(std::string_view name) const;
  // Index of the index named `name` (case-insensitive), or -1.
  int find_index(std::string_view name) const;
  // Drops the indexes on table `name` (when the table is replaced or dropped).
  void drop_indexes_of(std::string_view table);
  // Index of the RT view named `name` (case-insensitive), or -1.
  int find_rt_view(std::string_view name) const;
  // Drops the RT views that join table `name` (when the table is dropped).
  void drop_rt_views_of(std::string_view table);
  // Index of the plain view named `name` (case-insensitive), or -1.
  int find_view(std::string_view name) const;
  // Every column, dictionary and validity file the manifest names.
  std::set<std::string> referenced_files() const;
};

// Whether `name` looks like a file that raydb writes into a database directory (data
// files "g<digits>.<...>.col|dict|valid" and the manifest's temporary file). Only such
// files are ever deleted as leftovers; anything else in the directory is left alone.
bool is_database_data_file(std::string_view name);

// The folder (inside the database directory) that holds the RT views' rows directories.
inline constexpr const char* kRtViewFolder = "rt_views";

}  // namespace raydb::persist
