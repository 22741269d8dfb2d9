#pragma once
// The API every key index shares (RT index, sorted array, hash table), so the
// benchmark harness, the tests and the planner treat them alike. Keys are normalized
// uint64 (key_codec.h); a row id is the key's position in the indexed column. Nothing
// here knows tables: plan/exec hand in key and value arrays.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace raydb::access {

using RowId = uint32_t;

// One lookup: all keys k with lo <= k <= hi (a point lookup has lo == hi; lo > hi
// is an empty range).
struct KeyRange {
  uint64_t lo = 0, hi = 0;
};

// Aggregated results per lookup: number of matching rows and the sum of the value
// column over them (0 when the index was built without values).
struct AggregateResult {
  std::vector<uint64_t> count;
  std::vector<int64_t> sum;
};

// Materialized results: rows of lookup i are rows[offsets[i] .. offsets[i+1]).
// Built by a count pass, an exclusive prefix sum and a write pass.
struct RowIdLists {
  std::vector<uint64_t> offsets;
  std::vector<RowId> rows;
};

// Pairs of an index-nested-loop join: (probe row, build row).
struct JoinPairs {
  std::vector<RowId> probe;
  std::vector<RowId> build;
  size_t size() const { return probe.size(); }
};

struct IndexStats {
  double build_ms = 0;          // GPU-resident indexes: with the data already on the device
  double upload_ms = 0;         // GPU-resident indexes: copying keys and values to the device
  size_t memory_bytes = 0;      // resident after the build
  size_t peak_build_bytes = 0;  // highest footprint during the build
};

// Device times of the last aggregate/materialize of a GPU-resident index (0 elsewhere):
// the lookup pass(es) alone with lookups and results on the device (CUDA events), and
// the sort of the probes on the device (sorted probes), which launch_ms excludes.
struct LookupTimes {
  double launch_ms = 0;
  double sort_ms = 0;
};

class KeyIndex {
 public:
  virtual ~KeyIndex() = default;
  virtual std::string name() const = 0;
  virtual bool supports_ranges() const { return true; }
  virtual size_t size() const = 0;  // indexed rows
  virtual const IndexStats& stats() const = 0;

  virtual void aggregate(std::span<const KeyRange> lookups, AggregateResult& out) const = 0;
  virtual void materialize(std::span<const KeyRange> lookups, RowIdLists& out) const = 0;
  virtual LookupTimes last_lookup_times() const { return {}; }
};

std::vector<KeyRange> point_lookups(std::span<const uint64_t> keys);

// IN-list lookups: list i is values[list_offsets[i] .. list_offsets[i+1]); equal values
// within a list count once (SQL IN semantics). Done as one batch of point lookups.
void aggregate_in_lists(const KeyIndex& index, std::span<const uint64_t> list_offsets,
                        std::span<const uint64_t> values, AggregateResult& out);
void materialize_in_lists(const KeyIndex& index, std::span<const uint64_t> list_offsets,
                          std::span<const uint64_t> values, RowIdLists& out);

// Index-nested-loop join: each probe key is a point lookup into `build`.
JoinPairs index_join(const KeyIndex& build, std::span<const uint64_t> probe_keys);

// Exclusive prefix sum of counts into offsets (size n + 1), in parallel.
void exclusive_prefix_sum(std::span<const uint64_t> counts, std::vector<uint64_t>& offsets);

}  // namespace raydb::access
