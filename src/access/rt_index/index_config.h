#pragma once
// SQL's view of the key indexes: an index kind (RT, SORTED, HASH) plus the text
// options of CREATE INDEX ... WITH (option = value, ...), parsed and checked into the
// switches of RtIndex / the baselines, and a factory that builds the index. The
// catalog stores the options as text; everything that gives them meaning is here,
// so a bad option fails at CREATE INDEX, before anything is written.
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "access/rt_index/baselines.h"
#include "common/index_kind.h"
#include "access/rt_index/rt_index.h"

namespace raydb::access {

using raydb::IndexKind;
using raydb::index_kind_name;

struct IndexConfig {
  IndexKind kind = IndexKind::kRt;
  RtIndexOptions rt;          // kRt
  BaselineOptions baseline;   // kSorted, kHash
};

// `kind` is "rt", "sorted" or "hash" (any case). Options (names any case, values as
// written): RT: sort_keys, compress_duplicates, closest_hit_ranges, sorted_probes,
// compact (booleans: true/false/on/off/1/0), bucket_size (1..65536), partitions
// (1..1024), primitive (triangle|box); SORTED and HASH: sorted_probes. Throws
// Error(kInvalidInput) with one line naming the option for anything else, for a
// repeated option and for switches RtIndex rejects together (buckets need sorted
// keys and closest-hit lookups).
IndexConfig parse_index_config(const std::string& kind, const std::vector<std::pair<std::string, std::string>>& options);

// Builds the index over normalized keys (key_codec.h). `tracer` is used by kRt only
// and must outlive the index.
std::unique_ptr<KeyIndex> build_key_index(const IndexConfig& config, rt::Tracer& tracer, std::span<const uint64_t> keys);

}  // namespace raydb::access
