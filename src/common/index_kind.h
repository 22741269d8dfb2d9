#pragma once
// The kinds of secondary index (CREATE INDEX ... USING RT | SORTED | HASH | RTSCAN): one
// enum for the catalog, the planner and the access methods. RTSCAN is the multi-column
// RT scan (access/rt_scan): it answers whole filters with a row selection, not lookups.
#include <optional>
#include <string_view>

namespace raydb {

enum class IndexKind { kRt, kSorted, kHash, kRtScan };

inline const char* index_kind_name(IndexKind k) {  // "rt", "sorted", "hash": the catalog's spelling
  switch (k) {
    case IndexKind::kRt: return "rt";
    case IndexKind::kSorted: return "sorted";
    case IndexKind::kHash: return "hash";
    case IndexKind::kRtScan: return "rtscan";
  }
  return "?";
}

inline std::optional<IndexKind> parse_index_kind(std::string_view name) {
  if (name == "rt") return IndexKind::kRt;
  if (name == "sorted") return IndexKind::kSorted;
  if (name == "hash") return IndexKind::kHash;
  if (name == "rtscan") return IndexKind::kRtScan;
  return std::nullopt;
}

}  // namespace raydb
